import Foundation
import StradaCore
import TestSupport
import Testing

/// Where each plugin runs, chosen per plugin by the app definition (`"grants": {id: {"isolation": …}}`) in a host
/// started without `--isolate`: one plugin in the sandbox, one in a plain worker, the rest in the host's process,
/// all serving the same pages. The hostile probe plugin (`Fixtures/sandbox-probe-plugin.c`) shows the sandbox
/// holds: it cannot read the user's home.
@Suite(.serialized, .oneAtATime, .temporaryDirectories, .timeLimit(.minutes(3)))
struct PerPluginIsolationTests {
    @Test func theAppPutsOnePluginInTheSandboxOneInAWorkerAndKeepsTheRestInProcess() async throws {
        let plugins = try PluginsDirectory.make(plugins: ["libStradaFormPlugin.so", "libStradaButtonPlugin.so"])
        let source = try String(
            contentsOfFile: Repository.path("Tests/EndToEndTests/Fixtures/sandbox-probe-plugin.c"), encoding: .utf8)
        try CCompiler.sharedLibrary(
            CCompiler.fixturePluginSupport + source, at: (plugins as NSString).appendingPathComponent("libprobe.so"))
        try #"{"id": "dev.test.probe", "components": ["probe"]}"#.write(
            toFile: (plugins as NSString).appendingPathComponent("libprobe.json"), atomically: true, encoding: .utf8)
        let home = try TemporaryDirectory.make("home")
        let secret = (home as NSString).appendingPathComponent("secret.txt")
        try "do not read".write(toFile: secret, atomically: true, encoding: .utf8)
        let server = try await LocalHTTPServer.serving(directory: Repository.path("Tests/EndToEndTests/Fixtures"))
        let definition = """
            {"id": "dev.strada.PlacementTest", "name": "Placement test", "start_url": "\(server.url)grant-probe.html",
             "plugins": ["\(plugins)"], "system_plugins": false,
             "grants": {"dev.test.probe": {"isolation": "sandbox"}, "dev.strada.button": {"isolation": "process"}}}
            """
        let app = (try TemporaryDirectory.make("app") as NSString).appendingPathComponent("app.json")
        try definition.write(toFile: app, atomically: true, encoding: .utf8)
        let host = try HostProcess(
            app: app, arguments: [],
            environment: ["HOME": home, "XDG_DATA_HOME": (home as NSString).appendingPathComponent(".local/share")])

        let ready = try await host.waitFor(.hostReady, timeout: 60)
        var isolated: [String: Bool] = [:]
        for plugin in ready["plugins"]?.arrayValue ?? [] {
            isolated[plugin["id"]?.stringValue ?? "?"] = plugin["isolated"]?.boolValue
        }
        #expect(
            isolated == ["dev.test.probe": true, "dev.strada.button": true, "dev.strada.form": false],
            "no --isolate: only what the app chose runs in a worker: \(ready)")
        // Declared by its manifest, the probe plugin gets its worker (in the sandbox) when a page first uses it.
        let line = "plugin \(plugins)/libprobe.so runs in the sandbox"
        #expect(!host.standardError.contains(line), "\(host.standardError)")
        let registered = try await host.waitFor(.bridgeRegistered)
        #expect(
            Set(registered["components"]?.arrayValue?.compactMap(\.stringValue) ?? []) == ["button", "form", "probe"],
            "in process and in workers, one set of components: \(registered)")
        // The in-process form plugin answers the page as before.
        try await host.waitFor(.controlAdded) { $0["control"]?["title"] == "Granted" }

        // The sandboxed probe cannot read the home, even though the host runs every other plugin in process.
        let mark = host.events.count
        let page = server.url + "sandbox-probe.html?file=\(secret)&port=1&pid=\(host.pid)"
        try host.send(["command": "navigate", "url": page])
        let reply = try await host.waitFor(.bridgeSent, after: mark, timeout: 30) {
            $0["message"]?["component"] == "probe"
        }
        let read = reply["message"]?["data"]?["read"]?.stringValue ?? "?"
        #expect(read.hasPrefix("denied: No such file"), "the probe ran in the sandbox: \(reply)")
        #expect(host.standardError.contains(line), "\(host.standardError)")
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
        server.stop()
    }
}
