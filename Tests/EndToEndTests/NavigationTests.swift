import Foundation
import StradaAutomation
import StradaCore
import TestSupport
import Testing

/// Navigation beyond the happy path, to upstream's letter (issue 22): the real host, a Rails-style app
/// (`Fixtures/navigation/server.py`: a morph-refresh page with a form, error pages, a modal flow ending in
/// turbo-rails' historical routes, a frame that advances history, pages to go forward), the button and form
/// plugins. Every case runs with the real Turbo 7.1.0 and, when `TURBO_JS` names a Turbo 8 build, again with
/// it. At every step: the stack depth and the invariant — the native controls shown are exactly those the
/// components of the page shown created (controls are listed as `id=title`, titles naming their page).
@Suite(.serialized, .oneAtATime, .temporaryDirectories)
struct NavigationTests {
    /// Which Turbo the app's pages load.
    enum Turbo: String, Sendable, CustomTestStringConvertible {
        case turbo7 = "Turbo 7.1.0"
        case turbo8 = "Turbo 8"
        var testDescription: String { rawValue }

        /// Turbo 7.1.0 always; Turbo 8 when `TURBO_JS` names a build (one line says how otherwise).
        static let available: [Turbo] = {
            guard let path = ProcessInfo.processInfo.environment["TURBO_JS"], !path.isEmpty else {
                print("NavigationTests: Turbo 8 cases skipped; set TURBO_JS to a Turbo 8 build (docs/turbo-8-build.md)")
                return [.turbo7]
            }
            return [.turbo7, .turbo8]
        }()

        /// The build's file, and the family the host reports in `turbo.ready`.
        func file() async throws -> (path: String, family: String) {
            switch self {
            case .turbo7: (try await RealTurbo.path(), "7.0-7.1")
            case .turbo8: (ProcessInfo.processInfo.environment["TURBO_JS"] ?? "", "8")
            }
        }
    }

    /// The app's server and a host showing one of its pages.
    struct App {
        let server: LocalHTTPServer
        let host: HostProcess

        /// Starts the app (with `turbo`, or without Turbo) and a host on `page`; with Turbo, waits until the
        /// page's Turbo registered the adapter (and checks it is the build asked for).
        static func start(_ turbo: Turbo?, page: String) async throws -> App {
            var arguments = ["--port", "0"]
            let build = try await turbo?.file()
            if let build { arguments += ["--turbo", build.path] }
            let fixture = Repository.path("Tests/EndToEndTests/Fixtures/navigation")
            let server = try await LocalHTTPServer.running(script: fixture + "/server.py", arguments: arguments)
            let plugins = try PluginsDirectory.make(plugins: ["libStradaButtonPlugin.so", "libStradaFormPlugin.so"])
            let host = try HostProcess(
                page: server.url + page,
                arguments: ["--plugins", plugins, "--path-configuration", fixture + "/path-configuration.json"])
            let app = App(server: server, host: host)
            try await app.next(.screenPushed, after: 0)
            if let build {
                let ready = try await app.next(.turboReady, after: 0)
                try #require(ready["version"]?.stringValue == build.family, "the page loaded \(turbo!.rawValue)")
            }
            return app
        }

        func url(_ path: String) -> String { server.url + path }

        /// The number of events so far: wait for what comes after it.
        var mark: Int { host.events.count }

        @discardableResult
        func next(
            _ name: AutomationEvent.Name, after mark: Int, timeout: Double = 10,
            where predicate: (JSON) -> Bool = { _ in true }
        ) async throws -> JSON {
            try await host.waitFor(name, after: mark, timeout: timeout, where: predicate)
        }

        /// Sends `command`; the test ends here (with the host's words) unless the host accepted it.
        func perform(_ command: [String: String]) async throws {
            let mark = self.mark
            try host.send(command)
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                if let result = host.events.dropFirst(mark).first(where: {
                    AutomationEvent.Name.commandResults.contains(nameOf: $0)
                        && $0["command"]?.stringValue == command["command"]
                }) {
                    try #require(
                        HostProcess.name(of: result) == .commandOK,
                        "\(command): \(result["error"].map { $0.stringValue ?? "\($0)" } ?? "")")
                    return
                }
                try await Task.sleep(for: .milliseconds(20))
            }
            throw HostProcess.Timeout(waitingFor: "the result of \(command)", seen: host.lines)
        }

        /// Presses a native control (`activate`).
        func press(_ control: String) async throws {
            try await perform(["command": "activate", "control": control])
        }

        /// The native controls shown now, as `id=title`, sorted.
        func controls() async throws -> [String] {
            let mark = self.mark
            try host.send(["command": "controls"])
            let answer = try await next(.controls, after: mark)
            return (answer["controls"]?.arrayValue ?? []).compactMap { control in
                control["id"]?.stringValue.map { $0 + "=" + (control["title"]?.stringValue ?? "") }
            }.sorted()
        }

        /// The controls shown once they are `expected` (they follow the page's messages), or after 5 s.
        func controls(settleOn expected: [String]) async throws -> [String] {
            let deadline = Date().addingTimeInterval(5)
            var shown = try await controls()
            while shown != expected && Date() < deadline {
                try await Task.sleep(for: .milliseconds(100))
                shown = try await controls()
            }
            return shown
        }

        /// Waits until the controls shown are `expected`; if they never are, the issue shows what happened
        /// since `mark` (screens, visits, controls).
        func expectControls(
            _ expected: [String], since mark: Int, _ comment: String = "",
            sourceLocation: SourceLocation = #_sourceLocation
        ) async throws {
            let shown = try await controls(settleOn: expected)
            #expect(shown == expected, "\(comment)\n\(trace(after: mark))", sourceLocation: sourceLocation)
        }

        /// What happened after `mark`, one line per screen, visit, modal, control or command event.
        func trace(after mark: Int) -> String {
            host.events.dropFirst(mark).compactMap { event -> String? in
                guard let name = HostProcess.name(of: event) else { return nil }
                let control = event["control"]
                /// A field as text (a string as itself).
                func text(_ field: JSON?) -> String? { field.map { $0.stringValue ?? "\($0)" } }
                let details: [String?]
                switch name {
                case .screenPushed, .screenReplaced, .screenPopped:
                    details = [
                        text(event["stack"]), text(event["depth"]), text(event["action"]), NavigationTests.path(event),
                    ]
                case .visitProposed, .visitCompleted, .visitFailed, .screenError, .pageCommitted:
                    details = [text(event["action"]), text(event["statusCode"]), NavigationTests.path(event)]
                case .modalPresented, .modalDismissed:
                    details = [NavigationTests.path(event), text(event["reason"])]
                case .controlAdded, .controlChanged: details = [text(control?["id"]), text(control?["title"])]
                case .controlRemoved: details = [text(event["id"])]
                case .commandError: details = [text(event["command"]), text(event["error"])]
                case .pageTitle: details = [text(event["title"])]
                default: return nil
                }
                return ([name.rawValue] + details.compactMap { $0 }).joined(separator: " ")
            }.joined(separator: "\n")
        }

        /// The screen changes (`screen.pushed`/`replaced`/`popped`) after `mark`, as "event stack depth path".
        func screenChanges(after mark: Int) -> [String] {
            host.events.dropFirst(mark).compactMap { event in
                guard let name = HostProcess.name(of: event), AutomationEvent.Name.stackChanges.contains(name)
                else { return nil }
                let depth = event["depth"]?.intValue.map(String.init) ?? "?", stack = event["stack"]?.stringValue ?? "?"
                return "\(name.rawValue) \(stack) \(depth) \(NavigationTests.path(event) ?? "")"
            }
        }

        /// The first page title after `mark` that starts with `prefix`, from a page served after the page
        /// whose serial is `after` (titles end with " #N", N counting the pages the server sent).
        @discardableResult
        func title(_ prefix: String, after mark: Int, servedAfter serial: Int = 0) async throws -> Int {
            let event = try await next(.pageTitle, after: mark) {
                guard let title = $0["title"]?.stringValue, title.hasPrefix(prefix) else { return false }
                return NavigationTests.serial(title) > serial
            }
            return NavigationTests.serial(event["title"]?.stringValue ?? "")
        }

        func stop() async throws {
            try host.send(["command": "quit"])
            _ = try await host.waitForExit()
            server.stop()
        }
    }

    static func path(_ event: JSON) -> String? {
        event["url"]?.stringValue.flatMap { URL(string: $0) }.map { $0.path + ($0.query.map { "?" + $0 } ?? "") }
    }

    static func serial(_ title: String) -> Int {
        title.split(separator: "#").last.flatMap { Int($0) } ?? 0
    }

    /// `text` as one query value.
    static func query(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }
}

// MARK: a. Refresh in place

extension NavigationTests {
    /// How the page asks for itself again.
    enum Refresh: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case replaceVisit = "Turbo.visit(location.href, {action: \"replace\"})"
        case formRedirectedBack = "a form answered 303 to the same URL"
        var testDescription: String { rawValue }
    }

    /// A replace visit to the URL shown, and a form redirected (303) back to it, refresh the page in place
    /// (upstream's adapter never proposes them to native): same screen, same depth, its controls stay and
    /// work — Save pressed after the refresh reaches the page, which posts and shows the flash. With Turbo 8
    /// the page morphs (`turbo-refresh-method` morph), so no component connects again: a screen replaced for
    /// the refresh would be left without controls.
    @Test(arguments: Turbo.available, Refresh.allCases)
    func aVisitToTheURLShownRefreshesThePageInPlace(turbo: Turbo, refresh: Refresh) async throws {
        let app = try await App.start(turbo, page: "refresh")
        let page = ["button.button-right=Reload", "form.submit=Save"]
        try await app.expectControls(page, since: 0)
        var serial = try await app.title("refresh · no flash", after: 0)

        var mark = app.mark
        switch refresh {
        case .replaceVisit:
            try await app.press("button.button-right")
            serial = try await app.title("refresh · no flash", after: mark, servedAfter: serial)
        case .formRedirectedBack:
            try await app.press("form.submit")
            serial = try await app.title("refresh · Saved 1", after: mark, servedAfter: serial)
        }
        #expect(app.screenChanges(after: mark) == [], "a refresh in place is no screen change")
        try await app.expectControls(page, since: mark)

        // Save on the refreshed page: its reply reaches the page, which posts; 303 back here, with the flash.
        let saved = refresh == .formRedirectedBack ? 2 : 1
        mark = app.mark
        try await app.press("form.submit")
        try await app.title("refresh · Saved \(saved)", after: mark, servedAfter: serial)
        #expect(app.screenChanges(after: mark) == [], "Save refreshed in place")
        try await app.expectControls(page, since: mark, "after Save")
        try await app.stop()
    }
}

// MARK: b. A failed visit

extension NavigationTests {
    static let start = "page/start?right=/missing&left=/flaky"
    static let startControls = ["button.button-left=start left", "button.button-right=start right"]

    /// A link to a page answering 404: the error screen is pushed over the page (depth 2); Back shows the
    /// page again with its controls.
    @Test(arguments: Turbo.available)
    func backFromTheErrorScreenOfA404ShowsTheScreenBelow(turbo: Turbo) async throws {
        let app = try await App.start(turbo, page: Self.start)
        try await app.expectControls(Self.startControls, since: 0)
        var mark = app.mark
        try await app.press("button.button-right")
        let error = try await app.next(.screenError, after: mark)
        #expect(error["statusCode"] == 404 && Self.path(error) == "/missing")
        let changes = app.screenChanges(after: mark)
        #expect(changes.last?.hasPrefix("screen.pushed main 2 ") == true, "\(changes)")
        try await app.expectControls([], since: mark)

        mark = app.mark
        try await app.perform(["command": "back"])
        let popped = try await app.next(.screenPopped, after: mark)
        #expect(popped["depth"] == 1 && Self.path(popped) == "/page/start?right=/missing&left=/flaky")
        try await app.expectControls(Self.startControls, since: mark)
        try await app.stop()
    }

    /// A link to a page answering 500: the error screen at depth 2; Retry, once the server is fixed, loads the
    /// page into that screen with its controls; Back shows the page below with its own.
    @Test(arguments: Turbo.available)
    func retryOnTheErrorScreenOfA500LoadsThePageAndBackShowsTheScreenBelow(turbo: Turbo) async throws {
        let app = try await App.start(turbo, page: Self.start)
        try await app.expectControls(Self.startControls, since: 0)
        var mark = app.mark
        try await app.press("button.button-left")
        let error = try await app.next(.screenError, after: mark)
        #expect(error["statusCode"] == 500 && Self.path(error) == "/flaky")
        let changes = app.screenChanges(after: mark)
        #expect(changes.last?.hasPrefix("screen.pushed main 2 ") == true, "\(changes)")

        try await ProcessRunner.check("/usr/bin/curl", ["-fsS", app.url("flaky/fix")])
        mark = app.mark
        try await app.perform(["command": "retry"])
        try await app.next(.pageCommitted, after: mark) { Self.path($0) == "/flaky" }
        try await app.expectControls(["button.button-right=flaky right"], since: mark)
        #expect(app.screenChanges(after: mark) == [], "Retry loads into the error screen's own screen")

        mark = app.mark
        try await app.perform(["command": "back"])
        let popped = try await app.next(.screenPopped, after: mark)
        #expect(popped["depth"] == 1)
        try await app.expectControls(Self.startControls, since: mark)
        try await app.stop()
    }
}

// MARK: c. Historical routes from a modal

extension NavigationTests {
    /// How the modal's form ends (turbo-rails' `recede_or_redirect_to` & co.), and from how many screens.
    enum Ending: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case recedeFromOneScreen = "recede, one-screen modal"
        case recedeFromTwoScreens = "recede, two-screen modal"
        case resume = "resume, one-screen modal"
        case refresh = "refresh, one-screen modal"
        var testDescription: String { rawValue }
    }

    /// Upstream's historical locations: the modal is dismissed first; then recede pops the main stack,
    /// resume does nothing more, refresh reloads the main stack's top.
    @Test(arguments: Turbo.available, Ending.allCases)
    func aHistoricalLocationFromAModalDismissesItThenActsOnTheMainStack(turbo: Turbo, ending: Ending) async throws {
        let then = ending == .resume ? "resume" : ending == .refresh ? "refresh" : "recede"
        var modal = "/modal/form?then=\(then)"
        if ending == .recedeFromTwoScreens { modal = "/modal/page/first?right=" + Self.query(modal) }
        let main = "/page/main?right=" + Self.query(modal)
        let app = try await App.start(turbo, page: "page/root?right=" + Self.query(main))
        try await app.expectControls(["button.button-right=root right"], since: 0)
        var mark = app.mark
        try await app.press("button.button-right")
        try await app.next(.screenPushed, after: mark) { $0["depth"] == 2 }
        let mainSerial = try await app.title("main", after: mark)
        try await app.expectControls(["button.button-right=main right"], since: mark)

        mark = app.mark
        try await app.press("button.button-right")
        try await app.next(.modalPresented, after: mark)
        if ending == .recedeFromTwoScreens {
            let first = ["button.button-right=first right"]
            try await app.expectControls(first, since: mark)
            mark = app.mark
            try await app.press("button.button-right")
            let pushed = try await app.next(.screenPushed, after: mark)
            #expect(pushed["stack"] == "modal" && pushed["depth"] == 2)
        }
        try await app.expectControls(["form.submit=Save"], since: mark)

        // Save: 303 → /<then>_historical_location.
        mark = app.mark
        try await app.press("form.submit")
        try await app.next(.modalDismissed, after: mark)
        switch ending {
        case .recedeFromOneScreen, .recedeFromTwoScreens:
            let popped = try await app.next(.screenPopped, after: mark) { $0["stack"] == "main" }
            #expect(popped["depth"] == 1 && Self.path(popped)?.hasPrefix("/page/root") == true)
            try await app.expectControls(["button.button-right=root right"], since: mark)
        case .resume:
            try await Task.sleep(for: .seconds(1))  // nothing is to happen: give it the time to
            #expect(app.screenChanges(after: mark).filter { $0.contains(" main ") } == [])
            try await app.expectControls(["button.button-right=main right"], since: mark)
        case .refresh:
            try await app.title("main", after: mark, servedAfter: mainSerial)
            let changes = app.screenChanges(after: mark).filter { $0.contains(" main ") }
            #expect(changes.allSatisfy { $0.hasPrefix("screen.replaced main 2 ") }, "\(changes)")
            try await app.expectControls(["button.button-right=main right"], since: mark)
        }
        #expect(!app.screenChanges(after: 0).contains { $0.contains("_historical_location") })
        try await app.stop()
    }
}

// MARK: d. A frame that advances history

extension NavigationTests {
    /// `<turbo-frame data-turbo-action="advance">`: its navigation is a visit that pushes a screen, which
    /// shows the control of the frame's new content only; Back shows the old screen with its own only.
    @Test(arguments: Turbo.available)
    func aFrameThatAdvancesHistoryPushesAScreenWithTheFramesControls(turbo: Turbo) async throws {
        let app = try await App.start(turbo, page: "frame")
        let link = ["button.button-right=frame link"], content = ["button.button-left=frame 2 left"]
        try await app.expectControls(link, since: 0)
        var mark = app.mark
        try await app.press("button.button-right")
        let pushed = try await app.next(.screenPushed, after: mark)
        #expect(pushed["depth"] == 2 && Self.path(pushed) == "/frame/2")
        try await app.expectControls(content, since: mark)

        mark = app.mark
        try await app.perform(["command": "back"])
        let popped = try await app.next(.screenPopped, after: mark)
        #expect(popped["depth"] == 1 && Self.path(popped) == "/frame")
        try await app.expectControls(link, since: mark)
        try await app.stop()
    }
}

// MARK: e. Forward

extension NavigationTests {
    /// Back, then the page's `history.forward()`: with Turbo, a restore visit that pushes the screen of the
    /// page gone forward to, with that page's controls only.
    @Test(arguments: Turbo.available)
    func goingForwardWithTurboPushesTheNextPagesScreen(turbo: Turbo) async throws {
        let app = try await App.start(
            turbo, page: "page/a?left=js:forward&right=" + Self.query("/page/b?right=/page/c"))
        let a = ["button.button-left=a left", "button.button-right=a right"], b = ["button.button-right=b right"]
        try await app.expectControls(a, since: 0)
        try await Self.forward(app, from: a, to: b, path: "/page/b?right=/page/c")
        try await app.stop()
    }

    /// Without Turbo, the page gone forward to is restored from WebKit's back/forward cache: a screen is
    /// pushed, `native:restore` makes its form connect again, and its Save works.
    @Test func goingForwardWithoutTurboRestoresThePageAndItsFormWorks() async throws {
        let app = try await App.start(nil, page: "page/a?left=js:forward&right=/form")
        let a = ["button.button-left=a left", "button.button-right=a right"], form = ["form.submit=Save"]
        try await app.expectControls(a, since: 0)
        try await Self.forward(app, from: a, to: form, path: "/form")
        let mark = app.mark
        try await app.press("form.submit")
        let pushed = try await app.next(.screenPushed, after: mark)
        #expect(pushed["depth"] == 3 && Self.path(pushed) == "/page/saved")
        try await app.stop()
    }

    /// From page a (its right button a link to the next page, its left button `history.forward()`): push the
    /// next page, Back, then forward.
    static func forward(_ app: App, from a: [String], to next: [String], path: String) async throws {
        var mark = app.mark
        try await app.press("button.button-right")
        var pushed = try await app.next(.screenPushed, after: mark)
        #expect(pushed["depth"] == 2 && Self.path(pushed) == path)
        try await app.expectControls(next, since: mark)

        mark = app.mark
        try await app.perform(["command": "back"])
        let popped = try await app.next(.screenPopped, after: mark)
        #expect(popped["depth"] == 1)
        try await app.expectControls(a, since: mark)

        mark = app.mark
        try await app.press("button.button-left")
        pushed = try await app.next(.screenPushed, after: mark)
        #expect(pushed["depth"] == 2 && Self.path(pushed) == path)
        try await app.expectControls(next, since: mark, "only the page gone forward to's controls")
    }
}
