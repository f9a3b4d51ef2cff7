import StradaCore
import StradaEngineGTK
import StradaNavigation

/// What the automation commands act on, as a user would: the window and screen stack the user acts in (the
/// modal when one is presented), the main stack, the plugins loaded, and the session. The host session is
/// the target; ``AutomationService`` turns each command into one call here and its outcome into the reply.
@MainActor
protocol AutomationTarget: AnyObject {
    /// Acts on control `id` of the window the user acts in.
    func act(_ action: ControlAction, control id: String) throws(ControlActionError)
    /// The controls of the window the user acts in, as the `controls` event lists them.
    func controlSnapshots() -> [JSON]
    /// The app's own chrome, as the `app` command answers: `menu` (the primary menu's items), `about`,
    /// `shortcuts` (groups) and `developer`.
    func appChrome() -> JSONObject
    /// Saves the whole main window (with the modal over it) to `path` once every part of it is drawn;
    /// `completion` gets why it could not (`nil`: saved).
    func screenshot(to path: String, completion: @escaping @MainActor (_ error: String?) -> Void)
    /// Refreshes the screen the user sees (as Ctrl+R).
    func refresh()
    /// Retries the visit of the error screen shown; `false` when no error screen is shown.
    func retry() -> Bool
    /// Native Back on the stack the user acts in: the depth of that stack after it, `nil` when there is no
    /// screen to go back to.
    func back() -> Int?
    /// Visits `url` in the stack the user acts in, as a link would.
    func visit(_ url: String, action: VisitAction)
    /// Loads `url` as a new main stack (the address bar's "go").
    func navigate(_ url: String)
    /// Dismisses the modal; `false` when none is presented.
    func dismissModal() -> Bool
    /// Shows tab `index` of an app with tabs; why it cannot (no tabs, no such tab, a modal presented), or `nil`.
    func selectTab(_ index: Int) -> String?
    /// Calls `action` of the loaded plugin `pluginID`; `completion` gets the result (at once for a plugin in the
    /// host's process, once its worker answers under `--isolate`).
    func call(
        plugin pluginID: String, action: String, arguments: [JSON],
        completion: @escaping @MainActor (Result<JSON, PluginCallError>) -> Void)
    /// Ends the session.
    func quit(reason: String)
}

/// What a user does to a control, as the automation commands name it.
enum ControlAction: Equatable {
    /// Presses a button.
    case activate
    /// Chooses the item at `index` of a menu.
    case choose(index: Int)
    /// Dismisses a menu or dialog (as Escape).
    case dismiss
    /// Confirms a dialog.
    case confirm
    /// Types `text` into a search field (replacing its text).
    case type(text: String)
    /// Answers a file chooser with files.
    case chooseFiles(paths: [String])
    /// Answers a print request: prints to a PDF file.
    case print(path: String)
}

/// Why a `call` command failed.
enum PluginCallError: Error, Equatable {
    /// No plugin with that id is loaded in the host.
    case noSuchPlugin
    /// The plugin refused the call; `reason` says why.
    case failed(reason: String)
}

extension WindowControls {
    /// Carries out `action` on control `id`.
    func perform(_ action: ControlAction, control id: String) throws(ControlActionError) {
        switch action {
        case .activate: try activate(id: id)
        case .choose(let index): try choose(id: id, index: index)
        case .dismiss: try dismiss(id: id)
        case .confirm: try confirm(id: id)
        case .type(let text): try type(id: id, text: text)
        case .chooseFiles(let paths): try chooseFiles(id: id, paths: paths)
        case .print(let path): try print(id: id, toPDF: path)
        }
    }
}
