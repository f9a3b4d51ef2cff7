import StradaCore
import StradaNavigation
import Testing

/// Screens with Turbo in the page: pushes, Back, refreshes in place, failures, frames, Forward. After every
/// step the invariant holds: the native controls shown are exactly those the page shown has made.
@MainActor
@Suite struct NavigatorTurboTests {
    let site = ["/": ["menu"], "/posts": ["menu"], "/posts/new": ["save"], "/posts/1": [], "/frames": ["menu"]]

    func started(at path: String = "/posts", morph: Bool = false) -> FakePage {
        let page = FakePage(turbo: true, site: site)
        page.morph = morph
        page.start(path)
        return page
    }

    @Test func theStartPageIsTheRootScreenWithItsControls() {
        let page = started()
        #expect(page.paths == "/posts")
        #expect(page.navigator.top?.hasTurbo == true)
        #expect(page.shown == ["menu.button"])
        #expect(page.window.backButtonVisible == false)
    }

    @Test func anAdvanceVisitPushesAScreenWithOnlyItsPagesControls() {
        let page = started()
        page.click("/posts/new")
        #expect(page.paths == "/posts /posts/new")
        #expect(page.shown == ["save.button"])
        #expect(page.window.backButtonVisible)
        #expect(page.window.calls.last == .turbo(.visitProposal(1, .advance)))
    }

    @Test func aReplaceVisitReplacesTheTopScreen() {
        let page = started()
        page.click("/posts/new")
        page.click("/posts/1", action: .replace)
        #expect(page.paths == "/posts /posts/1")
        #expect(page.shown == [])
    }

    @Test func backPopsThroughHistoryAndBringsTheControlsBack() {
        let page = started()
        page.click("/posts/new")
        #expect(page.navigator.back())
        #expect(page.window.calls.contains(.goBack(FakePage.url("/posts"))))
        #expect(page.paths == "/posts")
        #expect(page.shown == page.expected)
        #expect(page.shown == ["menu.button"])
    }

    @Test func backOnTheRootScreenSaysThereIsNothingToGoBackTo() {
        let page = started()
        #expect(page.navigator.back() == false)
        #expect(page.paths == "/posts")
    }

    @Test(arguments: [false, true])
    func aFormRedirectedToTheURLShownRefreshesInPlaceKeepingItsControls(morph: Bool) throws {
        let page = started(at: "/posts/new", morph: morph)
        let screen = try #require(page.navigator.top)
        page.submit(redirectingTo: "/posts/new")
        #expect(page.navigator.top === screen)
        #expect(page.paths == "/posts/new")
        #expect(page.shown == ["save.button"])
        #expect(page.shown == page.expected)
        #expect(!page.window.calls.contains { if case .turbo(.visitProposal) = $0 { true } else { false } })
    }

    @Test func aReplaceVisitOfTheURLShownWithMorphKeepsTheScreenAndItsComponents() throws {
        let page = started(at: "/posts/new", morph: true)
        let screen = try #require(page.navigator.top)
        let component = screen.delegate.component(named: "save")
        page.click("/posts/new", action: .replace)
        #expect(page.navigator.top === screen)
        #expect(screen.delegate.component(named: "save") === component)
        #expect(page.shown == ["save.button"])
    }

    @Test func turbosFollowRedirectProposalOnlyRecordsHistoryAndKeepsTheScreen() throws {
        let page = started()
        page.click("/posts/new")
        let screen = try #require(page.navigator.top)
        page.propose(FakePage.url("/posts/1"), action: .replace, willRender: false)
        #expect(page.navigator.top === screen)
        #expect(page.paths == "/posts /posts/1")
        #expect(page.shown == ["save.button"])
    }

    @Test func aFormRedirectedToTheScreenBelowPopsToItAndRendersTheResponseThere() {
        let page = started()
        page.click("/posts/new")
        page.submit(redirectingTo: "/posts")
        #expect(page.paths == "/posts")
        // The kept proposal (the response with its flash message) is rendered as a replace visit.
        #expect(page.window.calls.last == .turbo(.visitProposal(2, .replace)))
        #expect(page.navigator.pending == .none)
        #expect(page.shown == ["menu.button"])
    }

    @Test func aFailedVisitShowsItsErrorOnThePushedScreenAndBackReturnsToTheScreenBelow() {
        let page = started()
        page.failing["/missing"] = 404
        page.click("/missing")
        #expect(page.paths == "/posts /missing")
        #expect(page.window.shown == "error 404")
        #expect(page.shown == [])
        #expect(page.navigator.back())
        #expect(page.paths == "/posts")
        #expect(page.window.shown == "web")
        #expect(page.shown == ["menu.button"])
    }

    @Test func retryOnATurboErrorScreenLoadsTheVisitInFullIntoTheSameScreen() throws {
        let page = started()
        page.failing["/flaky"] = 500
        page.click("/flaky")
        let screen = try #require(page.navigator.top)
        page.failing["/flaky"] = nil
        #expect(page.navigator.retry())
        #expect(page.navigator.top === screen)
        #expect(screen.error == nil)
        #expect(page.window.shown == "web")
        #expect(page.paths == "/posts /flaky")
        #expect(page.navigator.back())
        #expect(page.paths == "/posts")
        #expect(page.shown == ["menu.button"])
    }

    /// A Turbo visit with no response (the server down) loads in full, fails, and shows the error screen;
    /// Retry, once the server is back, loads the page into that screen; Back pops to the screen below.
    @Test func retryAfterAVisitWithNoResponseLoadsThePageAndBackPopsToTheScreenBelow() throws {
        let page = started()
        page.failing["/down"] = 0
        page.click("/down")
        #expect(page.paths == "/posts /down")
        #expect(page.window.shown == "error 0")
        let screen = try #require(page.navigator.top)
        page.failing["/down"] = nil
        #expect(page.navigator.retry())
        #expect(page.navigator.top === screen && screen.error == nil)
        #expect(page.window.shown == "web")
        #expect(page.navigator.back())
        #expect(page.paths == "/posts")
        #expect(page.shown == ["menu.button"])
    }

    /// `query_string_presentation: replace` (upstream's same-location rule): a visit that differs from the
    /// screen shown only in its query replaces that screen — reported as replaced, never a push, never silent —
    /// and the same URL again is a refresh in place, with no screen change.
    @Test func aQueryOnlyChangeUnderQueryStringReplaceReplacesTheScreen() throws {
        let page = started()
        page.click("/search")
        try page.rules.set([("/search", #"{"query_string_presentation": "replace"}"#)])
        var changes: [String] = []
        page.navigator.report = { event in
            switch event {
            case .screenPushed(let screen): changes.append("pushed \(FakePage.path(screen.url)) \(screen.depth)")
            case .screenReplaced(let screen): changes.append("replaced \(FakePage.path(screen.url)) \(screen.depth)")
            case .screenPopped(let screen): changes.append("popped \(FakePage.path(screen.url)) \(screen.depth)")
            default: break
            }
        }
        page.click("/search?x=1")
        #expect(changes == ["replaced /search?x=1 2"])
        #expect(page.paths == "/posts /search?x=1")
        page.click("/search?x=1")
        #expect(changes == ["replaced /search?x=1 2"], "the same URL again refreshes in place")
        page.click("/search?x=2")
        #expect(changes == ["replaced /search?x=1 2", "replaced /search?x=2 2"])
        #expect(page.navigator.back())
        #expect(page.paths == "/posts")
    }

    /// A restore's completion comes after a repaint, so it can arrive after the next screen was pushed (the
    /// `visit` command) and before that screen's own visit started: it is not the new screen's — its URL and
    /// title stay — and the new screen's own completion still records its visit (seen in PathConfigurationTests'
    /// presentation run: a `refresh` then reloaded the page the late completion named).
    @Test func aLateCompletionForAnotherURLIsNotTheNewScreens() throws {
        let page = started()
        page.click("/posts/new")
        page.holdVisits = true
        page.navigator.visit(FakePage.url("/posts/1"), action: .advance)
        let pushed = try #require(page.navigator.top)
        #expect(FakePage.path(pushed.url) == "/posts/1" && pushed.visitIdentifier == nil)
        page.navigator.turbo(
            .visitCompleted(
                identifier: "restore-late", location: FakePage.url("/posts"), restorationIdentifier: "r-late",
                title: "Posts"))
        #expect(FakePage.path(pushed.url) == "/posts/1")
        #expect(pushed.title != "Posts" && pushed.restorationIdentifier != "r-late")
        page.holdVisits = false
        page.runHeldVisits()
        #expect(page.paths == "/posts /posts/new /posts/1")
        #expect(pushed.historyItem != nil, "its own visit still recorded its entry")
    }

    @Test func aVisitWithoutAResponseLoadsInFull() {
        let page = started()
        page.failing["/down"] = 0
        page.click("/down")
        #expect(page.window.calls.contains(.load(FakePage.url("/down"))))
        #expect(page.navigator.pending == .coldLoad)
    }

    @Test func aPageTurboCannotRenderIsLoadedInFullIntoItsScreen() throws {
        let page = started()
        let screen = try #require(page.navigator.top)
        page.navigator.turbo(.pageInvalidated(location: FakePage.url("/posts"), reason: "tracked_element_mismatch"))
        #expect(page.navigator.top === screen)
        #expect(page.paths == "/posts")
        #expect(page.navigator.pending == .none)
        #expect(page.shown == ["menu.button"])
    }

    /// Back while a page Turbo could not render in place is still loading in full: the full load took over
    /// the entry the visit pushed, so Back is a traversal within the document that commits nothing, and the
    /// page's Turbo, not started yet, ignores it. The screen below comes back with its own page, loaded again.
    @Test func backWhileAPageLoadedInFullIsStillLoadingBringsBackTheScreenBelowWithItsPage() throws {
        let page = started()
        let root = try #require(page.navigator.top)
        page.invalidating = ["/posts/new"]
        page.click("/posts/new")
        #expect(page.paths == "/posts /posts/new")
        #expect(page.shown == ["save.button"])
        page.stillLoading = true
        #expect(page.navigator.back())
        #expect(page.paths == "/posts")
        #expect(page.navigator.top === root)
        #expect(page.window.calls.last == .reload)
        #expect(page.shown == ["menu.button"])
        #expect(page.shown == page.expected)
    }

    @Test func aFrameThatAdvancesHistoryPushesAScreenBeforeItsContentConnects() {
        let page = started(at: "/frames")
        page.frameNavigation(to: "/frames?page=2")
        #expect(page.paths == "/frames /frames?page=2")
        #expect(page.shown == ["frame.button", "menu.button"])
        #expect(page.shown == page.expected)
        #expect(page.navigator.back())
        #expect(page.paths == "/frames")
        #expect(page.shown == ["menu.button"])
    }

    /// Back pressed after the frame rendered but before Turbo proposed its visit (history has not changed
    /// yet): Back waits for the visit, then goes back in history, so the page shows the frame's old content
    /// under the screen below, and the late proposal pushes nothing.
    @Test func backBeforeAFramesProposalGoesBackOnceTheVisitHasRecordedHistory() {
        let page = started(at: "/frames")
        page.frameNavigation(to: "/frames?page=2") {
            #expect(page.navigator.back())
            #expect(page.paths == "/frames /frames?page=2")  // nothing to go back to in history yet
        }
        #expect(page.paths == "/frames")
        #expect(page.window.current.map { FakePage.path($0.url) } == "/frames")
        #expect(page.shown == ["menu.button"])
        #expect(page.shown == page.expected)
    }

    @Test func aFrameProposalWithoutANoticeStillPushesAndReconnectsThePage() {
        let page = started(at: "/frames")
        page.frameNavigation(to: "/frames?page=2", notice: false)
        #expect(page.paths == "/frames /frames?page=2")
        #expect(page.shown == ["frame.button", "menu.button"])
        #expect(page.window.calls.suffix(2) == [.turbo(.visitProposal(1, .advance)), .turbo(.restored)])
    }

    /// In place (hotwire-native-ios #53): the same screen takes the frame's URL, so the page's components
    /// around the frame and their controls stay.
    @Test func aFrameThatReplacesHistoryReplacesTheScreenInPlace() throws {
        let page = started(at: "/frames")
        let screen = try #require(page.navigator.top)
        page.frameNavigation(to: "/frames?page=2", action: .replace)
        #expect(page.paths == "/frames?page=2")
        #expect(page.navigator.top === screen)
        #expect(page.shown == ["frame.button", "menu.button"])
    }

    @Test func forwardAfterBackIsANewScreenWithOnlyItsPagesControls() {
        let page = started()
        page.click("/posts/new")
        page.navigator.back()
        #expect(page.paths == "/posts")
        page.historyForward()
        #expect(page.paths == "/posts /posts/new")
        #expect(page.shown == ["save.button"])
        #expect(page.navigator.back())
        #expect(page.shown == ["menu.button"])
    }

    @Test func thePagesOwnHistoryBackPopsTheScreen() {
        let page = started()
        page.click("/posts/new")
        page.click("/posts/1")
        page.historyBack()
        #expect(page.paths == "/posts /posts/new")
        #expect(page.shown == ["save.button"])
    }

    @Test func aRestoreOfTheTopScreensOwnEntryChangesNothing() throws {
        let page = started()
        let screen = try #require(page.navigator.top)
        page.navigator.turbo(
            .visitStarted(
                identifier: "x", location: FakePage.url("/posts"), action: .restore,
                restorationIdentifier: screen.restorationIdentifier))
        #expect(page.navigator.top === screen)
        #expect(page.paths == "/posts")
    }

    @Test func refreshOnAScreenWithTurboIsAReload() {
        let page = started()
        page.navigator.refresh()
        #expect(page.window.calls.last == .reload)
        #expect(page.paths == "/posts")
        #expect(page.shown == ["menu.button"])
    }

    @Test func theVisitCommandToTheURLShownRefreshesInPlace() throws {
        let page = started(morph: true)
        let screen = try #require(page.navigator.top)
        page.navigator.visit(FakePage.url("/posts"), action: .advance)
        #expect(page.navigator.top === screen)
        #expect(page.window.calls.last == .turbo(.visit(FakePage.url("/posts"), .replace)))
    }

    @Test func theVisitCommandPushesOrReplaces() {
        let page = started()
        page.navigator.visit(FakePage.url("/posts/new"), action: .advance)
        #expect(page.paths == "/posts /posts/new")
        page.navigator.visit(FakePage.url("/posts/1"), action: .replace)
        #expect(page.paths == "/posts /posts/1")
    }

    @Test func theVisitCommandToAnotherOriginOpensTheBrowserAndLeavesTheStackAlone() {
        let page = started()
        let calls = page.window.calls.count
        page.navigator.visit("https://elsewhere.test/page", action: .advance)
        #expect(page.window.calls[calls...] == [.browser("https://elsewhere.test/page")])
        #expect(page.paths == "/posts")
    }

    @Test func theVisitCommandToAHistoricalLocationIsNeverShown() {
        let page = started()
        page.click("/posts/new")
        let calls = page.window.calls.count
        page.navigator.visit(FakePage.url("/recede_historical_location"), action: .advance)
        #expect(page.paths == "/posts")
        let route = FakePage.url("/recede_historical_location")
        #expect(!page.window.calls[calls...].contains(.turbo(.visit(route, .advance))))
        #expect(!page.window.calls[calls...].contains(.load(route)))
    }

    @Test func navigateStartsANewStack() {
        let page = started()
        page.click("/posts/new")
        page.navigator.navigate(FakePage.url("/"))
        #expect(page.paths == "/")
        #expect(page.shown == ["menu.button"])
        #expect(page.window.controls.filter { !$0.removed }.count == 1)
    }

    @Test func anotherOriginOpensInTheBrowserAndLeavesTheStackAlone() {
        let page = started()
        page.click("https://elsewhere.test/page")
        #expect(page.window.calls.contains(.browser("https://elsewhere.test/page")))
        #expect(page.paths == "/posts")
    }

    @Test func eachScreenHasItsOwnComponentsAndAPoppedScreensGo() throws {
        let page = started()
        page.click("/posts/new")
        let pushed = try #require(page.navigator.top)
        page.navigator.back()
        #expect(pushed.delegate.component(named: "save") == nil)
        #expect(page.window.controls[1].removed)
    }
}

/// Turbo reports a visit's completion after a repaint, and holds back what comes after it: a restore's
/// completion can arrive once the user has already gone back again.
@MainActor
@Suite struct NavigatorOrderingTests {
    @Test func aRestoresLateCompletionDoesNotTakeTheNextEntry() {
        let page = FakePage(turbo: true, site: ["/posts": ["menu"], "/posts/new": ["save"]])
        page.start("/posts")
        page.click("/posts/new")
        page.click("/posts/1")
        let window = page.window
        _ = window.traverse(by: -1)
        page.navigator.turbo(
            .visitStarted(
                identifier: "late", location: FakePage.url("/posts/new"), action: .restore,
                restorationIdentifier: window.current?.restorationIdentifier))
        #expect(page.paths == "/posts /posts/new")
        _ = window.traverse(by: -1)
        page.navigator.turbo(
            .visitCompleted(
                identifier: "late", location: FakePage.url("/posts/new"), restorationIdentifier: nil, title: nil))
        page.navigator.turbo(
            .visitStarted(
                identifier: "next", location: FakePage.url("/posts"), action: .restore,
                restorationIdentifier: window.current?.restorationIdentifier))
        #expect(page.paths == "/posts")
    }

    @Test func aVisitsCompletionAfterTheNextVisitWasPushedNamesItsOwnScreen() throws {
        let page = FakePage(turbo: true, site: [:])
        page.start("/a")
        let navigator = page.navigator
        navigator.turbo(.visitProposed(VisitProposal(number: 91, location: FakePage.url("/b"), action: .advance)))
        let b = try #require(navigator.top)
        navigator.turbo(
            .visitStarted(identifier: "vb", location: FakePage.url("/b"), action: .advance, restorationIdentifier: "rb")
        )
        #expect(b.visitIdentifier == "vb")
        navigator.turbo(.visitProposed(VisitProposal(number: 92, location: FakePage.url("/c"), action: .advance)))
        let c = try #require(navigator.top)
        navigator.turbo(
            .visitCompleted(identifier: "vb", location: FakePage.url("/b"), restorationIdentifier: "rb", title: "B"))
        #expect(page.paths == "/a /b /c")
        #expect(b.title == "B" && c.title == "")
        #expect(c.historyItem == nil)
    }
}
