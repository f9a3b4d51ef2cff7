import StradaCore
import StradaOverflowMenuComponent
import StradaTesting
import Testing

/// The first-party `overflow-menu` component: a "more" button; a press answers `connect`.
@MainActor
@Suite struct OverflowMenuComponentTests {
    static func page() -> BridgeHarness { BridgeHarness(components: [OverflowMenuComponent.self]) }

    @Test func connectShowsAMoreIconButtonAtTheEndWithTheLabel() throws {
        let page = Self.page()
        page.send("overflow-menu", "1", "connect", #"{"label":"More actions"}"#)
        let button = try #require(page.controls.buttons["overflow-menu.more"])
        #expect(button.title == "More actions")
        #expect(button.iconName == "view-more-symbolic")
        #expect(button.placement == .end && button.isEnabled && button.style == .normal)
        #expect(page.controls.buttons.count == 1)
        #expect(page.replies.isEmpty)
    }

    @Test func withoutALabelTheTitleIsMore() {
        let page = Self.page()
        page.send("overflow-menu", "1", "connect")
        #expect(page.controls.buttons["overflow-menu.more"]?.title == "More")
    }

    @Test func aPressRepliesToConnect() throws {
        let page = Self.page()
        page.send("overflow-menu", "3", "connect", #"{"label":"More actions"}"#)
        #expect(page.controls.press("overflow-menu.more"))
        let reply = try #require(page.lastReply)
        #expect(reply.id == "3" && reply.component == "overflow-menu" && reply.event == "connect")
        #expect(reply.dataValue?["label"] == "More actions")
        page.controls.press("overflow-menu.more")
        #expect(page.replies.map(\.id) == ["3", "3"])
    }

    @Test func aRepeatedConnectUpdatesTheButtonAndAnswersTheNewMessage() {
        let page = Self.page()
        page.send("overflow-menu", "1", "connect", #"{"label":"More"}"#)
        page.send("overflow-menu", "2", "connect", #"{"label":"Options"}"#)
        #expect(page.controls.buttons.count == 1)
        #expect(page.controls.buttons["overflow-menu.more"]?.title == "Options")
        page.controls.press("overflow-menu.more")
        #expect(page.replies.map(\.id) == ["2"])
    }

    @Test func disconnectRemovesTheButton() {
        let page = Self.page()
        page.send("overflow-menu", "1", "connect", #"{"label":"More actions"}"#)
        page.send("overflow-menu", "2", "disconnect")
        #expect(page.controls.buttons.isEmpty)
        #expect(!page.controls.press("overflow-menu.more"))
        #expect(page.replies.isEmpty)
    }

    /// A label of the wrong type falls back to "More" (the button is still the page's); an unknown event
    /// or a disconnect with odd data changes nothing it should not.
    @Test func malformedDataIsHarmless() {
        let page = Self.page()
        page.send("overflow-menu", "1", "connect", #"{"label":{"text":"More actions"}}"#)
        #expect(page.controls.buttons["overflow-menu.more"]?.title == "More")
        page.send("overflow-menu", "2", "open", #"{"label":"Other"}"#)
        #expect(page.controls.buttons["overflow-menu.more"]?.title == "More")
        page.send("overflow-menu", "3", "disconnect", #"{"label":5}"#)
        #expect(page.controls.buttons.isEmpty)
        #expect(page.replies.isEmpty)
    }
}
