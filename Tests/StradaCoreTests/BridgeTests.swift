import Logging
import StradaCore
import StradaTesting
import Testing

@MainActor
struct BridgeTests {
    let webView = InMemoryWebView(url: "https://app.test/")
    let bridge: Bridge
    var rejected: [String] { rejections.reasons }
    let rejections = Rejections()

    @MainActor final class Rejections { var reasons: [String] = [] }

    init() {
        bridge = Bridge(webView: webView)
        bridge.observer = { [rejections] traffic in
            if case .rejected(_, let reason) = traffic { rejections.reasons.append(reason) }
        }
    }

    @Test(
        "B3 malformed payloads are rejected with a reason, nothing crashes",
        arguments: [
            "not json",
            "42",
            #"{"component":"form","event":"connect"}"#,
            #"{"id":"1","component":"form","event":"connect","data":"x"}"#,
            #"{"id":"1","component":"form","event":"connect","data":{"a":"\u12"}}"#,
            String(repeating: "[", count: 10_000),
        ])
    func rejectsMalformedPayloadsWithoutCrashing(payload: String) {
        bridge.receive(json: payload)
        #expect(rejected.count == 1)
        #expect(webView.evaluatedScripts.isEmpty)
    }

    @Test("B2 register and unregister are evaluated with JSON arguments")
    func registersAndUnregistersWithJSONArguments() {
        bridge.register(components: ["a", "b\"c"])
        bridge.unregister(component: "a")
        #expect(
            webView.evaluatedScripts == [
                #"window.nativeBridge.register(["a","b\"c"])"#, #"window.nativeBridge.unregister("a")"#,
            ])
    }

    @Test func aWellFormedMessageWithNoPageAttachedIsDropped() {
        var dropped: [String] = []
        bridge.observer = { if case .dropped(_, let reason) = $0 { dropped.append(reason) } }
        bridge.receive(json: #"{"id":"1","component":"form","event":"connect","data":{}}"#)
        #expect(dropped == ["no page owns this web view"])
    }

    @Test func readyReachesTheHostBeforeTheObserver() {
        var heard: [String] = []
        bridge.onReady = { heard.append("onReady") }
        bridge.observer = { if case .ready = $0 { heard.append("observer") } }
        bridge.receive(json: #""ready""#)
        #expect(heard == ["onReady", "observer"])
    }

    @Test("B3 replying after the web view is gone returns false") func replyingAfterTheWebViewIsGoneReturnsFalse() {
        var view: InMemoryWebView? = InMemoryWebView()
        let orphan = Bridge(webView: view!)
        view = nil
        #expect(!orphan.reply(with: Message(id: "1", component: "c", event: "e", metadata: nil, jsonData: "{}")))
    }
}

@MainActor
struct BridgeLimitTests {
    @Test func messagesBeyondTheRateLimitAreRejectedWithTheReason() {
        let bridge = Bridge(webView: InMemoryWebView(), limits: BridgeLimits(maxMessagesPerSecond: 5))
        var reasons: [String] = []
        bridge.observer = { if case .rejected(_, let reason) = $0 { reasons.append(reason) } }
        for id in 1...10 { bridge.receive(json: #"{"id":"\#(id)","component":"c","event":"e","data":{}}"#) }
        #expect(reasons.filter { $0 == "more than 5 messages per second" }.count >= 4)
        #expect(reasons.count <= 5)
    }

    @Test func aFloodOfMalformedMessagesLogsAtMostTenLinesASecond() {
        let store = InMemoryLogHandler.Store()
        let bridge = Bridge(
            webView: InMemoryWebView(), logger: Logger(label: "test") { _ in InMemoryLogHandler(store: store) })
        var rejected = 0
        bridge.observer = { if case .rejected = $0 { rejected += 1 } }
        let start = ContinuousClock.now
        for _ in 0..<10_000 { bridge.receive(json: "not json") }
        let seconds = Int((ContinuousClock.now - start).components.seconds) + 1  // windows the flood touched
        #expect(rejected == 10_000)
        // 3 lines of one kind a second: 3 when the flood fits in a second (a loaded machine can take longer).
        #expect(store.messages.count >= 3 && store.messages.count <= 3 * (seconds + 1), "\(seconds) s")
    }

    @Test func aMessageLargerThanTheSizeLimitIsRejected() {
        let bridge = Bridge(webView: InMemoryWebView(), limits: BridgeLimits(json: JSONLimits(maxBytes: 1024)))
        var reasons: [String] = []
        bridge.observer = { if case .rejected(_, let reason) = $0 { reasons.append(reason) } }
        bridge.receive(
            json: #"{"id":"1","component":"c","event":"e","data":{"s":""# + String(repeating: "x", count: 2000)
                + #""}}"#)
        #expect(reasons == ["invalid JSON at byte 0: input is 2054 bytes, limit is 1024"])
    }
}

/// Batches both ways: a JSON array of messages from the page; the replies of one payload in one call.
@MainActor
struct BridgeBatchingTests {
    static let url = "https://app.test/"
    static func connect(_ id: Int) -> String {
        #"{"id":"\#(id)","component":"recording","event":"connect","data":{"n":\#(id),"#
            + #""metadata":{"url":"https://app.test/"}}}"#
    }

    /// The reply script's one argument is a JavaScript (and JSON) string literal holding the JSON array of the
    /// replies exactly: quotes, backslashes, control characters, U+2028/U+2029 and non-ASCII text included.
    @Test func theReplyScriptQuotesTheRepliesArrayExactly() throws {
        let replies = [
            #"{"id":"1","data":{"t":"a \"q\" \\ b"}}"#, "{\"t\":\"\u{2028}\u{2029} é 😀 </script>\"}",
            "{\"c\":\"\u{01}\t\n\"}",
        ]
        let script = InMemoryWebView.replyScript(replies)
        let prefix = "window.nativeBridge.replyWithJSON(", suffix = ")"
        #expect(script.hasPrefix(prefix) && script.hasSuffix(suffix))
        let literal = String(script.dropFirst(prefix.count).dropLast(suffix.count))
        #expect(!literal.contains("\u{2028}") && !literal.contains("\n"))
        #expect(try JSON(parsing: literal) == .string("[" + replies.joined(separator: ",") + "]"))
    }

    @Test func aBatchIsHandledInOrderAndItsRepliesGoToThePageInOneCallInOrder() throws {
        let harness = BridgeHarness(components: [EchoingComponent.self], url: Self.url)
        harness.clear()
        harness.send(json: "[" + (1...5).map(Self.connect).joined(separator: ",") + "]")
        #expect(harness.webView.evaluatedScripts.count == 1)
        #expect(harness.webView.bridgeCalls.compactMap(\.message?.id) == ["1", "2", "3", "4", "5"])
    }

    @Test func aLoneMessageIsRepliedToBeforeReceiveReturns() {
        let harness = BridgeHarness(components: [EchoingComponent.self], url: Self.url)
        harness.clear()
        harness.send(json: Self.connect(7))
        #expect(harness.webView.bridgeCalls.compactMap(\.message?.id) == ["7"])
    }

    @Test func aBadElementIsRejectedAndTheRestOfTheBatchStillArrives() {
        let harness = BridgeHarness(components: [EchoingComponent.self], url: Self.url)
        harness.clear()
        var rejected = 0
        harness.bridge.observer = { if case .rejected = $0 { rejected += 1 } }
        harness.send(json: "[" + Self.connect(1) + #","nope",{"id":1},"# + Self.connect(2) + "]")
        #expect(rejected == 2)
        #expect(harness.webView.bridgeCalls.compactMap(\.message?.id) == ["1", "2"])
    }

    /// A message must be an object: the adapter sends a page's `receive([m])`, `receive(["ready"])`,
    /// `receive([])` and `receive("ready")` as batches of one, and each is rejected — nothing delivered, no
    /// handshake. Only a lone `"ready"` (the adapter's own) is the handshake.
    @Test func aPagesMessageThatIsNotAnObjectIsRejectedNeverABatchOrAHandshake() {
        let harness = BridgeHarness(components: [EchoingComponent.self], url: Self.url)
        harness.clear()
        var readies = 0
        var rejected: [String] = []
        harness.bridge.onReady = { readies += 1 }
        harness.bridge.observer = { if case .rejected(_, let reason) = $0 { rejected.append(reason) } }
        for text in ["[[" + Self.connect(1) + "]]", #"[["ready"]]"#, "[[]]", #"["ready"]"#] {
            harness.send(json: text)
        }
        #expect(readies == 0)
        #expect(harness.webView.bridgeCalls.isEmpty)
        #expect(rejected.count == 4 && rejected.allSatisfy { $0 == "message is not a JSON object" }, "\(rejected)")
        harness.send(json: #""ready""#)
        #expect(readies == 1)
    }

    @Test func aBatchThatIsNotAnArrayIsRejectedOnceWithTheParsersReason() {
        let harness = BridgeHarness(components: [EchoingComponent.self], url: Self.url)
        var rejected: [String] = []
        harness.bridge.observer = { if case .rejected(_, let reason) = $0 { rejected.append(reason) } }
        harness.send(json: "[" + Self.connect(1) + ",")
        harness.send(json: "[" + Self.connect(1) + "]]")
        #expect(rejected.count == 2)
        #expect(harness.webView.evaluatedScripts.isEmpty)
    }

    @Test func arrayElementsKeepEachElementsTextAndIgnoreCommasInStringsAndNesting() {
        #expect(JSON.arrayElements(#" [ {"a":"x,]\"y"} , [1,2] ,"s"] "#) == [#" {"a":"x,]\"y"} "#, " [1,2] ", #""s""#])
        #expect(JSON.arrayElements(#"["a\\",{"b":"]\"},"}]"#) == [#""a\\""#, #"{"b":"]\"},"}"#])
        #expect(JSON.arrayElements(#"["a\"]"#) == nil)
        #expect(JSON.arrayElements(#"["unterminated"#) == nil)
        #expect(JSON.arrayElements("[]") == [])
        #expect(JSON.arrayElements("[1") == nil)
        #expect(JSON.arrayElements("{}") == nil)
    }
}

/// Replies to every message at once with its own data.
final class EchoingComponent: BridgeComponent {
    nonisolated override class var name: String { "recording" }
    override func onReceive(message: Message) { _ = reply(with: message) }
}

/// A message is read from its text without building its data: the envelope as JSON has it.
struct WireEnvelopeTests {
    @Test func escapedKeysAndRepeatedMembersReadAsJSONHasThem() throws {
        let text =
            #"{"\u0069d":"1","component":"a","component":"form","event":"e","x":[1,{"y":null}],"ids":"2","dat":3,"#
            + #""data":{"metadata":{"url":"https://app.test/"},"k":"v"}}"#
        let message = try Message(wireText: text)
        #expect(message.id == "1")
        #expect(message.component == "form")
        #expect(message.metadata?.url == "https://app.test/")
        #expect(message.jsonData == #"{"metadata":{"url":"https://app.test/"},"k":"v"}"#)
        #expect(message.dataValue?["k"] == .string("v"))
    }

    @Test(
        arguments: [
            (#"{"url":"https://a.test/","url":"https://b.test/"}"#, "https://b.test/"),  // the last one, as JSON.parse
            (#"{"\u0075rl":"https://a.test/"}"#, "https://a.test/"),
            (#"{"url":"https://a.test/","url":7}"#, nil),
            (#"{"urls":"https://a.test/","x":{"url":"https://c.test/"}}"#, nil),
            (#"["https://a.test/"]"#, nil),
        ] as [(String, String?)])
    func theMetadataURLIsReadAsJSONHasIt(metadata: String, url: String?) throws {
        let message = try Message(
            wireText: #"{"id":"1","component":"c","event":"e","data":{"metadata":"# + metadata + "}}")
        #expect(message.metadata?.url == url)
        #expect(message.dataValue?["metadata"] == (try JSON(parsing: metadata)))
    }

    @Test func anEscapedMetadataKeyIsMetadataAsJSONParseReadsIt() throws {
        let message = try Message(
            wireText: #"{"id":"1","component":"c","event":"e","data":{"m\u0065tadata":{"url":"https://a.test/"}}}"#)
        #expect(message.metadata?.url == "https://a.test/")
    }

    @Test func whatIsNotAMessageObjectIsRejectedWithItsReason() {
        #expect(throws: MalformedMessage(reason: "message is not a JSON object")) { try Message(wireText: "[1]") }
        #expect(throws: MalformedMessage.self) { try Message(wireText: #"{"id":"1","data":{"a":"\x"}}"#) }
        #expect(throws: MalformedMessage.self) { try Message(wireText: #"{"id":"1","component":"c","event":"e"} x"#) }
        // Data is validated as the full parser reads it: a number out of range is refused there too (fuzzer).
        #expect(throws: MalformedMessage.self) {
            try Message(wireText: #"{"id":"1","component":"c","event":"e","data":{"n":[55555555555555555E5555]}}"#)
        }
    }
}
