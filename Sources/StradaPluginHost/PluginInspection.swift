import Foundation
package import Logging
package import StradaCore

/// What is known about one plugin file: what it declares when it loads, or why it does not.
package struct PluginStatus: Sendable, Equatable {
    package enum State: String, Sendable {
        case loaded, error, crashed
    }
    package var path: String
    package var state: State
    package var id: String?
    package var version: String?
    package var abi: String?
    package var components: [String]
    /// The one-line error when not loaded.
    package var error: String?
    /// Its "what is wrong" part alone (without the file name and the remedy).
    package var reason: String?
    /// Its "what to do" part alone.
    package var remedy: String?
    /// What the plugin (or the probe child) wrote to stderr while loading, e.g. why its entry point
    /// refused. Not part of ``json``: the probe child prints it, its parent collects it.
    package var log: String?

    package init(
        path: String, state: State, id: String? = nil, version: String? = nil, abi: String? = nil,
        components: [String] = [], error: String? = nil, reason: String? = nil, remedy: String? = nil
    ) {
        self.reason = reason
        self.remedy = remedy
        self.path = path
        self.state = state
        self.id = id
        self.version = version
        self.abi = abi
        self.components = components
        self.error = error
    }

    package init(_ plugin: LoadedPlugin) {
        self.init(
            path: plugin.path, state: .loaded, id: plugin.id, version: plugin.version, abi: plugin.abi,
            components: plugin.componentNames)
    }

    package init(_ error: PluginLoadError) {
        self.init(path: error.path, state: .error, error: error.description, reason: error.reason, remedy: error.remedy)
    }

    /// A file that crashed (or hung) in a probe: `reason` says how.
    static func crashed(_ path: String, _ reason: String) -> PluginStatus {
        let remedy = "fix the plugin or remove it"
        return PluginStatus(
            path: path, state: .crashed, error: "plugin \(path): \(reason) — \(remedy)", reason: reason,
            remedy: remedy)
    }

    /// Why it did not load, as a load error (the probe's reason and remedy).
    package var loadError: PluginLoadError? {
        guard state != .loaded else { return nil }
        return PluginLoadError(
            path: path, reason: reason ?? "failed to load", remedy: remedy ?? "fix the plugin or remove it")
    }

    package var json: JSON {
        var fields: JSONObject = [
            "path": .string(path), "status": .string(state.rawValue), "components": .array(components.map(JSON.string)),
        ]
        if let id { fields["id"] = .string(id) }
        if let version { fields["version"] = .string(version) }
        if let abi { fields["abi"] = .string(abi) }
        if let error { fields["error"] = .string(error) }
        if let reason { fields["reason"] = .string(reason) }
        if let remedy { fields["remedy"] = .string(remedy) }
        return .object(fields)
    }

    package init?(json: JSON) {
        guard let path = json["path"]?.stringValue,
            let state = json["status"]?.stringValue.flatMap(State.init(rawValue:))
        else { return nil }
        let components: [String]
        if case .array(let items)? = json["components"] {
            components = items.compactMap(\.stringValue)
        } else {
            components = []
        }
        self.init(
            path: path, state: state, id: json["id"]?.stringValue, version: json["version"]?.stringValue,
            abi: json["abi"]?.stringValue, components: components, error: json["error"]?.stringValue,
            reason: json["reason"]?.stringValue, remedy: json["remedy"]?.stringValue)
    }
}

/// How the plugin host starts its helper processes: the probe that inspects one plugin file, and the
/// worker that runs one plugin under `--isolate`. The library knows no command-line grammar: the executable
/// that embeds it says how to start itself in each role.
package struct PluginProcessLauncher: Sendable {
    /// The program to start.
    package var executable: String
    /// Arguments that make `executable` load one plugin file and print its ``PluginStatus`` JSON on stdout.
    package var probeArguments: @Sendable (_ file: String) -> [String]
    /// Arguments that make `executable` run ``PluginWorker/run(file:logger:)`` for one plugin file.
    package var workerArguments: @Sendable (_ file: String, _ memoryLimitMB: Int) -> [String]
    /// Arguments that make `executable` wait for one plugin file's path on stdin (one line), then probe it as
    /// ``probeArguments`` would, and exit 0 without loading anything when stdin ends first; `nil` when it
    /// cannot. ``SpareProbe`` starts such a child ahead of time, so a hot reload does not wait for one to start.
    package var spareProbeArguments: [String]?

    package init(
        executable: String = PluginProcessLauncher.currentExecutable,
        probeArguments: @escaping @Sendable (_ file: String) -> [String],
        workerArguments: @escaping @Sendable (_ file: String, _ memoryLimitMB: Int) -> [String],
        spareProbeArguments: [String]? = nil
    ) {
        self.executable = executable
        self.probeArguments = probeArguments
        self.workerArguments = workerArguments
        self.spareProbeArguments = spareProbeArguments
    }

    /// The running executable.
    package static var currentExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}

/// Inspects plugins in a child process, as GStreamer scans new plugins: a plugin that crashes or hangs
/// while loading is reported with its name, never fatal.
package enum PluginProbe {
    /// Seconds a plugin has to load in a child process — a probe's answer, a worker's hello — before it is killed
    /// and reported as hung: one limit for `run` in process and isolated, `plugin inspect`, `list`, `install` and
    /// `call`, and hot reload's validation (docs/plugins.md says it).
    package static let timeLimit = 5.0

    /// Seconds a start-up waits for the probes (or first workers) of files it has never seen — well over what a
    /// plugin that loads takes (figures in docs/plugins.md) — before it goes on without those that have not
    /// answered: their answers come in later, each plugin then added (or refused) as a file added while
    /// the host runs. A file that hangs costs its first start this, not ``timeLimit``, and later starts nothing.
    package static let startUpGrace = 1.0

    /// Inspects `file` in a child process started by `launcher`; gives up after `timeout` seconds. The path is
    /// made absolute first (a bare file name would send `dlopen` to the library search path). What the
    /// child wrote to stderr (the plugin's own log lines) comes back as ``PluginStatus/log``.
    package static func inspect(
        file: String, launcher: PluginProcessLauncher, timeout: Double = timeLimit
    ) -> PluginStatus {
        let file = PluginLoader.absolutePath(file)
        let child: Child
        do { child = try Child.start(launcher.executable, launcher.probeArguments(file), input: nil) } catch {
            return couldNotStart(file, error)
        }
        return child.answer(for: file, timeout: timeout)
    }

    static func couldNotStart(_ file: String, _ error: any Error) -> PluginStatus {
        let reason = "could not start the probe (\(error))", remedy = "check the host installation"
        return PluginStatus(
            path: file, state: .error, error: "plugin \(file): \(reason) — \(remedy)", reason: reason, remedy: remedy)
    }

    /// A started probe child, its output read while it runs.
    final class Child: @unchecked Sendable {  // used by one caller at a time
        let process: Process
        let printed: PipeReader, logged: PipeReader

        private init(process: Process, printed: PipeReader, logged: PipeReader) {
            self.process = process
            self.printed = printed
            self.logged = logged
        }

        /// Starts `executable` with `arguments`; its stdin is `input` (or nothing).
        static func start(_ executable: String, _ arguments: [String], input: FileHandle?) throws -> Child {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            var environment = ProcessInfo.processInfo.environment
            environment["SWIFT_BACKTRACE"] = "enable=no"  // a crash is one line from the caller, not a backtrace
            process.environment = environment
            let output = Pipe(), errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            process.standardInput = input ?? FileHandle.nullDevice
            try process.run()
            // Both pipes are drained while the child runs, so a chatty plugin cannot block on a full pipe.
            return Child(process: process, printed: PipeReader(output), logged: PipeReader(errors))
        }

        /// Waits for the child's answer about `file` (up to `timeout` seconds, then it is killed).
        func answer(for file: String, timeout: Double) -> PluginStatus {
            let deadline = Date().addingTimeInterval(timeout)
            while process.isRunning && Date() < deadline { usleep(1_000) }
            var status: PluginStatus
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                status = .crashed(file, "hung while loading (no answer in \(Int(timeout)) s)")
            } else if process.terminationReason == .uncaughtSignal {
                status = .crashed(file, "crashed while loading (signal \(process.terminationStatus))")
            } else if let value = try? JSON(parsing: printed.text(waiting: 2).trimmingCharacters(in: .newlines)),
                let answer = PluginStatus(json: value)
            {
                status = answer
            } else {
                status = .crashed(file, "the probe exited with status \(process.terminationStatus) and no answer")
            }
            let log = logged.text(waiting: 2).trimmingCharacters(in: .whitespacesAndNewlines)
            status.log = log.isEmpty ? nil : log
            return status
        }
    }

    /// Inspects `files`, several at a time, each in a child process as ``inspect(file:launcher:timeout:)`` does;
    /// the statuses come back in the order of `files`.
    package static func inspect(files: [String], launcher: PluginProcessLauncher) -> [PluginStatus] {
        guard !files.isEmpty else { return [] }
        let statuses = Statuses(count: files.count)
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            statuses.set(index, inspect(file: files[index], launcher: launcher))
        }
        return statuses.all
    }

    private final class Statuses: @unchecked Sendable {  // each index is written by one thread, under the lock
        private var values: [PluginStatus?]
        private let lock = NSLock()
        init(count: Int) { values = Array(repeating: nil, count: count) }
        func set(_ index: Int, _ status: PluginStatus) { lock.withLock { values[index] = status } }
        var all: [PluginStatus] { lock.withLock { values.map { $0! } } }
    }

    /// Paths of the entries in `directory` that may be plugin files, sorted: not hidden, not `.json` manifests
    /// (folders among them are not filtered out yet).
    static func candidateNames(in directory: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        return names.sorted().filter { !$0.hasPrefix(".") && !$0.hasSuffix(".json") }.map { prefix + $0 }
    }

    /// Plugin files in `directory`, sorted: regular files, not hidden, not `.json` manifests.
    package static func candidates(in directory: String) -> [String] {
        candidateNames(in: directory).filter { path in
            var info = stat()
            return stat(path, &info) == 0 && info.st_mode & S_IFMT != S_IFDIR
        }
    }
}

/// Reads a pipe to its end on a thread of its own.
final class PipeReader: @unchecked Sendable {  // `data` is written once, before `done` is signalled
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ pipe: Pipe) {
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    /// What was read, once the writer closed the pipe (or after `seconds`, then empty).
    func text(waiting seconds: Double) -> String {
        guard done.wait(timeout: .now() + seconds) == .success else { return "" }
        return String(decoding: data, as: UTF8.self)
    }
}
