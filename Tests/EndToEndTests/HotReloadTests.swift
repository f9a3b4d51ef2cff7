import Foundation
import StradaCore
import TestSupport
import Testing

/// `strada-host run --watch`: rebuilds a plugin while the host runs and watches what happens through the
/// automation channel — without restarting the host or reloading the page.
@Suite(.serialized, .oneAtATime, .temporaryDirectories)
struct HotReloadTests {
    static let page = Repository.path("Tests/EndToEndTests/Fixtures/hot.html")

    static func buildHotPlugin(version: String, at path: String) throws {
        let source = try String(
            contentsOfFile: Repository.path("Tests/EndToEndTests/Fixtures/hot-plugin.c"), encoding: .utf8)
        try CCompiler.sharedLibrary(
            "#define VERSION \"\(version)\"\n" + CCompiler.fixturePluginSupport + source, at: path)
    }

    /// A host watching a new plugins folder (`--watch`, and `arguments`) that holds the hot plugin built as v1,
    /// once v1's control is shown; and the plugin file's path.
    static func watchingV1(_ arguments: [String] = []) async throws -> (host: HostProcess, plugin: String) {
        let plugins = try PluginsDirectory.make(plugins: [])
        let plugin = (plugins as NSString).appendingPathComponent("libhot.so")
        try buildHotPlugin(version: "v1", at: plugin)
        let host = try HostProcess(page: page, arguments: ["--plugins", plugins, "--watch"] + arguments)
        try await host.waitFor(.controlAdded) { $0["control"]?["title"] == "v1" }
        return (host, plugin)
    }

    @Test func aRebuiltPluginServesTheSamePageWithItsControlRestored() async throws {
        let (host, plugin) = try await Self.watchingV1()
        try host.send(["command": "activate", "control": "hot.go"])
        try await host.waitFor(.pageTitle) { $0["title"] == "reply 1 v1" }

        // Rebuild in place, as a compiler writes its output.
        try Self.buildHotPlugin(version: "v2", at: plugin)
        let reloaded = try await host.waitFor(.pluginReloaded)
        #expect(reloaded["id"] == "dev.test.hot")
        #expect(reloaded["reinstantiated"] == ["hot"])
        #expect(reloaded["residentKilobytesDelta"]?.numberValue != nil)
        // The new instance got the cached connect replayed: the button is back, with the new code's title.
        try await host.waitFor(.controlAdded) { $0["control"]?["title"] == "v2" }
        try host.send(["command": "activate", "control": "hot.go"])
        // Same page (no reload: the reply counter continues), new code answering.
        try await host.waitFor(.pageTitle) { $0["title"] == "reply 2 v2" }
        #expect(host.events(named: .pageCommitted).count == 1)

        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
        // The ABI's order: the old build's instance was destroyed before the old build's shutdown.
        let log = host.standardError
        let destroyed = try #require(log.range(of: "hot v1: destroy_instance"))
        let shutDown = try #require(log.range(of: "hot v1: shutdown"))
        #expect(destroyed.lowerBound < shutDown.lowerBound)
    }

    @Test func aBuildIdenticalToAnEarlierOneComesBackAsAFreshImage() async throws {
        let (host, plugin) = try await Self.watchingV1()
        for (version, generation) in [("v2", 2), ("v1", 3)] {
            // After the rebuild: the first v1 control (at the start) must not answer for the second v1's.
            let mark = host.events.count
            try Self.buildHotPlugin(version: version, at: plugin)
            try await host.waitFor(.pluginReloaded, after: mark) { $0["generation"]?.intValue == generation }
            try await host.waitFor(.controlAdded, after: mark) { $0["control"]?["title"] == .string(version) }
        }
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
        // The second v1 is a new image with its own static state, not the first one's entry point run again.
        #expect(host.standardError.components(separatedBy: "hot v1: entry, fresh image").count - 1 >= 2)
        #expect(!host.standardError.contains("hot v1: entry again"))
    }

    /// (A file that is not a complete shared library is never taken as a build: see the next test.)
    @Test func aBrokenRebuildLeavesThePreviousBuildServing() async throws {
        let plugins = try PluginsDirectory.make(plugins: [])
        let plugin = (plugins as NSString).appendingPathComponent("libhot.so")
        try Self.buildHotPlugin(version: "v1", at: plugin)
        let host = try HostProcess(page: Self.page, arguments: ["--plugins", plugins, "--watch"])
        try await host.waitFor(.controlAdded)

        // A "build" that produced a library without the entry point.
        try CCompiler.sharedLibrary("int not_a_plugin(void) { return 0; }\n", at: plugin)
        let failed = try await host.waitFor(.pluginReloadFailed)
        #expect(failed["error"]?.stringValue?.contains("no strada_plugin_entry_v1 symbol") == true)
        #expect(failed["error"]?.stringValue?.contains("the previous build keeps serving") == true)

        try host.send(["command": "activate", "control": "hot.go"])
        try await host.waitFor(.pageTitle) { $0["title"] == "reply 1 v1" }
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }

    /// What a build leaves beside its library is not a plugin: a real `cc -c` object file (and a copy named as
    /// `rustc` names its codegen units), temporary files of random bytes, and the new build while it is half
    /// written are all ignored without a line; once its last byte is written, the build reloads.
    @Test func onlyCompleteSharedLibrariesAreTakenAsBuilds() async throws {
        let (host, plugin) = try await Self.watchingV1()
        let folder = (plugin as NSString).deletingLastPathComponent
        let mark = host.events.count
        let logged = host.standardError.count
        let source = try String(
            contentsOfFile: Repository.path("Tests/EndToEndTests/Fixtures/hot-plugin.c"), encoding: .utf8)
        let object = (folder as NSString).appendingPathComponent("hot.o")
        try CCompiler.object("#define VERSION \"v9\"\n" + CCompiler.fixturePluginSupport + source, at: object)
        let codegenUnit = (folder as NSString).appendingPathComponent("hot.hot.5d1c8a-cgu.0.rcgu.o")
        try FileManager.default.copyItem(atPath: object, toPath: codegenUnit)
        var generator = SystemRandomNumberGenerator()
        for name in ["tmp9f3k2", "4913", "libhot.so.tmp"] {
            let noise = Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) })
            try noise.write(to: URL(fileURLWithPath: (folder as NSString).appendingPathComponent(name)))
        }
        // The new build, written in two halves a second apart (the first closed, as a slow copy may be).
        let build = try TemporaryDirectory.make("build")
        let v2 = (build as NSString).appendingPathComponent("libhot.so")
        try Self.buildHotPlugin(version: "v2", at: v2)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: v2))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: plugin))
        try await Task.sleep(for: .seconds(1.5))
        #expect(host.events(named: .pluginReloaded).isEmpty, "a half-written build was loaded")
        let half = try FileHandle(forWritingTo: URL(fileURLWithPath: plugin))
        try half.seekToEnd()
        try half.write(contentsOf: bytes.suffix(from: bytes.count / 2))
        try half.close()
        let reloaded = try await host.waitFor(.pluginReloaded, after: mark)
        #expect(reloaded["generation"] == 2)
        try await host.waitFor(.controlAdded, after: mark) { $0["control"]?["title"] == "v2" }
        try host.send(["command": "activate", "control": "hot.go"])
        try await host.waitFor(.pageTitle) { $0["title"] == "reply 1 v2" }
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
        // Not a line about any of them: no failed reload, no added plugin, no error.
        let events = host.events.dropFirst(mark).compactMap { HostProcess.name(of: $0)?.rawValue }
        #expect(!events.contains { $0 == "plugin.reload-failed" || $0 == "plugin.added" || $0 == "plugin.error" })
        let log = String(host.standardError.dropFirst(logged))
        for name in ["hot.o", "rcgu.o", "tmp9f3k2", "4913", "libhot.so.tmp"] {
            #expect(!log.contains(name), "a line about \(name): \(log)")
        }
        #expect(host.events(named: .pluginReloaded).count == 1, "only the complete build reloads")
    }

    /// The case: `rustc -o` straight into the watched folder, which writes its codegen units
    /// (`*.rcgu.o`) there before it links: the plugin is added once, with no line about anything else.
    @Test(.enabled(if: ExampleBuild.isOnPath("rustc"), "rustc is not on PATH"))
    func rustcBuildingIntoTheWatchedFolderAddsThePluginAndNothingElse() async throws {
        let plugins = try PluginsDirectory.make(plugins: [])
        let host = try HostProcess(
            page: Repository.path("Examples/rust-plugin/index.html"), arguments: ["--plugins", plugins, "--watch"])
        try await host.waitFor(.hostReady)
        try await ProcessRunner.check("sh", [Repository.path("Examples/rust-plugin/build.sh"), plugins])
        let added = try await host.waitFor(.pluginAdded, timeout: 60)
        #expect(added["id"] == "dev.example.counter-rs")
        try await Task.sleep(for: .seconds(1))
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
        let events = host.events.compactMap { HostProcess.name(of: $0)?.rawValue }
        #expect(events.filter { $0 == "plugin.added" }.count == 1, "\(events)")
        #expect(!events.contains { $0 == "plugin.reload-failed" || $0 == "plugin.error" }, "\(events)")
        #expect(!host.standardError.contains(".o:") && !host.standardError.contains("rcgu"), "\(host.standardError)")
    }

    /// Process ids of the host's spare probe children (`strada-plugin-worker --probe --path-from-stdin`), started
    /// ahead of time.
    static func spareProbes(of host: HostProcess) -> [Int32] {
        host.pluginHelpers().filter { pid in
            let arguments = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()
            return String(decoding: arguments, as: UTF8.self).contains("--path-from-stdin")
        }
    }

    /// Whether `pid` has exited (gone, or a zombie waiting to be reaped).
    static func exited(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.range(of: ")", options: .backwards)
        else { return true }
        return stat[close.upperBound...].split(separator: " ").first == "Z"
    }

    @Test func aRebuildThatCrashesInItsProbeIsRefusedAndTheNextBuildStillLoads() async throws {
        let plugins = try PluginsDirectory.make(plugins: [])
        let plugin = (plugins as NSString).appendingPathComponent("libhot.so")
        try Self.buildHotPlugin(version: "v1", at: plugin)
        let build = try TemporaryDirectory.make("build")
        let host = try HostProcess(page: Self.page, arguments: ["--plugins", plugins, "--watch"])
        try await host.waitFor(.controlAdded) { $0["control"]?["title"] == "v1" }

        // A build whose entry point crashes, moved into place as build tools do: the probe child crashes, the
        // host says so once and keeps serving v1.
        let crash = try PluginHardeningTests.library(
            PluginHardeningTests.crashingEntry, named: "libcrash.so", in: build)
        #expect(rename(crash, plugin) == 0)
        let failed = try await host.waitFor(.pluginReloadFailed)
        let error = failed["error"]?.stringValue ?? ""
        #expect(error.contains("crashed while loading (signal 11)") && error.contains("keeps serving"), "\(error)")
        try host.send(["command": "activate", "control": "hot.go"])
        try await host.waitFor(.pageTitle) { $0["title"] == "reply 1 v1" }

        // The next build is probed (in the next spare child) and loads.
        let v2 = (build as NSString).appendingPathComponent("libhot-v2.so")
        try Self.buildHotPlugin(version: "v2", at: v2)
        #expect(rename(v2, plugin) == 0)
        try await host.waitFor(.pluginReloaded) { $0["generation"] == 2 }
        try await host.waitFor(.controlAdded) { $0["control"]?["title"] == "v2" }
        try host.send(["command": "activate", "control": "hot.go"])
        try await host.waitFor(.pageTitle) { $0["title"] == "reply 2 v2" }

        // A spare probe child waits for the next build; it goes when the host does.
        var spares = Self.spareProbes(of: host)
        for _ in 0..<100 where spares.isEmpty {
            try await Task.sleep(for: .milliseconds(100))
            spares = Self.spareProbes(of: host)
        }
        #expect(spares.count == 1)
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
        for _ in 0..<100 where !spares.allSatisfy(Self.exited) { try await Task.sleep(for: .milliseconds(100)) }
        #expect(spares.allSatisfy(Self.exited), "the spare probe outlived the host")
    }

    @Test func aSwiftPluginReloadsToo() async throws {
        let plugins = try PluginsDirectory.make()
        let host = try HostProcess(
            page: Repository.path("Examples/form-demo/index.html"), arguments: ["--plugins", plugins, "--watch"])
        try await host.waitFor(.controlChanged) { $0["control"]?["enabled"] == true }
        // A new build of the same code: different bytes (a trailing byte), so a new generation loads.
        let plugin = (plugins as NSString).appendingPathComponent("libStradaFormPlugin.so")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: plugin))
        bytes.append(0)
        try bytes.write(to: URL(fileURLWithPath: plugin + ".new"))
        // After the rebuild: the page's first "Send" control must not answer for the new instance's.
        let mark = host.events.count
        #expect(rename(plugin + ".new", plugin) == 0)
        let reloaded = try await host.waitFor(.pluginReloaded, after: mark)
        #expect(reloaded["generation"] == 2)
        try await host.waitFor(.controlRemoved, after: mark)
        try await host.waitFor(.controlAdded, after: mark) { $0["control"]?["title"] == "Send" }
        try host.send(["command": "activate", "control": "form.submit"])
        try await host.waitFor(.pageTitle) { $0["title"] == "Submitted: Ada Lovelace" }
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }

    @Test func aNewComponentNameUpdatesTheUserAgentAndReloadsThePage() async throws {
        let plugins = try PluginsDirectory.make()
        let host = try HostProcess(
            page: Repository.path("Tests/EndToEndTests/Fixtures/user-agent-stay.html"),
            arguments: ["--plugins", plugins, "--watch"])
        try await host.waitFor(.pageTitle) { $0["title"]?.stringValue?.contains("bridge-components: [form]") == true }
        try Self.buildHotPlugin(version: "v1", at: (plugins as NSString).appendingPathComponent("libhot.so"))
        let components = try await host.waitFor(.hostComponents)
        #expect(
            components["components"] == ["hot", "form"] || components["components"] == ["form", "hot"],
            "\(components)")
        try await host.waitFor(.pageTitle) {
            $0["title"]?.stringValue?.contains("bridge-components: [") == true
                && $0["title"]?.stringValue?.contains("hot") == true
        }
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }
}
