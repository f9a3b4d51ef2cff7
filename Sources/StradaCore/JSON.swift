/// A JSON value: what travels in a message's `data`.
///
/// Real JSON, not `[String: Any]`: nested objects and arrays survive every hop (web → native → reply → web),
/// equality is by value (object key order never matters), and serialisation can sort keys so output is
/// byte-stable on Linux, where dictionary order is not.
public enum JSON: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    case object(JSONObject)

    /// The value under `key` when this is an object.
    public subscript(key: String) -> JSON? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The string payload, when this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The members, when this is an object.
    public var objectValue: JSONObject? {
        if case .object(let members) = self { return members }
        return nil
    }
}

// MARK: - Limits

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

// MARK: - Parsing

extension JSON {
    /// Parses one JSON text (RFC 8259). Rejects trailing garbage and input beyond `limits`. A lone surrogate
    /// escape (`"\ud800"`, which `JSON.stringify` writes for a truncated emoji) is valid JSON text: it reads as
    /// U+FFFD in the Swift string (the raw text of message data is kept as the page wrote it).
    public init(parsing text: String, limits: JSONLimits = .messages) throws(JSONParseError) {
        self = try JSON.parse(text, limits: limits, capturing: nil).value
    }

    /// Parses `text` and also returns the exact text of the top-level object's member `key`, if present
    /// (so a message's `data` can be kept as the page sent it, without serialising it again).
    /// `duplicateKeys`: some object repeated a key (the value keeps the last, as `JSON.parse` does).
    static func parse(
        _ text: String, limits: JSONLimits, capturing key: String?
    ) throws(JSONParseError) -> (value: JSON, captured: String?, duplicateKeys: Bool) {
        var text = text
        let result = text.withUTF8 { buffer -> Result<(JSON, String?, Bool), JSONParseError> in
            if buffer.count > limits.maxBytes {
                return .failure(
                    JSONParseError(reason: "input is \(buffer.count) bytes, limit is \(limits.maxBytes)", offset: 0))
            }
            var parser = Parser(bytes: buffer, limits: limits)
            parser.captureKey = key
            do throws(JSONParseError) {
                let value = try parser.parseDocument()
                let captured = parser.captured.map {
                    String(decoding: UnsafeBufferPointer(rebasing: buffer[$0]), as: UTF8.self)
                }
                return .success((value, captured, parser.sawDuplicateKeys))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

/// A wire message's envelope read straight from its text (see `JSON.parseEnvelope`).
struct WireEnvelope {
    /// `id`, `component` and `event` when they are strings (`nil` when absent or another kind of value).
    var id: String?
    var component: String?
    var event: String?
    /// The exact text of `data`, if present.
    var data: String?
    var dataIsObject = false
    /// `data.metadata.url`, when it is a string.
    var metadataURL: String?
}

extension JSON {
    /// Reads one message's wire object without building it: `id`, `component` and `event` are parsed, `data`
    /// is validated and kept as text (its `metadata` parsed), other members are validated and skipped. A
    /// repeated member counts with its last value, as `JSON.parse` has it. Throws what `parse` would for
    /// text that is not JSON, and "message is not a JSON object" for a JSON text that is not an object.
    static func parseEnvelope(_ text: String, limits: JSONLimits) throws(JSONParseError) -> WireEnvelope {
        var text = text
        let result = text.withUTF8 { buffer -> Result<WireEnvelope, JSONParseError> in
            if buffer.count > limits.maxBytes {
                return .failure(
                    JSONParseError(reason: "input is \(buffer.count) bytes, limit is \(limits.maxBytes)", offset: 0))
            }
            var parser = Parser(bytes: buffer, limits: limits)
            do throws(JSONParseError) {
                return .success(try parser.parseEnvelopeDocument())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

extension JSON {
    /// The texts of the elements of the top-level JSON array `text` (a batch of messages from the page), found
    /// by a scan that only tracks strings and nesting; each element is parsed on its own later. `nil` when
    /// `text` is not one bracketed array with balanced nesting. An empty array has no elements.
    package static func arrayElements(_ text: String) -> [String]? {
        var text = text
        return text.withUTF8 { bytes -> [String]? in
            var index = 0
            func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
            while index < bytes.count, isSpace(bytes[index]) { index += 1 }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else { return nil }
            index += 1
            var elements: [String] = []
            var depth = 0
            var start = index
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    // A string, read in a tight loop up to its closing quote (most of a message's bytes).
                    index += 1
                    while index < bytes.count {
                        let inner = bytes[index]
                        if inner == UInt8(ascii: "\"") { break }
                        index += inner == UInt8(ascii: "\\") ? 2 : 1
                    }
                case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
                case UInt8(ascii: "}"): depth -= 1
                case UInt8(ascii: "]") where depth == 0:
                    let last = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                    index += 1
                    while index < bytes.count, isSpace(bytes[index]) { index += 1 }
                    guard index == bytes.count else { return nil }
                    if !elements.isEmpty || last.utf8.contains(where: { !isSpace($0) }) { elements.append(last) }
                    return elements
                case UInt8(ascii: "]"): depth -= 1
                case UInt8(ascii: ",") where depth == 0:
                    elements.append(
                        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
                    start = index + 1
                default: break
                }
                if depth < 0 { return nil }
                index += 1
            }
            return nil
        }
    }
}

private struct Parser {
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

    /// A document that must be one object, read as a `WireEnvelope`; any other JSON text is validated and
    /// reported as not an object.
    mutating func parseEnvelopeDocument() throws(JSONParseError) -> WireEnvelope {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else {
            try skipValue()
            skipWhitespace()
            if index != bytes.count { throw fail("unexpected trailing characters") }
            throw JSONParseError(reason: "message is not a JSON object", offset: 0)
        }
        var envelope = WireEnvelope()
        try members { parser, key throws(JSONParseError) in
            switch parser.envelopeKey(key) {
            case .id: envelope.id = try parser.parseStringOrSkip()
            case .component: envelope.component = try parser.parseStringOrSkip()
            case .event: envelope.event = try parser.parseStringOrSkip()
            case .data:
                let start = parser.index
                envelope.metadataURL = nil
                envelope.dataIsObject = start < parser.bytes.count && parser.bytes[start] == UInt8(ascii: "{")
                if envelope.dataIsObject {
                    try parser.members { parser, key throws(JSONParseError) in
                        if parser.key(key, is: "metadata") {
                            envelope.metadataURL = try parser.parseMetadataURL()
                        } else {
                            try parser.skipValue()
                        }
                    }
                } else {
                    try parser.skipValue()
                }
                envelope.data = String(
                    decoding: UnsafeBufferPointer(rebasing: parser.bytes[start..<parser.index]), as: UTF8.self)
            case .other: try parser.skipValue()
            }
        }
        skipWhitespace()
        if index != bytes.count { throw fail("unexpected trailing characters") }
        return envelope
    }

    /// The envelope's members the parser reads; the rest are validated and skipped.
    enum EnvelopeKey { case id, component, event, data, other }

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

    func envelopeKey(_ name: Key) -> EnvelopeKey {
        if key(name, is: "id") { return .id }
        if key(name, is: "data") { return .data }
        if key(name, is: "event") { return .event }
        if key(name, is: "component") { return .component }
        return .other
    }

    /// `data.metadata`: its "url" (the last one, as `JSON.parse` has it) when metadata is an object and that
    /// member is a string; everything else validated and skipped.
    mutating func parseMetadataURL() throws(JSONParseError) -> String? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else {
            try skipValue()
            return nil
        }
        var url: String?
        try members { parser, key throws(JSONParseError) in
            guard parser.key(key, is: "url") else { return try parser.skipValue() }
            url = try parser.parseStringOrSkip()
        }
        return url
    }

    /// A string value, or `nil` after validating and skipping a value of another kind.
    mutating func parseStringOrSkip() throws(JSONParseError) -> String? {
        if index < bytes.count, bytes[index] == UInt8(ascii: "\"") { return try parseString() }
        try skipValue()
        return nil
    }

    /// Reads the object at `index` member by member: `body` gets each member's name, with `index` at its
    /// value, and must read or skip the value. Nesting, separators and the closing brace are checked here.
    mutating func members(_ body: (inout Parser, Key) throws(JSONParseError) -> Void) throws(JSONParseError) {
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
    /// `false` after a `,`. (Inlined: called once per member on the message path; as a call it cost ~245
    /// instructions per message.)
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

// MARK: - Serialising

extension JSON {
    /// Compact JSON text. With `sortedKeys`, object members are written in key order (byte-stable output).
    public func serialized(sortedKeys: Bool = false) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(128)
        write(to: &out, sortedKeys: sortedKeys)
        return String(decoding: out, as: UTF8.self)
    }

    private func write(to out: inout [UInt8], sortedKeys: Bool) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let value): out.append(contentsOf: JSON.format(value).utf8)
        case .string(let value): JSON.writeString(value, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                if offset > 0 { out.append(UInt8(ascii: ",")) }
                element.write(to: &out, sortedKeys: sortedKeys)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            var first = true
            if sortedKeys {
                for (key, value) in members.members.sorted(by: { $0.key < $1.key }) {
                    if !first { out.append(UInt8(ascii: ",")) }
                    first = false
                    JSON.writeString(key, to: &out)
                    out.append(UInt8(ascii: ":"))
                    value.write(to: &out, sortedKeys: true)
                }
            } else {
                for (key, value) in members {
                    if !first { out.append(UInt8(ascii: ",")) }
                    first = false
                    JSON.writeString(key, to: &out)
                    out.append(UInt8(ascii: ":"))
                    value.write(to: &out, sortedKeys: false)
                }
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Writes `value` as a JSON string literal. U+2028/U+2029 are escaped too, so the output is also a valid
    /// JavaScript literal (it is spliced into evaluated script). Runs of plain bytes are copied at once.
    static func writeString(_ value: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        writeStringContents(value, to: &out)
        out.append(UInt8(ascii: "\""))
    }

    /// What goes between a JSON string's quotes for `value`: `"`, `\`, control characters and U+2028/U+2029
    /// escaped (the last two so the text is also a valid JavaScript string literal in any engine).
    package static func writeStringContents(_ value: String, to out: inout [UInt8]) {
        var value = value
        value.withUTF8 { bytes in
            let count = bytes.count
            var runStart = 0
            var index = 0
            while index < count {
                let byte = bytes[index]
                let needsEscape =
                    byte < 0x20 || byte == 0x22 || byte == 0x5C
                    || (byte == 0xE2 && index + 2 < count && bytes[index + 1] == 0x80
                        && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9))
                if !needsEscape {
                    index += 1
                    continue
                }
                if index > runStart { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index])) }
                out.append(UInt8(ascii: "\\"))
                switch byte {
                case 0x22: out.append(UInt8(ascii: "\""))
                case 0x5C: out.append(UInt8(ascii: "\\"))
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "t"))
                case 0xE2:
                    out.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "2"), UInt8(ascii: "0"), UInt8(ascii: "2")])
                    out.append(bytes[index + 2] == 0xA8 ? UInt8(ascii: "8") : UInt8(ascii: "9"))
                    index += 2
                default:
                    out.append(contentsOf: [
                        UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hexDigits[Int(byte >> 4)],
                        hexDigits[Int(byte & 0xF)],
                    ])
                }
                index += 1
                runStart = index
            }
            if count > runStart { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<count])) }
        }
    }
}

extension JSON: CustomStringConvertible {
    public var description: String { serialized(sortedKeys: true) }
}

extension JSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSON)...) {
        self = .object(JSONObject(parsed: elements.map { (key: $0.0, value: $0.1) }))
    }
    public init(nilLiteral: ()) { self = .null }
}

/// A JSON object: members in the order they were written (so a round trip keeps the page's key order),
/// looked up by key. Equality and hashing ignore order, as JSON's object semantics say.
public struct JSONObject: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// The members, in order, each key once.
    public private(set) var members: [(key: String, value: JSON)]

    public init() { members = [] }

    /// From a dictionary (keys sorted, so the order is stable).
    public init(_ dictionary: [String: JSON]) {
        members = dictionary.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }
    }

    public init(dictionaryLiteral elements: (String, JSON)...) {
        self.init(parsed: elements.map { (key: $0.0, value: $0.1) })
    }

    /// From members that may repeat a key: the last value wins, at the first position (as JSON.parse does).
    init(parsed: [(key: String, value: JSON)]) {
        if parsed.count <= 1 {
            members = parsed
            return
        }
        if parsed.count <= 16 {
            // Small objects (nearly all messages): a quadratic scan beats hashing every key.
            var duplicate = false
            outer: for i in 1..<parsed.count {
                for j in 0..<i where parsed[i].key == parsed[j].key {
                    duplicate = true
                    break outer
                }
            }
            if !duplicate {
                members = parsed
                return
            }
        }
        var positions: [String: Int] = [:]
        positions.reserveCapacity(parsed.count)
        var unique: [(key: String, value: JSON)] = []
        unique.reserveCapacity(parsed.count)
        for member in parsed {
            if let position = positions[member.key] {
                unique[position].value = member.value
            } else {
                positions[member.key] = unique.count
                unique.append(member)
            }
        }
        members = unique
    }

    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }
    public var keys: [String] { members.map(\.key) }

    public subscript(key: String) -> JSON? {
        get { members.first { $0.key == key }?.value }
        set {
            let position = members.firstIndex { $0.key == key }
            switch (position, newValue) {
            case (let position?, let value?): members[position].value = value
            case (let position?, nil): members.remove(at: position)
            case (nil, let value?): members.append((key, value))
            case (nil, nil): break
            }
        }
    }

    public func makeIterator() -> IndexingIterator<[(key: String, value: JSON)]> { members.makeIterator() }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return lhs.members.allSatisfy { member in rhs[member.key] == member.value }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        var combined = 0
        for member in members {
            var memberHasher = Hasher()
            memberHasher.combine(member.key)
            memberHasher.combine(member.value)
            combined ^= memberHasher.finalize()
        }
        hasher.combine(combined)
    }
}
