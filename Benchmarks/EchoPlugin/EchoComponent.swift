import StradaCore

/// Replies to every message with the message itself: the native end of the round-trip benchmark, and the
/// native peer of the web library's end-to-end tests.
///
/// - `repeat` with `{"times": N}`: replies N times to that message, with data `{"n": 1}` … `{"n": N}`
///   (native pushing several updates to one callback).
/// - `replyTo` with `{"id": "7", "times": N}`: replies N times (default 1) with message id "7" instead of its
///   own, data `{"n": i}` (a late reply to an earlier message, e.g. one whose component has disconnected).
/// - anything else (`ping`, `connect`, …): one reply, the message unchanged.
final class EchoComponent: BridgeComponent {
    nonisolated override class var name: String { "echo" }

    override func onReceive(message: Message) {
        switch message.event {
        case "repeat":
            for n in 1...max(1, Self.count(message.dataValue?["times"])) {
                reply(with: message.replacing(jsonData: "{\"n\":\(n)}"))
            }
        case "replyTo":
            let data = message.dataValue
            guard let id = data?["id"]?.stringValue else {
                reply(with: message)
                return
            }
            let target = Message(
                id: id, component: message.component, event: message.event, metadata: message.metadata, jsonData: "{}")
            for n in 1...max(1, Self.count(data?["times"])) {
                reply(with: target.replacing(jsonData: "{\"n\":\(n)}"))
            }
        default:
            reply(with: message)
        }
    }

    /// A small positive count from a JSON number, capped so a page cannot make the host spin.
    private static func count(_ value: JSON?) -> Int {
        guard case .number(let number)? = value, number.isFinite else { return 1 }
        return min(1000, max(1, Int(number)))
    }
}
