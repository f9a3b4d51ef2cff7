/// One tab of an app with tabs (the app definition's `tabs`): its title and symbolic icon in the view
/// switcher, and the URL its stack starts at.
package struct TabDefinition: Equatable, Sendable {
    package var title: String
    /// A symbolic icon name from the icon theme (`mail-unread-symbolic`, `folder-symbolic`, …).
    package var icon: String
    /// Where the tab's stack starts, loaded the first time the tab is selected.
    package var startURL: String

    package init(title: String, icon: String, startURL: String) {
        self.title = title
        self.icon = icon
        self.startURL = startURL
    }
}

/// Which tab is shown and which tabs have been loaded, as Hotwire Native's tab bar keeps them (lazy tabs,
/// 1.3): each tab has its own stack and web view, made and loaded the first time the tab is selected and kept
/// while another tab is shown. Plain Swift: the session asks it what a selection means and carries it out.
package struct TabSet: Sendable {
    /// What selecting a tab means.
    package enum Selection: Equatable, Sendable {
        /// The tab is the one shown already: nothing changes.
        case unchanged
        /// Tab `to` is shown instead of `from` (`nil`: none was shown yet); `firstTime`: its stack is made
        /// and its start URL loaded now.
        case switched(from: Int?, to: Int, firstTime: Bool)
        /// No tab has that index.
        case noSuchTab
    }

    /// The tabs, in the switcher's order.
    package let tabs: [TabDefinition]
    /// The tab shown (`nil` before the first selection).
    package private(set) var selected: Int?
    /// The tabs selected at least once, so made and loaded.
    package private(set) var loaded: Set<Int> = []

    package init(_ tabs: [TabDefinition]) { self.tabs = tabs }

    /// Selects tab `index` (from 0) and says what changes.
    package mutating func select(_ index: Int) -> Selection {
        guard tabs.indices.contains(index) else { return .noSuchTab }
        guard index != selected else { return .unchanged }
        let previous = selected
        selected = index
        let firstTime = loaded.insert(index).inserted
        return .switched(from: previous, to: index, firstTime: firstTime)
    }

    /// The tab Ctrl+`digit` selects: Ctrl+1 the first … Ctrl+9 the ninth; `nil` when there is no such tab
    /// (the key does nothing).
    package func index(forShortcutDigit digit: Int) -> Int? {
        guard (1...9).contains(digit), digit <= tabs.count else { return nil }
        return digit - 1
    }

    /// The key presses that select tabs, in GTK's trigger syntax with the tab each selects: Ctrl+1 … Ctrl+9,
    /// as many as there are tabs.
    package var shortcuts: [(keys: String, index: Int)] {
        (1...9).compactMap { digit in index(forShortcutDigit: digit).map { ("<Control>\(digit)", $0) } }
    }
}
