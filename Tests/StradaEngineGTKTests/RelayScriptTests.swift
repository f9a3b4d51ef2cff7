import CWebKitGTK
import StradaEngineGTK
import Testing

/// The relay script run in WebKit's own JavaScript engine (JavaScriptCore, no web view), against a minimal
/// stand-in for `document` and the message handler that records what is posted.
struct RelayScriptTests {
    static let environment = """
        var listeners = {}, posted = [];
        var window = this;
        window.webkit = { messageHandlers: { strada: { postMessage: function (m) { posted.push(m); } } } };
        var document = {
          addEventListener: function (type, fn) { (listeners[type] = listeners[type] || []).push(fn); },
          dispatchEvent: function (event) { (listeners[event.type] || []).forEach(function (fn) { fn(event); }); }
        };
        function CustomEvent(type, init) { this.type = type; this.detail = init ? init.detail : undefined; }
        """

    /// Evaluates `scripts` in order in a fresh context, then `probe`; returns the probe's number.
    static func run(_ scripts: [String], probe: String) -> Int32 {
        let context = jsc_context_new()
        defer { g_object_unref(UnsafeMutableRawPointer(context)) }
        for script in [environment] + scripts {
            if let value = jsc_context_evaluate(context, script, -1) { g_object_unref(UnsafeMutableRawPointer(value)) }
        }
        guard let result = jsc_context_evaluate(context, probe, -1) else { return -1 }
        defer { g_object_unref(UnsafeMutableRawPointer(result)) }
        return jsc_value_to_int32(result)
    }

    static let postOne = #"document.dispatchEvent(new CustomEvent("strada-linux:post", { detail: "\"ready\"" }));"#

    @Test func theRelayForwardsEachMessageOnce() {
        #expect(Self.run([AdapterScript.relaySource, Self.postOne], probe: "posted.length") == 1)
    }

    @Test func evaluatedTwiceTheRelayStillForwardsEachMessageOnce() {
        let relay = AdapterScript.relaySource
        #expect(Self.run([relay, relay, Self.postOne], probe: "posted.length") == 1)
    }
}
