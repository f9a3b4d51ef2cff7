import StradaAutomation
import StradaCore
import StradaNavigation

/// Carrying out the automation commands: one call on the target each, answered with `command.ok` (with the
/// details a client needs) or `command.error` (saying what went wrong).
extension AutomationService {
    /// Carries out `command` on the target and answers it.
    func perform(_ command: AutomationCommand) {
        guard let target else { return }
        let name = command.name.rawValue
        switch command {
        case .activate(let id): act(.activate, on: id, name, target)
        case .choose(let id, let index): act(.choose(index: index), on: id, name, target)
        case .dismiss(let id): act(.dismiss, on: id, name, target)
        case .confirm(let id): act(.confirm, on: id, name, target)
        case .type(let id, let text): act(.type(text: text), on: id, name, target)
        case .chooseFiles(let id, let paths): act(.chooseFiles(paths: paths), on: id, name, target)
        case .print(let id, let path): act(.print(path: path), on: id, name, target)
        case .reload:
            target.refresh()
            channel?.emit(.commandOK(command: name))
        case .dismissModal:
            if target.dismissModal() {
                channel?.emit(.commandOK(command: name))
            } else {
                channel?.emit(.commandError(command: name, error: "no modal is presented"))
            }
        case .retry:
            if target.retry() {
                channel?.emit(.commandOK(command: name))
            } else {
                channel?.emit(.commandError(command: name, error: "no error screen is shown: nothing to retry"))
            }
        case .navigate(let url):
            target.navigate(url)
            channel?.emit(.commandOK(command: name, details: ["url": .string(url)]))
        case .visit(let url, let action):
            target.visit(url, action: VisitAction(turbo: action))
            channel?.emit(.commandOK(command: name, details: ["url": .string(url), "action": .string(action)]))
        case .back:
            if let depth = target.back() {
                channel?.emit(.commandOK(command: name, details: ["depth": .number(Double(depth))]))
            } else {
                channel?.emit(.commandError(command: name, error: "there is no screen to go back to"))
            }
        case .selectTab(let index):
            if let error = target.selectTab(index) {
                channel?.emit(.commandError(command: name, error: error))
            } else {
                channel?.emit(.commandOK(command: name, details: ["index": .number(Double(index))]))
            }
        case .listControls:
            channel?.emit(.controls(target.controlSnapshots()))
        case .app:
            channel?.emit(.commandOK(command: name, details: target.appChrome()))
        case .screenshot(let path):
            screenshot(to: path, target)
        case .call(let pluginID, let action, let arguments):
            call(pluginID, action, arguments, target)
        case .quit:
            target.quit(reason: "quit command")
        }
    }

    /// Saves the whole window to `path`, answering once it is written (or could not be).
    private func screenshot(to path: String, _ target: any AutomationTarget) {
        let details: JSONObject = ["path": .string(path)]
        target.screenshot(to: path) { [channel] error in
            if let error {
                let reason = "the window could not be rendered to \(path): \(error)"
                channel?.emit(.commandError(command: "screenshot", error: reason, details: details))
            } else {
                channel?.emit(.commandOK(command: "screenshot", details: details))
            }
        }
    }

    private func call(_ pluginID: String, _ action: String, _ arguments: [JSON], _ target: any AutomationTarget) {
        let details: JSONObject = ["plugin": .string(pluginID), "action": .string(action)]
        target.call(plugin: pluginID, action: action, arguments: arguments) { [channel] outcome in
            switch outcome {
            case .success(let result):
                var withResult = details
                withResult["result"] = result
                channel?.emit(.commandOK(command: "call", details: withResult))
            case .failure(.noSuchPlugin):
                channel?.emit(.commandError(command: "call", error: "no loaded plugin with id \(pluginID)"))
            case .failure(.failed(let reason)):
                channel?.emit(.commandError(command: "call", error: reason, details: details))
            }
        }
    }

    /// Runs one action on a control and answers with its outcome.
    private func act(_ action: ControlAction, on id: String, _ command: String, _ target: any AutomationTarget) {
        do {
            try target.act(action, control: id)
            channel?.emit(.commandOK(command: command, details: ["control": .string(id)]))
        } catch {
            channel?.emit(
                .commandError(command: command, error: error.description, details: ["control": .string(id)]))
        }
    }
}
