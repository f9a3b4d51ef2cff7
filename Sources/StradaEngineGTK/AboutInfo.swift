package import StradaCore

/// What the About window (`AdwAboutWindow`) says about the app, from its definition: name, version,
/// developer, website, license and icon. Plain data; `WindowControls+About` shows it.
package struct AboutInfo: Sendable, Equatable {
    package var name: String
    package var version: String?
    package var developer: String?
    package var website: String?
    /// An SPDX license id ("MIT", "GPL-3.0-or-later", …) or a license's name.
    package var license: String?
    /// The icon's name in the icon theme (the app's id, as `app install` names it).
    package var icon: String?

    package init(
        name: String, version: String? = nil, developer: String? = nil, website: String? = nil,
        license: String? = nil, icon: String? = nil
    ) {
        self.name = name
        self.version = version
        self.developer = developer
        self.website = website
        self.license = license
        self.icon = icon
    }

    /// The licenses GTK names (its `GtkLicense`), by SPDX id; another license is shown as its text.
    package enum KnownLicense: String, Sendable, CaseIterable {
        case gpl2OrLater = "GPL-2.0-or-later", gpl3OrLater = "GPL-3.0-or-later"
        case lgpl21OrLater = "LGPL-2.1-or-later", lgpl3OrLater = "LGPL-3.0-or-later"
        case bsd2 = "BSD-2-Clause", mit = "MIT", artistic2 = "Artistic-2.0"
        case gpl2Only = "GPL-2.0-only", gpl3Only = "GPL-3.0-only"
        case lgpl21Only = "LGPL-2.1-only", lgpl3Only = "LGPL-3.0-only"
        case agpl3OrLater = "AGPL-3.0-or-later", agpl3Only = "AGPL-3.0-only"
        case bsd3 = "BSD-3-Clause", apache2 = "Apache-2.0", mpl2 = "MPL-2.0"

        /// The license `id` names, by its SPDX id (case-insensitive; the deprecated bare ids `GPL-3.0`, … are
        /// the "-only" licenses they stood for).
        package init?(spdx id: String) {
            let lowered = id.lowercased()
            let match =
                Self.allCases.first { $0.rawValue.lowercased() == lowered }
                ?? Self.allCases.first { $0.rawValue.lowercased() == lowered + "-only" }
            guard let match else { return nil }
            self = match
        }
    }

    /// The control's properties on the automation channel: `name`, and `version`, `developer`, `website`,
    /// `license`, `icon` when the definition gives them.
    package var json: JSONObject {
        var fields: JSONObject = ["name": .string(name)]
        for (key, value) in [
            ("version", version), ("developer", developer), ("website", website), ("license", license), ("icon", icon),
        ] {
            if let value { fields[key] = .string(value) }
        }
        return fields
    }
}
