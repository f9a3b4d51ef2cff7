import StradaCore
import StradaEngineGTK
import StradaNavigation

@testable import StradaHost

/// An automation target that records each call as a line and answers as its properties say.
@MainActor
final class RecordingAutomationTarget: AutomationTarget {
    var calls: [String] = []
    var controlError: ControlActionError?
    var controls: [JSON] = []
    var screenshotError: String?
    var hasErrorScreen = false
    var depthAfterBack: Int?
    var hasModal = false
    var plugins: [String: Result<JSON, PluginCallError>] = [:]

    func act(_ action: ControlAction, control id: String) throws(ControlActionError) {
        calls.append("act \(action) \(id)")
        if let controlError { throw controlError }
    }

    func controlSnapshots() -> [JSON] { controls }

    func appChrome() -> JSONObject {
        calls.append("app")
        return ["developer": false]
    }

    func screenshot(to path: String, completion: @escaping @MainActor (String?) -> Void) {
        calls.append("screenshot \(path)")
        completion(screenshotError)
    }

    func refresh() { calls.append("refresh") }

    func retry() -> Bool {
        calls.append("retry")
        return hasErrorScreen
    }

    func back() -> Int? {
        calls.append("back")
        return depthAfterBack
    }

    func visit(_ url: String, action: VisitAction) { calls.append("visit \(url) \(action)") }

    func navigate(_ url: String) { calls.append("navigate \(url)") }

    func dismissModal() -> Bool {
        calls.append("dismissModal")
        return hasModal
    }

    func selectTab(_ index: Int) -> String? {
        calls.append("selectTab \(index)")
        return nil
    }

    func call(
        plugin pluginID: String, action: String, arguments: [JSON],
        completion: @escaping @MainActor (Result<JSON, PluginCallError>) -> Void
    ) {
        calls.append("call \(pluginID) \(action)")
        completion(plugins[pluginID] ?? .failure(.noSuchPlugin))
    }

    func quit(reason: String) { calls.append("quit \(reason)") }
}
