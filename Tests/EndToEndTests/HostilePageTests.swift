import Foundation
import StradaAutomation
import StradaCore
import TestSupport
import Testing

/// Pages that try to reach native code they should not, or throw garbage at the bridge.
@Suite(.serialized, .oneAtATime, .temporaryDirectories)
struct HostilePageTests {
    @Test func crossOriginIframesCannotReachTheBridge() async throws {
        let host = try HostProcess(
            page: Repository.path("Tests/EndToEndTests/Fixtures/hostile-iframe.html"),
            arguments: ["--plugins", try PluginsDirectory.make()])
        let result = try await host.waitFor(.pageTitle) { $0["title"]?.stringValue?.hasPrefix("RESULT") == true }
        #expect(result["title"] == "RESULT page-channel=hidden channel=blocked adapter=blocked relay=blocked")
        try await Task.sleep(for: .milliseconds(300))
        #expect(!host.lines.contains { $0.contains("evil") })
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }

    @Test func pagesFromOtherOriginsGetNoBridgeEvenAfterNavigatingThere() async throws {
        let server = try await LocalHTTPServer.serving(directory: Repository.path("Tests/EndToEndTests/Fixtures"))
        defer { server.stop() }
        let allowed = "http://127.0.0.1:\(server.port)/origin-probe.html"
        let host = try HostProcess(page: allowed, arguments: ["--plugins", try PluginsDirectory.make()])
        try await host.waitFor(.pageTitle) { $0["title"] == .string("bridge=object host=127.0.0.1:\(server.port)") }

        try host.send(["command": "navigate", "url": "http://localhost:\(server.port)/origin-probe.html"])
        let committed = try await host.waitFor(.pageCommitted) { $0["url"]?.stringValue?.contains("localhost") == true }
        #expect(committed["bridged"] == false)
        try await host.waitFor(.pageTitle) { $0["title"] == .string("bridge=undefined host=localhost:\(server.port)") }

        try host.send(["command": "navigate", "url": allowed])
        try await host.waitFor(.pageCommitted) { $0["url"] == .string(allowed) && $0["bridged"] == true }
        try await host.waitFor(.bridgeRegistered)
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }

    /// In process and with the form plugin in a worker (`--isolate`): the same page, the same outcome.
    @Test(arguments: [[], ["--isolate"]])
    func malformedFloodsAreRejectedWithReasonsAndTheHostKeepsServing(isolation: [String]) async throws {
        let host = try HostProcess(
            page: Repository.path("Tests/EndToEndTests/Fixtures/hostile-messages.html"),
            arguments: ["--plugins", try PluginsDirectory.make(), "--automation-events", "page,control"] + isolation)
        let added = try await host.waitFor(.controlAdded, timeout: 60)
        #expect(added["control"]?["title"] == "Still here")
        let log = host.standardError
        for reason in [
            "invalid literal", "message has no string \"id\"", "has \"data\" that is not an object",
            "limit is 16777216",
        ] {
            #expect(log.contains(reason), "no rejection logged for: \(reason)")
        }
        #expect(log.components(separatedBy: "rejected a malformed message").count - 1 <= 20)
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }
}

/// A message must be an object: what a page hands the adapter as an array or a bare string is rejected with
/// one line each, delivers nothing and never re-runs the handshake; the page's next real message still works.
@Suite(.serialized, .oneAtATime, .temporaryDirectories)
struct ArrayMessageTests {
    @Test func messagesThatAreArraysOrTheWordReadyAreRejectedAndStartNothing() async throws {
        let host = try HostProcess(
            page: Repository.path("Tests/EndToEndTests/Fixtures/array-messages.html"),
            arguments: ["--plugins", try PluginsDirectory.make(), "--automation-events", "page,control,bridge"])
        let added = try await host.waitFor(.controlAdded, timeout: 60)
        #expect(added["control"]?["title"] == "From an object")
        let rejected = host.events.filter { HostProcess.name(of: $0) == .bridgeRejected }
        #expect(
            rejected.compactMap { $0["raw"]?.stringValue?.prefix(9) } == [
                #"[{"id":"1"#, #"["ready"]"#, "[]", #""ready""#,
            ])
        #expect(rejected.allSatisfy { $0["reason"] == "message is not a JSON object" })
        // The log says so too (at most three lines of one kind a second; the rest are counted in one line).
        #expect(host.standardError.contains("rejected a malformed message: message is not a JSON object"))
        #expect(host.events.filter { HostProcess.name(of: $0) == .bridgeReady }.count == 1)
        #expect(!host.events.contains { $0["control"]?["title"] == "From an array" })
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }
}
