/// The scripts the engine injects at document start in the top frame (``WebView/installUserScripts(allowList:)``):
/// the adapter (`SDK/web/adapter.js`, page world) installs `window.nativeBridge`, says "ready" and attaches to
/// whichever web library the page loads; the relay (`SDK/web/relay.js`, isolated world) is the only code that
/// can reach the message handler ``channel``; the Turbo adapter (`SDK/web/turbo-adapter.js`, page world) reports
/// Turbo's visits. Both page-world scripts reach the relay through one handshake, `SDK/web/relay-handshake.js`,
/// put in front of each (``pageWorld(_:)``). All are compiled in (`EmbeddedFiles.txt`).
///
/// The names below are written as literals in the scripts; `PageScriptHandshakeTests` runs the scripts and
/// checks they use these names.
package enum AdapterScript {
    /// The script-message handler the relay posts to (registered by ``WebView``).
    package static let channel = "strada"
    /// The adapter's `platform`.
    package static let platform = "linux"
    /// The DOM event the page-world adapter hands messages to the relay with.
    package static let relayEvent = "strada-linux:post"
    /// The adapter asks whether the relay is there; the relay answers with ``relayReadyEvent``. The two
    /// scripts live in different worlds, and WebKit does not order their injection, so either may run first.
    package static let helloEvent = "strada-linux:hello"
    package static let relayReadyEvent = "strada-linux:relay"

    /// The relay: runs in an isolated script world (invisible to the page's scripts and to iframes), in the
    /// top frame only, and forwards the JSON text the adapter dispatches on `document` to ``channel``.
    package static let relaySource = EmbeddedFiles.text("SDK/web/relay.js")

    /// The adapter: runs in the page's world and sends each message as JSON text to the relay
    /// (``relaySource``) through a DOM event on `document`.
    package static let source = pageWorld("SDK/web/adapter.js")

    /// The Turbo adapter: registers with the page's Turbo (when it has one) so every visit is proposed to
    /// the navigator, and runs the visits the navigator starts (`window.__stradaTurbo`). Page world, through
    /// the same relay; its messages are objects with a `"turbo"` key.
    package static let turboSource = pageWorld("SDK/web/turbo-adapter.js")

    /// A page-world script with the relay handshake (`openRelay`) in front of it, both in one function scope,
    /// so the handshake is written once and is not a property of the page's `window`.
    static func pageWorld(_ path: String) -> String {
        "(function () {\n" + EmbeddedFiles.text("SDK/web/relay-handshake.js") + "\n" + EmbeddedFiles.text(path)
            + "\n})();\n"
    }
}
