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
