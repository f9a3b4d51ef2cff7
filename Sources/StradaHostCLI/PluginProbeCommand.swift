import ArgumentParser
import StradaPluginHost

/// `strada-host plugin probe <file>` (internal): loads one plugin in this process and prints its
/// ``PluginStatus`` as one JSON object. The other plugin commands and `run` start it as a child process, so
/// a plugin that crashes while loading takes only the probe down — as `strada-plugin-worker --probe`, which they use
/// when it is installed beside the host.
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
        MainActor.assumeIsolated { PluginProbe.answer(file: pathFromStdin ? nil : file) }
    }
}
