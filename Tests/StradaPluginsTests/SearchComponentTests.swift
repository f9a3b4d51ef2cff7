import StradaCore
import StradaSearchComponent
import StradaTesting
import Testing

/// The first-party `search` component: a native search entry; the text goes to the page as it is typed.
@MainActor
@Suite struct SearchComponentTests {
    static func page() -> BridgeHarness { BridgeHarness(components: [SearchComponent.self]) }

    @Test func connectShowsTheSearchWithThePagesPlaceholder() throws {
        let page = Self.page()
        page.send("search", "1", "connect", #"{"placeholder":"Search fruit and vegetables"}"#)
        let search = try #require(page.controls.searches["search.search"])
        #expect(search.placeholder == "Search fruit and vegetables")
        #expect(page.controls.searches.count == 1)
        #expect(page.replies.isEmpty)
    }

    @Test func withoutAPlaceholderItSaysSearch() {
        let page = Self.page()
        page.send("search", "1", "connect")
        #expect(page.controls.searches["search.search"]?.placeholder == "Search")
    }

    @Test func eachChangeOfTheTextRepliesToConnectWithTheQuery() {
        let page = Self.page()
        page.send("search", "5", "connect", #"{"placeholder":"Search"}"#)
        #expect(page.controls.type("a", inSearch: "search.search"))
        #expect(page.controls.type("an", inSearch: "search.search"))
        #expect(page.controls.type("", inSearch: "search.search"))
        #expect(page.replies.map(\.id) == ["5", "5", "5"])
        #expect(page.replies.map(\.component) == ["search", "search", "search"])
        #expect(page.replies.map(\.event) == ["connect", "connect", "connect"])
        #expect(page.replies.map(\.dataValue) == [["query": "a"], ["query": "an"], ["query": ""]])
    }

    /// The query is sent as typed, quotes and all: it is encoded, never spliced into the reply.
    @Test func aQueryWithQuotesAndNewlinesArrivesIntact() {
        let page = Self.page()
        page.send("search", "1", "connect")
        let typed = "\"}, {\"x\": 1\n</script>"
        page.controls.type(typed, inSearch: "search.search")
        #expect(page.lastReply?.dataValue == ["query": .string(typed)])
    }

    @Test func aRepeatedConnectUpdatesTheSearchAndAnswersTheNewMessage() {
        let page = Self.page()
        page.send("search", "1", "connect", #"{"placeholder":"Fruit"}"#)
        page.send("search", "2", "connect", #"{"placeholder":"Vegetables"}"#)
        #expect(page.controls.searches.count == 1)
        #expect(page.controls.searches["search.search"]?.placeholder == "Vegetables")
        page.controls.type("kale", inSearch: "search.search")
        #expect(page.replies.map(\.id) == ["2"])
    }

    @Test func disconnectRemovesTheSearch() {
        let page = Self.page()
        page.send("search", "1", "connect", #"{"placeholder":"Search"}"#)
        page.send("search", "2", "disconnect")
        #expect(page.controls.searches.isEmpty)
        #expect(!page.controls.type("a", inSearch: "search.search"))
        #expect(page.replies.isEmpty)
    }

    /// A placeholder of the wrong type falls back to "Search"; an unknown event changes nothing.
    @Test func malformedDataIsHarmless() {
        let page = Self.page()
        page.send("search", "1", "connect", #"{"placeholder":false}"#)
        #expect(page.controls.searches["search.search"]?.placeholder == "Search")
        page.send("search", "2", "query", #"{"placeholder":"Other"}"#)
        #expect(page.controls.searches["search.search"]?.placeholder == "Search")
        #expect(page.replies.isEmpty)
    }
}
