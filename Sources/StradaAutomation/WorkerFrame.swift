/// The header of a payload frame between the host and a worker under `--isolate`: a message's JSON text
/// travels as raw bytes after one short text line, `#<op> <instance> <length>\n`, instead of inside a JSON line.
///
/// Rationale: a JSON line has to be built around the payload (a copy), searched for newlines (another pass,
/// and a copy when the page's text has any) and cut out again on the other side (two more copies). A frame's
/// payload is written from the sender's own string and read into one buffer of the length the header gives,
/// so a 1 MiB message is not copied through a JSON line at either end. Only `receive` (host → worker) and
/// `reply` (worker → host) travel as frames; every other operation stays one ``WorkerMessage`` line. A line
/// never starts with `#`, so a reader tells the two apart by the first byte.
package struct WorkerFrame: Sendable, Equatable {
    /// `receive` or `reply`.
    package let op: WorkerMessage.Op
    /// The component instance the payload is for.
    package let instance: Int
    /// Bytes of payload after the header.
    package let length: Int

    /// The byte that starts a frame's header.
    package static let marker = UInt8(ascii: "#")
    /// A payload up to this size is sent in the same write as its header (one copy of a few KiB costs less
    /// than a second system call and wake-up); a larger one is written from the sender's own storage.
    package static let smallPayload = 16 << 10
    /// A header line longer than this is not a header.
    package static let maxHeaderBytes = 64

    package init(op: WorkerMessage.Op, instance: Int, length: Int) {
        self.op = op
        self.instance = instance
        self.length = length
    }

    /// The header line, newline included.
    package var header: [UInt8] {
        Array("#\(op.rawValue) \(instance) \(length)\n".utf8)
    }

    /// Reads a header line (without its newline); `nil` when it is not `#receive|#reply <instance> <length>`
    /// with both numbers plain non-negative decimals of at most 18 digits.
    package init?(header line: some Collection<UInt8>) {
        guard line.count <= Self.maxHeaderBytes, line.first == Self.marker else { return nil }
        let fields = line.dropFirst().split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard fields.count == 3, let op = WorkerMessage.Op(rawValue: String(decoding: fields[0], as: UTF8.self)),
            op == .receive || op == .reply, let instance = Self.number(fields[1]), let length = Self.number(fields[2])
        else { return nil }
        self.init(op: op, instance: instance, length: length)
    }

    private static func number(_ digits: some Collection<UInt8>) -> Int? {
        guard !digits.isEmpty, digits.count <= 18,
            digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }
}
