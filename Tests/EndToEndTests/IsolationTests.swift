import Foundation
import StradaCore
import TestSupport
import Testing

/// `--isolate` under load and under faults: the host never waits on a worker, so it answers an automation
/// command within 1 s throughout; nothing is lost without a reason; no worker is left behind.
@Suite(.serialized, .oneAtATime, .temporaryDirectories)
struct IsolationTests {
    static func page(bursts: [Int], size: Int = 0) -> String {
        "file://" + Repository.path("Tests/EndToEndTests/Fixtures/isolation-burst.html")
            + "?bursts=\(bursts.map(String.init).joined(separator: ","))&size=\(size)"
    }

    /// Only what the tests read (`controls` and `host.*` always come): 20,000 `bridge.*` lines would slow the
    /// test's own parsing, not the host.
    static let events = ["--automation-events", "plugin,page.title"]

    /// The longest an automation command may wait: 1 s, times how overloaded the machine is (load average per
    /// core, when above 1; in-process hosts miss 1 s too on a machine running 5 jobs per core). A host that blocks
    /// on a worker never answers at all.
    static var answerLimit: Double {
        var load = [0.0, 0, 0]
        let cores = Double(ProcessInfo.processInfo.activeProcessorCount)
        return getloadavg(&load, 3) > 0 ? max(1, load[0] / cores) : 1
    }

    /// Asks for the controls every 200 ms until the page's title is `title`, and fails if an answer takes longer
    /// than ``answerLimit``; returns the slowest answer, in seconds.
    @discardableResult
    static func answersWithin1s(
        _ host: HostProcess, until title: String, timeout: Double = 120, limit: Double = answerLimit
    ) async throws -> Double {
        let deadline = Date().addingTimeInterval(timeout)
        var slowest = 0.0, asked = 0
        while Date() < deadline {
            if host.events(named: .pageTitle).contains(where: { $0["title"] == .string(title) }) {
                return slowest
            }
            let sent = Date()
            try host.send(["command": "controls"])
            asked += 1
            try await host.waitFor(.controls, occurrence: asked, timeout: 30)
            let took = Date().timeIntervalSince(sent)
            slowest = max(slowest, took)
            if took > limit {
                let state = titles(host).last ?? "(no title yet)"
                Issue.record("an automation command took \(Int(took * 1000)) ms to be answered, while \"\(state)\"")
            }
            try await Task.sleep(for: .milliseconds(200))
        }
        Issue.record("the page never got to \"\(title)\"; last titles: \(titles(host).suffix(3))")
        return slowest
    }

    static func titles(_ host: HostProcess) -> [String] {
        host.events(named: .pageTitle).compactMap { $0["title"]?.stringValue }
    }

    /// The floor is the same burst in process, in the same run. On 2026-11-26 (a VM ×1.6 slower than when this
    /// test was written, a debug build) the in-process host's slowest answer was 0.3–0.8 s and the isolated one's
    /// 0.6–1.24 s, before and after that day's changes alike: the limit is half as much again as the larger of the
    /// floor and ``answerLimit``. A host that waits on its worker never answers at all.
    @Test func aBurstOf1000Then20000MessagesLeavesTheHostAnswering() async throws {
        func start(_ flags: [String]) async throws -> HostProcess {
            let host = try HostProcess(
                page: Self.page(bursts: [1000, 20000]),
                arguments: ["--plugins", try PluginsDirectory.make(plugins: ["libStradaEchoPlugin.so"])] + flags
                    + Self.events)
            try await host.waitFor(.hostReady)
            return host
        }
        let inProcess = try await start([])
        let floor = try await Self.answersWithin1s(inProcess, until: "done 21000", limit: .infinity)
        try inProcess.send(["command": "quit"])
        _ = try await inProcess.waitForExit()
        let host = try await start(["--isolate"])
        let slowest = try await Self.answersWithin1s(
            host, until: "done 21000", limit: 1.5 * max(Self.answerLimit, floor))
        print(
            "isolate burst 1000+20000: slowest automation answer \(Int(slowest * 1000)) ms "
                + "(in process \(Int(floor * 1000)) ms)")
        #expect(host.events(named: .pluginCrashed).isEmpty, "\(host.events(named: .pluginCrashed))")
        try host.send(["command": "quit"])
        let status = try await host.waitForExit()
        #expect(status == 0, "exit status \(status); stderr: \(host.standardError.suffix(20000))")
    }

    @Test func a10MiBMessageGoesThereAndBackAndTheWorkerIsNotTakenForHung() async throws {
        let host = try HostProcess(
            page: Self.page(bursts: [1, 1], size: 10 << 20),
            arguments: ["--plugins", try PluginsDirectory.make(plugins: ["libStradaEchoPlugin.so"]), "--isolate"]
                + Self.events)
        try await host.waitFor(.hostReady)
        let slowest = try await Self.answersWithin1s(host, until: "done 2")
        print("isolate 2 × 10 MiB: slowest automation answer \(Int(slowest * 1000)) ms")
        #expect(host.events(named: .pluginCrashed).isEmpty, "\(host.events(named: .pluginCrashed))")
        #expect(!host.standardError.contains("stopped answering"))
        try host.send(["command": "quit"])
        let status = try await host.waitForExit()
        #expect(status == 0, "exit status \(status); stderr: \(host.standardError.suffix(20000))")
    }

    /// The README's `cp` over a plugin, here of a truncated build and then the good one again, in the middle of
    /// a burst: the worker runs a staged copy, so nothing crashes; the truncated build, shorter than its ELF
    /// headers say, is taken for one still being written and ignored (no line), and every message of the burst is
    /// answered.
    @Test func aTruncatedBuildCopiedOverThePluginDuringABurstLosesNothing() async throws {
        let plugins = try PluginsDirectory.make(plugins: ["libStradaEchoPlugin.so"])
        let plugin = (plugins as NSString).appendingPathComponent("libStradaEchoPlugin.so")
        let good = try Data(contentsOf: URL(fileURLWithPath: plugin))
        let host = try HostProcess(
            page: Self.page(bursts: [1000, 20000]),
            arguments: ["--plugins", plugins, "--isolate", "--watch"] + Self.events)
        try await host.waitFor(.pageTitle) { $0["title"] == "burst 1 sent" }
        // Overwritten in place (same inode, as `cp` does): a worker mapping this file would get SIGBUS.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: plugin))
        try handle.truncate(atOffset: 4096)
        try handle.close()
        try await Task.sleep(for: .seconds(1))
        #expect(host.events(named: .pluginReloadFailed).isEmpty, "a truncated build was taken for a finished one")
        try good.write(to: URL(fileURLWithPath: plugin + ".new"))
        try await ProcessRunner.check("cp", [plugin + ".new", plugin])
        try await Self.answersWithin1s(host, until: "done 21000")
        let crashes = host.events(named: .pluginCrashed)
        #expect(crashes.isEmpty, "\(crashes); stderr: \(host.standardError.suffix(2000))")
        try host.send(["command": "quit"])
        let status = try await host.waitForExit()
        #expect(status == 0, "exit status \(status); stderr: \(host.standardError.suffix(20000))")
    }

    /// `--isolate --watch`, as in process: a plugin file written again with the bytes its worker runs (a build
    /// that changed nothing, renamed in) is not reloaded; a real rebuild after it is.
    @Test func aFileWrittenAgainWithTheBytesItRunsIsNotReloaded() async throws {
        let (host, plugin) = try await HotReloadTests.watchingV1(["--isolate"])

        // The same bytes as a new file renamed over the plugin: a new inode and time, so the watcher sees it.
        try FileManager.default.copyItem(atPath: plugin, toPath: plugin + ".new")
        #expect(rename(plugin + ".new", plugin) == 0)
        let deadline = Date().addingTimeInterval(20)
        while !host.standardError.contains("was written with the bytes it runs"), Date() < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(host.standardError.contains("plugin \(plugin) was written with the bytes it runs"))
        #expect(host.events(named: .pluginReloaded).isEmpty)

        let mark = host.events.count
        try HotReloadTests.buildHotPlugin(version: "v2", at: plugin)
        try await host.waitFor(.pluginReloaded, after: mark, timeout: 20)
        try await host.waitFor(.controlAdded, after: mark) { $0["control"]?["title"] == "v2" }
        #expect(host.events(named: .pluginReloaded).count == 1)
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }

    static let hangingEntry = """
        #include "strada_plugin.h"
        STRADA_PLUGIN_ENTRY_V1_DEFINE {
            (void)host; (void)out_plugin;
            for (volatile unsigned long spin = 0;; spin++) {}
        }
        """

    static func pluginsWithAHangingEntry() throws -> String {
        let plugins = try PluginsDirectory.make()
        try CCompiler.sharedLibrary(hangingEntry, at: (plugins as NSString).appendingPathComponent("libhang.so"))
        return plugins
    }

    /// An entry point that never returns: the host becomes ready without that plugin (one line saying so) and the
    /// other plugin serves.
    @Test func anEntryPointThatHangsDoesNotKeepTheHostFromStarting() async throws {
        let host = try HostProcess(
            page: Repository.path("Examples/form-demo/index.html"),
            arguments: ["--plugins", try Self.pluginsWithAHangingEntry(), "--isolate"])
        let error = try await host.waitFor(.pluginError, timeout: 20)
        #expect(error["path"]?.stringValue?.hasSuffix("libhang.so") == true)
        #expect(error["reason"]?.stringValue?.hasPrefix("hung while loading") == true)
        let ready = try await host.waitFor(.hostReady, timeout: 20)
        #expect(ready["components"] == ["form"], "\(ready)")
        try await host.waitFor(.controlChanged) { $0["control"]?["enabled"] == true }
        try host.send(["command": "activate", "control": "form.submit"])
        try await host.waitFor(.pageTitle) { $0["title"] == "Submitted: Ada Lovelace" }
        #expect(host.pluginHelpers().count == 1, "the hung worker is still running")
        try host.send(["command": "quit"])
        let status = try await host.waitForExit()
        #expect(status == 0, "exit status \(status); stderr: \(host.standardError.suffix(20000))")
    }

    /// A host killed with SIGKILL while a plugin's entry point hangs in its worker (nothing in the worker can
    /// notice): the kernel ends the worker with its host.
    @Test func noWorkerOutlivesAHostKilledWhileAnEntryPointHangs() async throws {
        let host = try HostProcess(
            page: Repository.path("Examples/form-demo/index.html"),
            arguments: ["--plugins", try Self.pluginsWithAHangingEntry(), "--isolate"])
        // The hanging plugin's worker starts with the host; the form plugin, declared by its manifest, gets its
        // worker only once the page uses it (after the hanging one is given up).
        var workers: [Int32] = []
        let started = Date().addingTimeInterval(10)
        while workers.isEmpty && Date() < started {
            workers = LazyWorkerTests.workers(of: host, loading: "libhang.so")
            try await Task.sleep(for: .milliseconds(20))
        }
        try #require(workers.count == 1, "expected the hanging plugin's worker under the host, found \(workers)")
        kill(host.pid, SIGKILL)
        let left = try await HostProcess.survivors(of: workers, within: 5)
        #expect(left.isEmpty, "workers still running after the host was killed: \(left) of \(workers)")
    }
    /// Two plugins serving the same component name: the same warning line as in process, the first one serves.
    @Test func aComponentNameClaimedTwiceIsReportedAsInProcess() async throws {
        let plugins = try PluginsDirectory.make()
        try FileManager.default.copyItem(
            atPath: (plugins as NSString).appendingPathComponent("libStradaFormPlugin.so"),
            toPath: (plugins as NSString).appendingPathComponent("libStradaFormPluginCopy.so"))
        let host = try HostProcess(
            page: Repository.path("Examples/form-demo/index.html"), arguments: ["--plugins", plugins, "--isolate"])
        let ready = try await host.waitFor(.hostReady, timeout: 20)
        #expect(ready["components"] == ["form"], "\(ready)")
        #expect(host.standardError.contains(#"component "form" is provided by "#), "stderr: \(host.standardError)")
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }

    /// A plugin's actions are called in its worker, with the same results and errors as in process.
    @Test func actionsOfAnIsolatedPluginAreCalledInItsWorker() async throws {
        let host = try HostProcess(
            page: Repository.path("Tests/EndToEndTests/Fixtures/user-agent-stay.html"),
            arguments: ["--plugins", try PluginActionTests.pluginsWithActions(), "--isolate"])
        try await host.waitFor(.hostReady, timeout: 20)
        try host.send(["command": "call", "plugin": "dev.test.actions", "action": "greet"])
        let wrongArity = try await host.waitFor(.commandError)
        #expect(wrongArity["error"] == "action greet takes 1 argument(s), got 0")
        try host.sendLine(#"{"command":"call","plugin":"dev.test.actions","action":"add","args":[20,22]}"#)
        let ok = try await host.waitFor(.commandOK) { $0["command"] == "call" }
        #expect(ok["result"] == 42, "\(ok)")
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }

    /// A plugin disabled after crashing three times is announced again once a new build loads (`--watch`).
    @Test func aDisabledPluginComesBackWithANewBuild() async throws {
        let plugins = try FaultyPluginTests.plugins()
        let host = try HostProcess(
            page: FaultyPluginTests.page("crash", times: 3),
            arguments: ["--plugins", plugins, "--isolate", "--watch"])
        try await host.waitFor(.pluginDisabled, timeout: 40)
        try await host.waitFor(.hostComponents) { $0["components"]?.arrayValue?.contains("faulty") == false }
        let mark = host.events.count
        let source = try String(
            contentsOfFile: Repository.path("Tests/EndToEndTests/Fixtures/faulty-plugin.c"), encoding: .utf8)
        let build = try TemporaryDirectory.make("build")
        let file = (build as NSString).appendingPathComponent("libfaulty.so")
        try CCompiler.sharedLibrary(source + "\nconst char *strada_test_build = \"2\";\n", at: file)
        // Moved into place in one step, as a deploy should (docs/writing-plugins.md).
        try #require(rename(file, (plugins as NSString).appendingPathComponent("libfaulty.so")) == 0)
        try await host.waitFor(.pluginReloaded, after: mark, timeout: 20)
        try await host.waitFor(.hostComponents, after: mark) {
            $0["components"]?.arrayValue?.contains("faulty") == true
        }
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }
}
