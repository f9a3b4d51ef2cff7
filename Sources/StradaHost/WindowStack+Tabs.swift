import StradaAutomation
import StradaCore
import StradaEngineGTK
import StradaNavigation

/// An app with tabs (its definition's `tabs`), as Hotwire Native's tab bar: one navigator and web view per
/// tab, all in the main window and one network session (the same cookies), each made and loaded the first
/// time its tab is selected and kept while another is shown. The tab shown is the one the user acts in: Back,
/// Ctrl+R, the title, the header bar's controls and the automation commands follow it. The first tab is the
/// main window's own web view and ``WindowStack/navigator``.
extension WindowStack {
    /// The navigator of the tab shown (the main one without tabs, or before the first selection).
    var shownNavigator: Navigator {
        guard let selected = tabs?.selected else { return navigator }
        return tabNavigators[selected] ?? navigator
    }

    /// Every loaded tab's navigator, the first tab's first (only ``navigator`` without tabs).
    var allNavigators: [Navigator] {
        [navigator] + tabNavigators.filter { $0.key != 0 }.sorted { $0.key < $1.key }.map(\.value)
    }

    /// Announces `names` in every loaded tab's web view (the main window's without tabs); each whose set changed
    /// reloads its page. `true` when the main window's did.
    func setComponentNames(_ names: [String]) -> Bool {
        for navigator in allNavigators where navigator !== self.navigator {
            (navigator.window as? BrowserWindow)?.setComponentNames(names)
        }
        return main.setComponentNames(names)
    }

    /// Puts the view switcher in the main window; the first tab's stack is the main one.
    func installTabs(_ definitions: [TabDefinition]) {
        let set = TabSet(definitions)
        tabs = set
        tabNavigators[0] = navigator
        let switcher = main.installTabs(set)
        switcher.onSelect = { [weak self] index in self?.tabSelected(index) }
        tabSwitcher = switcher
        logger.info("\(definitions.count) tabs: \(definitions.map(\.title).joined(separator: ", "))")
    }

    /// The start page: without tabs, `url`; with tabs, the first tab is shown and loads `requested` (a URL the
    /// command line named) or else its start URL.
    func loadStartPage(_ url: String, requested: String?) {
        guard tabs != nil else { return main.load(url: url) }
        firstTabURL = requested
        tabSelected(0)
    }

    /// The `select-tab` command: shows tab `index` as a click on the switcher would. The reason it cannot, or
    /// `nil`.
    func selectTab(_ index: Int) -> String? {
        guard let tabs, let tabSwitcher else { return "the app has no tabs (its definition has no \"tabs\")" }
        guard tabs.tabs.indices.contains(index) else {
            return "there is no tab \(index): the app has \(tabs.tabs.count) tabs, 0 to \(tabs.tabs.count - 1)"
        }
        guard shownNavigator.modal == nil else { return "a modal is presented over the tabs: dismiss it first" }
        tabSwitcher.select(index)
        return nil
    }

    /// Tab `index` was selected (the switcher, Ctrl+1…9, the command, the start): the tab shown before is
    /// hidden with its controls kept; the tab selected is made and loaded the first time, and shown.
    private func tabSelected(_ index: Int) {
        guard var set = tabs else { return }
        let selection = set.select(index)
        tabs = set
        guard case .switched(let from, let to, let firstTime) = selection else { return }
        if let from, let previous = tabNavigators[from] {
            (previous.window as? BrowserWindow)?.setShownInWindow(false)
            previous.hideFromWindow()
        }
        let tab = set.tabs[to]
        let startURL = (to == 0 ? firstTabURL : nil) ?? tab.startURL
        let shown = tabNavigators[to] ?? makeTab(to)
        guard let window = shown.window as? BrowserWindow else { return }
        window.setShownInWindow(true)
        shown.showInWindow()
        if firstTime {
            logger.info("tab \(to) (\(tab.title)) selected for the first time: loading \(startURL)")
            window.load(url: startURL)
        }
        automation?.emit(
            .tabSelected(index: to, title: tab.title, url: shown.top?.url ?? startURL, firstTime: firstTime))
        let selectedAt = ContinuousClock.now
        main.afterNextFrame { [weak self] in
            let elapsed = (ContinuousClock.now - selectedAt) / .milliseconds(1)
            self?.automation?.emit(.tabShown(index: to, milliseconds: (elapsed * 10).rounded() / 10))
        }
    }

    /// Tab `index`'s web view (in the main window, the session's network session) and navigator, wired as
    /// every window is; hidden until shown.
    private func makeTab(_ index: Int) -> Navigator {
        let window = BrowserWindow(
            tabOf: main, componentNames: ComponentRegistration.uniqueNames(navigator.registrations),
            originPolicy: configuration.originPolicy, session: desktop.networkSession,
            userAgentPrefix: configuration.userAgentPrefix, logger: logger)
        let tab = Navigator(
            window: window, registrations: navigator.registrations, originPolicy: configuration.originPolicy,
            logger: logger)
        wire(window, to: tab)
        tab.makeModal = { [weak self] url, properties in self?.presentModal(url, properties: properties) }
        tabSwitcher?.fill(index, with: window)
        tabNavigators[index] = tab
        return tab
    }
}

extension PageEvent {
    /// Whether the main window's frame, not its web view, reports it (Back, Ctrl+R, F5): with tabs it acts on
    /// the tab shown.
    var isWindowLevel: Bool {
        switch self {
        case .backRequested, .refreshRequested: true
        default: false
        }
    }
}
