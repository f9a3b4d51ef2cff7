import StradaCore

/// Greets the person the page names.
///
/// Web → native: `connect {name}`. Native → web: a reply to `connect` with `{greeting}`.
final class GreetingComponent: BridgeComponent {
    nonisolated override class var name: String { "greeting" }

    override func onReceive(message: Message) {
        guard let event = Event(rawValue: message.event) else { return }
        switch event {
        case .connect: handleConnect(message: message)
        }
    }

    // MARK: Private

    private enum Event: String {
        case connect
    }

    private func handleConnect(message: Message) {
        guard let data: MessageData = message.data() else { return }
        let name = data.name.isEmpty ? "stranger" : data.name
        reply(to: Event.connect.rawValue, with: ReplyData(greeting: "Hello, \(name)!"))
    }
}

// MARK: Message data

extension GreetingComponent {
    struct MessageData: Decodable {
        let name: String
    }

    struct ReplyData: Encodable {
        let greeting: String
    }
}
