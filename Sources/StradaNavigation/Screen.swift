import Logging
package import StradaCore

/// One screen: a visit shown in the window, as a view controller is on iOS and a fragment on Android.
/// It is the bridge destination: it owns its components (through its own ``BridgeDelegate``) and its
/// native controls, which live and die with it. The window's one web view always shows the top screen.
@MainActor
package final class Screen: BridgeDestination {
    /// A number for log lines, unique in the session.
    package let number: Int
    /// Where the screen's visit ended up (after redirects).
    package internal(set) var url: String
    package internal(set) var title = ""
    /// The visit action the screen came with, as first reported (`advance`, `replace`, `load`, …).
    package internal(set) var action = ""
    /// The history entry the screen's visit created: Back goes to it, and a history traversal that lands
    /// on it brings this screen back.
    package internal(set) var historyItem: (any HistoryEntry)?
    /// Turbo's restoration identifier for the screen's history entry (restore visits).
    package internal(set) var restorationIdentifier: String?
    /// Turbo's identifier of the visit that made the screen (its completion names it).
    package internal(set) var visitIdentifier: String?
    /// Pushed for a frame that advances history, whose visit Turbo proposes after rendering the frame: where that
    /// visit is until it completes (Turbo has recorded the frame's history entry then); `nil` for other screens.
    var frameVisit: FrameVisit?
    enum FrameVisit {
        /// Not proposed yet.
        case awaited
        /// Proposed, not completed.
        case proposed
    }
    /// Back was asked while the frame's visit was still to come or under way: it goes back once the visit
    /// recorded history.
    var backAfterVisit = false
    /// The page's Turbo runs this screen's visits (else each visit is a full load).
    package internal(set) var hasTurbo = false
    /// The document the screen's components talk to, numbered by the navigator; `nil` until the document's
    /// bridge says "ready". A reply can only ever reach that document.
    var document: Int?
    /// Why the screen's visit failed, while its error screen is shown instead of the page.
    package internal(set) var error: VisitError?
    /// A plugin's native screen shown instead of the web view (a path configuration rule named it).
    package internal(set) var native: (any NativeScreenView)?
    /// Removes the native screen's widget from the window (set by the navigator with ``native``).
    var releaseNative: (@MainActor () -> Void)?
    package let controls: any ScreenControlSet
    // swift-format-ignore: NeverUseImplicitlyUnwrappedOptionals
    // Made right after the screen (it needs the screen's controls); never nil once the screen exists.
    package private(set) var delegate: BridgeDelegate!
    private var registrations: [ComponentRegistration]
    private let logger: Logger
    private var loaded = false

    init(
        number: Int, url: String, registrations: [ComponentRegistration], controls: any ScreenControlSet, logger: Logger
    ) {
        self.number = number
        self.url = url
        self.registrations = registrations
        self.controls = controls
        self.logger = logger
        delegate = BridgeDelegate(location: url, destination: self, components: registrations, logger: logger)
    }

    package func nativeControls(for componentName: String) -> ComponentControls? {
        ComponentControls(base: controls, idPrefix: componentName + ".")
    }

    /// The screen is now on top: it gets the web view's bridge, its controls come back as they were (unless
    /// `showingControls` is `false`: its tab is not shown), and its components get did-load (first time
    /// only), will-appear and did-appear.
    func appear(bridge: Bridge, showingControls: Bool = true) {
        if showingControls { controls.show() }
        delegate.webViewDidBecomeActive(bridge)
        if !loaded {
            loaded = true
            delegate.onViewDidLoad()
        }
        delegate.onViewWillAppear()
        delegate.onViewDidAppear()
    }

    /// The screen is covered (a push) or leaving (a pop or replace): its components get will- and
    /// did-disappear, it loses the bridge, and its controls leave the window (kept for its return).
    func disappear() {
        delegate.onViewWillDisappear()
        delegate.onViewDidDisappear()
        delegate.webViewDidBecomeDeactivated()
        controls.hide()
    }

    /// The screen's tab is switched away from: its components get will- and did-disappear and its controls
    /// leave the window (kept). It keeps the bridge: the tab keeps its web view, as upstream's tabs do.
    func tabHidden() {
        delegate.onViewWillDisappear()
        delegate.onViewDidDisappear()
        controls.hide()
    }

    /// The screen's tab is shown again: its controls come back as they were, its components get will- and
    /// did-appear.
    func tabShown() {
        controls.show()
        delegate.onViewWillAppear()
        delegate.onViewDidAppear()
    }

    /// The screen is gone for good: its controls are removed and its components destroyed.
    func destroy() {
        controls.removeAll()
        delegate.destroyComponents()
        if let native {
            native.destroy()
            releaseNative?()
            self.native = nil
        }
    }

    /// A new document now stands behind this screen (a reload, or a history entry WebKit loaded again
    /// instead of restoring it): the components that talked to the old document go, new ones will come.
    /// `showingControls`: whether the screen's tab is shown (a top screen of a hidden tab gets the bridge, not
    /// the window).
    func resetComponents(bridge: Bridge?, showingControls: Bool = true) {
        let onTop = controls.isShown || (bridge != nil && !showingControls)
        if onTop { disappear() }
        destroy()
        delegate = BridgeDelegate(location: url, destination: self, components: registrations, logger: logger)
        loaded = false
        if onTop, let bridge { appear(bridge: bridge, showingControls: showingControls) }
    }

    /// A plugin is gone: its components' instances here are destroyed; new screens use `registrations`.
    func destroy(components names: [String], registrations: [ComponentRegistration]) {
        self.registrations = registrations
        for name in names { delegate.destroyComponent(named: name) }
    }

    /// Hot reload: new registrations for screens created from now on, and fresh instances of `names` here.
    func reload(components names: [String], registrations: [ComponentRegistration]) -> [String] {
        self.registrations = registrations
        return names.filter { delegate.reloadComponent(named: $0) }
    }
}
