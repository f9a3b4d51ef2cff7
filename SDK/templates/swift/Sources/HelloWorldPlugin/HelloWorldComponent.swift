import StradaCore

/// The native half of the `hello-world` component.
///
/// Web → native: `connect {name}`. Native → web: a reply to `connect` with `{greeting}`.
final class HelloWorldComponent: BridgeComponent {
    nonisolated override class var name: String { "hello-world" }

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
        reply(to: Event.connect.rawValue, with: ReplyData(greeting: "Hello, \(data.name)!"))
    }
}

// MARK: Message data

extension HelloWorldComponent {
    struct MessageData: Decodable {
        let name: String
    }

    struct ReplyData: Encodable {
        let greeting: String
    }
}
