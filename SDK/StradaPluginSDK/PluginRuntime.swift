import CStradaPlugin
import Foundation
import Logging
import StradaABI
import StradaCore

/// The plugin side of the ABI: owns the `strada_plugin_v1` description and the component instances.
/// Lives for the rest of the process (Swift plugins are never unloaded).
@MainActor
final class PluginRuntime {
    let host: UnsafePointer<strada_host_api_v1>
    let components: [BridgeComponent.Type]
    // swift-format-ignore: NeverUseImplicitlyUnwrappedOptionals
    // Set once in init, after the descriptor's storage exists (it points into it).
    private(set) var descriptor: UnsafePointer<strada_plugin_v1>!

    init(plugin: StradaPlugin, host: UnsafePointer<strada_host_api_v1>) {
        self.host = host
        self.components = plugin.components
        if let codec = host.pointee.codec_settings_json?(host) {
            Strada.config.codec = CodecSettings(json: String(cString: codec))
        }
        let hostAddress = UInt(bitPattern: host)
        // Before anything logs: the plugin logs only through the host's table, and its own copy of swift-log's
        // LoggingSystem (global state and locks) is never set up.
        Strada.config.logger = Logger(label: plugin.id) { _ in HostLogHandler(hostAddress: hostAddress) }

        let names = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(capacity: plugin.components.count)
        for (index, type) in plugin.components.enumerated() { names[index] = UnsafePointer(strdup(type.name)) }
        let table = UnsafeMutablePointer<strada_plugin_v1>.allocate(capacity: 1)
        table.initialize(
            to: strada_plugin_v1(
                struct_size: UInt32(MemoryLayout<strada_plugin_v1>.size),
                abi_major: UInt32(STRADA_PLUGIN_ABI_MAJOR),
                abi_minor: UInt32(STRADA_PLUGIN_ABI_MINOR),
                component_count: UInt32(plugin.components.count),
                plugin_id: UnsafePointer(strdup(plugin.id)),
                plugin_version: UnsafePointer(strdup(plugin.version)),
                component_names: UnsafePointer(names),
                plugin_context: Unmanaged.passRetained(self).toOpaque(),
                create_instance: { context, name, hostInstance in
                    guard let context, let name else { return nil }
                    let runtime = Unmanaged<PluginRuntime>.fromOpaque(context).takeUnretainedValue()
                    let componentName = String(cString: name)
                    let hostAddress = UInt(bitPattern: hostInstance.map { Int(bitPattern: UnsafeRawPointer($0)) } ?? 0)
                    let created = MainActor.assumeIsolated {
                        runtime.createInstance(
                            named: componentName, hostInstance: OpaquePointer(bitPattern: hostAddress))
                    }
                    return OpaquePointer(bitPattern: created)
                },
                receive: { instance, json in
                    guard let instance, let text = json.string else { return }
                    MainActor.assumeIsolated { PluginInstance.from(instance).receive(json: text) }
                },
                lifecycle: { instance, event in
                    guard let instance else { return }
                    MainActor.assumeIsolated { PluginInstance.from(instance).lifecycle(event) }
                },
                control_activated: { instance, id in
                    guard let instance, let id = id.string else { return }
                    MainActor.assumeIsolated { PluginInstance.from(instance).controlActivated(id: id) }
                },
                destroy_instance: { instance in
                    guard let instance else { return }
                    MainActor.assumeIsolated { PluginInstance.release(instance) }
                },
                shutdown: nil,
                get_extension: { _, id in
                    switch id.map({ String(cString: $0) }) {
                    case STRADA_CONTROL_EVENTS_EXTENSION_V1?: UnsafeRawPointer(PluginRuntime.controlEvents)
                    case STRADA_PARSED_MESSAGES_EXTENSION_V1?: UnsafeRawPointer(PluginRuntime.parsedMessages)
                    default: nil
                    }
                }))
        descriptor = UnsafePointer(table)
    }

    /// "dev.strada.control-events/1": answers to menus, alerts and searches come back here.
    nonisolated(unsafe) static let controlEvents: UnsafeMutablePointer<strada_control_events_v1> = {
        let table = UnsafeMutablePointer<strada_control_events_v1>.allocate(capacity: 1)
        table.initialize(
            to: strada_control_events_v1(
                struct_size: UInt32(MemoryLayout<strada_control_events_v1>.size), reserved: 0,
                control_event: { instance, id, json in
                    guard let instance, let id = id.string, let text = json.string,
                        let value = try? JSON(parsing: text), let event = ControlEvent(json: value)
                    else { return }
                    let address = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(instance)))
                    MainActor.assumeIsolated {
                        PluginInstance.from(OpaquePointer(bitPattern: address)!).controlEvent(id: id, event)
                    }
                }))
        return table
    }()

    /// "dev.strada.parsed-messages/1": the host hands over each message with its members read, so the SDK
    /// does not parse the envelope again.
    nonisolated(unsafe) static let parsedMessages: UnsafeMutablePointer<strada_parsed_messages_v1> = {
        let table = UnsafeMutablePointer<strada_parsed_messages_v1>.allocate(capacity: 1)
        table.initialize(
            to: strada_parsed_messages_v1(
                struct_size: UInt32(MemoryLayout<strada_parsed_messages_v1>.size), reserved: 0,
                receive_message: { instance, read in
                    guard let instance, let read, read.pointee.struct_size >= STRADA_MESSAGE_V1_MIN_SIZE_1_0 else {
                        return
                    }
                    let fields = read.pointee
                    let hasURL = fields.flags & STRADA_MESSAGE_HAS_METADATA_URL != 0
                    guard let wire = fields.wire_json.string, let id = fields.id.string,
                        let component = fields.component.string, let event = fields.event.string,
                        let data = fields.data_json.string, let url = fields.metadata_url.string
                    else { return }
                    let message = Message(
                        receivedID: id, component: component, event: event, metadataURL: hasURL ? url : nil,
                        jsonData: data, wire: wire)
                    let address = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(instance)))
                    MainActor.assumeIsolated {
                        PluginInstance.from(OpaquePointer(bitPattern: address)!).receive(message)
                    }
                }))
        return table
    }()

    /// The new instance's address (0 on failure).
    private func createInstance(named name: String, hostInstance: OpaquePointer?) -> UInt {
        guard let hostInstance, let type = components.first(where: { $0.name == name }) else { return 0 }
        let instance = PluginInstance(type: type, host: host, hostInstance: hostInstance)
        return UInt(bitPattern: Unmanaged.passRetained(instance).toOpaque())
    }
}

/// One component instance inside the plugin, with the destination and delegate it sees.
@MainActor
final class PluginInstance: BridgeDestination, BridgingDelegate, NativeControls {
    private let host: UnsafePointer<strada_host_api_v1>
    private let hostInstance: OpaquePointer
    // swift-format-ignore: NeverUseImplicitlyUnwrappedOptionals
    // Made right after the instance (the component needs the instance as its delegate).
    private var component: BridgeComponent!
    private var buttonHandlers: [String: @MainActor () -> Void] = [:]
    private var eventHandlers: [String: @MainActor (ControlEvent) -> Void] = [:]
    private lazy var controls: UnsafePointer<strada_controls_v1>? = {
        guard let lookup = host.pointee.get_extension, let table = lookup(host, STRADA_CONTROLS_EXTENSION_V1) else {
            return nil
        }
        let controls = table.assumingMemoryBound(to: strada_controls_v1.self)
        return controls.pointee.struct_size >= STRADA_CONTROLS_V1_MIN_SIZE_1_0 ? UnsafePointer(controls) : nil
    }()
    let location = ""
    var destination: (any BridgeDestination)? { self }

    init(type: BridgeComponent.Type, host: UnsafePointer<strada_host_api_v1>, hostInstance: OpaquePointer) {
        self.host = host
        self.hostInstance = hostInstance
        component = type.init(destination: self, delegate: self)
    }

    static func from(_ pointer: OpaquePointer) -> PluginInstance {
        Unmanaged<PluginInstance>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
    }

    static func release(_ pointer: OpaquePointer) {
        let instance = Unmanaged<PluginInstance>.fromOpaque(UnsafeRawPointer(pointer)).takeRetainedValue()
        instance.component.onDestroy()
        instance.buttonHandlers.removeAll()
        instance.eventHandlers.removeAll()
    }

    func receive(json: String) {
        do {
            receive(try Message(wireText: json))
        } catch {
            Strada.config.logger.warning("dropped a malformed message from the host: \(error)")
        }
    }

    func receive(_ message: Message) {
        component.didReceive(message: message)
    }

    func lifecycle(_ event: strada_lifecycle_event) {
        switch event {
        case STRADA_LIFECYCLE_VIEW_DID_LOAD: component.onViewDidLoad()
        case STRADA_LIFECYCLE_VIEW_WILL_APPEAR: component.onViewWillAppear()
        case STRADA_LIFECYCLE_VIEW_DID_APPEAR: component.onViewDidAppear()
        case STRADA_LIFECYCLE_VIEW_WILL_DISAPPEAR: component.onViewWillDisappear()
        case STRADA_LIFECYCLE_VIEW_DID_DISAPPEAR: component.onViewDidDisappear()
        default: break
        }
    }

    func controlActivated(id: String) {
        buttonHandlers[id]?()
    }

    func controlEvent(id: String, _ event: ControlEvent) {
        guard let handler = eventHandlers[id] else { return }
        if case .changed = event {} else { eventHandlers[id] = nil }  // menus and alerts answer once
        handler(event)
    }

    /// Shows a control through the host's "dev.strada.controls/1" extension.
    private func show(_ spec: ControlSpec, id: String, onEvent: (@MainActor (ControlEvent) -> Void)? = nil) {
        guard let controls else {
            Strada.config.logger.warning("the host offers no native controls beyond buttons; \(id) not shown")
            return
        }
        if let onEvent { eventHandlers[id] = onEvent }
        let status = withStradaString(id) { controlID in
            withStradaString(spec.json.serialized()) { json in
                controls.pointee.show(host, hostInstance, controlID, json)
            }
        }
        if status != STRADA_OK { Strada.config.logger.warning("the host refused control \(id) (status \(status))") }
    }

    private func removeControl(id: String) {
        eventHandlers[id] = nil
        guard let controls else { return }
        _ = withStradaString(id) { controlID in controls.pointee.remove(host, hostInstance, controlID) }
    }

    func presentMenu(_ menu: ControlMenu, onChoice: @escaping @MainActor (Int?) -> Void) {
        show(.menu(menu), id: menu.id) { event in
            if case .chosen(let index) = event { onChoice(index) } else { onChoice(nil) }
        }
    }

    func presentAlert(_ alert: ControlAlert, onAnswer: @escaping @MainActor (Bool) -> Void) {
        show(.alert(alert), id: alert.id) { event in onAnswer(event == .confirmed) }
    }

    func showToast(_ message: String) { show(.toast(message), id: "toast") }
    func setWindowTitle(_ title: String?, subtitle: String?) { show(.title(title, subtitle: subtitle), id: "title") }

    func setSearch(_ search: ControlSearch, onChange: @escaping @MainActor (String) -> Void) {
        show(.search(search), id: search.id) { event in
            if case .changed(let text) = event { onChange(text) }
        }
    }

    func removeSearch(id: String) { removeControl(id: id) }
    func copyToClipboard(_ text: String) { show(.clipboard(text), id: "clipboard") }
    func setColorScheme(_ scheme: ColorScheme) { show(.colorScheme(scheme), id: "colorScheme") }
    func openInBrowser(_ url: String) { show(.openURL(url), id: "openURL") }
    func dismissSilently(id: String) { removeControl(id: id) }

    func removeAll(withPrefix prefix: String) {
        for id in buttonHandlers.keys.sorted() where id.hasPrefix(prefix) { removeButton(id: id) }
        for id in eventHandlers.keys.sorted() where id.hasPrefix(prefix) { removeControl(id: id) }
    }

    // MARK: BridgeDestination

    func nativeControls(for componentName: String) -> ComponentControls? {
        ComponentControls(base: self, idPrefix: "")  // the host namespaces ids by component
    }

    // MARK: BridgingDelegate

    func reply(with message: Message) -> Bool {
        guard let wire = message.wireText() else {
            Strada.config.logger.warning(
                "reply \(message.component)/\(message.event) dropped: its jsonData is not valid JSON")
            return false
        }
        let status = withStradaString(wire) { json in host.pointee.reply(host, hostInstance, json) }
        return status == STRADA_OK
    }

    /// ABI 1 reports whether the host accepted the reply, not the page's evaluation result: `.success(true)`
    /// means handed to the web view.
    func reply(with message: Message, completion: @escaping @MainActor (Result<Bool, any Error>) -> Void) {
        completion(.success(reply(with: message)))
    }

    // MARK: NativeControls

    func setButton(_ button: HeaderButton, onActivate: @escaping @MainActor () -> Void) {
        buttonHandlers[button.id] = onActivate
        let status = withStradaString(button.id) { id in
            withStradaString(button.title) { title in
                withStradaString(button.iconName ?? "") { icon in
                    var spec = strada_button_v1()
                    spec.struct_size = UInt32(MemoryLayout<strada_button_v1>.size)
                    spec.placement = button.placement == .start ? STRADA_PLACEMENT_START : STRADA_PLACEMENT_END
                    spec.id = id
                    spec.title = title
                    spec.icon_name = icon
                    spec.enabled = button.isEnabled ? 1 : 0
                    spec.style = UInt8(
                        button.style == .suggested
                            ? STRADA_BUTTON_STYLE_SUGGESTED
                            : button.style == .destructive
                                ? STRADA_BUTTON_STYLE_DESTRUCTIVE : STRADA_BUTTON_STYLE_NORMAL)
                    return host.pointee.set_button(host, hostInstance, &spec)
                }
            }
        }
        if status != STRADA_OK {
            Strada.config.logger.warning("the host refused button \(button.id) (status \(status))")
        }
    }

    func removeButton(id: String) {
        buttonHandlers[id] = nil
        _ = withStradaString(id) { id in host.pointee.remove_button(host, hostInstance, id) }
    }
}

/// Sends this plugin's log lines to the host's logger.
struct HostLogHandler: LogHandler {
    let hostAddress: UInt
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .debug

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        guard let host = UnsafePointer<strada_host_api_v1>(bitPattern: hostAddress) else { return }
        let stradaLevel: strada_log_level =
            switch event.level {
            case .trace, .debug: STRADA_LOG_DEBUG
            case .info, .notice: STRADA_LOG_INFO
            case .warning: STRADA_LOG_WARNING
            case .error, .critical: STRADA_LOG_ERROR
            }
        withStradaString("\(event.message)") { text in host.pointee.log(host, stradaLevel, text) }
    }
}
