import Foundation
import StradaAutomation
import StradaCore
import TestSupport
import Testing

/// Native actions declared in a plugin's manifest, called by signature through libffi.
@Suite(.serialized, .oneAtATime, .temporaryDirectories)
struct PluginActionTests {
    static func pluginsWithActions() throws -> String {
        let plugins = try PluginsDirectory.make(plugins: [])
        let source = try String(
            contentsOfFile: Repository.path("Tests/EndToEndTests/Fixtures/actions-plugin.c"), encoding: .utf8)
        try CCompiler.sharedLibrary(source, at: (plugins as NSString).appendingPathComponent("libactions.so"))
        try FileManager.default.copyItem(
            atPath: Repository.path("Tests/EndToEndTests/Fixtures/actions-plugin.json"),
            toPath: (plugins as NSString).appendingPathComponent("libactions.json"))
        return plugins
    }

    @Test func theCommandLineCallsActionsBySignature() throws {
        let plugins = try Self.pluginsWithActions()
        let file = (plugins as NSString).appendingPathComponent("libactions.so")
        try CLISnapshot.check(
            "plugin-call-add", ["plugin", "call", file, "add", "2", "40"], replacing: [plugins: "$PLUGINS"])
        try CLISnapshot.check(
            "plugin-call-scale", ["plugin", "call", file, "scale", "1.5", "4"], replacing: [plugins: "$PLUGINS"])
        try CLISnapshot.check(
            "plugin-call-greet", ["plugin", "call", file, "greet", "Ada"], replacing: [plugins: "$PLUGINS"])
        try CLISnapshot.check(
            "plugin-call-unknown", ["plugin", "call", file, "nope"], replacing: [plugins: "$PLUGINS"])
        try CLISnapshot.check(
            "plugin-call-bad-argument", ["plugin", "call", file, "add", "two", "3"], replacing: [plugins: "$PLUGINS"])
    }

    @Test func theAutomationChannelCallsActionsOfALoadedPlugin() async throws {
        let host = try HostProcess(
            page: Repository.path("Tests/EndToEndTests/Fixtures/user-agent-stay.html"),
            arguments: ["--plugins", try Self.pluginsWithActions()])
        try await host.waitFor(.pageFinished)
        try host.send(["command": "call", "plugin": "dev.test.actions", "action": "greet"])
        let wrongArity = try await host.waitFor(.commandError)
        #expect(wrongArity["error"] == "action greet takes 1 argument(s), got 0")
        let line = #"{"command":"call","plugin":"dev.test.actions","action":"add","args":[20,22]}"#
        try host.sendLine(line)
        let ok = try await host.waitFor(.commandOK) { $0["command"] == "call" }
        #expect(ok["result"] == 42)
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }
}
