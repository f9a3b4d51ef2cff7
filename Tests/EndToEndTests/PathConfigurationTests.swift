import Foundation
import StradaAutomation
import StradaCore
import TestSupport
import Testing

/// Path configuration end to end: the real host reads the document, and its rules decide visits of the demo
/// app (with the real Turbo). A plugin built from `Examples/native-screen` provides a native screen.
@Suite(.serialized, .oneAtATime, .temporaryDirectories)
struct PathConfigurationTests {
    /// A plugins folder with the button plugin and the native-screen example, built with its own Makefile.
    static func pluginsWithNativeScreen() async throws -> String {
        let plugins = try PluginsDirectory.make(plugins: ["libStradaButtonPlugin.so"])
        try await ProcessRunner.check(
            "/usr/bin/make", ["-s", "-C", Repository.path("Examples/native-screen"), "BUILD_DIR=\(plugins)"])
        return plugins
    }

    static func write(_ text: String, named name: String) throws -> String {
        let path = (try TemporaryDirectory.make("path-configuration") as NSString).appendingPathComponent(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static let settingsRule = """
        {"settings": {}, "rules": [
          {"patterns": [".*"], "properties": {"context": "default", "pull_to_refresh_enabled": true}},
          {"patterns": ["/settings$"], "properties": {"view_controller": "settings", "title": "Settings"}}
        ]}
        """

    @Test func aRuleWithAViewControllerPushesThePluginsNativeScreenAndBackRemovesIt() async throws {
        let server = try await RouteAndErrorScreenTests.Server(turbo: true)
        let plugins = try await Self.pluginsWithNativeScreen()
        let configuration = try Self.write(Self.settingsRule, named: "path-configuration.json")
        let host = try HostProcess(
            page: server.url("/links?click=settings"),
            arguments: ["--plugins", plugins, "--path-configuration", configuration])
        let loaded = try await host.waitFor(.pathConfigurationLoaded)
        #expect(loaded["rules"] == 2 && loaded["source"] == .string(configuration))

        // Turbo proposes /settings; the rules that matched travel with the proposal; the screen is native.
        let proposed = try await host.waitFor(.visitProposed)
        let properties = proposed["properties"]
        #expect(properties?["view_controller"] == "settings")
        #expect(properties?["pull_to_refresh_enabled"] == true)
        let pushed = try await host.waitFor(.screenPushed) { $0["depth"] == 2 }
        #expect(pushed["view"] == "settings" && pushed["url"] == .string(server.url("/settings")))
        #expect(host.standardError.contains("settings screen built for \(server.url("/settings"))"))
        // The web view never loaded /settings (the demo has no such page).
        #expect(
            !host.events.contains {
                $0["url"]?.stringValue?.hasSuffix("/settings") == true && HostProcess.name(of: $0) == .pageCommitted
            })

        let picture = (try TemporaryDirectory.make("shot") as NSString).appendingPathComponent("native.png")
        var mark = host.events.count
        try host.send(["command": "screenshot", "path": picture])
        try await host.waitFor(.commandOK, after: mark)
        #expect((try? FileManager.default.attributesOfItem(atPath: picture)[.size] as? Int) ?? 0 > 1000)

        // Back: the links page again, the plugin was told its screen is gone.
        mark = host.events.count
        try host.send(["command": "back"])
        let popped = try await host.waitFor(.screenPopped, after: mark)
        #expect(popped["depth"] == 1 && popped["view"] == nil)
        try await Task.sleep(for: .milliseconds(200))
        #expect(host.standardError.contains("settings screen destroyed"))

        // The `visit` command is routed by the same rules.
        mark = host.events.count
        try host.send(["command": "visit", "url": server.url("/settings")])
        let again = try await host.waitFor(.screenPushed, after: mark)
        #expect(again["view"] == "settings" && again["depth"] == 2)
        try await RouteAndErrorScreenTests.quit(host)
        server.stop()
    }

    @Test func aNativeScreenOfAPluginNotGrantedNativeScreensIsAWebVisitWithTheRefusal() async throws {
        let server = try await RouteAndErrorScreenTests.Server(turbo: true)
        let plugins = try await Self.pluginsWithNativeScreen()
        // The plugin's manifest declares only "controls": its screen is refused.
        try #"{"capabilities": ["controls"]}"#.write(
            toFile: (plugins as NSString).appendingPathComponent("libsettings_screen.json"), atomically: true,
            encoding: .utf8)
        let configuration = try Self.write(Self.settingsRule, named: "path-configuration.json")
        let host = try HostProcess(
            page: server.url("/links?click=settings"),
            arguments: ["--plugins", plugins, "--path-configuration", configuration])
        let pushed = try await host.waitFor(.screenPushed) { $0["depth"] == 2 }
        #expect(pushed["view"] == nil, "a web screen: \(pushed)")
        #expect(
            host.standardError.contains(
                "plugin dev.strada.example.settings may not use native-screens (screen settings refused)"),
            "\(host.standardError)")
        #expect(!host.standardError.contains("settings screen built"))
        try await RouteAndErrorScreenTests.quit(host)
        server.stop()
    }

    @Test func aViewControllerNoPluginProvidesIsAWebVisitWithALogLine() async throws {
        let server = try await RouteAndErrorScreenTests.Server(turbo: true)
        let configuration = try Self.write(
            #"{"rules": [{"patterns": ["/posts$"], "properties": {"view_controller": "nobody"}}]}"#, named: "p.json")
        let host = try HostProcess(
            page: server.url("/links"),
            arguments: [
                "--plugins", try PluginsDirectory.make(plugins: ["libStradaButtonPlugin.so"]),
                "--path-configuration", configuration,
            ])
        try await host.waitFor(.turboReady)
        let mark = host.events.count
        try host.send(["command": "visit", "url": server.url("/posts")])
        let pushed = try await host.waitFor(.screenPushed, after: mark)
        #expect(pushed["view"] == nil && pushed["depth"] == 2)
        try await host.waitFor(.pageTitle, after: mark) {
            $0["title"]?.stringValue?.hasPrefix("Posts") == true
        }
        #expect(host.standardError.contains("no plugin loaded in the host provides it"))
        try await RouteAndErrorScreenTests.quit(host)
        server.stop()
    }

    /// Every presentation value on the main stack, with the real Turbo: each step pushes screens with the
    /// `visit` command, and the top page then proposes a visit (`?go=<path>`, Turbo.visit) that a rule gives
    /// a presentation by its `as=<presentation>` query.
    static let presentations = """
        {"settings": {}, "rules": [
          {"patterns": ["^/posts(\\\\?.*)?$"], "properties": {"query_string_presentation": "replace"}},
          {"patterns": ["[?&]as=clear_all"], "properties": {"presentation": "clear_all"}},
          {"patterns": ["[?&]as=replace_root"], "properties": {"presentation": "replace_root"}},
          {"patterns": ["[?&]as=refresh"], "properties": {"presentation": "refresh"}},
          {"patterns": ["[?&]as=pop"], "properties": {"presentation": "pop"}},
          {"patterns": ["[?&]as=none"], "properties": {"presentation": "none"}},
          {"patterns": ["[?&]as=replace$"], "properties": {"presentation": "replace"}},
          {"patterns": ["[?&]as=push"], "properties": {"presentation": "push"}}
        ]}
        """

    struct Steps {
        let host: HostProcess
        let server: RouteAndErrorScreenTests.Server

        /// Pushes `path` with the `visit` command; returns the new depth.
        @discardableResult
        func push(_ path: String) async throws -> Int {
            let mark = host.events.count
            try host.send(["command": "visit", "url": server.url(path)])
            let pushed = try await host.waitFor(.screenPushed, after: mark)
            try await host.waitFor(.pageTitle, after: mark)
            return pushed["depth"]?.intValue ?? 0
        }

        /// Pushes a page that proposes `proposal` once shown; returns the events after the push, once
        /// `until` came (or, for `nil`, 600 ms after the proposal).
        func propose(
            _ proposal: String, from page: String = "/button", until: AutomationEvent.Name?, occurrence: Int = 1,
            where predicate: @escaping (JSON) -> Bool = { _ in true }
        ) async throws -> [JSON] {
            let encoded = proposal.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? proposal
            let mark = host.events.count
            try host.send(["command": "visit", "url": server.url("\(page)?go=\(encoded)")])
            try await host.waitFor(.screenPushed, after: mark)
            let proposed = try await host.waitFor(.visitProposed, after: mark) {
                $0["url"] == .string(server.url(proposal))
            }
            #expect(proposed["properties"]?.objectValue != nil)
            if let until {
                try await host.waitFor(until, after: mark, occurrence: occurrence, where: predicate)
            } else {
                try await Task.sleep(for: .milliseconds(600))
            }
            return Array(host.events[mark...])
        }

        static func screenEvents(_ events: [JSON]) -> [String] {
            events.compactMap { event in
                guard let name = HostProcess.name(of: event), AutomationEvent.Name.screenEvents.contains(name)
                else { return nil }
                let url = event["url"]?.stringValue.flatMap { URL(string: $0) }
                let path = (url?.path ?? "") + (url?.query.map { "?" + $0 } ?? "")
                let change = name.rawValue.dropFirst("screen.".count)
                return "\(change) \(event["depth"]?.intValue ?? 0) \(path.components(separatedBy: "?go=")[0])"
            }
        }
    }

    @Test func everyPresentationOnTheMainStack() async throws {
        let server = try await RouteAndErrorScreenTests.Server(turbo: true)
        let configuration = try Self.write(Self.presentations, named: "presentations.json")
        let host = try HostProcess(
            page: server.url("/posts"),
            arguments: [
                "--plugins", try PluginsDirectory.make(plugins: ["libStradaButtonPlugin.so"]),
                "--path-configuration", configuration,
            ])
        try await host.waitFor(.turboReady)
        let steps = Steps(host: host, server: server)

        // clear_all: back to the first screen, which is refreshed in place (its restore, then a fresh visit);
        // the proposal is not visited.
        try await steps.push("/menu")
        var events = try await steps.propose("/form?as=clear_all", until: .visitCompleted, occurrence: 2) {
            $0["url"] == .string(server.url("/posts"))
        }
        #expect(Steps.screenEvents(events) == ["pushed 3 /button", "popped 1 /posts"])

        // pop: the screen that proposed it goes.
        try await steps.push("/menu")
        events = try await steps.propose("/form?as=pop", until: .screenPopped)
        #expect(Steps.screenEvents(events) == ["pushed 3 /button", "popped 2 /menu"])

        // none: nothing happens.
        events = try await steps.propose("/form?as=none", until: nil)
        #expect(Steps.screenEvents(events) == ["pushed 3 /button"])

        // refresh: pop, then the screen revealed is refreshed in place (its restore, then a fresh visit).
        let revealed = server.url("/button?go=%2Fform%3Fas%3Dnone")
        events = try await steps.propose("/form?as=refresh", until: .visitCompleted, occurrence: 2) {
            $0["url"] == .string(revealed)
        }
        #expect(Steps.screenEvents(events) == ["pushed 4 /button", "popped 3 /button"])

        // replace: the proposal replaces the screen that proposed it.
        events = try await steps.propose("/form?as=replace", until: .screenReplaced)
        #expect(Steps.screenEvents(events) == ["pushed 4 /button", "replaced 4 /form?as=replace"])

        // push: a new screen, as an advance visit.
        events = try await steps.propose("/menu?as=push", until: .screenPushed) { $0["depth"] == 6 }
        #expect(Steps.screenEvents(events) == ["pushed 5 /button", "pushed 6 /menu?as=push"])

        // query_string_presentation replace: /posts?page=2 over /posts replaces that screen, in place (the same
        // depth, its components kept), as upstream's same-location rule.
        events = try await steps.propose("/posts?page=2", from: "/posts", until: .visitCompleted) {
            $0["url"] == .string(server.url("/posts?page=2"))
        }
        #expect(Steps.screenEvents(events) == ["pushed 7 /posts", "replaced 7 /posts?page=2"])

        // replace_root: the proposal becomes the only screen; Back has nowhere to go.
        events = try await steps.propose("/menu?as=replace_root", until: .screenPushed) { $0["depth"] == 1 }
        #expect(Steps.screenEvents(events) == ["pushed 8 /button", "pushed 1 /menu?as=replace_root"])
        let mark = host.events.count
        try host.send(["command": "back"])
        #expect(
            (try await host.waitFor(.commandError, after: mark))["command"]
                == "back")
        try await RouteAndErrorScreenTests.quit(host)
        server.stop()
    }

    // MARK: Modals

    /// The demo's own path configuration (`/new$` is a modal), plus the presentation rules of the test above.
    static func demoRules() throws -> String {
        let demo = try String(contentsOfFile: Repository.path("Examples/demo/path-configuration.json"), encoding: .utf8)
        let extra = """
            {"patterns": ["[?&]as=pop"], "properties": {"presentation": "pop"}},
            {"patterns": ["[?&]as=refresh"], "properties": {"presentation": "refresh"}},
            {"patterns": ["[?&]as=modal"], "properties": {"context": "modal"}}
            """
        guard let end = demo.range(of: "]", options: .backwards) else { return demo }
        return demo.replacingCharacters(in: end, with: ", " + extra + "]")
    }

    static func startDemo() async throws -> (RouteAndErrorScreenTests.Server, HostProcess) {
        let server = try await RouteAndErrorScreenTests.Server(turbo: true)
        let configuration = try Self.write(try Self.demoRules(), named: "demo.json")
        let plugins = try PluginsDirectory.make(plugins: ["libStradaButtonPlugin.so", "libStradaFormPlugin.so"])
        let host = try HostProcess(
            page: server.url("/posts"), arguments: ["--plugins", plugins, "--path-configuration", configuration])
        try await host.waitFor(.turboReady)
        return (server, host)
    }

    static func controls(_ host: HostProcess, _ expected: [String]) async throws -> [String] {
        try await RouteAndErrorScreenTests.controls(host, settleOn: expected)
    }

    @Test func aModalFormIsPresentedPushesInsideAndIsDismissed() async throws {
        let (server, host) = try await Self.startDemo()
        #expect(try await Self.controls(host, ["button.button-right"]) == ["button.button-right"])

        // New post: /posts/new is a modal (the demo's rule): its own window and stack over the index.
        var mark = host.events.count
        try host.send(["command": "activate", "control": "button.button-right"])
        let presented = try await host.waitFor(.modalPresented, after: mark)
        #expect(presented["url"] == .string(server.url("/posts/new")))
        let first = try await host.waitFor(.screenPushed, after: mark) {
            $0["stack"] == "modal"
        }
        #expect(first["depth"] == 1)
        // The modal's form owns the header bar the user acts in; the index's button is under it, kept.
        #expect(try await Self.controls(host, ["form.submit"]) == ["form.submit"])
        #expect(!host.events[mark...].contains { HostProcess.name(of: $0) == .screenPopped })

        // A picture: the modal over the dimmed main window.
        let picture = (try TemporaryDirectory.make("shot") as NSString).appendingPathComponent("modal.png")
        try host.send(["command": "screenshot", "path": picture])
        try await host.waitFor(.commandOK, after: mark) {
            $0["command"] == "screenshot"
        }

        // Inside the modal, a visit whose rule says `context: modal` pushes on the modal's stack; Back pops there.
        mark = host.events.count
        try host.send(["command": "visit", "url": server.url("/button?as=modal")])
        let pushed = try await host.waitFor(.screenPushed, after: mark)
        #expect(pushed["stack"] == "modal" && pushed["depth"] == 2)
        mark = host.events.count
        try host.send(["command": "back"])
        let popped = try await host.waitFor(.screenPopped, after: mark)
        #expect(popped["stack"] == "modal" && popped["depth"] == 1)
        #expect(try await Self.controls(host, ["form.submit"]) == ["form.submit"])

        // Dismissed: the index is shown as it was, its button working.
        mark = host.events.count
        try host.send(["command": "dismiss-modal"])
        let dismissed = try await host.waitFor(.modalDismissed, after: mark)
        #expect(dismissed["reason"] == "command")
        #expect(try await Self.controls(host, ["button.button-right"]) == ["button.button-right"])
        // Escape (a real key press in the modal) dismisses it as Cancel does.
        mark = host.events.count
        try host.send(["command": "activate", "control": "button.button-right"])
        try await host.waitFor(.modalPresented, after: mark)
        #expect(try await Self.controls(host, ["form.submit"]) == ["form.submit"])
        try await host.press("Escape", inWindowTitled: "New post")
        #expect((try await host.waitFor(.modalDismissed, after: mark))["reason"] == "cancel")
        #expect(try await Self.controls(host, ["button.button-right"]) == ["button.button-right"])
        mark = host.events.count
        try host.send(["command": "dismiss-modal"])
        #expect(
            (try await host.waitFor(.commandError, after: mark))["command"]
                == "dismiss-modal")
        // The `visit` command is routed by the same rules as a link (upstream's `route(url)`): a modal again.
        mark = host.events.count
        try host.send(["command": "visit", "url": server.url("/posts/new")])
        #expect(try await host.waitFor(.modalPresented, after: mark)["url"] == .string(server.url("/posts/new")))
        #expect(try await Self.controls(host, ["form.submit"]) == ["form.submit"])
        try await RouteAndErrorScreenTests.quit(host)
        server.stop()
    }

    @Test func savingTheModalFormDismissesItAndTheMainStackShowsThePost() async throws {
        let (server, host) = try await Self.startDemo()
        #expect(try await Self.controls(host, ["button.button-right"]) == ["button.button-right"])
        var mark = host.events.count
        try host.send(["command": "activate", "control": "button.button-right"])
        try await host.waitFor(.modalPresented, after: mark)
        #expect(try await Self.controls(host, ["form.submit"]) == ["form.submit"])

        // Save: the form answers 303 → /posts/1, a default-context visit: the modal goes, the main stack pushes.
        mark = host.events.count
        try host.send(["command": "activate", "control": "form.submit"])
        let dismissed = try await host.waitFor(.modalDismissed, after: mark)
        #expect(dismissed["reason"] == "visit")
        let pushed = try await host.waitFor(.screenPushed, after: mark) {
            $0["stack"] == "main"
        }
        #expect(pushed["depth"] == 2 && pushed["url"] == .string(server.url("/posts/1")))
        try await host.waitFor(.pageTitle, after: mark) {
            $0["title"]?.stringValue?.hasPrefix("Screens on Linux") == true
        }
        try await RouteAndErrorScreenTests.quit(host)
        server.stop()
    }

    @Test(arguments: ["pop", "refresh"])
    func popOrRefreshOnAOneScreenModalDismissesIt(presentation: String) async throws {
        let (server, host) = try await Self.startDemo()
        // A modal whose page proposes /form?as=<presentation> once shown.
        let encoded = "%2Fform%3Fas%3D\(presentation)"
        let mark = host.events.count
        try host.send(["command": "navigate", "url": server.url("/posts?go=%2Fbutton%3Fas%3Dmodal%26go%3D\(encoded)")])
        let presented = try await host.waitFor(.modalPresented, after: mark)
        #expect(presented["url"]?.stringValue?.contains("/button?as=modal") == true)
        let dismissed = try await host.waitFor(.modalDismissed, after: mark)
        #expect(dismissed["reason"] == .string(presentation))
        if presentation == "refresh" {
            // …and the screen underneath is visited again, in place.
            try await host.waitFor(.visitCompleted, after: mark) {
                $0["url"]?.stringValue?.hasPrefix(server.url("/posts")) == true
            }
        }
        #expect(try await Self.controls(host, ["button.button-right"]) == ["button.button-right"])
        try await RouteAndErrorScreenTests.quit(host)
        server.stop()
    }

    // MARK: Sources

    @Test func aServersCopyIsCachedAndUsedOfflineAndABadDocumentKeepsTheRulesInForce() async throws {
        let cache = try TemporaryDirectory.make("cache")
        let document = try Self.write(try Self.demoRules(), named: "served.json")
        let app = try await RouteAndErrorScreenTests.Server(turbo: true)
        // The path configuration comes from another server (it can go away while the app's stays).
        let configServer = try await LocalHTTPServer.running(
            script: Repository.path("Examples/demo/server.py"),
            arguments: ["--port", "0", "--path-configuration", document])
        let source = configServer.url + "configurations/linux.json"
        let plugins = try PluginsDirectory.make(plugins: ["libStradaButtonPlugin.so", "libStradaFormPlugin.so"])
        func run(expecting proposals: Bool) async throws -> HostProcess {
            try HostProcess(
                page: app.url("/posts"), arguments: ["--plugins", plugins, "--path-configuration", source],
                environment: ["XDG_CACHE_HOME": cache])
        }

        // First run: fetched and cached.
        var host = try await run(expecting: true)
        var loaded = try await host.waitFor(.pathConfigurationLoaded)
        #expect(loaded["source"] == .string(source) && loaded["rules"] == 6)
        try await RouteAndErrorScreenTests.quit(host)
        let cached = try FileManager.default.contentsOfDirectory(atPath: cache + "/strada/path-configuration")
        #expect(cached.count == 1)

        // Offline: the cached copy applies before (and without) the network; /posts/new is still a modal.
        configServer.stop()
        host = try await run(expecting: true)
        loaded = try await host.waitFor(.pathConfigurationLoaded)
        #expect(loaded["rules"] == 6)
        try await host.waitFor(.turboReady)
        #expect(try await Self.controls(host, ["button.button-right"]) == ["button.button-right"])
        var mark = host.events.count
        try host.send(["command": "activate", "control": "button.button-right"])
        try await host.waitFor(.modalPresented, after: mark)
        #expect(host.standardError.contains("could not be fetched"))
        try await RouteAndErrorScreenTests.quit(host)

        // The server is back with a broken document: one error line, the cached rules stay in force.
        try "{\"rules\": [{\"patterns\": [\"(\"]}]}".write(toFile: document, atomically: true, encoding: .utf8)
        let again = try await LocalHTTPServer.running(
            script: Repository.path("Examples/demo/server.py"),
            arguments: ["--port", String(configServer.port), "--path-configuration", document])
        host = try await run(expecting: true)
        let error = try await host.waitFor(.pathConfigurationError)
        #expect(
            error["error"]?.stringValue?.contains("rules[0].patterns[0] \"(\" is not a valid regular expression")
                == true)
        try await host.waitFor(.turboReady)
        #expect(try await Self.controls(host, ["button.button-right"]) == ["button.button-right"])
        mark = host.events.count
        try host.send(["command": "activate", "control": "button.button-right"])
        try await host.waitFor(.modalPresented, after: mark)
        try await RouteAndErrorScreenTests.quit(host)
        again.stop()
        app.stop()
    }
}
