import Foundation
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

        let ready = try await host.waitFor("host.ready")
        #expect(ready["components"] as? [String] == ["form"])

        // The page's connect reaches the plugin, which shows the header-bar button with the page's title.
        let connect = try await host.waitFor("bridge.received") {
            ($0["message"] as? [String: Any])?["event"] as? String == "connect"
        }
        let connectData = (connect["message"] as? [String: Any])?["data"] as? [String: Any]
        #expect(connectData?["submitTitle"] as? String == "Send")
        let added = try await host.waitFor("control.added")
        let control = try #require(added["control"] as? [String: Any])
        #expect(control["id"] as? String == "form.submit")
        #expect(control["title"] as? String == "Send")
        #expect(control["placement"] as? String == "end")
        #expect(control["enabled"] as? Bool == true)

        // Pressing it replies to connect; the page's callback submits; the next page reports what it received.
        try await host.waitFor("page.finished")
        // The start-up timeline: the start page's load starts before the window is shown, its first frame
        // comes last (no times asserted, only the order the host passes its phases in).
        let startup = try await host.waitFor("host.startup")
        let phases = try #require(startup["phases"] as? [String: Double])
        let order = ["display", "plugins", "webView", "window", "load", "mapped", "firstFrame"]
        let times = order.compactMap { phases[$0] }
        #expect(times.count == order.count, "phases reported: \(phases.keys.sorted())")
        #expect(times == times.sorted(), "phases out of order: \(phases)")
        try host.send(["command": "activate", "control": "form.submit"])
        try await host.waitFor("command.ok") { $0["command"] as? String == "activate" }
        let reply = try await host.waitFor("bridge.sent")
        #expect(
            (reply["message"] as? [String: Any])?["id"] as? String
                == connect["message"].flatMap { ($0 as? [String: Any])?["id"] as? String })
        try await host.waitFor("control.removed") { $0["id"] as? String == "form.submit" }
        try await host.waitFor("page.committed") {
            ($0["url"] as? String)?.contains("submitted.html?name=Ada+Lovelace") == true
        }
        try await host.waitFor("page.title") { $0["title"] as? String == "Submitted: Ada Lovelace" }

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
        let ready = try await host.waitFor("host.ready")
        #expect(ready["components"] as? [String] == ["form"])
        let errors = host.events.filter { $0["event"] as? String == "plugin.error" }.compactMap {
            $0["message"] as? String
        }
        #expect(
            errors == [
                "plugin \(plain): no strada_plugin_entry_v1 symbol, so it is not a Strada plugin — export it with "
                    + "the SDK (StradaPlugin.export / STRADA_PLUGIN_ENTRY_V1_DEFINE), or remove the file",
                "plugin \(notes): not a shared library (no ELF header) — remove it from the plugins directory",
            ])
        // Each refusal is one log line on stderr too.
        for error in errors { #expect(host.standardError.contains(error)) }

        try await host.waitFor("control.added") { ($0["control"] as? [String: Any])?["id"] as? String == "form.submit" }
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }

    @Test func activatingAControlThatDoesNotExistIsAnErrorNotACrash() async throws {
        let host = try HostProcess(page: Self.demoPage, arguments: ["--plugins", try PluginsDirectory.make()])
        try await host.waitFor("control.added")
        try host.send(["command": "activate", "control": "nope.button"])
        let error = try await host.waitFor("command.error")
        #expect(error["error"] as? String == "no native control with id \"nope.button\"")
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
        let title = try await host.waitFor("page.title") { ($0["title"] as? String)?.hasPrefix("UA ") == true }
        let userAgent = try #require(title["title"] as? String)
        #expect(
            userAgent.contains("StradaLinux/1.0 (Hotwire Native Linux; Turbo Native Linux; bridge-components: [form])"))
        try await host.waitFor("page.closed")
        #expect(try await host.waitForExit() == 0)
    }

    @Test("B1 one adapter and one message channel per page load")
    func eachPageLoadInstallsOneAdapterAndOneChannel() async throws {
        let host = try HostProcess(
            page: FormRoundTripTests.demoPage, arguments: ["--plugins", try PluginsDirectory.make()])
        try await host.waitFor("page.finished")
        try host.send(["command": "reload"])
        try await host.waitFor("page.committed") { _ in
            host.events.filter { $0["event"] as? String == "page.committed" }.count == 2
        }
        try await host.waitFor("control.added") { _ in
            host.events.filter { $0["event"] as? String == "control.added" }.count == 2
        }
        // Two loads: exactly two "ready" handshakes and two registrations, never a duplicate.
        #expect(host.events.filter { $0["event"] as? String == "bridge.ready" }.count == 2)
        #expect(host.events.filter { $0["event"] as? String == "bridge.registered" }.count == 2)
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }

    @Test func whenTheWebProcessDiesThePageIsReloadedAndAfterThreeDeathsTheHostGivesUp() async throws {
        let host = try HostProcess(
            page: FormRoundTripTests.demoPage, arguments: ["--plugins", try PluginsDirectory.make()])
        try await host.waitFor("control.added")
        let webProcesses = host.descendants(named: "WebKitWebProces")
        try #require(!webProcesses.isEmpty, "no WebKitWebProcess under the host")
        for pid in webProcesses { kill(pid, SIGKILL) }
        try await host.waitFor("page.crashed")
        // Reloaded in a new web process: a second commit, and the native button comes back.
        try await host.waitFor("page.committed") { _ in
            host.events.filter { $0["event"] as? String == "page.committed" }.count == 2
        }
        try await host.waitFor("control.added") { _ in
            host.events.filter { $0["event"] as? String == "control.added" }.count == 2
        }
        // Two more deaths within 30 s: the host gives up with status 3 instead of reloading forever.
        for crashes in 2...3 {
            for pid in host.descendants(named: "WebKitWebProces") { kill(pid, SIGKILL) }
            try await host.waitFor("page.crashed") { _ in
                host.events.filter { $0["event"] as? String == "page.crashed" }.count == crashes
            }
            if crashes == 2 {
                try await host.waitFor("page.committed") { _ in
                    host.events.filter { $0["event"] as? String == "page.committed" }.count == 3
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
        try await host.waitFor("page.title") { $0["title"] as? String == "GTK says Handles / web view true" }
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }

    @Test func withoutPluginsTheUserAgentAnnouncesAnEmptyList() async throws {
        let host = try HostProcess(
            page: Repository.path("Tests/EndToEndTests/Fixtures/user-agent.html"),
            arguments: ["--plugins", try PluginsDirectory.make(plugins: [])])
        let title = try await host.waitFor("page.title") { ($0["title"] as? String)?.hasPrefix("UA ") == true }
        #expect((title["title"] as? String)?.contains("bridge-components: []") == true)
        #expect(try await host.waitForExit() == 0)
    }
}

@Suite(.serialized, .oneAtATime, .temporaryDirectories)
struct CodecConfigurationEndToEndTests {
    @Test func theHostsSnakeCaseSettingGovernsDecodingInsideThePlugin() async throws {
        let host = try HostProcess(
            page: Repository.path("Tests/EndToEndTests/Fixtures/snake-case.html"),
            arguments: ["--plugins", try PluginsDirectory.make(), "--keys", "snakeCase"])
        let added = try await host.waitFor("control.added")
        #expect((added["control"] as? [String: Any])?["title"] as? String == "Snake Go")
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }

    @Test func underIsolationTheHostsSnakeCaseSettingReachesThePluginsWorker() async throws {
        let host = try HostProcess(
            page: Repository.path("Tests/EndToEndTests/Fixtures/snake-case.html"),
            arguments: ["--plugins", try PluginsDirectory.make(), "--keys", "snakeCase", "--isolate"])
        let added = try await host.waitFor("control.added")
        #expect((added["control"] as? [String: Any])?["title"] as? String == "Snake Go")
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }

    @Test func withDefaultKeysTheSnakeCaseFieldIsNotUnderstood() async throws {
        let host = try HostProcess(
            page: Repository.path("Tests/EndToEndTests/Fixtures/snake-case.html"),
            arguments: ["--plugins", try PluginsDirectory.make()])
        let added = try await host.waitFor("control.added")
        #expect((added["control"] as? [String: Any])?["title"] as? String == "Submit")
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
        try await host.waitFor("control.changed") { ($0["control"] as? [String: Any])?["enabled"] as? Bool == false }
        try host.send(["command": "activate", "control": "form.submit"])
        let refused = try await host.waitFor("command.error")
        #expect(refused["error"] as? String == "native control \"form.submit\" is disabled")

        try await host.waitFor("control.changed") { ($0["control"] as? [String: Any])?["enabled"] as? Bool == true }
        try host.send(["command": "activate", "control": "form.submit"])
        try await host.waitFor("page.title") { $0["title"] as? String == "replied" }
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }
}
