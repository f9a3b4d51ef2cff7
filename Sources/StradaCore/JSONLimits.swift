/// Bounds the parser enforces so a hostile page cannot exhaust the host.
package struct JSONLimits: Sendable, Hashable {
    /// Deepest nesting of arrays/objects accepted.
    package var maxDepth: Int
    /// Largest input accepted, in UTF-8 bytes.
    package var maxBytes: Int

    package init(maxDepth: Int = 512, maxBytes: Int = 16 << 20) {
        self.maxDepth = maxDepth
        self.maxBytes = maxBytes
    }

    /// The defaults used for messages arriving from a page: 512 levels, 16 MiB.
    package static let messages = JSONLimits()
}

/// Why a JSON text was rejected; `description` is one line naming the position.
package struct JSONParseError: Error, CustomStringConvertible, Sendable, Equatable {
    package let reason: String
    package let offset: Int
    package var description: String { "invalid JSON at byte \(offset): \(reason)" }
}
