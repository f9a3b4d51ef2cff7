import Foundation
package import StradaCore
package import StradaEngineGTK
package import StradaNavigation
package import StradaPluginHost

/// An app built on the host, described in one JSON file a team hand-edits and ships: its id, name, start
/// page, origins, plugins, path configuration, user agent, window and icon. `strada-host run --app FILE`
/// runs it (flags override what it says); `strada-host app install FILE` puts it in the desktop's launcher.
///
/// JSON, not TOML: the same team already hand-edits the path configuration in JSON for iOS and Android, and
/// the host reads it with the JSON reader it already has. Relative paths are relative to the file.
package struct AppDefinition: Sendable, Equatable {
    /// Reverse-DNS id: the website-data folders, the desktop entry and icon names, the window's app id.
    package var id: String
    package var name: String
    package var startURL: String
    package var allowedOrigins: [String] = []
    package var pluginDirectories: [String] = []
    /// Whether the installed host's first-party plugins (its system plugins folder) are searched after the
    /// app's `plugins`: `"system_plugins": false` for an app that wants only its own.
    package var systemPlugins = true
    package var pathConfiguration: [String] = []
    package var userAgentPrefix: String?
    package var windowSize: (width: Int, height: Int)?
    /// An SVG or PNG file, installed into the icon theme under the app's id.
    package var icon: String?
    package var colorScheme: ColorScheme?
    /// What each plugin (by id) may do in this app, replacing its manifest's declaration (`"grants"`).
    package var grants: [String: PluginGrant.Override] = [:]
    /// Load only plugins installed from packages signed by a trusted publisher key (`"require_signed_plugins"`).
    package var requireSignedPlugins = false
    /// The About window's version, developer, website (http or https) and license (an SPDX id such as "MIT").
    package var version: String?
    package var developerName: String?
    package var website: String?
    package var license: String?
    /// The primary menu's own items: `{"title": …, "url": …}` visits a URL, `{"title": …, "action": …}` runs
    /// a native action (``PrimaryMenu/nativeActions``).
    package var menu: [PrimaryMenu.Item] = []
    /// Developer mode: WebKit's inspector (F12, Ctrl+Shift+I, "Inspect Element").
    package var developer = false
    /// The desktop entry's `Categories` (default `Network`), `Keywords` (default none) and `StartupWMClass`
    /// (default the id; the window's class is set to match).
    package var categories = ["Network"]
    package var keywords: [String] = []
    package var startupWMClass: String?
    /// The app's tabs (``tabs(from:file:)``); empty: one stack, no view switcher.
    package var tabs: [TabDefinition] = []
    /// The URL schemes the app opens (`"url_schemes": ["myapp"]`, lowercase): its desktop entry handles them
    /// (`x-scheme-handler/myapp`) and `myapp://posts/1` opens `/posts/1` on the start URL's origin
    /// (``DeepLink``).
    package var urlSchemes: [String] = []
    /// The file it was read from (absolute).
    package var path: String

    /// Every key a definition may have, in the order the starter writes them.
    package static let keys = [
        "id", "name", "start_url", "allowed_origins", "plugins", "system_plugins", "path_configuration",
        "user_agent_prefix", "window", "icon", "color_scheme", "version", "developer_name", "website", "license",
        "menu", "developer", "categories", "keywords", "startup_wm_class", "url_schemes", "grants", "tabs",
        "require_signed_plugins",
    ]

    /// Reads and checks the definition at `path`. The error is one line naming the file and the key.
    package init(contentsOf path: String) throws(AppDefinitionError) {
        let absolute = (path as NSString).standardizingPath
        let file = absolute.hasPrefix("/") ? absolute : FileManager.default.currentDirectoryPath + "/" + absolute
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
            throw AppDefinitionError(file: path, "cannot be read (check the path)")
        }
        try self.init(json: text, path: file)
    }

    /// Reads and checks a definition's text; `path` names the file in errors and anchors relative paths.
    package init(json text: String, path: String) throws(AppDefinitionError) {
        func fail(_ reason: String) -> AppDefinitionError { AppDefinitionError(file: path, reason) }
        let document: JSON
        do {
            document = try JSON(parsing: text)
        } catch {
            throw fail("is not JSON: \(error.position(in: text)): \(error.reason)")
        }
        guard case .object(let object) = document else { throw fail("must be a JSON object of settings") }
        for key in object.keys.sorted() where !Self.keys.contains(key) {
            let near = Self.keys.first {
                $0.replacingOccurrences(of: "_", with: "")
                    == key.lowercased()
                    .replacingOccurrences(of: "_", with: "").replacingOccurrences(of: "colour", with: "color")
            }
            throw fail(
                "has an unknown key \"\(key)\"" + (near.map { "; did you mean \"\($0)\"?" } ?? "")
                    + " (known: \(Self.keys.joined(separator: ", ")))")
        }
        func string(_ key: String, required: Bool = false) throws(AppDefinitionError) -> String? {
            guard let value = object[key] else {
                if required { throw fail("needs \"\(key)\"") }
                return nil
            }
            guard let text = value.stringValue, !text.isEmpty else {
                throw fail("\"\(key)\" must be a non-empty string")
            }
            return text
        }
        func strings(_ key: String) throws(AppDefinitionError) -> [String] {
            switch object[key] {
            case nil: return []
            case .string(let one)?: return [one]
            case .array(let items)?:
                var result: [String] = []
                for (index, item) in items.enumerated() {
                    guard let text = item.stringValue, !text.isEmpty else {
                        throw fail("\"\(key)\"[\(index)] must be a non-empty string")
                    }
                    result.append(text)
                }
                return result
            default: throw fail("\"\(key)\" must be a string or an array of strings")
            }
        }
        let directory = (path as NSString).deletingLastPathComponent
        func resolve(_ relative: String) -> String {
            relative.hasPrefix("/")
                ? relative
                : ((directory as NSString).appendingPathComponent(relative) as NSString)
                    .standardizingPath
        }

        self.path = path
        id = try string("id", required: true)!
        guard Self.isValidID(id) else {
            throw fail("\"id\" must be a reverse-DNS name like \"com.example.Notes\" (got \"\(id)\")")
        }
        name = try string("name", required: true)!
        startURL = try string("start_url", required: true)!
        guard let scheme = startURL.split(separator: ":").first?.lowercased(),
            ["http", "https", "file"].contains(scheme),
            OriginPolicy.origin(of: startURL) != nil
        else {
            throw fail("\"start_url\" must be an http(s) or file URL (got \"\(startURL)\")")
        }
        allowedOrigins = try strings("allowed_origins")
        for origin in allowedOrigins where OriginPolicy.origin(of: origin) == nil {
            throw fail("\"allowed_origins\" has \"\(origin)\", not an origin like https://app.example")
        }
        pluginDirectories = try strings("plugins").map(resolve)
        switch object["system_plugins"] {
        case nil: break
        case .bool(let value)?: systemPlugins = value
        default: throw fail("\"system_plugins\" must be true or false (false: only the app's own plugins)")
        }
        pathConfiguration = try strings("path_configuration").map { source in
            source.lowercased().hasPrefix("http://") || source.lowercased().hasPrefix("https://")
                ? source : resolve(source)
        }
        userAgentPrefix = try string("user_agent_prefix")
        if let window = object["window"] {
            guard case .object(let size) = window, case .number(let width)? = size["width"],
                case .number(let height)? = size["height"], width >= 200, height >= 150, width <= 10000,
                height <= 10000
            else {
                throw fail("\"window\" must be {\"width\": …, \"height\": …} in pixels (at least 200 × 150)")
            }
            windowSize = (Int(width), Int(height))
        }
        if let icon = try string("icon") {
            let file = resolve(icon)
            guard file.hasSuffix(".svg") || file.hasSuffix(".png") else {
                throw fail("\"icon\" must be an .svg or .png file (got \"\(icon)\")")
            }
            guard FileManager.default.fileExists(atPath: file) else {
                throw fail("\"icon\" names \(file), which does not exist")
            }
            self.icon = file
        }
        if let scheme = try string("color_scheme") {
            guard let value = ColorScheme(rawValue: scheme) else {
                throw fail("\"color_scheme\" must be \"light\", \"dark\" or \"system\" (got \"\(scheme)\")")
            }
            colorScheme = value
        }
        grants = try Self.grants(from: object["grants"], file: path)
        switch object["require_signed_plugins"] {
        case nil: break
        case .bool(let value)?: requireSignedPlugins = value
        default: throw fail("\"require_signed_plugins\" must be true or false (true: only signed, trusted plugins)")
        }
        version = try string("version")
        developerName = try string("developer_name")
        website = try string("website")
        if let website, !(website.hasPrefix("https://") || website.hasPrefix("http://")) {
            throw fail("\"website\" must be an http(s) URL (got \"\(website)\")")
        }
        license = try string("license")
        menu = try Self.menu(object["menu"], fail: fail)
        switch object["developer"] {
        case nil: break
        case .bool(let value)?: developer = value
        default: throw fail("\"developer\" must be true or false (true: WebKit's inspector, F12)")
        }
        if object["categories"] != nil { categories = try strings("categories") }
        keywords = try strings("keywords")
        for (key, values) in [("categories", categories), ("keywords", keywords)]
        where values.contains(where: { $0.contains(";") || $0.contains("\n") }) {
            throw fail("\"\(key)\" must be words without \";\" (the desktop entry's separator)")
        }
        startupWMClass = try string("startup_wm_class")
        tabs = try Self.tabs(from: object["tabs"], file: path)
        urlSchemes = try strings("url_schemes").map { $0.lowercased() }
        if let reason = DeepLink.problem(schemes: urlSchemes, startURL: startURL) { throw fail(reason) }
    }

    /// The primary menu items of a definition's `menu`: an array of `{"title": …, "url": …}` or
    /// `{"title": …, "action": …}`.
    private static func menu(
        _ value: JSON?, fail: (String) -> AppDefinitionError
    ) throws(AppDefinitionError) -> [PrimaryMenu.Item] {
        guard let value else { return [] }
        guard case .array(let entries) = value else { throw fail("\"menu\" must be an array of items") }
        let actions = PrimaryMenu.nativeActions.keys.sorted().joined(separator: ", ")
        var items: [PrimaryMenu.Item] = []
        for (index, entry) in entries.enumerated() {
            let usage = "\"menu\"[\(index)] must be {\"title\": …, \"url\": …} or {\"title\": …, \"action\": …}"
            guard case .object(let fields) = entry, let title = fields["title"]?.stringValue, !title.isEmpty,
                Set(fields.keys).isSubset(of: ["title", "url", "action"])
            else { throw fail(usage) }
            switch (fields["url"]?.stringValue, fields["action"]?.stringValue) {
            case (let url?, nil) where OriginPolicy.origin(of: url) != nil:
                items.append(PrimaryMenu.Item(title: title, action: .visit(url)))
            case (nil, let name?):
                guard let action = PrimaryMenu.nativeActions[name] else {
                    throw fail("\"menu\"[\(index)] has action \"\(name)\"; the actions are \(actions)")
                }
                items.append(PrimaryMenu.Item(title: title, action: action))
            default: throw fail(usage + " (a url like https://app.example/help)")
            }
        }
        return items
    }

    /// The About window's contents: the app's name, version, developer, website, license and icon.
    package var about: AboutInfo {
        AboutInfo(
            name: name, version: version, developer: developerName, website: website, license: license,
            icon: icon == nil ? nil : id)
    }

    /// A reverse-DNS application id as GLib accepts it: at least two dot-separated elements of ASCII
    /// letters, digits, `_` and `-`, none starting with a digit, at most 255 bytes.
    package static func isValidID(_ id: String) -> Bool {
        let elements = id.split(separator: ".", omittingEmptySubsequences: false)
        guard id.utf8.count <= 255, elements.count >= 2 else { return false }
        return elements.allSatisfy { element in
            guard let first = element.first, !first.isNumber else { return false }
            return element.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
        }
    }

    /// A starter definition for `id`, to edit.
    package static func starter(id: String) -> String {
        let name = id.split(separator: ".").last.map(String.init) ?? id
        return """
            {
              "id": "\(id)",
              "name": "\(name)",
              "start_url": "http://127.0.0.1:3000/",
              "allowed_origins": [],
              "plugins": ["plugins"],
              "system_plugins": true,
              "path_configuration": ["path-configuration.json"],
              "user_agent_prefix": "\(name)/1.0",
              "window": {"width": 1100, "height": 760},
              "color_scheme": "system"
            }

            """
    }

    // The tuple keeps Equatable from being synthesised.
    package static func == (lhs: AppDefinition, rhs: AppDefinition) -> Bool {
        lhs.id == rhs.id && lhs.name == rhs.name && lhs.startURL == rhs.startURL
            && lhs.allowedOrigins == rhs.allowedOrigins && lhs.pluginDirectories == rhs.pluginDirectories
            && lhs.systemPlugins == rhs.systemPlugins && lhs.pathConfiguration == rhs.pathConfiguration
            && lhs.userAgentPrefix == rhs.userAgentPrefix
            && lhs.windowSize?.width == rhs.windowSize?.width && lhs.windowSize?.height == rhs.windowSize?.height
            && lhs.icon == rhs.icon && lhs.colorScheme == rhs.colorScheme && lhs.path == rhs.path
            && lhs.grants == rhs.grants && lhs.requireSignedPlugins == rhs.requireSignedPlugins
            && lhs.about == rhs.about && lhs.menu == rhs.menu && lhs.developer == rhs.developer
            && lhs.categories == rhs.categories && lhs.keywords == rhs.keywords
            && lhs.startupWMClass == rhs.startupWMClass && lhs.tabs == rhs.tabs && lhs.urlSchemes == rhs.urlSchemes
    }
}

/// A definition that cannot be used: one line, `<file>: <what is wrong and what to write>`.
package struct AppDefinitionError: Error, CustomStringConvertible, Sendable {
    package let description: String
    init(file: String, _ reason: String) { description = "\(file): \(reason)" }
}
