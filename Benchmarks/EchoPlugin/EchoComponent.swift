import StradaCore

/// Replies to every message with the message itself: the native end of the round-trip benchmark.
final class EchoComponent: BridgeComponent {
    nonisolated override class var name: String { "echo" }

    override func onReceive(message: Message) {
        reply(with: message)
    }
}
