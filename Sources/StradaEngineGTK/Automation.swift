import Foundation
public import StradaCore

/// The automation channel: JSON lines out (bridge traffic, page events, native controls, command
/// results) and JSON-line commands in (activate a control, reload, navigate, quit). See README
/// "Automation channel" for the full vocabulary.
@MainActor
public final class AutomationChannel {
    /// A command read from the input.
    public enum Command: Sendable, Equatable {
        case activate(control: String)
        case choose(control: String, index: Int)
        case dismiss(control: String)
        case confirm(control: String)
        case type(control: String, text: String)
        case reload
        case navigate(url: String)
        case listControls
        case screenshot(path: String)
        case call(plugin: String, action: String, arguments: [JSON])
        case quit
    }

    private let write: @MainActor (String) -> Void
    private let eventPrefixes: [String]
    private var reader: LineReader?

    /// A channel writing each event line with `write`, for events whose name starts with one of
    /// `eventPrefixes` (`[""]`: all). Command results and `host.*` events are always written.
    public init(eventPrefixes: [String] = [""], write: @escaping @MainActor (String) -> Void) {
        self.eventPrefixes = eventPrefixes
        self.write = write
    }

    /// Reads commands from `fd` (stdin), one JSON object per line; `onEnd` runs at end of input.
    public func readCommands(fromFD fd: Int32, handler: @escaping @MainActor (Command) -> Void, onEnd: @escaping @MainActor () -> Void) {
        reader = LineReader(fd: fd, onLine: { [weak self] line in
            guard let self else { return }
            switch Self.parse(line) {
            case .success(let command): handler(command)
            case .failure(let error): self.emit("command.error", ["input": .string(line), "error": .string(error.description)])
            }
        }, onEnd: onEnd)
    }

    /// Parses one command line, e.g. `{"command":"activate","control":"form.submit"}`.
    public static func parse(_ line: String) -> Result<Command, MalformedMessage> {
        guard let value = try? JSON(parsing: line), let name = value["command"]?.stringValue else {
            return .failure(MalformedMessage(reason: "a command is a JSON object with a string \"command\""))
        }
        switch name {
        case "activate":
            guard let control = value["control"]?.stringValue else {
                return .failure(MalformedMessage(reason: "activate needs a string \"control\" (see the \"controls\" command)"))
            }
            return .success(.activate(control: control))
        case "choose":
            guard let control = value["control"]?.stringValue, case .number(let index)? = value["index"], index == index.rounded() else {
                return .failure(MalformedMessage(reason: "choose needs a string \"control\" (a menu) and a number \"index\""))
            }
            return .success(.choose(control: control, index: Int(index)))
        case "dismiss", "confirm":
            guard let control = value["control"]?.stringValue else {
                return .failure(MalformedMessage(reason: "\(name) needs a string \"control\" (see the \"controls\" command)"))
            }
            return .success(name == "dismiss" ? .dismiss(control: control) : .confirm(control: control))
        case "type":
            guard let control = value["control"]?.stringValue, let text = value["text"]?.stringValue else {
                return .failure(MalformedMessage(reason: "type needs a string \"control\" (a search) and a string \"text\""))
            }
            return .success(.type(control: control, text: text))
        case "reload": return .success(.reload)
        case "quit": return .success(.quit)
        case "controls": return .success(.listControls)
        case "navigate":
            guard let url = value["url"]?.stringValue else { return .failure(MalformedMessage(reason: "navigate needs a string \"url\"")) }
            return .success(.navigate(url: url))
        case "call":
            guard let plugin = value["plugin"]?.stringValue, let action = value["action"]?.stringValue else {
                return .failure(MalformedMessage(reason: "call needs string \"plugin\" (its id) and \"action\", and optional \"args\""))
            }
            var arguments: [JSON] = []
            if case .array(let items)? = value["args"] { arguments = items }
            return .success(.call(plugin: plugin, action: action, arguments: arguments))
        case "screenshot":
            guard let path = value["path"]?.stringValue else { return .failure(MalformedMessage(reason: "screenshot needs a string \"path\" (a .png file)")) }
            return .success(.screenshot(path: path))
        default:
            return .failure(MalformedMessage(reason: "unknown command \"\(name)\"; known: activate, choose, dismiss, confirm, type, call, controls, navigate, reload, screenshot, quit"))
        }
    }

    /// Writes one event line: `{"event": name, ...fields}`.
    public func emit(_ name: String, _ fields: JSONObject = [:]) {
        guard wants(name) else { return }
        var object = fields
        object["event"] = .string(name)
        write(JSON.object(object).serialized(sortedKeys: true))
    }

    /// Whether events named `name` are reported (checked before encoding anything on the message path).
    public func wants(_ name: String) -> Bool {
        name.hasPrefix("host.") || name.hasPrefix("command.") || name == "controls"
            || eventPrefixes.contains(where: { name.hasPrefix($0) || $0.hasPrefix(name) })
    }

    // MARK: Encoders for what the host reports

    public func report(_ traffic: BridgeTraffic) {
        guard wants("bridge.") else { return }
        switch traffic {
        case .ready: emit("bridge.ready")
        case .received(let message): emit("bridge.received", ["message": Self.json(message)])
        case .sent(let message): emit("bridge.sent", ["message": Self.json(message)])
        case .rejected(let raw, let reason): emit("bridge.rejected", ["raw": .string(raw), "reason": .string(reason)])
        case .dropped(let message, let reason): emit("bridge.dropped", ["message": Self.json(message), "reason": .string(reason)])
        case .registered(let names): emit("bridge.registered", ["components": .array(names.map(JSON.string))])
        case .unregistered(let name): emit("bridge.unregistered", ["component": .string(name)])
        }
    }

    public func report(_ change: ControlChange) {
        switch change {
        case .added(let control): emit("control.added", ["control": control.json])
        case .changed(let control): emit("control.changed", ["control": control.json])
        case .removed(let id): emit("control.removed", ["id": .string(id)])
        case .toast(let message): emit("toast", ["message": .string(message)])
        case .windowTitle(let title, let subtitle): emit("window.title", ["title": .string(title), "subtitle": subtitle.map(JSON.string) ?? .null])
        case .clipboard(let text): emit("clipboard", ["text": .string(text)])
        case .colorScheme(let scheme): emit("window.colorScheme", ["scheme": .string(scheme.rawValue)])
        case .openedInBrowser(let url): emit("browser.opened", ["url": .string(url)])
        }
    }

    public func report(_ event: PageEvent) {
        switch event {
        case .committed(let url, let bridged): emit("page.committed", ["url": .string(url), "bridged": .bool(bridged)])
        case .finished(let url, let title): emit("page.finished", ["url": .string(url), "title": .string(title)])
        case .titleChanged(let title): emit("page.title", ["title": .string(title)])
        case .closeRequestedByPage: emit("page.closed")
        case .windowClosed: emit("window.closed")
        case .webProcessTerminated(let reason): emit("page.crashed", ["reason": .string(reason)])
        }
    }

    public static func json(_ message: Message) -> JSON {
        message.wire() ?? .object(["id": .string(message.id), "component": .string(message.component), "event": .string(message.event), "jsonData": .string(message.jsonData)])
    }

}
