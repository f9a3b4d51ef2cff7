import CWebKitGTK
import StradaCore
import StradaNavigation

/// Where navigations go and what a failed load shows: the host decides (``BrowserWindow/decideRoute``).
extension BrowserWindow {
    /// Hands each navigation's route to ``decideRoute``, and each failed load (no connection, DNS, TLS) to
    /// the page events as ``PageEvent/loadFailed(_:)`` instead of WebKit's own error page.
    func installRouting() {
        let context = Unmanaged.passUnretained(self).toOpaque()
        strada_connect_route_decisions(
            webView.view,
            { kind, uri, redirect, data in
                guard let data, let uri else { return STRADA_ROUTE_DEFAULT }
                let window = Unmanaged<BrowserWindow>.fromOpaque(data).takeUnretainedValue()
                let url = String(cString: uri)
                let request: RouteRequest =
                    switch kind {
                    case STRADA_ROUTE_NEW_WINDOW: .newWindow(url: url)
                    case STRADA_ROUTE_RESPONSE: .response(url: url)
                    default: .navigation(url: url, redirect: redirect != 0)
                    }
                let handled = MainActor.assumeIsolated {
                    // The document about to be loaded announces what its origin may use.
                    switch request {
                    case .response(let url): window.announceComponents(forPage: url)
                    case .navigation(let url, _)
                    where OriginPolicy.origin(of: url) != window.committedURL.flatMap(OriginPolicy.origin(of:)):
                        window.announceComponents(forPage: url)
                    default: break
                    }
                    return window.decideRoute?(request) ?? false
                }
                return handled ? STRADA_ROUTE_IGNORE : STRADA_ROUTE_DEFAULT
            }, context)
        strada_connect_load_failed(
            webView.view,
            { uri, message, data in
                guard let data else { return 0 }
                let window = Unmanaged<BrowserWindow>.fromOpaque(data).takeUnretainedValue()
                let url = uri.map { String(cString: $0) } ?? ""
                let detail = message.map { String(cString: $0) } ?? "the load failed"
                MainActor.assumeIsolated {
                    window.logger.warning("loading \(url) failed: \(detail)")
                    window.onPageEvent?(.loadFailed(VisitError(url: url, statusCode: 0, detail: detail)))
                }
                return 1  // the host shows its error screen; WebKit shows none
            }, context)
    }
}
