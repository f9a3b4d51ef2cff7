/// The one seam between the bridge and a web engine. The WebKitGTK engine implements it; unit tests use a fake.
@MainActor
public protocol BridgeWebView: AnyObject {
    /// The URL the web view shows now (after redirects), if any.
    var currentURL: String? { get }
    /// Evaluates `javaScript` in the page. `completion` runs on the main thread with `nil` on success.
    func evaluate(javaScript: String, completion: @escaping @MainActor ((any Error)?) -> Void)
    /// Hands `replies` — the wire texts of reply messages (`{"id",…}`), in order — to the page's
    /// `window.nativeBridge.replyWithJSON(text)` in one call, `text` being the JSON array of them.
    /// `completion` as for ``evaluate(javaScript:completion:)``. The default evaluates that call as script
    /// text; an engine passes the text as a string argument instead (nothing to compile, no escaping).
    func deliverReplies(_ replies: [String], completion: @escaping @MainActor ((any Error)?) -> Void)
}

extension BridgeWebView {
    public func deliverReplies(_ replies: [String], completion: @escaping @MainActor ((any Error)?) -> Void) {
        evaluate(javaScript: Self.replyScript(replies), completion: completion)
    }

    /// `window.nativeBridge.replyWithJSON("[…]")`: the call ``deliverReplies(_:completion:)`` makes, as script.
    public static func replyScript(_ replies: [String]) -> String {
        let array = "[" + replies.joined(separator: ",") + "]"
        return "window.nativeBridge.replyWithJSON(" + JSON.string(array).serialized() + ")"
    }
}

/// Errors the bridge reports when talking to the page.
public struct BridgeError: Error, CustomStringConvertible, Sendable, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }

    /// The web view was destroyed before the script could run.
    public static let webViewGone = BridgeError("the web view is gone")
}
