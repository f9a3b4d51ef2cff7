import Foundation
import StradaAutomation
import StradaCore
import TestSupport
import Testing

/// Drives the real `strada-host` binary (WebKitGTK, the `form` plugin loaded from its own .so) through the
/// automation channel, with the example page from `Examples/form-demo`.
@Suite(.serialized, .oneAtATime, .temporaryDirectories)
struct FormRoundTripTests {
    static let demoPage = Repository.path("Examples/form-demo/index.html")

    @Test func theFormPluginsHeaderButtonSubmitsTheWebForm() async throws {
        let plugins = try PluginsDirectory.make()
        let host = try HostProcess(page: Self.demoPage, arguments: ["--plugins", plugins])

        let ready = try await host.waitFor(.hostReady)
        #expect(ready["components"] == ["form"])

        // The page's connect reaches the plugin, which shows the header-bar button with the page's title.
        let connect = try await host.waitFor(.bridgeReceived) { $0["message"]?["event"] == "connect" }
        let connectData = connect["message"]?["data"]
        #expect(connectData?["submitTitle"] == "Send")
        let added = try await host.waitFor(.controlAdded)
        let control = try #require(added["control"]?.objectValue)
        #expect(control["id"] == "form.submit")
        #expect(control["title"] == "Send")
        #expect(control["placement"] == "end")
        #expect(control["enabled"] == true)

        // Pressing it replies to connect; the page's callback submits; the next page reports what it received.
        try await host.waitFor(.pageFinished)
        // The start-up timeline: the start page's load starts before the window is shown, its first frame
        // comes last (no times asserted, only the order the host passes its phases in).
        let startup = try await host.waitFor(.hostStartup)
        let phases = try #require(startup["phases"]?.objectValue)
        let order = ["display", "plugins", "webView", "window", "load", "mapped", "firstFrame"]
        let times = order.compactMap { phases[$0]?.numberValue }
        #expect(times.count == order.count, "phases reported: \(phases.keys.sorted())")
        #expect(times == times.sorted(), "phases out of order: \(JSON.object(phases))")
        try host.send(["command": "activate", "control": "form.submit"])
        try await host.waitFor(.commandOK) { $0["command"] == "activate" }
        let reply = try await host.waitFor(.bridgeSent)
        let connectID = try #require(connect["message"]?["id"]?.stringValue, "the connect has an id")
        #expect(reply["message"]?["id"]?.stringValue == connectID)
        try await host.waitFor(.controlRemoved) { $0["id"] == "form.submit" }
        try await host.waitFor(.pageCommitted) {
            $0["url"]?.stringValue?.contains("submitted.html?name=Ada+Lovelace") == true
        }
        try await host.waitFor(.pageTitle) { $0["title"] == "Submitted: Ada Lovelace" }

        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }

    @Test func badFilesInThePluginsDirectoryGetOneLineEachAndFormStillWorks() async throws {
        let plugins = try PluginsDirectory.make()
        let notes = (plugins as NSString).appendingPathComponent("notes.txt")
        try "not a plugin".write(toFile: notes, atomically: true, encoding: .utf8)
        let plain = (plugins as NSString).appendingPathComponent("libplain.so")
        try CCompiler.sharedLibrary("int plain_function(void) { return 1; }\n", at: plain)

        let host = try HostProcess(page: Self.demoPage, arguments: ["--plugins", plugins])
        let ready = try await host.waitFor(.hostReady)
        #expect(ready["components"] == ["form"])
        let errors = host.events(named: .pluginError).compactMap { $0["message"]?.stringValue }
        #expect(
            errors == [
                "plugin \(plain): no strada_plugin_entry_v1 symbol, so it is not a Strada plugin — export it with "
                    + "the SDK (StradaPlugin.export / STRADA_PLUGIN_ENTRY_V1_DEFINE), or remove the file",
                "plugin \(notes): not a shared library (no ELF header) — remove it from the plugins directory",
            ])
        // Each refusal is one log line on stderr too.
        for error in errors { #expect(host.standardError.contains(error)) }

        try await host.waitFor(.controlAdded) { $0["control"]?["id"] == "form.submit" }
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }

    @Test func activatingAControlThatDoesNotExistIsAnErrorNotACrash() async throws {
        let host = try HostProcess(page: Self.demoPage, arguments: ["--plugins", try PluginsDirectory.make()])
        try await host.waitFor(.controlAdded)
        try host.send(["command": "activate", "control": "nope.button"])
        let error = try await host.waitFor(.commandError)
        #expect(error["error"] == "no native control with id \"nope.button\"")
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }
}

@Suite(.serialized, .oneAtATime, .temporaryDirectories)
struct HostLifecycleTests {
    @Test func thePageSeesTheLoadedComponentsInItsUserAgentAndWindowCloseExitsZero() async throws {
        let host = try HostProcess(
            page: Repository.path("Tests/EndToEndTests/Fixtures/user-agent.html"),
            arguments: ["--plugins", try PluginsDirectory.make()])
        let title = try await host.waitFor(.pageTitle) { $0["title"]?.stringValue?.hasPrefix("UA ") == true }
        let userAgent = try #require(title["title"]?.stringValue)
        #expect(
            userAgent.contains("StradaLinux/1.0 (Hotwire Native Linux; Turbo Native Linux; bridge-components: [form])"))
        try await host.waitFor(.pageClosed)
        #expect(try await host.waitForExit() == 0)
    }

    @Test("B1 one adapter and one message channel per page load")
    func eachPageLoadInstallsOneAdapterAndOneChannel() async throws {
        let host = try HostProcess(
            page: FormRoundTripTests.demoPage, arguments: ["--plugins", try PluginsDirectory.make()])
        try await host.waitFor(.pageFinished)
        try host.send(["command": "reload"])
        try await host.waitFor(.pageCommitted) { _ in
            host.events(named: .pageCommitted).count == 2
        }
        try await host.waitFor(.controlAdded) { _ in
            host.events(named: .controlAdded).count == 2
        }
        // Two loads: exactly two "ready" handshakes and two registrations, never a duplicate.
        #expect(host.events(named: .bridgeReady).count == 2)
        #expect(host.events(named: .bridgeRegistered).count == 2)
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }

    @Test func whenTheWebProcessDiesThePageIsReloadedAndAfterThreeDeathsTheHostGivesUp() async throws {
        let host = try HostProcess(
            page: FormRoundTripTests.demoPage, arguments: ["--plugins", try PluginsDirectory.make()])
        try await host.waitFor(.controlAdded)
        let webProcesses = host.descendants(named: "WebKitWebProces")
        try #require(!webProcesses.isEmpty, "no WebKitWebProcess under the host")
        for pid in webProcesses { kill(pid, SIGKILL) }
        try await host.waitFor(.pageCrashed)
        // Reloaded in a new web process: a second commit, and the native button comes back.
        try await host.waitFor(.pageCommitted) { _ in
            host.events(named: .pageCommitted).count == 2
        }
        try await host.waitFor(.controlAdded) { _ in
            host.events(named: .controlAdded).count == 2
        }
        // Two more deaths within 30 s: the host gives up with status 3 instead of reloading forever.
        for crashes in 2...3 {
            for pid in host.descendants(named: "WebKitWebProces") { kill(pid, SIGKILL) }
            try await host.waitFor(.pageCrashed) { _ in
                host.events(named: .pageCrashed).count == crashes
            }
            if crashes == 2 {
                try await host.waitFor(.pageCommitted) { _ in
                    host.events(named: .pageCommitted).count == 3
                }
            }
        }
        #expect(try await host.waitForExit() == 3)
    }

    @Test func pluginsCanReachTheRawGTKObjectsThroughAnExtension() async throws {
        let plugins = try PluginsDirectory.make(plugins: [])
        let source = try String(
            contentsOfFile: Repository.path("Tests/EndToEndTests/Fixtures/gtk-handles-plugin.c"), encoding: .utf8)
        try CCompiler.sharedLibrary(source, at: (plugins as NSString).appendingPathComponent("libgtk-handles.so"))
        let host = try HostProcess(
            page: Repository.path("Tests/EndToEndTests/Fixtures/gtk-handles.html"), arguments: ["--plugins", plugins])
        try await host.waitFor(.pageTitle) { $0["title"] == "GTK says Handles / web view true" }
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }

    @Test func withoutPluginsTheUserAgentAnnouncesAnEmptyList() async throws {
        let host = try HostProcess(
            page: Repository.path("Tests/EndToEndTests/Fixtures/user-agent.html"),
            arguments: ["--plugins", try PluginsDirectory.make(plugins: [])])
        let title = try await host.waitFor(.pageTitle) { $0["title"]?.stringValue?.hasPrefix("UA ") == true }
        #expect(title["title"]?.stringValue?.contains("bridge-components: []") == true)
        #expect(try await host.waitForExit() == 0)
    }
}

@Suite(.serialized, .oneAtATime, .temporaryDirectories)
struct CodecConfigurationEndToEndTests {
    @Test func theHostsSnakeCaseSettingGovernsDecodingInsideThePlugin() async throws {
        let host = try HostProcess(
            page: Repository.path("Tests/EndToEndTests/Fixtures/snake-case.html"),
            arguments: ["--plugins", try PluginsDirectory.make(), "--keys", "snakeCase"])
        let added = try await host.waitFor(.controlAdded)
        #expect(added["control"]?["title"] == "Snake Go")
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }

    @Test func underIsolationTheHostsSnakeCaseSettingReachesThePluginsWorker() async throws {
        let host = try HostProcess(
            page: Repository.path("Tests/EndToEndTests/Fixtures/snake-case.html"),
            arguments: ["--plugins", try PluginsDirectory.make(), "--keys", "snakeCase", "--isolate"])
        let added = try await host.waitFor(.controlAdded)
        #expect(added["control"]?["title"] == "Snake Go")
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }

    @Test func withDefaultKeysTheSnakeCaseFieldIsNotUnderstood() async throws {
        let host = try HostProcess(
            page: Repository.path("Tests/EndToEndTests/Fixtures/snake-case.html"),
            arguments: ["--plugins", try PluginsDirectory.make()])
        let added = try await host.waitFor(.controlAdded)
        #expect(added["control"]?["title"] == "Submit")
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }
}

@Suite(.serialized, .oneAtATime, .temporaryDirectories)
struct FormToggleTests {
    @Test func submitDisabledMakesTheNativeButtonInsensitiveUntilSubmitEnabled() async throws {
        let host = try HostProcess(
            page: Repository.path("Tests/EndToEndTests/Fixtures/toggle-submit.html"),
            arguments: ["--plugins", try PluginsDirectory.make()])
        try await host.waitFor(.controlChanged) { $0["control"]?["enabled"] == false }
        try host.send(["command": "activate", "control": "form.submit"])
        let refused = try await host.waitFor(.commandError)
        #expect(refused["error"] == "native control \"form.submit\" is disabled")

        try await host.waitFor(.controlChanged) { $0["control"]?["enabled"] == true }
        try host.send(["command": "activate", "control": "form.submit"])
        try await host.waitFor(.pageTitle) { $0["title"] == "replied" }
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }
}
