import Foundation
import Logging
import StradaCore
import StradaTesting
import Testing

/// docs/conformance.md lines not already covered by the subject suites (those carry the line ids in their names).
@MainActor
struct ConformanceTests {
    let webView = InMemoryWebView(url: "https://app.test/")
    let destination = TestDestination()

    final class LifecycleRecorder: BridgeComponent {
        nonisolated override class var name: String { "lifecycle" }
        @MainActor static var calls: [String] = []
        override func onViewDidLoad() { Self.calls.append("didLoad") }
        override func onViewWillAppear() { Self.calls.append("willAppear") }
        override func onViewDidAppear() { Self.calls.append("didAppear") }
        override func onViewWillDisappear() { Self.calls.append("willDisappear") }
        override func onViewDidDisappear() { Self.calls.append("didDisappear") }
    }

    func message(_ component: String, id: String = "1") -> Message {
        Message(
            id: id, component: component, event: "connect", metadata: .init(url: "https://app.test/"),
            jsonData: #"{"metadata":{"url":"https://app.test/"}}"#)
    }

    @Test("C1 class var name identifies the component")
    func nameIdentifiesTheComponent() {
        #expect(LifecycleRecorder.name == "lifecycle")
        let delegate = BridgeDelegate(
            location: "https://app.test/", destination: destination, componentTypes: [LifecycleRecorder.self])
        #expect(delegate.componentNames == ["lifecycle"])
    }

    @Test("C8 lifecycle hooks exist with empty defaults")
    func lifecycleHooksHaveEmptyDefaults() {
        final class Plain: BridgeComponent { nonisolated override class var name: String { "plain" } }
        let harness = BridgeHarness(components: [Plain.self])  // keeps the bridge alive: a hook that replied is seen
        let delegate = harness.delegate
        #expect(delegate.bridgeDidReceiveMessage(message("plain")))
        let component = delegate.component(named: "plain")
        #expect(component != nil)
        delegate.onViewDidLoad(); delegate.onViewWillAppear(); delegate.onViewDidAppear()
        delegate.onViewWillDisappear(); delegate.onViewDidDisappear()
        #expect(harness.calls.isEmpty)
        #expect(component?.cachedMessages.map(\.id) == ["1"])
    }

    @Test("D5 activity follows the lifecycle and web view ownership")
    func activityFollowsLifecycleAndOwnership() {
        let delegate = BridgeDelegate(
            location: "https://app.test/", destination: destination, componentTypes: [LifecycleRecorder.self])
        let bridge = Bridge(webView: webView)
        #expect(!delegate.bridgeDidReceiveMessage(message("lifecycle", id: "1")))  // inactive until loaded or owning
        #expect(delegate.component(named: "lifecycle") == nil)
        delegate.onViewDidLoad()
        #expect(delegate.bridgeDidReceiveMessage(message("lifecycle", id: "2")))
        delegate.onViewWillDisappear()
        #expect(delegate.bridgeDidReceiveMessage(message("lifecycle", id: "3")))  // still active
        delegate.onViewDidDisappear()
        #expect(!delegate.bridgeDidReceiveMessage(message("lifecycle", id: "4")))
        #expect(delegate.component(named: "lifecycle") == nil)
        delegate.webViewDidBecomeActive(bridge)
        #expect(delegate.bridgeDidReceiveMessage(message("lifecycle", id: "5")))
        delegate.webViewDidBecomeDeactivated()
        #expect(!delegate.bridgeDidReceiveMessage(message("lifecycle", id: "6")))
    }

    @Test("D6 lifecycle calls reach existing components of an active page only")
    func lifecycleIsForwardedToExistingComponentsOfActivePagesOnly() {
        LifecycleRecorder.calls = []
        let delegate = BridgeDelegate(
            location: "https://app.test/", destination: destination, componentTypes: [LifecycleRecorder.self])
        delegate.onViewDidLoad()  // no component yet: nothing to forward to
        #expect(LifecycleRecorder.calls.isEmpty)
        let bridge = Bridge(webView: webView)
        delegate.webViewDidBecomeActive(bridge)
        delegate.bridgeDidReceiveMessage(message("lifecycle"))
        delegate.onViewWillAppear()
        delegate.onViewDidAppear()
        delegate.onViewWillDisappear()
        delegate.onViewDidDisappear()
        delegate.onViewDidDisappear()  // inactive now: not forwarded again
        #expect(LifecycleRecorder.calls == ["willAppear", "didAppear", "willDisappear", "didDisappear"])
    }

    @Test("D7 reply(with:) with a bridge evaluates replyWith")
    func replyWithABridgeEvaluatesReplyWith() {
        let delegate = BridgeDelegate(location: "https://app.test/", destination: destination, componentTypes: [])
        #expect(!delegate.reply(with: message("x")))
        let bridge = Bridge(webView: webView)  // the engine owns the bridge; the delegate only refers to it
        delegate.webViewDidBecomeActive(bridge)
        #expect(delegate.reply(with: message("x")))
        #expect(webView.bridgeCalls.first?.message == message("x"))
    }

    @Test("B3 evaluating on a web view that is gone reports a typed error")
    func evaluatingOnAGoneWebViewIsATypedError() throws {
        var view: InMemoryWebView? = InMemoryWebView(url: "https://app.test/")
        let bridge = Bridge(webView: view!)
        let delegate = BridgeDelegate(location: "https://app.test/", destination: destination, componentTypes: [])
        delegate.webViewDidBecomeActive(bridge)
        view = nil
        var registerError: (any Error)?
        bridge.register(components: ["a"]) { registerError = $0 }
        #expect(registerError as? BridgeError == .webViewGone)
        var result: Result<Bool, any Error>?
        delegate.reply(with: message("x")) { result = $0 }
        #expect(try result?.get() == false)
        _ = view
    }
}

/// Touches the global debug-logging switch, so its tests run one at a time.
@MainActor
@Suite(.serialized)
struct LoggingConformanceTests {
    @Test("L1 debug logging is off by default, switchable, and names what was dropped and why")
    func debugLoggingNamesDropsAndIsSwitchable() {
        #expect(Strada.config.debugLoggingEnabled == false)
        let store = InMemoryLogHandler.Store()
        let logger = Logger(label: "test") { _ in InMemoryLogHandler(store: store) }
        let destination = TestDestination()
        let delegate = BridgeDelegate(
            location: "https://app.test/", destination: destination, componentTypes: [], logger: logger)
        let stale = Message(
            id: "3", component: "form", event: "connect", metadata: .init(url: "https://app.test/old"), jsonData: "{}")
        delegate.onViewDidLoad()
        delegate.bridgeDidReceiveMessage(stale)
        #expect(store.messages.isEmpty)
        Strada.withConfig(StradaConfig()) {
            Strada.config.debugLoggingEnabled = true
            delegate.bridgeDidReceiveMessage(stale)
        }
        #expect(
            store.messages == [
                "ignored form/connect #3: it was sent from https://app.test/old, the page is https://app.test/"
            ])
    }

    @Test("L1 malformed messages and failed replies are logged through the pluggable logger")
    func malformedMessagesAndFailedRepliesAreAlwaysLogged() {
        let store = InMemoryLogHandler.Store()
        let logger = Logger(label: "test") { _ in InMemoryLogHandler(store: store) }
        let bridge = Bridge(webView: InMemoryWebView(), logger: logger)
        bridge.receive(json: #"{"id":"1"}"#)
        let delegate = BridgeDelegate(
            location: "https://app.test/", destination: TestDestination(), componentTypes: [], logger: logger)
        _ = delegate.reply(with: Message(id: "9", component: "form", event: "connect", metadata: nil, jsonData: "{}"))
        #expect(
            store.messages == [
                #"rejected a malformed message: message 1 has no string "component" — payload: {"id":"1"}"#,
                "reply form/connect #9 dropped: the page has no web view any more",
            ])
    }
}

/// M3: encoding failures keep the original data and are logged.
@Suite(.serialized)
struct EncodingFailureTests {
    @Test("M3 an encoding failure keeps the original data and logs it")
    func encodingFailureKeepsTheOriginalData() {
        let store = InMemoryLogHandler.Store()
        let config = StradaConfig()
        config.logger = Logger(label: "test") { _ in InMemoryLogHandler(store: store) }
        let original = Message(id: "1", component: "c", event: "e", metadata: nil, jsonData: #"{"a":1}"#)
        let replaced = Strada.withConfig(config) { original.replacing(event: "f", data: Double.nan) }  // no NaN in JSON
        #expect(replaced.jsonData == #"{"a":1}"#)
        #expect(replaced.event == "f")
        #expect(store.messages.count == 1)
        #expect(
            store.messages.first?.hasPrefix("encoding reply data for c/e failed, keeping the original data") == true)
    }
}
