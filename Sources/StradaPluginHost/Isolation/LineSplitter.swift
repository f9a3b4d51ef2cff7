import Foundation

/// Cuts a byte stream into lines (`\n`, not included), however the bytes arrive. Each byte is looked at once:
/// a 10 MiB line read 64 KiB at a time is not searched again from its start on every read.
struct LineSplitter {
    /// A line longer than this (no newline yet) breaks the stream: the other side is not speaking the protocol.
    let limit: Int
    private var pending: [UInt8] = []
    /// How far `pending` has been searched for a newline.
    private var searched = 0

    init(limit: Int) { self.limit = limit }

    /// Bytes held back until their line ends.
    var pendingCount: Int { pending.count }

    /// Adds `bytes` and returns the lines they complete, in order; throws ``TooLong`` once a line passes
    /// ``limit`` without ending.
    mutating func append(_ bytes: UnsafeRawBufferPointer) throws(TooLong) -> [[UInt8]] {
        pending.append(contentsOf: bytes)
        var lines: [[UInt8]] = []
        var start = 0
        pending.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var from = searched
            while from < buffer.count, let hit = memchr(base + from, 0x0A, buffer.count - from) {
                let end = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                lines.append(Array(buffer[start..<end]))
                start = end + 1
                from = start
            }
        }
        pending.removeFirst(start)
        searched = pending.count
        if pending.count > limit { throw TooLong(length: pending.count) }
        return lines
    }

    /// A line passed the limit without ending.
    struct TooLong: Error { let length: Int }
}
