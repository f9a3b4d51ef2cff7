import Foundation
import StradaCore
import TestSupport
import Testing

/// `--sandbox` (and a plugin's `"isolation": "sandbox"`): a hostile plugin written by the test
/// (`Fixtures/sandbox-probe-plugin.c`) tries to read a file in the user's home, to connect to a TCP server on
/// the host's loopback and to signal the host. As a plain worker process it can do all three; in the sandbox
/// each is denied by the kernel, and granted `network` it connects (and still reads nothing of the home). It then
/// makes four calls the sandbox's seccomp filter denies (ptrace, unshare of a user namespace, keyctl, and the
/// terminal ioctl TIOCSTI): `EPERM` in the sandbox, and not `EPERM` as a plain worker, where no filter answers them.
/// Where the real bubblewrap refuses to make the sandbox, the plugin is one error line and the host goes on.
@Suite(.serialized, .oneAtATime, .temporaryDirectories, .timeLimit(.minutes(3)))
struct SandboxTests {
    struct Outcome: Equatable {
        var read: String
        var connect: String
        var signal: String
        /// What ptrace, unshare, keyctl and ioctl(TIOCSTI) got, by name.
        var calls: [String: String] = [:]
        /// Whether writing a file in /tmp succeeded, and whether the file was then in the host's /tmp.
        var tmp = "?"
        var tmpOnHost = false
    }

    /// What the probe reports for a call the seccomp filter denied.
    static let deniedByFilter = "denied: Operation not permitted"

    /// Runs the probe plugin in a host started with `arguments`; `manifest`, when given, is written beside it.
    static func probe(_ arguments: [String], manifest: String? = nil) async throws -> Outcome {
        let plugins = try PluginsDirectory.make(plugins: [])
        let source = try String(
            contentsOfFile: Repository.path("Tests/EndToEndTests/Fixtures/sandbox-probe-plugin.c"), encoding: .utf8)
        try CCompiler.sharedLibrary(
            CCompiler.fixturePluginSupport + source, at: (plugins as NSString).appendingPathComponent("libprobe.so"))
        if let manifest {
            try manifest.write(
                toFile: (plugins as NSString).appendingPathComponent("libprobe.json"), atomically: true,
                encoding: .utf8)
        }
        // The user's home, with a secret in it: the host's HOME for this run.
        let home = try TemporaryDirectory.make("home")
        let secret = (home as NSString).appendingPathComponent("secret.txt")
        try "do not read".write(toFile: secret, atomically: true, encoding: .utf8)
        let server = try await LocalHTTPServer.serving(directory: home)
        let port = URL(string: server.url)?.port ?? 0
        let page = "file://" + Repository.path("Tests/EndToEndTests/Fixtures/sandbox-probe.html")
        // The page learns the host's pid only once it runs: the host is started first, then navigated.
        let host = try HostProcess(
            page: page, arguments: ["--plugins", plugins] + arguments,
            environment: ["HOME": home, "XDG_DATA_HOME": (home as NSString).appendingPathComponent(".local/share")])
        try await host.waitFor(.hostReady, timeout: 60)
        let mark = host.events.count
        try host.send(["command": "navigate", "url": "\(page)?file=\(secret)&port=\(port)&pid=\(host.pid)"])
        let reply = try await host.waitFor(.bridgeSent, after: mark, timeout: 30)
        let data = reply["message"]?["data"] ?? [:]
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
        server.stop()
        let written = "/tmp/strada-sandbox-probe-\(port)"
        let tmpOnHost = FileManager.default.fileExists(atPath: written)
        try? FileManager.default.removeItem(atPath: written)
        return Outcome(
            read: data["read"]?.stringValue ?? "?", connect: data["connect"]?.stringValue ?? "?",
            signal: data["signal"]?.stringValue ?? "?",
            calls: ["ptrace", "unshare", "keyctl", "tiocsti"].reduce(into: [:]) {
                $0[$1] = data[$1]?.stringValue ?? "?"
            }, tmp: data["tmp"]?.stringValue ?? "?", tmpOnHost: tmpOnHost)
    }

    @Test func aPlainWorkerCanDoAllThree() async throws {
        let outcome = try await Self.probe(["--isolate"])
        #expect(
            [outcome.read, outcome.connect, outcome.signal] == ["ok", "ok", "ok"], "the probe works: \(outcome)")
        #expect(outcome.tmp == "ok" && outcome.tmpOnHost, "its /tmp is the host's: \(outcome)")
    }

    /// No filter answers a plain worker: whatever ptrace, unshare, keyctl and TIOCSTI get there, it is not the filter's
    /// `EPERM` (so the sandbox's answers below are the filter's).
    @Test func aPlainWorkerHasNoSeccompFilter() async throws {
        let outcome = try await Self.probe(["--isolate"])
        #expect(outcome.calls.count == 4 && !outcome.calls.values.contains("?"), "\(outcome)")
        for (call, result) in outcome.calls {
            #expect(result != Self.deniedByFilter, "\(call): \(outcome)")
        }
    }

    @Test func inTheSandboxTheSeccompFilterDeniesPtraceUnshareKeyctlAndTIOCSTI() async throws {
        let outcome = try await Self.probe(["--sandbox"])
        #expect(
            outcome.calls == [
                "ptrace": Self.deniedByFilter, "unshare": Self.deniedByFilter, "keyctl": Self.deniedByFilter,
                "tiocsti": Self.deniedByFilter,
            ],
            "\(outcome)")
    }

    @Test func inTheSandboxEachIsDenied() async throws {
        let outcome = try await Self.probe(["--sandbox"])
        #expect(outcome.read.hasPrefix("denied: No such file"), "the home is empty: \(outcome)")
        #expect(outcome.connect.hasPrefix("denied: "), "no network: \(outcome)")
        #expect(outcome.signal.hasPrefix("denied: No such process"), "the host is not visible: \(outcome)")
        // /tmp is writable, but a private tmpfs: the file is not in the host's /tmp, and goes with the worker.
        #expect(outcome.tmp == "ok" && !outcome.tmpOnHost, "a throwaway /tmp: \(outcome)")
    }

    @Test func grantedNetworkItConnectsAndStillCannotReadTheHome() async throws {
        let outcome = try await Self.probe(["--sandbox"], manifest: #"{"capabilities": ["network"]}"#)
        #expect(outcome.connect == "ok", "\(outcome)")
        #expect(outcome.read.hasPrefix("denied: "), "\(outcome)")
    }

    /// A plugin whose data folder is a link into the user's home, which the sandbox empties: the real bubblewrap
    /// cannot bind the folder and refuses (its own line, status 1) before any of the plugin's code runs. The user
    /// sees bwrap's line and one error line naming the plugin; the host keeps running, its other plugin (the form,
    /// in the sandbox too) serves, and quitting exits 0 — for a plugin started with the host (no manifest) and for
    /// one its manifest declares, whose worker starts when a page first uses it.
    @Test(arguments: [false, true])
    func aPluginWhoseBubblewrapRefusesIsOneErrorLineAndTheHostKeepsServing(declared: Bool) async throws {
        let plugins = try PluginsDirectory.make()
        let probe = (plugins as NSString).appendingPathComponent("libprobe.so")
        let source = try String(
            contentsOfFile: Repository.path("Tests/EndToEndTests/Fixtures/sandbox-probe-plugin.c"), encoding: .utf8)
        try CCompiler.sharedLibrary(CCompiler.fixturePluginSupport + source, at: probe)
        if declared {
            try #"{"id": "dev.test.probe", "components": ["probe"]}"#.write(
                toFile: (plugins as NSString).appendingPathComponent("libprobe.json"), atomically: true,
                encoding: .utf8)
        }
        // The data folders lie outside /tmp and the home, where the sandbox shows them as they are; the probe's is a
        // link to a folder in the home.
        let home = try TemporaryDirectory.make("home")
        let outside = "/var/tmp/strada-test-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: outside) }
        let dataFolders = (outside as NSString).appendingPathComponent("share/strada/plugin-data")
        try FileManager.default.createDirectory(atPath: dataFolders, withIntermediateDirectories: true)
        let inTheHome = (home as NSString).appendingPathComponent("probe-data")
        try FileManager.default.createDirectory(atPath: inTheHome, withIntermediateDirectories: true)
        let dataFolder = (dataFolders as NSString).appendingPathComponent("libprobe")
        try FileManager.default.createSymbolicLink(atPath: dataFolder, withDestinationPath: inTheHome)

        let host = try HostProcess(
            page: LazyLoadingTests.formPage, arguments: ["--plugins", plugins, "--sandbox"],
            environment: ["HOME": home, "XDG_DATA_HOME": (outside as NSString).appendingPathComponent("share")])
        try await host.waitFor(.hostReady, timeout: 60)
        var formShown = 0  // the events before the form page shown last
        if declared {
            // A page uses the probe: its worker starts now.
            let page = "file://" + Repository.path("Tests/EndToEndTests/Fixtures/sandbox-probe.html")
            try host.send(["command": "navigate", "url": page])
            try await host.waitFor(.pluginError)
            formShown = host.events.count
            try host.send(["command": "navigate", "url": LazyLoadingTests.formPage])
        }
        let line = """
            plugin \(probe): its worker process exited while loading it (status 1) — fix or remove the plugin; if \
            bwrap's line above refuses the sandbox, it cannot run there
            """
        let errors = host.events(named: .pluginError)
        #expect(errors.count == 1 && errors.first?["message"]?.stringValue == line, "\(errors)")

        // The other plugin serves.
        try await host.waitFor(.controlChanged, after: formShown) { $0["control"]?["enabled"] == true }
        try host.send(["command": "activate", "control": "form.submit"])
        try await host.waitFor(.pageTitle) { $0["title"] == "Submitted: Ada Lovelace" }
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)

        let lines = host.standardError.split(separator: "\n").map(String.init)
        let said = lines.indices.filter { lines[$0].hasSuffix(line) }
        #expect(said.count == 1, "one line: \(host.standardError)")
        let refused = lines.firstIndex { $0.hasPrefix("bwrap: ") && $0.contains(dataFolder) }
        #expect(refused != nil && refused! < said.first ?? 0, "bwrap's line, above: \(host.standardError)")
    }
}
