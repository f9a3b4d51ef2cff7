import Foundation
import TestSupport
import Testing

/// The host starts its isolation workers (plain and sandboxed) and its probe children as the helper
/// `strada-plugin-worker` built beside it, not as itself: a process that never maps GTK or WebKit.
@Suite(.serialized, .oneAtATime, .temporaryDirectories, .timeLimit(.minutes(3)))
struct PluginHelperProcessTests {
    /// What `pid` runs: its executable's path (its first argument where the kernel does not say, e.g. across a
    /// sandbox's namespaces), and whether GTK is mapped in it.
    static func image(of pid: Int32) -> (executable: String, mapsGTK: Bool) {
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe"))
            ?? (FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data())
            .split(separator: 0).first.map { String(decoding: $0, as: UTF8.self) } ?? "?"
        let maps = (try? String(contentsOfFile: "/proc/\(pid)/maps", encoding: .utf8)) ?? ""
        return (executable, maps.contains("libgtk-4") || maps.contains("libwebkitgtk"))
    }

    /// `--isolate` and `--sandbox`: the form plugin's worker; `--watch` (in process): the spare probe child.
    @Test(arguments: [["--isolate"], ["--sandbox"], ["--watch"]])
    func workersAndProbesAreTheHelperWithoutGTK(_ mode: [String]) async throws {
        let host = try HostProcess(
            page: Repository.path("Examples/form-demo/index.html"),
            arguments: ["--plugins", try PluginsDirectory.make()] + mode)
        try await host.waitFor(.hostReady, timeout: 60)
        // A spare probe child can be used up and replaced meanwhile: the image is read from a child that is there.
        var helpers: [Int32] = []
        var image = (executable: "?", mapsGTK: false)
        let deadline = Date().addingTimeInterval(20)
        while image.executable == "?" && Date() < deadline {
            helpers = host.pluginHelpers()
            if helpers.count == 1 { image = Self.image(of: helpers[0]) }
            if image.executable == "?" { try await Task.sleep(for: .milliseconds(20)) }
        }
        try #require(helpers.count == 1, "expected one strada-plugin-worker under the host, found \(helpers)")
        #expect(image.executable == BuiltProducts.path("strada-plugin-worker"))
        #expect(!image.mapsGTK, "the helper maps GTK or WebKit")
        #expect(host.descendants(named: "strada-host").isEmpty, "a child runs the host's own executable")
        #expect(!host.standardError.contains("no strada-plugin-worker beside"))
        try host.send(["command": "quit"])
        #expect(try await host.waitForExit() == 0)
    }

    /// A worker whose input ends (the host gone) says hello and exits, whatever its input is: a closed pipe, or
    /// `/dev/null`, which the kernel's epoll cannot watch (a worker waiting on a dispatch read source never
    /// woke and ran until killed).
    @Test(arguments: [true, false])
    func aWorkerWhoseInputEndsExits(devNull: Bool) async throws {
        let plugins = try PluginsDirectory.make(plugins: ["libStradaEchoPlugin.so"])
        let worker = Process()
        worker.executableURL = URL(fileURLWithPath: BuiltProducts.path("strada-plugin-worker"))
        worker.arguments = [(plugins as NSString).appendingPathComponent("libStradaEchoPlugin.so")]
        let output = Pipe()
        worker.standardOutput = output
        let input = Pipe()
        worker.standardInput = devNull ? FileHandle(forReadingAtPath: "/dev/null") : input
        try worker.run()
        try input.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(15)
        while worker.isRunning && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        let running = worker.isRunning
        if running { kill(worker.processIdentifier, SIGKILL) }  // not SIGTERM, which a stuck worker outlived
        worker.waitUntilExit()
        #expect(!running, "the worker still runs 15 s after its input ended")
        #expect(worker.terminationReason == .exit && worker.terminationStatus == 0)
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(said.contains(#""op":"hello""#), "\(said)")
    }
}
