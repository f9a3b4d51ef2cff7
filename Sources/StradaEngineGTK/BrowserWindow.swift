import CWebKitGTK
public import Logging
public import StradaCore

/// What happens to the page, reported to the host (automation channel, tests).
public enum PageEvent: Sendable {
    /// A new document was committed: a new destination now owns the web view. `bridged` is false for a
    /// page whose origin is not allowed (it has no bridge at all).
    case committed(url: String, bridged: Bool)
    /// The document finished loading.
    case finished(url: String, title: String)
    /// The document's title changed.
    case titleChanged(String)
    /// The page called `window.close()`.
    case closeRequestedByPage
    /// The user closed the window.
    case windowClosed
    /// The web content process died.
    case webProcessTerminated(reason: String)
}

/// One page load: the destination that owns the web view from commit until the next commit.
@MainActor
final class Page: BridgeDestination {
    private(set) var delegate: BridgeDelegate!
    private let controls: PageControls
    func nativeControls(for componentName: String) -> ComponentControls? {
        ComponentControls(base: controls, idPrefix: componentName + ".")
    }

    init(url: String, components: [ComponentRegistration], windowControls: WindowControls, logger: Logger) {
        controls = PageControls(window: windowControls)
        delegate = BridgeDelegate(location: url, destination: self, components: components, logger: logger)
    }

    /// Leaves the web view: lifecycle, deactivation, controls removed, components destroyed.
    func close() {
        delegate.onViewWillDisappear()
        delegate.onViewDidDisappear()
        delegate.webViewDidBecomeDeactivated()
        controls.removeAll()
        delegate.destroyComponents()
    }
}

/// The host window: a `GtkWindow` with a `GtkHeaderBar` and one WebKit web view, the bridge of that web
/// view, and the page lifecycle mapped onto destinations:
/// - load committed (a new document) → the previous page gets will/did-disappear, loses the web view, its
///   controls are removed and its components destroyed; a new page (destination) with its own component
///   instances gets the web view, then did-load, will-appear, did-appear.
/// - same-document navigations (pushState, fragments, Turbo Drive visits) keep the page and its components.
@MainActor
public final class BrowserWindow {
    public let controls: WindowControls
    public let bridge: Bridge
    /// Sees page events.
    public var onPageEvent: (@MainActor (PageEvent) -> Void)?

    private let window: UnsafeMutablePointer<GtkWidget>
    private let webView: WebView
    private var components: [ComponentRegistration]
    private var page: Page?
    private let logger: Logger
    private let userAgentPrefix: String?
    private let originPolicy: OriginPolicy

    /// Creates the window (not shown yet) for `components`, with the app's optional user-agent prefix.
    /// - Parameter originPolicy: which pages get the bridge (adapter script and routing).
    public init(title: String, components: [ComponentRegistration], originPolicy: OriginPolicy, userAgentPrefix: String? = nil, logger: Logger) {
        self.originPolicy = originPolicy
        self.components = components
        self.logger = logger
        self.userAgentPrefix = userAgentPrefix
        window = gtk_window_new()
        let gtkWindow = strada_gtk_window(window)
        gtk_window_set_title(gtkWindow, title)
        gtk_window_set_default_size(gtkWindow, 960, 640)

        let names = ComponentRegistration.uniqueNames(components)
        webView = WebView(userAgentSuffix: UserAgent.suffix(prefix: userAgentPrefix, componentNames: names))
        bridge = Bridge(webView: webView, logger: logger)
        controls = WindowControls(window: window, webView: webView.widget, title: title)
        controls.attachAnchorView(webView)
        webView.installUserScripts(allowList: originPolicy.userScriptPatterns)

        webView.onMessage = { [bridge] text in bridge.receive(json: text) }
        let viewPointer = UnsafeMutableRawPointer(webView.view)
        onEnumSignal(viewPointer, "load-changed") { [weak self] event in self?.loadChanged(WebKitLoadEvent(event)) }
        onPointerSignal(viewPointer, "notify::title") { [weak self] _ in
            guard let self else { return }
            let pageTitle = self.webView.title
            self.controls.pageTitle = pageTitle
            self.onPageEvent?(.titleChanged(pageTitle))
        }
        onSignal(viewPointer, "close") { [weak self] in self?.onPageEvent?(.closeRequestedByPage) }
        onEnumSignal(viewPointer, "web-process-terminated") { [weak self] reason in
            let text = reason == WEBKIT_WEB_PROCESS_CRASHED.rawValue ? "crashed" : "exceeded its memory limit or was terminated"
            self?.logger.error("the web content process \(text)")
            self?.onPageEvent?(.webProcessTerminated(reason: text))
        }
        onBoolSignal(UnsafeMutableRawPointer(window), "close-request") { [weak self] in
            self?.onPageEvent?(.windowClosed)
            return false
        }
    }

    /// Benchmarks only: installs the bare engine echo channel and records arrival times on both channels;
    /// `report` gets the round-trip statistics when the page posts `{"benchmark":"done"}` to the echo channel.
    public func installEchoBenchmark(report: @escaping @MainActor (JSON) -> Void) {
        let benchmark = EchoBenchmark(report: report)
        webView.installEchoChannel { channel, time, text in benchmark.record(channel: channel, time: time, text: text) }
    }

    /// Serves `components` from now on. If the set of names changed, the user agent's
    /// `bridge-components` list is updated and the page reloaded (web components not announced at load
    /// time would never load otherwise); if not, the current page keeps its instances.
    /// Returns `true` when the page was reloaded.
    @discardableResult
    public func setComponents(_ components: [ComponentRegistration]) -> Bool {
        let before = ComponentRegistration.uniqueNames(self.components)
        self.components = components
        let after = ComponentRegistration.uniqueNames(components)
        guard Set(before) != Set(after) else { return false }
        webView.setUserAgentSuffix(UserAgent.suffix(prefix: userAgentPrefix, componentNames: after))
        webView.reload()
        return true
    }

    /// Hot reload: replaces the current page's instances of `names` with new ones (see
    /// `BridgeDelegate.reloadComponent(named:)`). Returns the names that had an instance.
    public func reloadComponents(named names: [String]) -> [String] {
        guard let page else { return [] }
        return names.filter { page.delegate.reloadComponent(named: $0) }
    }

    /// The user agent the engine sends now.
    public var userAgent: String { webView.userAgent }

    /// The URL shown now.
    public var currentURL: String? { webView.currentURL }

    /// Renders the whole window (header bar and page) to a PNG file with GTK's own renderer.
    public func saveScreenshot(to path: String) -> Bool {
        let width = gtk_widget_get_width(window), height = gtk_widget_get_height(window)
        guard width > 0, height > 0, let native = gtk_widget_get_native(window),
            let renderer = gtk_native_get_renderer(native)
        else { return false }
        let paintable = gtk_widget_paintable_new(window)
        defer { g_object_unref(UnsafeMutableRawPointer(paintable)) }
        let snapshot = gtk_snapshot_new()
        gdk_paintable_snapshot(paintable, snapshot, Double(width), Double(height))
        // Popovers and dialogs are surfaces of their own: draw them where they are shown.
        controls.drawOverlays(into: snapshot, window: window, width: Double(width), height: Double(height))
        guard let node = gtk_snapshot_free_to_node(snapshot) else { return false }
        defer { gsk_render_node_unref(node) }
        guard let texture = gsk_renderer_render_texture(renderer, node, nil) else { return false }
        defer { g_object_unref(UnsafeMutableRawPointer(texture)) }
        return gdk_texture_save_to_png(texture, path) != 0
    }

    /// The raw GTK objects (for the "dev.strada.gtk-handles/1" plugin extension): window, header bar, web view.
    public var gtkHandles: (window: UnsafeMutableRawPointer, headerBar: UnsafeMutableRawPointer, webView: UnsafeMutableRawPointer) {
        (UnsafeMutableRawPointer(window), UnsafeMutableRawPointer(controls.headerBar), UnsafeMutableRawPointer(webView.view))
    }

    /// The host is stopping: the page disappears, loses the web view, its controls and components go.
    public func tearDown() {
        page?.close()
        page = nil
    }

    public func present() { gtk_window_present(strada_gtk_window(window)) }
    public func load(url: String) { webView.load(url: url) }
    public func reload() { webView.reload() }

    private func loadChanged(_ event: WebKitLoadEvent) {
        switch event {
        case WEBKIT_LOAD_COMMITTED:
            webView.syncURL()
            let url = webView.currentURL ?? ""
            page?.close()
            page = nil
            bridge.delegate = nil
            guard originPolicy.allows(url) else {
                logger.warning("\(url) is not from an allowed origin: this page gets no bridge (allow it with --allow-origin)")
                onPageEvent?(.committed(url: url, bridged: false))
                return
            }
            let newPage = Page(url: url, components: components, windowControls: controls, logger: logger)
            page = newPage
            newPage.delegate.webViewDidBecomeActive(bridge)
            newPage.delegate.onViewDidLoad()
            newPage.delegate.onViewWillAppear()
            newPage.delegate.onViewDidAppear()
            onPageEvent?(.committed(url: url, bridged: true))
        case WEBKIT_LOAD_FINISHED:
            onPageEvent?(.finished(url: webView.currentURL ?? "", title: webView.title))
        default:
            break
        }
    }
}
