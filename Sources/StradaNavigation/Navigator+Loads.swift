import Foundation
import StradaCore

/// Full page loads: without Turbo every committed document is a visit; with it, a cold load (a retry, a
/// visit Turbo could not render in place) stays the top screen's. And what the engine asks before a load.
extension Navigator {
    /// A document was committed: a new visit, a reload, or a back/forward load.
    package func pageCommitted(url: String) {
        let entry = window.currentHistoryEntry
        if pending == .startOver {
            pending = .none
            startOver()
        }
        if Self.isBlank(url) {
            // A blank document (a window a WebDriver session drives starts on one, and Capybara's reset between
            // tests visits one) is never a screen to go back to: the stack starts over from it.
            pending = .none
            if stack.count == 1, let top, Self.isBlank(top.url) {
                top.historyItem = entry
                return
            }
            startOver()
        }
        guard let top else {
            let root = makeScreen(url: url)
            root.historyItem = entry
            push(root, action: "load")
            return
        }
        if stack.count == 1, Self.isBlank(top.url), !Self.isBlank(url) {
            // The first real page after the blank one is the root screen: native Back on it has nowhere to go.
            pending = .none
            let root = makeScreen(url: url)
            root.historyItem = entry
            replaceTop(with: root, action: "load")
            return
        }
        if pending == .coldLoad || top.historyItem == nil {
            // The top screen's own visit became a full load (or its Turbo visit never reached history, or
            // it is the error screen of a visit that failed and this is its retry).
            pending = .none
            top.historyItem = entry
            top.url = url
            top.hasTurbo = false
            clearError(of: top)
            return
        }
        if let index = indexOfCurrentEntry() {
            if index == stack.count - 1 {
                top.url = url  // a reload: the document is new; "ready" renews the components
                top.hasTurbo = false
                clearError(of: top)
            } else {
                // Back (or the page's own history.back()). A document WebKit restores from its back/forward
                // cache reconnects nothing on its own: the Turbo adapter sends "native:restore" at its
                // `pageshow`, and the components connect again to the screen shown.
                pop(to: index, action: "back")
                stack[index].hasTurbo = false
                if case .afterPop(let url, _) = pending, URLMatching.samePage(url, stack[index].url) {
                    pending = .none
                    refreshInPlace()
                }
            }
            return
        }
        // A history entry no screen holds: a new visit, or a traversal forward to an entry whose screen was
        // popped. Either way a new screen.
        let screen = makeScreen(url: url)
        screen.historyItem = entry
        if let topEntry = top.historyItem, !window.historyContains(topEntry) {
            replaceTop(with: screen, action: "replace")
        } else if top.error == nil, top.native == nil, URLMatching.samePage(url, top.url) {
            // A form redirected to the page shown (a sign-in answered by a redirect to "/"): the same screen
            // again, not a second identical one.
            replaceTop(with: screen, action: "replace")
        } else {
            push(screen, action: "advance")
        }
    }

    /// A load failed before anything was shown (no connection, DNS, TLS): the visit's screen shows the
    /// error screen. The screen is the top one when it was waiting for this load (a failed Turbo visit
    /// loaded as a page, a retry, the start page); otherwise a new screen, outside the web view's history,
    /// that Back simply removes.
    package func loadFailed(_ error: VisitError) {
        let scheme = Route.scheme(of: error.url)
        if scheme == "http" || scheme == "https", !originPolicy.allows(error.url),
            let requested = window.requestedURL, !URLMatching.samePage(error.url, requested)
        {
            // A page of another origin the app could not reach: it was never the app's; the browser shows it
            // (and says why it cannot either).
            _ = route(.response(url: error.url))
            return
        }
        if pending == .startOver {
            pending = .none
            startOver()
        }
        if let top, pending == .coldLoad || top.historyItem == nil {
            // Its next commit, if one comes, is still its own (Retry).
            pending = .coldLoad
            showError(error, on: top)
            return
        }
        let screen = makeScreen(url: error.url)
        if let top, stack.count == 1, Self.isBlank(top.url) {
            replaceTop(with: screen, action: "load")  // the blank start page is not a screen to go back to
        } else {
            push(screen, action: top == nil ? "load" : "advance")
        }
        showError(error, on: screen)
    }

    /// The document just committed is an HTTP error page (4xx, 5xx) of the app: its screen shows the error
    /// screen instead.
    package func httpError(_ error: VisitError) {
        guard let top else { return }
        showError(error, on: top)
    }

    func showError(_ error: VisitError, on screen: Screen) {
        screen.error = error
        report?(.visitFailed(url: error.url, statusCode: error.statusCode, error: error.detail))
        report?(
            .screenError(url: error.url, statusCode: error.statusCode, title: error.title, message: error.message))
        if screen === top { showContent() }
        routeError(error)
    }

    /// A status the path configuration routes (`settings.error_routes`, e.g. 401 → a sign-in page): the route
    /// is visited as a link would be, after the error screen is shown — so its rules decide (a modal over the
    /// error screen, as upstream demos present sign-in), and when the route ends with a refresh (turbo-rails'
    /// `refresh_or_redirect_to`), the error screen's visit is retried. `{url}` in the route is the failed
    /// URL, percent-encoded, so the page can send the user back. A route that fails the same way is not
    /// routed again.
    private func routeError(_ error: VisitError) {
        guard let route = errorRoute(error.statusCode),
            let target = Self.errorRouteTarget(route, failed: error.url),
            !Self.samePage(target, error.url, ignoringQuery: true)
        else { return }
        logger.info("HTTP \(error.statusCode) for \(error.url): routed to \(target) (settings.error_routes)")
        Task { @MainActor [weak self] in self?.visit(target, action: .advance) }
    }

    /// `route` for a failure at `failed`: a path is on the failed URL's origin; `{url}` becomes the failed URL.
    static func errorRouteTarget(_ route: String, failed: String) -> String? {
        let encoded = failed.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? failed
        let filled = route.replacingOccurrences(of: "{url}", with: encoded)
        guard filled.hasPrefix("/") else { return filled }
        guard let start = failed.range(of: "://") else { return nil }
        let origin = failed[..<start.upperBound] + URLParts.host(of: failed)
        return origin + filled
    }

    func clearError(of screen: Screen) {
        guard screen.error != nil else { return }
        screen.error = nil
        if screen === top { showContent() }
    }

    /// Where a navigation goes (WebKit asks before loading it): `true` when it was taken elsewhere.
    package func route(_ request: RouteRequest) -> Bool {
        let route = Route.decide(
            request, policy: originPolicy, hostRequested: window.requestedURL, shown: window.committedURL)
        if case .navigation(let url, _) = request, originPolicy.allows(url), top != nil,
            let native = nativeScreen?(url)
        {
            // A link or form of a page without Turbo, to a URL the path configuration makes a native screen.
            push(native: native, url: url)
            return true
        }
        switch route {
        case .app:
            return false
        case .visit(let url):
            logger.debug("\(url) asked for a new window: visited in the app")
            Task { @MainActor [weak self] in self?.visit(url, action: .advance) }
        case .browser(let url):
            logger.info("\(url) is not from an allowed origin: opened in the browser")
            window.openInBrowser(url)
            if pending == .coldLoad, top?.historyItem == nil || top?.error != nil {
                // The top screen was waiting for this document (a Turbo visit redirected out of the app).
                pending = .none
                Task { @MainActor [weak self] in self?.back() }
            }
        case .system(let url):
            logger.info("\(url) opened with the system's handler")
            window.openWithSystem(url)
        case .ignored:
            logger.info("a request for a new window without an address was ignored (the app has one window)")
        }
        return true
    }

    /// `about:blank` (and `about:blank#…`, `about:blank?…`): the empty document, not a page of the app.
    static func isBlank(_ url: String) -> Bool {
        url == "about:blank" || url.hasPrefix("about:blank#") || url.hasPrefix("about:blank?")
    }
}
