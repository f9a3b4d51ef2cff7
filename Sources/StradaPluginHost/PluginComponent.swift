import CStradaPlugin
import Foundation
import StradaABI
import StradaCore

/// A component of a plugin loaded in this process: messages, lifecycle and control events cross the C ABI.
@MainActor
final class PluginComponent: ForeignComponent {
    private let descriptor: PluginDescriptor
    private var handle: OpaquePointer?
    private var instance: OpaquePointer?
    /// The plugin's parsed-messages table, when it offers one: messages go to it with their members read.
    private let parsedMessages: UnsafePointer<strada_parsed_messages_v1>?

    init(
        name: String, descriptor: PluginDescriptor, grant: PluginGrant, destination: any BridgeDestination,
        delegate: any BridgingDelegate
    ) {
        self.descriptor = descriptor
        parsedMessages = descriptor.parsedMessages()
        super.init(
            name: name, pluginID: descriptor.pluginID, grant: grant, destination: destination, delegate: delegate)
        let handle = HostAPI.register(self)
        self.handle = handle
        instance = descriptor.createInstance(named: name, handle: handle)
        if instance == nil {
            Strada.config.logger.error(
                "plugin \(descriptor.pluginID) failed to create component \"\(name)\"; its messages are dropped")
        }
    }

    override func forward(messageJSON: String) {
        guard let instance else { return }
        descriptor.receive(instance, messageJSON)
    }

    override func forward(_ message: Message, wire: String) {
        guard let instance else { return }
        if let parsedMessages {
            descriptor.receive(instance, message, wire: wire, through: parsedMessages)
        } else {
            descriptor.receive(instance, wire)
        }
    }

    override func forward(lifecycle event: strada_lifecycle_event) {
        guard let instance else { return }
        descriptor.lifecycle(instance, event)
    }

    override func forwardActivation(controlID: String) {
        guard let instance else { return }
        descriptor.controlActivated(instance, controlID)
    }

    override func forwardControlEvent(controlID: String, eventJSON: String) {
        guard let instance else { return }
        descriptor.controlEvent(instance, controlID, eventJSON)
    }

    override func destroyInstance() {
        if let handle { HostAPI.unregister(handle) }
        handle = nil
        if let instance { descriptor.destroy(instance) }
        instance = nil
    }
}

extension PluginDescriptor {
    /// The calls into a loaded plugin, in one place (used in the host and in the isolation worker).
    func createInstance(named name: String, handle: OpaquePointer) -> OpaquePointer? {
        crash.calling("create_instance") {
            name.withCString { table.create_instance(table.plugin_context, $0, handle) }
        }
    }

    func receive(_ instance: OpaquePointer, _ json: String) {
        crash.calling("receive") { withStradaString(json) { table.receive(instance, $0) } }
    }

    /// The plugin's "dev.strada.parsed-messages/1" table, or `nil` when it offers none (or one too small).
    func parsedMessages() -> UnsafePointer<strada_parsed_messages_v1>? {
        guard let lookup = table.get_extension,
            let raw = crash.calling(
                "get_extension", { lookup(table.plugin_context, STRADA_PARSED_MESSAGES_EXTENSION_V1) })
        else { return nil }
        let parsed = raw.assumingMemoryBound(to: strada_parsed_messages_v1.self)
        return parsed.pointee.struct_size >= STRADA_PARSED_MESSAGES_V1_MIN_SIZE_1_0 ? parsed : nil
    }

    /// `message`, read from `wire`, with its members picked out: the plugin need not parse it again.
    func receive(
        _ instance: OpaquePointer, _ message: Message, wire: String,
        through parsed: UnsafePointer<strada_parsed_messages_v1>
    ) {
        let url = message.metadata?.url
        withStradaString(wire) { wire in
            withStradaString(message.id) { id in
                withStradaString(message.component) { component in
                    withStradaString(message.event) { event in
                        withStradaString(message.jsonData) { data in
                            withStradaString(url ?? "") { urlText in
                                var read = strada_message_v1(
                                    struct_size: UInt32(MemoryLayout<strada_message_v1>.size),
                                    flags: url == nil ? 0 : STRADA_MESSAGE_HAS_METADATA_URL, wire_json: wire, id: id,
                                    component: component, event: event, data_json: data, metadata_url: urlText)
                                crash.calling("receive") { parsed.pointee.receive_message(instance, &read) }
                            }
                        }
                    }
                }
            }
        }
    }

    func lifecycle(_ instance: OpaquePointer, _ event: strada_lifecycle_event) {
        crash.calling("lifecycle") { table.lifecycle?(instance, event) }
    }

    func controlActivated(_ instance: OpaquePointer, _ id: String) {
        guard let hook = table.control_activated else { return }
        crash.calling("control_activated") { withStradaString(id) { hook(instance, $0) } }
    }

    func controlEvent(_ instance: OpaquePointer, _ id: String, _ json: String) {
        crash.calling("control_event") { controlEvent(from: instance, id, json) }
    }

    private func controlEvent(from instance: OpaquePointer, _ id: String, _ json: String) {
        guard let lookup = table.get_extension,
            let raw = lookup(table.plugin_context, STRADA_CONTROL_EVENTS_EXTENSION_V1)
        else { return }
        let events = raw.assumingMemoryBound(to: strada_control_events_v1.self)
        guard events.pointee.struct_size >= STRADA_CONTROL_EVENTS_V1_MIN_SIZE_1_0 else { return }
        withStradaString(id) { controlID in
            withStradaString(json) { events.pointee.control_event(instance, controlID, $0) }
        }
    }

    func destroy(_ instance: OpaquePointer) {
        crash.calling("destroy_instance") { table.destroy_instance(instance) }
    }
}
