import Foundation
import StradaCore
import Testing

@testable import StradaPluginHost

/// `ForwardedMessages`: a worker's reply is taken as a forwarded message only when it is that message's text
/// byte for byte, for the same instance; anything else is parsed and checked as usual.
struct ForwardedMessagesTests {
    func message(_ id: String, data: String = "{}") throws -> (wire: String, message: Message) {
        let wire = #"{"id":"\#(id)","component":"echo","event":"ping","data":\#(data)}"#
        return (wire, try Message(wireText: wire))
    }

    func lookUp(_ forwarded: ForwardedMessages, _ instance: Int, _ text: String) -> Message? {
        Array(text.utf8).withUnsafeBytes { forwarded.message(instance: instance, matching: $0) }
    }

    @Test func aReplyThatIsAForwardedTextIsThatMessage() throws {
        let forwarded = ForwardedMessages()
        let first = try message("1"), second = try message("2", data: #"{"n":2}"#)
        forwarded.remember(instance: 1, wire: first.wire, message: first.message)
        forwarded.remember(instance: 1, wire: second.wire, message: second.message)
        #expect(lookUp(forwarded, 1, first.wire)?.id == "1")
        #expect(lookUp(forwarded, 1, second.wire)?.id == "2")
    }

    @Test func anyOtherReplyIsNotTakenForOne() throws {
        let forwarded = ForwardedMessages()
        let sent = try message("1")
        forwarded.remember(instance: 1, wire: sent.wire, message: sent.message)
        #expect(lookUp(forwarded, 2, sent.wire) == nil)  // another instance
        #expect(lookUp(forwarded, 1, sent.wire.replacingOccurrences(of: "ping", with: "pong")) == nil)  // same length
        #expect(lookUp(forwarded, 1, sent.wire + " ") == nil)
        #expect(lookUp(forwarded, 1, "") == nil)
    }

    /// 20,000 messages sent at once, answered in order: every reply is known (with the last 16 remembered,
    /// nearly all of a burst's replies were parsed again).
    @Test func aBurstsRepliesAreAllKnown() throws {
        let forwarded = ForwardedMessages()
        let sent = try (0..<20_000).map { try message(String($0)) }
        for (wire, message) in sent { forwarded.remember(instance: 1, wire: wire, message: message) }
        let known = sent.filter { lookUp(forwarded, 1, $0.wire)?.id == $0.message.id }
        #expect(known.count == sent.count)
        // Each is taken once: the same text again is parsed.
        #expect(lookUp(forwarded, 1, sent[0].wire) == nil)
    }

    /// A reply takes the oldest match; the messages of its length sent before it go (their replies, if any come
    /// later, are parsed), those of other lengths and other instances stay.
    @Test func aReplyTakesItsMessageAndTheUnansweredOnesBeforeIt() throws {
        let forwarded = ForwardedMessages()
        let a = try message("a"), b = try message("b"), long = try message("c", data: #"{"n":1}"#)
        let other = try message("d")
        forwarded.remember(instance: 1, wire: a.wire, message: a.message)
        forwarded.remember(instance: 1, wire: long.wire, message: long.message)
        forwarded.remember(instance: 2, wire: other.wire, message: other.message)
        forwarded.remember(instance: 1, wire: b.wire, message: b.message)
        #expect(lookUp(forwarded, 1, b.wire)?.id == "b")
        #expect(lookUp(forwarded, 1, a.wire) == nil)
        #expect(lookUp(forwarded, 1, long.wire)?.id == "c")
        #expect(lookUp(forwarded, 2, other.wire)?.id == "d")
    }

    @Test func pastTheLimitItStartsAgainEmpty() throws {
        let forwarded = ForwardedMessages()
        let oldest = try message("0")
        forwarded.remember(instance: 1, wire: oldest.wire, message: oldest.message)
        for id in 1..<ForwardedMessages.maxCount {
            let next = try message(String(id))
            forwarded.remember(instance: 1, wire: next.wire, message: next.message)
        }
        let full = try message("full")
        forwarded.remember(instance: 1, wire: full.wire, message: full.message)
        // Everything before is forgotten (its replies are parsed); what came after is known.
        #expect(lookUp(forwarded, 1, oldest.wire) == nil)
        #expect(lookUp(forwarded, 1, try message(String(ForwardedMessages.maxCount - 1)).wire) == nil)
        #expect(lookUp(forwarded, 1, full.wire)?.id == "full")
    }
}
