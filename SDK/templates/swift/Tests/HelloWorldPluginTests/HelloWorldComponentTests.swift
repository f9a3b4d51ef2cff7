import StradaCore
import StradaTesting
import Testing

@testable import HelloWorldPlugin

/// Drives the component as a page and a user would, through StradaTesting's harness: a real bridge and
/// component delegate over an in-memory web view, and native controls that record what is shown and can
/// be pressed.
@MainActor
struct HelloWorldComponentTests {
    let page = BridgeHarness(components: [HelloWorldComponent.self], url: "https://app.test/")

    /// Sends what the page sends: `event` with `data` and the page's URL (the bridge routes messages by it).
    func send(id: String, event: String, data: String = "") {
        page.send(
            json: #"{"id":"\#(id)","component":"hello-world","event":"\#(event)","#
                + #""data":{\#(data)"metadata":{"url":"https://app.test/"}}}"#)
    }

    func connect(name: String) {
        send(id: "1", event: "connect", data: #""name":"\#(name)","#)
    }

    @Test func repliesToConnectWithAGreeting() throws {
        connect(name: "Ada")

        let reply = try #require(page.lastReply)
        #expect(reply.id == "1")
        #expect(reply.event == "connect")
        #expect(reply.dataValue == ["greeting": "Hello, Ada!", "presses": 0])
    }

    @Test func showsAGreetButtonWhosePressesReplyToTheConnect() throws {
        connect(name: "Ada")
        let button = try #require(page.controls.buttons["hello-world.greet"])
        #expect(button.title == "Greet")
        #expect(button.isEnabled)

        for presses in 1...2 {
            #expect(page.controls.press("hello-world.greet"))
            let reply = try #require(page.lastReply)
            #expect(reply.id == "1")
            #expect(reply.dataValue == ["greeting": "Hello, Ada!", "presses": .number(Double(presses))])
        }
    }

    @Test func removesTheButtonOnDisconnect() {
        connect(name: "Ada")
        send(id: "2", event: "disconnect")
        #expect(page.controls.buttons["hello-world.greet"] == nil)
        #expect(!page.controls.press("hello-world.greet"))
    }
}
