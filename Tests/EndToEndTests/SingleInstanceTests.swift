import Foundation
import StradaAutomation
import StradaCore
import TestSupport
import Testing

/// One instance per app on the session bus, and the window's size kept between runs.
@Suite(.serialized, .oneAtATime, .temporaryDirectories)
struct SingleInstanceTests {
    /// A private session bus for one test (the session bus's rules), stopped when the test ends; its socket is
    /// in the test's temporary folder (a killed daemon leaves it behind).
    final class SessionBus {
        let address: String
        private let daemon: Process

        init() async throws {
            // The daemon runs in the foreground and prints its address first.
            let folder = try TemporaryDirectory.make("bus")
            // The session bus's rules without its service folders: nothing is started on demand. On the standard
            // session bus, WebKit's request for the accessibility bus starts at-spi-bus-launcher and its own
            // dbus-daemon, which outlive this bus (left to init, still running after the test).
            let configuration = (folder as NSString).appendingPathComponent("session.conf")
            try """
            <busconfig>
              <type>session</type>
              <listen>unix:dir=\(folder)</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """.write(toFile: configuration, atomically: true, encoding: .utf8)
            (daemon, address) = try await ProcessRunner.startReadingFirstLine(
                "/usr/bin/dbus-daemon", ["--config-file=\(configuration)", "--nofork", "--print-address=1"], in: folder,
                timeout: 10)
        }

        // SIGKILL: a daemon started from a test-runner thread may have inherited a blocked SIGTERM.
        deinit { if daemon.isRunning { kill(daemon.processIdentifier, SIGKILL) } }
    }

    static func home(bus: SessionBus? = nil) throws -> [String: String] {
        let home = try TemporaryDirectory.make("home")
        var environment = [
            "HOME": home, "XDG_DATA_HOME": home + "/data", "XDG_CACHE_HOME": home + "/cache",
            "XDG_STATE_HOME": home + "/state",
        ]
        if let bus {
            environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
            // The bus has no accessibility bus to start: GTK would warn that it cannot reach it.
            environment["GTK_A11Y"] = "none"
        }
        return environment
    }

    static let first = URL(fileURLWithPath: Repository.path("Examples/form-demo/index.html")).absoluteString
    static let second = URL(fileURLWithPath: Repository.path("Tests/EndToEndTests/Fixtures/faulty.html"))
        .absoluteString

    @Test func aSecondLaunchWithAURLMakesTheFirstWindowVisitItAndExitsZero() async throws {
        let bus = try await SessionBus()
        let environment = try Self.home(bus: bus)
        let app = ["--app-id", "com.example.Single"]
        let running = try HostProcess(page: Self.first, arguments: app, environment: environment, ephemeral: false)
        try await running.waitFor(.pageCommitted) { $0["url"]?.stringValue == Self.first }

        let later = try HostProcess(page: Self.second, arguments: app, environment: environment, ephemeral: false)
        #expect(try await later.waitForExit() == 0, "stderr: \(later.standardError)")
        #expect(later.events(named: .hostReady).isEmpty, "the later launch opened a window")
        try await running.waitFor(.pageCommitted) { $0["url"]?.stringValue == Self.second }

        // --ephemeral runs (kiosks, tests) stand alone: this one opens its own window.
        let standalone = try HostProcess(page: Self.second, arguments: app, environment: environment)
        try await standalone.waitFor(.hostReady)
        for host in [standalone, running] {
            try host.send(["command": "quit"])
            #expect(try await host.waitForExit() == 0)
        }
        // The bus starts nothing on demand: no at-spi bus, which would outlive the test.
        let activatable = try await ProcessRunner.run(
            "/usr/bin/dbus-send",
            [
                "--bus=\(bus.address)", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                "org.freedesktop.DBus.ListActivatableNames",
            ])
        #expect(activatable.status == 0 && !activatable.stdout.contains("org.a11y.Bus"), "\(activatable)")
    }

    /// Waits for the page to load, quits, expects exit 0 and exactly one stderr line containing `text`; returns it.
    static func quitAfterLoading(_ host: HostProcess, linesContaining text: String) async throws -> [Substring] {
        try await host.waitFor(.pageFinished)
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0, "stderr: \(host.standardError)")
        let lines = host.standardError.split(separator: "\n").filter { $0.contains(text) }
        #expect(lines.count == 1, "stderr: \(host.standardError)")
        return lines
    }

    /// A bus address left from a session that is gone: WebKit's sandbox cannot proxy a socket that is not there
    /// (it used to end the host, SIGTRAP). The host drops the address with one warning and starts, on its own.
    @Test func aBusAddressWhoseSocketIsGoneIsDroppedWithOneWarning() async throws {
        let gone = try TemporaryDirectory.make("bus") + "/gone/bus"
        var environment = try Self.home()
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(gone),guid=0123456789abcdef"
        let host = try HostProcess(
            page: Self.first, arguments: ["--app-id", "com.example.Stale"], environment: environment,
            ephemeral: false)
        try await host.waitFor(.hostReady)
        // The page loaded: the web process (the one WebKit's sandbox would proxy the bus into) runs.
        let warnings = try await Self.quitAfterLoading(host, linesContaining: "DBUS_SESSION_BUS_ADDRESS")
        #expect(warnings.first?.contains("names unix:path=\(gone), which does not exist") == true)
    }

    @Test func aRuntimeFolderTooLongForWebKitsSocketsIsReplacedWithOneLine() async throws {
        // 120 bytes: WebKit's proxy socket paths would be cut at 107 and its sandbox would end the host.
        let long = try TemporaryDirectory.make("runtime")
        let folder = long + "/" + String(repeating: "r", count: max(1, 119 - long.utf8.count))
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let bus = try await SessionBus()
        var environment = try Self.home(bus: bus)
        environment["XDG_RUNTIME_DIR"] = folder
        let host = try HostProcess(page: Self.first, arguments: [], environment: environment)
        let lines = try await Self.quitAfterLoading(host, linesContaining: "too long for WebKit's sandbox")
        #expect(lines.first?.contains("the runtime folder \(folder) is \(folder.utf8.count) bytes long") == true)
    }

    /// The width and height of a PNG file (its IHDR chunk).
    static func pictureSize(_ path: String) throws -> (Int, Int) {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        try #require(bytes.count > 24)
        func number(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (number(16), number(20))
    }

    @Test func theWindowSizeIsKeptForTheNextRun() async throws {
        let environment = try Self.home()
        let app = ["--app-id", "com.example.Sized"]
        let state = environment["XDG_STATE_HOME"]! + "/com.example.Sized/window.json"

        var host = try HostProcess(page: Self.first, arguments: app, environment: environment, ephemeral: false)
        try await host.waitFor(.pageFinished)
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
        let fields = try #require(try JSON(parsing: String(contentsOfFile: state, encoding: .utf8)).objectValue)
        #expect(fields["width"] == 960 && fields["height"] == 640)
        #expect(fields["maximized"] == false)

        // As if the user had resized it to 720 × 520 last time.
        try #"{"width": 720, "height": 520, "maximized": false}"#.write(
            toFile: state, atomically: true, encoding: .utf8)
        host = try HostProcess(page: Self.first, arguments: app, environment: environment, ephemeral: false)
        try await host.waitFor(.pageFinished)
        let picture = (try TemporaryDirectory.make("shot") as NSString).appendingPathComponent("window.png")
        try host.send(["command": "screenshot", "path": picture])
        try await host.waitFor(.commandOK) { $0["command"] == "screenshot" }
        let restored = try Self.pictureSize(picture)
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)

        // Ephemeral runs neither read nor write it.
        host = try HostProcess(page: Self.first, arguments: app, environment: environment)
        try await host.waitFor(.pageFinished)
        try host.send(["command": "screenshot", "path": picture])
        try await host.waitFor(.commandOK) { $0["command"] == "screenshot" }
        // The picture includes the window's decorations: compare the two runs.
        let fresh = try Self.pictureSize(picture)
        #expect(fresh.0 - restored.0 == 960 - 720 && fresh.1 - restored.1 == 640 - 520)
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }
}
