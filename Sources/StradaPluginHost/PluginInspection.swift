import Foundation
public import StradaCore

/// What is known about one plugin file: what it declares when it loads, or why it does not.
public struct PluginStatus: Sendable, Equatable {
    public enum State: String, Sendable {
        case loaded, error, crashed
    }
    public var path: String
    public var state: State
    public var id: String?
    public var version: String?
    public var abi: String?
    public var components: [String]
    /// The one-line error when not loaded.
    public var error: String?
    /// Its "what is wrong" part alone (without the file name and the remedy).
    public var reason: String?

    public init(path: String, state: State, id: String? = nil, version: String? = nil, abi: String? = nil, components: [String] = [], error: String? = nil, reason: String? = nil) {
        self.reason = reason
        self.path = path
        self.state = state
        self.id = id
        self.version = version
        self.abi = abi
        self.components = components
        self.error = error
    }

    public init(_ plugin: LoadedPlugin) {
        self.init(path: plugin.path, state: .loaded, id: plugin.id, version: plugin.version, abi: plugin.abi, components: plugin.componentNames)
    }

    public init(_ error: PluginLoadError) {
        self.init(path: error.path, state: .error, error: error.description, reason: error.reason)
    }

    public var json: JSON {
        var fields: JSONObject = ["path": .string(path), "status": .string(state.rawValue), "components": .array(components.map(JSON.string))]
        if let id { fields["id"] = .string(id) }
        if let version { fields["version"] = .string(version) }
        if let abi { fields["abi"] = .string(abi) }
        if let error { fields["error"] = .string(error) }
        if let reason { fields["reason"] = .string(reason) }
        return .object(fields)
    }

    public init?(json: JSON) {
        guard let path = json["path"]?.stringValue, let state = json["status"]?.stringValue.flatMap(State.init(rawValue:)) else { return nil }
        let components: [String]
        if case .array(let items)? = json["components"] { components = items.compactMap(\.stringValue) } else { components = [] }
        self.init(
            path: path, state: state, id: json["id"]?.stringValue, version: json["version"]?.stringValue,
            abi: json["abi"]?.stringValue, components: components, error: json["error"]?.stringValue,
            reason: json["reason"]?.stringValue)
    }
}

/// How the plugin host starts its helper processes: the probe that inspects one plugin file, and the
/// worker that runs one plugin under `--isolate`. The library knows no command-line grammar: the executable
/// that embeds it says how to start itself in each role.
public struct PluginProcessLauncher: Sendable {
    /// The program to start.
    public var executable: String
    /// Arguments that make `executable` load one plugin file and print its ``PluginStatus`` JSON on stdout.
    public var probeArguments: @Sendable (_ file: String) -> [String]
    /// Arguments that make `executable` run ``PluginWorker/run(file:logger:)`` for one plugin file.
    public var workerArguments: @Sendable (_ file: String, _ memoryLimitMB: Int) -> [String]

    public init(
        executable: String = PluginProcessLauncher.currentExecutable,
        probeArguments: @escaping @Sendable (_ file: String) -> [String],
        workerArguments: @escaping @Sendable (_ file: String, _ memoryLimitMB: Int) -> [String]
    ) {
        self.executable = executable
        self.probeArguments = probeArguments
        self.workerArguments = workerArguments
    }

    /// The running executable.
    public static var currentExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}

/// Inspects plugins in a child process, as GStreamer scans new plugins: a plugin that crashes or hangs
/// while loading is reported with its name, never fatal.
public enum PluginProbe {
    /// Inspects `file` in a child process started by `launcher`; gives up after `timeout` seconds.
    public static func inspect(file: String, launcher: PluginProcessLauncher, timeout: Double = 10) -> PluginStatus {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: launcher.executable)
        process.arguments = launcher.probeArguments(file)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch {
            return PluginStatus(path: file, state: .error, error: "plugin \(file): could not start the probe (\(error)) — check the host installation", reason: "could not start the probe (\(error))")
        }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        if process.isRunning {
            process.terminate()
            return PluginStatus(path: file, state: .crashed, error: "plugin \(file): hung while loading (no answer in \(Int(timeout)) s) — fix the plugin's entry point or remove it", reason: "hung while loading (no answer in \(Int(timeout)) s)")
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        if process.terminationReason == .uncaughtSignal {
            return PluginStatus(path: file, state: .crashed, error: "plugin \(file): crashed while loading (signal \(process.terminationStatus)) — fix the plugin or remove it", reason: "crashed while loading (signal \(process.terminationStatus))")
        }
        guard let value = try? JSON(parsing: text.trimmingCharacters(in: .whitespacesAndNewlines)), let status = PluginStatus(json: value) else {
            return PluginStatus(path: file, state: .crashed, error: "plugin \(file): the probe exited with status \(process.terminationStatus) and no answer — fix the plugin or remove it", reason: "the probe exited with status \(process.terminationStatus) and no answer")
        }
        return status
    }

    /// Plugin files in `directory`, sorted: regular files, not hidden, not `.json` manifests.
    public static func candidates(in directory: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.sorted().filter { !$0.hasPrefix(".") && !$0.hasSuffix(".json") }.map { (directory as NSString).appendingPathComponent($0) }
            .filter { path in
                var isDirectory: ObjCBool = false
                return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
            }
    }
}
