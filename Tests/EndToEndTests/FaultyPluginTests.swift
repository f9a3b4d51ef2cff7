import Foundation
import StradaAutomation
import StradaCore
import TestSupport
import Testing

/// Plugins that crash, abort, hang or leak inside `receive`.
@Suite(.serialized, .oneAtATime, .temporaryDirectories)
struct FaultyPluginTests {
    static func plugins() throws -> String {
        let plugins = try PluginsDirectory.make()
        let source = try String(
            contentsOfFile: Repository.path("Tests/EndToEndTests/Fixtures/faulty-plugin.c"), encoding: .utf8)
        try CCompiler.sharedLibrary(source, at: (plugins as NSString).appendingPathComponent("libfaulty.so"))
        return plugins
    }

    static func page(_ action: String, times: Int = 1) -> String {
        "file://" + Repository.path("Tests/EndToEndTests/Fixtures/faulty.html") + "?do=\(action)&times=\(times)"
    }

    @Test(arguments: [
        ("crash", "crashed (signal 11)"), ("abort", "crashed (signal 6)"), ("leak", "crashed (signal 6)"),
    ])
    func underIsolationAFailingPluginIsReportedRestartedAndServesAgain(action: String, reason: String) async throws {
        let host = try HostProcess(page: Self.page(action), arguments: ["--plugins", try Self.plugins(), "--isolate"])
        try await host.waitFor(.controlAdded) {
            $0["control"]?["id"] == "faulty.alive"
        }
        let crashed = try await host.waitFor(.pluginCrashed)
        #expect(crashed["id"] == "dev.test.faulty")
        #expect(crashed["reason"]?.stringValue?.hasPrefix(reason) == true)
        try await host.waitFor(.pluginRestarted)
        // The new worker got the page's connect again (not the fatal message): the button is back and answers.
        try await host.waitFor(.controlAdded, timeout: 10) { _ in
            host.events(named: .controlAdded).count >= 2
        }
        try host.send(["command": "activate", "control": "faulty.alive"])
        try await host.waitFor(.pageTitle) { $0["title"] == "alive 1" }
        // The form plugin, in its own worker, was never affected.
        let crashes = host.events(named: .pluginCrashed)
        #expect(crashes.allSatisfy { $0["id"] == "dev.test.faulty" }, "\(crashes)")
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }

    @Test func underIsolationTheFormRoundTripWorksAsInProcess() async throws {
        let host = try HostProcess(
            page: Repository.path("Examples/form-demo/index.html"),
            arguments: ["--plugins", try PluginsDirectory.make(), "--isolate"])
        let ready = try await host.waitFor(.hostReady)
        #expect(ready["plugins"]?.arrayValue?.first?["isolated"] == true)
        try await host.waitFor(.controlChanged) { $0["control"]?["enabled"] == true }
        try host.send(["command": "activate", "control": "form.submit"])
        try await host.waitFor(.pageTitle) { $0["title"] == "Submitted: Ada Lovelace" }
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }

    /// A host that dies without closing anything (SIGKILL) leaves no worker behind, also after a restart
    /// (a worker started later may hold the others' input pipes open, so they never see it end).
    @Test func underIsolationNoWorkerOutlivesAKilledHost() async throws {
        let host = try HostProcess(page: Self.page("crash"), arguments: ["--plugins", try Self.plugins(), "--isolate"])
        try await host.waitFor(.pluginRestarted)
        let workers = host.pluginHelpers()
        try #require(!workers.isEmpty, "no plugin worker found under the host")
        kill(host.pid, SIGKILL)
        let left = try await HostProcess.survivors(of: workers, within: 15)
        #expect(left.isEmpty, "workers still running after the host was killed: \(left) of \(workers)")
    }

    @Test func underIsolationAHangingPluginIsKilledAndRestarted() async throws {
        let host = try HostProcess(page: Self.page("hang"), arguments: ["--plugins", try Self.plugins(), "--isolate"])
        let crashed = try await host.waitFor(.pluginCrashed, timeout: 20)
        #expect(crashed["reason"]?.stringValue?.contains("signal 9") == true)
        try await host.waitFor(.pluginRestarted)
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }

    @Test func aPluginThatKeepsCrashingIsDisabledAndTheHostKeepsRunning() async throws {
        let host = try HostProcess(
            page: Self.page("crash", times: 3), arguments: ["--plugins", try Self.plugins(), "--isolate"])
        let disabled = try await host.waitFor(.pluginDisabled, timeout: 30)
        #expect(disabled["id"] == "dev.test.faulty")
        #expect(host.events(named: .pluginCrashed).count == 3)
        try host.send(["command": "controls"])
        let controls = try await host.waitFor(.controls)
        #expect(controls["controls"]?.arrayValue?.contains { $0["id"] == "faulty.alive" } == false)
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }

    @Test func withoutIsolationACrashingPluginTakesTheHostDown() async throws {
        // Documented behaviour: in-process plugins share the host's fate. Use --isolate for untrusted code.
        let host = try HostProcess(
            page: Self.page("crash"), arguments: ["--plugins", try Self.plugins()],
            environment: ["SWIFT_BACKTRACE": "enable=no"])
        try await host.waitFor(.controlAdded)
        let status = try await host.waitForExit(timeout: 20)
        #expect(status == SIGSEGV)
    }
}
