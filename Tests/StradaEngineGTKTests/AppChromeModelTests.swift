import StradaCore
import Testing

@testable import StradaEngineGTK

/// The primary menu, the About window's contents and the keyboard shortcuts, as data.
struct AppChromeModelTests {
    @Test func thePrimaryMenuListsTheAppsItemsThenShortcutsAndAbout() {
        let menu = PrimaryMenu(
            appItems: [
                PrimaryMenu.Item(title: "Help", action: .visit("https://notes.example.com/help")),
                PrimaryMenu.Item(title: "Reload", action: .reload),
            ], appName: "Notes")
        #expect(menu.items.map(\.title) == ["Help", "Reload", "_Keyboard Shortcuts", "_About Notes"])
        guard case .array(let items)? = menu.json["items"] else { Issue.record("no items"); return }
        #expect(items.map { $0["title"]?.stringValue } == ["Help", "Reload", "Keyboard Shortcuts", "About Notes"])
        #expect(items.map { $0["action"]?.stringValue } == ["visit", "reload", "shortcuts", "about"])
        #expect(items[0]["url"] == "https://notes.example.com/help")
        #expect(items.map { $0["index"] } == [0, 1, 2, 3])
    }

    @Test(arguments: [
        ("MIT", AboutInfo.KnownLicense.mit), ("gpl-3.0-or-later", .gpl3OrLater), ("GPL-3.0", .gpl3Only),
        ("Apache-2.0", .apache2), ("BSD-3-Clause", .bsd3),
    ])
    func spdxIDsNameGTKsLicenses(_ id: String, _ license: AboutInfo.KnownLicense) {
        #expect(AboutInfo.KnownLicense(spdx: id) == license)
    }

    @Test func anUnknownLicenseIsShownAsText() {
        #expect(AboutInfo.KnownLicense(spdx: "Proprietary") == nil)
    }

    @Test func aboutReportsOnlyWhatTheDefinitionGives() {
        #expect(AboutInfo(name: "Notes").json == ["name": "Notes"])
        let full = AboutInfo(
            name: "Notes", version: "2.1", developer: "Example Ltd", website: "https://notes.example.com",
            license: "MIT", icon: "com.example.Notes")
        #expect(full.json["developer"] == "Example Ltd" && full.json["icon"] == "com.example.Notes")
    }

    @Test func theShortcutsWindowListsTheInspectorOnlyInDeveloperMode() {
        #expect(WindowShortcuts.groups(developer: false).map(\.title) == ["General", "Navigation"])
        #expect(WindowShortcuts.groups(developer: true).last?.shortcuts == [WindowShortcuts.inspector])
        let xml = WindowShortcuts.builderXML(developer: false)
        #expect(xml.contains(#"<object class="GtkShortcutsWindow" id="shortcuts">"#))
        #expect(xml.contains(#"<property name="accelerator">&lt;Control&gt;r F5</property>"#))
        #expect(xml.contains(#"<property name="accelerator">&lt;Control&gt;question</property>"#))
        #expect(!xml.contains("Web Inspector"))
    }

    @Test func anAppWithTabsListsCtrlDigitForEachOfItsFirstNineTabs() {
        let groups = WindowShortcuts.groups(developer: false, tabs: ["Inbox", "Files", "Me"])
        #expect(groups.map(\.title) == ["General", "Navigation", "Tabs"])
        #expect(groups.last?.shortcuts.map(\.title) == ["Show Inbox", "Show Files", "Show Me"])
        #expect(groups.last?.shortcuts.map(\.keys) == [["<Control>1"], ["<Control>2"], ["<Control>3"]])
        let many = WindowShortcuts.groups(developer: true, tabs: (1...12).map { "Tab \($0)" })
        #expect(many.map(\.title) == ["General", "Navigation", "Tabs", "Developer"])
        #expect(many[2].shortcuts.count == 9)
        #expect(WindowShortcuts.builderXML(developer: false, tabs: ["Inbox", "Files"]).contains("&lt;Control&gt;2"))
    }
}
