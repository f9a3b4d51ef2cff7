import StradaCore

/// The native half of the `hello-world` component.
///
/// Web → native: `connect {name}` (a reply with `{greeting, presses: 0}` and a header-bar button "Greet"),
/// `disconnect` (the button goes). Each press of the button replies to the connect again, counting `presses`.
final class HelloWorldComponent: BridgeComponent {
    nonisolated override class var name: String { "hello-world" }

    override func onReceive(message: Message) {
        guard let event = Event(rawValue: message.event) else { return }
        switch event {
        case .connect: handleConnect(message: message)
        case .disconnect: controls?.removeButton(id: Self.greetButtonID)
        }
    }

    // MARK: Private

    /// Shown page-wide as "hello-world.greet" (`--trace`, the automation channel).
    private static let greetButtonID = "greet"
    private var name = "stranger"
    private var presses = 0

    private enum Event: String {
        case connect, disconnect
    }

    private func handleConnect(message: Message) {
        guard let data: MessageData = message.data() else { return }
        name = data.name
        presses = 0
        replyWithGreeting()
        let button = HeaderButton(id: Self.greetButtonID, title: "Greet", placement: .end, style: .suggested)
        controls?.setButton(button) { [weak self] in self?.greet() }
    }

    private func greet() {
        presses += 1
        replyWithGreeting()
    }

    /// Replies to the last `connect` (the page's callback for it stays registered, so it hears every reply).
    private func replyWithGreeting() {
        reply(to: Event.connect.rawValue, with: ReplyData(greeting: "Hello, \(name)!", presses: presses))
    }
}

// MARK: Message data

extension HelloWorldComponent {
    struct MessageData: Decodable {
        let name: String
    }

    struct ReplyData: Encodable {
        let greeting: String
        let presses: Int
    }
}
