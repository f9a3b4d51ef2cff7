import Foundation
import StradaAutomation
import StradaCore
import TestSupport
import Testing

/// Testing an app in CI: the automation channel on a Unix socket (the same JSON lines as `--automation`),
/// and the host driven by WebKit's own WebDriver server (`WebKitWebDriver`, Debian webkit2gtk-driver) —
/// the page through WebDriver, the native controls through the socket, in one session.
@Suite(.serialized, .oneAtATime, .temporaryDirectories)
struct WebDriverTests {
    @Test func theAutomationChannelOnASocketGreetsEachClientAndCarriesOutItsCommands() async throws {
        let folder = try TemporaryDirectory.make("socket")
        let path = folder + "/automation.sock"
        let host = try HostProcess(
            page: Repository.path("Examples/form-demo/index.html"),
            arguments: ["--plugins", try PluginsDirectory.make(), "--automation-socket", path])
        try await host.waitFor(.controlAdded)
        let client = try AutomationSocketClient(path: path)
        // A client connecting late gets host.ready first.
        let ready = try client.read(until: .hostReady)
        #expect(ready["components"] == ["form"])
        try client.send(["command": "controls"])
        let controls = try client.read(until: .controls)
        #expect((controls["controls"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue } == ["form.submit"])
        // Only the socket's client is told about its malformed line.
        try client.send(["nonsense": true])
        let refused = try client.read(until: .commandError)
        #expect(refused["error"]?.stringValue?.contains("\"command\"") == true)
        try client.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
        #expect(!FileManager.default.fileExists(atPath: path), "the socket file is removed at exit")
    }

    @Test func aFileThatIsNotASocketIsNeverReplaced() async throws {
        let path = try TemporaryDirectory.make("socket") + "/not-a-socket"
        try "keep me".write(toFile: path, atomically: true, encoding: .utf8)
        let output = try await ProcessRunner.run(
            BuiltProducts.path("strada-host"),
            ["run", Repository.path("Examples/form-demo/index.html"), "--ephemeral", "--automation-socket", path])
        #expect(output.status != 0)
        #expect(output.stderr.contains("\(path): a file that is not a socket is there"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me")
    }

    /// WebKitWebDriver starts the host (`webkitgtk:browserOptions`), opens a session, navigates, finds
    /// elements and runs script in the page — while the socket sees the page's bridge and native controls.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/WebKitWebDriver")))
    func webKitWebDriverDrivesThePageWhileTheSocketDrivesTheNativeControls() async throws {
        let server = try await LocalHTTPServer.running(
            script: Repository.path("Examples/demo/server.py"), arguments: ["--port", "0"])
        defer { server.stop() }
        let folder = try TemporaryDirectory.make("webdriver")
        let socketPath = folder + "/automation.sock"
        let port = 4444 + Int(getpid() % 1000)
        let driver = Process()
        driver.executableURL = URL(fileURLWithPath: "/usr/bin/WebKitWebDriver")
        driver.arguments = ["--port=\(port)"]
        driver.standardOutput = FileHandle.nullDevice
        driver.standardError = FileHandle.nullDevice
        try driver.run()
        defer { kill(driver.processIdentifier, SIGKILL) }  // SIGTERM may be blocked in a test runner's thread
        let base = "http://127.0.0.1:\(port)"

        /// One WebDriver call (curl: the W3C protocol is JSON over HTTP); retried while the driver starts.
        func call(_ method: String, _ path: String, _ body: [String: Any]? = nil) async throws -> [String: Any] {
            var arguments = ["-s", "-X", method, base + path]
            if let body {
                arguments += ["-H", "Content-Type: application/json"]
                arguments += ["-d", String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)]
            }
            for _ in 0..<50 {
                let output = try await ProcessRunner.run("/usr/bin/curl", arguments, timeout: 60)
                if output.status == 0, let value = try? JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) {
                    return value as? [String: Any] ?? [:]
                }
                try await Task.sleep(for: .milliseconds(100))  // the driver is still starting
            }
            return [:]
        }

        let plugins = try PluginsDirectory.make(plugins: ["libStradaFormPlugin.so"])
        let created = try await call(
            "POST", "/session",
            [
                "capabilities": [
                    "alwaysMatch": [
                        "browserName": "strada-host",
                        "webkitgtk:browserOptions": [
                            "binary": BuiltProducts.path("strada-host"),
                            "args": [
                                "run", "--webdriver", "--ephemeral", "--plugins", plugins, "--automation-socket",
                                socketPath, "--allow-origin", server.url, "--log-file", folder + "/host.log",
                            ],
                        ],
                    ]
                ]
            ])
        let session = try #require((created["value"] as? [String: Any])?["sessionId"] as? String, "\(created)")
        let client = try AutomationSocketClient(path: socketPath)
        let started = try client.read(until: .webDriverStarted)
        #expect(started["session"]?.stringValue?.isEmpty == false)

        _ = try await call("POST", "/session/\(session)/url", ["url": server.url + "form"])
        // The window started on about:blank; the first page the driver visits replaces it as the root screen.
        let root = try client.read(until: .screenReplaced)
        #expect(root["url"] == .string(server.url + "form") && root["depth"] == 1, "\(root)")
        let title = try await call("GET", "/session/\(session)/title")
        #expect(title["value"] as? String == "Form · Strada demo")
        let found = try await call(
            "POST", "/session/\(session)/element", ["using": "css selector", "value": "textarea"])
        #expect((found["value"] as? [String: Any])?.isEmpty == false)
        let script = try await call(
            "POST", "/session/\(session)/execute/sync",
            ["script": "return document.documentElement.dataset.bridgeComponents", "args": []])
        #expect(script["value"] as? String == "form")
        // The same page's native Save button, pressed through the socket, submits the form.
        let control = try client.read(until: .controlAdded)
        #expect(control["control"]?["id"] == "form.submit")
        try client.send(["command": "activate", "control": "form.submit"])
        try client.read(until: .commandOK)
        var url = ""
        for _ in 0..<100 where !url.contains("/form/sent") {
            url = try await call("GET", "/session/\(session)/url")["value"] as? String ?? ""
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(url.hasPrefix(server.url + "form/sent?id="))
        // The answer's screen: WebDriver can report its URL before the host has pushed it (Back waits for it).
        let pushed = try client.read(until: .screenPushed)
        #expect(pushed["depth"] == 2, "\(pushed)")
        // Native Back returns to the form, and no further: never to the blank page the window started on.
        try client.send(["command": "back"])
        try client.read(until: .commandOK)
        let popped = try client.read(until: .screenPopped)
        #expect(popped["url"] == .string(server.url + "form") && popped["depth"] == 1, "\(popped)")
        try client.send(["command": "back"])
        #expect(try client.read(until: .commandError)["error"] == "there is no screen to go back to")
        _ = try await call("DELETE", "/session/\(session)")
        #expect(try String(contentsOfFile: folder + "/host.log", encoding: .utf8).contains("WebDriver session"))
    }
}
