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
