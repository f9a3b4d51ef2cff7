/// Which pages get the bridge: pages whose origin (scheme, host, port) is allowed. The host allows the
/// origin it was started with unless told otherwise (`--allow-origin`). Pages from other origins get no
/// adapter script and no routing at all — including after the user navigates there.
package struct OriginPolicy: Sendable, Equatable {
    /// Allowed origins, normalised: "https://app.example", "http://127.0.0.1:8080", "file://".
    package let origins: Set<String>

    /// `allowed`: origins or URLs ("https://app.example/path" allows "https://app.example").
    package init(allowed: [String]) {
        origins = Set(allowed.compactMap(Self.origin(of:)))
    }

    /// Whether a page at `url` gets the bridge.
    package func allows(_ url: String) -> Bool {
        guard let origin = Self.origin(of: url) else { return false }
        return origins.contains(origin)
    }

    /// WebKit user-script URL patterns for the allowed origins (WebKit patterns carry no port: the host
    /// also checks the exact origin, port included, before routing anything).
    package var userScriptPatterns: [String] {
        origins.sorted().map { origin in
            if origin == "file://" { return "file:///*" }
            var hostPart = origin
            if let colon = hostPart.lastIndex(of: ":"),
                hostPart[hostPart.index(after: colon)...].allSatisfy(\.isNumber),
                !hostPart[hostPart.index(after: colon)...].isEmpty
            {
                hostPart = String(hostPart[..<colon])
            }
            return hostPart + "/*"
        }
    }

    /// "scheme://host[:port]" in lower case (default ports dropped), "file://" for files; `nil` when `url`
    /// has no scheme and host.
    package static func origin(of url: String) -> String? {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        let scheme = url[..<schemeEnd.lowerBound].lowercased()
        guard !scheme.isEmpty else { return nil }
        if scheme == "file" { return "file://" }
        let rest = url[schemeEnd.upperBound...]
        var authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var host = authority.lowercased()
        guard !host.isEmpty else { return nil }
        if (scheme == "http" && host.hasSuffix(":80")) || (scheme == "https" && host.hasSuffix(":443")) {
            host = String(host[..<host.lastIndex(of: ":")!])
        }
        return "\(scheme)://\(host)"
    }
}
