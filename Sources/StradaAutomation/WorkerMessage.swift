package import StradaCore

#if canImport(Glibc)
import Glibc
#endif

/// The JSON lines between the host and a plugin's worker process under `--isolate`: one case per
/// operation, encoded (``line``) and decoded (``init(line:)``) here only. Message and data payloads
/// travel as the JSON text the page wrote, spliced in without re-serialising. The host and the worker send
/// `receive` and `reply` as payload frames instead (``WorkerFrame``: the text as raw bytes after a short
/// header); both still read the line forms.
package enum WorkerMessage: Sendable, Equatable {
    /// The version of what the host and a worker say to each other (these lines, ``WorkerFrame``, the order of
    /// things): bump it with any change to them, so a `strada-host` and a `strada-plugin-worker` from different
    /// builds (`swift build --product strada-host` alone leaves the helper as it was) refuse each other with one
    /// line. 2: payload frames (1: JSON lines only, whose hello did not say).
    package static let protocolVersion = 2

    // MARK: Host → worker
    case ping
    case create(instance: Int, component: String)
    case destroy(instance: Int)
    /// A message for the instance, as wire JSON text.
    case receive(instance: Int, messageJSON: String)
    case lifecycle(instance: Int, event: Int)
    case activated(instance: Int, control: String)
    case controlEvent(instance: Int, control: String, eventJSON: String)
    /// Calls the manifest action `action`; `call` numbers it, and its `callResult` carries the number back.
    case call(call: Int, action: String, arguments: [JSON])

    // MARK: Worker → host
    /// The plugin loaded. `workerProtocol` is the worker's ``protocolVersion`` (0 from a worker built before the
    /// hello carried it): a host refuses a worker from another build rather than misread it.
    case hello(
        id: String, version: String, abi: String, components: [String], workerProtocol: Int = protocolVersion)
    /// The plugin did not load: the one-line error, and its reason and remedy apart.
    case error(message: String, reason: String, remedy: String)
    case pong
    case reply(instance: Int, messageJSON: String)
    case replyToEvent(instance: Int, event: String, dataJSON: String)
    case setButton(instance: Int, button: JSON)
    case removeButton(instance: Int, id: String)
    case show(instance: Int, id: String, specJSON: String)
    case remove(instance: Int, id: String)
    /// What a ``call(call:action:arguments:)`` returned, or why it failed.
    case callResult(call: Int, result: JSON?, error: String?)

    /// Every operation name, as it appears on the wire.
    package enum Op: String, CaseIterable, Sendable {
        case ping, create, destroy, receive, lifecycle, activated, controlEvent, call
        case hello, error, pong, reply, replyToEvent, setButton, removeButton, show, remove, callResult
    }

    /// Limits for reading a line: messages may be large, and nest as deep as the bridge allows.
    package static let limits = JSONLimits(maxDepth: 1024, maxBytes: 64 << 20)

    /// The line to write (no trailing newline).
    package var line: String {
        func object(_ op: Op, _ instance: Int?, _ fields: JSONObject = [:], raw: (String, String)? = nil) -> String {
            var members = fields
            members["op"] = .string(op.rawValue)
            if let instance { members["instance"] = .number(Double(instance)) }
            let text = JSON.object(members).serialized()
            guard let (key, json) = raw else { return text }
            // Splice the payload in as written: `{...,"key":<json>}`. A raw newline in JSON text can only be
            // white space between tokens (strings escape theirs); it would end the line, so it becomes a space.
            let payload = Self.withoutNewlines(json)
            return String(text.dropLast()) + "," + JSON.string(key).serialized() + ":" + payload + "}"
        }
        switch self {
        case .ping: return object(.ping, nil)
        case .pong: return object(.pong, nil)
        case .create(let instance, let component): return object(.create, instance, ["component": .string(component)])
        case .destroy(let instance): return object(.destroy, instance)
        case .receive(let instance, let message):
            return #"{"op":"receive","instance":"# + String(instance) + #","message":"# + Self.withoutNewlines(message)
                + "}"
        case .lifecycle(let instance, let event): return object(.lifecycle, instance, ["event": .number(Double(event))])
        case .activated(let instance, let control): return object(.activated, instance, ["control": .string(control)])
        case .controlEvent(let instance, let control, let event):
            return object(.controlEvent, instance, ["control": .string(control)], raw: ("event", event))
        case .hello(let id, let version, let abi, let components, let workerProtocol):
            return object(
                .hello, nil,
                [
                    "id": .string(id), "version": .string(version), "abi": .string(abi),
                    "components": .array(components.map(JSON.string)), "protocol": .number(Double(workerProtocol)),
                ])
        case .error(let message, let reason, let remedy):
            return object(
                .error, nil, ["message": .string(message), "reason": .string(reason), "remedy": .string(remedy)])
        case .reply(let instance, let message):
            return #"{"op":"reply","instance":"# + String(instance) + #","message":"# + Self.withoutNewlines(message)
                + "}"
        case .replyToEvent(let instance, let event, let data):
            return object(.replyToEvent, instance, ["event": .string(event), "data": .string(data)])
        case .setButton(let instance, let button): return object(.setButton, instance, ["button": button])
        case .removeButton(let instance, let id): return object(.removeButton, instance, ["id": .string(id)])
        case .show(let instance, let id, let spec):
            return object(.show, instance, ["id": .string(id)], raw: ("spec", spec))
        case .remove(let instance, let id): return object(.remove, instance, ["id": .string(id)])
        case .call(let call, let action, let arguments):
            return object(
                .call, nil, ["call": .number(Double(call)), "action": .string(action), "arguments": .array(arguments)])
        case .callResult(let call, let result, let error):
            var fields: JSONObject = ["call": .number(Double(call))]
            if let result { fields["result"] = result }
            if let error { fields["error"] = .string(error) }
            return object(.callResult, nil, fields)
        }
    }

    /// JSON text with each raw newline (only ever white space between tokens: strings escape theirs) made a
    /// space, so it stays on its line. Searched with memchr: a 10 MiB message is looked at in microseconds.
    static func withoutNewlines(_ json: String) -> String {
        var text = json
        let found = text.withUTF8 { bytes in bytes.baseAddress.map { memchr($0, 0x0A, bytes.count) != nil } ?? false }
        guard found else { return json }
        return String(decoding: json.utf8.map { $0 == 0x0A ? 0x20 : $0 }, as: UTF8.self)
    }

    /// A `receive` or `reply` line as written by ``line``, its payload cut out without parsing it: the worker
    /// hands the page's text to the plugin as it is, and the host parses a reply once, as a bridge message (the
    /// payload is then checked in full), so a 10 MiB message is not parsed and written again on the way.
    /// `nil` for any other line.
    package static func payload(ofLine line: String) -> (op: Op, instance: Int, json: Substring)? {
        let utf8 = Substring(line).utf8
        guard utf8.last == UInt8(ascii: "}") else { return nil }
        for op in [Op.receive, .reply] {
            let prefix = #"{"op":""# + op.rawValue + #"","instance":"#
            guard utf8.starts(with: prefix.utf8) else { continue }
            let rest = utf8.dropFirst(prefix.utf8.count).dropLast()
            let digits = rest.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            let separator = #","message":"#.utf8
            guard !digits.isEmpty, digits.count < 10, let instance = Int(String(Substring(digits))),
                rest.dropFirst(digits.count).starts(with: separator)
            else { return nil }
            return (op, instance, Substring(rest.dropFirst(digits.count + separator.count)))
        }
        return nil
    }

    /// A `receive` line as the host writes it, read without parsing its message (see ``payload(ofLine:)``):
    /// the host parsed the message before sending it. `nil` for any other line.
    package static func receive(line: String) -> WorkerMessage? {
        guard let (op, instance, json) = payload(ofLine: line), op == .receive else { return nil }
        return .receive(instance: instance, messageJSON: String(json))
    }

    /// Reads one line; `nil` when it is not a well-formed worker message.
    package init?(line: String) {
        guard let value = try? JSON(parsing: line, limits: Self.limits),
            let op = value["op"]?.stringValue.flatMap(Op.init(rawValue:))
        else { return nil }
        var instance = -1
        if case .number(let number)? = value["instance"] { instance = Int(number) }
        func string(_ key: String) -> String? { value[key]?.stringValue }
        switch op {
        case .ping: self = .ping
        case .pong: self = .pong
        case .create:
            guard let component = string("component") else { return nil }
            self = .create(instance: instance, component: component)
        case .destroy: self = .destroy(instance: instance)
        case .receive:
            guard let message = value["message"] else { return nil }
            self = .receive(instance: instance, messageJSON: message.serialized())
        case .lifecycle:
            guard case .number(let event)? = value["event"] else { return nil }
            self = .lifecycle(instance: instance, event: Int(event))
        case .activated:
            guard let control = string("control") else { return nil }
            self = .activated(instance: instance, control: control)
        case .controlEvent:
            guard let control = string("control"), let event = value["event"] else { return nil }
            self = .controlEvent(instance: instance, control: control, eventJSON: event.serialized())
        case .hello:
            var components: [String] = []
            if case .array(let names)? = value["components"] { components = names.compactMap(\.stringValue) }
            var workerProtocol = 0
            if case .number(let number)? = value["protocol"], let exact = Int(exactly: number) {
                workerProtocol = exact
            }
            self = .hello(
                id: string("id") ?? "?", version: string("version") ?? "?", abi: string("abi") ?? "?",
                components: components, workerProtocol: workerProtocol)
        case .error:
            self = .error(
                message: string("message") ?? "", reason: string("reason") ?? "", remedy: string("remedy") ?? "")
        case .reply:
            guard let message = value["message"] else { return nil }
            self = .reply(instance: instance, messageJSON: message.serialized())
        case .replyToEvent:
            self = .replyToEvent(instance: instance, event: string("event") ?? "", dataJSON: string("data") ?? "")
        case .setButton:
            guard let button = value["button"] else { return nil }
            self = .setButton(instance: instance, button: button)
        case .removeButton: self = .removeButton(instance: instance, id: string("id") ?? "")
        case .show:
            guard let spec = value["spec"] else { return nil }
            self = .show(instance: instance, id: string("id") ?? "", specJSON: spec.serialized())
        case .remove: self = .remove(instance: instance, id: string("id") ?? "")
        case .call:
            guard case .number(let call)? = value["call"], let action = string("action"),
                case .array(let arguments)? = value["arguments"]
            else { return nil }
            self = .call(call: Int(call), action: action, arguments: arguments)
        case .callResult:
            guard case .number(let call)? = value["call"] else { return nil }
            self = .callResult(call: Int(call), result: value["result"], error: string("error"))
        }
    }
}
