/// The one seam between the bridge and a web engine. The WebKitGTK engine implements it; unit tests use a fake.
@MainActor
package protocol BridgeWebView: AnyObject {
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
    package func deliverReplies(_ replies: [String], completion: @escaping @MainActor ((any Error)?) -> Void) {
        evaluate(javaScript: Self.replyScript(replies), completion: completion)
    }

    /// `window.nativeBridge.replyWithJSON("[…]")`: the call ``deliverReplies(_:completion:)`` makes, as script.
    package static func replyScript(_ replies: [String]) -> String {
        // Written in one pass into one buffer (joining, quoting and concatenating made three more copies).
        var out: [UInt8] = []
        out.reserveCapacity(replies.reduce(40 + replies.count) { $0 + $1.utf8.count + $1.utf8.count / 8 })
        out.append(contentsOf: #"window.nativeBridge.replyWithJSON("["#.utf8)
        for (index, reply) in replies.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            JSON.writeStringContents(reply, to: &out)
        }
        out.append(contentsOf: #"]")"#.utf8)
        return String(decoding: out, as: UTF8.self)
    }
}

/// Errors the bridge reports when talking to the page.
public struct BridgeError: Error, CustomStringConvertible, Sendable, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }

    /// The web view was destroyed before the script could run.
    public static let webViewGone = BridgeError("the web view is gone")
}
