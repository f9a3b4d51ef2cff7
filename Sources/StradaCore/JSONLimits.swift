/// Bounds the parser enforces so a hostile page cannot exhaust the host.
public struct JSONLimits: Sendable, Hashable {
    /// Deepest nesting of arrays/objects accepted.
    public var maxDepth: Int
    /// Largest input accepted, in UTF-8 bytes.
    public var maxBytes: Int

    public init(maxDepth: Int = 512, maxBytes: Int = 16 << 20) {
        self.maxDepth = maxDepth
        self.maxBytes = maxBytes
    }

    /// The defaults used for messages arriving from a page: 512 levels, 16 MiB.
    public static let messages = JSONLimits()
}

/// Why a JSON text was rejected; `description` is one line naming the position.
public struct JSONParseError: Error, CustomStringConvertible, Sendable, Equatable {
    public let reason: String
    public let offset: Int
    public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}
