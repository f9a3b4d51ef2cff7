public import StradaCore

/// A web view for unit tests: records every script the bridge evaluates and lets tests choose the URL
/// and whether evaluation fails. No WebKit involved.
@MainActor
public final class InMemoryWebView: BridgeWebView {
    public var currentURL: String?
    /// Every script evaluated, in order.
    public private(set) var evaluatedScripts: [String] = []
    /// When set, evaluation completes with this error.
    public var evaluationError: (any Error)?

    public init(url: String? = nil) {
        currentURL = url
    }

    public func evaluate(javaScript: String, completion: @escaping @MainActor ((any Error)?) -> Void) {
        evaluatedScripts.append(javaScript)
        completion(evaluationError)
    }
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

/// Native controls that record what components show, and can press buttons.
@MainActor
public final class RecordingControls: NativeControls {
    public private(set) var buttons: [String: HeaderButton] = [:]
    private var handlers: [String: @MainActor () -> Void] = [:]
    public init() {}

    public func setButton(_ button: HeaderButton, onActivate: @escaping @MainActor () -> Void) {
        buttons[button.id] = button
        handlers[button.id] = onActivate
    }

    public func removeButton(id: String) {
        buttons[id] = nil
        handlers[id] = nil
    }

    /// Presses button `id`; `false` if there is none.
    @discardableResult
    public func press(_ id: String) -> Bool {
        guard let handler = handlers[id] else { return false }
        handler()
        return true
    }
}
