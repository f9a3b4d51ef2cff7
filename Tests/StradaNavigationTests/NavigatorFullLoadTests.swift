import StradaCore
import StradaNavigation
import Testing

/// Screens without Turbo: every committed document is a visit; Back and Forward are back/forward loads (a
/// document from WebKit's back/forward cache reconnects its components through "native:restore").
@MainActor
@Suite struct NavigatorFullLoadTests {
    let site = ["/": ["menu"], "/form": ["save"], "/done": []]

    func started(at path: String = "/") -> FakePage {
        let page = FakePage(turbo: false, site: site)
        page.start(path)
        return page
    }

    @Test func aLinkIsAFullLoadThatPushesAScreen() {
        let page = started()
        page.click("/form")
        #expect(page.paths == "/ /form")
        #expect(page.shown == ["save.button"])
        #expect(page.navigator.top?.hasTurbo == false)
    }

    @Test func theVisitCommandPushesAFullLoadAndReplacesWithTheLocationReplaced() {
        let page = started()
        page.navigator.visit(FakePage.url("/form"), action: .advance)
        #expect(page.paths == "/ /form")
        #expect(page.shown == ["save.button"])
        let calls = page.window.calls.count
        page.navigator.visit(FakePage.url("/done"), action: .replace)
        #expect(page.paths == "/ /done")
        #expect(page.window.calls[calls...].first == .turbo(.replaceLocation(FakePage.url("/done"))))
        #expect(page.shown == [])
        // The replaced document left history with its screen: Back goes to the first one.
        #expect(page.navigator.back())
        #expect(page.paths == "/")
        #expect(page.shown == ["menu.button"])
    }

    @Test func backIsABackForwardLoadThatPopsWithTheSameControls() throws {
        let page = started()
        let root = try #require(page.navigator.top)
        let component = root.delegate.component(named: "menu")
        page.click("/form")
        #expect(page.navigator.back())
        #expect(page.paths == "/")
        #expect(page.shown == ["menu.button"])
        #expect(page.navigator.top?.delegate.component(named: "menu") === component)
    }

    @Test func forwardIsANewScreenWhoseComponentsConnectAgain() {
        let page = started()
        page.click("/form")
        page.navigator.back()
        page.historyForward()
        #expect(page.paths == "/ /form")
        #expect(page.shown == ["save.button"])
        #expect(page.shown == page.expected)
    }

    @Test func aFormRedirectedToTheURLShownReplacesTheScreenInsteadOfPushingItAgain() {
        let page = started()
        page.click("/form")
        page.submit(redirectingTo: "/form")
        #expect(page.paths == "/ /form")
        #expect(page.shown == ["save.button"])
        #expect(page.navigator.back())
        #expect(page.paths == "/")
    }

    @Test func aFormRedirectedElsewherePushes() {
        let page = started(at: "/form")
        page.submit(redirectingTo: "/done")
        #expect(page.paths == "/form /done")
        #expect(page.shown == [])
    }

    @Test func aReloadKeepsTheScreenAndRenewsItsComponents() throws {
        let page = started(at: "/form")
        let screen = try #require(page.navigator.top)
        let before = screen.delegate.component(named: "save")
        page.navigator.refresh()
        #expect(page.navigator.top === screen)
        #expect(screen.delegate.component(named: "save") !== before)
        #expect(page.shown == ["save.button"])
    }

    @Test func aLoadThatFailsPushesAnErrorScreenThatBackRemoves() {
        let page = started()
        page.failing["/down"] = 0
        page.click("/down")
        #expect(page.paths == "/ /down")
        #expect(page.window.shown == "error 0")
        #expect(page.shown == [])
        #expect(page.navigator.back())
        #expect(page.paths == "/")
        #expect(page.window.shown == "web")
        #expect(page.shown == ["menu.button"])
    }

    @Test func anHTTPErrorShowsTheErrorScreenInItsScreensPlace() {
        let page = started()
        page.failing["/missing"] = 404
        page.click("/missing")
        #expect(page.paths == "/ /missing")
        #expect(page.window.shown == "error 404")
        #expect(page.navigator.back())
        #expect(page.shown == ["menu.button"])
    }

    @Test func aRefreshPresentationWithoutTurboPopsThenReloads() throws {
        let page = started()
        page.click("/form")
        try page.rules.set([("/refresh-me$", #"{"presentation": "refresh"}"#)])
        page.navigator.visitFromModal(
            FakePage.url("/refresh-me"), properties: page.navigator.properties(for: FakePage.url("/refresh-me")))
        #expect(page.paths == "/")
        #expect(page.window.calls.last == .reload)
    }

    @Test func theStartPageThatFailsIsTheRootErrorScreenAndRetryRecoversIt() {
        let page = FakePage(turbo: false, site: site)
        page.failing["/"] = 0
        page.start("/")
        #expect(page.paths == "/")
        #expect(page.window.shown == "error 0")
        page.failing["/"] = nil
        #expect(page.navigator.retry())
        #expect(page.paths == "/")
        #expect(page.window.shown == "web")
        #expect(page.shown == ["menu.button"])
    }
}
