import StradaCore
import StradaTesting
import Testing

/// The shipped harness: what it sends is what a page sends, what it reads back is what the bridge evaluated.
@MainActor
struct BridgeHarnessTests {
    let harness = BridgeHarness(components: [RecordingComponent.self, OtherComponent.self], url: "https://app.test/a")

    @Test func aMessageSentAsAValueArrivesAsTheSameMessage() throws {
        let message = Message(
            id: "3", component: "one", event: "connect", metadata: .init(url: "https://app.test/a"),
            jsonData: #"{"title":"a \"quoted\" title","metadata":{"url":"https://app.test/a"}}"#)
        harness.send(message)
        let component: RecordingComponent = try #require(harness.component())
        #expect(component.received == [message])
    }

    @Test func repliesRegistrationsAndUnregistrationsAreReadBackAsValues() throws {
        harness.send(json: #""ready""#)
        harness.send(
            json: #"{"id":"1","component":"one","event":"connect","data":{"metadata":{"url":"https://app.test/a"}}}"#)
        let component: RecordingComponent = try #require(harness.component())
        #expect(component.reply(to: "connect", with: #"{"n":1}"#))
        harness.bridge.unregister(component: "two")
        #expect(harness.registrations == [["one", "two"]])
        #expect(harness.unregistrations == ["two"])
        #expect(
            harness.replies == [
                Message(id: "1", component: "one", event: "connect", metadata: nil, jsonData: #"{"n":1}"#)
            ])
        #expect(harness.lastReply?.dataValue == ["n": 1])
        #expect(harness.calls.count == 3)
        harness.clear()
        #expect(harness.calls.isEmpty)
    }

    @Test func aScriptThatIsNoAdapterCallIsKeptAsItWasEvaluated() {
        #expect(BridgeCall(script: "alert(1)") == .other("alert(1)"))
        #expect(
            BridgeCall(script: #"window.nativeBridge.register([1])"#) == .other(#"window.nativeBridge.register([1])"#))
    }
}
