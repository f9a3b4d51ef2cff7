import Foundation
import StradaAutomation
import StradaCore
import TestSupport
import Testing

/// Where navigations go and what a failed visit shows, end to end: the real host, the demo app
/// (`Examples/demo`, its own server; with the real Turbo where it matters), real links followed in the page
/// (`/links?click=<id>`), a server that is stopped and started again on the same port.
@Suite(.serialized, .oneAtATime, .temporaryDirectories)
struct RouteAndErrorScreenTests {
    /// The demo server, restartable on the port it first got.
    final class Server {
        let turbo: String?
        private(set) var port = 0
        private var server: LocalHTTPServer?

        init(turbo: Bool) async throws {
            self.turbo = turbo ? try await RealTurbo.path() : nil
            try await start()
        }

        func start() async throws {
            var arguments = ["--port", String(port)]
            if let turbo { arguments += ["--turbo", turbo] }
            let server = try await LocalHTTPServer.running(
                script: Repository.path("Examples/demo/server.py"), arguments: arguments)
            port = server.port
            self.server = server
        }

        func stop() {
            server?.stop()
            server = nil
        }

        func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }
    }

    static func host(_ page: String) throws -> HostProcess {
        let plugins = try PluginsDirectory.make(plugins: ["libStradaButtonPlugin.so", "libStradaFormPlugin.so"])
        return try HostProcess(page: page, arguments: ["--plugins", plugins])
    }

    static func events(_ host: HostProcess, named name: AutomationEvent.Name, after mark: Int) -> [JSON] {
        Array(host.events[mark...].filter { HostProcess.name(of: $0) == name })
    }

    /// The ids of the controls shown, once they are `expected` (or after 10 s).
    static func controls(_ host: HostProcess, settleOn expected: [String]) async throws -> [String] {
        let deadline = Date().addingTimeInterval(10)
        while true {
            let mark = host.events.count
            try host.send(["command": "controls"])
            let answer = try await host.waitFor(.controls, after: mark)
            let shown = (answer["controls"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }.sorted()
            if shown == expected || Date() > deadline { return shown }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    static func quit(_ host: HostProcess) async throws {
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }

    // MARK: Error screens

    @Test func aDeadServerShowsTheErrorScreenAndRetryRecoversOnceItIsBack() async throws {
        let server = try await Server(turbo: false)
        server.stop()
        let host = try Self.host(server.url("/posts"))
        let root = try await host.waitFor(.screenPushed)
        #expect(root["depth"] == 1 && root["action"] == "load")
        var error = try await host.waitFor(.screenError)
        #expect(error["statusCode"] == 0)
        #expect(error["title"] == "Can't Reach the Server")
        #expect(error["message"]?.stringValue?.contains("127.0.0.1:\(server.port) did not answer") == true)

        // Retry while the server is still down: the same screen shows the error again.
        var mark = host.events.count
        try host.send(["command": "retry"])
        try await host.waitFor(.commandOK, after: mark) { $0["command"] == "retry" }
        error = try await host.waitFor(.screenError, after: mark)
        #expect(error["statusCode"] == 0)
        // Ctrl+R (a real key press) on an error screen retries too. The window is titled as the error screen.
        mark = host.events.count
        try await host.press("ctrl+r", inWindowTitled: "Can't Reach the Server")
        error = try await host.waitFor(.screenError, after: mark)
        #expect(error["statusCode"] == 0)

        // The server is back: F5 (a real key press, xdotool's XTEST) retries; the page loads into the same
        // screen and its components connect.
        try await server.start()
        mark = host.events.count
        try await host.press("F5", inWindowTitled: "Can't Reach the Server")
        try await host.waitFor(.pageCommitted, after: mark) { $0["url"]?.stringValue == server.url("/posts") }
        #expect(try await Self.controls(host, settleOn: ["button.button-right"]) == ["button.button-right"])
        #expect(Self.events(host, named: .screenPushed, after: mark).isEmpty)

        // Nothing left to retry.
        mark = host.events.count
        try host.send(["command": "retry"])
        let refused = try await host.waitFor(.commandError, after: mark)
        #expect(refused["error"]?.stringValue?.contains("nothing to retry") == true)
        try await Self.quit(host)
        server.stop()
    }

    @Test func aTurboVisitThatFailsShowsTheErrorOnItsOwnScreenAndRefreshRecoversIt() async throws {
        let server = try await Server(turbo: true)
        let host = try Self.host(server.url("/posts"))
        try await host.waitFor(.turboReady)
        #expect(try await Self.controls(host, settleOn: ["button.button-right"]) == ["button.button-right"])

        // The server goes away; "New post" is a Turbo visit that cannot be fetched.
        server.stop()
        var mark = host.events.count
        try host.send(["command": "activate", "control": "button.button-right"])
        let pushed = try await host.waitFor(.screenPushed, after: mark)
        #expect(pushed["depth"] == 2)
        let error = try await host.waitFor(.screenError, after: mark)
        #expect(error["url"]?.stringValue == server.url("/posts/new") && error["statusCode"] == 0)
        #expect(try await Self.controls(host, settleOn: []) == [])

        // Back on: refresh (Ctrl+R, F5, `reload`) on an error screen retries its visit, in the same screen.
        try await server.start()
        mark = host.events.count
        try host.send(["command": "reload"])
        try await host.waitFor(.pageCommitted, after: mark) { $0["url"]?.stringValue == server.url("/posts/new") }
        #expect(try await Self.controls(host, settleOn: ["form.submit"]) == ["form.submit"])
        #expect(Self.events(host, named: .screenPushed, after: mark).isEmpty)

        // Back returns to the index with its button.
        mark = host.events.count
        try host.send(["command": "back"])
        let popped = try await host.waitFor(.screenPopped, after: mark)
        #expect(popped["depth"] == 1)
        #expect(try await Self.controls(host, settleOn: ["button.button-right"]) == ["button.button-right"])
        try await Self.quit(host)
        server.stop()
    }

    @Test func anHTTPErrorShowsTheErrorScreenAndBackRemovesIt() async throws {
        let server = try await Server(turbo: false)
        let host = try Self.host(server.url("/links?click=missing"))
        let error = try await host.waitFor(.screenError)
        #expect(error["statusCode"] == 404 && error["title"] == "Page Not Found")
        #expect(error["url"]?.stringValue == server.url("/no-such-page"))
        let screens = host.events(named: .screenPushed)
        #expect(screens.last?["depth"] == 2)
        // The window's title is the error's, not the previous page's.
        try await host.waitFor(.windowTitle) { $0["title"] == "Page Not Found" }

        let mark = host.events.count
        try host.send(["command": "back"])
        let popped = try await host.waitFor(.screenPopped, after: mark)
        #expect(popped["depth"] == 1)
        #expect(popped["url"]?.stringValue?.hasPrefix(server.url("/links")) == true)
        try await host.waitFor(.windowTitle, after: mark) { $0["title"] == "Links · Strada demo" }
        try await Self.quit(host)
        server.stop()
    }

    // MARK: Routes

    /// Follows link `id` of the links page and returns the host, once `event` came.
    static func follow(
        _ id: String, on server: Server, expecting event: AutomationEvent.Name, where predicate: (JSON) -> Bool
    ) async throws -> (HostProcess, JSON) {
        let host = try Self.host(server.url("/links?click=\(id)"))
        let found = try await host.waitFor(event, where: predicate)
        return (host, found)
    }

    @Test(arguments: [false, true])
    func linksAndRedirectsOutOfTheAppOpenInTheBrowserAndTheScreenStays(turbo: Bool) async throws {
        let server = try await Server(turbo: turbo)
        let other = "http://localhost:\(server.port)/posts"
        for id in ["other-origin", "away"] {
            let (host, opened) = try await Self.follow(id, on: server, expecting: .browserOpened) { _ in true }
            #expect(opened["url"]?.stringValue == other, "link \(id)")
            if turbo && id == "away" {
                // Turbo pushed a screen for the visit before its request was redirected away: it goes.
                try await host.waitFor(.screenPopped) { $0["depth"] == 1 }
            }
            // Give a wrong load time to show up: the app's web view never shows the other origin.
            try await Task.sleep(for: .milliseconds(500))
            #expect(
                !host.events(named: .pageCommitted).contains { $0["bridged"] == false })
            let depths = host.events.filter { AutomationEvent.Name.screenEvents.contains(nameOf: $0) }
            #expect(depths.last?["depth"] == 1, "link \(id): \(depths)")
            #expect(depths.last?["url"]?.stringValue?.hasPrefix(server.url("/links")) == true)
            try await Self.quit(host)
        }
        server.stop()
    }

    @Test func mailtoGoesToTheSystemAndTargetBlankIsAnOrdinaryVisit() async throws {
        let server = try await Server(turbo: true)
        var (host, opened) = try await Self.follow("mail", on: server, expecting: .systemOpened) { _ in true }
        #expect(opened["url"] == "mailto:team@example.com?subject=Hello")
        #expect(host.events(named: .browserOpened).isEmpty)
        try await Self.quit(host)

        // A page cannot open a window without the user: a real Enter (xdotool's XTEST) on the focused link.
        host = try Self.host(server.url("/links?focus=blank"))
        try await host.waitFor(.turboReady)
        try await host.press("Return", inWindowTitled: "Links")
        let pushed = try await host.waitFor(.screenPushed) { $0["depth"] == 2 }
        #expect(pushed["url"]?.stringValue == server.url("/posts"))
        #expect(try await Self.controls(host, settleOn: ["button.button-right"]) == ["button.button-right"])
        try await Self.quit(host)
        server.stop()
    }
}
