import Foundation
import StradaAutomation
import StradaCore
import TestSupport
import Testing

/// Screens end to end: the real host, the real Turbo (7.1.0, from PyPI's django-turbojs, fetched at test
/// time by `scripts/fetch-turbo`), the demo app's posts (`Examples/demo`, its own server) and the button and
/// form plugins loaded from their .so files. At every step the test asserts the whole control set of the
/// screen shown and the stack depth: the native controls shown are exactly those of the screen shown.
@Suite(.serialized, .oneAtATime, .temporaryDirectories)
struct ScreenTests {
    /// A running posts app and host.
    struct App {
        let server: LocalHTTPServer
        let host: HostProcess

        static func start(turbo: Bool) async throws -> App {
            var arguments = ["--port", "0"]
            if turbo { arguments += ["--turbo", try await RealTurbo.path()] }
            let server = try await LocalHTTPServer.running(
                script: Repository.path("Examples/demo/server.py"), arguments: arguments)
            let plugins = try PluginsDirectory.make(plugins: ["libStradaButtonPlugin.so", "libStradaFormPlugin.so"])
            let host = try HostProcess(page: server.url + "posts", arguments: ["--plugins", plugins])
            return App(server: server, host: host)
        }

        func url(_ path: String) -> String { server.url + path }

        /// The number of events so far: wait for what comes after it.
        var mark: Int { host.events.count }

        /// The first event named `name` after `mark` that satisfies `predicate`.
        @discardableResult
        func next(
            _ name: AutomationEvent.Name, after mark: Int, timeout: Double = 20,
            where predicate: (JSON) -> Bool = { _ in true }
        ) async throws -> JSON {
            try await host.waitFor(name, after: mark, timeout: timeout, where: predicate)
        }

        /// The ids of the native controls shown now (the `controls` command).
        func controls() async throws -> [String] {
            let mark = self.mark
            try host.send(["command": "controls"])
            let answer = try await next(.controls, after: mark)
            return (answer["controls"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }.sorted()
        }

        /// Waits until the controls shown are `expected` (they follow the page's messages, which follow the
        /// screen change), then returns them.
        func controls(settleOn expected: [String]) async throws -> [String] {
            let deadline = Date().addingTimeInterval(10)
            var shown = try await controls()
            while shown != expected && Date() < deadline {
                try await Task.sleep(for: .milliseconds(100))
                shown = try await controls()
            }
            return shown
        }

        func stop() async throws {
            try host.send(["command": "quit"])
            #expect(try await host.waitForExit() == 0)
            server.stop()
        }
    }

    static func depth(_ event: JSON) -> Int? { event["depth"]?.intValue }
    static func path(_ event: JSON) -> String? {
        event["url"]?.stringValue.flatMap { URL(string: $0) }.map { $0.path + ($0.query.map { "?" + $0 } ?? "") }
    }

    @Test func withTurboEveryVisitIsAScreenAndBackBringsItsControlsBack() async throws {
        let app = try await App.start(turbo: true)
        let root = try await app.host.waitFor(.screenPushed)
        #expect(Self.depth(root) == 1 && root["action"] == "load")
        #expect(try await app.controls(settleOn: ["button.button-right"]) == ["button.button-right"])

        // New post: Turbo proposes the visit, the navigator pushes a screen; only "Save" is shown.
        var mark = app.mark
        try app.host.send(["command": "activate", "control": "button.button-right"])
        let proposed = try await app.next(.visitProposed, after: mark)
        #expect(Self.path(proposed) == "/posts/new" && proposed["action"] == "advance")
        var screen = try await app.next(.screenPushed, after: mark)
        #expect(Self.depth(screen) == 2 && Self.path(screen) == "/posts/new")
        #expect(try await app.controls(settleOn: ["form.submit"]) == ["form.submit"])

        // The index's button belongs to a screen that is not shown: it cannot be pressed, nothing is sent.
        mark = app.mark
        try app.host.send(["command": "activate", "control": "button.button-right"])
        let refused = try await app.next(.commandError, after: mark)
        #expect(refused["error"]?.stringValue?.contains("no native control") == true)
        #expect(app.host.events[mark...].contains { HostProcess.name(of: $0) == .bridgeSent } == false)

        // Save: the form posts, the server answers 303 → /posts/1, Turbo proposes it: a third screen, no controls.
        mark = app.mark
        try app.host.send(["command": "activate", "control": "form.submit"])
        screen = try await app.next(.screenPushed, after: mark)
        #expect(Self.depth(screen) == 3 && Self.path(screen) == "/posts/1")
        try await app.next(.pageTitle, after: mark) {
            $0["title"]?.stringValue?.hasPrefix("Screens on Linux") == true
        }
        #expect(try await app.controls(settleOn: []) == [])

        // Back: the form screen comes back with "Save"; Back again: the index with "New post".
        mark = app.mark
        try app.host.send(["command": "back"])
        screen = try await app.next(.screenPopped, after: mark)
        #expect(Self.depth(screen) == 2 && Self.path(screen) == "/posts/new")
        #expect(try await app.controls(settleOn: ["form.submit"]) == ["form.submit"])
        mark = app.mark
        try app.host.send(["command": "back"])
        screen = try await app.next(.screenPopped, after: mark)
        #expect(Self.depth(screen) == 1 && Self.path(screen) == "/posts")
        #expect(try await app.controls(settleOn: ["button.button-right"]) == ["button.button-right"])

        // One document the whole time: Turbo rendered every visit, no full page load.
        #expect(app.host.events(named: .pageCommitted).count == 1)
        mark = app.mark
        try app.host.send(["command": "back"])
        #expect((try await app.next(.commandError, after: mark))["command"] == "back")
        try await app.stop()
    }

    @Test func withoutTurboFullLoadsAreScreensAndABackForwardCacheRestoreKeepsItsControlsWorking() async throws {
        let app = try await App.start(turbo: false)
        try await app.host.waitFor(.screenPushed)
        #expect(try await app.controls(settleOn: ["button.button-right"]) == ["button.button-right"])

        var mark = app.mark
        try app.host.send(["command": "activate", "control": "button.button-right"])
        var screen = try await app.next(.screenPushed, after: mark)
        #expect(Self.depth(screen) == 2 && Self.path(screen) == "/posts/new")
        #expect(try await app.controls(settleOn: ["form.submit"]) == ["form.submit"])

        mark = app.mark
        try app.host.send(["command": "activate", "control": "form.submit"])
        screen = try await app.next(.screenPushed, after: mark)
        #expect(Self.depth(screen) == 3 && Self.path(screen) == "/posts/1")
        #expect(try await app.controls(settleOn: []) == [])

        // Back: WebKit restores the form page from its back/forward cache (its title still says what the
        // page did before it was left) and the screen comes back with its "Save".
        mark = app.mark
        try app.host.send(["command": "back"])
        screen = try await app.next(.screenPopped, after: mark)
        #expect(Self.depth(screen) == 2 && Self.path(screen) == "/posts/new")
        try await app.next(.pageTitle, after: mark) { $0["title"]?.stringValue?.hasPrefix("form: native") == true }
        #expect(try await app.controls(settleOn: ["form.submit"]) == ["form.submit"])

        // …and it works: pressing it submits the restored page's form (a second post).
        mark = app.mark
        try app.host.send(["command": "activate", "control": "form.submit"])
        screen = try await app.next(.screenPushed, after: mark)
        #expect(Self.depth(screen) == 3 && Self.path(screen) == "/posts/2")

        mark = app.mark
        try app.host.send(["command": "back"])
        try await app.next(.screenPopped, after: mark)
        mark = app.mark
        try app.host.send(["command": "back"])
        screen = try await app.next(.screenPopped, after: mark)
        #expect(Self.depth(screen) == 1 && Self.path(screen) == "/posts")
        #expect(try await app.controls(settleOn: ["button.button-right"]) == ["button.button-right"])
        #expect(app.host.events(named: .visitProposed).isEmpty)
        try await app.stop()
    }

    @Test func historicalLocationRedirectsPopStayOrRefreshInsteadOfBeingShown() async throws {
        let app = try await App.start(turbo: true)
        try await app.host.waitFor(.screenPushed)
        try await app.host.waitFor(.turboReady)
        var mark = app.mark
        try app.host.send(["command": "visit", "url": app.url("posts/new")])
        try await app.next(.screenPushed, after: mark)
        #expect(try await app.controls(settleOn: ["form.submit"]) == ["form.submit"])
        mark = app.mark
        try app.host.send(["command": "activate", "control": "form.submit"])
        let show = try await app.next(.screenPushed, after: mark)
        #expect(Self.depth(show) == 3)

        // Stay (→ /resume_historical_location): the screen that asked stays, nothing is pushed for the route.
        mark = app.mark
        try app.host.send(["command": "visit", "url": app.url("posts/1?then=stay")])
        try await app.next(.screenPushed, after: mark) { Self.depth($0) == 4 }
        let resume = try await app.next(.visitProposed, after: mark) {
            Self.path($0) == "/resume_historical_location"
        }
        #expect(resume["action"] == "advance")
        try await Task.sleep(for: .milliseconds(500))
        #expect(
            app.host.events[mark...].filter { AutomationEvent.Name.screenEvents.contains(nameOf: $0) }.count == 1)

        // Done (→ /recede_historical_location): the screen that asked pops.
        mark = app.mark
        try app.host.send(["command": "visit", "url": app.url("posts/1?then=done")])
        try await app.next(.screenPushed, after: mark) { Self.depth($0) == 5 }
        try await app.next(.visitProposed, after: mark) { Self.path($0) == "/recede_historical_location" }
        let popped = try await app.next(.screenPopped, after: mark)
        #expect(Self.depth(popped) == 4 && Self.path(popped) == "/posts/1?then=stay")

        // Refresh (→ /refresh_historical_location): the screen stays and its page is visited again in place.
        mark = app.mark
        try app.host.send(["command": "visit", "url": app.url("posts/1?then=refresh")])
        try await app.next(.screenPushed, after: mark) { Self.depth($0) == 5 }
        try await app.next(.visitProposed, after: mark) { Self.path($0) == "/refresh_historical_location" }
        try await app.host.waitFor(.visitCompleted, after: mark, occurrence: 2) {
            Self.path($0) == "/posts/1?then=refresh"
        }
        #expect(
            app.host.events[mark...].filter { AutomationEvent.Name.screenEvents.contains(nameOf: $0) }.count == 1)
        // None of the routes was ever shown as a page.
        #expect(
            !app.host.events.contains {
                (Self.path($0) ?? "").hasSuffix("_historical_location")
                    && AutomationEvent.Name.screenEvents.contains(nameOf: $0)
            })
        try await app.stop()
    }
}

extension ScreenTests {
    @Test func aFailedTurboVisitIsReportedAndItsScreenShowsTheErrorScreen() async throws {
        let app = try await App.start(turbo: true)
        try await app.host.waitFor(.screenPushed)
        // Until the page's Turbo registered our adapter, a visit is a full load.
        let turbo = try await app.host.waitFor(.turboReady)
        #expect(turbo["version"] == "7.0-7.1")
        let mark = app.mark
        try app.host.send(["command": "visit", "url": app.url("posts/999")])
        let pushed = try await app.next(.screenPushed, after: mark)
        #expect(Self.depth(pushed) == 2 && Self.path(pushed) == "/posts/999")
        let failed = try await app.next(.visitFailed, after: mark)
        #expect(failed["statusCode"] == 404 && Self.path(failed) == "/posts/999")
        // As upstream: the visit's own screen shows the error screen (no second screen, nothing loaded).
        let error = try await app.next(.screenError, after: mark)
        #expect(error["statusCode"] == 404 && Self.path(error) == "/posts/999")
        try await Task.sleep(for: .milliseconds(300))
        let changes: [AutomationEvent.Name] = [.screenPushed, .screenReplaced, .screenPopped]
        #expect(
            app.host.events[mark...].filter { HostProcess.name(of: $0).map(changes.contains) == true }.count == 1)
        #expect(try await app.controls(settleOn: []) == [])
        try await app.stop()
    }
}

extension ScreenTests {
    /// Back the GNOME way: Alt+Left and the mouse's back button, sent as real X input (xdotool's XTEST) to the
    /// host's own display.
    @Test func altLeftAndTheMouseBackButtonGoBack() async throws {
        let app = try await App.start(turbo: true)
        try await app.host.waitFor(.turboReady)
        #expect(try await app.controls(settleOn: ["button.button-right"]) == ["button.button-right"])

        for (input, arguments) in [
            ("Alt+Left", ["key", "--window", "WINDOW", "alt+Left"]),
            ("mouse button 8", ["mousemove", "400", "300", "click", "8"]),
        ] {
            var mark = app.mark
            try app.host.send(["command": "activate", "control": "button.button-right"])
            try await app.next(.screenPushed, after: mark) { Self.depth($0) == 2 }
            #expect(try await app.controls(settleOn: ["form.submit"]) == ["form.submit"])
            try await app.next(.pageTitle, after: mark) { $0["title"]?.stringValue?.hasPrefix("New post") == true }
            mark = app.mark
            try await app.host.xInput(arguments, toWindowTitled: "New post")
            let popped = try await app.next(.screenPopped, after: mark)
            #expect(Self.depth(popped) == 1, "\(input) went back")
            #expect(try await app.controls(settleOn: ["button.button-right"]) == ["button.button-right"])
        }
        try await app.stop()
    }
}

/// The real Turbo, fetched from PyPI at test time (never committed): `scripts/fetch-turbo` prints its path.
enum RealTurbo {
    static func path() async throws -> String {
        let path = try await ProcessRunner.check(Repository.path("scripts/fetch-turbo"))
        return path.trimmingCharacters(in: .whitespacesAndNewlines).components(separatedBy: "\n").last ?? ""
    }
}
