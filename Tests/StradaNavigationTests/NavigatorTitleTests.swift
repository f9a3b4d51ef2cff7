import StradaCore
import Testing

@testable import StradaNavigation

/// The window's title is always the shown screen's: a pushed screen's own (empty until its page's title is
/// known, never the previous page's), the restored screen's at once on Back, and the current one kept while a
/// reload's new document has no title yet — the events in that order.
@MainActor
@Suite struct NavigatorTitleTests {
    let site = ["/posts": ["menu"], "/posts/new": ["save"], "/posts/1": []]

    func started(turbo: Bool = true) -> FakePage {
        let page = FakePage(turbo: turbo, site: site)
        page.start("/posts")
        return page
    }

    /// The titles the window showed after `mark`.
    func titles(_ page: FakePage, after mark: Int) -> [String] { Array(page.window.titles.dropFirst(mark)) }

    @Test func aPushShowsTheNewScreensTitleNeverThePreviousPages() {
        let page = started()
        #expect(page.window.titles.last == "Title of /posts")
        let mark = page.window.titles.count
        page.click("/posts/new")
        #expect(titles(page, after: mark) == ["", "Title of /posts/new"])
    }

    @Test func backShowsTheRestoredScreensTitleAtOnce() {
        let page = started()
        page.click("/posts/new")
        let mark = page.window.titles.count
        #expect(page.navigator.back())
        #expect(titles(page, after: mark).first == "Title of /posts", "\(titles(page, after: mark))")
        #expect(!titles(page, after: mark).contains("Title of /posts/new"))
        #expect(!titles(page, after: mark).contains(""))
    }

    @Test func aReloadKeepsTheTitleWhileTheNewDocumentHasNone() {
        let page = started(turbo: false)
        let mark = page.window.titles.count
        page.load(FakePage.url("/posts"))  // the reload's new document: "" first, then its title
        #expect(!titles(page, after: mark).contains(""))
        #expect(page.navigator.top?.title == "Title of /posts")
        #expect(page.window.titles.last == "Title of /posts")
    }

    @Test func aReplaceShowsTheReplacingScreensTitle() throws {
        let page = started()
        try page.rules.set([("/posts/1$", #"{"presentation": "replace"}"#)])
        let mark = page.window.titles.count
        page.click("/posts/1")
        #expect(page.paths == "/posts/1")
        #expect(titles(page, after: mark) == ["", "Title of /posts/1"])
    }

    @Test func aModalHasItsOwnTitleAndTheMainWindowKeepsItsOwn() throws {
        let page = started()
        try page.rules.set([("/posts/new$", #"{"context": "modal"}"#)])
        let mark = page.window.titles.count
        page.click("/posts/new")
        let modal = try #require(page.modal)
        #expect(modal.window.titles.last == "Title of /posts/new")
        #expect(titles(page, after: mark).isEmpty, "the main window's title did not change")
    }

    @Test func anErrorScreenOrANativeScreenIsNotRetitledByThePageUnderneath() {
        let page = started()
        page.failing["/posts/1"] = 404
        page.click("/posts/1")
        let mark = page.window.titles.count
        page.navigator.titleChanged("Something the page below set")
        #expect(titles(page, after: mark).isEmpty)
    }
}
