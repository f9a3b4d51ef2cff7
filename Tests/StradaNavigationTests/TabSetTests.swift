import StradaNavigation
import Testing

/// Which tab is shown and which are loaded: lazy tabs (Hotwire Native 1.3), Ctrl+1…9.
@Suite struct TabSetTests {
    static let three = TabSet([
        TabDefinition(title: "Inbox", icon: "mail-unread-symbolic", startURL: "http://127.0.0.1/inbox"),
        TabDefinition(title: "Files", icon: "folder-symbolic", startURL: "http://127.0.0.1/files"),
        TabDefinition(title: "Me", icon: "avatar-default-symbolic", startURL: "http://127.0.0.1/me"),
    ])

    @Test func nothingIsSelectedOrLoadedBeforeTheFirstSelection() {
        #expect(Self.three.selected == nil)
        #expect(Self.three.loaded.isEmpty)
    }

    @Test func aTabIsLoadedTheFirstTimeItIsSelectedAndKeptAfter() {
        var tabs = Self.three
        #expect(tabs.select(0) == .switched(from: nil, to: 0, firstTime: true))
        #expect(tabs.select(2) == .switched(from: 0, to: 2, firstTime: true))
        #expect(tabs.loaded == [0, 2])
        #expect(tabs.select(0) == .switched(from: 2, to: 0, firstTime: false))
        #expect(tabs.select(2) == .switched(from: 0, to: 2, firstTime: false))
        #expect(tabs.loaded == [0, 2])
        #expect(tabs.selected == 2)
    }

    @Test func selectingTheTabShownChangesNothing() {
        var tabs = Self.three
        _ = tabs.select(1)
        #expect(tabs.select(1) == .unchanged)
        #expect(tabs.selected == 1)
    }

    @Test(arguments: [-1, 3, 9]) func anIndexWithoutATabIsRefused(index: Int) {
        var tabs = Self.three
        _ = tabs.select(0)
        #expect(tabs.select(index) == .noSuchTab)
        #expect(tabs.selected == 0)
    }

    @Test(arguments: [(1, 0), (2, 1), (3, 2)]) func ctrlDigitSelectsThatTab(digit: Int, index: Int) {
        #expect(Self.three.index(forShortcutDigit: digit) == index)
    }

    @Test(arguments: [0, 4, 9, 10]) func ctrlDigitWithoutATabDoesNothing(digit: Int) {
        #expect(Self.three.index(forShortcutDigit: digit) == nil)
    }

    @Test func theShortcutsAreCtrl1ToCtrl9AsManyAsThereAreTabs() {
        #expect(Self.three.shortcuts.map(\.keys) == ["<Control>1", "<Control>2", "<Control>3"])
        #expect(Self.three.shortcuts.map(\.index) == [0, 1, 2])
        let many = TabSet((1...12).map { TabDefinition(title: "\($0)", icon: "x", startURL: "http://h/\($0)") })
        #expect(many.shortcuts.count == 9)
        #expect(many.shortcuts.last?.keys == "<Control>9")
    }
}
