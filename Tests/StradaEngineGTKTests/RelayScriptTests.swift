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

/// The adapter script run in JavaScriptCore with the relay, a stand-in `document` and a microtask queue the
/// test drains by hand: messages sent in one task go out as one post.
struct AdapterBatchingTests {
    static let microtasks = """
        var microtasks = [];
        function queueMicrotask(fn) { microtasks.push(fn); }
        function drain() { while (microtasks.length) microtasks.shift()(); }
        """

    static func run(_ steps: String, probe: String) -> Int32 {
        RelayScriptTests.run([microtasks, AdapterScript.relaySource, AdapterScript.source, steps], probe: probe)
    }

    static func send(_ ids: [Int]) -> String {
        ids.map { #"window.nativeBridge.receive({id: "\#($0)", component: "c", event: "e", data: {}});"# }
            .joined()
    }

    @Test func aLoneMessageIsPostedAsItsOwnJSONText() {
        let steps = "drain();" + Self.send([1]) + "drain();"
        #expect(Self.run(steps, probe: #"posted.length === 2 && posted[0] === "\"ready\"" ? 1 : 0"#) == 1)
        #expect(Self.run(steps, probe: #"JSON.parse(posted[1]).id === "1" ? 1 : 0"#) == 1)
    }

    /// A page's message that is not an object goes as a batch of one, so the host never reads it as a batch of
    /// messages or as the adapter's own "ready" (BridgeTests has the host's half).
    @Test func aLoneMessageThatIsNotAnObjectIsPostedAsABatchOfOne() {
        let steps = """
            drain();
            window.nativeBridge.receive([{id: "1", component: "c", event: "e", data: {}}]); drain();
            window.nativeBridge.receive(["ready"]); drain();
            window.nativeBridge.receive([]); drain();
            window.nativeBridge.receive("ready"); drain();
            """
        let expected = #"[[{"id":"1","component":"c","event":"e","data":{}}]]|[["ready"]]|[[]]|["ready"]"#
        #expect(Self.run(steps, probe: #"posted[0] === "\"ready\"" && posted.length === 5 ? 1 : 0"#) == 1)
        #expect(Self.run(steps, probe: "posted.slice(1).join('|') === '\(expected)' ? 1 : 0") == 1)
    }

    @Test func messagesSentInOneTaskArePostedAsOneArrayInOrder() {
        let steps = "drain();" + Self.send([1, 2, 3]) + "drain();" + Self.send([4]) + "drain();"
        #expect(Self.run(steps, probe: "posted.length") == 3)
        #expect(
            Self.run(steps, probe: #"JSON.parse(posted[1]).map(function (m) { return m.id; }).join() === "1,2,3""#)
                == 1)
        #expect(Self.run(steps, probe: #"JSON.parse(posted[2]).id === "4" ? 1 : 0"#) == 1)
    }

    @Test func aBatchStopsGrowingAt256KiB() {
        let steps = """
            drain();
            var big = new Array(200 * 1024).join("x");
            window.nativeBridge.receive({id: "1", component: "c", event: "e", data: {big: big}});
            window.nativeBridge.receive({id: "2", component: "c", event: "e", data: {big: big}});
            window.nativeBridge.receive({id: "3", component: "c", event: "e", data: {}});
            drain();
            """
        // "ready", message 1 alone (message 2 would take the batch past 256 KiB), then 2 and 3 together.
        #expect(Self.run(steps, probe: "posted.length") == 3)
        #expect(Self.run(steps, probe: #"JSON.parse(posted[1]).id === "1" ? 1 : 0"#) == 1)
        #expect(Self.run(steps, probe: #"JSON.parse(posted[2]).length"#) == 2)
    }

    /// A message whose strings alone are over the bridge's 16 MiB limit is never turned into text (no
    /// JSON.stringify result that long, so no second copy of it in the page's memory): the relay posts a
    /// notice with its least length and its start, in its place between the others.
    @Test func aMessageOverTheLimitGoesAsANoticeInItsPlace() {
        let longest = """
            var longestText = 0, realStringify = JSON.stringify;
            JSON.stringify = function (value) {
              var text = realStringify(value);
              if (typeof text === "string") longestText = Math.max(longestText, text.length);
              return text;
            };
            """
        let script = [Self.microtasks, longest, AdapterScript.relaySource, AdapterScript.source]
        let steps = """
            drain();
            window.nativeBridge.receive({id: "1", component: "c", event: "e", data: {}});
            window.nativeBridge.receive({id: "2", component: "c", event: "e", data: {big: "x".repeat(16777216)}});
            window.nativeBridge.receive({id: "3", component: "c", event: "e", data: {}});
            drain();
            """
        #expect(Self.run(steps, probe: "posted.length") == 4)
        #expect(Self.run(steps, probe: #"JSON.parse(posted[1]).id === "1" ? 1 : 0"#) == 1)
        #expect(
            Self.run(
                steps,
                probe: #"posted[2].stradaOversized > 16777216 && posted[2].head.indexOf('{"id":"2"') === 0 ? 1 : 0"#)
                == 1)
        #expect(Self.run(steps, probe: #"JSON.parse(posted[3]).id === "3" ? 1 : 0"#) == 1)
        #expect(RelayScriptTests.run(script + [steps], probe: "longestText < 1000 ? 1 : 0") == 1)
    }

    /// The size check never guesses high: what toJSON makes small goes as text, and text that escaping makes
    /// longer than the limit (9 Mi newlines, 18 MiB as JSON) is still cut by the relay, with its exact length.
    @Test func theSizeCheckOnlyCutsWhatIsSurelyOverTheLimit() {
        let steps = """
            drain();
            var small = {toJSON: function () { return "small"; }, big: "x".repeat(16777216)};
            window.nativeBridge.receive({id: "1", component: "c", event: "e", data: {v: small}});
            drain();
            var escaped = {id: "2", component: "c", event: "e", data: {lines: "\\n".repeat(9437184)}};
            window.nativeBridge.receive(escaped);
            drain();
            """
        #expect(Self.run(steps, probe: "posted.length") == 3)
        #expect(Self.run(steps, probe: #"JSON.parse(posted[1]).data.v === "small" ? 1 : 0"#) == 1)
        #expect(
            Self.run(steps, probe: "posted[2].stradaOversized === JSON.stringify(escaped).length ? 1 : 0") == 1)
    }

    @Test func replyWithJSONHandsEachReplyToTheWebBridgeInOrderEvenIfOneThrows() {
        let steps = """
            var got = [];
            window.HotwireNative = { web: { setAdapter: function () {}, adapterDidUpdateSupportedComponents:
              function () {}, receive: function (m) { got.push(m.id); if (m.id === "2") throw new Error("x"); } } };
            var threw = 0;
            try {
              window.nativeBridge.replyWithJSON('[{"id":"1","component":"c","event":"e","data":{}},' +
                '{"id":"2","component":"c","event":"e","data":{}},{"id":"3","component":"c","event":"e","data":{}}]');
            } catch (e) { threw = 1; }
            """
        #expect(Self.run(steps, probe: #"got.join() === "1,2,3" && threw === 1 ? 1 : 0"#) == 1)
    }
}
