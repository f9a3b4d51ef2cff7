/// The one seam between the bridge and a web engine. The WebKitGTK engine implements it; unit tests use a fake.
@MainActor
public protocol BridgeWebView: AnyObject {
    /// The URL the web view shows now (after redirects), if any.
    var currentURL: String? { get }
    /// Evaluates `javaScript` in the page. `completion` runs on the main thread with `nil` on success.
    func evaluate(javaScript: String, completion: @escaping @MainActor ((any Error)?) -> Void)
    /// Hands `json` — the JSON text of an array of reply messages — to the page's
    /// `window.nativeBridge.replyWithJSON(text)` as a string, in one call. `completion` as for
    /// ``evaluate(javaScript:completion:)``. The default evaluates that call as script text; an engine passes the
    /// text as a function argument instead (nothing to compile, no escaping).
    func deliverReplies(json: String, completion: @escaping @MainActor ((any Error)?) -> Void)
}

extension BridgeWebView {
    public func deliverReplies(json: String, completion: @escaping @MainActor ((any Error)?) -> Void) {
        evaluate(
            javaScript: "window.nativeBridge.replyWithJSON(" + JSON.string(json).serialized() + ")",
            completion: completion)
    }
}

/// Errors the bridge reports when talking to the page.
public struct BridgeError: Error, CustomStringConvertible, Sendable, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }

    /// The web view was destroyed before the script could run.
    public static let webViewGone = BridgeError("the web view is gone")
}
