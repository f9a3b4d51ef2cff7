import StradaAlertComponent
import StradaCore
import StradaTesting
import Testing

/// The first-party `alert` component: a confirmation dialog; confirming answers `show`, dismissing does not.
@MainActor
@Suite struct AlertComponentTests {
    static func page() -> BridgeHarness { BridgeHarness(components: [AlertComponent.self]) }

    @Test func showPresentsTheDialogThePageDescribed() throws {
        let page = Self.page()
        let data =
            #"{"title":"Delete this draft?","description":"It cannot be undone.","destructive":true,"#
            + #""confirm":"Delete","dismiss":"Keep"}"#
        page.send("alert", "1", "show", data)
        let alert = try #require(page.controls.alerts["alert.alert"])
        #expect(alert.title == "Delete this draft?")
        #expect(alert.message == "It cannot be undone.")
        #expect(alert.confirmTitle == "Delete" && alert.dismissTitle == "Keep")
        #expect(alert.isDestructive)
        #expect(page.replies.isEmpty)
    }

    @Test func withOnlyATitleTheDialogHasDefaultActionsAndIsNotDestructive() throws {
        let page = Self.page()
        page.send("alert", "1", "show", #"{"title":"Sure?"}"#)
        let alert = try #require(page.controls.alerts["alert.alert"])
        #expect(alert.message == nil)
        #expect(alert.confirmTitle == "OK" && alert.dismissTitle == "Cancel")
        #expect(!alert.isDestructive)
    }

    /// The other catalogue's vocabulary: `message`, `confirmTitle`, `dismissTitle`.
    @Test func theOtherVocabularyNamesTheSameFields() throws {
        let page = Self.page()
        page.send(
            "alert", "1", "show",
            #"{"title":"Leave?","message":"Unsaved.","confirmTitle":"Leave","#
                + #""dismissTitle":"Stay"}"#)
        let alert = try #require(page.controls.alerts["alert.alert"])
        #expect(alert.message == "Unsaved.")
        #expect(alert.confirmTitle == "Leave" && alert.dismissTitle == "Stay")
    }

    @Test func confirmingRepliesToShowWithEmptyData() throws {
        let page = Self.page()
        page.send("alert", "7", "show", #"{"title":"Delete?"}"#)
        #expect(page.controls.answer(true, alert: "alert.alert"))
        let reply = try #require(page.lastReply)
        #expect(page.replies.count == 1)
        #expect(reply.id == "7" && reply.component == "alert" && reply.event == "show")
        #expect(reply.dataValue == [:])
        #expect(page.controls.alerts.isEmpty)
    }

    @Test func dismissingSendsNothing() {
        let page = Self.page()
        page.send("alert", "1", "show", #"{"title":"Delete?"}"#)
        #expect(page.controls.answer(false, alert: "alert.alert"))
        #expect(page.replies.isEmpty)
        #expect(page.controls.alerts.isEmpty)
    }

    /// A second `show` replaces the dialog, and confirming it answers the second message.
    @Test func aLaterShowReplacesTheDialogAndIsTheOneAnswered() throws {
        let page = Self.page()
        page.send("alert", "1", "show", #"{"title":"First?"}"#)
        page.send("alert", "2", "show", #"{"title":"Second?"}"#)
        #expect(page.controls.alerts.count == 1)
        #expect(page.controls.alerts["alert.alert"]?.title == "Second?")
        page.controls.answer(true, alert: "alert.alert")
        #expect(page.replies.map(\.id) == ["2"])
    }

    /// No title, or a field of the wrong type: no dialog, no reply.
    @Test func malformedDataShowsNothing() {
        let page = Self.page()
        page.send("alert", "1", "show", #"{"description":"no title"}"#)
        page.send("alert", "2", "show", #"{"title":"Delete?","destructive":"yes"}"#)
        page.send("alert", "3", "show", #"{"title":42}"#)
        page.send("alert", "4", "open", #"{"title":"Unknown event"}"#)
        #expect(page.controls.alerts.isEmpty)
        #expect(page.replies.isEmpty)
    }

    /// An alert answered after its page is gone sends nothing to the page.
    @Test func confirmingAfterThePageWentSendsNothing() {
        let page = Self.page()
        page.send("alert", "1", "show", #"{"title":"Delete?"}"#)
        page.delegate.destroyComponents()
        page.controls.answer(true, alert: "alert.alert")
        #expect(page.replies.isEmpty)
    }
}
