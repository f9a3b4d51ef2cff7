import StradaCore
import StradaEngineGTK
import Testing

/// The user agent the engine announces (the injected scripts' tests: `PageScriptHandshakeTests`).
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
