import StradaCore
import Testing

struct OriginPolicyTests {
    @Test(arguments: [
        ("https://App.Example/path?q=1#x", "https://app.example"),
        ("https://app.example:443/", "https://app.example"),
        ("http://127.0.0.1:8080/page", "http://127.0.0.1:8080"),
        ("http://user:pw@host.test/", "http://host.test"),
        ("file:///home/ada/index.html", "file://"),
    ])
    func normalisesOrigins(url: String, origin: String) {
        #expect(OriginPolicy.origin(of: url) == origin)
    }

    @Test func allowsOnlyTheGivenOriginsPortIncluded() {
        let policy = OriginPolicy(allowed: ["http://127.0.0.1:8080/start"])
        #expect(policy.allows("http://127.0.0.1:8080/other/page"))
        #expect(!policy.allows("http://127.0.0.1:9090/"))
        #expect(!policy.allows("http://localhost:8080/"))
        #expect(!policy.allows("https://127.0.0.1:8080/"))
        #expect(!policy.allows("about:blank"))
    }

    @Test func userScriptPatternsCoverTheAllowedHosts() {
        let policy = OriginPolicy(allowed: ["http://127.0.0.1:8080", "file:///x.html", "https://app.example"])
        #expect(policy.userScriptPatterns == ["file:///*", "http://127.0.0.1/*", "https://app.example/*"])
    }
}
