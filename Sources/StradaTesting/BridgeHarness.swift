public import Logging
public import StradaCore

/// A page with your components over an ``InMemoryWebView``: send it messages as the web would, read what
/// native sent back as values — no web view, no script text.
///
/// The harness owns a `Bridge` on an in-memory web view, a `BridgeDelegate` for the given component
/// types and a ``TestDestination`` whose ``RecordingControls`` show what the components put on screen.
/// The page is active from the start, as after `webViewDidBecomeActive(_:)`.
///
/// ```swift
/// @MainActor @Test func repliesToConnect() throws {
///     let page = BridgeHarness(components: [FormComponent.self], url: "https://app.test/new")
///     let data = #"{"submitTitle":"Send","metadata":{"url":"https://app.test/new"}}"#
///     page.send(Message(id: "1", component: "form", event: "connect", metadata: nil, jsonData: data))
///     #expect(page.controls.press("form.submit"))
///     #expect(page.replies.map(\.id) == ["1"])
/// }
/// ```
@MainActor
public final class BridgeHarness {
    /// The web view the bridge evaluates its adapter calls in; set its `currentURL` or `evaluationError`
    /// to play a redirect or a failing page.
    public let webView: InMemoryWebView
    /// The bridge under test.
    package let bridge: Bridge
    /// The page: creates the components and routes messages to them by the URL rule.
    package let delegate: BridgeDelegate
    /// Where the components show their native controls.
    public let destination: TestDestination

    /// Sets up a page at `url` with `components`. `logger` and `limits` go to the bridge and the delegate
    /// as in production; by default, `Strada.config.logger` and the default limits.
    public init(
        components: [BridgeComponent.Type], url: String = "https://app.test/", logger: Logger? = nil,
        limits: BridgeLimits = BridgeLimits()
    ) {
        webView = InMemoryWebView(url: url)
        bridge = Bridge(webView: webView, logger: logger, limits: limits)
        destination = TestDestination()
        delegate = BridgeDelegate(location: url, destination: destination, componentTypes: components, logger: logger)
        delegate.webViewDidBecomeActive(bridge)
    }

    // MARK: Web → native

    /// Hands `text` to the bridge exactly as the page's message channel would: a wire message
    /// (`{"id", "component", "event", "data"}`), `"ready"`, or anything malformed.
    public func send(json text: String) {
        bridge.receive(json: text)
    }

    /// Sends `message` as the page would: its wire form through the bridge. Its `metadata` travels inside
    /// `jsonData` as on the wire, so give it `{"metadata":{"url":…}}` for it to reach a component.
    public func send(_ message: Message) {
        let fields = [("id", message.id), ("component", message.component), ("event", message.event)]
        let head = fields.map { JSON.string($0.0).serialized() + ":" + JSON.string($0.1).serialized() }
        send(json: "{" + head.joined(separator: ",") + #","data":"# + message.jsonData + "}")
    }

    // MARK: Native → web

    /// Every call the bridge made into the page's adapter, in order.
    public var calls: [BridgeCall] { webView.bridgeCalls }

    /// Every reply native sent to the page, in order.
    public var replies: [Message] {
        calls.compactMap(\.message)
    }

    /// The most recent reply, if any.
    public var lastReply: Message? { replies.last }

    /// The component names of each `register` call, in order.
    public var registrations: [[String]] {
        calls.compactMap { if case .register(let names) = $0 { names } else { nil } }
    }

    /// The component name of each `unregister` call, in order.
    public var unregistrations: [String] {
        calls.compactMap { if case .unregister(let name) = $0 { name } else { nil } }
    }

    /// The native controls the components showed; press, choose, answer and type in them like a user.
    public var controls: RecordingControls { destination.recordedControls }

    /// The page's component of type `C`, once a message created it.
    public func component<C: BridgeComponent>() -> C? { delegate.component() }

    /// Forgets the calls recorded so far.
    public func clear() { webView.clear() }
}

/// One call the bridge made into the page's adapter (`window.nativeBridge`), decoded from the script it
/// evaluated.
public enum BridgeCall: Sendable, Equatable {
    /// `register([names])`: these components are available natively.
    case register([String])
    /// `unregister(name)`: this component is no longer available.
    case unregister(String)
    /// `replyWith(message)`: a reply to the page.
    case reply(Message)
    /// A script that is none of the adapter calls, as evaluated (the bridge never evaluates one).
    case other(String)

    /// The message, when this call is a reply.
    public var message: Message? {
        if case .reply(let message) = self { message } else { nil }
    }

    /// Decodes one script the bridge evaluated: a `replyWithJSON` batch is one ``reply(_:)`` per message.
    public static func calls(in script: String) -> [BridgeCall] {
        guard let argument = argument(of: "replyWithJSON", in: script),
            let text = (try? JSON(parsing: argument))?.stringValue,
            let elements = JSON.arrayElements(text), !elements.isEmpty
        else { return [BridgeCall(script: script)] }
        var calls: [BridgeCall] = []
        for element in elements {
            guard let message = try? Message(wireText: element) else { return [.other(script)] }
            calls.append(.reply(message))
        }
        return calls
    }

    /// Decodes one script the bridge evaluated (a batch of one reply is that reply; see ``calls(in:)``).
    public init(script: String) {
        if Self.argument(of: "replyWithJSON", in: script) != nil {
            let calls = Self.calls(in: script)
            self = calls.count == 1 ? calls[0] : .other(script)
            return
        }
        if let argument = Self.argument(of: "register", in: script),
            case .array(let items)? = try? JSON(parsing: argument)
        {
            let names = items.compactMap(\.stringValue)
            self = names.count == items.count ? .register(names) : .other(script)
        } else if let argument = Self.argument(of: "unregister", in: script),
            let name = (try? JSON(parsing: argument))?.stringValue
        {
            self = .unregister(name)
        } else if let argument = Self.argument(of: "replyWith", in: script),
            let text = Self.parsedText(argument), let message = try? Message(wireText: text)
        {
            self = .reply(message)
        } else {
            self = .other(script)
        }
    }

    /// The JSON text inside `JSON.parse("…")` (how replies reach the page), or `argument` itself.
    private static func parsedText(_ argument: String) -> String? {
        let prefix = "JSON.parse("
        guard argument.hasPrefix(prefix), argument.hasSuffix(")") else { return argument }
        return (try? JSON(parsing: String(argument.dropFirst(prefix.count).dropLast())))?.stringValue
    }

    /// The text between `window.nativeBridge.<function>(` and the closing parenthesis.
    private static func argument(of function: String, in script: String) -> String? {
        let prefix = "window.nativeBridge.\(function)("
        guard script.hasPrefix(prefix), script.hasSuffix(")") else { return nil }
        return String(script.dropFirst(prefix.count).dropLast())
    }
}

extension InMemoryWebView {
    /// The scripts evaluated so far, decoded as adapter calls.
    public var bridgeCalls: [BridgeCall] { evaluatedScripts.flatMap(BridgeCall.calls(in:)) }
}
