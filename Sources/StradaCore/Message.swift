import Foundation

/// One message between a web component and a native component.
///
/// `jsonData` is the whole `data` object as JSON text, including `metadata`, exactly as upstream keeps it.
/// Equality compares `jsonData` by JSON value (key order, whitespace and number spelling ignored), because
/// two engines, or two runs on Linux, serialise the same object differently.
public struct Message: Sendable {
    /// Web-generated id ("1", "2", … per document); replies carry it back to find the web callback.
    public var id: String { storage.id }
    /// The component name, e.g. "form".
    public var component: String { storage.component }
    /// The event, e.g. "connect".
    public var event: String { storage.event }
    /// `data.metadata` as sent by the web library.
    public var metadata: Metadata? { storage.metadata }
    /// The whole `data` object as JSON text; "{}" when the web sent none.
    public var jsonData: String { storage.jsonData }

    private let storage: Storage

    /// The members, shared by every copy: a message is handed on (to the cache, a plugin's proxy, observers,
    /// the reply) more often than it is made, and one reference is cheaper to copy than seven.
    private final class Storage: Sendable {
        let id: String
        let component: String
        let event: String
        let metadata: Metadata?
        let jsonData: String
        /// `jsonData` parsed, kept when the message was built from a JSON value (so replies need not parse it
        /// again); `nil` when only the text is known.
        let parsedData: JSON?
        /// The wire text exactly as the page sent it, when the message was read from it: forwarded to plugins
        /// and sent back as a reply without building it again.
        let receivedWire: String?
        /// `jsonData` came from a page and was validated without being built: whether it repeats a key is
        /// found out when ``Message/data()`` decodes it.
        let dataKeysUnchecked: Bool

        init(
            id: String, component: String, event: String, metadata: Metadata?, jsonData: String, parsedData: JSON?,
            receivedWire: String? = nil, dataKeysUnchecked: Bool = false
        ) {
            self.id = id
            self.component = component
            self.event = event
            self.metadata = metadata
            self.jsonData = jsonData
            self.parsedData = parsedData
            self.receivedWire = receivedWire
            self.dataKeysUnchecked = dataKeysUnchecked
        }
    }

    private var parsedData: JSON? { storage.parsedData }

    /// What the web library adds to every message's `data`.
    public struct Metadata: Sendable, Hashable {
        /// `location.href` of the page that sent the message.
        public let url: String
        public init(url: String) { self.url = url }
    }

    public init(id: String, component: String, event: String, metadata: Metadata?, jsonData: String) {
        self.init(id: id, component: component, event: event, metadata: metadata, jsonData: jsonData, parsedData: nil)
    }

    private init(id: String, component: String, event: String, metadata: Metadata?, jsonData: String, parsedData: JSON?)
    {
        storage = Storage(
            id: id, component: component, event: event, metadata: metadata, jsonData: jsonData, parsedData: parsedData)
    }

    /// A copy with a new event and/or data text; `nil` keeps the current value. The text is not validated.
    public func replacing(event updatedEvent: String? = nil, jsonData updatedData: String? = nil) -> Message {
        Message(
            id: id, component: component, event: updatedEvent ?? event, metadata: metadata,
            jsonData: updatedData ?? jsonData, parsedData: updatedData == nil ? parsedData : nil)
    }

    /// A copy whose data is `data` encoded with `Strada.config.jsonEncoder`. If encoding fails the
    /// original data is kept and the error is logged.
    public func replacing<T: Encodable>(event updatedEvent: String? = nil, data: T) -> Message {
        do {
            let encoded = try Strada.config.jsonEncoder.encode(data)
            return replacing(event: updatedEvent, jsonData: String(decoding: encoded, as: UTF8.self))
        } catch {
            Strada.config.logger.error(
                "encoding reply data for \(component)/\(event) failed, keeping the original data: \(error)")
            return replacing(event: updatedEvent)
        }
    }

    /// Decodes `data` with `Strada.config.jsonDecoder`; `nil` (and a log line) when it does not fit `T`.
    public func data<T: Decodable>() -> T? {
        do {
            var text = jsonData
            if storage.dataKeysUnchecked, let parsed = try? JSON.parse(jsonData, limits: .messages, capturing: nil),
                parsed.duplicateKeys
            {
                text = parsed.value.serialized()
            }
            return try Strada.config.jsonDecoder.decode(T.self, from: Data(text.utf8))
        } catch {
            Strada.config.logger.error("decoding \(component)/\(event) data as \(T.self) failed: \(error)")
            return nil
        }
    }

    /// `data` parsed as a JSON value, or `nil` when `jsonData` is not valid JSON.
    public var dataValue: JSON? { parsedData ?? (try? JSON(parsing: jsonData)) }
}

extension Message: Equatable {
    public static func == (lhs: Message, rhs: Message) -> Bool {
        guard lhs.id == rhs.id, lhs.component == rhs.component, lhs.event == rhs.event,
            lhs.metadata == rhs.metadata
        else { return false }
        if lhs.jsonData == rhs.jsonData { return true }
        guard let left = lhs.dataValue, let right = rhs.dataValue else { return false }
        return left == right
    }
}

// MARK: - Wire form

/// Why an inbound message was rejected.
package struct MalformedMessage: Error, CustomStringConvertible, Sendable, Equatable {
    package let reason: String
    package var description: String { reason }
    package init(reason: String) { self.reason = reason }
}

extension Message {
    /// Builds a message from the wire object `{id, component, event, data}`.
    /// `id`, `component` and `event` must be strings; `data` must be an object when present.

    /// Parses one wire message from JSON text, keeping `data` as the page wrote it. `data` is validated but
    /// not built into a value (only its `metadata` is read): a component that passes it through never pays
    /// for that; ``dataValue`` and ``data()`` parse it when asked.
    package init(wireText text: String, limits: JSONLimits = .messages) throws(MalformedMessage) {
        let envelope: WireEnvelope
        do {
            envelope = try JSON.parseEnvelope(text, limits: limits)
        } catch {
            if error.reason == "message is not a JSON object" { throw MalformedMessage(reason: error.reason) }
            throw MalformedMessage(reason: "\(error)")
        }
        let (id, component, event) = try Self.envelope(envelope.id, envelope.component, envelope.event)
        var jsonData = "{}"
        var metadata: Metadata?
        // An object is the usual data; only a 4-byte text can be `null` (cheaper than comparing every time).
        let captured = envelope.data.flatMap { $0.utf8.count == 4 && $0 == "null" ? nil : $0 }
        if let captured {
            guard envelope.dataIsObject else {
                throw MalformedMessage(reason: "message \(id) has \"data\" that is not an object")
            }
            jsonData = captured
            metadata = envelope.metadataURL.map(Metadata.init(url:))
        }
        storage = Storage(
            id: id, component: component, event: event, metadata: metadata, jsonData: jsonData, parsedData: nil,
            receivedWire: text, dataKeysUnchecked: captured != nil)
    }

    /// A message a host has already read from the page's wire text `wire` (the plugin SDK's side of the
    /// parsed-messages extension): the members as the host's parser decoded them. `jsonData` was validated by
    /// the host, not built; empty reads as "{}".
    package init(
        receivedID id: String, component: String, event: String, metadataURL: String?, jsonData: String,
        wire: String
    ) {
        storage = Storage(
            id: id, component: component, event: event, metadata: metadataURL.map(Metadata.init(url:)),
            jsonData: jsonData.isEmpty ? "{}" : jsonData, parsedData: nil, receivedWire: wire.isEmpty ? nil : wire,
            dataKeysUnchecked: !jsonData.isEmpty)
    }

    /// `id`, `component` and `event` of a wire object, checked.
    private static func envelope(
        _ id: String?, _ component: String?, _ event: String?
    ) throws(MalformedMessage) -> (String, String, String) {
        guard let id else { throw MalformedMessage(reason: "message has no string \"id\"") }
        guard let component, !component.isEmpty else {
            throw MalformedMessage(reason: "message \(id) has no string \"component\"")
        }
        guard let event else {
            throw MalformedMessage(reason: "message \(id) has no string \"event\"")
        }
        return (id, component, event)
    }

    package init(wire: JSON) throws(MalformedMessage) {
        guard case .object(let fields) = wire else { throw MalformedMessage(reason: "message is not a JSON object") }
        let (id, component, event) = try Self.envelope(
            fields["id"]?.stringValue, fields["component"]?.stringValue, fields["event"]?.stringValue)
        let data: JSON
        switch fields["data"] {
        case nil, .null?: data = .object([:])
        case .object?: data = fields["data"]!
        default: throw MalformedMessage(reason: "message \(id) has \"data\" that is not an object")
        }
        let metadata = data["metadata"]?["url"]?.stringValue.map(Metadata.init(url:))
        self.init(
            id: id, component: component, event: event, metadata: metadata, jsonData: data.serialized(),
            parsedData: data)
    }

    /// The wire object as JSON text, built around `jsonData` without serialising it again when it is known
    /// to be valid (it came from a parse); `nil` when `jsonData` is not valid JSON.
    package func wireText() -> String? {
        if let receivedWire = storage.receivedWire { return receivedWire }
        if parsedData == nil, (try? JSON(parsing: jsonData)) == nil { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(jsonData.utf8.count + 64)
        out.append(contentsOf: #"{"id":"#.utf8)
        JSON.writeString(id, to: &out)
        out.append(contentsOf: #","component":"#.utf8)
        JSON.writeString(component, to: &out)
        out.append(contentsOf: #","event":"#.utf8)
        JSON.writeString(event, to: &out)
        out.append(contentsOf: #","data":"#.utf8)
        out.append(contentsOf: jsonData.utf8)
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }

    /// The wire object `{id, component, event, data}` sent to `replyWith`, or `nil` if `jsonData` is not
    /// valid JSON (such a reply cannot be delivered).
    package func wire() -> JSON? {
        guard let data = dataValue else { return nil }
        return .object(["id": .string(id), "component": .string(component), "event": .string(event), "data": data])
    }
}
