package import StradaCore
import StradaNavigation

/// The native controls of one screen. It keeps what the screen's components asked for — header-bar
/// buttons, the search bar, the window title, the colour scheme — and shows it in the window only while
/// the screen is on top. A hidden screen keeps its controls (Back brings them back exactly as they were);
/// its open menus and dialogs are closed silently; a control of a hidden screen can never be pressed,
/// because it is not in the window and its handlers check the screen is shown.
@MainActor
package final class ScreenControls: ScreenControlSet {
    private struct Button {
        var button: HeaderButton
        var onActivate: @MainActor () -> Void
    }

    private let window: WindowControls
    private var buttons: [(id: String, entry: Button)] = []
    private var search: (search: ControlSearch, onChange: @MainActor (String) -> Void)?
    private var title: (title: String?, subtitle: String?)?
    private var scheme: ColorScheme?
    private var transientIDs: Set<String> = []  // open menus and dialogs
    /// Whether the screen is the one shown: only then do its controls reach the window.
    package private(set) var isShown = false

    init(window: WindowControls) {
        self.window = window
    }

    /// The screen is now on top: its controls appear as they were.
    package func show() {
        guard !isShown else { return }
        isShown = true
        for (_, entry) in buttons { place(entry.button) }
        if let search { place(search.search) }
        if let title { window.setWindowTitle(title.title, subtitle: title.subtitle) }
        if let scheme { window.setColorScheme(scheme) }
    }

    /// The screen is covered or leaving: its controls leave the window, and are kept.
    package func hide() {
        guard isShown else { return }
        isShown = false
        for (id, _) in buttons { window.removeButton(id: id) }
        if let search { window.removeSearch(id: search.search.id) }
        closeTransients()
        if title != nil { window.setWindowTitle(nil, subtitle: nil) }
        if scheme != nil { window.setColorScheme(.system) }
    }

    /// The screen is gone: everything it showed goes, without telling its components.
    package func removeAll() {
        hide()
        buttons.removeAll()
        search = nil
        title = nil
        scheme = nil
    }

    private func closeTransients() {
        for id in transientIDs.sorted() {
            window.closeMenu(id: id, notify: false)
            window.closeAlert(id: id, answer: nil)
        }
        transientIDs.removeAll()
    }

    private func place(_ button: HeaderButton) {
        let id = button.id
        window.setButton(button) { [weak self] in
            guard let self, self.isShown, let entry = self.buttons.first(where: { $0.id == id }) else { return }
            entry.entry.onActivate()
        }
    }

    private func place(_ search: ControlSearch) {
        window.setSearch(search) { [weak self] text in
            guard let self, self.isShown, self.search?.search.id == search.id else { return }
            self.search?.onChange(text)
        }
    }

    // MARK: NativeControls

    package func setButton(_ button: HeaderButton, onActivate: @escaping @MainActor () -> Void) {
        if let index = buttons.firstIndex(where: { $0.id == button.id }) {
            buttons[index].entry = Button(button: button, onActivate: onActivate)
        } else {
            buttons.append((button.id, Button(button: button, onActivate: onActivate)))
        }
        if isShown { place(button) }
    }

    package func removeButton(id: String) {
        buttons.removeAll { $0.id == id }
        if isShown { window.removeButton(id: id) }
    }

    package func presentMenu(_ menu: ControlMenu, onChoice: @escaping @MainActor (Int?) -> Void) {
        guard isShown else { return onChoice(nil) }
        transientIDs.insert(menu.id)
        window.presentMenu(menu) { [weak self] choice in
            self?.transientIDs.remove(menu.id)
            onChoice(choice)
        }
    }

    package func presentAlert(_ alert: ControlAlert, onAnswer: @escaping @MainActor (Bool) -> Void) {
        guard isShown else { return onAnswer(false) }
        transientIDs.insert(alert.id)
        window.presentAlert(alert) { [weak self] answer in
            self?.transientIDs.remove(alert.id)
            onAnswer(answer)
        }
    }

    package func showToast(_ message: String) {
        if isShown { window.showToast(message) }
    }

    package func setWindowTitle(_ title: String?, subtitle: String?) {
        self.title = (title, subtitle)
        if isShown { window.setWindowTitle(title, subtitle: subtitle) }
    }

    package func setSearch(_ search: ControlSearch, onChange: @escaping @MainActor (String) -> Void) {
        self.search = (search, onChange)
        if isShown { place(search) }
    }

    package func removeSearch(id: String) {
        guard search?.search.id == id else { return }
        search = nil
        if isShown { window.removeSearch(id: id) }
    }

    package func copyToClipboard(_ text: String) {
        if isShown { window.copyToClipboard(text) }
    }

    package func setColorScheme(_ scheme: ColorScheme) {
        self.scheme = scheme
        if isShown { window.setColorScheme(scheme) }
    }

    package func openInBrowser(_ url: String) {
        if isShown { window.openInBrowser(url) }
    }

    package func dismissSilently(id: String) {
        guard transientIDs.remove(id) != nil else { return }
        window.closeMenu(id: id, notify: false)
        window.closeAlert(id: id, answer: nil)
    }

    package func removeAll(withPrefix prefix: String) {
        for (id, _) in buttons where id.hasPrefix(prefix) { removeButton(id: id) }
        if let id = search?.search.id, id.hasPrefix(prefix) { removeSearch(id: id) }
        for id in transientIDs.sorted() where id.hasPrefix(prefix) { dismissSilently(id: id) }
    }
}
