import Foundation
import StradaCore
import TestSupport
import Testing

/// The host as a desktop app: website data that lasts between runs of the same app.
@Suite(.serialized, .oneAtATime, .temporaryDirectories)
struct DesktopAppTests {
    /// A fresh home for the app's data and cache folders.
    static func home() throws -> [String: String] {
        let home = try TemporaryDirectory.make("home")
        return ["XDG_DATA_HOME": home + "/data", "XDG_CACHE_HOME": home + "/cache", "XDG_STATE_HOME": home + "/state"]
    }

    /// The title the session page shows in one run of the host.
    static func sessionTitle(
        _ server: LocalHTTPServer, _ environment: [String: String], ephemeral: Bool, id: String = "com.example.Notes"
    ) async throws -> String {
        let host = try HostProcess(
            page: server.url + "session", arguments: ["--plugins", try PluginsDirectory.make(), "--app-id", id],
            environment: environment, ephemeral: ephemeral)
        let title = try await host.waitFor(.pageTitle) { $0["title"]?.stringValue?.hasPrefix("session:") == true }
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
        return title["title"]?.stringValue ?? ""
    }

    @Test func aLoginSurvivesARestartUnlessEphemeral() async throws {
        let server = try await LocalHTTPServer.running(
            script: Repository.path("Examples/demo/server.py"), arguments: ["--port", "0"])
        defer { server.stop() }
        let environment = try Self.home()
        #expect(try await Self.sessionTitle(server, environment, ephemeral: false) == "session: new")
        let returning = try await Self.sessionTitle(server, environment, ephemeral: false)
        #expect(returning.hasPrefix("session: returning "))
        // The data is the app's own: another app id starts logged out, as does --ephemeral.
        #expect(
            try await Self.sessionTitle(server, environment, ephemeral: false, id: "com.example.Other")
                == "session: new")
        #expect(try await Self.sessionTitle(server, environment, ephemeral: true) == "session: new")
        let data = environment["XDG_DATA_HOME"]! + "/com.example.Notes"
        #expect(FileManager.default.fileExists(atPath: data + "/cookies.sqlite"))
    }

    // MARK: App definitions

    static let host = BuiltProducts.path("strada-host")

    @Test func aStarterDefinitionRunsAndFlagsOverrideIt() async throws {
        let server = try await LocalHTTPServer.running(
            script: Repository.path("Examples/demo/server.py"), arguments: ["--port", "0"])
        defer { server.stop() }
        let folder = try TemporaryDirectory.make("app")
        let file = folder + "/notes.json"
        let made = try await ProcessRunner.run(Self.host, ["app", "new", "com.example.Notes", "--output", file])
        #expect(made.status == 0 && made.stdout.contains("wrote \(file)"))
        // A second `new` does not overwrite it.
        #expect(
            try await ProcessRunner.run(Self.host, ["app", "new", "com.example.Notes", "--output", file]).status != 0)

        // Point it at the demo, with its plugins folder and path configuration next to it.
        var text = try String(contentsOfFile: file, encoding: .utf8)
        text = text.replacingOccurrences(of: "http://127.0.0.1:3000/", with: server.url + "button")
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let plugins = try PluginsDirectory.make(plugins: ["libStradaButtonPlugin.so"])
        try FileManager.default.createSymbolicLink(atPath: folder + "/plugins", withDestinationPath: plugins)
        try FileManager.default.copyItem(
            atPath: Repository.path("Examples/demo/path-configuration.json"),
            toPath: folder + "/path-configuration.json")

        // `run --app`: the page, plugins, user agent and path configuration come from the definition.
        var host = try HostProcess(app: file, arguments: [])
        let ready = try await host.waitFor(.hostReady)
        #expect(ready["userAgent"]?.stringValue?.contains("Notes/1.0 ") == true)
        #expect(ready["components"] == ["button"], "\(ready)")
        try await host.waitFor(.pageCommitted) { $0["url"]?.stringValue == server.url + "button" }
        let loaded = try await host.waitFor(.pathConfigurationLoaded)
        #expect(loaded["source"]?.stringValue == folder + "/path-configuration.json", "\(loaded)")
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)

        // Flags win: another page, another user-agent prefix.
        host = try HostProcess(app: file, arguments: [server.url + "menu", "--user-agent-prefix", "Override/9"])
        let overridden = try await host.waitFor(.hostReady)
        #expect(overridden["userAgent"]?.stringValue?.contains("Override/9 ") == true)
        try await host.waitFor(.pageCommitted) { $0["url"]?.stringValue == server.url + "menu" }
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }

    @Test func aMistakeInTheDefinitionIsOneLineAndNothingStarts() async throws {
        let file = try TemporaryDirectory.make("bad") + "/app.json"
        try #"{"id": "notes", "name": "Notes", "start_url": "https://a.example/"}"#.write(
            toFile: file, atomically: true, encoding: .utf8)
        let output = try await ProcessRunner.run(Self.host, ["run", "--app", file, "--automation"])
        #expect(output.status != 0)
        #expect(output.stderr.contains("\(file): \"id\" must be a reverse-DNS name like \"com.example.Notes\""))
        #expect(output.stdout.isEmpty)
    }

    @Test func installWritesAValidDesktopEntryAndIconAndUninstallRemovesThem() async throws {
        let home = try TemporaryDirectory.make("home")
        let folder = try TemporaryDirectory.make("app")
        try #"<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"/>"#.write(
            toFile: folder + "/notes.svg", atomically: true, encoding: .utf8)
        let file = folder + "/notes app.json"
        try """
        {"id": "com.example.Notes", "name": "Notes", "start_url": "https://notes.example.com/", "icon": "notes.svg",
         "categories": ["Office"], "keywords": ["notes", "memo"]}
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let environment = ["XDG_DATA_HOME": home]
        let installed = try await ProcessRunner.run(Self.host, ["app", "install", file], environment: environment)
        #expect(installed.status == 0)
        let entry = home + "/applications/com.example.Notes.desktop"
        let icon = home + "/icons/hicolor/scalable/apps/com.example.Notes.svg"
        #expect(FileManager.default.fileExists(atPath: entry) && FileManager.default.fileExists(atPath: icon))
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/desktop-file-validate") {
            let validation = try await ProcessRunner.run("/usr/bin/desktop-file-validate", [entry])
            #expect(validation.status == 0, "\(validation.stdout)\(validation.stderr)")
        } else {
            Issue.record("desktop-file-validate is missing: scripts/setup installs desktop-file-utils")
        }
        let text = try String(contentsOfFile: entry, encoding: .utf8)
        // The host on the PATH (a package's, whichever is installed), not the binary that wrote the entry.
        #expect(text.contains("Exec=strada-host run --app \"\(file)\" %u"))
        #expect(text.contains("Icon=com.example.Notes"))
        #expect(text.contains("Categories=Office;") && text.contains("Keywords=notes;memo;"))
        #expect(text.contains("StartupWMClass=com.example.Notes"))

        let removed = try await ProcessRunner.run(
            Self.host, ["app", "uninstall", "com.example.Notes"], environment: environment)
        #expect(removed.status == 0 && removed.stdout.contains("removed \(entry)"))
        #expect(!FileManager.default.fileExists(atPath: entry) && !FileManager.default.fileExists(atPath: icon))
    }

    // MARK: What browsers do

    @Test func aDownloadLandsInTheDownloadsFolder() async throws {
        let server = try await LocalHTTPServer.running(
            script: Repository.path("Examples/demo/server.py"), arguments: ["--port", "0"])
        defer { server.stop() }
        let home = try TemporaryDirectory.make("home")
        for round in 1...2 {
            let host = try HostProcess(
                page: server.url + "links?click=download", arguments: ["--plugins", try PluginsDirectory.make()],
                environment: ["HOME": home, "XDG_CONFIG_HOME": home + "/.config"])
            let finished = try await host.waitFor(.downloadFinished)
            // The second download of the same name does not overwrite the first.
            let expected = home + (round == 1 ? "/Downloads/notes.txt" : "/Downloads/notes (2).txt")
            #expect(finished["path"]?.stringValue == expected, "\(finished)")
            #expect(try String(contentsOfFile: expected, encoding: .utf8) == "Notes from the Strada demo.\n")
            try await host.waitFor(.toast) { $0["message"]?.stringValue?.hasPrefix("Downloaded notes") == true }
            try host.send(["command": "quit"])
            #expect(try await host.waitForExit() == 0)
        }
    }

    @Test func aPermissionIsAskedNativelyOnceAndRemembered() async throws {
        let server = try await LocalHTTPServer.running(
            script: Repository.path("Examples/demo/server.py"), arguments: ["--port", "0"])
        defer { server.stop() }
        let environment = try Self.home()
        func run(answer: String?) async throws -> (HostProcess, JSON) {
            // A page may ask only when the user acts: a real Enter (xdotool's XTEST) on the focused button.
            let host = try HostProcess(
                page: server.url + "links?focus=notify",
                arguments: ["--plugins", try PluginsDirectory.make(), "--app-id", "com.example.Links"],
                environment: environment, ephemeral: false)
            try await host.waitFor(.pageFinished)
            try await host.press("Return", inWindowTitled: "Links")
            if let answer {
                let asked = try await host.waitFor(.controlAdded) { $0["control"]?["id"] == "permission.notifications" }
                #expect(asked["control"]?["title"] == "Allow 127.0.0.1 to show notifications?")
                try host.send(["command": answer, "control": "permission.notifications"])
            }
            let answered = try await host.waitFor(.permissionAnswered)
            return (host, answered)
        }

        // First run: asked; the user allows; the page is told and its notification is shown.
        var (host, answered) = try await run(answer: "confirm")
        #expect(answered["allowed"] == true && answered["remembered"] == false)
        #expect(answered["kind"] == "notifications")
        try await host.waitFor(.pageTitle) { $0["title"] == "links: notifications granted" }
        let shown = try await host.waitFor(.notification)
        #expect(shown["title"] == "Links" && shown["body"] == "Notifications work")
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)

        // Next run of the same app: not asked again.
        (host, answered) = try await run(answer: nil)
        #expect(answered["allowed"] == true && answered["remembered"] == true)
        #expect(!host.events.contains { $0["control"]?["id"] == "permission.notifications" })
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }
}
