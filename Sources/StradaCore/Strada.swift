public import Foundation
public import Logging
import Synchronization

/// The namespace upstream component code expects: `Strada.config` and `Strada.userAgentSubstring(for:)`.
public enum Strada {
    /// The one configuration the host sets: JSON codec settings and debug logging. Message decoding and
    /// reply encoding in every component use it, including components loaded from plugins (the host
    /// forwards ``StradaConfig/codec`` across the plugin ABI).
    public static let config = StradaConfig()

    /// `bridge-components: [a b]` for the given component types, as the web libraries look for it.
    public static func userAgentSubstring(for componentTypes: [BridgeComponent.Type]) -> String {
        userAgentSubstring(forNames: componentTypes.map { $0.name })
    }

    /// `bridge-components: [a b]` for the given component names (order kept, duplicates removed).
    public static func userAgentSubstring(forNames names: [String]) -> String {
        "bridge-components: [\(names.uniqued().joined(separator: " "))]"
    }
}

/// JSON codec settings that can be described as data, so they can cross the plugin ABI.
public struct CodecSettings: Sendable, Hashable, Codable {
    public enum KeyStrategy: String, Sendable, Codable, CaseIterable {
        case useDefaultKeys, snakeCase
    }
    public enum DateStrategy: String, Sendable, Codable, CaseIterable {
        case deferredToDate, iso8601, secondsSince1970, millisecondsSince1970
    }
    /// Key strategy: `snakeCase` encodes `submitTitle` as `submit_title` and decodes it back.
    public var keys: KeyStrategy
    public var dates: DateStrategy

    public init(keys: KeyStrategy = .useDefaultKeys, dates: DateStrategy = .deferredToDate) {
        self.keys = keys
        self.dates = dates
    }

    /// A decoder configured with these settings.
    public func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        if keys == .snakeCase { decoder.keyDecodingStrategy = .convertFromSnakeCase }
        switch dates {
        case .deferredToDate: break
        case .iso8601: decoder.dateDecodingStrategy = .iso8601
        case .secondsSince1970: decoder.dateDecodingStrategy = .secondsSince1970
        case .millisecondsSince1970: decoder.dateDecodingStrategy = .millisecondsSince1970
        }
        return decoder
    }

    /// An encoder configured with these settings (keys sorted, so output is byte-stable).
    public func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        if keys == .snakeCase { encoder.keyEncodingStrategy = .convertToSnakeCase }
        switch dates {
        case .deferredToDate: break
        case .iso8601: encoder.dateEncodingStrategy = .iso8601
        case .secondsSince1970: encoder.dateEncodingStrategy = .secondsSince1970
        case .millisecondsSince1970: encoder.dateEncodingStrategy = .millisecondsSince1970
        }
        return encoder
    }

    /// The settings as one JSON object, e.g. `{"dates":"iso8601","keys":"snakeCase"}`.
    public var json: String {
        JSON.object(["keys": .string(keys.rawValue), "dates": .string(dates.rawValue)]).serialized(sortedKeys: true)
    }

    /// Reads settings written by ``json``; unknown or missing values fall back to the defaults.
    public init(json: String) {
        let parsed = try? JSON(parsing: json)
        self.init(
            keys: parsed?["keys"]?.stringValue.flatMap(KeyStrategy.init(rawValue:)) ?? .useDefaultKeys,
            dates: parsed?["dates"]?.stringValue.flatMap(DateStrategy.init(rawValue:)) ?? .deferredToDate
        )
    }
}

/// The host-wide configuration behind ``Strada/config``. Thread-safe.
public final class StradaConfig: Sendable {
    private struct State: @unchecked Sendable {  // JSONEncoder/JSONDecoder are only read under the lock
        var codec = CodecSettings()
        var encoder = CodecSettings().makeEncoder()
        var decoder = CodecSettings().makeDecoder()
        var debugLoggingEnabled = false
        /// Made on first use: a plugin sets its own (through the host) before any, so it never initialises
        /// its copy of swift-log's `LoggingSystem` (see ``StradaConfig/logger``).
        var logger: Logger?
    }
    private let state = Mutex(State())

    init() {}

    /// Codec settings; setting them rebuilds ``jsonEncoder`` and ``jsonDecoder``.
    public var codec: CodecSettings {
        get { state.withLock { $0.codec } }
        set {
            state.withLock {
                $0.codec = newValue
                $0.encoder = newValue.makeEncoder()
                $0.decoder = newValue.makeDecoder()
            }
        }
    }

    /// The encoder replies use (`Message.replacing(data:)`, `reply(to:with:)`).
    public var jsonEncoder: JSONEncoder {
        get { state.withLock { $0.encoder } }
        set { state.withLock { $0.encoder = newValue } }
    }

    /// The decoder `Message.data()` uses.
    public var jsonDecoder: JSONDecoder {
        get { state.withLock { $0.decoder } }
        set { state.withLock { $0.decoder = newValue } }
    }

    /// Off by default. When on, every dropped or ignored message is logged with the reason.
    public var debugLoggingEnabled: Bool {
        get { state.withLock { $0.debugLoggingEnabled } }
        set { state.withLock { $0.debugLoggingEnabled = newValue } }
    }

    /// The logger the core uses when none is passed in. Replace it to route logs to your own handler.
    ///
    /// The default, `Logger(label: "strada")` from `LoggingSystem`, is made the first time it is read. A Swift
    /// plugin carries its own copy of swift-log; the SDK sets this to a logger that writes through the host's
    /// table before anything reads it, so the plugin's copy of `LoggingSystem` (and its locks) is never set up
    /// — an intermittent crash in swift-log's lock set-up while many plugins loaded under load went with it.
    public var logger: Logger {
        get {
            if let logger = state.withLock({ $0.logger }) { return logger }
            let made = Logger(label: "strada")  // outside the lock: a bootstrapped factory may log
            return state.withLock { state in
                if let existing = state.logger { return existing }
                state.logger = made
                return made
            }
        }
        set { state.withLock { $0.logger = newValue } }
    }

    /// Logs `message` at debug level when debug logging is on.
    func debug(_ message: @autoclosure () -> String, logger: Logger? = nil) {
        guard debugLoggingEnabled else { return }
        (logger ?? self.logger).info("\(message())")
    }
}
