import CWebKitGTK
package import Logging
package import StradaCore
package import StradaNavigation

/// The host window: a `GtkWindow` with an `AdwHeaderBar` (a Back button at its start, the shown screen's
/// controls) and one WebKit web view with its bridge. What is a screen, and which screen is shown, is the
/// navigator's business (StradaHost); the window reports what the page does and carries out what the
/// navigator asks: load, go back, call into the page's Turbo adapter, show a screen's controls.
@MainActor
package final class BrowserWindow: NavigationWindow {
    package let controls: WindowControls
    package let bridge: Bridge
    /// Sees page events.
    package var onPageEvent: (@MainActor (PageEvent) -> Void)?
    /// Decides where a navigation goes: `true` when the host took it elsewhere (the browser, the system, a
    /// visit of its own), so the web view does not load it. `nil`, or `false`: WebKit loads it.
    package var decideRoute: (@MainActor (RouteRequest) -> Bool)?
    /// The web view, an error screen, or a native screen.
    package let content: ScreenContent
    /// The last URL the host itself asked to load (a start page or `navigate` is loaded whatever its origin).
    package private(set) var requestedURL: String?
    /// The URL of the document committed last (``currentURL`` already follows a load still in progress).
    package private(set) var committedURL: String?

    /// The `GtkWindow` (a tab's is its main window's) and the header bar's Back button, owned.
    private let owned: (window: WidgetRef, backButton: WidgetRef)
    var window: UnsafeMutablePointer<GtkWidget> { owned.window.pointer }
    let webView: WebView
    var backButton: UnsafeMutablePointer<GtkWidget> { owned.backButton.pointer }
    /// The main window this is a tab of (``init(tabOf:componentNames:originPolicy:session:userAgentPrefix:logger:)``),
    /// sharing its `GtkWindow`, header bar and controls; `nil` for a window of its own.
    package private(set) weak var tabHost: BrowserWindow?
    /// Whether the window shows this web view: `false` for a tab not selected. Only then do its title and Back
    /// reach the shared header bar.
    package internal(set) var isShownInWindow = true
    /// Whether the navigator wants Back shown (applied when this tab is shown).
    var wantsBackButton = false
    /// The view switcher, on a main window with tabs (``installTabs(_:)``).
    package internal(set) var tabSwitcher: TabSwitcher?
    private var componentNames: [String]
    /// The names a page at a URL may use (a component granted to some origins only is announced to those);
    /// `nil`: every page gets every name.
    package var componentNamesForPage: (@MainActor (_ pageURL: String) -> [String]?)?
    /// The user agent's suffix in force.
    private var announcedSuffix: String
    let logger: Logger
    /// Sees the start-up phases this window passes (see `init`).
    private let onStartupPhase: (@MainActor (String) -> Void)?
    private let userAgentPrefix: String?
    /// Developer mode (``installChrome(menu:about:developer:onMenuAction:)``): the context menu keeps
    /// "Inspect Element".
    var chromeDeveloperMode = false
    private let originPolicy: OriginPolicy

    /// Sees each WebDriver session that starts (`webDriver` windows), with the session's id.
    package var onWebDriverSession: (@MainActor (String) -> Void)?

    /// The window this modal is presented over (`nil` for the main window).
    package private(set) weak var parent: BrowserWindow?
    /// The modal presented over this window, if any (its picture is part of this window's screenshot).
    package private(set) weak var presentedModal: BrowserWindow?

    /// The modal presented over this window (the navigator's), part of this window's picture.
    /// A tab's modal is its main window's.
    package func setPresentedModal(_ modal: (any NavigationWindow)?) {
        if let tabHost { tabHost.setPresentedModal(modal) } else { presentedModal = modal as? BrowserWindow }
    }

    /// Creates the window (not shown yet) announcing `componentNames`, with the app's optional user-agent
    /// prefix. `originPolicy`: which pages get the bridge and the Turbo adapter (scripts and routing).
    /// `session`: the network session its web view shares with the host's other windows (website data,
    /// downloads). With `parent`, the window is a modal over it (transient, modal, `size` or 80 % of the parent's, a
    /// Cancel button that asks to dismiss it, as do Escape and its close button). `webDriver`: the web view is
    /// controlled by automation and handed to the WebDriver session WebKitWebDriver asks for (the driver
    /// matches its `browserName` capability against "strada-host"). `onStartupPhase` sees the start-up phases
    /// the window passes: "webView" (its web view created), "window" (built), "mapped", "firstFrame" (its
    /// first frame painted after it was mapped; not for a modal) and "load" (each load started).
    package init(
        title: String, componentNames: [String], originPolicy: OriginPolicy, session: NetworkSession,
        userAgentPrefix: String? = nil, webDriver: Bool = false, logger: Logger, modalOver parent: BrowserWindow? = nil,
        size: (width: Int, height: Int)? = nil, onStartupPhase: (@MainActor (String) -> Void)? = nil,
        tabOf host: BrowserWindow? = nil
    ) {
        self.parent = parent
        tabHost = host
        self.onStartupPhase = onStartupPhase
        self.originPolicy = originPolicy
        self.componentNames = componentNames
        self.logger = logger
        self.userAgentPrefix = userAgentPrefix
        let window = host?.window ?? gtk_window_new()!
        let gtkWindow = strada_gtk_window(window)
        // A tab (`host`) lives in its host's window, already titled and sized.
        if host == nil { gtk_window_set_title(gtkWindow, title) }
        if host == nil, let parent {
            let parentWindow = strada_gtk_window(parent.window)
            let width = size?.width ?? Int(Double(max(gtk_widget_get_width(parent.window), 480)) * 0.8)
            let height = size?.height ?? Int(Double(max(gtk_widget_get_height(parent.window), 360)) * 0.8)
            gtk_window_set_default_size(gtkWindow, Int32(width), Int32(height))
            gtk_window_set_transient_for(gtkWindow, parentWindow)
            gtk_window_set_modal(gtkWindow, 1)
            gtk_window_set_destroy_with_parent(gtkWindow, 1)
        } else if host == nil {
            gtk_window_set_default_size(gtkWindow, Int32(size?.width ?? 960), Int32(size?.height ?? 640))
        }

        announcedSuffix = UserAgent.suffix(prefix: userAgentPrefix, componentNames: componentNames)
        webView = WebView(
            session: session,
            userAgentSuffix: announcedSuffix,
            controlledByAutomation: webDriver)
        onStartupPhase?("webView")
        bridge = Bridge(webView: webView, logger: logger)
        content = ScreenContent(webView: webView.widget)
        webView.installUserScripts(allowList: originPolicy.userScriptPatterns)
        if let host {
            controls = host.controls
            owned = (WidgetRef(window), WidgetRef(host.backButton))
        } else {
            controls = WindowControls(window: window, webView: content.widget, title: title)
            owned = (WidgetRef(window), WidgetRef(gtk_button_new_from_icon_name("go-previous-symbolic")!))
            controls.attachAnchorView(webView)
            installWindowChrome(modal: parent != nil)
        }

        content.onRetry = { [weak self] in self?.onPageEvent?(.retryRequested) }
        strada_connect_permission_requests(
            webView.view,
            { kind, request, data in
                guard let data, let request else { return }
                let window = Unmanaged<BrowserWindow>.fromOpaque(data).takeUnretainedValue()
                let name = kind.map { String(cString: $0) } ?? "other"
                MainActor.assumeIsolated {
                    let origin = OriginPolicy.origin(of: window.webView.currentURL ?? "") ?? "this page"
                    let permission = PermissionRequest(kind: name, origin: origin, request: request)
                    if let handler = window.onPageEvent {
                        handler(.permissionRequested(permission))
                    } else {
                        permission.answer(false)
                    }
                }
            }, Unmanaged.passUnretained(self).toOpaque())
        strada_connect_notifications(
            webView.view,
            { title, body, data in
                guard let data else { return }
                let window = Unmanaged<BrowserWindow>.fromOpaque(data).takeUnretainedValue()
                let title = title.map { String(cString: $0) } ?? "", body = body.map { String(cString: $0) } ?? ""
                MainActor.assumeIsolated { window.onPageEvent?(.notification(title: title, body: body)) }
            }, Unmanaged.passUnretained(self).toOpaque())
        installRouting()
        installFilesAndPrinting()
        if webDriver, host == nil {
            strada_offer_web_view_to_automation(
                webView.widget, Self.automationName, 1, 0, 0,
                { session, data in
                    guard let data else { return }
                    let window = Unmanaged<BrowserWindow>.fromOpaque(data).takeUnretainedValue()
                    let id = session.map { String(cString: $0) } ?? ""
                    MainActor.assumeIsolated { window.onWebDriverSession?(id) }
                }, Unmanaged.passUnretained(self).toOpaque())
        }

        webView.onMessage = { [weak self] text in
            guard let self else { return }
            if text.hasPrefix(#"{"turbo":"#) {
                guard let message = try? JSON(parsing: text) else { return }
                self.onPageEvent?(.turbo(message))
            } else {
                self.bridge.receive(json: text)
            }
        }
        webView.onOversized = { [weak self] bytes, head in self?.bridge.rejectOversized(bytes: bytes, head: head) }
        let viewPointer = UnsafeMutableRawPointer(webView.view)
        onEnumSignal(viewPointer, "load-changed") { [weak self] event in self?.loadChanged(WebKitLoadEvent(event)) }
        onPointerSignal(viewPointer, "notify::title") { [weak self] _ in
            // Reported only: the navigator decides whose title it is and shows it (showTitle).
            guard let self else { return }
            self.onPageEvent?(.titleChanged(self.webView.title))
        }
        onPointerSignal(viewPointer, "notify::uri") { [weak self] _ in
            guard let self, let url = self.webView.currentURL else { return }
            self.onPageEvent?(.locationChanged(url))
        }
        onSignal(viewPointer, "close") { [weak self] in self?.onPageEvent?(.closeRequestedByPage) }
        onEnumSignal(viewPointer, "web-process-terminated") { [weak self] reason in
            let text =
                reason == WEBKIT_WEB_PROCESS_CRASHED.rawValue
                ? "crashed" : "exceeded its memory limit or was terminated"
            self?.logger.error("the web content process \(text)")
            self?.onPageEvent?(.webProcessTerminated(reason: text))
        }
        if parent == nil, host == nil { reportFirstFrame() }
        onStartupPhase?("window")
    }

    /// The application name a WebDriver session sees (its `browserName`).
    package static let automationName = "strada-host"

    /// Reports "mapped" when the window is mapped and "firstFrame" when its frame clock has painted the
    /// first frame after that (each once).
    private func reportFirstFrame() {
        let widget = UnsafeMutableRawPointer(window)
        let mapHandler = HandlerID()
        mapHandler.value = onSignal(widget, "map") { [weak self, onStartupPhase] in
            g_signal_handler_disconnect(widget, mapHandler.value)
            onStartupPhase?("mapped")
            guard let self, let clock = gtk_widget_get_frame_clock(self.window) else { return }
            let paintHandler = HandlerID()
            paintHandler.value = onSignal(UnsafeMutableRawPointer(clock), "after-paint") {
                g_signal_handler_disconnect(UnsafeMutableRawPointer(clock), paintHandler.value)
                onStartupPhase?("firstFrame")
            }
        }
    }

    /// Reports `event` when one of `keys` (GTK trigger syntax, alternatives with '|') is pressed, or mouse
    /// `button` (0: none), wherever the focus is.
    func onTrigger(keys: String, button: UInt32 = 0, _ event: PageEvent) {
        onTrigger(keys: keys, button: button) { [weak self] in self?.onPageEvent?(event) }
    }

    /// Runs `action` when one of `keys` is pressed, or mouse `button` (0: none), wherever the focus is.
    func onTrigger(keys: String, button: UInt32 = 0, action: @escaping @MainActor () -> Void) {
        let box = Unmanaged.passRetained(TriggerBox(action: action)).toOpaque()
        strada_install_trigger(
            window, keys, button,
            { data in
                guard let data else { return }
                let box = Unmanaged<TriggerBox>.fromOpaque(data).takeUnretainedValue()
                MainActor.assumeIsolated { box.action() }
            }, box, { data in data.map { Unmanaged<TriggerBox>.fromOpaque($0).release() } })
    }

    /// Controls for a new screen (shown once the navigator shows the screen).
    package func makeScreenControls() -> any ScreenControlSet {
        ScreenControls(window: controls)
    }

    /// Shows or hides the header bar's Back button (the navigator shows it when there is a screen to go back to).
    /// A tab not shown keeps the wish for when it is shown (the button is its main window's).
    package func setBackButtonVisible(_ visible: Bool) {
        wantsBackButton = visible
        if isShownInWindow { gtk_widget_set_visible(backButton, visible ? 1 : 0) }
    }

    /// Opens `url` in the user's browser (reported, not launched, under automation).
    package func openInBrowser(_ url: String) { controls.openInBrowser(url) }

    /// Calls into the page's Turbo adapter (the navigator's calls); failures are logged.
    package func perform(_ call: TurboCall) {
        webView.evaluate(javaScript: call.script) { [logger] error in
            if let error { logger.warning("evaluating a navigator call failed: \(error)") }
        }
    }

    /// Benchmarks only: installs the bare engine echo channel and records arrival times on both channels;
    /// `report` gets the round-trip statistics when the page posts `{"benchmark":"done"}` to the echo channel.
    package func installEchoBenchmark(report: @escaping @MainActor (JSON) -> Void) {
        let benchmark = EchoBenchmark(report: report)
        webView.installEchoChannel { channel, time, text in benchmark.record(channel: channel, time: time, text: text) }
    }

    /// Announces `names` from now on. If the set changed, the user agent's `bridge-components` list is
    /// updated and the page reloaded (web components not announced at load time would never load
    /// otherwise). Returns `true` when the page was reloaded.
    @discardableResult
    package func setComponentNames(_ names: [String]) -> Bool {
        let before = componentNames
        componentNames = names
        guard Set(before) != Set(names) else { return false }
        announceComponents(forPage: currentURL)
        webView.reload()
        return true
    }

    /// The user agent's `bridge-components` list for a page at `url`: the names ``componentNamesForPage`` lets
    /// it use (all when it is not set). WebKit has one user agent per web view, so it is set where a page's
    /// origin is known before its document runs: when a navigation leaves the current origin (before WebKit
    /// picks the web process that loads it — a cross-site page gets a new one, which keeps the user agent it
    /// started with), when the main frame's document answers (after redirects), and again when a page has
    /// loaded (a frame of another origin navigating inside it is also a navigation that leaves the origin).
    func announceComponents(forPage url: String?) {
        let names = url.flatMap { componentNamesForPage?($0) } ?? componentNames
        let suffix = UserAgent.suffix(prefix: userAgentPrefix, componentNames: names)
        guard suffix != announcedSuffix else { return }
        announcedSuffix = suffix
        webView.setUserAgentSuffix(suffix)
    }

    /// The user agent the engine sends now.
    package var userAgent: String { webView.userAgent }

    /// The URL shown now.
    package var currentURL: String? { webView.currentURL }

    /// The raw GTK objects (for the "dev.strada.gtk-handles/1" plugin extension): window, header bar, web view.
    package var gtkHandles:
        (window: UnsafeMutableRawPointer, headerBar: UnsafeMutableRawPointer, webView: UnsafeMutableRawPointer)
    {
        (
            UnsafeMutableRawPointer(window), UnsafeMutableRawPointer(controls.headerBar),
            UnsafeMutableRawPointer(webView.view)
        )
    }

    package func present() { gtk_window_present(strada_gtk_window(window)) }

    /// Makes this window `application`'s (the app's id on the desktop; a later launch raises it).
    package func join(_ application: DesktopApplication) { application.add(window: window) }

    /// The size to restore at the next start: the unmaximised size (GTK keeps the default size in step with
    /// the user's resizing), and whether the window is maximised.
    package var savedState: (width: Int, height: Int, maximized: Bool) {
        var width: Int32 = 0, height: Int32 = 0
        gtk_window_get_default_size(strada_gtk_window(window), &width, &height)
        return (Int(width), Int(height), gtk_window_is_maximized(strada_gtk_window(window)) != 0)
    }

    /// Maximises the window (as it was when the app last ended).
    package func maximize() { gtk_window_maximize(strada_gtk_window(window)) }

    /// The window's size now (its default size before it is shown).
    package var size: (width: Int, height: Int) {
        let width = gtk_widget_get_width(window), height = gtk_widget_get_height(window)
        if width > 0, height > 0 { return (Int(width), Int(height)) }
        var defaultWidth: Int32 = 0, defaultHeight: Int32 = 0
        gtk_window_get_default_size(strada_gtk_window(window), &defaultWidth, &defaultHeight)
        return (Int(defaultWidth), Int(defaultHeight))
    }

    /// Destroys the window (a dismissed modal): its web view and web process go with it.
    package func destroy() {
        onPageEvent = nil
        decideRoute = nil
        componentNamesForPage = nil
        gtk_window_destroy(strada_gtk_window(window))
    }
    package func load(url: String) {
        requestedURL = url
        webView.load(url: url)
        onStartupPhase?("load")
    }
    package func reload() { webView.reload() }

    // MARK: Routes, failures and the content shown

    /// Shows the web view, the error screen for a failed visit, or a native screen (its widget kept by the
    /// window until ``removeNativeScreen(key:)``, its title — the path configuration's — shown instead of the
    /// page's). A tab not shown changes its content, not the shared title.
    package func show(_ shown: ShownContent) {
        let title: String
        switch shown {
        case .web(let screenTitle):
            content.showWeb()
            title = screenTitle
        case .error(let error):
            content.showError(error)
            title = error.title
        case .native(let key, let screen, let nativeTitle):
            content.showNative(screen.widget.assumingMemoryBound(to: GtkWidget.self), name: key)
            title = nativeTitle
        }
        if isShownInWindow { controls.pageTitle = title }
    }

    /// The page shown has a new title: shown when the web view is (a native or error screen keeps its own).
    package func showTitle(_ title: String) {
        if case .web = content.page, isShownInWindow { controls.pageTitle = title }
    }

    /// Releases the native screen shown under `key` (its screen is gone).
    package func removeNativeScreen(key: String) { content.removeNative(name: key) }

    /// Asks the user a yes/no question in this window (an `AdwMessageDialog`, a `dialog` control `id` for
    /// automation: `confirm` answers yes, `dismiss` no).
    package func ask(
        id: String, title: String, message: String, yes: String, no: String,
        answer: @escaping @MainActor (Bool) -> Void
    ) {
        controls.presentAlert(
            ControlAlert(id: id, title: title, message: message, confirmTitle: yes, dismissTitle: no),
            onAnswer: answer)
    }

    /// Shows a transient message at the bottom of the window (an `AdwToast`).
    package func toast(_ message: String) { controls.showToast(message) }

    /// Sets the app's colour scheme (libadwaita's style manager), as the app definition says.
    package func applyColorScheme(_ scheme: ColorScheme) { controls.setColorScheme(scheme) }

    /// The app's identity for the desktop: the window's icon (the app id, as `app install` names it in the
    /// icon theme), the application name, and the window's class (`windowClass`, default the id: what the
    /// desktop entry's `StartupWMClass` names).
    package static func setIdentity(id: String, name: String, windowClass: String? = nil) {
        g_set_prgname(windowClass ?? id)
        g_set_application_name(name)
        gtk_window_set_default_icon_name(id)
    }

    /// Opens `url` with the system's handler for its scheme (`mailto:`, `tel:`, …); reported, not launched,
    /// under automation.
    package func openWithSystem(_ url: String) { controls.openWithSystem(url) }

    private func loadChanged(_ event: WebKitLoadEvent) {
        switch event {
        case WEBKIT_LOAD_COMMITTED:
            webView.syncURL()
            controls.dropPageRequests()
            let url = webView.currentURL ?? ""
            committedURL = url
            let bridged = originPolicy.allows(url)
            if !bridged {
                logger.warning(
                    "\(url) is not from an allowed origin: this page gets no bridge (allow it with --allow-origin)")
            }
            onPageEvent?(.committed(url: url, bridged: bridged))
            let status = Int(strada_main_resource_status(webView.view))
            if status >= 400, bridged {
                onPageEvent?(.httpError(VisitError(url: url, statusCode: status, detail: "HTTP \(status)")))
            }
        case WEBKIT_LOAD_FINISHED:
            // A frame of another origin navigating inside the page may have announced its origin's list.
            announceComponents(forPage: webView.currentURL)
            onPageEvent?(.finished(url: webView.currentURL ?? "", title: webView.title))
        default:
            break
        }
    }
}

/// A signal handler's id, for a handler that disconnects itself.
final class HandlerID: @unchecked Sendable {  // set and read on the main thread
    var value: gulong = 0
}

/// What a key or button trigger runs (released with the window).
private final class TriggerBox: @unchecked Sendable {  // created and used on the main thread
    let action: @MainActor () -> Void
    init(action: @escaping @MainActor () -> Void) { self.action = action }
}
