/// The JSON reader: one pass over UTF-8 bytes, no intermediate tokens, bounded by `JSONLimits`.
struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    let limits: JSONLimits
    var index = 0
    var depth = 0
    /// A member of the top-level object whose value's byte range is recorded in `captured`.
    var captureKey: String?
    var captured: Range<Int>?
    /// Some object repeated a key.
    var sawDuplicateKeys = false

    mutating func object(_ members: [(key: String, value: JSON)]) -> JSON {
        let object = JSONObject(parsed: members)
        if object.count != members.count { sawDuplicateKeys = true }
        return .object(object)
    }

    init(bytes: UnsafeBufferPointer<UInt8>, limits: JSONLimits) {
        self.bytes = bytes
        self.limits = limits
    }

    func fail(_ reason: String) -> JSONParseError { JSONParseError(reason: reason, offset: index) }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func parseDocument() throws(JSONParseError) -> JSON {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        if index != bytes.count { throw fail("unexpected trailing characters") }
        return value
    }

    mutating func parseValue() throws(JSONParseError) -> JSON {
        guard index < bytes.count else { throw fail("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw fail("unexpected character")
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw fail("unexpected end of input") }
        let start = literal.utf8Start
        for offset in 0..<count where bytes[index + offset] != start[offset] {
            throw fail("invalid literal")
        }
        index += count
    }

    mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > limits.maxDepth { throw fail("nesting deeper than \(limits.maxDepth)") }
    }

    mutating func parseObject() throws(JSONParseError) -> JSON {
        var fields: [(key: String, value: JSON)] = []
        fields.reserveCapacity(8)
        try members { parser, name throws(JSONParseError) in
            let key = parser.string(of: name)
            let start = parser.index
            fields.append((key, try parser.parseValue()))
            if parser.depth == 1, let captureKey = parser.captureKey, key == captureKey {
                parser.captured = start..<parser.index
            }
        }
        return object(fields)
    }

    mutating func parseArray() throws(JSONParseError) -> JSON {
        var elements: [JSON] = []
        if try opensEmpty("]") { return .array(elements) }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            if try closes("]") { return .array(elements) }
        }
    }

    /// A member name as read: its bytes when it has no escapes (the web library's keys), else decoded.
    enum Key {
        case raw(Range<Int>)
        case decoded(String)
    }

    /// Reads a member name without making a string of it unless it has escapes (`"d\u0061ta"` is `data`).
    mutating func readKey() throws(JSONParseError) -> Key {
        let start = index + 1
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20
        {
            end += 1
        }
        guard end < bytes.count, bytes[end] == UInt8(ascii: "\"") else { return .decoded(try parseString()) }
        index = end + 1
        return .raw(start..<end)
    }

    /// A member name as a string.
    func string(of key: Key) -> String {
        switch key {
        case .raw(let range): String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        case .decoded(let text): text
        }
    }

    /// Whether `key` is `name`.
    func key(_ key: Key, is name: StaticString) -> Bool {
        let spelled = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        switch key {
        case .raw(let range): return range.count == spelled.count && spelled.elementsEqual(bytes[range])
        case .decoded(let text): return text.utf8.elementsEqual(spelled)
        }
    }

    /// value, and must read or skip the value. Nesting, separators and the closing brace are checked here.
    mutating func members(_ body: (inout JSONParser, Key) throws(JSONParseError) -> Void) throws(JSONParseError) {
        if try opensEmpty("}") { return }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a string key") }
            let name = try readKey()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':'") }
            index += 1
            skipWhitespace()
            try body(&self, name)
            if try closes("}") { return }
        }
    }

    /// At a container's opening bracket: enters it (one nesting level) and `true` when `closing` follows at once
    /// (the empty container is read and left). Inlined, as ``closes(_:)``.
    @inline(__always) mutating func opensEmpty(_ closing: Unicode.Scalar) throws(JSONParseError) -> Bool {
        try enter()
        index += 1
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: closing) else { return false }
        index += 1
        depth -= 1
        return true
    }

    /// After a member or an element: `true` when `closing` ends the container here (its nesting level is left),
    /// `false` after a `,`. (Inlined: called once per member on the message path, where a call showed in the
    /// per-message instruction count; docs/engine.md has the figure.)
    @inline(__always) mutating func closes(_ closing: Unicode.Scalar) throws(JSONParseError) -> Bool {
        skipWhitespace()
        guard index < bytes.count else { throw fail("unexpected end of input") }
        if bytes[index] == UInt8(ascii: ",") {
            index += 1
            return false
        }
        guard bytes[index] == UInt8(ascii: closing) else { throw fail("expected ',' or '\(closing)'") }
        index += 1
        depth -= 1
        return true
    }

    /// Validates one value as `parseValue` would, building nothing.
    mutating func skipValue() throws(JSONParseError) {
        guard index < bytes.count else { throw fail("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): try members { parser, _ throws(JSONParseError) in try parser.skipValue() }
        case UInt8(ascii: "["): try skipArray()
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "t"): try expectLiteral("true")
        case UInt8(ascii: "f"): try expectLiteral("false")
        case UInt8(ascii: "n"): try expectLiteral("null")
        // Converted, so a number out of range is an error here as in `parseValue` (short integers skip strtod).
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try parseNumber()
        default: throw fail("unexpected character")
        }
    }

    mutating func skipArray() throws(JSONParseError) {
        if try opensEmpty("]") { return }
        while true {
            skipWhitespace()
            try skipValue()
            if try closes("]") { return }
        }
    }

    /// Validates a string as `parseString` would (escapes, control characters), building nothing.
    mutating func skipString() throws(JSONParseError) {
        index += 1  // opening quote
        while index < bytes.count {
            let c = bytes[index]
            if c == UInt8(ascii: "\"") {
                index += 1
                return
            }
            if c == UInt8(ascii: "\\") {
                index += 1
                guard index < bytes.count else { throw fail("unexpected end of input") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    break
                case UInt8(ascii: "u"): _ = try parseHex4()
                default: throw fail("invalid escape")
                }
                continue
            }
            if c < 0x20 { throw fail("control character in string") }
            index += 1
        }
        throw fail("unterminated string")
    }

    mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[index]
            let digit: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw fail("invalid hex digit in \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    mutating func parseString() throws(JSONParseError) -> String {
        index += 1  // opening quote
        let start = index
        // Fast path: no escapes.
        while index < bytes.count {
            let c = bytes[index]
            if c == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                // The input came from a Swift String, so it is valid UTF-8 already.
                return String(decoding: slice, as: UTF8.self)
            }
            if c == UInt8(ascii: "\\") || c < 0x20 { break }
            index += 1
        }
        var scalars = [UInt8](UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let c = bytes[index]
            switch c {
            case UInt8(ascii: "\""):
                index += 1
                return scalars.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw fail("unexpected end of input") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append(0x22)
                case UInt8(ascii: "\\"): scalars.append(0x5C)
                case UInt8(ascii: "/"): scalars.append(0x2F)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try parseHex4()
                    if (0xD800...0xDBFF).contains(code) {
                        // A pair when a low surrogate escape follows; otherwise a lone one (the next escape,
                        // if any, is read on its own).
                        let mark = index
                        var low: UInt32?
                        if index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"),
                            bytes[index + 1] == UInt8(ascii: "u")
                        {
                            index += 2
                            let candidate = try parseHex4()
                            if (0xDC00...0xDFFF).contains(candidate) { low = candidate } else { index = mark }
                        }
                        if let low {
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            code = 0xFFFD
                        }
                    } else if (0xDC00...0xDFFF).contains(code) {
                        code = 0xFFFD
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw fail("invalid code point") }
                    scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
                default: throw fail("invalid escape")
                }
            default:
                if c < 0x20 { throw fail("control character in string") }
                scalars.append(c)
                index += 1
            }
        }
        throw fail("unterminated string")
    }

    mutating func parseNumber() throws(JSONParseError) -> JSON {
        let (range, isInteger) = try scanNumber()
        // Up to 15 digits: exact in a Double, so no need for the C library's conversion.
        if isInteger, range.count <= 15 {
            var negative = false
            var value = 0
            for byte in UnsafeBufferPointer(rebasing: bytes[range]) {
                if byte == UInt8(ascii: "-") { negative = true } else { value = value * 10 + Int(byte &- 0x30) }
            }
            return .number(negative ? -Double(value) : Double(value))  // "-0" stays -0, as JSON.parse has it
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw fail("number out of range") }
        return .number(value)
    }

    /// Validates one number (RFC 8259's grammar) and returns where it is, and whether it is an integer.
    mutating func scanNumber() throws(JSONParseError) -> (range: Range<Int>, isInteger: Bool) {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
        guard index < bytes.count, isDigit(bytes[index]) else { throw fail("invalid number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail("invalid number") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            isInteger = false
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail("invalid number") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            isInteger = false
        }
        return (start..<index, isInteger)
    }
}
