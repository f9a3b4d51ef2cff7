import StradaNavigation
import Testing

/// A tab switched away from and back: the stack, its controls and Back are as they were; a hidden tab's
/// controls never reach the window.
@MainActor
@Suite struct NavigatorTabsTests {
    let site = ["/": ["menu"], "/form": ["save"], "/done": []]

    @Test(arguments: [true, false]) func aHiddenTabsControlsLeaveTheWindowAndComeBackAsTheyWere(turbo: Bool) {
        let page = FakePage(turbo: turbo, site: site)
        page.start("/")
        page.click("/form")
        #expect(page.shown == ["save.button"])
        #expect(page.window.backButtonVisible)

        page.navigator.hideFromWindow()
        #expect(page.shown == [])
        #expect(page.paths == "/ /form")

        page.navigator.showInWindow()
        #expect(page.shown == ["save.button"])
        #expect(page.paths == "/ /form")
        #expect(page.window.backButtonVisible)
        #expect(page.navigator.back())
        #expect(page.paths == "/")
        #expect(page.shown == ["menu.button"])
    }

    @Test func aScreenPushedInAHiddenTabKeepsItsControlsUntilTheTabIsShown() {
        let page = FakePage(turbo: true, site: site)
        page.start("/")
        page.navigator.hideFromWindow()
        page.click("/form")
        #expect(page.paths == "/ /form")
        #expect(page.shown == [])
        page.navigator.showInWindow()
        #expect(page.shown == ["save.button"])
    }

    @Test func hidingOrShowingTwiceChangesNothing() {
        let page = FakePage(turbo: true, site: site)
        page.start("/")
        page.navigator.showInWindow()
        #expect(page.shown == ["menu.button"])
        page.navigator.hideFromWindow()
        page.navigator.hideFromWindow()
        #expect(page.shown == [])
        page.navigator.showInWindow()
        #expect(page.shown == ["menu.button"])
    }
}
