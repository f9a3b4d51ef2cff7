import Logging

/// Discards log lines (the fuzzer produces millions of rejections).
struct SwiftLogNoOp: LogHandler {
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .critical
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { nil }
        set {}
    }
    func log(event: LogEvent) {}
}
