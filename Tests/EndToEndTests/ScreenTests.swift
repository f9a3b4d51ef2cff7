import Foundation
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
            _ name: String, after mark: Int, timeout: Double = 20,
            where predicate: ([String: Any]) -> Bool = { _ in true }
        ) async throws -> [String: Any] {
            try await host.waitFor(name, after: mark, timeout: timeout, where: predicate)
        }

        /// The ids of the native controls shown now (the `controls` command).
        func controls() async throws -> [String] {
            let mark = self.mark
            try host.send(["command": "controls"])
            let answer = try await next("controls", after: mark)
            return ((answer["controls"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String }.sorted()
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

    static func depth(_ event: [String: Any]) -> Int? { event["depth"] as? Int }
    static func path(_ event: [String: Any]) -> String? {
        (event["url"] as? String).flatMap { URL(string: $0) }.map { $0.path + ($0.query.map { "?" + $0 } ?? "") }
    }

    @Test func withTurboEveryVisitIsAScreenAndBackBringsItsControlsBack() async throws {
        let app = try await App.start(turbo: true)
        let root = try await app.host.waitFor("screen.pushed")
        #expect(Self.depth(root) == 1 && root["action"] as? String == "load")
        #expect(try await app.controls(settleOn: ["button.button-right"]) == ["button.button-right"])

        // New post: Turbo proposes the visit, the navigator pushes a screen; only "Save" is shown.
        var mark = app.mark
        try app.host.send(["command": "activate", "control": "button.button-right"])
        let proposed = try await app.next("visit.proposed", after: mark)
        #expect(Self.path(proposed) == "/posts/new" && proposed["action"] as? String == "advance")
        var screen = try await app.next("screen.pushed", after: mark)
        #expect(Self.depth(screen) == 2 && Self.path(screen) == "/posts/new")
        #expect(try await app.controls(settleOn: ["form.submit"]) == ["form.submit"])

        // The index's button belongs to a screen that is not shown: it cannot be pressed, nothing is sent.
        mark = app.mark
        try app.host.send(["command": "activate", "control": "button.button-right"])
        let refused = try await app.next("command.error", after: mark)
        #expect((refused["error"] as? String)?.contains("no native control") == true)
        #expect(app.host.events[mark...].contains { $0["event"] as? String == "bridge.sent" } == false)

        // Save: the form posts, the server answers 303 → /posts/1, Turbo proposes it: a third screen, no controls.
        mark = app.mark
        try app.host.send(["command": "activate", "control": "form.submit"])
        screen = try await app.next("screen.pushed", after: mark)
        #expect(Self.depth(screen) == 3 && Self.path(screen) == "/posts/1")
        try await app.next("page.title", after: mark) {
            ($0["title"] as? String)?.hasPrefix("Screens on Linux") == true
        }
        #expect(try await app.controls(settleOn: []) == [])

        // Back: the form screen comes back with "Save"; Back again: the index with "New post".
        mark = app.mark
        try app.host.send(["command": "back"])
        screen = try await app.next("screen.popped", after: mark)
        #expect(Self.depth(screen) == 2 && Self.path(screen) == "/posts/new")
        #expect(try await app.controls(settleOn: ["form.submit"]) == ["form.submit"])
        mark = app.mark
        try app.host.send(["command": "back"])
        screen = try await app.next("screen.popped", after: mark)
        #expect(Self.depth(screen) == 1 && Self.path(screen) == "/posts")
        #expect(try await app.controls(settleOn: ["button.button-right"]) == ["button.button-right"])

        // One document the whole time: Turbo rendered every visit, no full page load.
        #expect(app.host.events.filter { $0["event"] as? String == "page.committed" }.count == 1)
        mark = app.mark
        try app.host.send(["command": "back"])
        #expect((try await app.next("command.error", after: mark))["command"] as? String == "back")
        try await app.stop()
    }

    @Test func withoutTurboFullLoadsAreScreensAndABackForwardCacheRestoreKeepsItsControlsWorking() async throws {
        let app = try await App.start(turbo: false)
        try await app.host.waitFor("screen.pushed")
        #expect(try await app.controls(settleOn: ["button.button-right"]) == ["button.button-right"])

        var mark = app.mark
        try app.host.send(["command": "activate", "control": "button.button-right"])
        var screen = try await app.next("screen.pushed", after: mark)
        #expect(Self.depth(screen) == 2 && Self.path(screen) == "/posts/new")
        #expect(try await app.controls(settleOn: ["form.submit"]) == ["form.submit"])

        mark = app.mark
        try app.host.send(["command": "activate", "control": "form.submit"])
        screen = try await app.next("screen.pushed", after: mark)
        #expect(Self.depth(screen) == 3 && Self.path(screen) == "/posts/1")
        #expect(try await app.controls(settleOn: []) == [])

        // Back: WebKit restores the form page from its back/forward cache (its title still says what the
        // page did before it was left) and the screen comes back with its "Save".
        mark = app.mark
        try app.host.send(["command": "back"])
        screen = try await app.next("screen.popped", after: mark)
        #expect(Self.depth(screen) == 2 && Self.path(screen) == "/posts/new")
        try await app.next("page.title", after: mark) { ($0["title"] as? String)?.hasPrefix("form: native") == true }
        #expect(try await app.controls(settleOn: ["form.submit"]) == ["form.submit"])

        // …and it works: pressing it submits the restored page's form (a second post).
        mark = app.mark
        try app.host.send(["command": "activate", "control": "form.submit"])
        screen = try await app.next("screen.pushed", after: mark)
        #expect(Self.depth(screen) == 3 && Self.path(screen) == "/posts/2")

        mark = app.mark
        try app.host.send(["command": "back"])
        try await app.next("screen.popped", after: mark)
        mark = app.mark
        try app.host.send(["command": "back"])
        screen = try await app.next("screen.popped", after: mark)
        #expect(Self.depth(screen) == 1 && Self.path(screen) == "/posts")
        #expect(try await app.controls(settleOn: ["button.button-right"]) == ["button.button-right"])
        #expect(app.host.events.filter { $0["event"] as? String == "visit.proposed" }.isEmpty)
        try await app.stop()
    }

    @Test func historicalLocationRedirectsPopStayOrRefreshInsteadOfBeingShown() async throws {
        let app = try await App.start(turbo: true)
        try await app.host.waitFor("screen.pushed")
        try await app.host.waitFor("turbo.ready")
        var mark = app.mark
        try app.host.send(["command": "visit", "url": app.url("posts/new")])
        try await app.next("screen.pushed", after: mark)
        #expect(try await app.controls(settleOn: ["form.submit"]) == ["form.submit"])
        mark = app.mark
        try app.host.send(["command": "activate", "control": "form.submit"])
        let show = try await app.next("screen.pushed", after: mark)
        #expect(Self.depth(show) == 3)

        // Stay (→ /resume_historical_location): the screen that asked stays, nothing is pushed for the route.
        mark = app.mark
        try app.host.send(["command": "visit", "url": app.url("posts/1?then=stay")])
        try await app.next("screen.pushed", after: mark) { Self.depth($0) == 4 }
        let resume = try await app.next("visit.proposed", after: mark) {
            Self.path($0) == "/resume_historical_location"
        }
        #expect(resume["action"] as? String == "advance")
        try await Task.sleep(for: .milliseconds(500))
        #expect(app.host.events[mark...].filter { ($0["event"] as? String)?.hasPrefix("screen.") == true }.count == 1)

        // Done (→ /recede_historical_location): the screen that asked pops.
        mark = app.mark
        try app.host.send(["command": "visit", "url": app.url("posts/1?then=done")])
        try await app.next("screen.pushed", after: mark) { Self.depth($0) == 5 }
        try await app.next("visit.proposed", after: mark) { Self.path($0) == "/recede_historical_location" }
        let popped = try await app.next("screen.popped", after: mark)
        #expect(Self.depth(popped) == 4 && Self.path(popped) == "/posts/1?then=stay")

        // Refresh (→ /refresh_historical_location): the screen stays and its page is visited again in place.
        mark = app.mark
        try app.host.send(["command": "visit", "url": app.url("posts/1?then=refresh")])
        try await app.next("screen.pushed", after: mark) { Self.depth($0) == 5 }
        try await app.next("visit.proposed", after: mark) { Self.path($0) == "/refresh_historical_location" }
        try await app.host.waitFor("visit.completed", after: mark, occurrence: 2) {
            Self.path($0) == "/posts/1?then=refresh"
        }
        #expect(app.host.events[mark...].filter { ($0["event"] as? String)?.hasPrefix("screen.") == true }.count == 1)
        // None of the routes was ever shown as a page.
        #expect(
            !app.host.events.contains {
                (Self.path($0) ?? "").hasSuffix("_historical_location")
                    && ($0["event"] as? String)?.hasPrefix("screen.") == true
            })
        try await app.stop()
    }
}

extension ScreenTests {
    @Test func aFailedTurboVisitIsReportedAndItsScreenShowsTheErrorScreen() async throws {
        let app = try await App.start(turbo: true)
        try await app.host.waitFor("screen.pushed")
        // Until the page's Turbo registered our adapter, a visit is a full load.
        let turbo = try await app.host.waitFor("turbo.ready")
        #expect(turbo["version"] as? String == "7.0-7.1")
        let mark = app.mark
        try app.host.send(["command": "visit", "url": app.url("posts/999")])
        let pushed = try await app.next("screen.pushed", after: mark)
        #expect(Self.depth(pushed) == 2 && Self.path(pushed) == "/posts/999")
        let failed = try await app.next("visit.failed", after: mark)
        #expect(failed["statusCode"] as? Int == 404 && Self.path(failed) == "/posts/999")
        // As upstream: the visit's own screen shows the error screen (no second screen, nothing loaded).
        let error = try await app.next("screen.error", after: mark)
        #expect(error["statusCode"] as? Int == 404 && Self.path(error) == "/posts/999")
        try await Task.sleep(for: .milliseconds(300))
        let changes = ["screen.pushed", "screen.replaced", "screen.popped"]
        #expect(app.host.events[mark...].filter { changes.contains($0["event"] as? String ?? "") }.count == 1)
        #expect(try await app.controls(settleOn: []) == [])
        try await app.stop()
    }
}

extension ScreenTests {
    /// Back the GNOME way: Alt+Left and the mouse's back button, sent as real X input (xdotool's XTEST) to the
    /// host's own display.
    @Test func altLeftAndTheMouseBackButtonGoBack() async throws {
        let app = try await App.start(turbo: true)
        try await app.host.waitFor("turbo.ready")
        #expect(try await app.controls(settleOn: ["button.button-right"]) == ["button.button-right"])

        for (input, arguments) in [
            ("Alt+Left", ["key", "--window", "WINDOW", "alt+Left"]),
            ("mouse button 8", ["mousemove", "400", "300", "click", "8"]),
        ] {
            var mark = app.mark
            try app.host.send(["command": "activate", "control": "button.button-right"])
            try await app.next("screen.pushed", after: mark) { Self.depth($0) == 2 }
            #expect(try await app.controls(settleOn: ["form.submit"]) == ["form.submit"])
            try await app.next("page.title", after: mark) { ($0["title"] as? String)?.hasPrefix("New post") == true }
            mark = app.mark
            try await app.host.xInput(arguments, toWindowTitled: "New post")
            let popped = try await app.next("screen.popped", after: mark)
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
