import Foundation
import TestSupport
import Testing

/// The automation socket greets every client with what it missed — the start-up events in their order, then
/// the screens shown as `screen.pushed` events marked `"replayed": true` — then the live stream: the real host,
/// a Turbo app with a path configuration (`Fixtures/navigation`), screens pushed on the main stack and a modal.
/// The host's stdout (`--automation`) is the reference stream.
@Suite(.serialized, .oneAtATime, .temporaryDirectories)
struct LateClientTests {
    /// The start-up events a late client is greeted with in this run (no plugin fails, no WebDriver).
    static let startUp: Set<String> = ["host.startup", "host.ready", "path-configuration.loaded", "turbo.ready"]

    @Test func aClientConnectingLateGetsTheStartUpEventsThenTheScreensShownThenTheStream() async throws {
        let fixture = Repository.path("Tests/EndToEndTests/Fixtures/navigation")
        let server = try await LocalHTTPServer.running(
            script: fixture + "/server.py", arguments: ["--port", "0", "--turbo", try await RealTurbo.path()])
        defer { server.stop() }
        let socket = try TemporaryDirectory.make("socket") + "/automation.sock"
        let host = try HostProcess(
            page: server.url + "page/one?right=/page/two",
            arguments: [
                "--plugins", try PluginsDirectory.make(plugins: ["libStradaButtonPlugin.so"]),
                "--path-configuration", fixture + "/path-configuration.json", "--automation-socket", socket,
            ])
        // A client there from the start (it connects as soon as the socket exists, before the host runs).
        let early = try AutomationSocketClient(path: socket)
        try await host.waitFor("turbo.ready")

        // Two screens on the main stack, and a modal over them.
        var mark = host.events.count
        try host.send(["command": "visit", "url": server.url + "page/two?right=/modal/page/three"])
        try await host.waitFor("screen.pushed", after: mark) { $0["depth"] as? Int == 2 }
        try await host.waitFor("control.added", after: mark)
        // Its button is a link to a page the path configuration presents in a modal.
        mark = host.events.count
        try host.send(["command": "activate", "control": "button.button-right"])
        try await host.waitFor("screen.pushed", after: mark) { $0["stack"] as? String == "modal" }
        try await host.waitFor("page.finished", after: mark) { ($0["url"] as? String)?.contains("three") == true }
        // The modal's Turbo reports itself after the page's next repaint, which can come after page.finished.
        try await host.waitFor("turbo.ready", after: mark) { ($0["url"] as? String)?.contains("three") == true }

        // A client connecting now: everything before the answer to its first command is its greeting.
        let late = try AutomationSocketClient(path: socket)
        try late.send(["command": "controls"])
        try await Task.detached { _ = try late.read(until: "controls") }.value
        let greeting = late.events.prefix { $0["event"] as? String != "controls" }
        #expect(greeting.allSatisfy { $0["replayed"] as? Bool == true }, "every greeting line is marked")

        // The start-up events, each once, in stdout's order; of turbo.ready, only the latest.
        let reported = host.events
        let startUp = greeting.filter { Self.startUp.contains($0["event"] as? String ?? "") }
        let latestTurbo = reported.lastIndex { $0["event"] as? String == "turbo.ready" }
        let expected = reported.enumerated().filter { index, event in
            let name = event["event"] as? String ?? ""
            return Self.startUp.contains(name) && (name != "turbo.ready" || index == latestTurbo)
        }.map(\.element)
        #expect(startUp.map(Self.key) == expected.map(Self.key))
        #expect(
            Set(startUp.compactMap { $0["event"] as? String })
                == ["host.startup", "host.ready", "path-configuration.loaded", "turbo.ready"])

        // Then the screens shown: the main stack's, bottom first, then the modal's, as first reported.
        let screens = greeting.drop { $0["event"] as? String != "screen.pushed" }
        #expect(screens.allSatisfy { $0["event"] as? String == "screen.pushed" }, "the screens come last")
        #expect(
            screens.map(Self.screen)
                == [
                    "main 1 /page/one?right=/page/two load", "main 2 /page/two?right=/modal/page/three advance",
                    "modal 1 /modal/page/three load",
                ].map { $0.replacingOccurrences(of: " /", with: " " + server.url) })
        for screen in screens {
            let first = reported.first {
                ["screen.pushed", "screen.replaced"].contains($0["event"] as? String)
                    && Self.screen($0) == Self.screen(screen)
            }
            #expect(first != nil, "\(Self.screen(screen)) is a screen as the host reported it")
        }

        // Then the stream: a screen popped reaches both clients, once.
        mark = host.events.count
        try host.send(["command": "back"])
        try await host.waitFor("modal.dismissed", after: mark)
        try await Task.detached { _ = try late.read(until: "modal.dismissed") }.value
        try await Task.detached { _ = try early.read(until: "modal.dismissed") }.value
        #expect(late.events(named: "modal.dismissed").count == 1 && late.events.last?["replayed"] == nil)

        // The early client saw the host's whole stream, each event once (what came before it was accepted, in
        // its greeting).
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
        try await Task.detached { while try early.nextEvent() != nil {} }.value
        let watched: Set<String> = Self.startUp.union(["screen.pushed", "screen.popped", "modal.dismissed"])
        let seenEarly = early.events.filter { watched.contains($0["event"] as? String ?? "") }
        #expect(
            seenEarly.map(Self.key)
                == host.events.filter { watched.contains($0["event"] as? String ?? "") }
                .map(Self.key))
    }

    /// An event as a comparable line: its fields without `replayed`.
    static func key(_ event: [String: Any]) -> String {
        var fields = event
        fields["replayed"] = nil
        let data = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])
        return data.map { String(decoding: $0, as: UTF8.self) } ?? "?"
    }

    /// A screen event as "stack depth url action".
    static func screen(_ event: [String: Any]) -> String {
        [event["stack"], event["depth"], event["url"], event["action"]].map { "\($0 ?? "?")" }.joined(separator: " ")
    }
}
