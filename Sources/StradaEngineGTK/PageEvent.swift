package import StradaCore
package import StradaNavigation

/// What happens to the page, reported to the host (the navigator, the automation channel, tests).
package enum PageEvent: Sendable {
    /// A new document was committed (a full load, a reload, or a back/forward load). `bridged` is false for
    /// a page whose origin is not allowed (it has no bridge at all).
    case committed(url: String, bridged: Bool)
    /// The document finished loading.
    case finished(url: String, title: String)
    /// The document's title changed.
    case titleChanged(String)
    /// The URL shown changed within the document (pushState, a history traversal, a fragment).
    case locationChanged(String)
    /// A message from the page's Turbo adapter (`SDK/web/turbo-adapter.js`): an object with a `"turbo"` key.
    case turbo(JSON)
    /// The user asked to go back: the header bar's Back button, Alt+Left or the mouse's back button.
    case backRequested
    /// The page called `window.close()`.
    case closeRequestedByPage
    /// The user closed the window.
    case windowClosed
    /// The user asked to quit the app: Ctrl+Q, or a menu item's `quit` action.
    case quitRequested
    /// The web content process died.
    case webProcessTerminated(reason: String)
    /// A load failed before its document was committed (no connection, DNS, TLS); nothing was shown.
    case loadFailed(VisitError)
    /// The document just committed is an HTTP error (4xx, 5xx) of an allowed origin.
    case httpError(VisitError)
    /// The user pressed the error screen's Retry.
    case retryRequested
    /// The user asked to refresh the screen: Ctrl+R or F5.
    case refreshRequested
    /// A modal's Cancel button, Escape, or its close button: the modal should be dismissed.
    case dismissRequested
    /// The page asks for a permission (notifications, geolocation, camera, microphone, …): answer it once.
    case permissionRequested(PermissionRequest)
    /// The page showed a web notification (it had the permission).
    case notification(title: String, body: String)
}
