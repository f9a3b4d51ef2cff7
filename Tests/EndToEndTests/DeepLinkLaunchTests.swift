import Foundation
import StradaAutomation
import StradaCore
import TestSupport
import Testing

/// Deep links, as the desktop delivers them: `strada-host run --app def.json myapp://…` (the desktop entry's
/// `Exec` with the link for `%u`) starts the app at the link's page, or hands the link to the running instance,
/// which visits the page on its own origin — the end of a sign-in through the system browser included.
@Suite(.serialized, .oneAtATime, .temporaryDirectories)
struct DeepLinkLaunchTests {
    static let host = BuiltProducts.path("strada-host")

    /// The requests the recording server has seen, one `METHOD path` line each.
    static func requests(_ folder: String) -> [String] {
        ((try? String(contentsOfFile: folder + "/requests.log", encoding: .utf8)) ?? "")
            .split(separator: "\n").map(String.init)
    }

    @Test func aLinkStartsTheAppOrIsHandedToItsRunningInstance() async throws {
        let log = try TemporaryDirectory.make("log")
        let server = try await LocalHTTPServer.running(
            script: Repository.path("Tests/EndToEndTests/Fixtures/recording-server.py"), arguments: [log])
        defer { server.stop() }
        let file = try TemporaryDirectory.make("app") + "/links.json"
        try """
        {"id": "com.example.Links", "name": "Links", "start_url": "\(server.url)home", "plugins": [],
         "url_schemes": ["myapp"]}
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let bus = try await SingleInstanceTests.SessionBus()
        let environment = try SingleInstanceTests.home(bus: bus)

        // No instance yet: the link starts one, at the link's page on the start URL's origin.
        let running = try HostProcess(
            page: "myapp://welcome", arguments: ["--app", file], environment: environment, ephemeral: false)
        try await running.waitFor(.pageCommitted) { $0["url"]?.stringValue == server.url + "welcome" }

        // A second launch with a link hands it over and ends; the running instance visits its page.
        let later = try HostProcess(
            page: "myapp://posts/1?x=1", arguments: ["--app", file], environment: environment, ephemeral: false)
        #expect(try await later.waitForExit() == 0, "stderr: \(later.standardError)")
        #expect(later.events(named: .hostReady).isEmpty, "the later launch opened a window")
        try await running.waitFor(.pageCommitted) { $0["url"]?.stringValue == server.url + "posts/1?x=1" }
        #expect(Self.requests(log).contains("GET /posts/1?x=1"))

        // A scheme the app does not open: one line, nothing handed over.
        let refused = try await ProcessRunner.run(
            Self.host, ["run", "--app", file, "other://posts/2"], environment: environment)
        #expect(refused.status != 0)
        let lines = refused.stderr.split(separator: "\n")
        #expect(lines.count == 1, "stderr: \(refused.stderr)")
        #expect(
            lines.first?.contains("other://posts/2: the app does not open other-scheme links (it has myapp)") == true)
        // Without the definition a link cannot be mapped: one line too.
        let alone = try await ProcessRunner.run(Self.host, ["run", "myapp://posts/2"], environment: environment)
        #expect(alone.status != 0 && alone.stderr.split(separator: "\n").count == 1, "stderr: \(alone.stderr)")
        #expect(alone.stderr.contains("myapp://posts/2: a link in an app's own scheme opens with the app's definition"))

        // Sign-in through the system browser: the app's entry is installed; the browser follows the identity
        // provider's redirect to myapp://callback?code=…, which the desktop opens with the entry (gio open runs
        // its Exec line, strada-host from the PATH); the running instance visits /callback?code=… on its origin.
        var desktop = environment
        desktop["PATH"] =
            (Self.host as NSString).deletingLastPathComponent + ":"
            + (ProcessInfo.processInfo
                .environment["PATH"] ?? "/usr/bin:/bin")
        desktop["XDG_DATA_DIRS"] = "/usr/share"
        let installed = try await ProcessRunner.run(Self.host, ["app", "install", file], environment: desktop)
        #expect(installed.status == 0, "\(installed)")
        #expect(installed.stdout.contains("mimeinfo.cache"), "the desktop's index of MimeType keys is updated")
        let entry = desktop["XDG_DATA_HOME"]! + "/applications/com.example.Links.desktop"
        #expect(try String(contentsOfFile: entry, encoding: .utf8).contains("\nMimeType=x-scheme-handler/myapp;\n"))
        let validation = try await ProcessRunner.run("/usr/bin/desktop-file-validate", [entry])
        #expect(validation.status == 0, "\(validation.stdout)\(validation.stderr)")
        // The browser: curl shows the redirect's Location as the server sent it.
        let browser = try await ProcessRunner.run(
            "/usr/bin/curl", ["-s", "-o", "/dev/null", "-D", "-", server.url + "signin?to=myapp://callback"])
        let location = browser.stdout.split(separator: "\r\n").first { $0.lowercased().hasPrefix("location: ") }
            .map { String($0.dropFirst("location: ".count)) }
        #expect(location == "myapp://callback?code=s3cret", "\(browser)")
        let opened = try await ProcessRunner.run("/usr/bin/gio", ["open", location ?? ""], environment: desktop)
        #expect(opened.status == 0, "\(opened)")
        try await running.waitFor(.pageCommitted) { $0["url"]?.stringValue == server.url + "callback?code=s3cret" }
        #expect(Self.requests(log).contains("GET /callback?code=s3cret"))

        try running.send(["command": "quit"])
        #expect(try await running.waitForExit() == 0)
    }
}
