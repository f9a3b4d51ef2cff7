import StradaCore
import StradaTesting
import Testing

@MainActor
struct BridgeComponentTests {
    let harness = BridgeHarness(components: [RecordingComponent.self], url: "https://app.test/")
    var bridge: Bridge { harness.bridge }
    let component: RecordingComponent

    init() throws {
        harness.send(
            json:
                #"{"id":"7","component":"one","event":"connect""#
                + #","data":{"title":"Hi","metadata":{"url":"https://app.test/"}}}"#
        )
        component = try #require(harness.component())
    }

    @Test("C2 the last message per event is cached; unseen events have none") func cachesTheLastMessagePerEvent() {
        #expect(component.receivedMessage(for: "connect")?.id == "7")
        bridge.receive(
            json: #"{"id":"8","component":"one","event":"connect","data":{"metadata":{"url":"https://app.test/"}}}"#)
        #expect(component.receivedMessage(for: "connect")?.id == "8")
        #expect(component.receivedMessage(for: "never") == nil)
    }

    @Test("C2 the cache keeps the last message of every event, past the short list too")
    func cachesEveryEventPastTheShortList() {
        let events = MessageCache.listLimit * 3
        for round in 0..<2 {
            for index in 0..<events {
                let id = round * events + index + 100
                bridge.receive(
                    json: #"{"id":"\#(id)","component":"one","event":"e\#(index)""#
                        + #","data":{"metadata":{"url":"https://app.test/"}}}"#)
            }
        }
        for index in 0..<events {
            #expect(component.receivedMessage(for: "e\(index)")?.id == "\(events + index + 100)")
        }
        #expect(component.receivedMessage(for: "connect")?.id == "7")
        let replay = component.cachedMessages.map(\.id)
        #expect(replay == ["7"] + (0..<events).map { "\(events + $0 + 100)" })
    }

    /// The last call into the page, which must be a reply.
    func lastReply() throws -> Message {
        try #require(harness.calls.last?.message, "the last call into the page is not a reply: \(harness.calls)")
    }

    @Test("C3 reply(to:) sends the cached message unchanged") func repliesToTheCachedEventUnchanged() throws {
        #expect(component.reply(to: "connect"))
        let data = #"{"title":"Hi","metadata":{"url":"https://app.test/"}}"#
        #expect(
            try lastReply()
                == Message(
                    id: "7", component: "one", event: "connect", metadata: .init(url: "https://app.test/"),
                    jsonData: data))
    }

    @Test("C4 reply(to:with: Encodable) sends the cached message with encoded data")
    func repliesToTheCachedEventWithEncodedData() throws {
        struct Reply: Encodable { let selectedIndex: Int }
        #expect(component.reply(to: "connect", with: Reply(selectedIndex: 2)))
        let reply = try lastReply()
        #expect(
            reply
                == Message(
                    id: "7", component: "one", event: "connect", metadata: nil, jsonData: #"{"selectedIndex":2}"#))
    }

    @Test("C5 reply(to:with: String) sends the cached message with that data")
    func repliesToTheCachedEventWithAJSONString() throws {
        #expect(component.reply(to: "connect", with: #"{"a":[1,{"b":2}]}"#))
        #expect(try lastReply().dataValue == ["a": [1, ["b": 2]]])
    }

    @Test("C6 reply(to:) an event never received returns false and sends nothing")
    func replyingToAnEventNeverReceivedReturnsFalseAndSendsNothing() {
        #expect(!component.reply(to: "disconnect"))
        #expect(harness.calls.isEmpty)
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
        #expect(harness.calls.isEmpty)
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
        harness.webView.evaluationError = Boom()
        component.reply(to: "connect", with: #"{"a":1}"#, completion: record)
        #expect(results == ["true", "false", "Boom"])
    }

    @Test func asyncRepliesReturnTrueWhenEvaluatedFalseWhenDroppedAndThrowWhenEvaluationFails() async throws {
        struct Boom: Error {}
        struct Reply: Encodable { let n: Int }
        #expect(try await component.reply(to: "connect"))
        #expect(try await component.reply(to: "connect", with: #"{"a":1}"#))
        #expect(try await component.reply(to: "connect", with: Reply(n: 1)))
        #expect(
            try await component.reply(
                with: Message(id: "1", component: "one", event: "x", metadata: nil, jsonData: "{}")))
        #expect(try await component.reply(to: "never") == false)
        harness.webView.evaluationError = Boom()
        await #expect(throws: Boom.self) { try await component.reply(to: "connect") }
    }

    @Test("C9 a component whose page is gone replies false") func aComponentWhoseDelegateIsGoneRepliesFalse() throws {
        var component: RecordingComponent?
        do {
            let page = TestDestination()
            let delegate = BridgeDelegate(
                location: "https://app.test/", destination: page, componentTypes: [RecordingComponent.self])
            delegate.webViewDidBecomeActive(bridge)
            bridge.receive(
                json: #"{"id":"1","component":"one","event":"connect","data":{"metadata":{"url":"https://app.test/"}}}"#
            )
            component = delegate.component()
        }
        let orphan = try #require(component)
        #expect(orphan.delegate == nil)
        #expect(orphan.destination == nil)
        #expect(!orphan.reply(to: "connect"))
    }

    @Test func controlsAreNamespacedByComponentName() throws {
        let destination = TestDestination()
        let delegate = BridgeDelegate(
            location: "https://app.test/", destination: destination, componentTypes: [RecordingComponent.self])
        delegate.webViewDidBecomeActive(bridge)
        bridge.receive(
            json: #"{"id":"1","component":"one","event":"connect","data":{"metadata":{"url":"https://app.test/"}}}"#)
        let component: RecordingComponent = try #require(delegate.component())
        var pressed = 0
        component.controls?.setButton(HeaderButton(id: "submit", title: "Go")) { pressed += 1 }
        #expect(destination.recordedControls.buttons["one.submit"]?.title == "Go")
        #expect(destination.recordedControls.press("one.submit"))
        #expect(pressed == 1)
    }
}
