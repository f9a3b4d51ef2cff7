import Testing
import StradaCore
import StradaTesting

@MainActor
struct BridgeComponentTests {
    let webView = InMemoryWebView(url: "https://app.test/")
    let bridge: Bridge
    let delegate: BridgeDelegate
    let component: RecordingComponent
    let destination = TestDestination()

    init() throws {
        bridge = Bridge(webView: webView)
        delegate = BridgeDelegate(location: "https://app.test/", destination: destination, componentTypes: [RecordingComponent.self])
        delegate.webViewDidBecomeActive(bridge)
        bridge.receive(json: #"{"id":"7","component":"one","event":"connect","data":{"title":"Hi","metadata":{"url":"https://app.test/"}}}"#)
        component = try #require(delegate.component())
    }

    @Test("C2 the last message per event is cached; unseen events have none") func cachesTheLastMessagePerEvent() {
        #expect(component.receivedMessage(for: "connect")?.id == "7")
        bridge.receive(json: #"{"id":"8","component":"one","event":"connect","data":{"metadata":{"url":"https://app.test/"}}}"#)
        #expect(component.receivedMessage(for: "connect")?.id == "8")
        #expect(component.receivedMessage(for: "never") == nil)
    }

    /// The argument of the last `replyWith(...)` script, parsed (Linux key order is unstable).
    func lastReply() throws -> JSON {
        let script = try #require(webView.evaluatedScripts.last)
        let prefix = "window.nativeBridge.replyWith("
        try #require(script.hasPrefix(prefix) && script.hasSuffix(")"))
        return try JSON(parsing: String(script.dropFirst(prefix.count).dropLast()))
    }

    @Test("C3 reply(to:) sends the cached message unchanged") func repliesToTheCachedEventUnchanged() throws {
        #expect(component.reply(to: "connect"))
        #expect(try lastReply() == ["id": "7", "component": "one", "event": "connect", "data": ["title": "Hi", "metadata": ["url": "https://app.test/"]]])
    }

    @Test("C4 reply(to:with: Encodable) sends the cached message with encoded data") func repliesToTheCachedEventWithEncodedData() throws {
        struct Reply: Encodable { let selectedIndex: Int }
        #expect(component.reply(to: "connect", with: Reply(selectedIndex: 2)))
        #expect(try lastReply() == ["id": "7", "component": "one", "event": "connect", "data": ["selectedIndex": 2]])
    }

    @Test("C5 reply(to:with: String) sends the cached message with that data") func repliesToTheCachedEventWithAJSONString() throws {
        #expect(component.reply(to: "connect", with: #"{"a":[1,{"b":2}]}"#))
        #expect(try lastReply()["data"] == ["a": [1, ["b": 2]]])
    }

    @Test("C6 reply(to:) an event never received returns false and sends nothing") func replyingToAnEventNeverReceivedReturnsFalseAndSendsNothing() {
        #expect(!component.reply(to: "disconnect"))
        #expect(webView.evaluatedScripts.isEmpty)
    }

    @Test("C7 reply(with:) forwards exactly that message") func replyWithMessageForwardsExactlyThatMessage() throws {
        let message = Message(id: "99", component: "one", event: "custom", metadata: nil, jsonData: #"{"x":1}"#)
        var traffic: [Message] = []
        bridge.observer = { if case .sent(let sent) = $0 { traffic.append(sent) } }
        #expect(component.reply(with: message))
        #expect(traffic == [message])
    }

    @Test func replyWithInvalidJSONDataIsDroppedBeforeTheWebView() {
        #expect(!component.reply(to: "connect", with: "not json"))
        #expect(webView.evaluatedScripts.isEmpty)
    }

    @Test func completionReportsEvaluatedDroppedAndFailed() {
        struct Boom: Error {}
        var results: [String] = []
        let record: BridgeComponent.ReplyCompletionHandler = { result in
            switch result {
            case .success(let sent): results.append("\(sent)")
            case .failure(let error): results.append("\(type(of: error))")
            }
        }
        component.reply(to: "connect", completion: record)
        component.reply(to: "never", completion: record)
        webView.evaluationError = Boom()
        component.reply(to: "connect", with: #"{"a":1}"#, completion: record)
        #expect(results == ["true", "false", "Boom"])
    }

    @Test func asyncRepliesReturnTrueWhenEvaluatedFalseWhenDroppedAndThrowWhenEvaluationFails() async throws {
        struct Boom: Error {}
        struct Reply: Encodable { let n: Int }
        #expect(try await component.reply(to: "connect"))
        #expect(try await component.reply(to: "connect", with: #"{"a":1}"#))
        #expect(try await component.reply(to: "connect", with: Reply(n: 1)))
        #expect(try await component.reply(with: Message(id: "1", component: "one", event: "x", metadata: nil, jsonData: "{}")))
        #expect(try await component.reply(to: "never") == false)
        webView.evaluationError = Boom()
        await #expect(throws: Boom.self) { try await component.reply(to: "connect") }
    }

    @Test("C9 a component whose page is gone replies false") func aComponentWhoseDelegateIsGoneRepliesFalse() throws {
        var component: RecordingComponent?
        do {
            let page = TestDestination()
            let delegate = BridgeDelegate(location: "https://app.test/", destination: page, componentTypes: [RecordingComponent.self])
            delegate.webViewDidBecomeActive(bridge)
            bridge.receive(json: #"{"id":"1","component":"one","event":"connect","data":{"metadata":{"url":"https://app.test/"}}}"#)
            component = delegate.component()
        }
        let orphan = try #require(component)
        #expect(orphan.delegate == nil)
        #expect(orphan.destination == nil)
        #expect(!orphan.reply(to: "connect"))
    }

    @Test func controlsAreNamespacedByComponentName() throws {
        let destination = TestDestination()
        let delegate = BridgeDelegate(location: "https://app.test/", destination: destination, componentTypes: [RecordingComponent.self])
        delegate.webViewDidBecomeActive(bridge)
        bridge.receive(json: #"{"id":"1","component":"one","event":"connect","data":{"metadata":{"url":"https://app.test/"}}}"#)
        let component: RecordingComponent = try #require(delegate.component())
        var pressed = 0
        component.controls?.setButton(HeaderButton(id: "submit", title: "Go")) { pressed += 1 }
        #expect(destination.recordedControls.buttons["one.submit"]?.title == "Go")
        #expect(destination.recordedControls.press("one.submit"))
        #expect(pressed == 1)
    }
}

