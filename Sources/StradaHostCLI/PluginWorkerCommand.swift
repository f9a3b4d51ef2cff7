import ArgumentParser
import StradaPluginHost

/// `strada-host plugin worker <file>` (internal): runs one plugin for `run --isolate`, as the helper
/// `strada-plugin-worker` does; the host uses it only when that helper is not installed beside it.
struct PluginWorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker", abstract: "Run one plugin in this process for `run --isolate` (internal).",
        shouldDisplay: false)

    @Argument var file: String

    @Option(help: "Address-space limit for the worker, in MiB; a plugin that leaks past it is stopped and reported.")
    var memoryLimitMb: Int = PluginHelper.defaultMemoryLimitMB

    func run() throws {
        PluginWorker.main(file: file, memoryLimitMB: memoryLimitMb)
    }
}
