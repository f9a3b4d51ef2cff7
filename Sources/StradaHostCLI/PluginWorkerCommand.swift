import ArgumentParser
import Foundation
import Logging
import StradaPluginHost

/// `strada-host plugin worker <file>` (internal): runs one plugin for `run --isolate`.
struct PluginWorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker", abstract: "Run one plugin in this process for `run --isolate` (internal).",
        shouldDisplay: false)

    @Argument var file: String

    @Option(help: "Address-space limit for the worker, in MiB; a plugin that leaks past it is stopped and reported.")
    var memoryLimitMb: Int = 2048

    func run() throws {
        var limit = rlimit(rlim_cur: rlim_t(memoryLimitMb) << 20, rlim_max: rlim_t(memoryLimitMb) << 20)
        setrlimit(Int32(RLIMIT_AS.rawValue), &limit)
        let logger = Logger(label: "strada.worker") { StreamLogHandler.standardError(label: $0) }
        PluginWorker.run(file: file, logger: logger)
    }
}
