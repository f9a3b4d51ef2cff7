import Foundation
import StradaCore
import TestSupport
import Testing

/// An app with tabs (issue 26 item 2), end to end: the real host on an app definition with three tabs, a local
/// server that counts the pages it serves (`Fixtures/tabs/server.py`), the button plugin from its .so file.
/// Tabs load on first selection; each keeps its stack and controls while another is shown; Ctrl+2 is a real
/// key press.
@Suite(.serialized, .oneAtATime, .temporaryDirectories)
struct TabTests {
    /// The tabs app's server and a host running its definition.
    struct App {
        let server: LocalHTTPServer
        let host: HostProcess

        /// The server (its pages with the real Turbo when `turbo`) and a host on the three-tab definition, with
        /// `extra` keys in it.
        static func start(turbo: Bool = false, extra: String = "") async throws -> App {
            let fixture = Repository.path("Tests/EndToEndTests/Fixtures/tabs")
            var arguments = ["--port", "0"]
            if turbo { arguments += ["--turbo", try await RealTurbo.path()] }
            let server = try await LocalHTTPServer.running(script: fixture + "/server.py", arguments: arguments)
            let plugins = try PluginsDirectory.make(plugins: ["libStradaButtonPlugin.so"])
            let definition = try TemporaryDirectory.file(
                named: "tabs.json",
                contents: """
                    {
                      "id": "com.example.Tabs", "name": "Tabs", "start_url": "\(server.url)tab/one",
                      "plugins": [], "system_plugins": false\(extra),
                      "tabs": [
                        {"title": "One", "icon": "mail-unread-symbolic", "url": "\(server.url)tab/one"},
                        {"title": "Two", "icon": "folder-symbolic", "url": "\(server.url)tab/two"},
                        {"title": "Three", "icon": "avatar-default-symbolic", "url": "\(server.url)tab/three"}
                      ]
                    }
                    """)
            let host = try HostProcess(app: definition, arguments: ["--plugins", plugins])
            return App(server: server, host: host)
        }

        var mark: Int { host.events.count }

        /// The HTML pages the server served so far, by path.
        func requests() async throws -> [String: Int] {
            let text = try await ProcessRunner.check("/usr/bin/curl", ["-s", server.url + "requests"], timeout: 10)
            let counts = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Int]
            return counts ?? [:]
        }

        /// The native controls shown now, as `id=title`, sorted.
        func controls() async throws -> [String] {
            let mark = self.mark
            try host.send(["command": "controls"])
            let answer = try await host.waitFor(.controls, after: mark)
            guard case .array(let controls)? = answer["controls"] else { return [] }
            return controls.compactMap { control in
                control["id"]?.stringValue.map { $0 + "=" + (control["title"]?.stringValue ?? "") }
            }.sorted()
        }

        /// Waits until the controls shown are `expected` (they follow the page's messages), then returns them.
        func controls(settleOn expected: [String]) async throws -> [String] {
            let deadline = Date().addingTimeInterval(10)
            var shown = try await controls()
            while shown != expected && Date() < deadline {
                try await Task.sleep(for: .milliseconds(100))
                shown = try await controls()
            }
            return shown
        }

        /// Selects tab `index` with the `select-tab` command; the `tab.selected` event.
        @discardableResult
        func select(_ index: Int) async throws -> JSON {
            let mark = self.mark
            try host.sendLine(#"{"command": "select-tab", "index": \#(index)}"#)
            try await host.waitFor(.commandOK, after: mark) { $0["command"] == "select-tab" }
            return try await host.waitFor(.tabSelected, after: mark) { $0["index"] == .number(Double(index)) }
        }

        func stop() async throws {
            try host.send(["command": "quit"])
            #expect(try await host.waitForExit() == 0)
            server.stop()
        }
    }

    static func path(_ event: JSON) -> String? {
        event["url"]?.stringValue.flatMap { URL(string: $0)?.path }
    }

    @Test func aTabsStartPageIsNotRequestedBeforeTheTabIsSelected() async throws {
        let app = try await App.start()
        let first = try await app.host.waitFor(.tabSelected)
        #expect(first["index"] == 0 && first["title"] == "One" && first["firstTime"] == true)
        try await app.host.waitFor(.pageFinished) { Self.path($0) == "/tab/one" }
        #expect(
            try await app.controls(settleOn: ["button.button-right=one right"]) == ["button.button-right=one right"])
        #expect(try await app.requests() == ["/tab/one": 1], "only the first tab's page is loaded at start")

        var mark = app.mark
        let third = try await app.select(2)
        #expect(third["title"] == "Three" && third["firstTime"] == true)
        try await app.host.waitFor(.pageFinished, after: mark) { Self.path($0) == "/tab/three" }
        #expect(try await app.requests() == ["/tab/one": 1, "/tab/three": 1], "the second tab is still not loaded")

        mark = app.mark
        let again = try await app.select(0)
        #expect(again["firstTime"] == false && Self.path(again) == "/tab/one")
        #expect(
            try await app.controls(settleOn: ["button.button-right=one right"]) == ["button.button-right=one right"])
        _ = try await app.select(1)
        try await app.host.waitFor(.pageFinished, after: mark) { Self.path($0) == "/tab/two" }
        _ = try await app.select(2)
        #expect(
            try await app.requests() == ["/tab/one": 1, "/tab/two": 1, "/tab/three": 1],
            "a tab shown again is kept, not loaded again")
        try await app.stop()
    }

    @Test func eachTabKeepsItsStackAndControlsWhileAnotherIsShown() async throws {
        let app = try await App.start()
        try await app.host.waitFor(.pageFinished) { Self.path($0) == "/tab/one" }
        #expect(
            try await app.controls(settleOn: ["button.button-right=one right"]) == ["button.button-right=one right"])

        // A second screen in tab 1.
        var mark = app.mark
        try app.host.send(["command": "activate", "control": "button.button-right"])
        let pushed = try await app.host.waitFor(.screenPushed, after: mark) { Self.path($0) == "/tab/one/next" }
        #expect(pushed["depth"] == 2)
        let next = ["button.button-right=one next right"]
        #expect(try await app.controls(settleOn: next) == next)

        // Tab 2: its own stack, its own controls; tab 1's button is not in the window.
        mark = app.mark
        _ = try await app.select(1)
        let two = try await app.host.waitFor(.screenPushed, after: mark) { Self.path($0) == "/tab/two" }
        #expect(two["depth"] == 1)
        #expect(
            try await app.controls(settleOn: ["button.button-right=two right"]) == ["button.button-right=two right"])

        // Back to tab 1: the second screen, its button, Back to the first screen.
        mark = app.mark
        let back = try await app.select(0)
        #expect(back["firstTime"] == false && Self.path(back) == "/tab/one/next")
        #expect(try await app.controls() == next, "the tab's controls are back at once, as they were")
        try app.host.send(["command": "back"])
        try await app.host.waitFor(.commandOK, after: mark) { $0["command"] == "back" }
        let popped = try await app.host.waitFor(.screenPopped, after: mark) { Self.path($0) == "/tab/one" }
        #expect(popped["depth"] == 1, "Back acts on the tab shown, whose stack was two screens deep")
        #expect(
            try await app.controls(settleOn: ["button.button-right=one right"]) == ["button.button-right=one right"])

        // Tab 2 again: its one screen and button, untouched.
        _ = try await app.select(1)
        #expect(try await app.controls() == ["button.button-right=two right"])
        #expect(try await app.requests()["/tab/one/next"] == 1, "switching tabs reloads nothing")
        try await app.stop()
    }

    @Test func thePathConfigurationAppliesInEveryTabAndAModalPresentsOverTheWindow() async throws {
        let configuration = try TemporaryDirectory.file(
            named: "path-configuration.json",
            contents: #"{"rules": [{"patterns": ["/tab/two/next$"], "properties": {"context": "modal"}}]}"#)
        let app = try await App.start(turbo: true, extra: #", "path_configuration": ["\#(configuration)"]"#)
        try await app.host.waitFor(.pageFinished) { Self.path($0) == "/tab/one" }
        var mark = app.mark
        _ = try await app.select(1)
        try await app.host.waitFor(.turboReady, after: mark) { Self.path($0) == "/tab/two" }
        let two = ["button.button-right=two right"]
        #expect(try await app.controls(settleOn: two) == two)

        // Tab 2's link is a Turbo visit its path configuration makes a modal, over the main window.
        mark = app.mark
        try app.host.send(["command": "activate", "control": "button.button-right"])
        let modal = try await app.host.waitFor(.modalPresented, after: mark)
        #expect(Self.path(modal) == "/tab/two/next")
        let inModal = ["button.button-right=two next right"]
        #expect(try await app.controls(settleOn: inModal) == inModal, "the commands act in the modal")
        mark = app.mark
        try app.host.sendLine(#"{"command": "select-tab", "index": 0}"#)
        let refused = try await app.host.waitFor(.commandError, after: mark) { $0["command"] == "select-tab" }
        #expect(refused["error"]?.stringValue?.contains("modal") == true)

        // Dismissed: tab 2 as it was, one screen deep with its button.
        mark = app.mark
        try app.host.send(["command": "dismiss-modal"])
        try await app.host.waitFor(.modalDismissed, after: mark)
        #expect(try await app.controls() == two)
        try await app.stop()
    }

    @Test func aSelectedTabIsReportedShownOnceTheWindowHasPaintedIt() async throws {
        let app = try await App.start()
        try await app.host.waitFor(.pageFinished) { Self.path($0) == "/tab/one" }
        for index in [1, 0, 1] {
            let mark = app.mark
            try app.host.sendLine(#"{"command": "select-tab", "index": \#(index)}"#)
            let selected = try await app.host.waitFor(.tabSelected, after: mark)
            let shown = try await app.host.waitFor(.tabShown, after: mark)
            #expect(shown["index"] == .number(Double(index)) && selected["index"] == shown["index"])
            let order = app.host.events[mark...].compactMap(HostProcess.name(of:))
            let selectedAt = try #require(order.firstIndex(of: .tabSelected))
            #expect(try #require(order.firstIndex(of: .tabShown)) > selectedAt, "a tab is shown after it is selected")
            guard case .number(let milliseconds)? = shown["milliseconds"] else {
                throw TestFailure("no milliseconds: \(shown)")
            }
            #expect(milliseconds >= 0)
        }
        try await app.stop()
    }

    @Test func ctrl2SelectsTheSecondTab() async throws {
        let app = try await App.start()
        try await app.host.waitFor(.pageFinished) { Self.path($0) == "/tab/one" }
        let mark = app.mark
        try app.host.send(["command": "app"])
        let chrome = try await app.host.waitFor(.commandOK, after: mark) { $0["command"] == "app" }
        guard case .array(let groups)? = chrome["shortcuts"]?["groups"] else {
            throw TestFailure("no groups: \(chrome)")
        }
        guard case .array(let tabs)? = groups.first(where: { $0["title"] == "Tabs" })?["shortcuts"] else {
            throw TestFailure("no Tabs group in the shortcuts: \(groups)")
        }
        #expect(tabs.map { $0["title"] } == ["Show One", "Show Two", "Show Three"])
        #expect(tabs[1]["keys"] == ["<Control>2"], "Ctrl+? lists Ctrl+1…3")
        try await app.host.press("ctrl+2", inWindowTitled: "one")
        let selected = try await app.host.waitFor(.tabSelected, after: mark)
        #expect(selected["index"] == 1 && selected["title"] == "Two")
        try await app.host.waitFor(.pageFinished, after: mark) { Self.path($0) == "/tab/two" }
        #expect(
            try await app.controls(settleOn: ["button.button-right=two right"]) == ["button.button-right=two right"])
        try await app.stop()
    }

    /// Issue 36: with tabs the header bar's title is the view switcher's, and the `AdwWindowTitle` it replaced is
    /// freed: every title change set the title of freed memory (Adwaita-CRITICAL, later "invalid cast from
    /// 'GtkImage'"). The title follows the tabs, a modal over them and Back, and the host prints no critical.
    @Test func theTitleFollowsTabsAModalAndBackWithNoCritical() async throws {
        let configuration = try TemporaryDirectory.file(
            named: "path-configuration.json",
            contents: #"{"rules": [{"patterns": ["/tab/two/next$"], "properties": {"context": "modal"}}]}"#)
        let app = try await App.start(turbo: true, extra: #", "path_configuration": ["\#(configuration)"]"#)
        func title(_ expected: String, after mark: Int) async throws {
            try await app.host.waitFor(.windowTitle, after: mark) { $0["title"] == .string(expected) }
        }
        try await title("one", after: 0)

        var mark = app.mark
        let one = ["button.button-right=one right"]
        #expect(try await app.controls(settleOn: one) == one)
        try app.host.send(["command": "activate", "control": "button.button-right"])
        try await title("one next", after: mark)

        mark = app.mark
        _ = try await app.select(1)
        try await title("two", after: mark)
        let two = ["button.button-right=two right"]
        #expect(try await app.controls(settleOn: two) == two)

        mark = app.mark
        try app.host.send(["command": "activate", "control": "button.button-right"])
        try await app.host.waitFor(.modalPresented, after: mark)
        try await title("two next", after: mark)
        mark = app.mark
        try app.host.send(["command": "dismiss-modal"])
        try await app.host.waitFor(.modalDismissed, after: mark)

        mark = app.mark
        _ = try await app.select(0)
        try await title("one next", after: mark)
        mark = app.mark
        try app.host.send(["command": "back"])
        try await app.host.waitFor(.screenPopped, after: mark)
        try await title("one", after: mark)
        try await app.stop()
        #expect(GLibCriticals.reported(in: app.host.standardError).isEmpty)
    }
}
