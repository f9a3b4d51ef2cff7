import Foundation
import StradaAutomation
import StradaCore
import TestSupport
import Testing

/// Under `--isolate`, a plugin the host can declare (its manifest names an `id` and `components`) is announced at
/// start and gets its worker process only when a page first registers one of its components.
@Suite(.serialized, .oneAtATime, .temporaryDirectories)
struct LazyWorkerTests {
    /// The host's worker processes (`strada-plugin-worker` running a plugin, not a probe) whose command line names
    /// `file` (a plugin's file name; under `--watch` the worker runs a staged copy whose name ends with it).
    static func workers(of host: HostProcess, loading file: String) -> [Int32] {
        host.pluginHelpers().filter { pid in
            let image = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) ?? ""
            let arguments = (FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data())
                .split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return image.hasSuffix("/strada-plugin-worker") && !arguments.contains("--probe")
                && arguments.contains { $0.hasSuffix(file) }
        }
    }

    /// Waits up to `seconds` for the host's workers loading `file` to number `count`; returns how many there are.
    static func waitForWorkers(
        of host: HostProcess, loading file: String, count: Int, within seconds: Double = 10
    ) async throws -> Int {
        let deadline = Date().addingTimeInterval(seconds)
        var found = workers(of: host, loading: file).count
        while found != count && Date() < deadline {
            try await Task.sleep(for: .milliseconds(50))
            found = workers(of: host, loading: file).count
        }
        return found
    }

    @Test func aDeclaredPluginGetsItsWorkerOnlyWhenAPageRegistersOneOfItsComponents() async throws {
        let (plugins, hot) = try LazyLoadingTests.plugins(hot: "v1")
        let host = try HostProcess(page: LazyLoadingTests.formPage, arguments: ["--plugins", plugins, "--isolate"])
        let ready = try await host.waitFor(.hostReady)
        // Announced as before: in the user agent's list and host.ready's plugins, as isolated.
        #expect(ready["components"] == ["form", "hot"])
        #expect(ready["userAgent"]?.stringValue?.contains("bridge-components: [form hot]") == true)
        let listed = ready["plugins"]?.arrayValue?.first { $0["id"] == "dev.test.hot" }
        #expect(listed?["isolated"] == true && listed?["components"] == ["hot"], "\(ready)")
        #expect(Self.workers(of: host, loading: "libhot.so").isEmpty, "a worker for a plugin no page uses yet")
        // The form page's component starts its plugin's worker; the hot plugin still has none.
        try await host.waitFor(.controlAdded) { $0["control"]?["id"] == "form.submit" }
        #expect(Self.workers(of: host, loading: "libStradaFormPlugin.so").count == 1)
        #expect(Self.workers(of: host, loading: "libhot.so").isEmpty)
        #expect(!host.standardError.contains("plugin \(hot) loaded"))

        // The page's create and connect are sent before the worker's hello: they wait for it and are handled.
        try host.send(["command": "navigate", "url": LazyLoadingTests.hotPage])
        try await host.waitFor(.controlAdded) { $0["control"]?["title"] == "v1" }
        #expect(Self.workers(of: host, loading: "libhot.so").count == 1)
        #expect(
            host.standardError.contains("plugin \(hot) loaded on first use (component hot) in a worker: dev.test.hot"))
        try host.send(["command": "activate", "control": "hot.go"])
        try await host.waitFor(.pageTitle) { $0["title"] == "reply 1 v1" }
        #expect(host.events(named: .pluginError).isEmpty, "\(host.events(named: .pluginError))")
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }

    /// A plugin without a manifest cannot be declared at its first start: its worker starts with the host, and
    /// what the worker's hello says goes into the plugin manifest cache, so from the next start it is lazy too.
    @Test func aPluginWithoutAManifestIsLazyFromItsSecondStart() async throws {
        let (plugins, _) = try LazyLoadingTests.plugins(hot: "v1")
        try FileManager.default.removeItem(atPath: (plugins as NSString).appendingPathComponent("libhot.json"))
        let first = try HostProcess(page: LazyLoadingTests.formPage, arguments: ["--plugins", plugins, "--isolate"])
        let firstReady = try await first.waitFor(.hostReady)
        #expect(firstReady["components"] == ["form", "hot"])
        #expect(Self.workers(of: first, loading: "libhot.so").count == 1, "nothing declares it yet")
        try first.send(["command": "quit"])
        #expect(try await first.waitForExit() == 0)
        try await Self.expectHotIsLazy(plugins: plugins)
    }

    /// `--watch`: so is a plugin without a manifest added while the host runs (its worker starts at once).
    @Test func aPluginAddedWithoutAManifestIsLazyFromTheNextStart() async throws {
        let plugins = try PluginsDirectory.make()
        let first = try HostProcess(
            page: LazyLoadingTests.formPage, arguments: ["--plugins", plugins, "--isolate", "--watch"])
        try await first.waitFor(.controlAdded) { $0["control"]?["id"] == "form.submit" }
        let next = (plugins as NSString).appendingPathComponent(".libhot.so.new")
        try HotReloadTests.buildHotPlugin(version: "v1", at: next)
        #expect(rename(next, (plugins as NSString).appendingPathComponent("libhot.so")) == 0)
        let added = try await first.waitFor(.pluginAdded)
        #expect(added["id"] == "dev.test.hot" && added["components"] == ["hot"], "\(added)")
        #expect(Self.workers(of: first, loading: "libhot.so").count == 1)
        try first.send(["command": "quit"])
        #expect(try await first.waitForExit() == 0)
        try await Self.expectHotIsLazy(plugins: plugins)
    }

    /// `--watch`: and so is a new build of one, loaded in a new worker while the host runs.
    @Test func aPluginRebuiltWithoutAManifestIsLazyFromTheNextStart() async throws {
        let (plugins, plugin) = try LazyLoadingTests.plugins(hot: "v1")
        try FileManager.default.removeItem(atPath: (plugins as NSString).appendingPathComponent("libhot.json"))
        let first = try HostProcess(
            page: LazyLoadingTests.hotPage, arguments: ["--plugins", plugins, "--isolate", "--watch"])
        try await first.waitFor(.controlAdded) { $0["control"]?["title"] == "v1" }
        let next = (plugins as NSString).appendingPathComponent(".libhot.so.new")
        try HotReloadTests.buildHotPlugin(version: "v2", at: next)
        #expect(rename(next, plugin) == 0)
        try await first.waitFor(.controlAdded) { $0["control"]?["title"] == "v2" }
        try first.send(["command": "quit"])
        #expect(try await first.waitForExit() == 0)
        try await Self.expectHotIsLazy(plugins: plugins, version: "v2")
    }

    /// Starts a host on `plugins` (whose `libhot.so`, built as `version`, has no manifest, and loaded in a worker
    /// before) and checks that the plugin manifest cache declares it: announced, and no worker until a page uses it.
    static func expectHotIsLazy(plugins: String, version: String = "v1") async throws {
        let host = try HostProcess(page: LazyLoadingTests.formPage, arguments: ["--plugins", plugins, "--isolate"])
        let ready = try await host.waitFor(.hostReady)
        #expect(ready["components"] == ["form", "hot"])
        let listed = ready["plugins"]?.arrayValue?.first { $0["id"] == "dev.test.hot" }
        #expect(listed?["components"] == ["hot"], "\(ready)")
        try await host.waitFor(.controlAdded) { $0["control"]?["id"] == "form.submit" }
        #expect(workers(of: host, loading: "libhot.so").isEmpty, "declared from the cache: no worker yet")
        try host.send(["command": "navigate", "url": LazyLoadingTests.hotPage])
        try await host.waitFor(.controlAdded) { $0["control"]?["title"] == .string(version) }
        #expect(workers(of: host, loading: "libhot.so").count == 1)
        #expect(host.events(named: .pluginError).isEmpty, "\(host.events(named: .pluginError))")
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }

    @Test func aDeclaredPluginWhoseFileIsBrokenIsReportedOnceWhenFirstNeeded() async throws {
        let (plugins, hot) = try LazyLoadingTests.plugins(hot: "v1")
        try "not a shared library".write(toFile: hot, atomically: true, encoding: .utf8)
        let host = try HostProcess(page: LazyLoadingTests.formPage, arguments: ["--plugins", plugins, "--isolate"])
        let ready = try await host.waitFor(.hostReady)
        #expect(ready["components"] == ["form", "hot"])
        try await host.waitFor(.controlAdded) { $0["control"]?["id"] == "form.submit" }
        #expect(host.events(named: .pluginError).isEmpty, "reported before it was needed")

        let mark = host.events.count
        try host.send(["command": "navigate", "url": LazyLoadingTests.hotPage])
        let error = try await host.waitFor(.pluginError, after: mark)
        let line = "plugin \(hot): not a shared library (no ELF header) — remove it from the plugins directory"
        #expect(error["message"]?.stringValue == line)
        // What the page sent it is dropped, with the reason.
        let dropped = try await host.waitFor(.bridgeDropped, after: mark) { $0["message"]?["component"] == "hot" }
        #expect(dropped["reason"]?.stringValue?.contains("failed to load when first needed") == true, "\(dropped)")
        // The page registers it again after a refresh: not tried, nor said, again.
        let again = host.events.count
        try host.send(["command": "reload"])
        try await host.waitFor(.pageFinished, after: again)
        try await host.waitFor(.bridgeReady, after: again)
        // The other plugin keeps serving.
        try host.send(["command": "navigate", "url": LazyLoadingTests.formPage])
        try await host.waitFor(.controlChanged, after: again) { $0["control"]?["enabled"] == true }
        try host.send(["command": "activate", "control": "form.submit"])
        try await host.waitFor(.pageTitle) { $0["title"] == "Submitted: Ada Lovelace" }
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
        #expect(host.events(named: .pluginError).count == 1)
        #expect(host.standardError.components(separatedBy: line).count == 2, "one line: \(host.standardError)")
    }

    /// `--watch`: a new build of a plugin that has no worker yet is validated in a worker; a broken one is refused
    /// and the plugin stays without a worker, a good one loads in its first worker, which serves from then on.
    @Test func aNewBuildOfAPluginWithoutAWorkerYetIsValidatedAndServes() async throws {
        let (plugins, hot) = try LazyLoadingTests.plugins(hot: "v1")
        let host = try HostProcess(
            page: LazyLoadingTests.formPage, arguments: ["--plugins", plugins, "--isolate", "--watch"])
        try await host.waitFor(.controlAdded) { $0["control"]?["id"] == "form.submit" }
        #expect(Self.workers(of: host, loading: "libhot.so").isEmpty)
        // Renamed into place, as `plugin install` and careful build scripts do.
        let next = (plugins as NSString).appendingPathComponent(".libhot.so.new")
        try CCompiler.sharedLibrary("int not_a_plugin(void) { return 0; }\n", at: next)  // no entry point
        #expect(rename(next, hot) == 0)
        let failed = try await host.waitFor(.pluginReloadFailed)
        #expect(failed["error"]?.stringValue?.contains("the previous build is started when first needed") == true)
        #expect(try await Self.waitForWorkers(of: host, loading: "libhot.so", count: 0) == 0)

        try HotReloadTests.buildHotPlugin(version: "v2", at: next)
        #expect(rename(next, hot) == 0)
        let reloaded = try await host.waitFor(.pluginReloaded)
        #expect(reloaded["id"] == "dev.test.hot")
        #expect(reloaded["reinstantiated"] == [])
        #expect(Self.workers(of: host, loading: "libhot.so").count == 1, "the new build's worker serves")
        try host.send(["command": "navigate", "url": LazyLoadingTests.hotPage])
        try await host.waitFor(.controlAdded) { $0["control"]?["title"] == "v2" }
        try host.send(["command": "activate", "control": "hot.go"])
        try await host.waitFor(.pageTitle) { $0["title"] == "reply 1 v2" }
        #expect(!host.events.contains { $0["control"]?["title"] == "v1" })
        #expect(Self.workers(of: host, loading: "libhot.so").count == 1)
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }
}
