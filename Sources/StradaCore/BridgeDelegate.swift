package import Logging

/// The per-page router: one per destination (page load). Owns that page's component instances, creates
/// them lazily (one per name), and drops messages that do not belong to it.
@MainActor
package final class BridgeDelegate: BridgingDelegate {
    package let location: String
    /// The page this delegate routes for. Weak: the page owns its delegate, not the other way round.
    @exclusivity(unchecked) package private(set) weak var destination: (any BridgeDestination)?
    /// The bridge of the web view this page currently owns; `nil` when it has none.
    @exclusivity(unchecked) package private(set) weak var bridge: Bridge?

    private let registrations: [ComponentRegistration]
    @exclusivity(unchecked) private var components: [String: any ComponentEndpoint] = [:]
    @exclusivity(unchecked) private var isActive = false
    /// Where the last message went: messages come in runs to one component, and comparing a name is cheaper
    /// than hashing it. Forgotten whenever a component is removed.
    @exclusivity(unchecked) private var lastRouted: (name: String, component: any ComponentEndpoint)?
    /// The logger passed in, else `Strada.config.logger` as it is when a line is written.
    private var logger: Logger { explicitLogger ?? Strada.config.logger }
    private let explicitLogger: Logger?
    /// Set by ``destroyComponents()``: a destroyed page never replies again.
    @exclusivity(unchecked) private var isDestroyed = false
    /// The components this page may not use (not granted to its origin) that it has said so for: once each.
    @exclusivity(unchecked) private var withheldSaid: Set<String> = []
    /// Called once per component, right after it is created (tests).
    package var onComponentInitialized: (@MainActor (any ComponentEndpoint) -> Void)?

    /// A delegate for `componentTypes`, as upstream.
    package convenience init(
        location: String, destination: any BridgeDestination, componentTypes: [BridgeComponent.Type],
        logger: Logger? = nil
    ) {
        self.init(
            location: location, destination: destination, components: componentTypes.map(ComponentRegistration.init),
            logger: logger)
    }

    /// A delegate for any component registrations (plugin proxies included). The first registration of a name wins.
    package init(
        location: String, destination: any BridgeDestination, components: [ComponentRegistration], logger: Logger? = nil
    ) {
        self.location = location
        self.destination = destination
        self.registrations = components
        explicitLogger = logger
    }

    /// The registered component names, in registration order, without duplicates.
    package var componentNames: [String] {
        ComponentRegistration.uniqueNames(registrations)
    }

    /// The existing component of type `C`, if it was created and the page is active.
    package func component<C: BridgeComponent>() -> C? {
        guard isActive else { return nil }
        return components.values.lazy.compactMap { $0 as? C }.first
    }

    /// The existing component for `name`, if it was created and the page is active.
    package func component(named name: String) -> BridgeComponent? {
        guard isActive else { return nil }
        return components[name] as? BridgeComponent
    }

    // MARK: Web view ownership

    /// This page now owns the web view behind `bridge`: it becomes active and the bridge routes to it.
    package func webViewDidBecomeActive(_ bridge: Bridge) {
        self.bridge = bridge
        bridge.delegate = self
        isActive = true
    }

    /// This page lost its web view: inactive, and replies from its components are dropped.
    package func webViewDidBecomeDeactivated() {
        if bridge?.delegate === self { bridge?.delegate = nil }
        bridge = nil
        isActive = false
    }

    /// The page is gone for good: deactivates it and calls `onDestroy()` on each component, then drops them.
    package func destroyComponents() {
        isActive = false
        isDestroyed = true
        let existing = components
        components.removeAll()
        lastRouted = nil
        for name in existing.keys.sorted() { existing[name]!.destroy() }
    }

    /// Destroys this page's instance of `name`, if any (its plugin is gone). `false` if there was none.
    @discardableResult
    package func destroyComponent(named name: String) -> Bool {
        lastRouted = nil
        guard let component = components.removeValue(forKey: name) else { return false }
        component.destroy()
        return true
    }

    /// Replaces the instance of component `name` with a new one from its registration (hot reload): the old
    /// instance is destroyed, the new one is created and gets the page's lifecycle state and every cached
    /// last-message-per-event replayed in arrival order, so it shows what the page expects (e.g. the native
    /// button reappears with its last title). `false` if this page has no instance of `name`.
    @discardableResult
    package func reloadComponent(named name: String) -> Bool {
        lastRouted = nil
        guard let old = components.removeValue(forKey: name) else { return false }
        let replay = old.cachedMessages
        old.destroy()
        guard let fresh = getOrCreateComponent(named: name) else { return false }
        if isActive {
            fresh.lifecycle(.viewDidLoad)
            fresh.lifecycle(.viewWillAppear)
            fresh.lifecycle(.viewDidAppear)
        }
        for message in replay { fresh.deliver(message) }
        return true
    }

    // MARK: Lifecycle

    package func onViewDidLoad() { isActive = true; forEach { $0.lifecycle(.viewDidLoad) } }
    package func onViewWillAppear() { isActive = true; forEach { $0.lifecycle(.viewWillAppear) } }
    package func onViewDidAppear() { isActive = true; forEach { $0.lifecycle(.viewDidAppear) } }
    package func onViewWillDisappear() { forEach { $0.lifecycle(.viewWillDisappear) } }
    package func onViewDidDisappear() { forEach { $0.lifecycle(.viewDidDisappear) }; isActive = false }

    private func forEach(_ body: (any ComponentEndpoint) -> Void) {
        guard isActive else { return }
        for name in components.keys.sorted() { body(components[name]!) }
    }

    // MARK: From the bridge

    /// The page's adapter said "ready": announce the component names this page may use (a plugin granted to
    /// other origins only is not announced). Creates no component.
    /// Each component withheld from this page is said once, in one line (not only under `--trace`).
    package func bridgeDidInitialize() {
        let pageURL = bridge?.webView?.currentURL ?? location
        let names = registrations.filter { registration in
            guard let refusal = registration.refusal(forPage: pageURL) else { return true }
            sayWithheld(registration.name, refusal, pageURL: pageURL)
            return false
        }
        bridge?.register(components: ComponentRegistration.uniqueNames(names))
    }

    /// The one line for a component this page may not use, the first time it comes up on this page.
    private func sayWithheld(_ name: String, _ refusal: String, pageURL: String) {
        guard withheldSaid.insert(name).inserted else { return }
        logger.warning("not announced to \(pageURL): \(refusal)")
    }

    /// Routes `message` by the rules in docs/protocol.md ("Routing"). `true` when a component handled it.
    @discardableResult
    package func bridgeDidReceiveMessage(_ message: Message) -> Bool {
        route(message, liveURL: bridge?.webView?.currentURL)
    }

    /// ``bridgeDidReceiveMessage(_:)`` from the bridge, which knows its web view's live URL (one weak
    /// reference fewer to follow per message).
    @discardableResult
    package func route(_ message: Message, liveURL: String?) -> Bool {
        guard isActive else {
            drop(message, "its page is not active")
            return false
        }
        let pageURL = liveURL ?? location
        guard let messageURL = message.metadata?.url else {
            drop(message, "it has no data.metadata.url")
            return false
        }
        guard URLMatching.samePage(messageURL, pageURL) else {
            drop(message, "it was sent from \(messageURL), the page is \(pageURL)")
            return false
        }
        guard let component = getOrCreateComponent(named: message.component, pageURL: pageURL) else {
            drop(message, refusal(of: message.component, pageURL: pageURL))
            return false
        }
        component.deliver(message)
        return true
    }

    private func drop(_ message: Message, _ reason: String) {
        Strada.config.debug("ignored \(message.component)/\(message.event) #\(message.id): \(reason)", logger: logger)
        bridge?.observer?(.dropped(message, reason: reason))
    }

    /// Why no component took a message to `name` from the page at `pageURL`.
    private func refusal(of name: String, pageURL: String) -> String {
        guard let registration = registrations.first(where: { $0.name == name }) else {
            return "no component named \"\(name)\" is registered"
        }
        guard let refusal = registration.refusal(forPage: pageURL) else {
            return "component \"\(name)\" could not be created"
        }
        sayWithheld(name, refusal, pageURL: pageURL)
        return refusal
    }

    /// The page's component `name`, created on its first message; `nil` when none is registered or the page
    /// at `pageURL` (when given) may not use it.
    private func getOrCreateComponent(named name: String, pageURL: String? = nil) -> (any ComponentEndpoint)? {
        if let lastRouted, lastRouted.name == name { return lastRouted.component }
        if let existing = components[name] {
            lastRouted = (name, existing)
            return existing
        }
        guard let registration = registrations.first(where: { $0.name == name }) else { return nil }
        if let pageURL, registration.refusal(forPage: pageURL) != nil { return nil }
        guard let destination else { return nil }
        let component = registration.make(destination, self)
        components[name] = component
        lastRouted = (name, component)
        onComponentInitialized?(component)
        return component
    }

    // MARK: Replies

    /// The bridge, if this page is its live owner: not destroyed, and the page the bridge routes to now.
    /// Anything else (a popped or covered screen, a page whose web view another page took) must not reply.
    private func liveBridge(for message: Message) -> Bridge? {
        let why: String
        if isDestroyed {
            why = "its page was destroyed"
        } else if let bridge, bridge.delegate === self {
            return bridge
        } else {
            why = "the page has no web view any more"
        }
        logger.warning("reply \(message.component)/\(message.event) #\(message.id) dropped: \(why)")
        return nil
    }

    package func reply(with message: Message) -> Bool {
        guard let bridge = liveBridge(for: message) else { return false }
        return bridge.reply(with: message)
    }

    package func reply(with message: Message, completion: @escaping @MainActor (Result<Bool, any Error>) -> Void) {
        guard let bridge = liveBridge(for: message) else { return completion(.success(false)) }
        bridge.reply(with: message, completion: completion)
    }
}
