import Foundation
import StradaAutomation
import StradaCore
import TestSupport
import Testing

/// What the automation socket greets a client with: the start-up events it missed, then the state now, then
/// the live stream.
@Suite(.temporaryDirectories)
struct AutomationReplayTests {
    static let ready = AutomationEvent.hostReady(userAgent: "UA", components: ["form"], plugins: [])
    static let loaded = AutomationEvent.pathConfigurationLoaded(source: "/app/paths.json", rules: 3)
    static let refused = AutomationEvent.pathConfigurationError(source: "https://app/paths.json", error: "not JSON")

    @Test func startUpEventsAreKeptInOrderAndStatesOnlyTheirLatest() {
        var replay = AutomationReplay()
        let events: [AutomationEvent] = [
            .hostStartup(phases: ["ready": 80], mainClock: 1000, beforeMain: 12),
            Self.ready,
            .pluginError(path: "/p/libbad.so", reason: "missing-symbol", message: "no strada_plugin_init"),
            .turboReady(url: "http://app/", version: "8"),
            Self.loaded,
            .screenPushed(ScreenReport(url: "http://app/", title: "", depth: 1, action: "load")),
            .bridgeReady,
            .toast(message: "hello"),
            .webDriverStarted(session: "one"),
            .turboReady(url: "http://app/posts", version: "8"),
            Self.refused,
            .webDriverStarted(session: "two"),
            .hostComponents(components: ["form", "menu"], userAgent: "UA menu"),
        ]
        for event in events { replay.record(event) }
        #expect(
            replay.events == [
                events[0], events[1], events[2], Self.loaded, .turboReady(url: "http://app/posts", version: "8"),
                Self.refused, .webDriverStarted(session: "two"), events[12],
            ])
    }

    @Test func aReplayedLineIsTheEventsLineMarkedReplayed() throws {
        let screen = AutomationEvent.screenPushed(
            ScreenReport(url: "http://app/a", title: "A", depth: 2, action: "advance", stack: "modal"))
        let replayed = try #require(
            try JSONSerialization.jsonObject(with: Data(screen.replayedLine.utf8)) as? [String: Any])
        var original = try #require(
            try JSONSerialization.jsonObject(with: Data(screen.line.utf8)) as? [String: Any])
        #expect(original["replayed"] == nil)
        original["replayed"] = true
        #expect(NSDictionary(dictionary: replayed) == NSDictionary(dictionary: original))
    }

    /// A client connecting late gets the start-up events and the state, each once and marked replayed, then
    /// the live stream; a client connected from the start gets each event once, live.
    @Test @MainActor func eachClientIsGreetedThenStreamedWithNothingLostOrTwice() async throws {
        let path = try TemporaryDirectory.make("socket") + "/automation.sock"
        let socket = try AutomationSocket(path: path)
        defer { socket.close() }
        let screen = AutomationEvent.screenPushed(
            ScreenReport(url: "http://app/", title: "Home", depth: 1, action: "load"))
        var shown: [AutomationEvent] = []
        socket.currentState = { shown }
        socket.start { _ in }

        let early = try AutomationSocketClient(path: path)
        try await until { socket.clientCount == 1 }
        for event in [Self.ready, screen, Self.loaded, .toast(message: "before")] {
            socket.send(event, line: event.line)
        }
        shown = [screen]

        let late = try AutomationSocketClient(path: path)
        try await until { socket.clientCount == 2 }
        socket.send(.toast(message: "after"), line: AutomationEvent.toast(message: "after").line)

        try await Task.detached { _ = try late.read(until: .toast) }.value
        let lateEvents = late.events
        #expect(lateEvents.map(HostProcess.name(of:)) == [.hostReady, .pathConfigurationLoaded, .screenPushed, .toast])
        #expect(lateEvents.dropLast().allSatisfy { $0["replayed"] == true }, "the greeting is marked")
        #expect(lateEvents.last?["message"] == "after" && lateEvents.last?["replayed"] == nil)

        try await Task.detached { _ = try early.read(until: .toast) { $0["message"] == "after" } }.value
        let earlyEvents = early.events
        #expect(
            earlyEvents.map(HostProcess.name(of:)) == [
                .hostReady, .screenPushed, .pathConfigurationLoaded, .toast, .toast,
            ])
        #expect(earlyEvents.allSatisfy { $0["replayed"] == nil }, "nothing replayed to a client that saw it live")
    }

    /// Waits, letting the main queue run (where the socket accepts clients), until `condition` holds.
    @MainActor private func until(_ condition: @MainActor () -> Bool) async throws {
        for _ in 0..<500 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
        #expect(condition())
    }
}
