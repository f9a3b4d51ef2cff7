import StradaCore
import StradaTesting
import Testing

@testable import HelloWorldPlugin

/// Drives the component through a real `Bridge` and `BridgeDelegate`, with an in-memory web view.
@MainActor
struct HelloWorldComponentTests {
    let page = "https://app.test/"

    @Test func repliesToConnectWithAGreeting() throws {
        let webView = InMemoryWebView(url: page)
        let bridge = Bridge(webView: webView)
        let destination = TestDestination()
        let delegate = BridgeDelegate(
            location: page, destination: destination, componentTypes: [HelloWorldComponent.self])
        delegate.webViewDidBecomeActive(bridge)
        var replies: [Message] = []
        bridge.observer = { traffic in
            if case .sent(let message) = traffic { replies.append(message) }
        }

        let connect =
            #"{"id":"1","component":"hello-world","event":"connect","#
            + #""data":{"name":"Ada","metadata":{"url":"https://app.test/"}}}"#
        bridge.receive(json: connect)

        let reply = try #require(replies.first)
        #expect(reply.id == "1")
        #expect(reply.event == "connect")
        #expect(reply.dataValue == ["greeting": "Hello, Ada!"])
    }
}
