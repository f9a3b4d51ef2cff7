import Foundation

/// The folder WebKit's sandbox puts its D-Bus proxy sockets in: `$XDG_RUNTIME_DIR/webkitgtk/`, or GLib's
/// cache folder when `XDG_RUNTIME_DIR` is unset (`$XDG_CACHE_HOME`, else `~/.cache`).
///
/// Rationale: a Unix socket's path is at most 107 bytes, and WebKit names its proxies
/// `<folder>/webkitgtk/a11y-proxy-XXXXXX` (28 bytes after the folder). Past 79 bytes of folder the paths are cut
/// short, two proxies collide, and WebKit ends the whole host (`g_error`, SIGTRAP) at the first page. A folder
/// that long gets a short private one instead, before GTK and WebKit read the environment.
package enum RuntimeFolder {
    /// The longest folder kept (WebKit's own limit is 79 bytes; this leaves room for a longer proxy name).
    package static let longest = 72

    /// What ``settle()`` did.
    package enum Settlement: Equatable, Sendable {
        /// The folder is short enough (or there is none to judge).
        case kept
        /// `folder` was too long; `XDG_RUNTIME_DIR` is `replacement` now.
        case replaced(folder: String, with: String)
    }

    /// The folder GLib's `g_get_user_runtime_dir()` will return for this environment.
    package static func effective(_ environment: [String: String]) -> String? {
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty { return runtime }
        if let cache = environment["XDG_CACHE_HOME"], !cache.isEmpty { return cache }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.cache"
    }

    /// Whether `folder` is too long for WebKit's proxy sockets.
    package static func tooLong(_ folder: String) -> Bool { folder.utf8.count > longest }

    /// `/tmp/strada-runtime-<uid>`, made if missing, used only when it is a real folder of this user's with mode
    /// 0700 (a link or someone else's is never used: a fresh `mkdtemp` folder then).
    static func shortFolder() -> String? {
        let uid = getuid()
        let shared = "/tmp/strada-runtime-\(uid)"
        _ = mkdir(shared, 0o700)
        var info = stat()
        let isOwnPrivateFolder =
            lstat(shared, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR && info.st_uid == uid
            && info.st_mode & 0o777 == 0o700
        if isOwnPrivateFolder { return shared }
        var template = Array("/tmp/strada-runtime-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }.map { String(cString: $0) }
    }

    /// Gives WebKit a short runtime folder when the one it would use is too long: a private folder in /tmp
    /// (``shortFolder()``). The user's bus socket in the old folder stays in use: its address is
    /// set first when none is.
    package static func settle() -> Settlement {
        let environment = ProcessInfo.processInfo.environment
        guard let folder = effective(environment), tooLong(folder), let replacement = shortFolder() else {
            return .kept
        }
        if (environment["DBUS_SESSION_BUS_ADDRESS"] ?? "").isEmpty, let userBus = SessionBus.userBus,
            access(userBus, F_OK) == 0
        {
            setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=" + userBus, 1)
        }
        setenv("XDG_RUNTIME_DIR", replacement, 1)
        return .replaced(folder: folder, with: replacement)
    }
}
