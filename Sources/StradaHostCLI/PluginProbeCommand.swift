import ArgumentParser
import Foundation
import Logging
import StradaPluginHost

/// `strada-host plugin probe <file>` (internal): loads one plugin in this process and prints its
/// ``PluginStatus`` as one JSON object. The other plugin commands and `run` start it as a child process, so
/// a plugin that crashes while loading takes only the probe down.
struct PluginProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe", abstract: "Load one plugin file in this process and print what it declares (internal).",
        shouldDisplay: false)

    @Argument var file: String?

    /// Started ahead of time (hot reload's spare probe): wait for the file's path, one line on stdin; exit 0
    /// without loading anything when stdin ends first.
    @Flag(name: .customLong("path-from-stdin")) var pathFromStdin = false

    func validate() throws {
        if (file == nil) == !pathFromStdin {
            throw ValidationError("give one plugin file, or --path-from-stdin")
        }
    }

    func run() throws {
        guard let file = pathFromStdin ? readLine(strippingNewline: true) : file, !file.isEmpty else { return }
        let status = MainActor.assumeIsolated { () -> PluginStatus in
            let logger = Logger(label: "strada.plugin.probe") { StreamLogHandler.standardError(label: $0) }
            switch PluginLoader(logger: logger).load(file: file) {
            case .success(let plugin): return PluginStatus(plugin)
            case .failure(let error): return PluginStatus(error)
            }
        }
        print(status.json.serialized(sortedKeys: true))
    }
}
