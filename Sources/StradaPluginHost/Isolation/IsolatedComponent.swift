import CStradaPlugin
import StradaCore

/// The host-side stand-in for a component whose plugin runs in a worker process.
@MainActor
final class IsolatedComponent: ForeignComponent {
    private weak var plugin: IsolatedPlugin?
    private var instance = 0

    func bind(plugin: IsolatedPlugin, instance: Int) {
        self.plugin = plugin
        self.instance = instance
    }

    /// The id of the last message handed to the worker (excluded from a replay after a crash).
    private var lastDelivered: String?

    override func deliver(_ message: Message) {
        if let plugin, plugin.refusal != nil { return plugin.drop(message) }
        lastDelivered = message.id
        super.deliver(message)
    }

    override func forward(messageJSON: String) {
        plugin?.send(receive: instance, wire: messageJSON, message: nil)
    }

    override func forward(_ message: Message, wire: String) {
        plugin?.send(receive: instance, wire: wire, message: message)
    }

    override func forward(lifecycle event: strada_lifecycle_event) {
        plugin?.send(.lifecycle(instance: instance, event: Int(event)))
    }

    override func forwardActivation(controlID: String) {
        plugin?.send(.activated(instance: instance, control: controlID))
    }

    override func forwardControlEvent(controlID: String, eventJSON: String) {
        plugin?.send(.controlEvent(instance: instance, control: controlID, eventJSON: eventJSON))
    }

    override func destroyInstance() {
        plugin?.detach(instance: instance)
    }

    /// After a worker restart: the page is shown, and every cached message is delivered again.
    func replayState(excludingLastDelivered: Bool) {
        lifecycle(.viewDidLoad)
        lifecycle(.viewWillAppear)
        lifecycle(.viewDidAppear)
        let suspect = excludingLastDelivered ? lastDelivered : nil
        for message in cachedMessages where message.id != suspect { deliver(message) }
    }
}
