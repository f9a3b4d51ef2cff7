import StradaCore
import StradaTesting

/// One page with one component that replies to everything, behind a bridge over an in-memory web view.
@MainActor
final class Harness {
    final class Echo: BridgeComponent {
        nonisolated override class var name: String { "echo" }
        override func onReceive(message: Message) {
            reply(with: message)
            _ = reply(to: message.event, with: #"{"ok":true}"#)
            struct Payload: Decodable { let text: String? }
            let _: Payload? = message.data()
        }
    }

    let webView = InMemoryWebView(url: "https://app.test/")
    let destination = TestDestination()
    let bridge: Bridge
    let delegate: BridgeDelegate

    init() {
        bridge = Bridge(webView: webView, limits: BridgeLimits(maxMessagesPerSecond: .max))
        delegate = BridgeDelegate(location: "https://app.test/", destination: destination, componentTypes: [Echo.self])
        delegate.webViewDidBecomeActive(bridge)
        Strada.config.logger = .init(label: "fuzz") { _ in SwiftLogNoOp() }
    }
}

@MainActor var harness: Harness?

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    MainActor.assumeIsolated {
        if harness == nil { harness = Harness() }
        harness!.bridge.receive(json: text)
        // Every reply the bridge produced must be replyWithJSON("<a JSON string holding an array of objects>").
        let prefix = "window.nativeBridge.replyWithJSON("
        for script in harness!.webView.evaluatedScripts where script.hasPrefix("window.nativeBridge.reply") {
            guard script.hasPrefix(prefix), script.hasSuffix(")"),
                let text = (try? JSON(parsing: String(script.dropFirst(prefix.count).dropLast())))?.stringValue,
                case .array(let replies)? = try? JSON(parsing: text), !replies.isEmpty,
                replies.allSatisfy({ if case .object = $0 { true } else { false } })
            else { fatalError("invalid reply script: \(script)") }
        }
        harness!.webView.clear()
    }
    return 0
}
