import Foundation
import StradaAutomation
import StradaCore
import TestSupport
import Testing

/// Plugins are announced at start and opened only when a page first registers one of their components.
@Suite(.serialized, .oneAtATime, .temporaryDirectories)
struct LazyLoadingTests {
    static let formPage = "file://" + Repository.path("Examples/form-demo/index.html")
    static let hotPage = "file://" + Repository.path("Tests/EndToEndTests/Fixtures/hot.html")

    /// A folder with the form plugin and `libhot.so` (built as `version`), with an installed manifest.
    static func plugins(hot version: String) throws -> (folder: String, hot: String) {
        let plugins = try PluginsDirectory.make()
        let hot = (plugins as NSString).appendingPathComponent("libhot.so")
        try HotReloadTests.buildHotPlugin(version: version, at: hot)
        try #"{"id": "dev.test.hot", "version": "1.0.0", "components": ["hot"]}"#.write(
            toFile: (plugins as NSString).appendingPathComponent("libhot.json"), atomically: true, encoding: .utf8)
        return (plugins, hot)
    }

    /// Whether the host process has `file` mapped (opened with `dlopen`).
    static func maps(_ host: HostProcess, _ file: String) throws -> Bool {
        // Read to the end: procfs files have no size, and a host's maps are longer than one read.
        let maps = try #require(FileHandle(forReadingAtPath: "/proc/\(host.pid)/maps"))
        defer { try? maps.close() }
        return String(decoding: try maps.readToEnd() ?? Data(), as: UTF8.self).contains(file)
    }

    @Test func aPluginIsNotOpenedUntilAPageRegistersOneOfItsComponents() async throws {
        let (plugins, hot) = try Self.plugins(hot: "v1")
        let host = try HostProcess(page: Self.formPage, arguments: ["--plugins", plugins])
        let ready = try await host.waitFor(.hostReady)
        // Announced from its manifest: in the user agent's list and host.ready's plugins, but not opened.
        #expect(ready["components"] == ["form", "hot"])
        #expect(
            ready["plugins"]?.arrayValue?.compactMap { $0["id"]?.stringValue }.contains("dev.test.hot") == true)
        #expect(ready["userAgent"]?.stringValue?.contains("bridge-components: [form hot]") == true)
        try await host.waitFor(.controlAdded) { $0["control"]?["id"] == "form.submit" }
        #expect(try Self.maps(host, plugins + "/libStradaFormPlugin.so"))
        #expect(try !Self.maps(host, hot))
        #expect(!host.standardError.contains("plugin \(hot) loaded"))

        try host.send(["command": "navigate", "url": Self.hotPage])
        try await host.waitFor(.controlAdded) { $0["control"]?["title"] == "v1" }
        #expect(try Self.maps(host, hot))
        #expect(host.standardError.contains("plugin \(hot) loaded on first use (component hot): dev.test.hot"))
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }

    @Test func aBrokenPluginIsReportedOnceWhenFirstNeededAndTheOthersKeepGoing() async throws {
        let (plugins, hot) = try Self.plugins(hot: "v1")
        try "not a shared library".write(toFile: hot, atomically: true, encoding: .utf8)
        let host = try HostProcess(page: Self.hotPage, arguments: ["--plugins", plugins])
        let ready = try await host.waitFor(.hostReady)
        #expect(ready["components"] == ["form", "hot"])
        let error = try await host.waitFor(.pluginError)
        let line = "plugin \(hot): not a shared library (no ELF header) — remove it from the plugins directory"
        #expect(error["message"]?.stringValue == line)
        // The page registers it again after a refresh: not tried, nor said, again.
        let mark = host.events.count
        try host.send(["command": "reload"])
        try await host.waitFor(.pageFinished, after: mark)
        try await host.waitFor(.bridgeReady, after: mark)
        try host.send(["command": "navigate", "url": Self.formPage])
        try await host.waitFor(.controlAdded) { $0["control"]?["id"] == "form.submit" }
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
        #expect(host.events(named: .pluginError).count == 1)
        #expect(host.standardError.components(separatedBy: line).count == 2, "one line: \(host.standardError)")
    }

    @Test func aPluginReplacedBeforeAnyPageUsedItServesTheNewBuild() async throws {
        let (plugins, hot) = try Self.plugins(hot: "v1")
        let host = try HostProcess(page: Self.formPage, arguments: ["--plugins", plugins, "--watch"])
        try await host.waitFor(.controlAdded) { $0["control"]?["id"] == "form.submit" }
        // Built beside it and renamed into place, as `plugin install` and careful build scripts do.
        let next = (plugins as NSString).appendingPathComponent(".libhot.so.new")
        try HotReloadTests.buildHotPlugin(version: "v2", at: next)
        #expect(rename(next, hot) == 0)
        let reloaded = try await host.waitFor(.pluginReloaded)
        #expect(reloaded["id"] == "dev.test.hot")
        #expect(reloaded["reinstantiated"] == [])

        try host.send(["command": "navigate", "url": Self.hotPage])
        try await host.waitFor(.controlAdded) { $0["control"]?["title"] == "v2" }
        try host.send(["command": "activate", "control": "hot.go"])
        try await host.waitFor(.pageTitle) { $0["title"] == "reply 1 v2" }
        #expect(!host.events.contains { $0["control"]?["title"] == "v1" })
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }
}
