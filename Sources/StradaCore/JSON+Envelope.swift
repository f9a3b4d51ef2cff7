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
            var parser = JSONParser(bytes: buffer, limits: limits)
            do throws(JSONParseError) {
                return .success(try parser.parseEnvelopeDocument())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

extension JSONParser {
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
}
