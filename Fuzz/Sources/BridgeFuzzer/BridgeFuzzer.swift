import StradaCore
import StradaTesting

/// The component of the fuzzed page: replies to everything, and decodes its data.
final class Echo: BridgeComponent {
    nonisolated override class var name: String { "echo" }
    override func onReceive(message: Message) {
        reply(with: message)
        _ = reply(to: message.event, with: #"{"ok":true}"#)
        struct Payload: Decodable { let text: String? }
        let _: Payload? = message.data()
    }
}

@MainActor var harness: BridgeHarness?

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    MainActor.assumeIsolated {
        if harness == nil {
            Strada.config.logger = .init(label: "fuzz") { _ in SwiftLogNoOp() }
            harness = BridgeHarness(components: [Echo.self], limits: BridgeLimits(maxMessagesPerSecond: .max))
        }
        harness!.send(json: text)
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
