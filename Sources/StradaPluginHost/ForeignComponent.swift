import CStradaPlugin
import Foundation
import StradaABI
import StradaCore

/// What a plugin may ask of the host for one of its instances (the host side of `strada_host_api_v1`).
/// Implemented by ``ForeignComponent`` in the host, and by the worker's forwarder under `--isolate`.
@MainActor
protocol PluginHostCalls: AnyObject {
    /// The reply's status when `json` is exactly the text last forwarded to the plugin (sent as it was);
    /// `nil` otherwise, and the reply goes through ``replyFromPlugin(json:)``. Callers use
    /// ``takeReply(_:text:)``, which asks both in turn.
    func replyFromPluginUnchanged(_ json: UnsafeRawBufferPointer) -> strada_status?
    /// A reply that is not the text last forwarded: checked, parsed and sent.
    func replyFromPlugin(json: String) -> strada_status
    func replyFromPlugin(toEvent event: String, dataJSON: String) -> strada_status
    func setButton(_ button: HeaderButton) -> strada_status
    func removeButton(id: String) -> strada_status
    func showControl(id: String, specJSON: String) -> strada_status
    func removeControl(id: String) -> strada_status
}

extension PluginHostCalls {
    /// A plugin's reply, as its bytes: the message last forwarded when they are its text exactly (a component
    /// answering with what it was handed: no checking or parsing), else `text()` (`nil`: not valid UTF-8)
    /// parsed and sent. The one way replies come in, from the host table and from a worker alike.
    func takeReply(_ bytes: UnsafeRawBufferPointer, text: () -> String?) -> strada_status {
        if let status = replyFromPluginUnchanged(bytes) { return status }
        guard let text = text() else { return STRADA_ERR_INVALID_ARGUMENT }
        return replyFromPlugin(json: text)
    }
}

/// The host-side stand-in for a component that lives outside the host's Swift world — in a plugin loaded
/// in this process (``PluginComponent``) or in a worker process (``IsolatedComponent``). The delegate
/// routes to it as to any ``ComponentEndpoint``: it keeps the one message cache (for `reply_to_event` and
/// replays), forwards each message's wire text unchanged, and turns the plugin's calls into replies and
/// native controls. Subclasses carry messages, lifecycle and control events to the plugin.
@MainActor
class ForeignComponent: ComponentEndpoint, PluginHostCalls {
    let componentName: String
    /// The plugin's id, for log lines.
    let pluginID: String
    /// What the plugin may do: a host-API call outside it is refused with one line.
    let grant: PluginGrant
    private weak var destination: (any BridgeDestination)?
    private weak var delegate: (any BridgingDelegate)?
    private var cache = MessageCache()

    init(
        name: String, pluginID: String, grant: PluginGrant, destination: any BridgeDestination,
        delegate: any BridgingDelegate
    ) {
        componentName = name
        self.pluginID = pluginID
        self.grant = grant
        self.destination = destination
        self.delegate = delegate
    }

    /// The bridge of this component's page (replies can be collected into one delivery there).
    var bridge: Bridge? { (delegate as? BridgeDelegate)?.bridge }

    /// This component's native controls (ids namespaced by component name), or `nil` once its page is gone.
    var controls: ComponentControls? { destination?.nativeControls(for: componentName) }

    // MARK: To the plugin (transport-specific)

    func forward(messageJSON: String) {}
    /// `message` as read from `wire`: by default its text is forwarded.
    func forward(_ message: Message, wire: String) { forward(messageJSON: wire) }
    func forward(lifecycle event: strada_lifecycle_event) {}
    func forwardActivation(controlID: String) {}
    func forwardControlEvent(controlID: String, eventJSON: String) {}
    func destroyInstance() {}

    // MARK: ComponentEndpoint

    var cachedMessages: [Message] { cache.inArrivalOrder }

    func deliver(_ message: Message) {
        cache.store(message)
        guard let wire = message.wireText() else { return }
        lastForwarded = (wire, message)
        forward(message, wire: wire)
    }

    /// The last message handed to the plugin, with its text: a reply that is that text unchanged (a component
    /// answering with the message it got, as upstream's `replyTo` does) is not parsed again.
    private var lastForwarded: (wire: String, message: Message)?

    func lifecycle(_ event: LifecycleEvent) {
        switch event {
        case .viewDidLoad: forward(lifecycle: STRADA_LIFECYCLE_VIEW_DID_LOAD)
        case .viewWillAppear: forward(lifecycle: STRADA_LIFECYCLE_VIEW_WILL_APPEAR)
        case .viewDidAppear: forward(lifecycle: STRADA_LIFECYCLE_VIEW_DID_APPEAR)
        case .viewWillDisappear: forward(lifecycle: STRADA_LIFECYCLE_VIEW_WILL_DISAPPEAR)
        case .viewDidDisappear: forward(lifecycle: STRADA_LIFECYCLE_VIEW_DID_DISAPPEAR)
        }
    }

    func destroy() {
        // The ABI promises the instance's controls are gone before destroy_instance.
        removeOwnControls()
        destroyInstance()
    }

    func removeOwnControls() {
        controls?.removeAll()
    }

    // MARK: From the plugin

    private func send(_ message: Message) -> strada_status {
        guard let delegate else {
            Strada.config.logger.warning("reply from \(componentName) dropped: its page is gone")
            return STRADA_ERR_GONE
        }
        return delegate.reply(with: message) ? STRADA_OK : STRADA_ERR_GONE
    }

    func replyFromPluginUnchanged(_ json: UnsafeRawBufferPointer) -> strada_status? {
        guard let lastForwarded, json.count == lastForwarded.wire.utf8.count, let data = json.baseAddress else {
            return nil
        }
        var last = lastForwarded.wire
        let same = last.withUTF8 { memcmp($0.baseAddress!, data, $0.count) == 0 }
        return same ? send(lastForwarded.message) : nil
    }

    func replyFromPlugin(json: String) -> strada_status {
        let message: Message
        do {
            message = try PluginCallCheck.reply(json, plugin: pluginID)
        } catch {
            Strada.config.logger.warning("\(error.line)")
            return STRADA_ERR_INVALID_ARGUMENT
        }
        return send(message)
    }

    /// A reply already read into a message (off the main thread, by ``IsolatedPlugin``'s connection).
    func replyFromPlugin(message: Message) -> strada_status { send(message) }

    func replyFromPlugin(toEvent event: String, dataJSON: String) -> strada_status {
        do {
            try PluginCallCheck.replyData(dataJSON, event: event, plugin: pluginID)
        } catch {
            Strada.config.logger.warning("\(error.line)")
            return STRADA_ERR_INVALID_ARGUMENT
        }
        guard let message = cache.message(for: event) else { return STRADA_ERR_NOT_FOUND }
        if dataJSON.isEmpty { return send(message) }
        return send(message.replacing(jsonData: dataJSON))
    }

    /// Whether the grant allows `capability`; if not, the one line saying so is written.
    private func permits(_ capability: Capability, _ what: @autoclosure () -> String) -> Bool {
        if grant.allows(capability) { return true }
        Strada.config.logger.warning("\(PluginGrants.refusal(plugin: pluginID, capability: capability, doing: what()))")
        return false
    }

    func setButton(_ button: HeaderButton) -> strada_status {
        guard permits(.controls, "button \(button.id)") else { return STRADA_ERR_FAILED }
        guard let controls else { return STRADA_ERR_GONE }
        let id = button.id
        controls.setButton(button) { [weak self] in self?.forwardActivation(controlID: id) }
        return STRADA_OK
    }

    func removeButton(id: String) -> strada_status {
        guard let controls else { return STRADA_ERR_GONE }
        controls.removeButton(id: id)
        return STRADA_OK
    }

    func showControl(id: String, specJSON: String) -> strada_status {
        guard let controls else { return STRADA_ERR_GONE }
        let spec: ControlSpec
        do {
            spec = try PluginCallCheck.control(id: id, specJSON: specJSON, plugin: pluginID)
        } catch {
            Strada.config.logger.warning("\(error.line)")
            return STRADA_ERR_INVALID_ARGUMENT
        }
        guard permits(Capability.needed(for: spec), "\(Capability.kind(of: spec)) control \(id)") else {
            return STRADA_ERR_FAILED
        }
        controls.show(spec) { [weak self] event in
            self?.forwardControlEvent(controlID: id, eventJSON: event.json.serialized())
        }
        return STRADA_OK
    }

    func removeControl(id: String) -> strada_status {
        guard let controls else { return STRADA_ERR_GONE }
        controls.removeControl(id: id)
        return STRADA_OK
    }
}
