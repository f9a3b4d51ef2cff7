import StradaCore
import StradaEngineGTK
import Testing

/// The injected scripts (`SDK/web/adapter.js`, `SDK/web/relay.js`, compiled in) and the user agent: plain
/// strings, no web view needed.
struct AdapterScriptTests {
    @Test func theAdapterHasThePlatformAndOnlyTheRelayReachesTheChannel() {
        let adapter = AdapterScript.source
        #expect(adapter.contains(#"platform: "linux""#))
        #expect(!adapter.contains("messageHandlers"))
        #expect(adapter.contains(AdapterScript.relayEvent))
        let relay = AdapterScript.relaySource
        #expect(relay.contains(#"window.webkit.messageHandlers["strada"]"#))
        #expect(relay.contains(AdapterScript.relayEvent))
    }

    /// The names are literals in the JavaScript files; the Swift constants must say the same.
    @Test func theScriptsUseTheNamesTheSwiftSideDeclares() {
        let adapter = AdapterScript.source
        let relay = AdapterScript.relaySource
        #expect(adapter.contains(#"platform: "\#(AdapterScript.platform)""#))
        #expect(relay.contains(#"window.webkit.messageHandlers["\#(AdapterScript.channel)"]"#))
        for event in [AdapterScript.relayEvent, AdapterScript.helloEvent, AdapterScript.relayReadyEvent] {
            #expect(adapter.contains("\"\(event)\""), "adapter.js does not use \(event)")
            #expect(relay.contains("\"\(event)\""), "relay.js does not use \(event)")
        }
    }
}

struct UserAgentTests {
    @Test("U1 the user agent announces components in a valid comment")
    func announcesComponentsInAValidUserAgentComment() {
        #expect(Strada.userAgentSubstring(forNames: ["form", "menu", "form"]) == "bridge-components: [form menu]")
        #expect(Strada.userAgentSubstring(forNames: []) == "bridge-components: []")
        #expect(
            UserAgent.suffix(prefix: "MyApp/2.1", componentNames: ["form"])
                == "MyApp/2.1 StradaLinux/1.0 (Hotwire Native Linux; Turbo Native Linux; bridge-components: [form])")
    }
}
