import Foundation
import StradaPluginHost

/// Puts an app in the desktop's launcher, the freedesktop way: a `.desktop` entry in
/// `$XDG_DATA_HOME/applications/<id>.desktop` that runs `strada-host run --app <definition>`, and its icon in
/// the hicolor theme (`$XDG_DATA_HOME/icons/hicolor/{scalable,256x256}/apps/<id>.{svg,png}`), and for an app
/// with `url_schemes` the applications folder's MIME cache brought up to date — and takes them out again.
///
/// The entry runs `strada-host` from the `PATH`, not the binary that wrote it: an entry written by a build
/// tree's host, or shipped in an app's package, keeps working when the host is installed or upgraded.
package struct AppInstaller: Sendable {
    /// `$XDG_DATA_HOME` (default `~/.local/share`).
    package let dataHome: String
    /// The command the entry runs.
    package static let command = "strada-host"

    package init(dataHome: String? = nil) {
        self.dataHome = dataHome ?? BaseDirectory.data.path()
    }

    /// Where the app's desktop entry goes.
    package func desktopEntryPath(id: String) -> String {
        "\(dataHome)/applications/\(id).desktop"
    }

    /// Where the app's icon goes (by its file type).
    package func iconPath(id: String, icon: String) -> String {
        icon.hasSuffix(".svg")
            ? "\(dataHome)/icons/hicolor/scalable/apps/\(id).svg" : "\(dataHome)/icons/hicolor/256x256/apps/\(id).png"
    }

    /// The desktop entry's text for `app`.
    package func desktopEntry(for app: AppDefinition) -> String {
        var lines = [
            "[Desktop Entry]",
            "Type=Application",
            "Version=1.4",
            "Name=\(Self.escaped(app.name))",
            "Comment=\(Self.escaped(app.name)), a Hotwire app (Strada for Linux)",
            "Exec=\(Self.command) run --app \(Self.quoted(app.path)) %u",
            "Terminal=false",
            "Categories=\(Self.list(app.categories))",
            "StartupNotify=true",
            "StartupWMClass=\(app.startupWMClass ?? app.id)",
        ]
        if !app.keywords.isEmpty { lines.append("Keywords=\(Self.list(app.keywords))") }
        if app.icon != nil { lines.append("Icon=\(app.id)") }
        // The desktop opens the app's deep links with it: `Exec=… %u` receives the link.
        if !app.urlSchemes.isEmpty {
            lines.append("MimeType=\(Self.list(app.urlSchemes.map { "x-scheme-handler/\($0)" }))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes the entry and the icon; returns the files written.
    @discardableResult
    package func install(_ app: AppDefinition) throws -> [String] {
        let fileManager = FileManager.default
        let entry = desktopEntryPath(id: app.id)
        try fileManager.createDirectory(
            atPath: (entry as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try desktopEntry(for: app).write(toFile: entry, atomically: true, encoding: .utf8)
        var written = [entry]
        if let icon = app.icon {
            let target = iconPath(id: app.id, icon: icon)
            try fileManager.createDirectory(
                atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            if fileManager.fileExists(atPath: target) { try fileManager.removeItem(atPath: target) }
            try fileManager.copyItem(atPath: icon, toPath: target)
            written.append(target)
        }
        if !app.urlSchemes.isEmpty, updateMIMECache() { written.append("\(dataHome)/applications/mimeinfo.cache") }
        return written
    }

    /// The program that indexes the entries' `MimeType` keys into `mimeinfo.cache`, which is where GLib (and so
    /// `gio open`, `xdg-open` and the desktop) looks up the app for a `myapp:` link (desktop-file-utils).
    package static let mimeCacheUpdater = "/usr/bin/update-desktop-database"

    /// Re-indexes the applications folder's MIME types, as a package's trigger does; `false` when
    /// desktop-file-utils is not installed or the update failed.
    @discardableResult
    package func updateMIMECache() -> Bool {
        guard FileManager.default.isExecutableFile(atPath: Self.mimeCacheUpdater) else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.mimeCacheUpdater)
        process.arguments = ["-q", "\(dataHome)/applications"]
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// Removes the app's entry and icons; returns the files removed (none when it was not installed).
    @discardableResult
    package func uninstall(id: String) throws -> [String] {
        let candidates = [
            desktopEntryPath(id: id), "\(dataHome)/icons/hicolor/scalable/apps/\(id).svg",
            "\(dataHome)/icons/hicolor/256x256/apps/\(id).png",
        ]
        var removed: [String] = []
        for file in candidates where FileManager.default.fileExists(atPath: file) {
            try FileManager.default.removeItem(atPath: file)
            removed.append(file)
        }
        if FileManager.default.fileExists(atPath: "\(dataHome)/applications/mimeinfo.cache") { updateMIMECache() }
        return removed
    }

    /// A value for a string key: backslash, newline, tab escaped (Desktop Entry Specification).
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
            .replacingOccurrences(of: "\t", with: "\\t")
    }

    /// A value for a list key: each item escaped, each followed by `;`.
    static func list(_ items: [String]) -> String {
        items.map { escaped($0) + ";" }.joined()
    }

    /// An Exec argument, quoted when it has to be (Desktop Entry Specification's quoting rules).
    static func quoted(_ argument: String) -> String {
        let reserved = CharacterSet(charactersIn: " \t\n\"'\\><~|&;$*?#()`")
        guard argument.unicodeScalars.contains(where: reserved.contains) else { return argument }
        var inner = ""
        for character in argument {
            if "\"`$\\".contains(character) { inner += "\\\\" }
            inner.append(character)
        }
        return "\"\(inner)\""
    }
}
