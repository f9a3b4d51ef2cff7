/// What a component needs from the page that owns it: replying, and the page's native controls.
@MainActor
public protocol BridgingDelegate: AnyObject {
    /// The URL the page was opened with.
    var location: String { get }
    /// The page (destination) that owns the component; `nil` once it is gone.
    var destination: (any BridgeDestination)? { get }
    /// Sends `message` to the web view's `replyWith`. `false`: dropped before the web view (logged).
    func reply(with message: Message) -> Bool
    /// Like ``reply(with:)``; `completion` gets `.success(true)` once the script was evaluated without error,
    /// `.success(false)` when the reply was dropped before the web view (logged), `.failure` when
    /// evaluating it failed.
    func reply(with message: Message, completion: @escaping @MainActor (Result<Bool, any Error>) -> Void)
}

/// A page shown in the host window: owns the components created for it.
@MainActor
public protocol BridgeDestination: AnyObject {
    /// The native controls the component `componentName` of this page may use, or `nil` where there are
    /// none (unit tests, headless probes).
    func nativeControls(for componentName: String) -> ComponentControls?
}

extension BridgeDestination {
    public func nativeControls(for componentName: String) -> ComponentControls? { nil }
}

/// The page lifecycle events a component sees, in the order a shown page gets them.
package enum LifecycleEvent: Int, Sendable, CaseIterable {
    case viewDidLoad, viewWillAppear, viewDidAppear, viewWillDisappear, viewDidDisappear
}

/// What a `BridgeDelegate` routes to for one component name: the narrow seam between routing and a
/// component. ``BridgeComponent`` adopts it; a plugin host's proxies implement it directly and forward the
/// message's wire text to the plugin unchanged.
@MainActor
package protocol ComponentEndpoint: AnyObject {
    /// The name messages are routed by, e.g. "form".
    var componentName: String { get }
    /// A message from the page for this component.
    func deliver(_ message: Message)
    /// The page's lifecycle.
    func lifecycle(_ event: LifecycleEvent)
    /// The page is gone for good: release native resources. Called once, last.
    func destroy()
    /// The last message received for each event, oldest first: what a replacement instance replays (hot
    /// reload) to reach the state the page expects.
    var cachedMessages: [Message] { get }
}

/// The last message received for each event: the one cache a component (or a plugin proxy) keeps.
///
/// A component sees a handful of events, so they are kept in a short list searched in order (a string
/// comparison is far cheaper than hashing one, and this runs for every message); past
/// ``MessageCache/listLimit`` events (a page inventing event names) it switches to a dictionary.
package struct MessageCache: Sendable {
    private var list: [Message] = []
    private var byEvent: [String: Message]?
    /// The most events kept in the list.
    package static let listLimit = 16

    package init() {}

    package mutating func store(_ message: Message) {
        if byEvent != nil {
            byEvent![message.event] = message
        } else if let index = list.firstIndex(where: { $0.event == message.event }) {
            list[index] = message
        } else if list.count < Self.listLimit {
            list.append(message)
        } else {
            var all = Dictionary(uniqueKeysWithValues: list.map { ($0.event, $0) })
            all[message.event] = message
            byEvent = all
            list = []
        }
    }

    package func message(for event: String) -> Message? {
        if let byEvent { return byEvent[event] }
        return list.first { $0.event == event }
    }

    /// Every cached message, oldest first (by numeric id, as the page numbers them).
    package var inArrivalOrder: [Message] {
        (byEvent.map { Array($0.values) } ?? list).sorted { a, b in
            if let x = Int(a.id), let y = Int(b.id) { return x < y }
            return a.id < b.id
        }
    }
}

/// A native component: receives the messages its web counterpart sends and replies to them.
///
/// Subclass it exactly as in the upstream docs: override `class var name` and `onReceive(message:)`.
@MainActor
open class BridgeComponent: ComponentEndpoint {
    /// The name the web component uses, e.g. "form". Every subclass must override it.
    nonisolated open class var name: String {
        fatalError("\(Self.self) must override `class var name`")
    }

    /// The name messages are routed by: `Self.name`.
    nonisolated public var componentName: String { Self.name }

    /// The page that owns this component; `nil` once it is gone. Weak: a component never keeps its page alive.
    @exclusivity(unchecked) public private(set) weak var destination: (any BridgeDestination)?
    /// How this component replies. Weak: a component never keeps its page alive.
    @exclusivity(unchecked) public private(set) weak var delegate: (any BridgingDelegate)?

    @exclusivity(unchecked) private var receivedMessages = MessageCache()

    public required init(destination: any BridgeDestination, delegate: any BridgingDelegate) {
        self.destination = destination
        self.delegate = delegate
    }

    /// This component's native controls (ids namespaced by component name), or `nil` where the page has none.
    public var controls: ComponentControls? {
        destination?.nativeControls(for: componentName)
    }

    /// Override to handle a message. Called after the message was cached as the last one for its event.
    open func onReceive(message: Message) {}

    // MARK: Lifecycle (forwarded from the page; empty by default)
    open func onViewDidLoad() {}
    open func onViewWillAppear() {}
    open func onViewDidAppear() {}
    open func onViewWillDisappear() {}
    open func onViewDidDisappear() {}
    /// The page that owned this component is gone for good: release native resources. Called once.
    open func onDestroy() {}

    /// Caches `message` as the last one received for its event, then calls ``onReceive(message:)``.
    public func didReceive(message: Message) {
        receivedMessages.store(message)
        onReceive(message: message)
    }

    /// Every cached last-message-per-event, oldest first (by numeric id): what a replacement instance
    /// needs to replay to reach the state the page expects.
    package var cachedMessages: [Message] { receivedMessages.inArrivalOrder }

    /// The last message received for `event`, if any.
    public func receivedMessage(for event: String) -> Message? {
        receivedMessages.message(for: event)
    }

    // MARK: ComponentEndpoint

    package func deliver(_ message: Message) { didReceive(message: message) }

    package func lifecycle(_ event: LifecycleEvent) {
        switch event {
        case .viewDidLoad: onViewDidLoad()
        case .viewWillAppear: onViewWillAppear()
        case .viewDidAppear: onViewDidAppear()
        case .viewWillDisappear: onViewWillDisappear()
        case .viewDidDisappear: onViewDidDisappear()
        }
    }

    package func destroy() { onDestroy() }

    // MARK: Replies

    /// Replies with the last message received for `event`, unchanged. `false` if none was received or
    /// the page is gone.
    @discardableResult
    public func reply(to event: String) -> Bool {
        guard let message = cachedMessage(for: event) else { return false }
        return reply(with: message)
    }

    /// Replies to `event` with new data text.
    @discardableResult
    public func reply(to event: String, with jsonData: String) -> Bool {
        guard let message = cachedMessage(for: event) else { return false }
        return reply(with: message.replacing(jsonData: jsonData))
    }

    /// Replies to `event` with `data` encoded by `Strada.config.jsonEncoder`.
    @discardableResult
    public func reply<T: Encodable>(to event: String, with data: T) -> Bool {
        guard let message = cachedMessage(for: event) else { return false }
        return reply(with: message.replacing(data: data))
    }

    /// Sends exactly `message`. `false` if the page is gone (logged).
    @discardableResult
    public func reply(with message: Message) -> Bool {
        guard let delegate else {
            Strada.config.logger.warning("reply from \(componentName) dropped: its page is gone")
            return false
        }
        return delegate.reply(with: message)
    }

    // MARK: Replies with completion (upstream's semantics)

    /// The result of a reply: `.success(true)` evaluated in the page without error; `.success(false)`
    /// dropped before the web view (no cached message, page gone; logged); `.failure` evaluation failed.
    public typealias ReplyCompletionHandler = @MainActor (Result<Bool, any Error>) -> Void

    public func reply(to event: String, completion: @escaping ReplyCompletionHandler) {
        guard let message = cachedMessage(for: event) else { return completion(.success(false)) }
        reply(with: message, completion: completion)
    }

    public func reply(to event: String, with jsonData: String, completion: @escaping ReplyCompletionHandler) {
        guard let message = cachedMessage(for: event) else { return completion(.success(false)) }
        reply(with: message.replacing(jsonData: jsonData), completion: completion)
    }

    public func reply<T: Encodable>(to event: String, with data: T, completion: @escaping ReplyCompletionHandler) {
        guard let message = cachedMessage(for: event) else { return completion(.success(false)) }
        reply(with: message.replacing(data: data), completion: completion)
    }

    public func reply(with message: Message, completion: @escaping ReplyCompletionHandler) {
        guard let delegate else {
            Strada.config.logger.warning("reply from \(componentName) dropped: its page is gone")
            return completion(.success(false))
        }
        delegate.reply(with: message, completion: completion)
    }

    // MARK: Async replies (upstream's semantics, as the completion variants)

    @discardableResult
    public func reply(to event: String) async throws -> Bool {
        try await withCheckedThrowingContinuation { continuation in
            reply(to: event) { continuation.resume(with: $0) }
        }
    }

    @discardableResult
    public func reply(to event: String, with jsonData: String) async throws -> Bool {
        try await withCheckedThrowingContinuation { continuation in
            reply(to: event, with: jsonData) { continuation.resume(with: $0) }
        }
    }

    @discardableResult
    public func reply<T: Encodable>(to event: String, with data: T) async throws -> Bool {
        try await withCheckedThrowingContinuation { continuation in
            reply(to: event, with: data) { continuation.resume(with: $0) }
        }
    }

    @discardableResult
    public func reply(with message: Message) async throws -> Bool {
        try await withCheckedThrowingContinuation { continuation in
            reply(with: message) { continuation.resume(with: $0) }
        }
    }

    private func cachedMessage(for event: String) -> Message? {
        guard let message = receivedMessages.message(for: event) else {
            Strada.config.debug(
                "reply from \(componentName) to \"\(event)\" dropped: no \"\(event)\" message received yet")
            return nil
        }
        return message
    }
}

/// How a delegate creates a component for a name: from a `BridgeComponent` type, or (for plugins) any factory.
package struct ComponentRegistration: Sendable {
    package typealias Factory =
        @MainActor @Sendable (any BridgeDestination, any BridgingDelegate) -> any ComponentEndpoint
    /// Why a page at a URL may not use the component (a plugin granted to other origins only), or `nil`.
    package typealias PageCheck = @MainActor @Sendable (_ pageURL: String) -> String?
    package let name: String
    package let make: Factory
    /// `nil`: every page the bridge serves may use it.
    package let pageCheck: PageCheck?

    package init(name: String, pageCheck: PageCheck? = nil, make: @escaping Factory) {
        self.name = name
        self.make = make
        self.pageCheck = pageCheck
    }

    /// Why a page at `url` may not use this component, or `nil` when it may.
    @MainActor
    package func refusal(forPage url: String) -> String? { pageCheck?(url) }

    /// Names in registration order, first registration of a name only.
    package static func uniqueNames(_ registrations: [ComponentRegistration]) -> [String] {
        registrations.map(\.name).uniqued()
    }

    /// The names a page at `url` may use, in registration order (a component granted to other origins only is
    /// left out): what its user agent announces.
    @MainActor
    package static func names(servedTo url: String, _ registrations: [ComponentRegistration]) -> [String] {
        registrations.filter { $0.refusal(forPage: url) == nil }.map(\.name).uniqued()
    }

    @MainActor
    package init(_ type: BridgeComponent.Type) {
        self.init(name: type.name) { destination, delegate in type.init(destination: destination, delegate: delegate) }
    }
}

extension Sequence where Element: Hashable {
    /// The elements in order, each only at its first occurrence.
    package func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
