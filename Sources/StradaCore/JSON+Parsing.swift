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
            var parser = JSONParser(bytes: buffer, limits: limits)
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
