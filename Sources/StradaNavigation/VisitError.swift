/// Why a visit could not be shown, as the error screen tells it.
package struct VisitError: Sendable, Equatable {
    /// The URL the visit was for.
    package let url: String
    /// The HTTP status (4xx, 5xx), or 0 when no response came (no connection, DNS, TLS).
    package let statusCode: Int
    /// The engine's or the server's own words, shown under the title.
    package let detail: String

    package init(url: String, statusCode: Int, detail: String) {
        self.url = url
        self.statusCode = statusCode
        self.detail = detail
    }

    /// The error screen's title: what happened, in the user's words.
    package var title: String {
        switch statusCode {
        case 0: "Can't Reach the Server"
        case 401, 403: "Access Denied"
        case 404, 410: "Page Not Found"
        case 400..<500: "The Page Could Not Be Loaded"
        default: "Server Error"
        }
    }

    /// The error screen's description: what failed, and what to do.
    package var message: String {
        let host = URLParts.host(of: url)
        switch statusCode {
        case 0: return "\(host) did not answer (\(detail)). Check the connection, then try again."
        case 404, 410: return "\(host) has no page at this address (HTTP \(statusCode))."
        default: return "\(host) answered HTTP \(statusCode). Try again; if it keeps failing, the server has a problem."
        }
    }
}

/// The host part of a URL, for messages ("127.0.0.1:8080"; the URL itself when it has none).
enum URLParts {
    static func host(of url: String) -> String {
        guard let start = url.range(of: "://") else { return url }
        let rest = url[start.upperBound...]
        return String(rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" })
    }
}
