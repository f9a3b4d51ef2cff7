import StradaAutomation
import Testing

@testable import StradaPluginHost

/// `WorkerStreamReader`: the worker pipes' lines and payload frames, however the bytes arrive.
struct WorkerStreamReaderTests {
    func feed(_ reader: inout WorkerStreamReader, _ bytes: [UInt8]) throws -> [WorkerStreamReader.Unit] {
        try bytes.withUnsafeBytes { raw in try reader.append(raw) }
    }

    func feed(_ reader: inout WorkerStreamReader, _ text: String) throws -> [WorkerStreamReader.Unit] {
        try feed(&reader, Array(text.utf8))
    }

    func line(_ text: String) -> WorkerStreamReader.Unit { .line(Array(text.utf8)) }

    func reply(_ instance: Int, _ payload: String) -> WorkerStreamReader.Unit {
        .frame(WorkerFrame(op: .reply, instance: instance, length: payload.utf8.count), payload: Array(payload.utf8))
    }

    @Test func linesSplitAcrossReadsComeOutWholeAndInOrder() throws {
        var reader = WorkerStreamReader(limit: 1 << 20)
        #expect(try feed(&reader, "ab") == [])
        #expect(try feed(&reader, "c\nde\n\nf") == [line("abc"), line("de"), line("")])
        #expect(reader.pendingCount == 1)
        #expect(try feed(&reader, "g\n") == [line("fg")])
        #expect(reader.pendingCount == 0)
    }

    @Test func aLineLongerThanTheLimitBreaksTheStream() throws {
        var reader = WorkerStreamReader(limit: 8)
        #expect(try feed(&reader, "12345678") == [])
        #expect(throws: WorkerStreamReader.Failure.lineTooLong(length: 8)) { try feed(&reader, "9") }
    }

    @Test func aFramesPayloadIsTakenAsItIsNewlinesIncluded() throws {
        var reader = WorkerStreamReader(limit: 1 << 20)
        let payload = "{\"a\":\n1}"
        let pong = #"{"op":"pong"}"#
        let units = try feed(&reader, "\(pong)\n#reply 3 \(payload.utf8.count)\n\(payload)\(pong)\n")
        #expect(units == [line(#"{"op":"pong"}"#), reply(3, payload), line(#"{"op":"pong"}"#)])
    }

    @Test func aFrameSplitAcrossReadsComesOutWholeOnce() throws {
        var reader = WorkerStreamReader(limit: 1 << 20)
        let payload = String(repeating: "x", count: 1000)
        let bytes = Array("#reply 12 1000\n\(payload)#reply 1 0\n".utf8)
        var units: [WorkerStreamReader.Unit] = []
        // One byte at a time, then in uneven pieces: the header and the payload both cross reads.
        for byte in bytes { units += try feed(&reader, [byte]) }
        #expect(units == [reply(12, payload), reply(1, "")])
        units = []
        var rest = bytes[...]
        for size in [3, 7, 200, 1, 804] {  // 1,015 bytes: the first frame exactly
            units += try feed(&reader, Array(rest.prefix(size)))
            rest = rest.dropFirst(size)
        }
        #expect(units == [reply(12, payload)])
        #expect(reader.pendingCount == 0)
        #expect(try feed(&reader, Array(rest)) == [reply(1, "")])
    }

    @Test(arguments: [
        "#reply 1\n", "#reply x 2\n", "#reply 1 -2\n", "#ping 1 2\n", "#reply 1 2 3\n", "# reply 1 2\n",
    ])
    func aMalformedHeaderBreaksTheStream(header: String) throws {
        var reader = WorkerStreamReader(limit: 1 << 20)
        #expect(throws: WorkerStreamReader.Failure.badHeader) { try feed(&reader, header + "{}") }
    }

    @Test func aFrameLargerThanTheLimitIsOneErrorAndNothingAfterIsRead() throws {
        var reader = WorkerStreamReader(limit: 1024)
        #expect(throws: WorkerStreamReader.Failure.frameTooLarge(length: 1025)) {
            try feed(&reader, "#reply 1 1025\n")
        }
        // Broken for good: the bytes that follow are not read as lines or frames.
        #expect(throws: WorkerStreamReader.Failure.frameTooLarge(length: 1025)) { try feed(&reader, "{}\n") }
    }

    @Test func aHeaderRoundTripsThroughItsText() throws {
        let frame = WorkerFrame(op: .receive, instance: 42, length: 1 << 20)
        #expect(frame.header == Array("#receive 42 1048576\n".utf8))
        #expect(WorkerFrame(header: frame.header.dropLast()) == frame)
        #expect(WorkerFrame(header: Array("#receive 1 1234567890123456789".utf8)) == nil)
    }
}
