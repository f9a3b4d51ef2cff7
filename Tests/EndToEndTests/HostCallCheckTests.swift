import Foundation
import StradaCore
import TestSupport
import Testing

/// A plugin's host calls with bad JSON get the same answer in the host's process and in a worker: `reply_to_event`
/// with data that is not JSON (`[1,2,}`) or not an object (`[1,2]`), and `show` with a spec that is not JSON, each
/// return STRADA_ERR_INVALID_ARGUMENT (−1) with the same one line, and the plugin and the page go on.
@Suite(.serialized, .oneAtATime, .temporaryDirectories)
struct HostCallCheckTests {
    @Test(arguments: [[], ["--isolate"]])
    func badJSONIsRefusedTheSameWayInProcessAndInAWorker(_ arguments: [String]) async throws {
        let plugins = try PluginsDirectory.make(plugins: [])
        let source = try String(
            contentsOfFile: Repository.path("Tests/EndToEndTests/Fixtures/json-check-plugin.c"), encoding: .utf8)
        try CCompiler.sharedLibrary(
            CCompiler.fixturePluginSupport + source, at: (plugins as NSString).appendingPathComponent("libcheck.so"))
        let host = try HostProcess(
            page: Repository.path("Tests/EndToEndTests/Fixtures/hot.html"),
            arguments: ["--plugins", plugins] + arguments)
        try await host.waitFor(.controlAdded) { $0["control"]?["title"] == "check" }
        try host.send(["command": "activate", "control": "hot.go"])
        // The statuses of the three calls, as the plugin saw them.
        try await host.waitFor(.pageTitle) { $0["title"] == "reply 1 checked -1 -1 -1" }
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
        let log = host.standardError
        func count(_ line: String) -> Int { log.components(separatedBy: line).count - 1 }
        #expect(
            count("plugin dev.test.json-check replied to connect with data that is not JSON (invalid JSON at ") == 1)
        #expect(
            count("plugin dev.test.json-check replied to connect with data that is not a JSON object") == 1, "\(log)")
        #expect(count("plugin dev.test.json-check sent an invalid control bad: invalid JSON at ") == 1)
    }
}
