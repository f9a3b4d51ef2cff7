import Foundation
import Logging
import StradaCore
import StradaTesting
import Testing

/// What independent conformance testing found in the bridge core (issue 11, items 10–15), each pinned.
@MainActor
struct BridgeHardeningTests {
    static let url = "https://app.test/posts/new"

    static func connect(id: String = "1", data: String = #""title":"Go""#) -> String {
        #"{"id":"\#(id)","component":"one","event":"connect","data":{\#(data),"metadata":{"url":"\#(url)"}}}"#
    }

    @Test func aLoneSurrogateInDataIsDeliveredAndTheReplyKeepsTheTextAsThePageWroteIt() throws {
        let harness = BridgeHarness(components: [RecordingComponent.self], url: Self.url)
        harness.send(json: Self.connect(data: #""title":"cut \ud83d""#))
        let component: RecordingComponent = try #require(harness.component())
        #expect(component.received.map(\.id) == ["1"])
        #expect(component.received.first?.dataValue?["title"] == .string("cut \u{FFFD}"))
        #expect(component.reply(to: "connect"))
        #expect(harness.webView.evaluatedScripts.last?.contains(#"cut \\ud83d"#) == true)
    }

    @Test func aDestroyedPageNoLongerRepliesAndSaysWhy() throws {
        let store = InMemoryLogHandler.Store()
        let harness = BridgeHarness(
            components: [RecordingComponent.self], url: Self.url,
            logger: Logger(label: "test") { _ in InMemoryLogHandler(store: store) })
        harness.send(json: Self.connect())
        let component: RecordingComponent = try #require(harness.component())
        harness.delegate.destroyComponents()  // destroyed without being deactivated first
        #expect(!component.reply(to: "connect"))
        #expect(harness.replies.isEmpty)
        #expect(store.messages.contains("reply one/connect #1 dropped: its page was destroyed"))
    }

    @Test func aPageWhoseWebViewAnotherPageTookNoLongerRepliesIntoTheNextDocument() throws {
        let harness = BridgeHarness(components: [RecordingComponent.self], url: Self.url)
        harness.send(json: Self.connect())
        let component: RecordingComponent = try #require(harness.component())
        let next = BridgeDelegate(
            location: "https://app.test/posts/1", destination: TestDestination(), componentTypes: [])
        next.webViewDidBecomeActive(harness.bridge)  // the old page was never told
        #expect(!component.reply(to: "connect"))
        #expect(harness.replies.isEmpty)
    }

    @Test func aProtoKeyReachesThePageAsAnOwnPropertyNotAPrototype() throws {
        let harness = BridgeHarness(components: [RecordingComponent.self], url: Self.url)
        harness.send(json: Self.connect(data: #""__proto__":{"isAdmin":true}"#))
        let component: RecordingComponent = try #require(harness.component())
        #expect(component.reply(to: "connect"))
        let script = try #require(harness.webView.evaluatedScripts.last)
        // JSON text the page parses (JSON.parse keeps "__proto__" an own property), not an object literal.
        #expect(script.hasPrefix(#"window.nativeBridge.replyWithJSON(""#))
        #expect(harness.lastReply?.dataValue?["__proto__"]?["isAdmin"] == .bool(true))
    }

    struct Flag: Decodable, Equatable { let admin: Bool }

    @Test func duplicateKeysDecodeToTheLastValueAsRoutingAndJavaScriptDo() throws {
        let harness = BridgeHarness(components: [RecordingComponent.self], url: Self.url)
        harness.send(json: Self.connect(data: #""admin":false,"admin":true"#))
        let component: RecordingComponent = try #require(harness.component())
        let message = try #require(component.received.first)
        #expect(message.dataValue?["admin"] == .bool(true))
        #expect(message.data() == Flag(admin: true))
    }

    @Test func aLoggerSetAfterTheBridgeWasMadeIsTheOneItUses() {
        let store = InMemoryLogHandler.Store()
        Strada.withConfig(StradaConfig()) {
            let bridge = Bridge(webView: InMemoryWebView())
            Strada.config.logger = Logger(label: "later") { _ in InMemoryLogHandler(store: store) }
            bridge.receive(json: "not json")
        }
        #expect(store.messages.contains { $0.hasPrefix("rejected a malformed message") })
    }

    @Test func settingTheEncoderOrDecoderSetsTheCodecThatCrossesToPlugins() {
        Strada.withConfig(StradaConfig()) {
            let encoder = JSONEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            encoder.dateEncodingStrategy = .iso8601
            Strada.config.jsonEncoder = encoder
            #expect(Strada.config.codec == CodecSettings(keys: .snakeCase, dates: .iso8601))
            #expect(Strada.config.codec.json == #"{"dates":"iso8601","keys":"snakeCase"}"#)
            let decoder = JSONDecoder()
            Strada.config.jsonDecoder = decoder
            #expect(Strada.config.codec == CodecSettings())
        }
    }

    @Test func anEncoderPluginsCannotFollowIsRefusedWithALogLine() {
        let store = InMemoryLogHandler.Store()
        Strada.withConfig(StradaConfig()) {
            Strada.config.logger = Logger(label: "test") { _ in InMemoryLogHandler(store: store) }
            Strada.config.codec = CodecSettings(keys: .snakeCase)
            let custom = JSONEncoder()
            custom.keyEncodingStrategy = .custom { keys in keys.last! }
            Strada.config.jsonEncoder = custom
            #expect(Strada.config.codec == CodecSettings(keys: .snakeCase))
        }
        #expect(store.messages.contains { $0.contains("jsonEncoder not set") })
    }

    @Test func aScopedConfigurationIsInvisibleOutsideItsTask() async {
        let inside = StradaConfig()
        inside.codec = CodecSettings(keys: .snakeCase)
        Strada.withConfig(inside) { #expect(Strada.config.codec.keys == .snakeCase) }
        #expect(Strada.config.codec.keys == .useDefaultKeys)
        let elsewhere = await Task.detached { Strada.config.codec.keys }.value
        #expect(elsewhere == .useDefaultKeys)
    }
}
