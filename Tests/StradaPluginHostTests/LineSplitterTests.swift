import Testing

@testable import StradaPluginHost

/// `LineSplitter`: the worker pipes' lines, however the bytes arrive.
struct LineSplitterTests {
    func feed(_ splitter: inout LineSplitter, _ text: String) throws -> [String] {
        try Array(text.utf8).withUnsafeBytes { try splitter.append($0) }.map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func linesSplitAcrossReadsComeOutWholeAndInOrder() throws {
        var splitter = LineSplitter(limit: 1 << 20)
        #expect(try feed(&splitter, "ab") == [])
        #expect(try feed(&splitter, "c\nde\n\nf") == ["abc", "de", ""])
        #expect(splitter.pendingCount == 1)
        #expect(try feed(&splitter, "g\n") == ["fg"])
        #expect(splitter.pendingCount == 0)
    }

    @Test func aLineLongerThanTheLimitBreaksTheStream() throws {
        var splitter = LineSplitter(limit: 8)
        #expect(try feed(&splitter, "12345678") == [])
        #expect(throws: LineSplitter.TooLong.self) { try feed(&splitter, "9") }
    }
}
