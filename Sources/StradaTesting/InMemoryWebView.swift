public import StradaCore

/// A web view for unit tests: records every script the bridge evaluates and lets tests choose the URL
/// and whether evaluation fails. No WebKit involved.
@MainActor
public final class InMemoryWebView: BridgeWebView {
    public var currentURL: String?
    /// Every script evaluated, in order; a ``deliverReplies(_:completion:)`` call is shown as the script
    /// it stands for (built when read, so recording replies costs what an engine's call would).
    public var evaluatedScripts: [String] {
        calls.map {
            switch $0 {
            case .script(let script): script
            case .replies(let replies): Self.replyScript(replies)
            }
        }
    }
    private enum Call { case script(String), replies([String]) }
    private var calls: [Call] = []
    /// When set, evaluation completes with this error.
    public var evaluationError: (any Error)?

    public init(url: String? = nil) {
        currentURL = url
    }

    public func evaluate(javaScript: String, completion: @escaping @MainActor ((any Error)?) -> Void) {
        calls.append(.script(javaScript))
        completion(evaluationError)
    }

    public func deliverReplies(_ replies: [String], completion: @escaping @MainActor ((any Error)?) -> Void) {
        calls.append(.replies(replies))
        completion(evaluationError)
    }

    /// Forgets the scripts recorded so far.
    public func clear() { calls.removeAll() }
}

/// A destination for unit tests, with optional recorded native controls.
@MainActor
public final class TestDestination: BridgeDestination {
    public let recordedControls = RecordingControls()
    public init() {}
    public func nativeControls(for componentName: String) -> ComponentControls? {
        ComponentControls(base: recordedControls, idPrefix: componentName + ".")
    }
}

/// Native controls that record what components show, and can answer them like a user.
@MainActor
public final class RecordingControls: NativeControls {
    public private(set) var buttons: [String: HeaderButton] = [:]
    public private(set) var menus: [String: ControlMenu] = [:]
    public private(set) var alerts: [String: ControlAlert] = [:]
    public private(set) var searches: [String: ControlSearch] = [:]
    public private(set) var toasts: [String] = []
    public private(set) var windowTitle: (title: String?, subtitle: String?)?
    public private(set) var clipboard: String?
    public private(set) var colorScheme: ColorScheme?
    public private(set) var openedURLs: [String] = []
    private var buttonHandlers: [String: @MainActor () -> Void] = [:]
    private var menuHandlers: [String: @MainActor (Int?) -> Void] = [:]
    private var alertHandlers: [String: @MainActor (Bool) -> Void] = [:]
    private var searchHandlers: [String: @MainActor (String) -> Void] = [:]
    public init() {}

    public func setButton(_ button: HeaderButton, onActivate: @escaping @MainActor () -> Void) {
        buttons[button.id] = button
        buttonHandlers[button.id] = onActivate
    }

    public func removeButton(id: String) {
        buttons[id] = nil
        buttonHandlers[id] = nil
    }

    public func presentMenu(_ menu: ControlMenu, onChoice: @escaping @MainActor (Int?) -> Void) {
        menus[menu.id] = menu
        menuHandlers[menu.id] = onChoice
    }

    public func presentAlert(_ alert: ControlAlert, onAnswer: @escaping @MainActor (Bool) -> Void) {
        alerts[alert.id] = alert
        alertHandlers[alert.id] = onAnswer
    }

    public func showToast(_ message: String) { toasts.append(message) }
    public func setWindowTitle(_ title: String?, subtitle: String?) { windowTitle = (title, subtitle) }

    public func setSearch(_ search: ControlSearch, onChange: @escaping @MainActor (String) -> Void) {
        searches[search.id] = search
        searchHandlers[search.id] = onChange
    }

    public func removeSearch(id: String) {
        searches[id] = nil
        searchHandlers[id] = nil
    }

    public func copyToClipboard(_ text: String) { clipboard = text }
    public func setColorScheme(_ scheme: ColorScheme) { colorScheme = scheme }
    public func openInBrowser(_ url: String) { openedURLs.append(url) }

    public func removeAll(withPrefix prefix: String) {
        for id in buttons.keys where id.hasPrefix(prefix) { removeButton(id: id) }
        for id in searches.keys where id.hasPrefix(prefix) { removeSearch(id: id) }
        for id in Set(menus.keys).union(alerts.keys) where id.hasPrefix(prefix) { dismissSilently(id: id) }
    }

    public func dismissSilently(id: String) {
        menus[id] = nil
        menuHandlers[id] = nil
        alerts[id] = nil
        alertHandlers[id] = nil
    }

    /// Presses button `id`; `false` if there is none.
    @discardableResult
    public func press(_ id: String) -> Bool {
        guard let handler = buttonHandlers[id] else { return false }
        handler()
        return true
    }

    /// Chooses `index` in menu `id` (`nil`: dismisses it); `false` if there is no such menu.
    @discardableResult
    public func choose(_ index: Int?, inMenu id: String) -> Bool {
        guard let handler = menuHandlers.removeValue(forKey: id) else { return false }
        menus[id] = nil
        handler(index)
        return true
    }

    /// Answers alert `id`; `false` if there is no such alert.
    @discardableResult
    public func answer(_ confirmed: Bool, alert id: String) -> Bool {
        guard let handler = alertHandlers.removeValue(forKey: id) else { return false }
        alerts[id] = nil
        handler(confirmed)
        return true
    }

    /// Types `text` into search `id`; `false` if there is no such search.
    @discardableResult
    public func type(_ text: String, inSearch id: String) -> Bool {
        guard let handler = searchHandlers[id] else { return false }
        handler(text)
        return true
    }
}
