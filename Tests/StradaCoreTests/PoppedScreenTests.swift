import Logging
import StradaCore
import StradaTesting
import Testing

/// What a screen's pop does to its page (the navigator's `Screen.disappear()` then `destroy()`), seen from
/// the components: replies from then on go nowhere, return `false`, and say why in one log line.
@MainActor
struct PoppedScreenTests {
    let store = InMemoryLogHandler.Store()
    let harness: BridgeHarness

    init() {
        let store = self.store
        harness = BridgeHarness(
            components: [RecordingComponent.self], url: "https://app.test/posts/new",
            logger: Logger(label: "test") { _ in InMemoryLogHandler(store: store) })
    }

    func pop() {
        harness.delegate.onViewWillDisappear()
        harness.delegate.onViewDidDisappear()
        harness.delegate.webViewDidBecomeDeactivated()
        harness.delegate.destroyComponents()
    }

    @Test func aReplyAfterTheScreenWasPoppedReturnsFalseWithALogLine() throws {
        harness.send(
            json:
                #"{"id":"1","component":"one","event":"connect""#
                + #","data":{"metadata":{"url":"https://app.test/posts/new"}}}"#
        )
        let component: RecordingComponent = try #require(harness.component())
        pop()
        #expect(component.destroyed)
        #expect(!component.reply(to: "connect"))
        #expect(harness.replies.isEmpty)
        #expect(store.messages.contains { $0.contains("reply one/connect #1 dropped") })
    }

    @Test func anAsyncReplyAfterThePopIsFalseNotAnError() async throws {
        harness.send(
            json:
                #"{"id":"7","component":"one","event":"connect""#
                + #","data":{"metadata":{"url":"https://app.test/posts/new"}}}"#
        )
        let component: RecordingComponent = try #require(harness.component())
        pop()
        #expect(try await component.reply(to: "connect") == false)
        #expect(harness.replies.isEmpty)
    }
}
