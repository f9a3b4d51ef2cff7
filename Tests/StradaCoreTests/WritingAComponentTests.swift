import StradaCore
import StradaTesting
import Testing

// The component and the test of StradaCore's DocC article "Getting started: writing a component"
// (Sources/StradaCore/StradaCore.docc/WritingAComponent.md): its code blocks are excerpts of this file, checked by
// scripts/check-docs, so what the article shows compiles and passes.

final class GreetingComponent: BridgeComponent {
    nonisolated override class var name: String { "greeting" }

    override func onReceive(message: Message) {
        guard let event = Event(rawValue: message.event) else { return }
        switch event {
        case .connect: handleConnect(message: message)
        case .disconnect: controls?.removeButton(id: "greet")
        }
    }

    private enum Event: String {
        case connect, disconnect
    }

    private func handleConnect(message: Message) {
        guard let data: MessageData = message.data() else { return }
        let button = HeaderButton(id: "greet", title: "Greet \(data.name)", placement: .end, style: .suggested)
        controls?.setButton(button) { [weak self] in
            self?.reply(to: "connect", with: ReplyData(greeting: "Hello, \(data.name)!"))
        }
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

@MainActor
struct GreetingComponentTests {
    @Test func showsAButtonThatGreetsByName() {
        let page = BridgeHarness(components: [GreetingComponent.self], url: "https://app.test/")
        page.send(
            json: #"{"id":"1","component":"greeting","event":"connect","#
                + #""data":{"name":"Ada","metadata":{"url":"https://app.test/"}}}"#)
        #expect(page.controls.buttons["greeting.greet"]?.title == "Greet Ada")

        #expect(page.controls.press("greeting.greet"))
        #expect(page.lastReply?.dataValue == ["greeting": "Hello, Ada!"])
    }
}
