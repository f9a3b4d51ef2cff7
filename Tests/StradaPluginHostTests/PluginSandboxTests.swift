import Foundation
import Testing

@testable import StradaPluginHost

/// The sandbox's command line, and which plugins run in it.
@MainActor
@Suite(.serialized) struct PluginSandboxTests {
    @Test func theWorkerSeesTheSystemReadOnlyAnEmptyHomeAndOnlyItsDataFolder() {
        let sandbox = PluginSandbox(network: false, dataFolder: "/home/ann/.local/share/strada/plugin-data/libpay")
        let arguments = sandbox.arguments(
            running: "/usr/bin/strada-plugin-worker", ["x"],
            file: "/home/ann/.local/share/strada/plugins/libpay.so",
            home: "/home/ann")
        let text = arguments.joined(separator: " ")
        #expect(text.hasPrefix("--ro-bind / / --dev /dev --proc /proc --tmpfs /tmp --tmpfs /home/ann"))
        #expect(text.contains("--ro-bind /home/ann/.local/share/strada/plugins /home/ann/.local/share/strada/plugins"))
        #expect(!text.contains("--ro-bind /usr/bin"), "the executable's folder is already there, read-only")
        #expect(text.contains("--bind \(sandbox.dataFolder) \(sandbox.dataFolder) --setenv HOME \(sandbox.dataFolder)"))
        #expect(text.contains("--unshare-pid") && text.contains("--unshare-net") && text.contains("--die-with-parent"))
        #expect(text.hasSuffix("-- /usr/bin/strada-plugin-worker x"))
        let networked = PluginSandbox(network: true, dataFolder: "/d").arguments(
            running: "/usr/bin/strada-plugin-worker", [], file: "/opt/p/libx.so", home: "/home/ann")
        #expect(!networked.contains("--unshare-net"))
        #expect(!networked.contains("--seccomp"), "no filter descriptor given")
        let filtered = sandbox.arguments(
            running: "/usr/bin/strada-plugin-worker", ["x"], file: "/opt/p/libx.so", home: "/home/ann",
            seccomp: 7
        ).joined(separator: " ")
        #expect(filtered.contains("--seccomp 7 --die-with-parent --new-session -- /usr/bin/strada-plugin-worker"))
    }

    /// The filter reaches bubblewrap through a pipe read end: close-on-exec (only the worker's spawn passes it
    /// on), above the standard streams, holding the program and then its end.
    @Test func theFiltersPipeHoldsTheProgramAndIsCloseOnExec() throws {
        let bytes = SeccompFilter(for: .x86_64).bytes
        let fd = try #require(IsolatedPlugin.pipe(holding: bytes))
        defer { close(fd) }
        #expect(fd >= 3)
        #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0)
        var read = [UInt8](repeating: 0, count: bytes.count + 16)
        let count = read.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress!, $0.count) }
        #expect(Array(read.prefix(max(count, 0))) == bytes)
        #expect(read.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress!, $0.count) } == 0, "its end")
    }

    @Test func whichPluginsRunInTheSandbox() throws {
        let folder = NSTemporaryDirectory() + "sandbox-choice-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer {
            try? FileManager.default.removeItem(atPath: folder)
            PluginGrants.overrides = [:]
            PluginGrants.sandboxEveryPlugin = false
        }
        let own = folder + "/libown.so", thirdParty = folder + "/libpay.so"
        try #"{"id": "dev.example.own"}"#.write(toFile: folder + "/libown.json", atomically: true, encoding: .utf8)
        try #"{"id": "dev.example.pay", "capabilities": ["network"]}"#.write(
            toFile: folder + "/libpay.json", atomically: true, encoding: .utf8)
        try "{}".write(toFile: PluginInstaller.signaturePath(forPlugin: thirdParty), atomically: true, encoding: .utf8)
        #expect(PluginGrants.sandbox(forPluginAt: own) == nil, "your own build: a plain process")
        #expect(PluginGrants.sandbox(forPluginAt: thirdParty)?.network == true, "from a package: the sandbox")
        PluginGrants.overrides = ["dev.example.pay": .init(isolation: .process)]
        #expect(PluginGrants.sandbox(forPluginAt: thirdParty) == nil, "the app's word wins")
        PluginGrants.sandboxEveryPlugin = true
        #expect(PluginGrants.sandbox(forPluginAt: own)?.network == false, "--sandbox; network only when declared")
        #expect(PluginGrants.sandbox(forPluginAt: thirdParty) == nil)
    }
}
