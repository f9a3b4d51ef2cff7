import CWebKitGTK
import StradaCore

/// The window's native controls, built from the GNOME platform's own widgets: buttons in the
/// `AdwHeaderBar`, menus in `GtkPopover`s, dialogs as `AdwMessageDialog`s, toasts in an `AdwToastOverlay`,
/// title and subtitle in an `AdwWindowTitle`, a `GtkSearchBar`, the clipboard and `AdwStyleManager`.
/// Automation acts on them through GTK exactly as input would (activate, response, set text).
///
/// This file holds the widgets and state and builds them; each concept is an extension in its own file:
/// `+Buttons`, `+Menus`, `+Alerts`, `+TitleAndToasts`, `+Search`, `+Desktop` (clipboard, colour scheme,
/// browser), `+PrimaryMenu` (the header bar's primary menu, the About and Keyboard Shortcuts windows),
/// `+PageRequests` (file choosers and printing), `+Automation` (the controls as automation sees them, and
/// acting on them) and `+Screenshot`.
@MainActor
package final class WindowControls {
    struct ButtonEntry {
        let widget: WidgetRef
        var button: HeaderButton
        var onActivate: @MainActor () -> Void
    }
    struct MenuEntry {
        let popover: WidgetRef
        let menu: ControlMenu
        /// What it hangs from: a header-bar button's id, `page` or `title` (``ControlSnapshot``).
        let pointsAt: String
        /// The menu's actions ("choose", an item's index) and the indices it has.
        let actions: GObjectRef<OpaquePointer>
        let indices: Set<Int>
        var onChoice: (@MainActor (Int?) -> Void)?
    }
    struct AlertEntry {
        let dialog: WidgetRef
        let alert: ControlAlert
        var onAnswer: (@MainActor (Bool) -> Void)?
    }
    struct SearchEntry {
        let search: ControlSearch
        var onChange: @MainActor (String) -> Void
    }
    struct PrimaryMenuEntry {
        let button: WidgetRef
        let group: GObjectRef<OpaquePointer>
        let menu: PrimaryMenu
    }

    /// The widgets, each owned (``GObjectRef``): the window (shared with its ``BrowserWindow``), the header bar,
    /// the box under it, the title, the toast overlay and the search bar with its entry.
    private let owned:
        (
            window: WidgetRef, headerBar: WidgetRef, content: WidgetRef, titleWidget: WidgetRef,
            toastOverlay: WidgetRef, searchBar: WidgetRef, searchEntry: WidgetRef
        )
    var window: UnsafeMutablePointer<GtkWidget> { owned.window.pointer }
    var headerBar: UnsafeMutablePointer<GtkWidget> { owned.headerBar.pointer }
    var content: UnsafeMutablePointer<GtkWidget> { owned.content.pointer }
    /// The header bar's title without tabs; with tabs it is out of the header bar (the switcher's title replaces
    /// it) and ``updateTitle()`` leaves it alone.
    var titleWidget: UnsafeMutablePointer<GtkWidget> { owned.titleWidget.pointer }
    var toastOverlay: UnsafeMutablePointer<GtkWidget> { owned.toastOverlay.pointer }
    var searchBar: UnsafeMutablePointer<GtkWidget> { owned.searchBar.pointer }
    var searchEntry: UnsafeMutablePointer<GtkWidget> { owned.searchEntry.pointer }
    /// The view switcher of an app with tabs (``installTabs(_:)``); its title widget replaces ``titleWidget``.
    var tabSwitcher: TabSwitcher?
    /// The web view, where a menu with an `anchor` points.
    private(set) weak var anchorView: (any AnchorView)?
    var buttons: [String: ButtonEntry] = [:]
    /// The header-bar button pressed last, and when (monotonic ns): a menu the page opens in answer to a press,
    /// with no place of its own to point at, points at it.
    var lastPressed: (id: String, at: UInt64)?
    var menus: [String: MenuEntry] = [:]
    var alerts: [String: AlertEntry] = [:]
    var search: SearchEntry?
    /// The header bar's primary menu (the main window's), and whether its popover is open.
    var primaryMenu: PrimaryMenuEntry?
    var primaryMenuOpen = false
    /// The About and Keyboard Shortcuts windows shown now, by control id, with their snapshots.
    var chromeWindows: [String: (window: WidgetRef, snapshot: ControlSnapshot)] = [:]
    /// The web view's context menu while it is shown.
    var contextMenu: ControlSnapshot?
    /// Whether WebKit's inspector is open (developer mode).
    var inspectorOpen = false
    /// Set while the search text is changed programmatically, so "search-changed" is not reported.
    var settingSearchText = false
    /// Whether `openInBrowser` launches the desktop's browser (off under automation: it is only reported).
    package var launchesBrowser = true
    /// Whether a page's file chooser and print request ask the user (the native chooser, GTK's print
    /// dialog); off under automation: they are controls the channel answers (`+PageRequests`).
    package var asksTheUser = true
    var fileChooser: FileChooserEntry?
    var printRequest: PrintEntry?
    /// The PDF file a print job is writing.
    var printingTo: String?
    /// Sees every control added, changed or removed, and every one-shot effect.
    package var observer: (@MainActor (ControlChange) -> Void)?
    /// The page's own title, shown when no component set one. Setting the title already shown changes nothing
    /// and announces nothing (`window.title` is a change, not a repeat).
    var pageTitle = "" { didSet { if pageTitle != oldValue { updateTitle() } } }
    var componentTitle: (title: String, subtitle: String?)?
    let defaultTitle: String

    /// Builds the header bar, search bar and toast overlay around `webView` inside `window`.
    init(window: UnsafeMutablePointer<GtkWidget>, webView: UnsafeMutablePointer<GtkWidget>, title: String) {
        adw_init()
        defaultTitle = title
        let headerBar = adw_header_bar_new()!
        let titleWidget = adw_window_title_new(title, nil)!
        adw_header_bar_set_title_widget(strada_adw_header_bar(headerBar), titleWidget)
        gtk_window_set_titlebar(strada_gtk_window(window), headerBar)

        let searchEntry = gtk_search_entry_new()!
        gtk_search_entry_set_search_delay(strada_gtk_search_entry(searchEntry), 0)
        gtk_widget_set_hexpand(searchEntry, 1)
        let searchBar = gtk_search_bar_new()!
        gtk_search_bar_set_child(strada_gtk_search_bar(searchBar), searchEntry)
        gtk_search_bar_connect_entry(strada_gtk_search_bar(searchBar), strada_gtk_editable(searchEntry))
        gtk_widget_set_visible(searchBar, 0)

        let toastOverlay = adw_toast_overlay_new()!
        adw_toast_overlay_set_child(strada_adw_toast_overlay(toastOverlay), webView)
        gtk_widget_set_vexpand(toastOverlay, 1)

        let content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_box_append(strada_gtk_box(content), searchBar)
        gtk_box_append(strada_gtk_box(content), toastOverlay)
        gtk_window_set_child(strada_gtk_window(window), content)
        owned = (
            WidgetRef(window), WidgetRef(headerBar), WidgetRef(content), WidgetRef(titleWidget),
            WidgetRef(toastOverlay), WidgetRef(searchBar), WidgetRef(searchEntry)
        )

        onSignal(UnsafeMutableRawPointer(searchEntry), "search-changed") { [weak self] in self?.searchChanged() }
    }

    func attachAnchorView(_ view: any AnchorView) { anchorView = view }
}
