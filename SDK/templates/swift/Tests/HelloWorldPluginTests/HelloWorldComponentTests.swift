import StradaCore
import StradaTesting
import Testing

@testable import HelloWorldPlugin

/// Drives the component as a page would, through StradaTesting's harness (a real bridge and component
/// delegate over an in-memory web view).
@MainActor
struct HelloWorldComponentTests {
    @Test func repliesToConnectWithAGreeting() throws {
        let page = BridgeHarness(components: [HelloWorldComponent.self], url: "https://app.test/")
        let connect =
            #"{"id":"1","component":"hello-world","event":"connect","#
            + #""data":{"name":"Ada","metadata":{"url":"https://app.test/"}}}"#
        page.send(json: connect)

        let reply = try #require(page.lastReply)
        #expect(reply.id == "1")
        #expect(reply.event == "connect")
        #expect(reply.dataValue == ["greeting": "Hello, Ada!"])
    }
}
