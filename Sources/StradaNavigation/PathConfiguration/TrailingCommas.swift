/// Trailing commas (`[1, 2,]`, `{"a": 1,}`) in a path configuration document, found and blanked so the strict
/// JSON reader can read the rest.
///
/// Why accepted: iOS reads path configurations with Foundation's `JSONSerialization`, which takes a trailing
/// comma as a convenience, and the iOS demo's own document carried one for over a year. Android reads them with
/// Gson, which refuses one in an object ("Expected name") and reads one in an array as a `null` element. A
/// document shared by the three apps loads here as on iOS, and each comma is reported
/// (``PathConfigurationNotice``) because Android's app would refuse the same file.
///
/// Only a comma followed (after whitespace) by `]` or `}` is trailing; `[1,,]` is still an error. Each comma is
/// replaced by a space, so every byte offset (and so every error's line and column) stays that of the original.
enum TrailingCommas {
    /// `text` without its trailing commas, and the byte offset of each one removed.
    static func blanked(in text: String) -> (text: String, offsets: [Int]) {
        var bytes = Array(text.utf8)
        var offsets: [Int] = []
        var inString = false
        var escaped = false
        for index in bytes.indices {
            let byte = bytes[index]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: ","), closesNext(bytes, after: index) {
                offsets.append(index)
            }
        }
        guard !offsets.isEmpty else { return (text, []) }
        for offset in offsets { bytes[offset] = UInt8(ascii: " ") }
        return (String(decoding: bytes, as: UTF8.self), offsets)
    }

    /// Whether the next byte after `index` that is not JSON whitespace closes an array or object.
    private static func closesNext(_ bytes: [UInt8], after index: Int) -> Bool {
        var next = index + 1
        while next < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[next]) { next += 1 }
        return next < bytes.count && (bytes[next] == UInt8(ascii: "]") || bytes[next] == UInt8(ascii: "}"))
    }
}
