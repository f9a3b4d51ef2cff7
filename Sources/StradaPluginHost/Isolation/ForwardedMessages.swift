import Foundation
import StradaCore

/// The messages a connection forwarded to its worker and not yet seen back, with the text it sent: a reply whose
/// bytes are one of these texts exactly (a component answering with the message it got) is that message, already
/// parsed and checked by the host, so it is not parsed again — as ``ForeignComponent`` does in process. The worker
/// is not trusted: anything else it sends is parsed and checked in full.
///
/// Kept by instance and text length (a reply that is a message's text has its length), oldest first; a reply
/// takes the oldest match, and the messages of that length sent to that instance before it go (their replies, if
/// any come, are parsed). At most ``maxCount`` messages and ``maxBytes`` bytes of text are held (their text is
/// shared with the message cache, not copied); past that the oldest go. A burst of 20,000 messages sent at once
/// is answered from here: with only the last 16 remembered, nearly every reply of a burst was parsed again on the
/// reader thread (~16 µs a message, more than the worker's whole work). Any thread.
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
    private struct Entry {
        let wire: String
        let message: Message
        let order: Int
    }
    /// One key's entries, oldest first, from `head` on.
    private struct Bucket {
        var entries: [Entry] = []
        var head = 0
        var isEmpty: Bool { head == entries.count }
    }

    private let lock = NSLock()
    private var buckets: [Key: Bucket] = [:]
    /// Every entry remembered in order, for forgetting the oldest; ones already taken are skipped then.
    private var order: [(key: Key, order: Int)] = []
    private var orderHead = 0
    private var next = 0
    private var count = 0
    private var bytes = 0

    /// Remembers that `message`, as `wire`, went to `instance`; the oldest are forgotten past the limits.
    func remember(instance: Int, wire: String, message: Message) {
        let size = wire.utf8.count
        guard size <= Self.maxBytes else { return }
        let key = Key(instance: instance, length: size)
        lock.withLock {
            next += 1
            buckets[key, default: Bucket()].entries.append(Entry(wire: wire, message: message, order: next))
            order.append((key, next))
            count += 1
            bytes += size
            while count > Self.maxCount || bytes > Self.maxBytes, orderHead < order.count {
                let (oldest, number) = order[orderHead]
                orderHead += 1
                if let first = buckets[oldest].map({ $0.entries[$0.head] }), first.order == number {
                    drop(through: buckets[oldest]!.head, of: oldest)
                }
            }
            compactOrder()
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
        for entry in bucket.entries[bucket.head...index] {
            count -= 1
            bytes -= entry.wire.utf8.count
        }
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

    /// Keeps the order list from growing with entries already taken: rebuilt from the live ones when it holds
    /// more than twice as many (under the lock).
    private func compactOrder() {
        guard order.count - orderHead > 2 * count + 64 || (orderHead > 64 && orderHead * 2 > order.count) else {
            return
        }
        var live: Set<Int> = []
        for bucket in buckets.values { for entry in bucket.entries[bucket.head...] { live.insert(entry.order) } }
        order = order[orderHead...].filter { live.contains($0.order) }
        orderHead = 0
    }
}
