import Foundation
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

    static func events(_ host: HostProcess, named name: String, after mark: Int) -> [[String: Any]] {
        Array(host.events[mark...].filter { $0["event"] as? String == name })
    }

    /// The ids of the controls shown, once they are `expected` (or after 10 s).
    static func controls(_ host: HostProcess, settleOn expected: [String]) async throws -> [String] {
        let deadline = Date().addingTimeInterval(10)
        while true {
            let mark = host.events.count
            try host.send(["command": "controls"])
            let answer = try await host.waitFor("controls", after: mark)
            let shown = ((answer["controls"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String }.sorted()
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
        let root = try await host.waitFor("screen.pushed")
        #expect(root["depth"] as? Int == 1 && root["action"] as? String == "load")
        var error = try await host.waitFor("screen.error")
        #expect(error["statusCode"] as? Int == 0)
        #expect(error["title"] as? String == "Can't Reach the Server")
        #expect((error["message"] as? String)?.contains("127.0.0.1:\(server.port) did not answer") == true)

        // Retry while the server is still down: the same screen shows the error again.
        var mark = host.events.count
        try host.send(["command": "retry"])
        try await host.waitFor("command.ok", after: mark) { $0["command"] as? String == "retry" }
        error = try await host.waitFor("screen.error", after: mark)
        #expect(error["statusCode"] as? Int == 0)
        // Ctrl+R (a real key press) on an error screen retries too. The window is titled as the error screen.
        mark = host.events.count
        try await host.press("ctrl+r", inWindowTitled: "Can't Reach the Server")
        error = try await host.waitFor("screen.error", after: mark)
        #expect(error["statusCode"] as? Int == 0)

        // The server is back: F5 (a real key press, xdotool's XTEST) retries; the page loads into the same
        // screen and its components connect.
        try await server.start()
        mark = host.events.count
        try await host.press("F5", inWindowTitled: "Can't Reach the Server")
        try await host.waitFor("page.committed", after: mark) { $0["url"] as? String == server.url("/posts") }
        #expect(try await Self.controls(host, settleOn: ["button.button-right"]) == ["button.button-right"])
        #expect(Self.events(host, named: "screen.pushed", after: mark).isEmpty)

        // Nothing left to retry.
        mark = host.events.count
        try host.send(["command": "retry"])
        let refused = try await host.waitFor("command.error", after: mark)
        #expect((refused["error"] as? String)?.contains("nothing to retry") == true)
        try await Self.quit(host)
        server.stop()
    }

    @Test func aTurboVisitThatFailsShowsTheErrorOnItsOwnScreenAndRefreshRecoversIt() async throws {
        let server = try await Server(turbo: true)
        let host = try Self.host(server.url("/posts"))
        try await host.waitFor("turbo.ready")
        #expect(try await Self.controls(host, settleOn: ["button.button-right"]) == ["button.button-right"])

        // The server goes away; "New post" is a Turbo visit that cannot be fetched.
        server.stop()
        var mark = host.events.count
        try host.send(["command": "activate", "control": "button.button-right"])
        let pushed = try await host.waitFor("screen.pushed", after: mark)
        #expect(pushed["depth"] as? Int == 2)
        let error = try await host.waitFor("screen.error", after: mark)
        #expect(error["url"] as? String == server.url("/posts/new") && error["statusCode"] as? Int == 0)
        #expect(try await Self.controls(host, settleOn: []) == [])

        // Back on: refresh (Ctrl+R, F5, `reload`) on an error screen retries its visit, in the same screen.
        try await server.start()
        mark = host.events.count
        try host.send(["command": "reload"])
        try await host.waitFor("page.committed", after: mark) { $0["url"] as? String == server.url("/posts/new") }
        #expect(try await Self.controls(host, settleOn: ["form.submit"]) == ["form.submit"])
        #expect(Self.events(host, named: "screen.pushed", after: mark).isEmpty)

        // Back returns to the index with its button.
        mark = host.events.count
        try host.send(["command": "back"])
        let popped = try await host.waitFor("screen.popped", after: mark)
        #expect(popped["depth"] as? Int == 1)
        #expect(try await Self.controls(host, settleOn: ["button.button-right"]) == ["button.button-right"])
        try await Self.quit(host)
        server.stop()
    }

    @Test func anHTTPErrorShowsTheErrorScreenAndBackRemovesIt() async throws {
        let server = try await Server(turbo: false)
        let host = try Self.host(server.url("/links?click=missing"))
        let error = try await host.waitFor("screen.error")
        #expect(error["statusCode"] as? Int == 404 && error["title"] as? String == "Page Not Found")
        #expect(error["url"] as? String == server.url("/no-such-page"))
        let screens = host.events.filter { $0["event"] as? String == "screen.pushed" }
        #expect(screens.last?["depth"] as? Int == 2)
        // The window's title is the error's, not the previous page's.
        try await host.waitFor("window.title") { $0["title"] as? String == "Page Not Found" }

        let mark = host.events.count
        try host.send(["command": "back"])
        let popped = try await host.waitFor("screen.popped", after: mark)
        #expect(popped["depth"] as? Int == 1)
        #expect((popped["url"] as? String)?.hasPrefix(server.url("/links")) == true)
        try await host.waitFor("window.title", after: mark) { $0["title"] as? String == "Links · Strada demo" }
        try await Self.quit(host)
        server.stop()
    }

    // MARK: Routes

    /// Follows link `id` of the links page and returns the host, once `event` came.
    static func follow(
        _ id: String, on server: Server, expecting event: String, where predicate: ([String: Any]) -> Bool
    ) async throws -> (HostProcess, [String: Any]) {
        let host = try Self.host(server.url("/links?click=\(id)"))
        let found = try await host.waitFor(event, where: predicate)
        return (host, found)
    }

    @Test(arguments: [false, true])
    func linksAndRedirectsOutOfTheAppOpenInTheBrowserAndTheScreenStays(turbo: Bool) async throws {
        let server = try await Server(turbo: turbo)
        let other = "http://localhost:\(server.port)/posts"
        for id in ["other-origin", "away"] {
            let (host, opened) = try await Self.follow(id, on: server, expecting: "browser.opened") { _ in true }
            #expect(opened["url"] as? String == other, "link \(id)")
            if turbo && id == "away" {
                // Turbo pushed a screen for the visit before its request was redirected away: it goes.
                try await host.waitFor("screen.popped") { $0["depth"] as? Int == 1 }
            }
            // Give a wrong load time to show up: the app's web view never shows the other origin.
            try await Task.sleep(for: .milliseconds(500))
            #expect(
                !host.events.contains { $0["event"] as? String == "page.committed" && $0["bridged"] as? Bool == false })
            let depths = host.events.filter { ($0["event"] as? String)?.hasPrefix("screen.") == true }
            #expect(depths.last?["depth"] as? Int == 1, "link \(id): \(depths)")
            #expect((depths.last?["url"] as? String)?.hasPrefix(server.url("/links")) == true)
            try await Self.quit(host)
        }
        server.stop()
    }

    @Test func mailtoGoesToTheSystemAndTargetBlankIsAnOrdinaryVisit() async throws {
        let server = try await Server(turbo: true)
        var (host, opened) = try await Self.follow("mail", on: server, expecting: "system.opened") { _ in true }
        #expect(opened["url"] as? String == "mailto:team@example.com?subject=Hello")
        #expect(!host.events.contains { $0["event"] as? String == "browser.opened" })
        try await Self.quit(host)

        // A page cannot open a window without the user: a real Enter (xdotool's XTEST) on the focused link.
        host = try Self.host(server.url("/links?focus=blank"))
        try await host.waitFor("turbo.ready")
        try await host.press("Return", inWindowTitled: "Links")
        let pushed = try await host.waitFor("screen.pushed") { $0["depth"] as? Int == 2 }
        #expect(pushed["url"] as? String == server.url("/posts"))
        #expect(try await Self.controls(host, settleOn: ["button.button-right"]) == ["button.button-right"])
        try await Self.quit(host)
        server.stop()
    }
}
