import Testing

@testable import StradaHost

/// Deep links: a link in one of the app's schemes opens a page on the start URL's origin; any other is refused
/// with one line; a definition's `url_schemes` are checked, and the desktop entry handles them.
@Suite struct DeepLinkTests {
    static let start = "https://notes.example.com/app/"

    @Test(arguments: [
        ("myapp://posts/1?x=1", "https://notes.example.com/posts/1?x=1"),
        ("myapp:///posts/1", "https://notes.example.com/posts/1"),
        ("myapp:posts/1", "https://notes.example.com/posts/1"),
        ("MyApp://callback?code=abc#top", "https://notes.example.com/callback?code=abc#top"),
        ("myapp://", "https://notes.example.com/"),
        ("myapp://evil.example/x", "https://notes.example.com/evil.example/x"),
        ("myapp:////evil.example/x", "https://notes.example.com/evil.example/x"),
        ("myapp://@evil.example", "https://notes.example.com/@evil.example"),
        ("myapp:\\\\evil.example", "https://notes.example.com/evil.example"),
    ])
    func aLinkOpensItsPathOnTheStartOrigin(link: String, page: String) throws {
        #expect(try DeepLink.page(for: link, schemes: ["myapp"], startURL: Self.start) == page)
    }

    @Test func theStartURLsPortIsKept() throws {
        let page = try DeepLink.page(for: "myapp://posts/1", schemes: ["myapp"], startURL: "http://127.0.0.1:3000/")
        #expect(page == "http://127.0.0.1:3000/posts/1")
    }

    @Test func aSchemeTheAppDoesNotOpenIsRefusedWithOneLine() {
        #expect {
            try DeepLink.page(for: "other://posts/1", schemes: ["myapp"], startURL: Self.start)
        } throws: { error in
            let line = (error as? DeepLink.Refusal)?.description ?? ""
            return line == "other://posts/1: the app does not open other-scheme links (it has myapp); "
                + "add the scheme to the definition's \"url_schemes\"" && !line.contains("\n")
        }
        #expect(throws: DeepLink.Refusal.self) {
            try DeepLink.page(for: "myapp://posts/1", schemes: [], startURL: Self.start)
        }
        #expect(throws: DeepLink.Refusal.self) {
            try DeepLink.page(for: "myapp://a b", schemes: ["myapp"], startURL: Self.start)
        }
    }

    @Test(arguments: [
        ("https://a.example/", false), ("file:///tmp/a.html", false), ("about:blank", false),
        ("data:text/html,x", false), ("myapp://x", true), ("com.example.notes:/x", true), ("/tmp/a.html", false),
        ("page.html", false),
    ])
    func onlyASchemeTheWebViewDoesNotLoadIsADeepLink(url: String, isDeepLink: Bool) {
        #expect(DeepLink.isDeepLink(url) == isDeepLink)
    }

    @Test func aDefinitionsSchemesAreCheckedAndGoInTheDesktopEntry() throws {
        func definition(_ schemes: String, start: String = Self.start) throws(AppDefinitionError) -> AppDefinition {
            try AppDefinition(
                json: #"{"id": "com.example.N", "name": "N", "start_url": "\#(start)", "url_schemes": \#(schemes)}"#,
                path: "/srv/app.json")
        }
        let app = try definition(#"["MyApp", "notes+x"]"#)
        #expect(app.urlSchemes == ["myapp", "notes+x"])
        let entry = AppInstaller(dataHome: "/home/u/.local/share").desktopEntry(for: app)
        #expect(entry.contains("\nMimeType=x-scheme-handler/myapp;x-scheme-handler/notes+x;\n"))
        #expect(!AppInstaller().desktopEntry(for: try definition("[]")).contains("MimeType"))

        for bad in [#"["https"]"#, #"["my app"]"#, #"["1app"]"#, #"["myapp:"]"#] {
            #expect(throws: AppDefinitionError.self, "\(bad)") { try definition(bad) }
        }
        #expect {
            try definition(#"["myapp"]"#, start: "file:///srv/index.html")
        } throws: { error in
            "\(error)".hasSuffix(#""url_schemes" needs an http(s) "start_url": a link opens a page on its origin"#)
        }
    }
}
