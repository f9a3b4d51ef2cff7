import StradaCore
import StradaTesting
import StradaToastComponent
import Testing

/// The first-party `toast` component: a transient message; fire and forget.
@MainActor
@Suite struct ToastComponentTests {
    static func page() -> BridgeHarness { BridgeHarness(components: [ToastComponent.self]) }

    @Test func showShowsTheMessageAndRepliesNothing() {
        let page = Self.page()
        page.send("toast", "1", "show", #"{"message":"Saved to Drafts"}"#)
        #expect(page.controls.toasts == ["Saved to Drafts"])
        #expect(page.replies.isEmpty)
        #expect(page.controls.buttons.isEmpty && page.controls.alerts.isEmpty && page.controls.menus.isEmpty)
    }

    /// Every show is its own toast, in order, the same message twice included.
    @Test func eachShowIsAToast() {
        let page = Self.page()
        page.send("toast", "1", "show", #"{"message":"Saved"}"#)
        page.send("toast", "2", "show", #"{"message":"Sent"}"#)
        page.send("toast", "3", "show", #"{"message":"Sent"}"#)
        #expect(page.controls.toasts == ["Saved", "Sent", "Sent"])
    }

    /// An empty message is the page's to choose (the demo's empty form sends one).
    @Test func anEmptyMessageIsShownAsSent() {
        let page = Self.page()
        page.send("toast", "1", "show", #"{"message":""}"#)
        #expect(page.controls.toasts == [""])
    }

    /// No message, one of the wrong type, or an unknown event: no toast.
    @Test func malformedDataShowsNothing() {
        let page = Self.page()
        page.send("toast", "1", "show")
        page.send("toast", "2", "show", #"{"message":null}"#)
        page.send("toast", "3", "show", #"{"message":{"text":"Saved"}}"#)
        page.send("toast", "4", "display", #"{"message":"Saved"}"#)
        #expect(page.controls.toasts.isEmpty)
        #expect(page.replies.isEmpty)
    }

    /// A message for another page (a stale URL in its metadata) is not this page's: no toast.
    @Test func aMessageFromAnotherPageShowsNothing() {
        let page = Self.page()
        let stale =
            #"{"id":"1","component":"toast","event":"show","#
            + #""data":{"message":"Old","metadata":{"url":"https://app.test/elsewhere"}}}"#
        page.send(json: stale)
        #expect(page.controls.toasts.isEmpty)
    }
}
