public import Logging
import Synchronization

/// A swift-log handler that keeps every line in memory, so tests can assert what was logged and why.
///
/// ```swift
/// let log = InMemoryLogHandler.Store()
/// let logger = Logger(label: "test") { _ in InMemoryLogHandler(store: log) }
/// ```
public struct InMemoryLogHandler: LogHandler {
    /// Where the lines go; share one between loggers.
    public final class Store: Sendable {
        private let lines = Mutex<[(level: Logger.Level, message: String)]>([])
        public init() {}
        /// Every message logged so far, oldest first.
        public var messages: [String] { lines.withLock { $0.map(\.message) } }
        /// Every line with its level.
        public var entries: [(level: Logger.Level, message: String)] { lines.withLock { $0 } }
        func append(_ level: Logger.Level, _ message: String) { lines.withLock { $0.append((level, message)) } }
    }

    public let store: Store
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .trace

    public init(store: Store) {
        self.store = store
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        store.append(event.level, "\(event.message)")
    }
}
