import CStradaPlugin
import Foundation
import StradaCore

/// The host-side stand-in for a component that lives in a plugin: forwards messages, lifecycle and control
/// activations across the C ABI, and turns the plugin's host calls into replies and controls.
@MainActor
final class PluginComponent: BridgeComponent {
    nonisolated override class var name: String { "plugin-component" }
    nonisolated override var componentName: String { pluginComponentName }

    nonisolated(unsafe) private var pluginComponentName = ""  // set once in init, before any use
    private var descriptor: PluginDescriptor!
    private var handle: OpaquePointer?
    private var instance: OpaquePointer?

    convenience init(pluginComponentName: String, descriptor: PluginDescriptor, destination: any BridgeDestination, delegate: any BridgingDelegate) {
        self.init(destination: destination, delegate: delegate)
        self.pluginComponentName = pluginComponentName
        self.descriptor = descriptor
        let handle = HostAPI.register(self)
        self.handle = handle
        instance = pluginComponentName.withCString { name in
            descriptor.table.create_instance(descriptor.table.plugin_context, name, handle)
        }
        if instance == nil {
            Strada.config.logger.error("plugin \(descriptor.pluginID) failed to create component \"\(pluginComponentName)\"; its messages are dropped")
        }
    }

    required init(destination: any BridgeDestination, delegate: any BridgingDelegate) {
        super.init(destination: destination, delegate: delegate)
    }

    override func onReceive(message: Message) {
        guard let instance, let wire = message.wire() else { return }
        withStradaString(wire.serialized()) { json in descriptor.table.receive(instance, json) }
    }

    override func onViewDidLoad() { lifecycle(STRADA_LIFECYCLE_VIEW_DID_LOAD) }
    override func onViewWillAppear() { lifecycle(STRADA_LIFECYCLE_VIEW_WILL_APPEAR) }
    override func onViewDidAppear() { lifecycle(STRADA_LIFECYCLE_VIEW_DID_APPEAR) }
    override func onViewWillDisappear() { lifecycle(STRADA_LIFECYCLE_VIEW_WILL_DISAPPEAR) }
    override func onViewDidDisappear() { lifecycle(STRADA_LIFECYCLE_VIEW_DID_DISAPPEAR) }

    private func lifecycle(_ event: strada_lifecycle_event) {
        guard let instance, let hook = descriptor.table.lifecycle else { return }
        hook(instance, event)
    }

    override func onDestroy() {
        // The ABI promises the instance's controls are gone before destroy_instance.
        for id in buttonIDs.sorted() { controls?.removeButton(id: id) }
        for id in controlIDs.sorted() { controls?.removeControl(id: id) }
        buttonIDs.removeAll()
        controlIDs.removeAll()
        if let handle { HostAPI.unregister(handle) }
        handle = nil
        if let instance { descriptor.table.destroy_instance(instance) }
        instance = nil
    }

    // MARK: Calls from the plugin

    func replyFromPlugin(json: String) -> strada_status {
        let message: Message
        do {
            message = try Message(wire: JSON(parsing: json))
        } catch {
            Strada.config.logger.warning("plugin \(descriptor.pluginID) sent an invalid reply: \(error)")
            return STRADA_ERR_INVALID_ARGUMENT
        }
        return reply(with: message) ? STRADA_OK : STRADA_ERR_GONE
    }

    private var buttonIDs: Set<String> = []

    func replyFromPlugin(toEvent event: String, dataJSON: String) -> strada_status {
        guard receivedMessage(for: event) != nil else { return STRADA_ERR_NOT_FOUND }
        if dataJSON.isEmpty { return reply(to: event) ? STRADA_OK : STRADA_ERR_GONE }
        guard case .object? = try? JSON(parsing: dataJSON) else {
            Strada.config.logger.warning("plugin \(descriptor.pluginID) replied to \(event) with data that is not a JSON object")
            return STRADA_ERR_INVALID_ARGUMENT
        }
        return reply(to: event, with: dataJSON) ? STRADA_OK : STRADA_ERR_GONE
    }

    func setButton(_ button: HeaderButton) -> strada_status {
        guard let controls else { return STRADA_ERR_GONE }
        let id = button.id
        buttonIDs.insert(id)
        controls.setButton(button) { [weak self] in self?.controlActivated(id: id) }
        return STRADA_OK
    }

    func removeButton(id: String) -> strada_status {
        guard let controls else { return STRADA_ERR_GONE }
        buttonIDs.remove(id)
        controls.removeButton(id: id)
        return STRADA_OK
    }

    private var controlIDs: Set<String> = []

    func showControl(id: String, specJSON: String) -> strada_status {
        guard let controls else { return STRADA_ERR_GONE }
        let spec: ControlSpec
        do {
            spec = try ControlSpec(id: id, json: JSON(parsing: specJSON))
        } catch {
            Strada.config.logger.warning("plugin \(descriptor.pluginID) sent an invalid control \(id): \(error)")
            return STRADA_ERR_INVALID_ARGUMENT
        }
        controlIDs.insert(id)
        controls.show(spec) { [weak self] event in self?.controlEvent(id: id, event) }
        return STRADA_OK
    }

    func removeControl(id: String) -> strada_status {
        guard let controls else { return STRADA_ERR_GONE }
        controlIDs.remove(id)
        controls.removeControl(id: id)
        return STRADA_OK
    }

    private lazy var controlEvents: UnsafePointer<strada_control_events_v1>? = {
        guard let lookup = descriptor.table.get_extension,
            let table = lookup(descriptor.table.plugin_context, STRADA_CONTROL_EVENTS_EXTENSION_V1)
        else { return nil }
        let events = table.assumingMemoryBound(to: strada_control_events_v1.self)
        return events.pointee.struct_size >= UInt32(MemoryLayout<strada_control_events_v1>.size) ? UnsafePointer(events) : nil
    }()

    private func controlEvent(id: String, _ event: ControlEvent) {
        guard let instance, let events = controlEvents else { return }
        withStradaString(id) { controlID in
            withStradaString(event.json.serialized()) { json in events.pointee.control_event(instance, controlID, json) }
        }
    }

    private func controlActivated(id: String) {
        guard let instance, let hook = descriptor.table.control_activated else { return }
        withStradaString(id) { controlID in hook(instance, controlID) }
    }
}
