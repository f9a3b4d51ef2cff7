import Foundation

/// The XDG base directories the host keeps its files in (plugins, website data, caches, window state, trusted
/// publisher keys).
///
/// A variable that is unset, empty or relative is ignored, as the XDG Base Directory specification says, and the
/// default under the home folder is used.
package enum BaseDirectory: Sendable {
    /// `$XDG_DATA_HOME`, by default `~/.local/share`.
    case data
    /// `$XDG_CACHE_HOME`, by default `~/.cache`.
    case cache
    /// `$XDG_STATE_HOME`, by default `~/.local/state`.
    case state
    /// `$XDG_CONFIG_HOME`, by default `~/.config`.
    case config

    /// The directory's absolute path for `environment` (the process's own when `nil`).
    package func path(environment: [String: String]? = nil) -> String {
        let environment = environment ?? ProcessInfo.processInfo.environment
        let (variable, fallback) =
            switch self {
            case .data: ("XDG_DATA_HOME", ".local/share")
            case .cache: ("XDG_CACHE_HOME", ".cache")
            case .state: ("XDG_STATE_HOME", ".local/state")
            case .config: ("XDG_CONFIG_HOME", ".config")
            }
        if let value = environment[variable], value.hasPrefix("/") { return value }
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory()
        return (home as NSString).appendingPathComponent(fallback)
    }

    /// `path` with `components` appended (e.g. `BaseDirectory.data.appending("strada/plugins")`).
    package func appending(_ components: String, environment: [String: String]? = nil) -> String {
        (path(environment: environment) as NSString).appendingPathComponent(components)
    }
}
