package import Logging
package import StradaAutomation
package import StradaCore

/// A stack of screens, as Hotwire Native's navigator keeps it: every visit is a screen, the top screen is the
/// bridge destination, and Back brings the previous screen back with its controls. The main window has one;
/// a modal has its own, over the main one.
///
/// Visits come from two places. With Turbo in the page, its adapter (`SDK/web/turbo-adapter.js`) proposes
/// each visit; the navigator decides (`Navigator+Presentation.swift`), changes the stack, and tells the
/// adapter to run the visit (`Navigator+Turbo.swift`). Without Turbo, every full page load is a visit
/// (`Navigator+Loads.swift`). Back always goes through the web view's history (a Turbo restoration visit, or
/// a back/forward load), so the page, its history and the stack never disagree.
///
/// The stack changes in four functions only: ``push(_:action:)``, ``replaceTop(with:action:)``,
/// ``pop(to:action:)`` and ``startOver()``. What the navigator waits for is one ``PendingVisit``. It knows
/// the window only through ``NavigationWindow``: no GTK here, and unit tests drive it with a double.
@MainActor
package final class Navigator {
    package private(set) var stack: [Screen] = []
    package var top: Screen? { stack.last }
    /// Sees every stack change and visit, as automation events.
    package var report: (@MainActor (AutomationEvent) -> Void)?
    /// The native screen for a visit to a URL, when the path configuration names one and a plugin builds it
    /// (set by the session); `nil`: the visit is a web page.
    package var nativeScreen: (@MainActor (_ url: String) -> (any NativeScreenView)?)?
    /// The path configuration's properties for a visit to a URL (set by the session).
    package var pathProperties: @MainActor (_ url: String) -> PathProperties = {
        PathConfiguration().properties(for: $0)
    }
    /// Where a visit that failed with an HTTP status goes besides its error screen (the path configuration's
    /// `settings.error_routes`; set by the session), or `nil`.
    package var errorRoute: @MainActor (_ status: Int) -> String? = { _ in nil }
    /// Builds a modal's window and stack for a visit to `url` and shows it (set by the session, which wires
    /// the new window as it wired the main one); `nil` when it cannot.
    package var makeModal: (@MainActor (_ url: String, _ properties: PathProperties) -> Navigator?)?

    /// The window this stack is shown in.
    package let window: any NavigationWindow
    /// The main stack, or a modal's.
    package let kind: Stack
    /// The main stack, for a modal's.
    package internal(set) weak var parent: Navigator?
    /// The modal presented over this (main) stack, if any.
    package internal(set) var modal: Navigator?
    /// What the navigator waits for.
    package internal(set) var pending: PendingVisit = .none
    /// Whether the window shows this stack: `false` while its tab is switched away from
    /// (`Navigator+Tabs.swift`); its screens still change, their controls stay out of the window.
    package internal(set) var isShownInWindow = true
    package private(set) var registrations: [ComponentRegistration]
    let originPolicy: OriginPolicy
    package let logger: Logger
    private var nextNumber = 1
    private var documents = 0

    package init(
        window: any NavigationWindow, registrations: [ComponentRegistration], originPolicy: OriginPolicy,
        logger: Logger, kind: Stack = .main
    ) {
        self.window = window
        self.kind = kind
        self.registrations = registrations
        self.originPolicy = originPolicy
        self.logger = logger
    }

    /// The path configuration's properties for a visit to `url`.
    package func properties(for url: String) -> PathProperties { pathProperties(url) }

    // MARK: Stack changes

    func makeScreen(url: String, after top: Screen? = nil) -> Screen {
        defer { nextNumber += 1 }
        let screen = Screen(
            number: nextNumber, url: url, registrations: registrations, controls: window.makeScreenControls(),
            logger: logger)
        if let top {
            // A Turbo visit from the screen shown: the same document, so the same Turbo.
            screen.hasTurbo = top.hasTurbo
            screen.document = top.document
        }
        return screen
    }

    func push(_ screen: Screen, action: String) {
        screen.action = action
        top?.disappear()
        stack.append(screen)
        screen.appear(bridge: window.bridge, showingControls: isShownInWindow)
        changed(.screenPushed, screen, action)
    }

    func replaceTop(with screen: Screen, action: String) {
        screen.action = action
        if let old = stack.popLast() {
            old.disappear()
            old.destroy()
        }
        stack.append(screen)
        screen.appear(bridge: window.bridge, showingControls: isShownInWindow)
        changed(.screenReplaced, screen, action)
    }

    /// The screen shown takes `url` (a visit that differs from it only in its query string, under
    /// `query_string_presentation: replace`): reported as replaced, as upstream replaces its view controller.
    /// The screen object, its components and controls stay: Turbo 8 renders such a visit as a page refresh,
    /// which a morph does without reconnecting the page's controllers (a new screen would get no `connect`).
    func replaceInPlace(url: String) {
        guard let top else { return }
        top.url = url
        top.action = "replace"
        changed(.screenReplaced, top, "replace")
    }

    /// Pops every screen above `index`; the screen at `index` comes back as it was.
    func pop(to index: Int, action: String) {
        guard index < stack.count - 1 else { return }
        let revealed = stack[index]
        while stack.count > index + 1 {
            let screen = stack.removeLast()
            if screen.controls.isShown { screen.disappear() }
            screen.destroy()
            logger.debug("screen \(screen.number) (\(screen.url)) popped")
        }
        revealed.appear(bridge: window.bridge, showingControls: isShownInWindow)
        changed(.screenPopped, revealed, action)
    }

    /// Every screen goes (a new stack starts with the next visit).
    func startOver() {
        top?.disappear()
        for screen in stack.reversed() { screen.destroy() }
        stack.removeAll()
    }

    private func changed(_ kind: AutomationEvent.Name, _ screen: Screen, _ action: String) {
        window.setBackButtonVisible(stack.count > 1)
        showContent()
        let report = screenReport(screen, depth: stack.count, action: action)
        switch kind {
        case .screenPushed: self.report?(.screenPushed(report))
        case .screenReplaced: self.report?(.screenReplaced(report))
        default: self.report?(.screenPopped(report))
        }
    }

    private func screenReport(_ screen: Screen, depth: Int, action: String) -> ScreenReport {
        ScreenReport(
            url: screen.url, title: screen.title, depth: depth, action: action, stack: kind.rawValue,
            view: screen.native?.name)
    }

    /// The screens shown now, bottom first, as `screen.pushed` would report them (depth 1…n, each with the
    /// action it came with): this stack's, then its modal's. A client of the automation channel connecting
    /// late is greeted with them.
    package var screens: [ScreenReport] {
        stack.enumerated().map { index, screen in screenReport(screen, depth: index + 1, action: screen.action) }
            + (modal?.screens ?? [])
    }

    /// The index of the screen holding the history entry shown now, if any.
    func indexOfCurrentEntry() -> Int? {
        guard let entry = window.currentHistoryEntry else { return nil }
        return stack.lastIndex { same($0.historyItem, entry) }
    }

    /// Shows what the top screen shows: its page, or its error screen.
    func showContent() {
        if let error = top?.error {
            window.show(.error(error))
        } else if let top, let native = top.native {
            window.show(.native(key: "native-\(top.number)", screen: native, title: top.title))
        } else {
            window.show(.web(title: top?.title ?? ""))
        }
    }

    /// Pushes a plugin's native screen for a visit to `url` (the web view stays as it is underneath).
    func push(native: any NativeScreenView, url: String) {
        let screen = makeScreen(url: url)
        screen.native = native
        screen.title = properties(for: url).title ?? ""
        let key = "native-\(screen.number)"
        screen.releaseNative = { [window] in window.removeNativeScreen(key: key) }
        logger.info("\(url) is native screen \"\(native.name)\" of plugin \(native.pluginID)")
        push(screen, action: "advance")
    }

    // MARK: The document

    /// The page's bridge adapter said "ready": a document with its scripts freshly run. If the top screen's
    /// components talked to another document, they are replaced by new ones first, so a reply can never
    /// reach a document other than the one that sent the message.
    package func bridgeReady() {
        documents += 1
        guard let top else { return }
        if let document = top.document, document != documents {
            logger.debug("screen \(top.number) (\(top.url)) has a new document: new component instances")
            top.resetComponents(bridge: window.bridge, showingControls: isShownInWindow)
        }
        top.document = documents
    }

    /// What moved the back/forward list's current entry, as the window reports it.
    package enum HistoryMoment: Sendable {
        /// The URL changed within the document.
        case locationChanged
        /// A load ended (or a history traversal stopped it).
        case loadFinished
    }

    /// The one place a history traversal the page made lands: when the back/forward list's current entry is a
    /// screen below the top, that screen comes back. Not while the top screen has no entry of its own (a Turbo 8
    /// visit that failed before it changed history, a native screen, a load about to be adopted): the entry below
    /// is the one shown then, and the web view's address changes as soon as a load starts.
    ///
    /// At a load's end the document shown may not be the revealed screen's: WebKit makes Back from a page loaded
    /// in full after its Turbo visit (Turbo could not render it in place) a traversal within the document — the
    /// full load reused the entry the visit had pushed — so nothing is committed; when the traversal stops the
    /// page's load, the page's Turbo (not loaded yet) ignores it, and the document shown is still the top
    /// screen's at the address of the entry below. The revealed screen's page then loads again.
    package func historySettled(_ moment: HistoryMoment) {
        guard pending != .coldLoad, let top, top.historyItem != nil, let index = indexOfCurrentEntry(),
            index < stack.count - 1
        else { return }
        let revealed = stack[index]
        let shownDocument = top.document
        pop(to: index, action: "back")
        if moment == .loadFinished, revealed.document != shownDocument {
            logger.debug("screen \(revealed.number) (\(revealed.url)) came back over another document: reloading it")
            revealed.hasTurbo = false
            window.reload()
        }
    }

    /// The document's title changed. The top screen takes it, and the window shows it — unless it is empty: a
    /// document just committed has no title yet (a reload, a full load), and the screen keeps the one it has
    /// until the new one comes, rather than the window falling back to the app's name for a moment.
    package func titleChanged(_ title: String) {
        guard let top, top.native == nil, !title.isEmpty else { return }  // a native screen keeps its own
        top.title = title
        if top.error == nil { window.showTitle(title) }
    }

    // MARK: What the user and the automation channel ask for

    /// Back: to the previous screen's history entry. The screen pops when the page gets there (a Turbo
    /// restoration visit, or a back/forward load). `false` when there is no screen to go back to.
    @discardableResult
    package func back() -> Bool {
        if kind == .modal, stack.count <= 1, let parent { return parent.dismissModal(reason: "back") }
        guard stack.count > 1, let top else { return false }
        if top.frameVisit != nil, !top.backAfterVisit {
            // The frame rendered but Turbo has not recorded its history yet (its visit is still to come, or
            // proposed and not completed): going back now would leave the frame's history entry to come after
            // the pop, and the frame's content reconnecting to the screen below. Back happens when the visit
            // completes (a second Back, if the visit never comes, pops at once).
            top.backAfterVisit = true
            return true
        }
        let previous = stack[stack.count - 2]
        if same(previous.historyItem, window.currentHistoryEntry) {
            // The top screen never reached the web view's history (the error screen of a visit that failed,
            // a native screen): the page below is already shown.
            pending = .none
            pop(to: stack.count - 2, action: "back")
            return true
        }
        window.goBack(to: previous.historyItem)
        return true
    }

    /// Retry on the error screen shown: its visit runs again as a full load into the same screen, as
    /// upstream's Retry cold-boots the visitable. `false` when no error screen is shown.
    @discardableResult
    package func retry() -> Bool {
        guard let top, let error = top.error else { return false }
        logger.info("retrying \(error.url)")
        pending = .coldLoad
        window.load(url: error.url)
        return true
    }

    /// Refresh (Ctrl+R, F5, the `reload` command): the screen shown loads again; on an error screen, its
    /// visit is retried.
    package func refresh() {
        if retry() { return }
        window.reload()
    }

    /// Visits `url` as a link would, as upstream's `Navigator.route(url)`: the path configuration's rules decide
    /// (context, presentation, native screens, historical locations) as for a visit the page's Turbo proposes;
    /// another origin opens in the browser. Started by the page's Turbo (`action`), or as a full load without it.
    /// Before the first screen, the start page is loaded.
    package func visit(_ url: String, action: VisitAction) {
        guard top != nil else {
            window.load(url: url)
            return
        }
        decide(url, action: action, properties: properties(for: url), start: .fresh(url))
    }

    /// Loads `url` as the root of a new stack (every screen goes), as typing an address would.
    package func navigate(_ url: String) {
        pending = .startOver
        window.load(url: url)
    }

    /// Refreshes the screen shown in place: the screen, its components and controls stay (with Turbo, a
    /// `replace` visit of its URL, which Turbo 8 renders as a page refresh — morphed where the page asks;
    /// without Turbo, a reload, whose new document renews the components at "ready").
    package func refreshInPlace() {
        guard let top else { return }
        if top.error != nil {
            // An error screen (a routed 401 whose sign-in ended with a refresh, say): its visit runs again.
            retry()
        } else if top.hasTurbo {
            window.perform(.visit(top.url, .replace))
        } else {
            window.reload()
        }
    }

    // MARK: Plugins

    /// Hot reload: screens created from now on use `registrations`; live instances of `names` are replaced.
    /// Returns the names that had an instance on the top screen.
    package func reloadComponents(named names: [String], registrations: [ComponentRegistration]) -> [String] {
        self.registrations = registrations
        _ = modal?.reloadComponents(named: names, registrations: registrations)
        var reloaded: [String] = []
        for screen in stack {
            let done = screen.reload(components: names, registrations: registrations)
            if screen === top { reloaded = done }
        }
        return reloaded
    }

    /// A plugin is gone: every screen's instances of `names` are destroyed.
    package func destroyComponents(named names: [String], registrations: [ComponentRegistration]) {
        self.registrations = registrations
        modal?.destroyComponents(named: names, registrations: registrations)
        for screen in stack { screen.destroy(components: names, registrations: registrations) }
    }

    /// The host is stopping: the modal goes, the top screen disappears, every screen's controls and
    /// components go.
    package func tearDown() {
        dismissModal(reason: nil)
        startOver()
    }
}
