import CWebKitGTK
import StradaEngineGTK
import Testing

/// The injected page scripts as the engine injects them (``AdapterScript``: the relay, the bridge adapter and the
/// Turbo adapter, each page-world script with the shared handshake in front of it), run in WebKit's JavaScript
/// engine (JavaScriptCore, no web view) against a stand-in `document` that records every event type dispatched
/// on it, and a message handler registered under the Swift side's ``AdapterScript/channel`` only.
struct PageScriptHandshakeTests {
    /// The stand-in page. `posted`: what reached the message handler; `dispatched`: every event type seen on
    /// `document`. A page with Turbo (a stand-in that takes an adapter) and no animation frames (hidden), so the
    /// Turbo adapter posts its "ready" at once.
    static var page: String {
        """
        var listeners = {}, posted = [], dispatched = [], microtasks = [];
        var window = this;
        window.webkit = { messageHandlers: {} };
        window.webkit.messageHandlers["\(AdapterScript.channel)"] = { postMessage: function (m) { posted.push(m); } };
        var document = {
          readyState: "complete", hidden: true, title: "Page", baseURI: "https://app.test/",
          addEventListener: function (type, fn) { (listeners[type] = listeners[type] || []).push(fn); },
          dispatchEvent: function (event) {
            dispatched.push(event.type);
            (listeners[event.type] || []).slice().forEach(function (fn) { fn(event); });
          }
        };
        function CustomEvent(type, init) { this.type = type; this.detail = init ? init.detail : undefined; }
        function Event(type) { this.type = type; }
        function queueMicrotask(fn) { microtasks.push(fn); }
        function drain() { while (microtasks.length) microtasks.shift()(); }
        window.location = { href: "https://app.test/" };
        window.addEventListener = function () {};
        window.setTimeout = function () { return 0; };
        window.clearTimeout = function () {};
        window.setInterval = function () { return 0; };
        window.clearInterval = function () {};
        window.Turbo = { session: {}, navigator: { startVisit: function () {} },
          registerAdapter: function (adapter) { this.session.adapter = adapter; } };
        """
    }

    enum Script: String, CaseIterable, CustomTestStringConvertible {
        case relay, adapter, turbo
        var source: String {
            switch self {
            case .relay: AdapterScript.relaySource
            case .adapter: AdapterScript.source
            case .turbo: AdapterScript.turboSource
            }
        }
        var testDescription: String { rawValue }
    }

    /// Evaluates the page, then `scripts` in order, then `steps` (microtasks drained after each), then `probe`;
    /// returns the probe's string (or the exception JavaScriptCore reported).
    static func run(_ scripts: [Script], steps: String = "", probe: String) -> String {
        let context = jsc_context_new()
        defer { g_object_unref(UnsafeMutableRawPointer(context)) }
        for script in [page] + scripts.map(\.source) + [steps] {
            for text in [script, "drain();"] {
                if let value = jsc_context_evaluate(context, text, -1) {
                    g_object_unref(UnsafeMutableRawPointer(value))
                }
            }
        }
        if let exception = jsc_context_get_exception(context), let message = jsc_exception_get_message(exception) {
            return "exception: " + String(cString: message)
        }
        guard let result = jsc_context_evaluate(context, probe, -1) else { return "no result" }
        defer { g_object_unref(UnsafeMutableRawPointer(result)) }
        guard let text = jsc_value_to_string(result) else { return "no string" }
        defer { g_free(text) }
        return String(cString: text)
    }

    /// What reached the channel, as "ready" for the bridge adapter's and "turbo:<name>" for a Turbo message.
    static let postedNames = """
        posted.map(function (text) { var m = JSON.parse(text);
          return typeof m === "string" ? m : m.turbo ? "turbo:" + m.turbo : m.id; }).join()
        """

    static let orders: [[Script]] = [
        [.relay, .adapter, .turbo], [.adapter, .relay, .turbo], [.adapter, .turbo, .relay], [.turbo, .adapter, .relay],
    ]

    /// WebKit does not order scripts of different worlds: whichever runs first, each adapter's first message
    /// reaches the channel once.
    @Test(arguments: orders)
    func eitherSideOfTheHandshakeMayRunFirst(order: [Script]) {
        let names = Self.run(order, probe: Self.postedNames).split(separator: ",").map(String.init)
        #expect(names.sorted() == ["ready", "turbo:ready"])
    }

    /// The scripts speak to each other with exactly the DOM events the Swift side names.
    @Test(arguments: orders)
    func theScriptsUseExactlyTheEventsTheSwiftSideNames(order: [Script]) {
        let steps = #"window.nativeBridge.receive({id: "1", component: "c", event: "e", data: {}});"#
        let types = Set(
            Self.run(order, steps: steps, probe: "dispatched.join()").split(separator: ",").map(String.init))
        #expect(types == Set([AdapterScript.helloEvent, AdapterScript.relayReadyEvent, AdapterScript.relayEvent]))
    }

    @Test func theAdapterReportsThePlatformTheSwiftSideNames() {
        #expect(Self.run([.relay, .adapter], probe: "window.nativeBridge.platform") == AdapterScript.platform)
    }

    /// Without the relay nothing reaches the channel (only the relay holds the handler): the adapters queue.
    @Test func withoutTheRelayNothingReachesTheChannel() {
        let steps = #"window.nativeBridge.receive({id: "1", component: "c", event: "e", data: {}});"#
        #expect(Self.run([.adapter, .turbo], steps: steps, probe: "posted.length + ''") == "0")
        let posts = Self.run(
            [.adapter, .turbo], steps: steps, probe: "dispatched.indexOf('\(AdapterScript.relayEvent)') + ''")
        #expect(posts == "-1")
    }

    /// What the adapters sent before the relay arrived goes out when it does, in the order it was sent; a
    /// message still in the bridge adapter's batch then (2) follows.
    @Test func messagesQueuedBeforeTheRelayGoOutInOrder() {
        let steps = """
            window.nativeBridge.receive({id: "1", component: "c", event: "e", data: {}});
            drain();
            window.nativeBridge.receive({id: "2", component: "c", event: "e", data: {}});
            """
        let posted = Self.run([.adapter, .turbo], steps: steps + Self.relayNow, probe: Self.postedNames)
            .split(separator: ",").map(String.init)
        #expect(posted.filter { $0 != "turbo:ready" } == ["ready", "1", "2"])
        #expect(posted.filter { $0 == "turbo:ready" }.count == 1)
    }

    /// The relay, evaluated after `steps` (as when WebKit runs the isolated world's script last).
    static var relayNow: String { "\n" + AdapterScript.relaySource }

    /// The handshake is in each page-world script's own scope: the page cannot call it.
    @Test func theHandshakeIsNotVisibleToThePage() {
        #expect(Self.run([.relay, .adapter, .turbo], probe: "typeof openRelay") == "undefined")
        #expect(Self.run([.relay, .adapter, .turbo], probe: "typeof window.openRelay") == "undefined")
    }
}
