import Foundation
import StradaAutomation

/// Cuts a worker pipe's byte stream into its units, however the bytes arrive: ``WorkerMessage`` lines (`\n`,
/// not included) and payload frames (a ``WorkerFrame`` header, then that many raw bytes). Each byte of a line is
/// looked at once (a 10 MiB line read 64 KiB at a time is not searched again from its start on every read), and
/// a frame's payload is copied once, into a buffer of the length its header gives.
struct WorkerStreamReader {
    /// One unit of the stream.
    enum Unit: Equatable {
        case line([UInt8])
        case frame(WorkerFrame, payload: [UInt8])
    }

    /// Why the stream is broken: the other side is not speaking the protocol. Nothing after it is read.
    enum Failure: Error, Equatable, CustomStringConvertible {
        /// A line passed the limit without ending.
        case lineTooLong(length: Int)
        /// A line starting with `#` that is not a frame header.
        case badHeader
        /// A frame header announcing more payload than the limit.
        case frameTooLarge(length: Int)

        var description: String {
            switch self {
            case .lineTooLong(let length): "a line of more than \(length) bytes"
            case .badHeader: "a malformed frame header"
            case .frameTooLarge(let length): "a frame of \(length) bytes, over the limit"
            }
        }
    }

    /// A line longer than this (no newline yet), or a frame's payload longer than this, breaks the stream.
    let limit: Int
    private var pending: [UInt8] = []
    /// The frame whose payload is being read, and its bytes so far.
    private var frame: (header: WorkerFrame, payload: [UInt8])?
    private var broken: Failure?

    init(limit: Int) { self.limit = limit }

    /// Bytes held back until their line or frame ends.
    var pendingCount: Int { pending.count + (frame?.payload.count ?? 0) }

    /// Adds `bytes` and returns the units they complete, in order; throws once the stream breaks (and again on
    /// every later call).
    mutating func append(_ bytes: UnsafeRawBufferPointer) throws(Failure) -> [Unit] {
        if let broken { throw broken }
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return [] }
        var units: [Unit] = []
        var offset = 0
        do throws(Failure) {
            while offset < bytes.count {
                if frame != nil {
                    offset += takePayload(UnsafeBufferPointer(start: base + offset, count: bytes.count - offset))
                    if let (header, payload) = frame, payload.count == header.length {
                        units.append(.frame(header, payload: payload))
                        frame = nil
                    }
                    continue
                }
                guard let hit = memchr(base + offset, 0x0A, bytes.count - offset) else {
                    pending.append(contentsOf: UnsafeBufferPointer(start: base + offset, count: bytes.count - offset))
                    offset = bytes.count
                    if pending.count > limit { throw Failure.lineTooLong(length: limit) }
                    break
                }
                let end = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
                var line = pending
                pending = []
                line.append(contentsOf: UnsafeBufferPointer(start: base + offset, count: end - offset))
                offset = end + 1
                if line.count > limit { throw Failure.lineTooLong(length: limit) }
                if let unit = try unit(forLine: line) { units.append(unit) }
            }
        } catch {
            broken = error
            throw error
        }
        return units
    }

    /// A complete line: itself, or a frame's header (then `nil` until its payload is read, unless it is empty).
    private mutating func unit(forLine line: [UInt8]) throws(Failure) -> Unit? {
        guard line.first == WorkerFrame.marker else { return .line(line) }
        guard let header = WorkerFrame(header: line) else { throw Failure.badHeader }
        guard header.length <= limit else { throw Failure.frameTooLarge(length: header.length) }
        if header.length == 0 { return .frame(header, payload: []) }
        var payload: [UInt8] = []
        payload.reserveCapacity(header.length)
        frame = (header, payload)
        return nil
    }

    /// Copies as much of `bytes` as the current frame still needs; returns how many.
    private mutating func takePayload(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard var current = frame else { return 0 }
        frame = nil  // keeps the payload uniquely referenced while it grows
        let count = min(current.header.length - current.payload.count, bytes.count)
        current.payload.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[0..<count]))
        frame = current
        return count
    }
}
