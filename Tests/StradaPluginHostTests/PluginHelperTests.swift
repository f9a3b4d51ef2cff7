import Foundation
import Testing

@testable import StradaPluginHost

/// The helper executable `strada-plugin-worker`: its command line, and how the host chooses it or falls back to itself.
@Suite struct PluginHelperTests {
    static let fallback = PluginProcessLauncher(
        executable: "/opt/strada/bin/strada-host",
        probeArguments: { ["plugin", "probe", $0] },
        workerArguments: { file, limit in ["plugin", "worker", "--memory-limit-mb", String(limit), file] },
        spareProbeArguments: ["plugin", "probe", "--path-from-stdin"])

    @Test func theHelperBesideTheHostIsUsedForProbesWorkersAndSpares() {
        var asked: [String] = []
        let choice = PluginHelper.launcher(besideHost: "/opt/strada/bin/strada-host", fallback: Self.fallback) {
            asked.append($0)
            return true
        }
        #expect(asked == ["/opt/strada/bin/strada-plugin-worker"])
        #expect(choice.warning == nil)
        let launcher = choice.launcher
        #expect(launcher.executable == "/opt/strada/bin/strada-plugin-worker")
        #expect(launcher.workerArguments("/p/libx.so", 1024) == ["--memory-limit-mb", "1024", "/p/libx.so"])
        #expect(launcher.probeArguments("/p/libx.so") == ["--probe", "/p/libx.so"])
        #expect(launcher.spareProbeArguments == ["--probe", "--path-from-stdin"])
    }

    /// An install without the helper (an older package, or `swift build --product strada-host`) still runs its
    /// plugins, as the host's own executable, with one line saying what is missing.
    @Test func withoutTheHelperTheHostRunsItselfAndSaysSo() throws {
        let choice = PluginHelper.launcher(besideHost: "/opt/strada/bin/strada-host", fallback: Self.fallback) { _ in
            false
        }
        #expect(choice.launcher.executable == "/opt/strada/bin/strada-host")
        #expect(
            choice.launcher.workerArguments("/p/libx.so", 64) == [
                "plugin", "worker", "--memory-limit-mb", "64", "/p/libx.so",
            ])
        #expect(choice.launcher.spareProbeArguments == ["plugin", "probe", "--path-from-stdin"])
        let warning = try #require(choice.warning)
        #expect(warning.hasPrefix("no strada-plugin-worker beside /opt/strada/bin/strada-host:"))
    }

    /// What the launcher starts is what the helper understands.
    @Test func theHelperReadsWhatItsLauncherWrites() {
        let launcher = PluginHelper.launcher(executable: "/x/strada-plugin-worker")
        #expect(
            PluginHelper.role(launcher.workerArguments("/p/libx.so", 512))
                == .worker(file: "/p/libx.so", memoryLimitMB: 512))
        #expect(PluginHelper.role(launcher.probeArguments("/p/libx.so")) == .probe(file: "/p/libx.so"))
        #expect(PluginHelper.role(launcher.spareProbeArguments ?? []) == .probe(file: nil))
        #expect(PluginHelper.role(["/p/libx.so"]) == .worker(file: "/p/libx.so", memoryLimitMB: 2048))
        #expect(PluginHelper.role(["--help"]) == .help)
    }

    @Test(arguments: [
        [], ["--probe"], ["--memory-limit-mb", "x", "/p/libx.so"], ["--memory-limit-mb", "0", "/p/libx.so"],
        ["--memory-limit-mb", "64"], ["a", "b"], ["--verbose"], ["--probe", "--path-from-stdin", "x"],
    ])
    func anythingElseIsRefused(_ arguments: [String]) {
        #expect(PluginHelper.role(arguments) == nil)
    }
}
