import StradaCore
import StradaNavigation
import StradaTesting

/// A history entry of the double: an object, compared by identity, as WebKit's are.
@MainActor
final class FakeEntry: HistoryEntry {
    var url: String
    /// Turbo's restoration identifier of the entry (`nil`: a document without Turbo).
    var restorationIdentifier: String?
    /// The document the entry belongs to (a pushState keeps it, a full load makes a new one).
    let document: Int
    init(url: String, restorationIdentifier: String?, document: Int) {
        self.url = url
        self.restorationIdentifier = restorationIdentifier
        self.document = document
    }
    func isSameEntry(as other: any HistoryEntry) -> Bool { other === self }
}

/// A screen's controls in the double: what its components asked for, and whether they are in the window.
@MainActor
final class FakeControls: ScreenControlSet {
    let recorded = RecordingControls()
    private(set) var isShown = false
    private(set) var removed = false
    func show() { isShown = true }
    func hide() { isShown = false }
    func removeAll() {
        removed = true
        for id in Array(recorded.buttons.keys) { recorded.removeButton(id: id) }
    }
    func setButton(_ button: HeaderButton, onActivate: @escaping @MainActor () -> Void) {
        recorded.setButton(button, onActivate: onActivate)
    }
    func removeButton(id: String) { recorded.removeButton(id: id) }
    func presentMenu(_ menu: ControlMenu, onChoice: @escaping @MainActor (Int?) -> Void) {
        recorded.presentMenu(menu, onChoice: onChoice)
    }
    func presentAlert(_ alert: ControlAlert, onAnswer: @escaping @MainActor (Bool) -> Void) {
        recorded.presentAlert(alert, onAnswer: onAnswer)
    }
    func showToast(_ message: String) { recorded.showToast(message) }
    func setWindowTitle(_ title: String?, subtitle: String?) { recorded.setWindowTitle(title, subtitle: subtitle) }
    func setSearch(_ search: ControlSearch, onChange: @escaping @MainActor (String) -> Void) {
        recorded.setSearch(search, onChange: onChange)
    }
    func removeSearch(id: String) { recorded.removeSearch(id: id) }
    func copyToClipboard(_ text: String) { recorded.copyToClipboard(text) }
    func setColorScheme(_ scheme: ColorScheme) { recorded.setColorScheme(scheme) }
    func openInBrowser(_ url: String) { recorded.openInBrowser(url) }
    func removeAll(withPrefix prefix: String) { recorded.removeAll(withPrefix: prefix) }
    func dismissSilently(id: String) { recorded.dismissSilently(id: id) }
}

/// The navigator's window in unit tests: a back/forward list, the content shown, and every call recorded.
/// It does nothing on its own; ``FakePage`` plays the page's part.
@MainActor
final class FakeWindow: NavigationWindow {
    enum Call: Equatable {
        case turbo(TurboCall)
        case load(String)
        case reload
        case goBack(String?)
        case browser(String)
        case system(String)
    }

    let webView = InMemoryWebView()
    let bridge: Bridge
    private(set) var entries: [FakeEntry] = []
    private(set) var index = -1
    private(set) var calls: [Call] = []
    private(set) var shown = "web"
    private(set) var backButtonVisible = false
    private(set) var controls: [FakeControls] = []
    private(set) var destroyed = false
    private(set) weak var presentedModal: FakeWindow?
    var requestedURL: String?
    var committedURL: String?
    /// Sees each call as it is made (the page plays its part).
    var onCall: (@MainActor (Call) -> Void)?

    init() { bridge = Bridge(webView: webView) }

    var current: FakeEntry? { entries.indices.contains(index) ? entries[index] : nil }
    var currentHistoryEntry: (any HistoryEntry)? { current }

    func historyContains(_ entry: any HistoryEntry) -> Bool { entries.contains { $0 === entry } }

    /// A new entry after the current one (a full load, or Turbo's pushState): the forward list goes.
    func pushEntry(url: String, restorationIdentifier: String?, document: Int) {
        entries.removeSubrange((index + 1)...)
        entries.append(FakeEntry(url: url, restorationIdentifier: restorationIdentifier, document: document))
        index = entries.count - 1
        webView.currentURL = url
    }

    /// The current entry takes a new URL (replaceState); `fresh`: a new entry in its place (a full load
    /// that replaces, `location.replace`).
    func replaceEntry(url: String, restorationIdentifier: String?, document: Int? = nil) {
        if let document {
            if index >= 0 { entries.remove(at: index) } else { index = 0 }
            entries.insert(
                FakeEntry(url: url, restorationIdentifier: restorationIdentifier, document: document), at: index)
        } else {
            current?.url = url
            if let restorationIdentifier { current?.restorationIdentifier = restorationIdentifier }
        }
        webView.currentURL = url
    }

    /// Moves to `entry` (a history traversal); `false` if it is not in the list.
    @discardableResult
    func traverse(to entry: FakeEntry) -> Bool {
        guard let position = entries.firstIndex(where: { $0 === entry }) else { return false }
        index = position
        webView.currentURL = entry.url
        return true
    }

    /// Moves `steps` entries (negative: back).
    func traverse(by steps: Int) -> FakeEntry? {
        let target = index + steps
        guard entries.indices.contains(target) else { return nil }
        traverse(to: entries[target])
        return entries[target]
    }

    /// The entry the last `goBack` went to.
    private(set) var goBackTarget: FakeEntry?
    func goBack(to entry: (any HistoryEntry)?) {
        goBackTarget = entry as? FakeEntry
        record(.goBack((entry as? FakeEntry)?.url))
    }
    func makeScreenControls() -> any ScreenControlSet {
        let made = FakeControls()
        controls.append(made)
        return made
    }
    func setBackButtonVisible(_ visible: Bool) { backButtonVisible = visible }
    /// Every title the window showed, in order.
    private(set) var titles: [String] = []
    func showTitle(_ title: String) { titles.append(title) }
    func show(_ content: ShownContent) {
        switch content {
        case .web(let title):
            shown = "web"
            titles.append(title)
        case .error(let error): shown = "error \(error.statusCode)"
        case .native(_, let screen, _): shown = "native \(screen.name)"
        }
    }
    func removeNativeScreen(key: String) {}
    func perform(_ call: TurboCall) { record(.turbo(call)) }
    func load(url: String) {
        requestedURL = url
        record(.load(url))
    }
    func reload() { record(.reload) }
    func openInBrowser(_ url: String) { record(.browser(url)) }
    func openWithSystem(_ url: String) { record(.system(url)) }
    func setPresentedModal(_ modal: (any NavigationWindow)?) { presentedModal = modal as? FakeWindow }
    func destroy() { destroyed = true }

    private func record(_ call: Call) {
        calls.append(call)
        onCall?(call)
    }

    /// The ids of the native controls in the window now: those of the screen whose controls are shown.
    var shownControls: [String] {
        controls.filter(\.isShown).flatMap { $0.recorded.buttons.keys }.sorted()
    }
}
