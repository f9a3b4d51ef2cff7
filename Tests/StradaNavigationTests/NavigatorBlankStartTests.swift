import StradaCore
import StradaNavigation
import Testing

/// A window a WebDriver session drives starts on `about:blank`; the session's first navigation is a full load.
/// The blank document is never a screen to go back to: the first real page is the root screen, and a blank
/// document visited later (Capybara's reset between tests) starts the stack over.
@MainActor
@Suite struct NavigatorBlankStartTests {
    let site = ["/": ["menu"], "/form": ["save"], "/done": []]

    /// The host under `--webdriver`: the blank page first, then the driver's navigation.
    func driven(turbo: Bool) -> FakePage {
        let page = FakePage(turbo: turbo, site: site)
        page.window.requestedURL = "about:blank"
        page.load("about:blank")
        return page
    }

    @Test(arguments: [true, false]) func theFirstRealPageIsTheRootScreenAndBackHasNowhereToGo(turbo: Bool) {
        let page = driven(turbo: turbo)
        #expect(page.paths == "about:blank")
        page.load(FakePage.url("/form"))
        #expect(page.paths == "/form")
        #expect(page.shown == ["save.button"])
        #expect(!page.window.backButtonVisible)
        #expect(!page.navigator.back())
        #expect(page.paths == "/form")
    }

    @Test func theDriversNextNavigationsPushAndBackStopsAtTheFirstPage() {
        let page = driven(turbo: false)
        page.load(FakePage.url("/form"))
        page.load(FakePage.url("/done"))
        #expect(page.paths == "/form /done")
        #expect(page.window.backButtonVisible)
        #expect(page.navigator.back())
        #expect(page.paths == "/form")
        #expect(page.shown == ["save.button"])
        #expect(!page.window.backButtonVisible)
        #expect(!page.navigator.back())
    }

    @Test func aBlankPageVisitedLaterStartsTheStackOver() {
        let page = driven(turbo: true)
        page.load(FakePage.url("/"))
        page.click("/form")
        #expect(page.paths == "/ /form")
        page.load("about:blank")  // Capybara's reset_session! between tests
        #expect(page.paths == "about:blank")
        #expect(page.shown == [])
        page.load("about:blank")  // twice: still one blank screen
        #expect(page.paths == "about:blank")
        page.load(FakePage.url("/done"))
        #expect(page.paths == "/done")
        #expect(!page.navigator.back())
    }

    @Test func aFirstLoadThatFailsReplacesTheBlankPageWithItsErrorScreen() {
        let page = driven(turbo: false)
        page.failing["/down"] = 0
        page.load(FakePage.url("/down"))
        #expect(page.paths == "/down")
        #expect(page.window.shown == "error 0")
        #expect(!page.navigator.back())
    }

    @Test func anAppStartingOnItsOwnPageIsUnchanged() {
        let page = FakePage(turbo: false, site: site)
        page.start("/")
        page.load(FakePage.url("/form"))
        #expect(page.paths == "/ /form")
    }
}
