import ArgumentParser
import Foundation
import Logging
import StradaHost
import StradaPluginHost

/// `strada-host`: runs web apps with native components loaded from plugins.
@main
struct StradaHostCommand: ParsableCommand {
    static func main() {
        StartupTimeline.begin()  // the host's start-up phases are timed from here (the host.startup event)
        // A parent may have started us with signals blocked (threads of a test runner do): unblock them,
        // so SIGTERM and SIGINT stop the host as expected.
        var none = sigset_t()
        sigemptyset(&none)
        sigprocmask(SIG_SETMASK, &none, nil)
        Self.main(nil)
    }

    static let configuration = CommandConfiguration(
        commandName: "strada-host",
        abstract: "Runs a Strada web app in a WebKitGTK window with native components loaded from plugins.",
        version: HostVersion.current,
        subcommands: [Run.self, App.self, Plugin.self]
    )
}

extension PluginProcessLauncher {
    /// How the libraries start plugin probes and isolation workers: the helper `strada-plugin-worker` beside this
    /// executable (it links no GTK, so it starts in a fraction of the time), else this executable itself, with one
    /// warning line the first time it is needed.
    static let stradaHost: PluginProcessLauncher = {
        let choice = PluginHelper.launcher(besideHost: currentExecutable, fallback: hostItself)
        if let warning = choice.warning {
            Logger(label: "strada.host") { StreamLogHandler.standardError(label: $0) }.warning("\(warning)")
        }
        return choice.launcher
    }()

    /// This executable as a plugin probe (`plugin probe`) and as an isolation worker (`plugin worker`): the
    /// grammar is this executable's, so it is said here.
    static let hostItself = PluginProcessLauncher(
        probeArguments: { file in ["plugin", "probe", file] },
        workerArguments: { file, memoryLimitMB in
            ["plugin", "worker", "--memory-limit-mb", String(memoryLimitMB), file]
        },
        spareProbeArguments: ["plugin", "probe", "--path-from-stdin"]
    )
}
