public import Foundation
public import Logging
import Synchronization

/// The namespace upstream component code expects: `Strada.config` and `Strada.userAgentSubstring(for:)`.
public enum Strada {
    /// The one configuration the host sets: JSON codec settings and debug logging. Message decoding and
    /// reply encoding in every component use it, including components loaded from plugins (the host
    /// forwards its codec settings across the plugin ABI).
    public static var config: StradaConfig { scoped ?? shared }

    private static let shared = StradaConfig()
    @TaskLocal private static var scoped: StradaConfig?

    /// Runs `body` with `config` as ``config`` for the current task (and its child tasks) only: what tests
    /// that change the configuration use, so that they cannot race with anything else in the process.
    package static func withConfig<R>(_ config: StradaConfig, _ body: () throws -> R) rethrows -> R {
        try $scoped.withValue(config, operation: body)
    }

    /// `bridge-components: [a b]` for the given component types, as the web libraries look for it.
    package static func userAgentSubstring(for componentTypes: [BridgeComponent.Type]) -> String {
        userAgentSubstring(forNames: componentTypes.map { $0.name })
    }

    /// `bridge-components: [a b]` for the given component names (order kept, duplicates removed).
    package static func userAgentSubstring(forNames names: [String]) -> String {
        "bridge-components: [\(names.uniqued().joined(separator: " "))]"
    }
}

/// JSON codec settings that can be described as data, so they can cross the plugin ABI.
package struct CodecSettings: Sendable, Hashable, Codable {
    package enum KeyStrategy: String, Sendable, Codable, CaseIterable {
        case useDefaultKeys, snakeCase
    }
    package enum DateStrategy: String, Sendable, Codable, CaseIterable {
        case deferredToDate, iso8601, secondsSince1970, millisecondsSince1970
    }
    /// Key strategy: `snakeCase` encodes `submitTitle` as `submit_title` and decodes it back.
    package var keys: KeyStrategy
    package var dates: DateStrategy

    package init(keys: KeyStrategy = .useDefaultKeys, dates: DateStrategy = .deferredToDate) {
        self.keys = keys
        self.dates = dates
    }

    /// A decoder configured with these settings.
    package func makeDecoder() -> JSONDecoder {
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
    package func makeEncoder() -> JSONEncoder {
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
    package var json: String {
        JSON.object(["keys": .string(keys.rawValue), "dates": .string(dates.rawValue)]).serialized(sortedKeys: true)
    }

    /// The settings an encoder follows, or `nil` when its strategies cannot be described (custom ones).
    package init?(encoder: JSONEncoder) {
        switch encoder.keyEncodingStrategy {
        case .useDefaultKeys: keys = .useDefaultKeys
        case .convertToSnakeCase: keys = .snakeCase
        default: return nil
        }
        switch encoder.dateEncodingStrategy {
        case .deferredToDate: dates = .deferredToDate
        case .iso8601: dates = .iso8601
        case .secondsSince1970: dates = .secondsSince1970
        case .millisecondsSince1970: dates = .millisecondsSince1970
        default: return nil
        }
    }

    /// The settings a decoder follows, or `nil` when its strategies cannot be described (custom ones).
    package init?(decoder: JSONDecoder) {
        switch decoder.keyDecodingStrategy {
        case .useDefaultKeys: keys = .useDefaultKeys
        case .convertFromSnakeCase: keys = .snakeCase
        default: return nil
        }
        switch decoder.dateDecodingStrategy {
        case .deferredToDate: dates = .deferredToDate
        case .iso8601: dates = .iso8601
        case .secondsSince1970: dates = .secondsSince1970
        case .millisecondsSince1970: dates = .millisecondsSince1970
        default: return nil
        }
    }

    /// Reads settings written by ``json``; unknown or missing values fall back to the defaults.
    package init(json: String) {
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

    package init() {}

    /// Codec settings — the one source of truth: setting them rebuilds ``jsonEncoder`` and ``jsonDecoder``,
    /// and they are what crosses to plugins, so in-process components and plugins always agree.
    package var codec: CodecSettings {
        get { state.withLock { $0.codec } }
        set {
            state.withLock {
                $0.codec = newValue
                $0.encoder = newValue.makeEncoder()
                $0.decoder = newValue.makeDecoder()
            }
        }
    }

    /// The encoder replies use (`Message.replacing(data:)`, `reply(to:with:)`). Setting one also sets the
    /// host's codec settings from its key and date strategies, so plugins follow; an encoder whose strategies
    /// cannot cross to plugins (custom ones) is refused with a log line, and nothing changes. In a plugin,
    /// it is the host's (`strada-host run --keys`), set before any component is made.
    public var jsonEncoder: JSONEncoder {
        get { state.withLock { $0.encoder } }
        set {
            guard let settings = CodecSettings(encoder: newValue) else {
                return logger.warning(
                    "Strada.config.jsonEncoder not set: its key or date strategy cannot reach plugins — set codec")
            }
            state.withLock {
                $0.codec = settings
                $0.encoder = newValue
                $0.decoder = settings.makeDecoder()
            }
        }
    }

    /// The decoder `Message.data()` uses. Setting one sets the codec settings from it (and the encoder to
    /// match), or is refused with a log line, as for ``jsonEncoder``.
    public var jsonDecoder: JSONDecoder {
        get { state.withLock { $0.decoder } }
        set {
            guard let settings = CodecSettings(decoder: newValue) else {
                return logger.warning(
                    "Strada.config.jsonDecoder not set: its key or date strategy cannot reach plugins — set codec")
            }
            state.withLock {
                $0.codec = settings
                $0.decoder = newValue
                $0.encoder = settings.makeEncoder()
            }
        }
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
