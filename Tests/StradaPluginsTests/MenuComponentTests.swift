import StradaCore
import StradaMenuComponent
import StradaTesting
import Testing

/// The first-party `menu` component: a native menu; choosing answers `display` with the item's index.
@MainActor
@Suite struct MenuComponentTests {
    static func page() -> BridgeHarness { BridgeHarness(components: [MenuComponent.self]) }

    static let sortBy =
        #"{"title":"Sort by","items":[{"title":"Name","index":0},{"title":"Date","index":1},"#
        + #"{"title":"Size","index":2}],"source":{"x":10,"y":20,"width":80,"height":30}}"#

    @Test func displayPresentsTheItemsPointingAtTheSource() throws {
        let page = Self.page()
        page.send("menu", "1", "display", Self.sortBy)
        let menu = try #require(page.controls.menus["menu.menu"])
        #expect(menu.title == "Sort by")
        #expect(menu.items.map(\.title) == ["Name", "Date", "Size"])
        #expect(menu.items.map(\.index) == [0, 1, 2])
        #expect(menu.anchor == ControlAnchor(x: 10, y: 20, width: 80, height: 30))
        #expect(menu.anchorButton == nil)
        #expect(page.replies.isEmpty)
    }

    @Test func choosingRepliesToDisplayWithTheSelectedIndex() throws {
        let page = Self.page()
        page.send("menu", "4", "display", Self.sortBy)
        #expect(page.controls.choose(2, inMenu: "menu.menu"))
        let reply = try #require(page.lastReply)
        #expect(page.replies.count == 1)
        #expect(reply.id == "4" && reply.component == "menu" && reply.event == "display")
        #expect(reply.dataValue == ["selectedIndex": 2])
        #expect(page.controls.menus.isEmpty)
    }

    /// The page's own indexes are what come back, not positions in the list.
    @Test func theReplyCarriesThePagesIndexNotThePosition() throws {
        let page = Self.page()
        page.send("menu", "1", "display", #"{"items":[{"title":"Ten","index":10},{"title":"Five","index":5}]}"#)
        let menu = try #require(page.controls.menus["menu.menu"])
        #expect(menu.items.map(\.index) == [10, 5])
        page.controls.choose(menu.items[1].index, inMenu: "menu.menu")
        #expect(page.lastReply?.dataValue == ["selectedIndex": 5])
    }

    /// Without indexes, an item's index is its position; without a title or source, none.
    @Test func missingIndexesTitleAndSourceHaveDefaults() throws {
        let page = Self.page()
        page.send("menu", "1", "display", #"{"items":[{"title":"A"},{"title":"B"},{"title":"C","index":9}]}"#)
        let menu = try #require(page.controls.menus["menu.menu"])
        #expect(menu.title == "")
        #expect(menu.items.map(\.index) == [0, 1, 9])
        #expect(menu.anchor == nil)
    }

    @Test func aSourceWithoutSizeIsOnePixel() {
        let page = Self.page()
        page.send("menu", "1", "display", #"{"items":[{"title":"A"}],"source":{"x":3.5,"y":4}}"#)
        #expect(page.controls.menus["menu.menu"]?.anchor == ControlAnchor(x: 3.5, y: 4, width: 1, height: 1))
    }

    @Test func dismissingSendsNothing() {
        let page = Self.page()
        page.send("menu", "1", "display", Self.sortBy)
        #expect(page.controls.choose(nil, inMenu: "menu.menu"))
        #expect(page.replies.isEmpty)
        #expect(page.controls.menus.isEmpty)
    }

    /// Each display is answered once, by its own message.
    @Test func eachDisplayIsAnsweredByItsOwnMessage() {
        let page = Self.page()
        page.send("menu", "1", "display", Self.sortBy)
        page.controls.choose(0, inMenu: "menu.menu")
        page.send("menu", "2", "display", Self.sortBy)
        page.controls.choose(1, inMenu: "menu.menu")
        #expect(!page.controls.choose(2, inMenu: "menu.menu"))
        #expect(page.replies.map(\.id) == ["1", "2"])
        #expect(page.replies.map(\.dataValue) == [["selectedIndex": 0], ["selectedIndex": 1]])
    }

    /// No items, an item without a title, a source without coordinates, a wrong type: no menu.
    @Test func malformedDataShowsNothing() {
        let page = Self.page()
        page.send("menu", "1", "display", #"{"title":"Sort by"}"#)
        page.send("menu", "2", "display", #"{"items":[{"index":0}]}"#)
        page.send("menu", "3", "display", #"{"items":[{"title":"A"}],"source":{"x":1}}"#)
        page.send("menu", "4", "display", #"{"items":"A, B"}"#)
        page.send("menu", "5", "show", Self.sortBy)
        #expect(page.controls.menus.isEmpty)
        #expect(page.replies.isEmpty)
    }
}
