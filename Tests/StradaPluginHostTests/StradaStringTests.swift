import CStradaPlugin
import StradaABI
import Testing

/// `strada_string.string`: what crosses the ABI becomes a Swift string only when it is valid UTF-8.
struct StradaStringTests {
    func read(_ bytes: [UInt8]) -> String? {
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                strada_string(data: $0.baseAddress, length: UInt64($0.count)).string
            }
        }
    }

    @Test func validUTF8IsReadAsItIs() {
        let texts = [
            "", "a", #"{"id":"1","data":{"t":"é ✓ 😀"}}"#, "\u{2028}\u{FFFD}", String(repeating: "ü", count: 300),
        ]
        for text in texts {
            #expect(read(Array(text.utf8)) == text)
        }
        #expect(strada_string(data: nil, length: 0).string == "")
    }

    /// Each of these decodes (repaired) to text of a different spelling; some to the same length, e.g. a
    /// truncated four-byte sequence becomes one U+FFFD of three bytes.
    @Test(
        arguments: [
            [0x80], [0x61, 0xC3], [0xF0, 0x90, 0x80], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xC0, 0xAF],
            [0xF5, 0x80, 0x80, 0x80], [0xFF], [0x7B, 0x22, 0xF0, 0x90, 0x80, 0x22, 0x7D], [0xEF, 0xBF],
        ] as [[UInt8]])
    func invalidUTF8IsRefused(bytes: [UInt8]) {
        #expect(read(bytes) == nil)
    }

    @Test func aNullPointerWithALengthIsRefused() {
        #expect(strada_string(data: nil, length: 3).string == nil)
    }
}
