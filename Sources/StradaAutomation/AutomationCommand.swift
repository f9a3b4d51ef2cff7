package import StradaCore

/// A command read from the automation channel, one JSON object per line, e.g.
/// `{"command":"activate","control":"form.submit"}`. Decoded in one place (``init(line:)``); the command
/// examples in docs/automation.md are checked against ``Name`` by a test.
package enum AutomationCommand: Sendable, Equatable {
    case activate(control: String)
    case choose(control: String, index: Int)
    case dismiss(control: String)
    case confirm(control: String)
    case type(control: String, text: String)
    /// Answers a file chooser (`page.file-chooser`) with the files at `paths`.
    case chooseFiles(control: String, paths: [String])
    /// Answers a print request (`page.print`): prints the page to a PDF file at `path`, without a dialog.
    case print(control: String, path: String)
    case call(plugin: String, action: String, arguments: [JSON])
    /// Lists the native controls of the screen shown.
    case listControls
    /// Describes the app's own chrome (read-only): the primary menu's items, the About window's contents, the
    /// keyboard shortcuts and developer mode.
    case app
    /// Loads `url` as a full page load at the root of a new screen stack — the address bar's "go".
    case navigate(url: String)
    /// Visits `url` in the app as a link would: `action` "advance" (push) or "replace".
    case visit(url: String, action: String)
    /// Native Back: pops the screen shown.
    case back
    /// Refreshes the screen shown (as Ctrl+R / F5 do); on an error screen, retries its visit.
    case reload
    /// Retries the failed visit of the error screen shown (its Retry button).
    case retry
    /// Dismisses the modal shown (as its Cancel button does).
    case dismissModal
    case screenshot(path: String)
    /// Shows tab `index` (from 0) of an app with tabs, as a click on the view switcher would.
    case selectTab(index: Int)
    case quit

    /// Every command name, as it appears on the wire.
    package enum Name: String, CaseIterable, Sendable {
        case activate, choose, dismiss, confirm, type, call, controls, navigate, visit, back, reload, retry, screenshot
        case quit, dismissModal = "dismiss-modal", app, selectTab = "select-tab", chooseFiles = "choose-files", print
    }

    package var name: Name {
        switch self {
        case .activate: .activate
        case .choose: .choose
        case .dismiss: .dismiss
        case .confirm: .confirm
        case .type: .type
        case .chooseFiles: .chooseFiles
        case .print: .print
        case .call: .call
        case .listControls: .controls
        case .app: .app
        case .navigate: .navigate
        case .visit: .visit
        case .back: .back
        case .reload: .reload
        case .retry: .retry
        case .dismissModal: .dismissModal
        case .screenshot: .screenshot
        case .selectTab: .selectTab
        case .quit: .quit
        }
    }

    /// Reads one command line; the error says what a well-formed command of that name looks like.
    package init(line: String) throws(MalformedMessage) {
        guard let value = try? JSON(parsing: line), let text = value["command"]?.stringValue else {
            throw MalformedMessage(reason: "a command is a JSON object with a string \"command\"")
        }
        guard let name = Name(rawValue: text) else {
            let known = Name.allCases.map(\.rawValue).joined(separator: ", ")
            throw MalformedMessage(reason: "unknown command \"\(text)\"; known: \(known)")
        }
        func string(_ key: String, _ usage: String) throws(MalformedMessage) -> String {
            guard let field = value[key]?.stringValue else { throw MalformedMessage(reason: "\(text) needs \(usage)") }
            return field
        }
        let control = "a string \"control\" (see the \"controls\" command)"
        switch name {
        case .activate: self = .activate(control: try string("control", control))
        case .dismiss: self = .dismiss(control: try string("control", control))
        case .confirm: self = .confirm(control: try string("control", control))
        case .choose:
            guard let control = value["control"]?.stringValue, case .number(let index)? = value["index"],
                index == index.rounded()
            else { throw MalformedMessage(reason: "choose needs a string \"control\" (a menu) and a number \"index\"") }
            self = .choose(control: control, index: Int(index))
        case .type:
            let usage = "a string \"control\" (a search) and a string \"text\""
            self = .type(control: try string("control", usage), text: try string("text", usage))
        case .call:
            let usage = "string \"plugin\" (its id) and \"action\", and optional \"args\""
            var arguments: [JSON] = []
            if case .array(let items)? = value["args"] { arguments = items }
            self = .call(plugin: try string("plugin", usage), action: try string("action", usage), arguments: arguments)
        case .chooseFiles:
            let usage = "choose-files needs a string \"control\" (a file-chooser) and \"paths\", absolute file paths"
            guard let control = value["control"]?.stringValue, case .array(let items)? = value["paths"] else {
                throw MalformedMessage(reason: usage)
            }
            let paths = items.compactMap(\.stringValue)
            guard paths.count == items.count else { throw MalformedMessage(reason: usage) }
            self = .chooseFiles(control: control, paths: paths)
        case .print:
            let usage = "a string \"control\" (a print request) and a string \"path\" (the .pdf file to write)"
            self = .print(control: try string("control", usage), path: try string("path", usage))
        case .controls: self = .listControls
        case .app: self = .app
        case .navigate: self = .navigate(url: try string("url", "a string \"url\""))
        case .visit:
            let action = value["action"]?.stringValue ?? "advance"
            guard action == "advance" || action == "replace" else {
                throw MalformedMessage(reason: "visit's \"action\" is \"advance\" (the default) or \"replace\"")
            }
            self = .visit(url: try string("url", "a string \"url\" and an optional \"action\""), action: action)
        case .back: self = .back
        case .reload: self = .reload
        case .retry: self = .retry
        case .dismissModal: self = .dismissModal
        case .screenshot: self = .screenshot(path: try string("path", "a string \"path\" (a .png file)"))
        case .selectTab:
            guard case .number(let index)? = value["index"], index == index.rounded(), index >= 0 else {
                throw MalformedMessage(reason: "select-tab needs a number \"index\" (the first tab is 0)")
            }
            self = .selectTab(index: Int(index))
        case .quit: self = .quit
        }
    }
}
