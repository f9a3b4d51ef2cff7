import CStradaPlugin
import StradaABI
import Foundation
import StradaCore

/// What a plugin may ask of the host for one of its instances (the host side of `strada_host_api_v1`).
/// Implemented by ``ForeignComponent`` in the host, and by the worker's forwarder under `--isolate`.
@MainActor
protocol PluginHostCalls: AnyObject {
    func replyFromPlugin(json: String) -> strada_status
    func replyFromPlugin(toEvent event: String, dataJSON: String) -> strada_status
    func setButton(_ button: HeaderButton) -> strada_status
    func removeButton(id: String) -> strada_status
    func showControl(id: String, specJSON: String) -> strada_status
    func removeControl(id: String) -> strada_status
}

/// The host-side stand-in for a component that lives outside the host's Swift world — in a plugin loaded
/// in this process (``PluginComponent``) or in a worker process (``IsolatedComponent``). It turns the
/// plugin's calls into replies and native controls; subclasses carry messages, lifecycle and control
/// events to the plugin.
@MainActor
class ForeignComponent: BridgeComponent, PluginHostCalls {
    nonisolated override class var name: String { "foreign-component" }
    nonisolated override var componentName: String { foreignName }

    nonisolated(unsafe) private var foreignName = ""  // set once in `configure`, before any use
    /// The plugin's id, for log lines.
    private(set) var pluginID = ""
    private var buttonIDs: Set<String> = []
    private var controlIDs: Set<String> = []

    required init(destination: any BridgeDestination, delegate: any BridgingDelegate) {
        super.init(destination: destination, delegate: delegate)
    }

    func configure(name: String, pluginID: String) {
        foreignName = name
        self.pluginID = pluginID
    }

    // MARK: To the plugin (transport-specific)

    func deliver(messageJSON: String) {}
    func deliver(lifecycle event: strada_lifecycle_event) {}
    func deliverActivation(controlID: String) {}
    func deliverControlEvent(controlID: String, eventJSON: String) {}
    func destroyInstance() {}

    override func onReceive(message: Message) {
        guard let wire = message.wireText() else { return }
        deliver(messageJSON: wire)
    }

    override func onViewDidLoad() { deliver(lifecycle: STRADA_LIFECYCLE_VIEW_DID_LOAD) }
    override func onViewWillAppear() { deliver(lifecycle: STRADA_LIFECYCLE_VIEW_WILL_APPEAR) }
    override func onViewDidAppear() { deliver(lifecycle: STRADA_LIFECYCLE_VIEW_DID_APPEAR) }
    override func onViewWillDisappear() { deliver(lifecycle: STRADA_LIFECYCLE_VIEW_WILL_DISAPPEAR) }
    override func onViewDidDisappear() { deliver(lifecycle: STRADA_LIFECYCLE_VIEW_DID_DISAPPEAR) }

    override func onDestroy() {
        // The ABI promises the instance's controls are gone before destroy_instance.
        removeOwnControls()
        destroyInstance()
    }

    func removeOwnControls() {
        for id in buttonIDs.sorted() { controls?.removeButton(id: id) }
        for id in controlIDs.sorted() { controls?.removeControl(id: id) }
        buttonIDs.removeAll()
        controlIDs.removeAll()
    }

    // MARK: From the plugin

    func replyFromPlugin(json: String) -> strada_status {
        let message: Message
        do {
            message = try Message(wireText: json)
        } catch {
            Strada.config.logger.warning("plugin \(pluginID) sent an invalid reply: \(error)")
            return STRADA_ERR_INVALID_ARGUMENT
        }
        return reply(with: message) ? STRADA_OK : STRADA_ERR_GONE
    }

    func replyFromPlugin(toEvent event: String, dataJSON: String) -> strada_status {
        guard receivedMessage(for: event) != nil else { return STRADA_ERR_NOT_FOUND }
        if dataJSON.isEmpty { return reply(to: event) ? STRADA_OK : STRADA_ERR_GONE }
        guard case .object? = try? JSON(parsing: dataJSON) else {
            Strada.config.logger.warning("plugin \(pluginID) replied to \(event) with data that is not a JSON object")
            return STRADA_ERR_INVALID_ARGUMENT
        }
        return reply(to: event, with: dataJSON) ? STRADA_OK : STRADA_ERR_GONE
    }

    func setButton(_ button: HeaderButton) -> strada_status {
        guard let controls else { return STRADA_ERR_GONE }
        let id = button.id
        buttonIDs.insert(id)
        controls.setButton(button) { [weak self] in self?.deliverActivation(controlID: id) }
        return STRADA_OK
    }

    func removeButton(id: String) -> strada_status {
        guard let controls else { return STRADA_ERR_GONE }
        buttonIDs.remove(id)
        controls.removeButton(id: id)
        return STRADA_OK
    }

    func showControl(id: String, specJSON: String) -> strada_status {
        guard let controls else { return STRADA_ERR_GONE }
        let spec: ControlSpec
        do {
            spec = try ControlSpec(id: id, json: JSON(parsing: specJSON))
        } catch {
            Strada.config.logger.warning("plugin \(pluginID) sent an invalid control \(id): \(error)")
            return STRADA_ERR_INVALID_ARGUMENT
        }
        controlIDs.insert(id)
        controls.show(spec) { [weak self] event in self?.deliverControlEvent(controlID: id, eventJSON: event.json.serialized()) }
        return STRADA_OK
    }

    func removeControl(id: String) -> strada_status {
        guard let controls else { return STRADA_ERR_GONE }
        controlIDs.remove(id)
        controls.removeControl(id: id)
        return STRADA_OK
    }
}
