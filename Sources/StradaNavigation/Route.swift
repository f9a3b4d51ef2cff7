package import StradaCore

/// A navigation WebKit asks the host about (the engine asks before it loads anything).
package enum RouteRequest: Sendable, Equatable {
    /// A frame navigates to `url` (the frame is not known: also iframes); `redirect`: a server redirect.
    case navigation(url: String, redirect: Bool)
    /// A link with `target=_blank`, or `window.open`.
    case newWindow(url: String)
    /// The main frame's document answered from `url` (after any redirects), before it is shown.
    case response(url: String)
}

/// Where a navigation goes, decided as Hotwire Native decides it: the app's own origins stay in the app,
/// other web addresses open in the user's browser, other schemes go to the system.
package enum Route: Equatable, Sendable {
    /// The web view loads it (WebKit decides as usual).
    case app
    /// A link that wanted a new window, to an allowed origin: an ordinary visit in the app.
    case visit(String)
    /// An http(s) address of another origin: the user's browser.
    case browser(String)
    /// Another scheme (`mailto:`, `tel:`, `sms:`, …): the system's handler.
    case system(String)
    /// Nothing to do (`window.open()` without an address: the host has one window).
    case ignored

    /// Schemes the web view loads itself.
    package static let webSchemes: Set<String> = ["http", "https", "file", "about", "data", "blob", "javascript"]

    /// The route for `request`. `hostRequested` is the last address the host itself loaded (the start
    /// page, `navigate`): it is loaded whatever its origin, as is a reload of `shown`, the document shown now.
    package static func decide(
        _ request: RouteRequest, policy: OriginPolicy, hostRequested: String?, shown: String?
    ) -> Route {
        switch request {
        case .navigation(let url, _):
            return webSchemes.contains(scheme(of: url)) ? .app : .system(url)
        case .newWindow(let url):
            let scheme = scheme(of: url)
            if url.isEmpty { return .ignored }
            if !webSchemes.contains(scheme) { return .system(url) }
            if scheme == "about" || scheme == "javascript" || scheme == "blob" || scheme == "data" {
                return .ignored
            }
            return policy.allows(url) ? .visit(url) : (scheme == "file" ? .ignored : .browser(url))
        case .response(let url):
            let scheme = scheme(of: url)
            guard scheme == "http" || scheme == "https", !policy.allows(url) else { return .app }
            if let hostRequested, URLMatching.samePage(url, hostRequested) { return .app }
            if let shown, URLMatching.samePage(url, shown) { return .app }
            // A link, a form, a script or a redirect is leaving the app's origins: the browser shows it.
            return .browser(url)
        }
    }

    /// The URL's scheme in lower case ("" when it has none).
    package static func scheme(of url: String) -> String {
        guard let colon = url.firstIndex(of: ":") else { return "" }
        let scheme = url[..<colon]
        guard let first = scheme.first, first.isLetter,
            scheme.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." })
        else { return "" }
        return scheme.lowercased()
    }
}
