import StradaCore
import StradaShareComponent
import StradaTesting
import Testing

/// The first-party `share` component: a share button whose menu copies the link or opens it in the browser.
@MainActor
@Suite struct ShareComponentTests {
    static func page() -> BridgeHarness { BridgeHarness(components: [ShareComponent.self]) }

    static let walk = #"{"url":"https://app.test/posts/7","title":"A walk along the canal"}"#

    @Test func connectShowsAShareIconButtonAtTheEnd() throws {
        let page = Self.page()
        page.send("share", "1", "connect", Self.walk)
        let button = try #require(page.controls.buttons["share.share"])
        #expect(button.title == "Share")
        #expect(button.iconName == "emblem-shared-symbolic")
        #expect(button.placement == .end && button.isEnabled)
        #expect(page.controls.menus.isEmpty)
        #expect(page.replies.isEmpty)
    }

    @Test func aPressOpensTheChoicesUnderTheButton() throws {
        let page = Self.page()
        page.send("share", "1", "connect", Self.walk)
        #expect(page.controls.press("share.share"))
        let menu = try #require(page.controls.menus["share.share-menu"])
        #expect(menu.title == "A walk along the canal")
        #expect(menu.items == [.init(title: "Copy link", index: 0), .init(title: "Open in browser", index: 1)])
        #expect(menu.anchorButton == "share.share")
        #expect(page.replies.isEmpty)
    }

    @Test func withoutATitleTheMenuSaysShare() {
        let page = Self.page()
        page.send("share", "1", "connect", #"{"url":"https://app.test/"}"#)
        page.controls.press("share.share")
        #expect(page.controls.menus["share.share-menu"]?.title == "Share")
    }

    @Test func copyLinkPutsTheURLOnTheClipboardWithAToast() {
        let page = Self.page()
        page.send("share", "1", "connect", Self.walk)
        page.controls.press("share.share")
        #expect(page.controls.choose(0, inMenu: "share.share-menu"))
        #expect(page.controls.clipboard == "https://app.test/posts/7")
        #expect(page.controls.toasts == ["Link copied"])
        #expect(page.controls.openedURLs.isEmpty)
        #expect(page.replies.isEmpty)
    }

    @Test func openInBrowserOpensTheURL() {
        let page = Self.page()
        page.send("share", "1", "connect", Self.walk)
        page.controls.press("share.share")
        #expect(page.controls.choose(1, inMenu: "share.share-menu"))
        #expect(page.controls.openedURLs == ["https://app.test/posts/7"])
        #expect(page.controls.clipboard == nil && page.controls.toasts.isEmpty)
        #expect(page.replies.isEmpty)
    }

    @Test func dismissingTheMenuDoesNothing() {
        let page = Self.page()
        page.send("share", "1", "connect", Self.walk)
        page.controls.press("share.share")
        #expect(page.controls.choose(nil, inMenu: "share.share-menu"))
        #expect(page.controls.clipboard == nil && page.controls.toasts.isEmpty && page.controls.openedURLs.isEmpty)
        #expect(page.controls.buttons["share.share"] != nil)
    }

    /// A repeated connect (the page's URL changed) shares the new URL, with one button.
    @Test func aRepeatedConnectSharesTheNewURL() {
        let page = Self.page()
        page.send("share", "1", "connect", Self.walk)
        page.send("share", "2", "connect", #"{"url":"https://app.test/posts/8","title":"By the river"}"#)
        #expect(page.controls.buttons.count == 1)
        page.controls.press("share.share")
        #expect(page.controls.menus["share.share-menu"]?.title == "By the river")
        page.controls.choose(0, inMenu: "share.share-menu")
        #expect(page.controls.clipboard == "https://app.test/posts/8")
    }

    @Test func disconnectRemovesTheButton() {
        let page = Self.page()
        page.send("share", "1", "connect", Self.walk)
        page.send("share", "2", "disconnect")
        #expect(page.controls.buttons.isEmpty)
        #expect(!page.controls.press("share.share"))
        #expect(page.controls.menus.isEmpty)
    }

    /// No URL, or one of the wrong type: no button (there is nothing to share); an unknown event changes
    /// nothing.
    @Test func malformedDataShowsNothing() {
        let page = Self.page()
        page.send("share", "1", "connect", #"{"title":"No link"}"#)
        page.send("share", "2", "connect", #"{"url":["https://app.test/"]}"#)
        page.send("share", "3", "share", Self.walk)
        #expect(page.controls.buttons.isEmpty)
        #expect(page.replies.isEmpty)
    }
}
