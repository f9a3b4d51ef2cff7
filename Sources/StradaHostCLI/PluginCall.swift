import ArgumentParser
import Foundation
import Logging
import StradaCore
import StradaPluginHost

/// `strada-host plugin call <file> <action> [args…]`: calls a native action the plugin's manifest declares,
/// by its signature, with libffi.
struct PluginCall: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "call",
        abstract: "Call a native action declared in a plugin's manifest (by signature, via libffi).")

    @Argument(help: "The plugin file.")
    var file: String

    @Argument(help: "The action name from the manifest's \"actions\".")
    var action: String

    @Argument(help: "Arguments: numbers for i32/i64/f64 parameters, text for str parameters.")
    var arguments: [String] = []

    func run() throws {
        // Probed in a child first: a plugin that crashes while loading is one line, not a dead process.
        let status = PluginProbe.inspect(file: file, launcher: .stradaHost)
        status.printLogIfRefused()
        if let error = status.error {
            FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
            throw ExitCode(1)
        }
        let result = try MainActor.assumeIsolated { () throws -> JSON in
            let logger = Logger(label: "strada.plugin.call") { StreamLogHandler.standardError(label: $0) }
            let plugin = try PluginLoader(logger: logger).load(file: file).get()
            return try plugin.call(action: action, arguments: arguments.map(JSON.string))
        }
        print(result.serialized(sortedKeys: true))
    }
}
