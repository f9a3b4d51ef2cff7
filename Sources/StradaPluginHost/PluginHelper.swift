import Foundation
import Logging

/// `strada-plugin-worker`, the plugin host's helper executable: it runs one plugin as an isolation worker, or probes
/// one plugin file, and links this library only — not WebKitGTK, GTK and libadwaita, whose ~200 libraries the
/// dynamic loader would map before `main` in every helper start (most of a worker's start, and so of an isolated
/// plugin's hot reload; figures in docs/plugins.md). It is installed beside `strada-host`, which finds it there.
///
/// Its command line (internal; the host is its only caller):
///
/// - `strada-plugin-worker [--memory-limit-mb N] FILE`: a worker for `FILE`
///   (``PluginWorker/main(file:memoryLimitMB:)``);
/// - `strada-plugin-worker --probe FILE`: loads `FILE` and prints its ``PluginStatus`` (``PluginProbe/answer(file:)``);
/// - `strada-plugin-worker --probe --path-from-stdin`: the same for the path read from stdin (a spare probe).
package enum PluginHelper {
    /// The helper's file name, beside the host's executable.
    package static let executableName = "strada-plugin-worker"

    /// What one command line asks the helper to do.
    package enum Role: Equatable, Sendable {
        /// Run an isolation worker for `file`, its address space limited to `memoryLimitMB` MiB.
        case worker(file: String, memoryLimitMB: Int)
        /// Probe `file`, or the path read from stdin when `nil`.
        case probe(file: String?)
        /// Print the usage.
        case help
    }

    /// The memory limit of a worker started without `--memory-limit-mb`.
    package static let defaultMemoryLimitMB = 2048

    package static let usage = """
        usage: strada-plugin-worker [--memory-limit-mb N] FILE
               strada-plugin-worker --probe FILE | --probe --path-from-stdin
        strada-host's helper: runs one plugin as an isolation worker, or probes one plugin file (internal).

        """

    /// The role `arguments` (without the program name) ask for, or `nil` when they are not the helper's grammar.
    package static func role(_ arguments: [String]) -> Role? {
        switch arguments {
        case ["--help"], ["-h"]: return .help
        case ["--probe", "--path-from-stdin"]: return .probe(file: nil)
        case let probe where probe.count == 2 && probe[0] == "--probe" && !probe[1].hasPrefix("-"):
            return .probe(file: probe[1])
        case let worker where worker.count == 1 && !worker[0].hasPrefix("-"):
            return .worker(file: worker[0], memoryLimitMB: defaultMemoryLimitMB)
        case let worker where worker.count == 3 && worker[0] == "--memory-limit-mb" && !worker[2].hasPrefix("-"):
            guard let limit = Int(worker[1]), limit > 0 else { return nil }
            return .worker(file: worker[2], memoryLimitMB: limit)
        default: return nil
        }
    }

    /// The helper's `main`: does what `arguments` (the full command line) ask; a command line that is not the
    /// helper's grammar prints the usage and exits 64.
    package static func main(_ arguments: [String] = CommandLine.arguments) -> Never {
        switch role(Array(arguments.dropFirst())) {
        case .worker(let file, let limit)?: PluginWorker.main(file: file, memoryLimitMB: limit)
        case .probe(let file)?:
            MainActor.assumeIsolated { PluginProbe.answer(file: file) }
            exit(0)
        case .help?:
            print(usage, terminator: "")
            exit(0)
        case nil:
            FileHandle.standardError.write(Data(usage.utf8))
            exit(64)
        }
    }

    /// Starts the helper at `executable` in its roles.
    package static func launcher(executable: String) -> PluginProcessLauncher {
        PluginProcessLauncher(
            executable: executable,
            probeArguments: { file in ["--probe", file] },
            workerArguments: { file, memoryLimitMB in ["--memory-limit-mb", String(memoryLimitMB), file] },
            spareProbeArguments: ["--probe", "--path-from-stdin"])
    }

    /// The launcher a host at `host` uses: the helper beside it when it is there, else `fallback` (the host's own
    /// executable in those roles: slower to start, same behaviour) and the one line saying why, for the log.
    package static func launcher(
        besideHost host: String, fallback: PluginProcessLauncher,
        isExecutable: (String) -> Bool = { FileManager.default.isExecutableFile(atPath: $0) }
    ) -> (launcher: PluginProcessLauncher, warning: String?) {
        let helper = ((host as NSString).deletingLastPathComponent as NSString).appendingPathComponent(executableName)
        if isExecutable(helper) { return (launcher(executable: helper), nil) }
        let warning = """
            no \(executableName) beside \(host): plugin probes and workers run as the host's own executable, which \
            takes longer to start (reinstall the host, or build every product: swift build)
            """
        return (fallback, warning)
    }
}

extension PluginWorker {
    /// A worker process's whole life (the helper's, and `strada-host plugin worker`'s): limits its address space to
    /// `memoryLimitMB` MiB — a plugin that leaks past it is stopped and reported — then ``run(file:logger:)``.
    nonisolated package static func main(file: String, memoryLimitMB: Int) -> Never {
        var limit = rlimit(rlim_cur: rlim_t(memoryLimitMB) << 20, rlim_max: rlim_t(memoryLimitMB) << 20)
        setrlimit(Int32(RLIMIT_AS.rawValue), &limit)
        let logger = Logger(label: "strada.worker") { StreamLogHandler.standardError(label: $0) }
        run(file: file, logger: logger)
    }
}

extension PluginProbe {
    /// A probe process's work (the helper's, and `strada-host plugin probe`'s): loads `file` in this process and
    /// prints its ``PluginStatus`` as one JSON line; with `file` `nil`, the path is first read from stdin (one line),
    /// and nothing is loaded or printed when stdin ends first. The plugin's own log lines go to stderr.
    @MainActor
    package static func answer(file: String?) {
        guard let file = file ?? readLine(strippingNewline: true), !file.isEmpty else { return }
        let logger = Logger(label: "strada.plugin.probe") { StreamLogHandler.standardError(label: $0) }
        let status: PluginStatus
        switch PluginLoader(logger: logger).load(file: file) {
        case .success(let plugin): status = PluginStatus(plugin)
        case .failure(let error): status = PluginStatus(error)
        }
        print(status.json.serialized(sortedKeys: true))
    }
}
