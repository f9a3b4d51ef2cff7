import CWebKitGTK
import StradaCore

/// The widget menus with an anchor point into (the web view).
@MainActor
protocol AnchorView: AnyObject {
    var widget: UnsafeMutablePointer<GtkWidget> { get }
}

/// One page's view of the window's controls: remembers what the page created so all of it goes when the
/// page goes — silently: a control never answers a page that is gone.
@MainActor
final class PageControls: NativeControls {
    private let window: WindowControls
    private var buttonIDs: Set<String> = []
    private var menuIDs: Set<String> = []
    private var alertIDs: Set<String> = []
    private var searchIDs: Set<String> = []
    private var setTitle = false
    private var setScheme = false

    init(window: WindowControls) {
        self.window = window
    }

    func setButton(_ button: HeaderButton, onActivate: @escaping @MainActor () -> Void) {
        buttonIDs.insert(button.id)
        window.setButton(button, onActivate: onActivate)
    }

    func removeButton(id: String) {
        buttonIDs.remove(id)
        window.removeButton(id: id)
    }

    func presentMenu(_ menu: ControlMenu, onChoice: @escaping @MainActor (Int?) -> Void) {
        menuIDs.insert(menu.id)
        window.presentMenu(menu, onChoice: onChoice)
    }

    func presentAlert(_ alert: ControlAlert, onAnswer: @escaping @MainActor (Bool) -> Void) {
        alertIDs.insert(alert.id)
        window.presentAlert(alert, onAnswer: onAnswer)
    }

    func showToast(_ message: String) { window.showToast(message) }

    func setWindowTitle(_ title: String?, subtitle: String?) {
        setTitle = true
        window.setWindowTitle(title, subtitle: subtitle)
    }

    func setSearch(_ search: ControlSearch, onChange: @escaping @MainActor (String) -> Void) {
        searchIDs.insert(search.id)
        window.setSearch(search, onChange: onChange)
    }

    func removeSearch(id: String) {
        searchIDs.remove(id)
        window.removeSearch(id: id)
    }

    func copyToClipboard(_ text: String) { window.copyToClipboard(text) }

    func setColorScheme(_ scheme: ColorScheme) {
        setScheme = true
        window.setColorScheme(scheme)
    }

    func openInBrowser(_ url: String) { window.openInBrowser(url) }

    func dismissSilently(id: String) {
        menuIDs.remove(id)
        alertIDs.remove(id)
        window.closeMenu(id: id, notify: false)
        window.closeAlert(id: id, answer: nil)
    }

    func removeAll(withPrefix prefix: String) {
        for id in buttonIDs.sorted() where id.hasPrefix(prefix) { removeButton(id: id) }
        for id in menuIDs.union(alertIDs).sorted() where id.hasPrefix(prefix) { dismissSilently(id: id) }
        for id in searchIDs.sorted() where id.hasPrefix(prefix) { removeSearch(id: id) }
    }

    /// The page is gone: remove everything it showed without telling its components.
    func removeAll() {
        for id in buttonIDs.sorted() { window.removeButton(id: id) }
        for id in menuIDs.sorted() { window.closeMenu(id: id, notify: false) }
        for id in alertIDs.sorted() { window.closeAlert(id: id, answer: nil) }
        for id in searchIDs.sorted() { window.removeSearch(id: id) }
        if setTitle { window.setWindowTitle(nil, subtitle: nil) }
        if setScheme { window.setColorScheme(.system) }
        buttonIDs.removeAll(); menuIDs.removeAll(); alertIDs.removeAll(); searchIDs.removeAll()
        setTitle = false
        setScheme = false
    }
}
