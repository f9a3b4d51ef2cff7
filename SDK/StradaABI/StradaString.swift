public import CStradaPlugin

#if canImport(Glibc)
import Glibc
#endif

// The Swift side of the ABI's string convention, shared by the host and the Swift SDK: UTF-8
// (pointer, length) pairs, borrowed for the duration of a call.

extension strada_string {
    /// The string, or `nil` when it is not valid UTF-8.
    public var string: String? {
        guard length > 0 else { return "" }
        guard let data else { return nil }
        let bytes = UnsafeRawBufferPointer(start: data, count: Int(length))
        // Decoding (the standard library's fast path) repairs invalid UTF-8 with U+FFFD, so the text has the
        // same bytes exactly when they were valid. `String(validating:)` says the same at several times the
        // cost (a generic, unspecialised walk; the count is in docs/engine.md).
        let text = String(decoding: bytes.bindMemory(to: UInt8.self), as: UTF8.self)
        let same = text.utf8.withContiguousStorageIfAvailable { decoded in
            decoded.count == bytes.count && memcmp(decoded.baseAddress!, data, bytes.count) == 0
        }
        return same == true ? text : nil
    }
}

/// Calls `body` with a borrowed `strada_string` for `text` (valid only during the call).
public func withStradaString<R>(_ text: String, _ body: (strada_string) -> R) -> R {
    var text = text
    return text.withUTF8 { buffer in
        buffer.withMemoryRebound(to: CChar.self) { chars in
            body(strada_string(data: chars.baseAddress, length: UInt64(chars.count)))
        }
    }
}
