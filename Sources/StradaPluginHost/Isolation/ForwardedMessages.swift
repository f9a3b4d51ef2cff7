import Foundation
import StradaCore

/// The messages a connection forwarded to its worker and not yet seen back, with the text it sent: a reply whose
/// bytes are one of these texts exactly (a component answering with the message it got) is that message, already
/// parsed and checked by the host, so it is not parsed again — as ``ForeignComponent`` does in process. The worker
/// is not trusted: anything else it sends is parsed and checked in full.
///
/// Kept by instance and text length (a reply that is a message's text has its length), oldest first; a reply
/// takes the oldest match, and the messages of that length sent to that instance before it go (their replies, if
/// any come, are parsed). It is only a cache: past ``maxCount`` messages or ``maxBytes`` bytes of text (shared with
/// the message cache, not copied) it starts again empty, and the replies of what it forgot are parsed. A burst of
/// 20,000 messages sent at once is answered from here: with only the last 16 remembered, nearly every reply of a
/// burst was parsed again on the reader thread (~16 µs a message, more than the worker's whole work). Any thread.
final class ForwardedMessages: @unchecked Sendable {  // mutable state under `lock`
    /// Messages remembered at most, per connection.
    static let maxCount = 65_536
    /// Bytes of text remembered at most, per connection.
    static let maxBytes = 64 << 20
    /// Entries of one instance and length compared with a reply at most.
    static let scanned = 256

    private struct Key: Hashable {
        let instance: Int
        let length: Int
    }
    /// One key's messages and their texts, oldest first, from `head` on.
    private struct Bucket {
        var entries: [(wire: String, message: Message)] = []
        var head = 0
        var isEmpty: Bool { head == entries.count }
    }

    private let lock = NSLock()
    private var buckets: [Key: Bucket] = [:]
    private var count = 0
    private var bytes = 0

    /// Remembers that `message`, as `wire`, went to `instance`; past the limits, everything held is forgotten first.
    func remember(instance: Int, wire: String, message: Message) {
        let size = wire.utf8.count
        guard size <= Self.maxBytes else { return }
        let key = Key(instance: instance, length: size)
        lock.withLock {
            if count == Self.maxCount || bytes + size > Self.maxBytes {
                buckets = [:]
                count = 0
                bytes = 0
            }
            buckets[key, default: Bucket()].entries.append((wire, message))
            count += 1
            bytes += size
        }
    }

    /// The message forwarded to `instance` whose text is `reply` byte for byte, oldest first; `nil` when none is.
    func message(instance: Int, matching reply: UnsafeRawBufferPointer) -> Message? {
        let key = Key(instance: instance, length: reply.count)
        return lock.withLock {
            guard let bucket = buckets[key] else { return nil }
            // In order, a reply matches the first entry; a plugin that answers some messages and not others
            // leaves a few before it. Past the first `scanned`, it is parsed.
            for index in bucket.head..<min(bucket.entries.count, bucket.head + Self.scanned) {
                var text = bucket.entries[index].wire
                let same = text.withUTF8 { sent in
                    sent.isEmpty || memcmp(sent.baseAddress!, reply.baseAddress!, sent.count) == 0
                }
                guard same else { continue }
                let message = bucket.entries[index].message
                drop(through: index, of: key)
                return message
            }
            return nil
        }
    }

    /// Forgets `key`'s entries up to and including `index` (under the lock).
    private func drop(through index: Int, of key: Key) {
        guard var bucket = buckets[key] else { return }
        count -= index + 1 - bucket.head
        bytes -= (index + 1 - bucket.head) * key.length
        bucket.head = index + 1
        if bucket.isEmpty {
            buckets[key] = nil
        } else {
            if bucket.head > 64 && bucket.head * 2 > bucket.entries.count {
                bucket.entries.removeFirst(bucket.head)
                bucket.head = 0
            }
            buckets[key] = bucket
        }
    }
}
