import StradaCore
import StradaPageComponent
import StradaTesting
import Testing

/// The first-party `page` component: the window title and subtitle; each one shown answers `connect`.
@MainActor
@Suite struct PageComponentTests {
    static func page() -> BridgeHarness { BridgeHarness(components: [PageComponent.self]) }

    @Test func connectSetsTheWindowTitleAndRepliesWithIt() throws {
        let page = Self.page()
        page.send("page", "1", "connect", #"{"title":"Inbox","subtitle":"3 unread"}"#)
        let shown = try #require(page.controls.windowTitle)
        #expect(shown.title == "Inbox" && shown.subtitle == "3 unread")
        let reply = try #require(page.lastReply)
        #expect(page.replies.count == 1)
        #expect(reply.id == "1" && reply.component == "page" && reply.event == "connect")
        #expect(reply.dataValue == ["title": "Inbox", "subtitle": "3 unread"])
    }

    @Test func withoutASubtitleThereIsNone() throws {
        let page = Self.page()
        page.send("page", "1", "connect", #"{"title":"Inbox"}"#)
        let shown = try #require(page.controls.windowTitle)
        #expect(shown.title == "Inbox" && shown.subtitle == nil)
        #expect(page.lastReply?.dataValue?["title"] == "Inbox")
        #expect(page.lastReply?.dataValue?["subtitle"] ?? .null == .null)
    }

    /// `change` sets the new title and replies to `connect` again (the page's callback for the title shown).
    @Test func changeSetsTheNewTitleAndAnswersConnect() throws {
        let page = Self.page()
        page.send("page", "1", "connect", #"{"title":"Inbox","subtitle":"3 unread"}"#)
        page.send("page", "2", "change", #"{"title":"Archive","subtitle":"128 conversations"}"#)
        let shown = try #require(page.controls.windowTitle)
        #expect(shown.title == "Archive" && shown.subtitle == "128 conversations")
        #expect(page.replies.map(\.id) == ["1", "1"])
        #expect(page.replies.map(\.event) == ["connect", "connect"])
        #expect(page.lastReply?.dataValue == ["title": "Archive", "subtitle": "128 conversations"])
    }

    @Test func aChangeWithoutASubtitleClearsIt() {
        let page = Self.page()
        page.send("page", "1", "connect", #"{"title":"Inbox","subtitle":"3 unread"}"#)
        page.send("page", "2", "change", #"{"title":"Drafts"}"#)
        #expect(page.controls.windowTitle?.title == "Drafts")
        #expect(page.controls.windowTitle?.subtitle == nil)
    }

    /// A `change` before any `connect` sets the title; there is no `connect` to answer, so no reply.
    @Test func aChangeBeforeConnectSetsTheTitleWithoutAReply() {
        let page = Self.page()
        page.send("page", "1", "change", #"{"title":"Archive"}"#)
        #expect(page.controls.windowTitle?.title == "Archive")
        #expect(page.replies.isEmpty)
    }

    @Test func thePageGoingAwayGivesTheTitleBack() throws {
        let page = Self.page()
        page.send("page", "1", "connect", #"{"title":"Inbox","subtitle":"3 unread"}"#)
        page.delegate.destroyComponents()
        let shown = try #require(page.controls.windowTitle)
        #expect(shown.title == nil && shown.subtitle == nil)
    }

    /// No title, a title of the wrong type or an unknown event: the title stays, nothing is sent.
    @Test func malformedDataChangesNothing() {
        let page = Self.page()
        page.send("page", "1", "connect", #"{"subtitle":"no title"}"#)
        page.send("page", "2", "connect", #"{"title":null}"#)
        #expect(page.controls.windowTitle == nil)
        page.send("page", "3", "connect", #"{"title":"Inbox"}"#)
        page.send("page", "4", "change", #"{"title":["Archive"]}"#)
        page.send("page", "5", "change", #"{"title":"Archive","subtitle":12}"#)
        page.send("page", "6", "rename", #"{"title":"Archive"}"#)
        #expect(page.controls.windowTitle?.title == "Inbox")
        #expect(page.replies.map(\.id) == ["3"])
    }
}
