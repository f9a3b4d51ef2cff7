import Foundation

/// The session bus the host may use, as `DBUS_SESSION_BUS_ADDRESS` (or, without it, the user's bus socket
/// `$XDG_RUNTIME_DIR/bus`) says. Every decision about the bus is made here: whether to register the app on it
/// (one instance per app, notifications) and whether the address is safe to start WebKit with.
///
/// Rationale: WebKit's sandbox proxies the session bus into the web process (`xdg-dbus-proxy` under
/// bubblewrap) and ends the whole host (`g_error`, SIGTRAP) when it cannot: a stale `unix:path=` address
/// whose folder is gone does that, and so does any list of addresses that starts with a `unix:path=` entry
/// (WebKit takes everything after `path=` up to the next comma as one path, `;` and the next entry included).
package enum SessionBus {
    /// What an address names.
    package enum Address: Equatable, Sendable {
        /// No address (unset or empty): GLib uses the user's bus socket when there is one.
        case unset
        /// `disabled:` (every entry): no session bus, on purpose.
        case disabled
        /// A bus to connect to: the first entry that can be used (a `unix:path=` socket that exists, or an
        /// entry nothing here can check: an abstract socket, TCP, …).
        case usable(String)
        /// Every entry names a socket file that is not there (their paths, in order).
        case missing([String])
    }

    /// What ``settleAddress()`` did to `DBUS_SESSION_BUS_ADDRESS`.
    package enum Settlement: Equatable, Sendable {
        /// Nothing: unset, `disabled:`, or one entry that can be used.
        case kept
        /// A list of addresses became its first usable entry (the old list).
        case narrowed(from: String)
        /// Every entry named a socket file that is not there (their paths): the address is unset.
        case dropped([String])
    }

    /// What `address` (a D-Bus server address list: `transport:key=value,…;…`) names. `exists` says whether a
    /// socket file is there.
    package static func classify(_ address: String?, exists: (String) -> Bool) -> Address {
        let entries = (address ?? "").split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        guard !entries.isEmpty else { return .unset }
        var missing: [String] = []
        for entry in entries {
            guard let colon = entry.firstIndex(of: ":") else { return .usable(entry) }
            let transport = entry[..<colon]
            if transport == "disabled" { continue }
            guard transport == "unix", let path = value(of: "path", in: entry[entry.index(after: colon)...]) else {
                return .usable(entry)
            }
            if exists(path) { return .usable(entry) }
            missing.append(path)
        }
        return missing.isEmpty ? .disabled : .missing(missing)
    }

    /// The unescaped value of `key` in an entry's `key=value,…` part (D-Bus escapes bytes as `%XX`).
    private static func value(of key: String, in parameters: Substring) -> String? {
        for pair in parameters.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 2, parts[0] == key {
                let raw = String(parts[1])
                return raw.removingPercentEncoding ?? raw
            }
        }
        return nil
    }

    /// Whether GTK's accessibility should be off (`GTK_A11Y=none`) because it cannot work: GTK 4 looks for the
    /// accessibility bus through the session bus unless `AT_SPI_BUS_ADDRESS` names it, and without a session
    /// bus it warns "Unable to acquire session bus" on every run. `false` when a bus is reachable or the
    /// environment already decides (`GTK_A11Y` or `AT_SPI_BUS_ADDRESS` set).
    package static func accessibilityIsUnreachable(busReachable: Bool, environment: [String: String]) -> Bool {
        !busReachable && environment["GTK_A11Y"] == nil && (environment["AT_SPI_BUS_ADDRESS"] ?? "").isEmpty
    }

    /// Turns GTK's accessibility off when ``accessibilityIsUnreachable(busReachable:environment:)``; `true`
    /// when it did. Call it before ``Display/open()``.
    package static func quietAccessibility() -> Bool {
        let environment = ProcessInfo.processInfo.environment
        guard accessibilityIsUnreachable(busReachable: reachable, environment: environment) else { return false }
        setenv("GTK_A11Y", "none", 1)
        return true
    }

    /// The address in the environment now.
    private static var address: String? {
        getenv("DBUS_SESSION_BUS_ADDRESS").map { String(cString: $0) }
    }

    private static func socketExists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Makes `DBUS_SESSION_BUS_ADDRESS` safe to start WebKit with, before GTK and WebKit read it: unsets an
    /// address whose every entry is a socket file that is not there, and narrows a list to its first usable
    /// entry. Call it once, before ``Display/open()``.
    package static func settleAddress() -> Settlement {
        let current = address
        switch classify(current, exists: socketExists) {
        case .unset, .disabled:
            return .kept
        case .usable(let entry):
            guard let current, entry != current else { return .kept }
            setenv("DBUS_SESSION_BUS_ADDRESS", entry, 1)
            return .narrowed(from: current)
        case .missing(let paths):
            unsetenv("DBUS_SESSION_BUS_ADDRESS")
            return .dropped(paths)
        }
    }

    /// Whether there is a session bus to register on: a usable address, or, with none, the user's bus socket
    /// (`$XDG_RUNTIME_DIR/bus`). Without either, registering would make GLib try to launch a bus
    /// (`dbus-launch`: failed attempts that delay the start on a machine without one; docs/engine.md) before
    /// going on alone.
    package static var reachable: Bool {
        switch classify(address, exists: socketExists) {
        case .usable: return true
        case .disabled, .missing: return false
        case .unset: return userBus.map(socketExists) ?? false
        }
    }

    /// The user's bus socket, `$XDG_RUNTIME_DIR/bus` (`nil` without a runtime folder).
    package static var userBus: String? {
        guard let runtime = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }), !runtime.isEmpty else {
            return nil
        }
        return runtime + "/bus"
    }
}
