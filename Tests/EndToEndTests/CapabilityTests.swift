import Foundation
import StradaAutomation
import StradaCore
import TestSupport
import Testing

/// What a plugin may do, declared in its manifest and granted by the app definition (`"grants"`), held by the
/// real host: a host-API call outside the grant is refused with one line naming the plugin, the capability
/// and the fix, and the host and the other plugins keep going; a component granted to other origins only is
/// not announced to a page of this one (neither in its user agent nor to its bridge), and its messages are dropped
/// with the reason.
@Suite(.serialized, .oneAtATime, .temporaryDirectories, .timeLimit(.minutes(3)))
struct CapabilityTests {
    /// An app definition starting at `start`, with `plugins` (first-party, with their manifests) and `grants`.
    static func app(start: String, origins: [String], plugins: [String], grants: String) throws -> String {
        let folder = try PluginsDirectory.make(plugins: plugins.map { "libStrada\($0)Plugin.so" })
        let list = origins.map { "\"\($0)\"" }.joined(separator: ", ")
        let definition = """
            {"id": "dev.strada.GrantTest", "name": "Grant test", "start_url": "\(start)",
             "allowed_origins": [\(list)], "plugins": ["\(folder)"], "system_plugins": false,
             "grants": \(grants)}
            """
        let file = (try TemporaryDirectory.make("app") as NSString).appendingPathComponent("app.json")
        try definition.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test func aHostAPICallOutsideTheGrantIsRefusedWithOneLineAndOtherPluginsKeepWorking() async throws {
        let server = try await LocalHTTPServer.running(
            script: Repository.path("Examples/demo/server.py"), arguments: ["--port", "0"])
        // The form plugin declares "controls"; this app grants it nothing. The menu plugin keeps its own.
        let file = try Self.app(
            start: server.url + "form", origins: [], plugins: ["Form", "Menu"],
            grants: #"{"dev.strada.form": {"capabilities": []}}"#)
        let host = try HostProcess(app: file, arguments: [])
        try await host.waitFor(.bridgeReceived, timeout: 60) { event in
            event["message"]?["component"] == "form"
        }
        let line = "plugin dev.strada.form may not use controls (button submit refused): declare \"controls\""
        for _ in 0..<100 where !host.standardError.contains(line) { try await Task.sleep(for: .milliseconds(50)) }
        #expect(host.standardError.contains(line), "\(host.standardError)")
        #expect(host.standardError.components(separatedBy: line).count == 2, "one line per refused call")
        let controls = host.events(named: .controlAdded)
        #expect(controls.isEmpty, "no control from a plugin without the capability: \(controls)")
        // The host goes on: the menu plugin, granted what it declares, shows its menu.
        let mark = host.events.count
        try host.send(["command": "navigate", "url": server.url + "menu?open=1"])
        try await host.waitFor(.controlAdded, after: mark) { event in
            event["control"]?["id"] == "menu.menu"
        }
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }

    @Test func aComponentGrantedToAnotherOriginIsNotAnnouncedAndItsMessagesAreDroppedWithTheReason() async throws {
        let server = try await LocalHTTPServer.serving(directory: Repository.path("Tests/EndToEndTests/Fixtures"))
        let other = server.url.replacingOccurrences(of: "127.0.0.1", with: "localhost")
        let granted = String(other.dropLast())  // the origin, without the trailing slash
        let file = try Self.app(
            start: server.url + "grant-probe.html", origins: [granted], plugins: ["Form", "Button"],
            grants: #"{"dev.strada.form": {"origins": ["\#(granted)"]}}"#)
        let host = try HostProcess(app: file, arguments: [])
        // 127.0.0.1 is not granted the form component: it is not announced there, and its message is dropped.
        let registered = try await host.waitFor(.bridgeRegistered, timeout: 60)
        #expect(registered["components"] == ["button"], "\(registered)")
        let dropped = try await host.waitFor(.bridgeDropped) { event in
            event["message"]?["component"] == "form"
        }
        let reason = dropped["reason"]?.stringValue ?? ""
        #expect(reason.contains("component \"form\" of plugin dev.strada.form is not granted to http://127.0.0.1"))
        #expect(reason.contains("grant it in the app definition's \"grants\""), "\(reason)")
        #expect(host.events(named: .controlAdded).isEmpty)
        #expect(dropped["message"]?["data"]?["announced"] == "button", "user agent: \(dropped)")
        // Said once for the page, in one line, without --trace: when it was not announced, not again for the drop.
        let withheld =
            "not announced to \(server.url)grant-probe.html: component \"form\" of plugin dev.strada.form "
            + "is not granted to http://127.0.0.1"
        #expect(host.standardError.components(separatedBy: withheld).count - 1 == 1, "\(host.standardError)")
        // A page of the granted origin gets the component, and its message shows the native button.
        let mark = host.events.count
        try host.send(["command": "navigate", "url": other + "grant-probe.html"])
        let announced = try await host.waitFor(.bridgeRegistered, after: mark)
        #expect(
            Set(announced["components"]?.arrayValue?.compactMap(\.stringValue) ?? []) == ["button", "form"],
            "\(announced)")
        let received = try await host.waitFor(.bridgeReceived, after: mark) { event in
            event["message"]?["component"] == "form"
        }
        let userAgent = received["message"]?["data"]?["announced"]?.stringValue
        #expect(userAgent == "button form", "this origin's user agent names both: \(received)")
        let added = try await host.waitFor(.controlAdded, after: mark)
        #expect(added["control"]?["title"] == "Granted")
        #expect(!host.standardError.contains("not announced to \(other)"), "the granted origin's page: no line")
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }
}
