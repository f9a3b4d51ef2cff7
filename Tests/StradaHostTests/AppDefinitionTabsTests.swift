import StradaNavigation
import Testing

@testable import StradaHost

/// An app definition's `tabs`: each a title, a symbolic icon and a start URL; every mistake is one line naming
/// the tab and the key.
@Suite struct AppDefinitionTabsTests {
    static func definition(tabs: String) -> String {
        #"{"id": "com.example.Mail", "name": "Mail", "start_url": "https://mail.example/", "tabs": \#(tabs)}"#
    }

    @Test func tabsKeepTheirOrderTitleIconAndURL() throws {
        let text = Self.definition(
            tabs: #"""
                [{"title": "Inbox", "icon": "mail-unread-symbolic", "url": "https://mail.example/inbox"},
                 {"title": "Files", "icon": "folder-symbolic", "url": "https://files.example/"},
                 {"title": "Help", "icon": "help-about-symbolic", "url": "file:///usr/share/mail/help.html"}]
                """#)
        let app = try AppDefinition(json: text, path: "/srv/mail.json")
        #expect(
            app.tabs == [
                TabDefinition(title: "Inbox", icon: "mail-unread-symbolic", startURL: "https://mail.example/inbox"),
                TabDefinition(title: "Files", icon: "folder-symbolic", startURL: "https://files.example/"),
                TabDefinition(title: "Help", icon: "help-about-symbolic", startURL: "file:///usr/share/mail/help.html"),
            ])
    }

    @Test func withoutTabsThereAreNone() throws {
        let text = #"{"id": "com.example.Mail", "name": "Mail", "start_url": "https://mail.example/"}"#
        #expect(try AppDefinition(json: text, path: "/srv/mail.json").tabs.isEmpty)
    }

    static let one = #"{"title": "A", "icon": "a-symbolic", "url": "https://a.example/"}"#

    @Test(arguments: [
        (#""tabs""#, #""tabs" must be an array of at least two tabs"#),
        ("[\(one)]", #""tabs" must be an array of at least two tabs"#),
        ("[\(one), 3]", #""tabs"[1] must be an object"#),
        (#"[\#(one), {"title": "B", "icon": "b"}]"#, #""tabs"[1] needs "url""#),
        (#"[\#(one), {"title": "", "icon": "b", "url": "https://b.example/"}]"#, #""tabs"[1] needs "title""#),
        (#"[\#(one), {"title": "B", "url": "https://b.example/"}]"#, #""tabs"[1] needs "icon""#),
        (#"[\#(one), {"title": "B", "icon": "b", "url": "ftp://b.example/"}]"#, #""tabs"[1]."url" must be"#),
        (#"[\#(one), {"title": "B", "icon": "b", "url": "/b"}]"#, #""tabs"[1]."url" must be"#),
        (#"[\#(one), {"title": "B", "icon": "b", "url": "https://b/", "badge": 3}]"#, #"unknown key "badge""#),
    ])
    func eachMistakeNamesTheTabAndTheKey(tabs: String, expected: String) {
        do {
            _ = try AppDefinition(json: Self.definition(tabs: tabs), path: "/srv/mail.json")
            Issue.record("accepted: \(tabs)")
        } catch {
            #expect(error.description.hasPrefix("/srv/mail.json: "))
            #expect(error.description.contains(expected), "\(error.description)")
        }
    }
}
