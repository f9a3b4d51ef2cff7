import Foundation
import TestSupport
import Testing

/// Path configuration end to end: the real host reads the document, and its rules decide visits of the demo
/// app (with the real Turbo). A plugin built from `Examples/native-screen` provides a native screen.
@Suite(.serialized, .oneAtATime, .temporaryDirectories)
struct PathConfigurationTests {
    /// A plugins folder with the button plugin and the native-screen example, built with its own Makefile.
    static func pluginsWithNativeScreen() async throws -> String {
        let plugins = try PluginsDirectory.make(plugins: ["libStradaButtonPlugin.so"])
        try await ProcessRunner.check(
            "/usr/bin/make", ["-s", "-C", Repository.path("Examples/native-screen"), "BUILD_DIR=\(plugins)"])
        return plugins
    }

    static func write(_ text: String, named name: String) throws -> String {
        let path = (try TemporaryDirectory.make("path-configuration") as NSString).appendingPathComponent(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static let settingsRule = """
        {"settings": {}, "rules": [
          {"patterns": [".*"], "properties": {"context": "default", "pull_to_refresh_enabled": true}},
          {"patterns": ["/settings$"], "properties": {"view_controller": "settings", "title": "Settings"}}
        ]}
        """

    @Test func aRuleWithAViewControllerPushesThePluginsNativeScreenAndBackRemovesIt() async throws {
        let server = try await RouteAndErrorScreenTests.Server(turbo: true)
        let plugins = try await Self.pluginsWithNativeScreen()
        let configuration = try Self.write(Self.settingsRule, named: "path-configuration.json")
        let host = try HostProcess(
            page: server.url("/links?click=settings"),
            arguments: ["--plugins", plugins, "--path-configuration", configuration])
        let loaded = try await host.waitFor("path-configuration.loaded")
        #expect(loaded["rules"] as? Int == 2 && loaded["source"] as? String == configuration)

        // Turbo proposes /settings; the rules that matched travel with the proposal; the screen is native.
        let proposed = try await host.waitFor("visit.proposed")
        let properties = proposed["properties"] as? [String: Any]
        #expect(properties?["view_controller"] as? String == "settings")
        #expect(properties?["pull_to_refresh_enabled"] as? Bool == true)
        let pushed = try await host.waitFor("screen.pushed") { $0["depth"] as? Int == 2 }
        #expect(pushed["view"] as? String == "settings" && pushed["url"] as? String == server.url("/settings"))
        #expect(host.standardError.contains("settings screen built for \(server.url("/settings"))"))
        // The web view never loaded /settings (the demo has no such page).
        #expect(
            !host.events.contains {
                ($0["url"] as? String)?.hasSuffix("/settings") == true && $0["event"] as? String == "page.committed"
            })

        let picture = (try TemporaryDirectory.make("shot") as NSString).appendingPathComponent("native.png")
        var mark = host.events.count
        try host.send(["command": "screenshot", "path": picture])
        try await RouteAndErrorScreenTests.next(host, "command.ok", after: mark)
        #expect((try? FileManager.default.attributesOfItem(atPath: picture)[.size] as? Int) ?? 0 > 1000)

        // Back: the links page again, the plugin was told its screen is gone.
        mark = host.events.count
        try host.send(["command": "back"])
        let popped = try await RouteAndErrorScreenTests.next(host, "screen.popped", after: mark)
        #expect(popped["depth"] as? Int == 1 && popped["view"] == nil)
        try await Task.sleep(for: .milliseconds(200))
        #expect(host.standardError.contains("settings screen destroyed"))

        // The `visit` command is routed by the same rules.
        mark = host.events.count
        try host.send(["command": "visit", "url": server.url("/settings")])
        let again = try await RouteAndErrorScreenTests.next(host, "screen.pushed", after: mark)
        #expect(again["view"] as? String == "settings" && again["depth"] as? Int == 2)
        try await RouteAndErrorScreenTests.quit(host)
        server.stop()
    }

    @Test func aViewControllerNoPluginProvidesIsAWebVisitWithALogLine() async throws {
        let server = try await RouteAndErrorScreenTests.Server(turbo: true)
        let configuration = try Self.write(
            #"{"rules": [{"patterns": ["/posts$"], "properties": {"view_controller": "nobody"}}]}"#, named: "p.json")
        let host = try HostProcess(
            page: server.url("/links?click=blank-free"),
            arguments: [
                "--plugins", try PluginsDirectory.make(plugins: ["libStradaButtonPlugin.so"]),
                "--path-configuration", configuration,
            ])
        try await host.waitFor("turbo.ready")
        let mark = host.events.count
        try host.send(["command": "visit", "url": server.url("/posts")])
        let pushed = try await RouteAndErrorScreenTests.next(host, "screen.pushed", after: mark)
        #expect(pushed["view"] == nil && pushed["depth"] as? Int == 2)
        try await RouteAndErrorScreenTests.next(host, "page.title", after: mark) {
            ($0["title"] as? String)?.hasPrefix("Posts") == true
        }
        #expect(host.standardError.contains("no plugin loaded in the host provides it"))
        try await RouteAndErrorScreenTests.quit(host)
        server.stop()
    }
}
