import Foundation
import StradaCore
import TestSupport
import Testing

/// The host as a GNOME app (issue 26): the primary menu and About from the app definition, Ctrl+Q, Ctrl+W and
/// Ctrl+? as real key presses, the context menu an app keeps, developer mode, quiet runs without a session bus.
@Suite(.serialized, .oneAtATime, .temporaryDirectories)
struct AppChromeTests {
    /// A page that is one big link (a right click anywhere is on it), titled `title`.
    static func linkPage(title: String) throws -> String {
        try TemporaryDirectory.file(
            named: "index.html",
            contents: """
                <!DOCTYPE html><title>\(title)</title>
                <a href="https://example.com/elsewhere" style="position: fixed; inset: 0; font-size: 48px">a link</a>
                """)
    }

    /// A definition for "Notes" at `page` with a menu, About keys and `extra` keys.
    static func definition(page: String, extra: String = "") throws -> String {
        let help = URL(fileURLWithPath: try linkPage(title: "Notes help")).absoluteString
        let start = URL(fileURLWithPath: page).absoluteString
        return try TemporaryDirectory.file(
            named: "notes.json",
            contents: """
                {
                  "id": "com.example.Notes", "name": "Notes", "start_url": "\(start)", "plugins": [],
                  "system_plugins": false, "version": "2.1", "developer_name": "Example Ltd",
                  "website": "https://notes.example.com/", "license": "MIT",
                  "menu": [{"title": "Help", "url": "\(help)"}, {"title": "Reload", "action": "reload"}]\(extra)
                }
                """)
    }

    static func quit(_ host: HostProcess) async throws {
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }

    @Test func theMenuAndAboutComeFromTheDefinition() async throws {
        let host = try HostProcess(
            app: try Self.definition(page: try Self.linkPage(title: "Notes home")), arguments: [])
        try await host.waitFor(.pageFinished)
        try host.send(["command": "app"])
        let app = try await host.waitFor(.commandOK) { $0["command"] == "app" }
        guard case .array(let items)? = app["menu"]?["items"] else { throw TestFailure("no menu items: \(app)") }
        #expect(items.map { $0["title"]?.stringValue } == ["Help", "Reload", "Keyboard Shortcuts", "About Notes"])
        #expect(items.map { $0["action"]?.stringValue } == ["visit", "reload", "shortcuts", "about"])
        #expect(app["about"]?["name"] == "Notes" && app["about"]?["version"] == "2.1")
        #expect(app["about"]?["developer"] == "Example Ltd" && app["about"]?["license"] == "MIT")
        #expect(app["about"]?["website"] == "https://notes.example.com/")
        #expect(app["developer"] == false)

        // The menu opens (as F10 or a click would) and its About item shows the About window.
        var mark = host.events.count
        try host.send(["command": "activate", "control": "app.menu"])
        let opened = try await host.waitFor(.controlAdded, after: mark) { $0["control"]?["id"] == "app.menu" }
        #expect(opened["control"]?["kind"] == "primary-menu")
        mark = host.events.count
        try host.sendLine(#"{"command": "choose", "control": "app.menu", "index": 3}"#)
        let about = try await host.waitFor(.controlAdded, after: mark) { $0["control"]?["id"] == "app.about" }
        #expect(about["control"]?["kind"] == "about" && about["control"]?["name"] == "Notes")
        #expect(about["control"]?["version"] == "2.1" && about["control"]?["developer"] == "Example Ltd")
        mark = host.events.count
        try host.send(["command": "dismiss", "control": "app.about"])
        try await host.waitFor(.controlRemoved, after: mark) { $0["id"] == "app.about" }

        // An item with a URL visits it.
        mark = host.events.count
        try host.sendLine(#"{"command": "choose", "control": "app.menu", "index": 0}"#)
        try await host.waitFor(.pageTitle, after: mark) { $0["title"] == "Notes help" }
        try await Self.quit(host)
    }

    @Test func ctrlQQuitsWithZero() async throws {
        let host = try HostProcess(page: try Self.linkPage(title: "Quit me"), arguments: ["--no-system-plugins"])
        try await host.waitFor(.pageFinished)
        try await host.press("ctrl+q", inWindowTitled: "Quit me")
        #expect(try await host.waitForExit() == 0)
        #expect(host.events(named: .hostExit).last?["reason"] == "the user quit (Ctrl+Q)")
    }

    @Test func ctrlWClosesTheWindow() async throws {
        let host = try HostProcess(page: try Self.linkPage(title: "Close me"), arguments: ["--no-system-plugins"])
        try await host.waitFor(.pageFinished)
        try await host.press("ctrl+w", inWindowTitled: "Close me")
        try await host.waitFor(.windowClosed)
        #expect(try await host.waitForExit() == 0)
    }

    @Test func ctrlQuestionMarkOpensTheShortcutsWindow() async throws {
        let host = try HostProcess(page: try Self.linkPage(title: "Keys"), arguments: ["--no-system-plugins"])
        try await host.waitFor(.pageFinished)
        try await host.press("ctrl+question", inWindowTitled: "Keys")
        let shown = try await host.waitFor(.controlAdded) { $0["control"]?["id"] == "app.shortcuts" }
        #expect(shown["control"]?["kind"] == "shortcuts")
        guard case .array(let groups)? = shown["control"]?["groups"] else { throw TestFailure("no groups: \(shown)") }
        #expect(groups.map { $0["title"]?.stringValue } == ["General", "Navigation"])
        let mark = host.events.count
        try host.send(["command": "dismiss", "control": "app.shortcuts"])
        try await host.waitFor(.controlRemoved, after: mark) { $0["id"] == "app.shortcuts" }
        try await Self.quit(host)
    }

    @Test func f10OpensThePrimaryMenu() async throws {
        let host = try HostProcess(page: try Self.linkPage(title: "F10"), arguments: ["--no-system-plugins"])
        try await host.waitFor(.pageFinished)
        try await host.press("F10", inWindowTitled: "F10")
        let opened = try await host.waitFor(.controlAdded) { $0["control"]?["id"] == "app.menu" }
        #expect(opened["control"]?["kind"] == "primary-menu")
        try await Self.quit(host)
    }

    /// Right-clicks the middle of the page (a real click) and returns the context menu's items.
    static func contextMenu(_ host: HostProcess, title: String) async throws -> [String] {
        try await host.waitFor(.pageFinished)
        try await host.xInput(["mousemove", "--window", "WINDOW", "300", "300", "click", "3"], toWindowTitled: title)
        let menu = try await host.waitFor(.controlAdded) { $0["control"]?["id"] == "page.context-menu" }
        #expect(menu["control"]?["link"] == "https://example.com/elsewhere")
        guard case .array(let items)? = menu["control"]?["items"] else { throw TestFailure("no items: \(menu)") }
        return items.compactMap(\.stringValue)
    }

    @Test func theContextMenuOnALinkIsAnAppsAndInspectElementNeedsDeveloperMode() async throws {
        var host = try HostProcess(page: try Self.linkPage(title: "Menu"), arguments: ["--no-system-plugins"])
        var items = try await Self.contextMenu(host, title: "Menu")
        #expect(items.first == "open-link-in-browser" && items.contains("copy-link"))
        for gone in ["back", "forward", "stop", "reload", "open-link", "open-link-in-new-window", "inspect-element"] {
            #expect(!items.contains(gone), "\(gone) in \(items)")
        }
        // Its first item, clicked (a real click just below the pointer, where the menu opened), opens the link
        // in the browser.
        let display = try host.display()
        try await ProcessRunner.check(
            "/usr/bin/xdotool", ["mousemove_relative", "30", "16", "click", "1"], environment: display)
        try await host.waitFor(.browserOpened) { $0["url"] == "https://example.com/elsewhere" }
        try await host.waitFor(.controlRemoved) { $0["id"] == "page.context-menu" }
        try await Self.quit(host)

        host = try HostProcess(
            page: try Self.linkPage(title: "Developer"), arguments: ["--no-system-plugins", "--inspect"])
        items = try await Self.contextMenu(host, title: "Developer")
        #expect(items.last == "inspect-element" && items.first == "open-link-in-browser")
        try host.send(["command": "app"])
        let app = try await host.waitFor(.commandOK) { $0["command"] == "app" }
        #expect(app["developer"] == true)
        try await Self.quit(host)
    }

    @Test func f12OpensTheInspectorOnlyInDeveloperMode() async throws {
        // Without --inspect F12 does nothing (Ctrl+Q right after it still quits: the keys were handled).
        var host = try HostProcess(page: try Self.linkPage(title: "Plain"), arguments: ["--no-system-plugins"])
        try await host.waitFor(.pageFinished)
        try await host.press("F12", inWindowTitled: "Plain")
        try await host.press("ctrl+q", inWindowTitled: "Plain")
        #expect(try await host.waitForExit() == 0)
        #expect(!host.events.contains { $0["control"]?["id"] == "page.inspector" })

        host = try HostProcess(
            page: try Self.linkPage(title: "Inspect"), arguments: ["--no-system-plugins", "--inspect"])
        try await host.waitFor(.pageFinished)
        try await host.press("F12", inWindowTitled: "Inspect")
        let opened = try await host.waitFor(.controlAdded) { $0["control"]?["id"] == "page.inspector" }
        #expect(opened["control"]?["kind"] == "inspector")
        try await Self.quit(host)
    }

    @Test func withoutASessionBusTheRunIsQuiet() async throws {
        let host = try HostProcess(
            page: try Self.linkPage(title: "Quiet"), arguments: ["--no-system-plugins"],
            environment: ["DBUS_SESSION_BUS_ADDRESS": "disabled:"])
        try await host.waitFor(.pageFinished)
        try await Self.quit(host)
        #expect(!host.standardError.contains("Unable to acquire session bus"), "\(host.standardError)")
    }

    @Test func versionPrintsTheHostsVersion() async throws {
        let output = try await ProcessRunner.run(BuiltProducts.path("strada-host"), ["--version"])
        #expect(output.status == 0)
        #expect(output.stdout.range(of: #"^\d+\.\d+\.\d+\n$"#, options: .regularExpression) != nil, "\(output.stdout)")
    }
}

/// A set-up that did not give what the test needs.
struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
