import Logging
import StradaAutomation
import StradaCore
import StradaEngineGTK
import StradaNavigation
import StradaPluginHost

/// The host's windows: the main window with its navigator, and the modal presented over it with its own.
/// Every window is made by one `makeWindow` and connected by the one `wire(_:to:)`: its bridge traffic,
/// controls and page events are reported, its navigations routed by its navigator, and what the navigator
/// does not handle goes to the desktop integration or ends the session.
@MainActor
final class WindowStack {
    /// The main window.
    let main: BrowserWindow
    /// The main window's navigator (it presents and dismisses the modal).
    let navigator: Navigator
    /// Sees the request to end the session: the main window was closed, its page called `window.close()`, or
    /// its web process keeps dying.
    var onQuit: (@MainActor (_ code: Int32, _ reason: String) -> Void)?
    /// A plugin's native screen for a visit to a URL, or `nil` for the web page (every navigator asks this).
    var nativeScreen: (@MainActor (_ url: String) -> (any NativeScreenView)?)?

    /// An app with tabs: which tab is shown and which are loaded, the view switcher, and each loaded tab's
    /// navigator (the first tab's is ``navigator``). `nil` without tabs (`WindowStack+Tabs.swift`).
    var tabs: TabSet?
    var tabSwitcher: TabSwitcher?
    var tabNavigators: [Int: Navigator] = [:]
    /// The URL the command line named, loaded by the first tab instead of its start URL.
    var firstTabURL: String?

    let configuration: HostConfiguration
    let registrations: [ComponentRegistration]
    let desktop: DesktopIntegration
    private let pathConfiguration: PathConfigurationStore
    let automation: AutomationChannel?
    private let output: HostOutput
    let logger: Logger
    private var crashPolicy = WebProcessCrashPolicy()

    /// Builds the main window (not shown yet: ``BrowserWindow/present()``) with its navigator, sized and
    /// maximised as the app last ended (`restored`), else as configured. `onStartupPhase` sees the main
    /// window's start-up phases.
    init(
        configuration: HostConfiguration, registrations: [ComponentRegistration], desktop: DesktopIntegration,
        pathConfiguration: PathConfigurationStore, automation: AutomationChannel?, output: HostOutput,
        logger: Logger, onStartupPhase: @escaping @MainActor (String) -> Void
    ) {
        self.configuration = configuration
        self.registrations = registrations
        self.desktop = desktop
        self.pathConfiguration = pathConfiguration
        self.automation = automation
        self.output = output
        self.logger = logger
        let restored = desktop.restoredWindowState
        main = Self.makeWindow(
            configuration, names: ComponentRegistration.uniqueNames(registrations), session: desktop.networkSession,
            logger: logger, size: restored.map { ($0.width, $0.height) } ?? configuration.windowSize,
            webDriver: configuration.webDriver, onStartupPhase: onStartupPhase)
        if restored?.maximized == true { main.maximize() }
        if let scheme = configuration.colorScheme { main.applyColorScheme(scheme) }
        main.onWebDriverSession = { [logger] id in
            logger.info("WebDriver session \(id) started: the driver drives the page")
            automation?.emit(.webDriverStarted(session: id))
        }
        navigator = Navigator(
            window: main, registrations: registrations, originPolicy: configuration.originPolicy, logger: logger)
        wire(main, to: navigator)
        main.installChrome(
            menu: PrimaryMenu(appItems: configuration.menuItems, appName: configuration.title), about: about,
            developer: configuration.developer
        ) { [weak self] action in self?.menuAction(action) }
        navigator.makeModal = { [weak self] url, properties in self?.presentModal(url, properties: properties) }
        if !configuration.tabs.isEmpty { installTabs(configuration.tabs) }
    }

    /// What the About window says: the app definition's, else the window title.
    var about: AboutInfo { configuration.about ?? AboutInfo(name: configuration.title) }

    /// A primary menu item's action (About, Keyboard Shortcuts, Quit and Close are the window's own).
    private func menuAction(_ action: PrimaryMenu.Action) {
        switch action {
        case .visit(let url): activeNavigator.visit(url, action: .advance)
        case .reload: activeNavigator.refresh()
        case .back: _ = activeNavigator.back()
        default: break
        }
    }

    /// The window the user acts in: the modal when one is presented, else the main window (whose controls
    /// are the shown tab's).
    var activeWindow: BrowserWindow { (shownNavigator.modal?.window as? BrowserWindow) ?? main }

    /// The navigator of the stack the user acts in: the modal's when one is presented, else the shown tab's
    /// (the main one without tabs).
    var activeNavigator: Navigator { shownNavigator.modal ?? shownNavigator }

    /// A later launch of the app asked for `url`: the main window visits it (a new stack in the tab shown,
    /// as `navigate`).
    func visitFromLaterLaunch(_ url: String) {
        logger.info("a later launch asked for \(url)")
        shownNavigator.navigate(url)
        main.present()
    }

    /// A window of the session (a modal when `parent` is given): the app's title and user agent, the
    /// component names announced, the session's network session.
    static func makeWindow(
        _ configuration: HostConfiguration, names: [String], session: NetworkSession, logger: Logger,
        modalOver parent: BrowserWindow? = nil, size: (width: Int, height: Int)?, webDriver: Bool = false,
        onStartupPhase: (@MainActor (String) -> Void)? = nil
    ) -> BrowserWindow {
        BrowserWindow(
            title: configuration.title, componentNames: names, originPolicy: configuration.originPolicy,
            session: session, userAgentPrefix: configuration.userAgentPrefix, webDriver: webDriver, logger: logger,
            modalOver: parent, size: size, onStartupPhase: onStartupPhase)
    }

    /// What every window reports and how it is driven, whichever stack it shows: a fresh document's "ready"
    /// goes to its navigator first (stale components are renewed before the bridge answers); bridge traffic
    /// becomes trace lines and automation events; control changes are reported; navigations are routed by
    /// its navigator; page events are reported, handled by its navigator, and the rest by
    /// ``pageEventLeftOver(_:in:of:)``.
    func wire(_ window: BrowserWindow, to navigator: Navigator) {
        let channel = automation, trace = configuration.trace, output = output
        navigator.report = { event in channel?.emit(event) }
        navigator.pathProperties = { [pathConfiguration] url in pathConfiguration.current.properties(for: url) }
        navigator.errorRoute = { [pathConfiguration] status in pathConfiguration.current.errorRoute(for: status) }
        navigator.nativeScreen = { [weak self] url in self?.nativeScreen?(url) }
        window.bridge.onReady = { [weak navigator] in navigator?.bridgeReady() }
        // Asked once: every message and every reply comes through here.
        let reportsReceived = trace || channel?.wants(.bridgeReceived) == true
        let reportsSent = trace || channel?.wants(.bridgeSent) == true
        window.bridge.observer = { traffic in
            switch traffic {
            case .received: guard reportsReceived else { return }
            case .sent: guard reportsSent else { return }
            default: break
            }
            if trace { output.trace(Trace.line(for: traffic)) }
            guard let channel, channel.wants(AutomationEvent.name(of: traffic)) else { return }
            channel.emit(AutomationEvent(traffic))
        }
        window.controls.observer = { change in channel?.emit(AutomationEvent(change)) }
        if channel != nil {
            window.controls.launchesBrowser = false
            window.controls.asksTheUser = false
        }
        window.decideRoute = { [weak navigator] request in navigator?.route(request) ?? false }
        // A component granted to some origins only is announced to their pages only (user agent).
        window.componentNamesForPage = { [weak navigator] url in
            guard let registrations = navigator?.registrations, registrations.contains(where: { $0.pageCheck != nil })
            else { return nil }
            return ComponentRegistration.names(servedTo: url, registrations)
        }
        window.onPageEvent = { [weak self, weak window, weak navigator] event in
            if let automation = AutomationEvent(event) { channel?.emit(automation) }
            guard let window, var navigator else { return }
            // The main window's Back, Ctrl+R and F5 act on the tab shown.
            if window === self?.main, event.isWindowLevel, let shown = self?.shownNavigator { navigator = shown }
            guard !navigator.handle(event) else { return }
            self?.pageEventLeftOver(event, in: window, of: navigator)
        }
    }

    /// What a window's navigator leaves to the session: permissions and notifications go to the desktop
    /// integration; the main window's closing ends the session, a modal's dismisses it; a dead web process
    /// is replaced by reloading (the main window's by the crash policy).
    private func pageEventLeftOver(_ event: PageEvent, in window: BrowserWindow, of navigator: Navigator) {
        let isModal = navigator.kind == .modal
        switch event {
        case .permissionRequested(let request): desktop.decide(request, in: window)
        case .notification(let title, let body): desktop.show(notification: title, body: body, in: activeWindow)
        case .closeRequestedByPage where isModal: navigator.parent?.dismissModal(reason: "closed by the page")
        case .closeRequestedByPage: onQuit?(0, "the page called window.close()")
        case .windowClosed where !isModal: onQuit?(0, "the window was closed")
        case .quitRequested: onQuit?(0, "the user quit (Ctrl+Q)")
        case .webProcessTerminated where isModal: window.reload()
        case .webProcessTerminated:
            switch crashPolicy.webProcessDied() {
            case .reload:
                logger.warning("the web content process died; reloading the page")
                window.reload()
            case .quit(let code, let reason): onQuit?(code, reason)
            }
        default: break
        }
    }

    /// A modal over the main window for a visit to `url`: its own window (sized by the rule's
    /// `modal_style`, or `width` and `height`), web view, bridge and screen stack, with the path
    /// configuration and native screens of the main one.
    func presentModal(_ url: String, properties: PathProperties) -> Navigator? {
        let registrations = navigator.registrations
        let size = properties.modalSize(over: main.size)
        let window = Self.makeWindow(
            configuration, names: ComponentRegistration.uniqueNames(registrations),
            session: desktop.networkSession, logger: logger, modalOver: main, size: size)
        let modal = Navigator(
            window: window, registrations: registrations, originPolicy: configuration.originPolicy,
            logger: logger, kind: .modal)
        wire(window, to: modal)
        window.installChrome(menu: nil, about: about, developer: configuration.developer) { _ in }
        logger.info("presenting \(url) in a modal (\(size.width)×\(size.height))")
        window.load(url: url)
        window.present()
        automation?.emit(.modalPresented(url: url, width: size.width, height: size.height))
        return modal
    }
}
