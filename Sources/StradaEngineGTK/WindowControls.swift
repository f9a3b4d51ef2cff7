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
        let widget: UnsafeMutablePointer<GtkWidget>
        var button: HeaderButton
        var onActivate: @MainActor () -> Void
    }
    struct MenuEntry {
        let popover: UnsafeMutablePointer<GtkWidget>
        let menu: ControlMenu
        /// The menu's actions ("choose", an item's index) and the indices it has.
        let actions: OpaquePointer
        let indices: Set<Int>
        var onChoice: (@MainActor (Int?) -> Void)?
    }
    struct AlertEntry {
        let dialog: UnsafeMutablePointer<GtkWidget>
        let alert: ControlAlert
        var onAnswer: (@MainActor (Bool) -> Void)?
    }
    struct SearchEntry {
        let search: ControlSearch
        var onChange: @MainActor (String) -> Void
    }
    struct PrimaryMenuEntry {
        let button: UnsafeMutablePointer<GtkWidget>
        let group: OpaquePointer
        let menu: PrimaryMenu
    }

    let window: UnsafeMutablePointer<GtkWidget>
    let headerBar: UnsafeMutablePointer<GtkWidget>
    let content: UnsafeMutablePointer<GtkWidget>
    let titleWidget: UnsafeMutablePointer<GtkWidget>
    let toastOverlay: UnsafeMutablePointer<GtkWidget>
    let searchBar: UnsafeMutablePointer<GtkWidget>
    let searchEntry: UnsafeMutablePointer<GtkWidget>
    /// The view switcher of an app with tabs (``installTabs(_:)``); its title widget replaces ``titleWidget``.
    var tabSwitcher: TabSwitcher?
    /// The web view, where a menu with an `anchor` points.
    private(set) weak var anchorView: (any AnchorView)?
    var buttons: [String: ButtonEntry] = [:]
    var menus: [String: MenuEntry] = [:]
    var alerts: [String: AlertEntry] = [:]
    var search: SearchEntry?
    /// The header bar's primary menu (the main window's), and whether its popover is open.
    var primaryMenu: PrimaryMenuEntry?
    var primaryMenuOpen = false
    /// The About and Keyboard Shortcuts windows shown now, by control id, with their snapshots.
    var chromeWindows: [String: (window: UnsafeMutablePointer<GtkWidget>, snapshot: ControlSnapshot)] = [:]
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
    /// The page's own title, shown when no component set one.
    var pageTitle = "" { didSet { updateTitle() } }
    var componentTitle: (title: String, subtitle: String?)?
    let defaultTitle: String

    /// Builds the header bar, search bar and toast overlay around `webView` inside `window`.
    init(window: UnsafeMutablePointer<GtkWidget>, webView: UnsafeMutablePointer<GtkWidget>, title: String) {
        adw_init()
        self.window = window
        defaultTitle = title
        headerBar = adw_header_bar_new()
        titleWidget = adw_window_title_new(title, nil)
        adw_header_bar_set_title_widget(strada_adw_header_bar(headerBar), titleWidget)
        gtk_window_set_titlebar(strada_gtk_window(window), headerBar)

        searchEntry = gtk_search_entry_new()
        gtk_search_entry_set_search_delay(strada_gtk_search_entry(searchEntry), 0)
        gtk_widget_set_hexpand(searchEntry, 1)
        searchBar = gtk_search_bar_new()
        gtk_search_bar_set_child(strada_gtk_search_bar(searchBar), searchEntry)
        gtk_search_bar_connect_entry(strada_gtk_search_bar(searchBar), strada_gtk_editable(searchEntry))
        gtk_widget_set_visible(searchBar, 0)

        toastOverlay = adw_toast_overlay_new()
        adw_toast_overlay_set_child(strada_adw_toast_overlay(toastOverlay), webView)
        gtk_widget_set_vexpand(toastOverlay, 1)

        content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        gtk_box_append(strada_gtk_box(content), searchBar)
        gtk_box_append(strada_gtk_box(content), toastOverlay)
        gtk_window_set_child(strada_gtk_window(window), content)

        onSignal(UnsafeMutableRawPointer(searchEntry), "search-changed") { [weak self] in self?.searchChanged() }
    }

    func attachAnchorView(_ view: any AnchorView) { anchorView = view }
}
