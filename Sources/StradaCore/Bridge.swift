import Dispatch
package import Logging

#if canImport(Glibc)
import Glibc
#endif

/// What crosses the bridge, reported to an observer (`--trace`, the automation channel, tests).
package enum BridgeTraffic: Sendable {
    /// The page's adapter said "ready".
    case ready
    /// A well-formed message arrived from the page.
    case received(Message)
    /// Something arrived that is not a message; `raw` is truncated.
    case rejected(raw: String, reason: String)
    /// A well-formed message was not delivered to a component.
    case dropped(Message, reason: String)
    /// A reply was handed to the page's `replyWith`.
    case sent(Message)
    /// The bridge evaluated `register`/`unregister`.
    case registered([String])
    case unregistered(String)
}

/// The native end of one web view: turns channel payloads into messages for the attached page, and
/// replies into the adapter calls (`register`, `unregister`, and `replyWithJSON`, which hands each reply of a
/// batch to `replyWith`) — the only script it runs.
///
/// Performance: the state read and written per message is `@exclusivity(unchecked)` (here, in
/// `BridgeDelegate` and ``BridgeComponent``). These classes live on the main actor and no access to those
/// properties spans a call out of the class, so the law of exclusivity holds by construction; the runtime
/// checks were a measurable share of the per-message instructions (callgrind; figures in docs/engine.md).
@MainActor
package final class Bridge {
    /// The web view; `nil` once it is gone.
    @exclusivity(unchecked) package private(set) weak var webView: (any BridgeWebView)?
    /// The page that owns the web view now.
    @exclusivity(unchecked) package weak var delegate: BridgeDelegate?
    /// Sees all traffic.
    @exclusivity(unchecked) package var observer: (@MainActor (BridgeTraffic) -> Void)?
    /// Called when the page's adapter says "ready" (a document with its scripts freshly run), before the
    /// ``observer`` and the ``delegate`` hear of it: the host's navigator renews stale components here.
    package var onReady: (@MainActor () -> Void)?
    /// The logger passed in, else `Strada.config.logger` as it is when a line is written (set it any time).
    private var logger: Logger { explicitLogger ?? Strada.config.logger }
    private let explicitLogger: Logger?
    private let limits: BridgeLimits
    @exclusivity(unchecked) private var rate: TokenBucket
    private var rejectionLog = LogThrottle(linesPerSecond: 10, linesPerKindPerSecond: 3)

    package init(webView: any BridgeWebView, logger: Logger? = nil, limits: BridgeLimits = BridgeLimits()) {
        self.webView = webView
        explicitLogger = logger
        self.limits = limits
        self.rate = TokenBucket(perSecond: limits.maxMessagesPerSecond)
    }

    // MARK: Inbound

    /// Handles one payload from the message channel, as JSON text: one message, the adapter's `"ready"`, or a
    /// batch — a JSON array of messages the page sent in one task, handled in order. Never throws, never traps;
    /// input beyond the ``BridgeLimits`` (size, depth, rate) is rejected with a log line. Replies produced while
    /// it runs go to the page in one call when it returns.
    ///
    /// Only a lone `"ready"` is the handshake: inside a batch it is a message that is not an object, rejected.
    /// The adapter sends a page's own message that is not an object (`receive([m])`, `receive("ready")`) as a
    /// batch of one, so it is rejected here with one line and never read as a batch or a handshake.
    package func receive(json text: String) {
        collectingReplies {
            guard text.utf8.first == UInt8(ascii: "[") else { return receiveOne(text, lone: true) }
            // Not a well-formed batch: the parser says what is wrong with it.
            guard let elements = JSON.arrayElements(text) else { return receiveOne(text, lone: true) }
            for element in elements { receiveOne(element, lone: false) }
        }
    }

    private func receiveOne(_ text: String, lone: Bool) {
        guard rate.take() else {
            return reject(text, "more than \(limits.maxMessagesPerSecond) messages per second")
        }
        if lone, text.utf8.count == 7, text == #""ready""# {
            onReady?()
            observer?(.ready)
            delegate?.bridgeDidInitialize()
            return
        }
        let message: Message
        do {
            message = try Message(wireText: text, limits: limits.json)
        } catch {
            return reject(text, error.reason)
        }
        observer?(.received(message))
        guard let delegate else {
            Strada.config.debug(
                "ignored \(message.component)/\(message.event) #\(message.id): no page owns this web view",
                logger: logger)
            observer?(.dropped(message, reason: "no page owns this web view"))
            return
        }
        delegate.route(message, liveURL: webView?.currentURL)
    }

    /// A payload the engine side refused to convert because it is larger than the limit (`bytes` long, or
    /// at least that): rejected as if it had arrived, without ever holding it whole. `head` is its start.
    package func rejectOversized(bytes: Int, head: String) {
        guard rate.take() else {
            return reject(head, "more than \(limits.maxMessagesPerSecond) messages per second")
        }
        reject(head + "…", "input is \(bytes) bytes, limit is \(limits.json.maxBytes)")
    }

    /// Logs (throttled, per kind of reason, so every kind shows up) and reports one rejected payload. What
    /// the throttle held back is counted and logged as one line when its second is over.
    private func reject(_ raw: String, _ reason: String) {
        let shown = raw.utf8.count > 120 ? String(decoding: raw.utf8.prefix(120), as: UTF8.self) + "…" : raw
        switch rejectionLog.allow(kind: LogThrottle.kind(of: reason)) {
        case .log:
            logger.warning("rejected a malformed message: \(reason) — payload: \(shown)")
        case .suppressFirst:
            DispatchQueue.main.asyncAfter(deadline: .now() + 1) { [weak self] in
                MainActor.assumeIsolated { self?.logSuppressedRejections() }
            }
        case .suppress:
            break
        }
        observer?(.rejected(raw: shown, reason: reason))
    }

    private func logSuppressedRejections() {
        let (count, kinds) = rejectionLog.takeSuppressed()
        guard count > 0 else { return }
        let which = kinds.joined(separator: "; ")
        logger.warning("\(count) more malformed messages rejected and not logged in the last second (\(which))")
    }

    // MARK: Outbound

    /// Evaluates `window.nativeBridge.register([...])`. `completion` gets `nil`, the page's evaluation
    /// error, or ``BridgeError/webViewGone``.
    package func register(components names: [String], completion: (@MainActor ((any Error)?) -> Void)? = nil) {
        let list = JSON.array(names.map(JSON.string)).serialized()
        observer?(.registered(names))
        flushReplies()
        evaluate("window.nativeBridge.register(\(list))") { completion?($0) }
    }

    /// Evaluates `window.nativeBridge.unregister("name")`; `completion` as for ``register(components:completion:)``.
    package func unregister(component name: String, completion: (@MainActor ((any Error)?) -> Void)? = nil) {
        observer?(.unregistered(name))
        flushReplies()
        evaluate("window.nativeBridge.unregister(\(JSON.string(name).serialized()))") { completion?($0) }
    }

    /// Hands `message` to the page's `replyWith`. `false` when it cannot be sent (logged).
    @discardableResult
    package func reply(with message: Message) -> Bool {
        guard let wire = replyWire(for: message) else { return false }
        observer?(.sent(message))
        enqueueReply(wire, completion: nil)
        return true
    }

    /// Like ``reply(with:)``; `completion` gets `.success(true)` once the page evaluated it without error,
    /// `.success(false)` if it was dropped before the web view (logged), `.failure` if evaluation failed (for a
    /// reply delivered with others, the first error any of them raised).
    package func reply(with message: Message, completion: @escaping @MainActor (Result<Bool, any Error>) -> Void) {
        guard let wire = replyWire(for: message) else { return completion(.success(false)) }
        observer?(.sent(message))
        enqueueReply(wire) { error in completion(error.map { .failure($0) } ?? .success(true)) }
    }

    /// Runs `body`, holding back the replies it produces, then delivers them to the page in one call (in the
    /// order they were made). Nests; the outermost call delivers. ``receive(json:)`` runs in one.
    package func collectingReplies<R>(_ body: () throws -> R) rethrows -> R {
        collecting += 1
        defer {
            collecting -= 1
            if collecting == 0 { flushReplies() }
        }
        return try body()
    }

    /// Replies held back by ``collectingReplies(_:)``, as wire texts, with their total length.
    @exclusivity(unchecked) private var pendingReplies: [String] = []
    @exclusivity(unchecked) private var pendingCompletions: [@MainActor ((any Error)?) -> Void] = []
    @exclusivity(unchecked) private var pendingBytes = 0
    @exclusivity(unchecked) private var collecting = 0
    /// A batch of replies held back is delivered early once its text reaches this size.
    private static let replyBatchBytes = 4 << 20

    private func enqueueReply(_ wire: String, completion: (@MainActor ((any Error)?) -> Void)?) {
        pendingReplies.append(wire)
        if let completion { pendingCompletions.append(completion) }
        pendingBytes += wire.utf8.count
        if collecting == 0 || pendingBytes >= Self.replyBatchBytes { flushReplies() }
    }

    /// Delivers the replies held back, in one call.
    private func flushReplies() {
        guard !pendingReplies.isEmpty else { return }
        let wires = pendingReplies
        let count = wires.count
        let completions = pendingCompletions
        pendingReplies = []
        pendingCompletions = []
        pendingBytes = 0
        guard let webView else {
            for completion in completions { completion(BridgeError.webViewGone) }
            return
        }
        // The logger is looked up only when delivery failed (reading `Strada.config` is not free per message).
        webView.deliverReplies(wires) { [explicitLogger] error in
            if let error {
                (explicitLogger ?? Strada.config.logger).warning("delivering \(count) replies failed: \(error)")
            }
            for completion in completions { completion(error) }
        }
    }

    private func replyWire(for message: Message) -> String? {
        guard webView != nil else {
            logger.warning("reply \(message.component)/\(message.event) #\(message.id) dropped: the web view is gone")
            return nil
        }
        guard let wire = message.wireText() else {
            logger.warning(
                "reply \(message.component)/\(message.event) #\(message.id) dropped: its jsonData is not valid JSON")
            return nil
        }
        // JSON text parsed in the page, not an object literal: a "__proto__" key stays an own property.
        return wire
    }

    private func evaluate(_ script: String, completion: @escaping @MainActor ((any Error)?) -> Void) {
        guard let webView else { return completion(BridgeError.webViewGone) }
        webView.evaluate(javaScript: script) { [logger] error in
            if let error { logger.warning("evaluating a bridge call failed: \(error)") }
            completion(error)
        }
    }
}

/// What the bridge accepts from a page. Defaults: 16 MiB and 512 levels of nesting per message,
/// 100,000 messages per second (a burst beyond that is rejected, logged at most 10 lines a second).
public struct BridgeLimits: Sendable, Hashable {
    public var json: JSONLimits
    public var maxMessagesPerSecond: Int

    public init(json: JSONLimits = .messages, maxMessagesPerSecond: Int = 100_000) {
        self.json = json
        self.maxMessagesPerSecond = maxMessagesPerSecond
    }
}

/// A token bucket: `perSecond` tokens a second, holding at most one second's worth.
struct TokenBucket: Sendable {
    let perSecond: Double
    private var tokens: Double
    private var last: UInt64

    init(perSecond: Int) {
        self.perSecond = Double(perSecond)
        tokens = Double(perSecond)
        last = monotonicNanoseconds()
    }

    mutating func take() -> Bool {
        let now = monotonicNanoseconds()
        tokens = min(perSecond, tokens + Double(now - last) / 1e9 * perSecond)
        last = now
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}

/// Allows `linesPerSecond` log lines a second in all, at most `linesPerKindPerSecond` of each kind, so a
/// flood of one kind cannot hide the others. What it holds back is counted until ``takeSuppressed()``.
struct LogThrottle: Sendable {
    enum Decision: Equatable {
        /// Log this line.
        case log
        /// Do not; the first line held back since the last ``LogThrottle/takeSuppressed()`` (schedule it).
        case suppressFirst
        /// Do not.
        case suppress
    }

    let linesPerSecond: Int
    let linesPerKindPerSecond: Int
    private var windowStart: UInt64 = 0
    private var inWindow = 0
    private var byKind: [String: Int] = [:]
    private var suppressed = 0
    private var suppressedKinds: [String] = []

    init(linesPerSecond: Int, linesPerKindPerSecond: Int? = nil) {
        self.linesPerSecond = linesPerSecond
        self.linesPerKindPerSecond = linesPerKindPerSecond ?? linesPerSecond
    }

    mutating func allow(kind: String = "", now: UInt64 = monotonicNanoseconds()) -> Decision {
        if now - windowStart >= 1_000_000_000 {
            windowStart = now
            inWindow = 0
            byKind = [:]
        }
        let ofKind = byKind[kind, default: 0]
        // A kind not seen in this second is always logged once, even past the overall limit.
        if ofKind == 0 || (inWindow < linesPerSecond && ofKind < linesPerKindPerSecond) {
            inWindow += 1
            byKind[kind] = ofKind + 1
            return .log
        }
        suppressed += 1
        if !suppressedKinds.contains(kind) { suppressedKinds.append(kind) }
        return suppressed == 1 ? .suppressFirst : .suppress
    }

    /// How many lines were held back since the last call, and of which kinds; starts counting again.
    mutating func takeSuppressed() -> (count: Int, kinds: [String]) {
        defer { suppressed = 0; suppressedKinds = [] }
        return (suppressed, suppressedKinds)
    }

    /// The kind of a reason: the reason with each number replaced by "#" ("input is 5 bytes" → "input is #
    /// bytes"), cut at 80 characters.
    static func kind(of reason: String) -> String {
        var kind = ""
        for character in reason.prefix(80) {
            if character.isNumber {
                if kind.last != "#" { kind.append("#") }
            } else {
                kind.append(character)
            }
        }
        return kind
    }
}

func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}
