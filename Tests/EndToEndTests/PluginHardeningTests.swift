import Foundation
import StradaCore
import TestSupport
import Testing

/// What outside testers broke (issue 11): bare file names, plugins that crash or refuse in their entry
/// point, disabled isolated plugins, `--isolate --watch`, and what `--watch` leaves behind.
@Suite(.serialized, .oneAtATime, .temporaryDirectories)
struct PluginHardeningTests {
    /// A plugin whose entry point dereferences NULL.
    static let crashingEntry = """
        #include "strada_plugin.h"
        STRADA_PLUGIN_ENTRY_V1_DEFINE { (void)host; (void)out_plugin; *(volatile int *)0 = 1; return STRADA_OK; }
        """

    /// A plugin whose entry point logs why through the host, then refuses.
    static let refusingEntry = """
        #include <string.h>
        #include "strada_plugin.h"
        STRADA_PLUGIN_ENTRY_V1_DEFINE {
            (void)out_plugin;
            const char *why = "no GPU found; this plugin needs one";
            host->log(host, STRADA_LOG_ERROR, (strada_string){why, strlen(why)});
            return STRADA_ERR_FAILED;
        }
        """

    static func library(_ source: String, named name: String, in folder: String) throws -> String {
        let path = (folder as NSString).appendingPathComponent(name)
        try CCompiler.sharedLibrary(source, at: path)
        return path
    }

    /// Runs `strada-host arguments` with `folder` as the current folder.
    static func host(in folder: String, _ arguments: [String]) throws -> ProcessRunner.Output {
        let quoted = ([BuiltProducts.path("strada-host")] + arguments).map { "'\($0)'" }.joined(separator: " ")
        return try ProcessRunner.runBlocking(
            "/bin/sh", ["-c", "cd '\(folder)' && exec \(quoted)"], environment: ["SWIFT_BACKTRACE": "enable=no"])
    }

    // MARK: Item 1

    @Test func inspectInstallAndCallTakeABareFileNameInTheCurrentFolder() throws {
        let plugins = try PluginActionTests.pluginsWithActions()
        try FileManager.default.copyItem(
            atPath: BuiltProducts.path("libStradaFormPlugin.so"),
            toPath: (plugins as NSString).appendingPathComponent("libStradaFormPlugin.so"))
        let inspect = try Self.host(in: plugins, ["plugin", "inspect", "libStradaFormPlugin.so"])
        #expect(inspect.status == 0, "\(inspect.stdout)\(inspect.stderr)")
        #expect(inspect.stdout.contains("id:         dev.strada.form"))
        let target = try TemporaryDirectory.make("installed")
        let install = try Self.host(in: plugins, ["plugin", "install", "libStradaFormPlugin.so", "--plugins", target])
        #expect(install.status == 0, "\(install.stdout)\(install.stderr)")
        #expect(
            FileManager.default.fileExists(
                atPath: (target as NSString).appendingPathComponent("libStradaFormPlugin.so")))
        let call = try Self.host(in: plugins, ["plugin", "call", "libactions.so", "add", "2", "40"])
        #expect(call.status == 0 && call.stdout == "42\n", "\(call.stdout)\(call.stderr)")
    }

    // MARK: Item 2

    @Test func inspectReportsAPluginThatCrashesWhileLoadingInOneLine() throws {
        let folder = try TemporaryDirectory.make("plugins")
        let file = try Self.library(Self.crashingEntry, named: "libcrash.so", in: folder)
        let output = try ProcessRunner.runBlocking(BuiltProducts.path("strada-host"), ["plugin", "inspect", file])
        #expect(output.exited && output.status == 1)
        #expect(output.stdout == "plugin \(file): crashed while loading (signal 11) — fix the plugin or remove it\n")
        #expect(output.stderr.isEmpty, "no backtrace: \(output.stderr)")
    }

    @Test(arguments: [[], ["--watch"]])
    func aPluginThatCrashesWhileLoadingIsRefusedAndTheHostGoesOn(extra: [String]) async throws {
        let plugins = try PluginsDirectory.make()
        let crash = try Self.library(Self.crashingEntry, named: "libcrash.so", in: plugins)
        let host = try HostProcess(
            page: Repository.path("Examples/form-demo/index.html"), arguments: ["--plugins", plugins] + extra)
        let ready = try await host.waitFor(.hostReady)
        #expect(ready["components"] == ["form"], "\(ready)")
        let error = try await host.waitFor(.pluginError)
        #expect(error["path"]?.stringValue == crash, "\(error)")
        #expect(
            error["message"]?.stringValue
                == "plugin \(crash): crashed while loading (signal 11) — fix the plugin or remove it")
        // Item 7: every plugin says whether it is isolated.
        #expect(ready["plugins"]?.arrayValue?.first?["isolated"] == false, "\(ready)")
        try await host.waitFor(.controlChanged) { $0["control"]?["enabled"] == true }
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
        #expect(
            host.standardError.components(separatedBy: "crashed while loading").count == 2,
            "one line: \(host.standardError)")
    }

    // MARK: Item 3

    @Test func underIsolationAPluginThatCrashesWhileLoadingIsReportedWithItsSignal() async throws {
        let plugins = try PluginsDirectory.make()
        let crash = try Self.library(Self.crashingEntry, named: "libcrash.so", in: plugins)
        let host = try HostProcess(
            page: Repository.path("Examples/form-demo/index.html"), arguments: ["--plugins", plugins, "--isolate"])
        let error = try await host.waitFor(.pluginError)
        #expect(error["path"]?.stringValue == crash, "\(error)")
        #expect(error["reason"] == "crashed while loading (signal 11)")
        try await host.waitFor(.hostReady)
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }

    // MARK: Item 4

    @Test func listAndInstallShowTheLogLineOfAnEntryPointThatRefuses() throws {
        let folder = try TemporaryDirectory.make("plugins")
        let file = try Self.library(Self.refusingEntry, named: "librefuses.so", in: folder)
        let list = try ProcessRunner.runBlocking(
            BuiltProducts.path("strada-host"), ["plugin", "list", "--plugins", folder])
        #expect(
            list.stdout.contains("its entry point refused to load (status -5) — see the plugin's own log line above"))
        #expect(list.stderr.contains("no GPU found; this plugin needs one"), "stderr: \(list.stderr)")
        let target = try TemporaryDirectory.make("installed")
        let install = try ProcessRunner.runBlocking(
            BuiltProducts.path("strada-host"), ["plugin", "install", file, "--plugins", target])
        #expect(install.status == 1)
        let logged = install.stderr.range(of: "no GPU found")
        let refused = install.stderr.range(of: "nothing installed")
        #expect(
            logged != nil && refused != nil && logged!.lowerBound < refused!.lowerBound, "stderr: \(install.stderr)")
    }

    // MARK: Item 6

    @Test func aDisabledPluginIsNoLongerAnnouncedAndMessagesToItAreDroppedWithAReason() async throws {
        let host = try HostProcess(
            page: FaultyPluginTests.page("crash", times: 3),
            arguments: ["--plugins", try FaultyPluginTests.plugins(), "--isolate"])
        try await host.waitFor(.pluginDisabled, timeout: 30)
        let components = try await host.waitFor(.hostComponents)
        #expect(components["components"] == ["form"], "\(components)")
        #expect(components["userAgent"]?.stringValue?.contains("bridge-components: [form]") == true)
        // A page that sends to "faulty" anyway.
        try host.send([
            "command": "navigate",
            "url": "file://" + Repository.path("Tests/EndToEndTests/Fixtures/send-to-faulty.html"),
        ])
        let dropped = try await host.waitFor(.bridgeDropped) { $0["message"]?["component"] == "faulty" }
        let reason = dropped["reason"]?.stringValue ?? ""
        #expect(reason.contains("disabled") || reason.contains("no component named \"faulty\""), "\(reason)")
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }

    // MARK: Item 7

    @Test func watchRemovesItsStagingFolderWhenTheHostExits() async throws {
        let host = try HostProcess(
            page: Repository.path("Examples/form-demo/index.html"),
            arguments: ["--plugins", try PluginsDirectory.make(), "--watch"])
        try await host.waitFor(.hostReady)
        let staging = (NSTemporaryDirectory() as NSString).appendingPathComponent("strada-staging-\(host.pid)")
        #expect(FileManager.default.fileExists(atPath: staging))
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
        #expect(!FileManager.default.fileExists(atPath: staging))
    }

    @Test func aBrokenRebuildIsReportedOnceAndAnOverwrittenInstalledPluginSaysToInstallAgain() async throws {
        let build = try TemporaryDirectory.make("build")
        let v1 = (build as NSString).appendingPathComponent("libhot.so")
        try HotReloadTests.buildHotPlugin(version: "v1", at: v1)
        let plugins = try TemporaryDirectory.make("installed")
        let install = try ProcessRunner.runBlocking(
            BuiltProducts.path("strada-host"), ["plugin", "install", v1, "--plugins", plugins])
        #expect(install.status == 0, "\(install.stderr)")
        let host = try HostProcess(page: HotReloadTests.page, arguments: ["--plugins", plugins, "--watch"])
        try await host.waitFor(.controlAdded) { $0["control"]?["title"] == "v1" }
        // `cp` of a new build over the installed one: its manifest's checksum no longer matches.
        try HotReloadTests.buildHotPlugin(version: "v2", at: (build as NSString).appendingPathComponent("v2.so"))
        try Data(contentsOf: URL(fileURLWithPath: (build as NSString).appendingPathComponent("v2.so")))
            .write(to: URL(fileURLWithPath: (plugins as NSString).appendingPathComponent("libhot.so")))
        let failed = try await host.waitFor(.pluginReloadFailed)
        let error = failed["error"]?.stringValue ?? ""
        #expect(error.contains("checksum mismatch") && error.contains("strada-host plugin install"), "\(error)")
        #expect(!error.contains("fix the build"))
        #expect(error.components(separatedBy: "keeps serving").count == 2, "said once: \(error)")
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
        #expect(host.standardError.components(separatedBy: "keeps serving").count == 2, "\(host.standardError)")
    }

    @Test func underIsolationARebuiltPluginRestartsItsWorkerWithTheNewBuild() async throws {
        let (host, plugin) = try await HotReloadTests.watchingV1(["--isolate"])
        try host.send(["command": "activate", "control": "hot.go"])
        try await host.waitFor(.pageTitle) { $0["title"] == "reply 1 v1" }

        try HotReloadTests.buildHotPlugin(version: "v2", at: plugin)
        let reloaded = try await host.waitFor(.pluginReloaded)
        #expect(reloaded["id"] == "dev.test.hot")
        #expect(reloaded["reinstantiated"] == ["hot"])
        // The new worker got the page's state replayed: the control is back with the new build's title.
        try await host.waitFor(.controlAdded) { $0["control"]?["title"] == "v2" }
        try host.send(["command": "activate", "control": "hot.go"])
        try await host.waitFor(.pageTitle) { $0["title"] == "reply 2 v2" }
        #expect(host.events(named: .pageCommitted).count == 1)
        #expect(host.events(named: .pluginCrashed).isEmpty, "\(host.events(named: .pluginCrashed))")
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }
}
