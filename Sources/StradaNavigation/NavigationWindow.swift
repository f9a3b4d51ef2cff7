package import StradaCore

/// What the navigator needs of a window: its web view's bridge and history, the content it shows, and the
/// calls into the page. The GTK engine's `BrowserWindow` implements it; unit tests use a double. The navigator
/// decides; the window only carries out and reports.
@MainActor
package protocol NavigationWindow: AnyObject {
    /// The web view's bridge: the top screen's components talk through it.
    var bridge: Bridge { get }
    /// The last URL the host itself asked to load (the start page, `navigate`, a cold load).
    var requestedURL: String? { get }
    /// The URL of the document committed last.
    var committedURL: String? { get }
    /// The history entry shown now.
    var currentHistoryEntry: (any HistoryEntry)? { get }
    /// Whether `entry` is still in the web view's history (a replace drops the entry it replaced).
    func historyContains(_ entry: any HistoryEntry) -> Bool
    /// Goes to `entry` in the history (Back to a given screen), or one step back when `nil`.
    func goBack(to entry: (any HistoryEntry)?)
    /// Controls for a new screen, hidden until the screen is shown.
    func makeScreenControls() -> any ScreenControlSet
    /// Shows the Back button when there is a screen to go back to.
    func setBackButtonVisible(_ visible: Bool)
    /// Shows the page, an error screen, or a native screen under the header bar, with its title.
    func show(_ content: ShownContent)
    /// The page shown has a new title (a web screen's; an error or native screen keeps its own).
    func showTitle(_ title: String)
    /// Releases the native screen shown under `key` (its screen is gone).
    func removeNativeScreen(key: String)
    /// Calls into the page's Turbo adapter (`SDK/web/turbo-adapter.js`).
    func perform(_ call: TurboCall)
    /// Loads `url` as a full page load.
    func load(url: String)
    /// Loads the document shown again.
    func reload()
    /// Opens `url` in the user's browser.
    func openInBrowser(_ url: String)
    /// Opens `url` with the system's handler for its scheme.
    func openWithSystem(_ url: String)
    /// The modal window presented over this one, if any (part of this window's picture).
    func setPresentedModal(_ modal: (any NavigationWindow)?)
    /// Closes the window (a dismissed modal).
    func destroy()
}

/// One entry of a web view's history, compared by identity.
@MainActor
package protocol HistoryEntry: AnyObject {
    /// Whether `other` is the same entry.
    func isSameEntry(as other: any HistoryEntry) -> Bool
}

/// Whether two optional history entries are the same entry (two `nil`s are not).
@MainActor
package func same(_ a: (any HistoryEntry)?, _ b: (any HistoryEntry)?) -> Bool {
    guard let a, let b else { return false }
    return a.isSameEntry(as: b)
}

/// A screen's native controls: shown while the screen is on top, kept while it is covered.
@MainActor
package protocol ScreenControlSet: NativeControls {
    var isShown: Bool { get }
    /// The screen is on top: its controls come back as they were.
    func show()
    /// The screen is covered or leaving: its controls leave the window (kept).
    func hide()
    /// The screen is gone: every control is removed.
    func removeAll()
}

/// A native screen a plugin built for a URL (the path configuration named its `view_controller`).
@MainActor
package protocol NativeScreenView: AnyObject {
    /// The screen's name (`view_controller`) and the plugin that provides it.
    var name: String { get }
    var pluginID: String { get }
    /// The widget the window shows (a `GtkWidget *` in the GTK engine).
    var widget: UnsafeMutableRawPointer { get }
    /// The screen is gone: the plugin is told (once).
    func destroy()
}

/// What fills the window under the header bar.
@MainActor
package enum ShownContent {
    /// The web view, titled with its screen's title (the page's, once known; never the previous page's).
    case web(title: String)
    case error(VisitError)
    /// A plugin's native screen, under `key` until ``NavigationWindow/removeNativeScreen(key:)``.
    case native(key: String, screen: any NativeScreenView, title: String)
}
