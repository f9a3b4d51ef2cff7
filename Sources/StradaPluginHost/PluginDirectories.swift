import Foundation

/// Where plugins live: the user's folder (`$XDG_DATA_HOME/strada/plugins`, by default
/// `~/.local/share/strada/plugins`), the installed host's system folder, and the rule that orders them.
package enum PluginDirectories {
    package static var userDefault: String {
        BaseDirectory.data.appending("strada/plugins")
    }

    /// The system plugins folder of an installed host: `<prefix>/lib/strada/plugins` beside
    /// `<prefix>/bin/strada-host` — `/usr/lib/strada/plugins` for the Debian package (`scripts/package`), and
    /// `<root>/usr/lib/strada/plugins` for the package unpacked anywhere (`dpkg-deb -x`): found from the
    /// running binary's own path, so the installed tree is relocatable.
    package static var system: String {
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let prefix = ((executable as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent
        return (prefix as NSString).appendingPathComponent("lib/strada/plugins")
    }

    /// The folders a host searches, in order — one rule for `run`, app definitions and `plugin list`:
    ///
    /// 1. the app's folders: those given with `--plugins`, else the app definition's `plugins`, else the user's
    ///    folder (``userDefault``) if it exists;
    /// 2. then the system folder (``system``, the first-party plugins of the installed host) if it exists,
    ///    unless `includeSystem` is false (`--no-system-plugins`, `"system_plugins": false`).
    ///
    /// A folder named twice is searched once. When two folders offer a component of the same name, the earlier
    /// folder's plugin keeps it (one warning line): an app's own component replaces the first-party one of
    /// that name, and a package update never swaps it out from under the app.
    package static func searched(
        given: [String], app: [String], includeSystem: Bool, userFolder: String = userDefault,
        systemFolder: String = system, exists: (String) -> Bool = exists
    ) -> [String] {
        let own = !given.isEmpty ? given : !app.isEmpty ? app : (exists(userFolder) ? [userFolder] : [])
        let all = own + (includeSystem && exists(systemFolder) ? [systemFolder] : [])
        var seen: Set<String> = []
        return all.filter { seen.insert(canonical($0)).inserted }
    }

    /// Whether something is at `path`.
    package static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    /// A folder's path with `.`, `..`, doubled and trailing slashes and symbolic links resolved.
    static func canonical(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}
