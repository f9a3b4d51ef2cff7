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

    /// What kind of failure this is, as the user is told: never the server's fault for a status that says the
    /// request (or the user) is the problem.
    package enum Kind: Sendable, Equatable {
        /// No response: no connection, DNS, connection refused, timeout.
        case unreachable
        /// The connection was refused as not private: a TLS certificate the engine does not trust.
        case insecure
        /// 401: the server wants the user to sign in.
        case signInRequired
        /// 403: signed in, or not, this user may not see the page.
        case forbidden
        /// 404, 410.
        case notFound
        /// Another 4xx: the request was not one the server could use.
        case clientError
        /// 5xx: the server failed.
        case serverError
    }

    package var kind: Kind {
        switch statusCode {
        case 0:
            let lower = detail.lowercased()
            return lower.contains("tls") || lower.contains("certificate") ? .insecure : .unreachable
        case 401: return .signInRequired
        case 403: return .forbidden
        case 404, 410: return .notFound
        case 400..<500: return .clientError
        default: return .serverError
        }
    }

    /// The error screen's title: what happened, in the user's words.
    package var title: String {
        switch kind {
        case .unreachable: "Can't Reach the Server"
        case .insecure: "Can't Connect Securely"
        case .signInRequired: "Sign-In Required"
        case .forbidden: "Access Denied"
        case .notFound: "Page Not Found"
        case .clientError: "The Page Could Not Be Loaded"
        case .serverError: "Server Error"
        }
    }

    /// The error screen's description: what failed, and what to do.
    package var message: String {
        let host = URLParts.host(of: url)
        return switch kind {
        case .unreachable: "\(host) did not answer (\(detail)). Check the connection, then try again."
        case .insecure:
            "\(host) could not prove its identity (\(detail)), so the connection would not be private. The site's "
                + "certificate needs fixing; trying again will not help until it is."
        case .signInRequired: "\(host) needs you to sign in to show this page (HTTP 401)."
        case .forbidden: "Your account may not see this page on \(host) (HTTP 403)."
        case .notFound: "\(host) has no page at this address (HTTP \(statusCode))."
        case .clientError:
            "\(host) could not use this request (HTTP \(statusCode)). Going back and trying again may help."
        case .serverError:
            "\(host) answered HTTP \(statusCode). Try again; if it keeps failing, the server has a problem."
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
