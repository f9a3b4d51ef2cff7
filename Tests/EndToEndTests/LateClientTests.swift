import Foundation
import StradaAutomation
import StradaCore
import TestSupport
import Testing

/// The automation socket greets every client with what it missed — the start-up events in their order, then
/// the screens shown as `screen.pushed` events marked `"replayed": true` — then the live stream: the real host,
/// a Turbo app with a path configuration (`Fixtures/navigation`), screens pushed on the main stack and a modal.
/// The host's stdout (`--automation`) is the reference stream.
@Suite(.serialized, .oneAtATime, .temporaryDirectories)
struct LateClientTests {
    /// The start-up events a late client is greeted with in this run (no plugin fails, no WebDriver).
    static let startUp: Set<AutomationEvent.Name> = [.hostStartup, .hostReady, .pathConfigurationLoaded, .turboReady]

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
        try await host.waitFor(.turboReady)

        // Two screens on the main stack, and a modal over them.
        var mark = host.events.count
        try host.send(["command": "visit", "url": server.url + "page/two?right=/modal/page/three"])
        try await host.waitFor(.screenPushed, after: mark) { $0["depth"] == 2 }
        try await host.waitFor(.controlAdded, after: mark)
        // Its button is a link to a page the path configuration presents in a modal.
        mark = host.events.count
        try host.send(["command": "activate", "control": "button.button-right"])
        try await host.waitFor(.screenPushed, after: mark) { $0["stack"] == "modal" }
        try await host.waitFor(.pageFinished, after: mark) { $0["url"]?.stringValue?.contains("three") == true }
        // The modal's Turbo reports itself after the page's next repaint, which can come after page.finished.
        try await host.waitFor(.turboReady, after: mark) { $0["url"]?.stringValue?.contains("three") == true }

        // A client connecting now: everything before the answer to its first command is its greeting.
        let late = try AutomationSocketClient(path: socket)
        try late.send(["command": "controls"])
        try await Task.detached { _ = try late.read(until: .controls) }.value
        let greeting = late.events.prefix { HostProcess.name(of: $0) != .controls }
        #expect(greeting.allSatisfy { $0["replayed"] == true }, "every greeting line is marked")

        // The start-up events, each once, in stdout's order; of turbo.ready, only the latest.
        let reported = host.events
        let startUp = greeting.filter { HostProcess.name(of: $0).map(Self.startUp.contains) == true }
        let latestTurbo = reported.lastIndex { HostProcess.name(of: $0) == .turboReady }
        let expected = reported.enumerated().filter { index, event in
            guard let name = HostProcess.name(of: event) else { return false }
            return Self.startUp.contains(name) && (name != .turboReady || index == latestTurbo)
        }.map(\.element)
        #expect(startUp.map(Self.key) == expected.map(Self.key))
        #expect(
            Set(startUp.compactMap(HostProcess.name(of:))) == [
                .hostStartup, .hostReady, .pathConfigurationLoaded, .turboReady,
            ])

        // Then the screens shown: the main stack's, bottom first, then the modal's, as first reported.
        let screens = greeting.drop { HostProcess.name(of: $0) != .screenPushed }
        #expect(screens.allSatisfy { HostProcess.name(of: $0) == .screenPushed }, "the screens come last")
        #expect(
            screens.map(Self.screen)
                == [
                    "main 1 /page/one?right=/page/two load", "main 2 /page/two?right=/modal/page/three advance",
                    "modal 1 /modal/page/three load",
                ].map { $0.replacingOccurrences(of: " /", with: " " + server.url) })
        for screen in screens {
            let first = reported.first {
                [.screenPushed, .screenReplaced].contains(HostProcess.name(of: $0))
                    && Self.screen($0) == Self.screen(screen)
            }
            #expect(first != nil, "\(Self.screen(screen)) is a screen as the host reported it")
        }

        // Then the stream: a screen popped reaches both clients, once.
        mark = host.events.count
        try host.send(["command": "back"])
        try await host.waitFor(.modalDismissed, after: mark)
        try await Task.detached { _ = try late.read(until: .modalDismissed) }.value
        try await Task.detached { _ = try early.read(until: .modalDismissed) }.value
        #expect(
            late.events.filter { HostProcess.name(of: $0) == .modalDismissed }.count == 1
                && late.events.last?["replayed"] == nil)

        // The early client saw the host's whole stream, each event once (what came before it was accepted, in
        // its greeting).
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
        try await Task.detached { while try early.nextEvent() != nil {} }.value
        let watched = Self.startUp.union([.screenPushed, .screenPopped, .modalDismissed])
        func isWatched(_ event: JSON) -> Bool { HostProcess.name(of: event).map(watched.contains) == true }
        let seenEarly = early.events.filter(isWatched)
        #expect(seenEarly.map(Self.key) == host.events.filter(isWatched).map(Self.key))
    }

    /// An event as a comparable line: its fields without `replayed`.
    static func key(_ event: JSON) -> String {
        guard var fields = event.objectValue else { return "?" }
        fields["replayed"] = nil
        return JSON.object(fields).serialized(sortedKeys: true)
    }

    /// A screen event as "stack depth url action".
    static func screen(_ event: JSON) -> String {
        [event["stack"], event["depth"], event["url"], event["action"]].map {
            $0.map { $0.stringValue ?? "\($0)" } ?? "?"
        }
        .joined(separator: " ")
    }
}
