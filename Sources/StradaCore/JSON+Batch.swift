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
