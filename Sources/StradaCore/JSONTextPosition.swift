/// A place in a JSON text as a person finds it in an editor: 1-based line and column (columns count Unicode
/// scalars, so `é` is one column), from the byte offset a `JSONParseError` carries.
package struct JSONTextPosition: Sendable, Equatable, CustomStringConvertible {
    package let line: Int
    package let column: Int

    package init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// The position of UTF-8 byte `offset` in `text` (an offset past the end is the end).
    package init(offset: Int, in text: String) {
        var line = 1
        var lineStart = 0
        let utf8 = Array(text.utf8.prefix(max(0, offset)))
        for (index, byte) in utf8.enumerated() where byte == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        // Continuation bytes (10xxxxxx) do not start a scalar.
        let column = utf8[lineStart...].reduce(1) { count, byte in byte & 0xC0 == 0x80 ? count : count + 1 }
        self.init(line: line, column: column)
    }

    package var description: String { "line \(line), column \(column)" }
}

extension JSONParseError {
    /// Where in `text` (the text that was parsed) the error is, as line and column.
    package func position(in text: String) -> JSONTextPosition { JSONTextPosition(offset: offset, in: text) }
}
