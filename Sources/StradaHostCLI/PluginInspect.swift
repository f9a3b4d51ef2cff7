import ArgumentParser
import Foundation
import Logging
import StradaPluginHost

/// `strada-host plugin inspect <file>`: loads one plugin in this process and says what it declares.
/// `plugin list` and `plugin install` run it as a child process, so a plugin that crashes while loading
/// is reported instead of taking the caller down.
struct PluginInspect: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "inspect", abstract: "Load one plugin file and show what it declares.")

    @Argument(help: "The plugin file (a shared library).")
    var file: String

    @Flag(help: "Print one JSON object.")
    var json = false

    func run() throws {
        let status = MainActor.assumeIsolated { () -> PluginStatus in
            let logger = Logger(label: "strada.plugin.inspect") { StreamLogHandler.standardError(label: $0) }
            switch PluginLoader(logger: logger).load(file: file) {
            case .success(let plugin): return PluginStatus(plugin)
            case .failure(let error): return PluginStatus(error)
            }
        }
        if json {
            print(status.json.serialized(sortedKeys: true))
        } else if let error = status.error {
            print(error)
        } else {
            print("""
                id:         \(status.id ?? "-")
                version:    \(status.version ?? "-")
                abi:        \(status.abi ?? "-")
                components: \(status.components.joined(separator: ", "))
                path:       \(status.path)
                """)
        }
        if status.state != .loaded { throw ExitCode(1) }
    }
}
