import Foundation
import StradaAutomation
import StradaCore
import TestSupport
import Testing

/// The packaged host, unpacked into a scratch root, as an app's CI and its users meet it: the app's own
/// plugins folder first, then the package's first-party plugins (its system folder, found beside the binary),
/// in `plugin list` as in a run; and docs/testing-in-ci.md's job run against it.
@Suite(.serialized, .oneAtATime, .temporaryDirectories)
struct PackagedRecipeTests {
    /// An app's own plugin in C (the hot-reload fixture) serving `component`, its button titled `title`.
    static func appPlugin(component: String, title: String, in folder: String) throws -> String {
        let source = try String(
            contentsOfFile: Repository.path("Tests/EndToEndTests/Fixtures/hot-plugin.c"), encoding: .utf8)
        let renamed = source.replacingOccurrences(
            of: #"static const char *names[] = {"hot"};"#, with: #"static const char *names[] = {"\#(component)"};"#)
        let path = (folder as NSString).appendingPathComponent("lib\(component)-app.so")
        try CCompiler.sharedLibrary(
            "#define VERSION \"\(title)\"\n" + CCompiler.fixturePluginSupport + renamed, at: path)
        return path
    }

    /// A fresh home: no user plugins folder, nothing cached.
    static func freshHome() throws -> [String: String] {
        let home = try TemporaryDirectory.make("home")
        return ["HOME": home, "XDG_DATA_HOME": home + "/data", "XDG_CACHE_HOME": home + "/cache"]
    }

    @Test func pluginListAndARunSearchTheAppsFolderThenTheFirstPartyPlugins() async throws {
        let (_, root) = try await PackageTests.unpacked()
        let host = root + "/usr/bin/strada-host"
        let system = root + "/usr/lib/strada/plugins"
        let app = try TemporaryDirectory.make("app-plugins")
        let mine = try Self.appPlugin(component: "form", title: "Mine", in: app)
        let home = try Self.freshHome()

        let listed = try await ProcessRunner.check(host, ["plugin", "list", "--plugins", app], environment: home)
        let rows = listed.split(separator: "\n").map(String.init)
        #expect(rows.dropFirst().first?.hasSuffix(mine) == true, "\(listed)")
        #expect(rows.filter { $0.hasSuffix(".so") && $0.contains(system + "/libStrada") }.count == 10, "\(listed)")
        #expect(
            rows.contains(
                "\(system)/libStradaFormPlugin.so: component form is already provided by dev.test.hot, which wins"))
        #expect(rows.last == "searched in this order: \(app), then \(system)")

        let own = try await ProcessRunner.check(
            host, ["plugin", "list", "--plugins", app, "--no-system-plugins"], environment: home)
        #expect(own.contains(mine) && !own.contains(system + "/libStrada"), "\(own)")
        // The system folder is still named, with why it was not searched.
        #expect(own.contains("the system plugins folder \(system) is not searched"), "\(own)")

        // An app definition says the same with "plugins" and "system_plugins".
        func definition(_ extra: String) throws -> String {
            try TemporaryDirectory.file(
                named: "com.example.Mine.json",
                contents: #"{"id": "com.example.Mine", "name": "Mine", "start_url": "http://127.0.0.1:9/", "#
                    + #""plugins": ["\#(app)"]\#(extra)}"#)
        }
        let withSystem = try definition("")
        #expect(
            try await ProcessRunner.check(host, ["plugin", "list", "--app", withSystem], environment: home) == listed)
        let withoutSystem = try definition(#", "system_plugins": false"#)
        #expect(
            try await ProcessRunner.check(host, ["plugin", "list", "--app", withoutSystem], environment: home) == own)

        // A run: the app's "form" wins, every other first-party component is there, one line says so.
        let demo = try HostProcess(
            page: Repository.path("Examples/form-demo/index.html"), arguments: ["--plugins", app], environment: home,
            executable: host)
        let ready = try await demo.waitFor(.hostReady)
        let plugins = (ready["plugins"]?.arrayValue ?? []).compactMap { $0["path"]?.stringValue }
        #expect(plugins.first == mine && plugins.count == 11, "\(plugins)")
        let added = try await demo.waitFor(.controlAdded)
        #expect(added["control"]?["title"] == "Mine")
        try demo.send(["command": "quit"])
        #expect(try await demo.waitForExit() == 0)
        let warnings = demo.standardError.split(separator: "\n").filter {
            $0.contains(#"component "form" is provided by"#)
        }
        #expect(warnings.count == 1, "\(demo.standardError)")

        let alone = try HostProcess(
            page: Repository.path("Examples/form-demo/index.html"),
            arguments: ["--plugins", app, "--no-system-plugins"],
            environment: home, executable: host)
        let only = try await alone.waitFor(.hostReady)
        #expect(only["plugins"]?.arrayValue?.count == 1)
        try alone.send(["command": "quit"])
        #expect(try await alone.waitForExit() == 0)
    }

    /// docs/testing-in-ci.md's job, its essential command: the package installed (here unpacked, its
    /// `usr/bin` on PATH), the app's own plugins folder in STRADA_PLUGINS, the system tests under
    /// `xvfb-run -a -s "-screen 0 1280x800x24 -noreset"`. The Capybara test presses the native Save of the
    /// demo's form, which only the package's first-party plugins provide; nothing it started outlives it.
    @Test func theDocumentedCIJobPassesAgainstThePackagedHost() async throws {
        let (_, root) = try await PackageTests.unpacked()
        let app = try TemporaryDirectory.make("native-plugins")
        try Self.appPlugin(component: "hot", title: "Ours", in: app)
        let artifacts = try TemporaryDirectory.make("strada-artifacts")
        let mark = "recipe-\(UUID().uuidString)"
        var environment = try Self.freshHome()
        environment["PATH"] = root + "/usr/bin:" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        environment["STRADA_HOST"] = "strada-host"  // as when unset: the client runs the one on PATH
        // The package's WebDriver intermediary, not this repository's copy the Ruby client would find first.
        environment["STRADA_WEBDRIVER"] = root + "/usr/bin/strada-webdriver"
        environment["STRADA_PLUGINS"] = app
        environment["STRADA_ARTIFACTS"] = artifacts
        environment["STRADA_RECIPE_MARK"] = mark  // every process the job starts inherits it
        let job = try await ProcessRunner.run(
            "xvfb-run",
            [
                "-a", "-s", "-screen 0 1280x800x24 -noreset", "ruby", "-I", Repository.path("clients/ruby/lib"),
                Repository.path("clients/ruby/test/demo_test.rb"),
            ], environment: environment, streams: .merged, timeout: 240)
        #expect(job.succeeded, "\(job.stdout)")
        // Every test of the file ran (the native Save, trusted input, screenshots), none failed or was skipped.
        #expect(job.stdout.contains("3 runs") && job.stdout.contains("0 failures, 0 errors, 0 skips"), "\(job.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: artifacts).isEmpty)

        // The demo's app server, WebKitWebDriver and the host are gone with the job.
        var left: [String] = []
        for _ in 0..<30 {
            left = Self.processes(marked: mark)
            if left.isEmpty { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(left.isEmpty, "still running after the job: \(left)")
    }

    /// The command lines of running processes whose environment holds `STRADA_RECIPE_MARK=mark`.
    static func processes(marked mark: String) -> [String] {
        let needle = Data("STRADA_RECIPE_MARK=\(mark)".utf8)
        return ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry in
            guard Int32(entry) != nil, let environ = FileManager.default.contents(atPath: "/proc/\(entry)/environ"),
                environ.range(of: needle) != nil,
                let state = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                !state.contains(") Z ")
            else { return nil }
            let command = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") ?? Data()
            return String(decoding: command.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
        }
    }
}
