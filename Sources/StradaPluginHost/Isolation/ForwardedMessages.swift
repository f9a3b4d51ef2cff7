import Foundation
import StradaCore

/// The last messages a connection forwarded to its worker, with the text it sent: a reply whose bytes are one
/// of these texts exactly (a component answering with the message it got) is that message, already parsed and
/// checked by the host, so it is not parsed again — as ``ForeignComponent`` does in process. The worker is not
/// trusted: anything else it sends is parsed and checked in full. Holds at most ``maxCount`` messages and
/// ``maxBytes`` bytes of text (their text is shared with the message cache, not copied). Any thread.
final class ForwardedMessages: @unchecked Sendable {  // mutable state under `lock`
    /// Messages remembered at most, per connection.
    static let maxCount = 16
    /// Bytes of text remembered at most, per connection.
    static let maxBytes = 64 << 20

    private let lock = NSLock()
    private var entries: [(instance: Int, wire: String, message: Message)] = []
    private var bytes = 0

    /// Remembers that `message`, as `wire`, went to `instance`; the oldest are forgotten past the limits.
    func remember(instance: Int, wire: String, message: Message) {
        let size = wire.utf8.count
        guard size <= Self.maxBytes else { return }
        lock.withLock {
            entries.append((instance, wire, message))
            bytes += size
            var drop = 0
            while entries.count - drop > Self.maxCount || bytes > Self.maxBytes {
                bytes -= entries[drop].wire.utf8.count
                drop += 1
            }
            entries.removeFirst(drop)
        }
    }

    /// The message forwarded to `instance` whose text is `reply` byte for byte, newest first; `nil` when none is.
    func message(instance: Int, matching reply: UnsafeRawBufferPointer) -> Message? {
        let candidates = lock.withLock {
            entries.filter { $0.instance == instance && $0.wire.utf8.count == reply.count }
        }
        for (_, wire, message) in candidates.reversed() {
            var text = wire
            let same = text.withUTF8 { sent in
                sent.count == reply.count
                    && (sent.isEmpty || memcmp(sent.baseAddress!, reply.baseAddress!, sent.count) == 0)
            }
            if same { return message }
        }
        return nil
    }
}
