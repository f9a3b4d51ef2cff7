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

    @Test func onlyTheLatestFewAreRemembered() throws {
        let forwarded = ForwardedMessages()
        let oldest = try message("0")
        forwarded.remember(instance: 1, wire: oldest.wire, message: oldest.message)
        for id in 1...ForwardedMessages.maxCount {
            let next = try message(String(id))
            forwarded.remember(instance: 1, wire: next.wire, message: next.message)
        }
        #expect(lookUp(forwarded, 1, oldest.wire) == nil)
        let newest = try message(String(ForwardedMessages.maxCount))
        #expect(lookUp(forwarded, 1, newest.wire) != nil)
    }
}
