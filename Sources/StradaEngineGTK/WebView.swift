import CWebKitGTK
import Foundation
import StradaCore

/// An error WebKit reported while evaluating script.
package struct ScriptError: Error, CustomStringConvertible, Sendable {
    package let description: String
}

private final class EvaluationBox: @unchecked Sendable {  // created and consumed on the main thread
    let completion: @MainActor ((any Error)?) -> Void
    init(_ completion: @escaping @MainActor ((any Error)?) -> Void) { self.completion = completion }
}

/// A `WebKitWebView` with the bridge's adapter installed: the adapter script at document start in the top
/// frame only, and the `strada` script-message channel whose payloads go to ``onMessage``.
@MainActor
final class WebView: BridgeWebView, AnchorView {
    static let channel = AdapterScript.channel
    /// The isolated script world the message handler and relay live in.
    static let world = "strada-linux"

    /// The web view, owned.
    private let owned: WidgetRef
    var widget: UnsafeMutablePointer<GtkWidget> { owned.pointer }
    /// The same object as ``widget``, as a `WebKitWebView` (no checked cast: it is one).
    var view: UnsafeMutablePointer<WebKitWebView> {
        UnsafeMutableRawPointer(widget).assumingMemoryBound(to: WebKitWebView.self)
    }
    /// Each payload posted to the channel, as JSON text.
    var onMessage: (@MainActor (String) -> Void)?
    /// A payload over ``maxPayloadBytes`` (at least `bytes` long), never made a Swift string; `head` is its start.
    var onOversized: (@MainActor (_ bytes: Int, _ head: String) -> Void)?
    /// Payloads longer than this are not converted (the bridge's own limit; the relay holds the same number).
    var maxPayloadBytes = JSONLimits.messages.maxBytes

    /// The name of the benchmark-only echo channel (see ``installEchoChannel()``).
    static let echoChannel = "stradaEcho"
    /// Its user content manager (scripts, message handlers), owned: the reference its `…_new` returned.
    private let ownedContentManager: GObjectRef<OpaquePointer>
    private var contentManager: OpaquePointer { ownedContentManager.pointer }

    /// A web view of `session` (its website data and downloads). `controlledByAutomation`: a web view a
    /// WebDriver session can drive (WebKit's automation, see ``BrowserWindow``'s `init`).
    init(session: NetworkSession, userAgentSuffix: String, controlledByAutomation: Bool = false) {
        let contentManager = webkit_user_content_manager_new()!
        ownedContentManager = GObjectRef(adopting: contentManager)
        // WebDriver: the web context allows automation; the driver controls this view.
        owned = WidgetRef(
            controlledByAutomation
                ? strada_web_view_new_for_automation(contentManager, session.webKitSession)
                : strada_web_view_new(contentManager, session.webKitSession))

        let settings = webkit_web_view_get_settings(view)
        webkit_settings_set_allow_file_access_from_file_urls(settings, 1)
        if ProcessInfo.processInfo.environment["STRADA_WEBKIT_HW_ACCEL"] != "1" {
            webkit_settings_set_hardware_acceleration_policy(settings, WEBKIT_HARDWARE_ACCELERATION_POLICY_NEVER)
        }
        setUserAgentSuffix(userAgentSuffix)
        if ProcessInfo.processInfo.environment["STRADA_CONSOLE"] == "1" {
            webkit_settings_set_enable_write_console_messages_to_stdout(settings, 1)
        }

        // The message handler lives in an isolated world: the page's scripts and iframes cannot post to it.
        // Only the relay (isolated world, top frame) can; the page-world adapter reaches the relay through a
        // DOM event on the top document, which cross-origin iframes cannot dispatch.
        webkit_user_content_manager_register_script_message_handler(contentManager, Self.channel, Self.world)
        onPointerSignal(UnsafeMutableRawPointer(contentManager), "script-message-received::\(Self.channel)") {
            [weak self] value in
            guard let self, let value else { return }
            switch Self.payload(of: value, limit: self.maxPayloadBytes) {
            case .text(let text):
                if let recorder = self.arrivalRecorder {
                    recorder(Self.channel, DispatchTime.now().uptimeNanoseconds, text)
                }
                self.onMessage?(text)
            case .oversized(let bytes, let head):
                self.onOversized?(bytes, head)
            case nil:
                return
            }
        }
        installUserScripts(allowList: [])
        onPointerSignal(UnsafeMutableRawPointer(view), "notify::uri") { [weak self] _ in self?.syncURL() }
    }

    /// The relay (isolated world) and the adapter (page world), top frame only, at document start, on pages
    /// whose URL matches `allowList` (WebKit URL patterns such as "https://app.example/*"; empty: every page).
    func installUserScripts(allowList: [String]) {
        webkit_user_content_manager_remove_all_scripts(contentManager)
        withCStringArray(allowList) { patterns in
            let relay = webkit_user_script_new_for_world(
                AdapterScript.relaySource, WEBKIT_USER_CONTENT_INJECT_TOP_FRAME,
                WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, Self.world, patterns, nil)
            webkit_user_content_manager_add_script(contentManager, relay)
            webkit_user_script_unref(relay)
            let adapter = webkit_user_script_new(
                AdapterScript.source, WEBKIT_USER_CONTENT_INJECT_TOP_FRAME,
                WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, patterns, nil)
            webkit_user_content_manager_add_script(contentManager, adapter)
            webkit_user_script_unref(adapter)
            let turbo = webkit_user_script_new(
                AdapterScript.turboSource, WEBKIT_USER_CONTENT_INJECT_TOP_FRAME,
                WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, patterns, nil)
            webkit_user_content_manager_add_script(contentManager, turbo)
            webkit_user_script_unref(turbo)
        }
    }

    enum Payload {
        case text(String)
        case oversized(bytes: Int, head: String)
    }

    /// A payload of the strada channel. The relay posts the page's JSON text, or, for text over the limit, a
    /// notice `{stradaOversized: length, head: "…"}` (the text itself never leaves the web process). Text
    /// over `limit` bytes is refused before it becomes a Swift string.
    private static func payload(of value: OpaquePointer, limit: Int) -> Payload? {
        if jsc_value_is_object(value) != 0, jsc_value_object_has_property(value, "stradaOversized") != 0 {
            let length = jsc_value_object_get_property(value, "stradaOversized")
            let head = jsc_value_object_get_property(value, "head")
            defer {
                if let length { g_object_unref(UnsafeMutableRawPointer(length)) }
                if let head { g_object_unref(UnsafeMutableRawPointer(head)) }
            }
            let bytes = length.map { Int(jsc_value_to_double($0)) } ?? limit + 1
            let start = head.flatMap { jsc_value_to_string($0) }
            defer { g_free(start) }
            return .oversized(bytes: bytes, head: start.map { String(cString: $0) } ?? "")
        }
        if jsc_value_is_string(value) != 0, let raw = jsc_value_to_string(value) {
            defer { g_free(raw) }
            let bytes = strlen(raw)
            if bytes > limit {
                let start = UnsafeRawPointer(raw).assumingMemoryBound(to: UInt8.self)
                let head = UnsafeBufferPointer(start: start, count: 120)
                return .oversized(bytes: bytes, head: String(decoding: head, as: UTF8.self))
            }
            return .text(String(cString: raw))
        }
        return text(of: value).map(Payload.text)
    }

    /// The payload as JSON text: the relay posts strings holding JSON; anything else is serialised.
    private static func text(of value: OpaquePointer) -> String? {
        if jsc_value_is_string(value) != 0, let raw = jsc_value_to_string(value) {
            defer { g_free(raw) }
            return String(cString: raw)
        }
        guard let json = jsc_value_to_json(value, 0) else { return nil }
        defer { g_free(json) }
        return String(cString: json)
    }

    /// Benchmarks only: a bare engine echo with no bridge, the floor the bridge is measured against.
    /// A payload posted to `window.webkit.messageHandlers.stradaEcho` comes back through
    /// `window.__stradaEcho(payload)` by the same route bridge replies take (JSON text → evaluated script); one
    /// whose JSON starts `{"k":"j"` comes back as the bridge's replies are written, as
    /// `window.__stradaEchoJSON("[payload]")` (a string literal for the page to parse).
    /// `onArrival` sees every payload on both channels, with its arrival time, before anything else runs.
    func installEchoChannel(
        onArrival: @escaping @MainActor (_ channel: String, _ nanoseconds: UInt64, _ text: String) -> Void
    ) {
        arrivalRecorder = onArrival
        webkit_user_content_manager_register_script_message_handler(contentManager, Self.echoChannel, nil)
        // The same handler in the relay's world too, for ``echoRelaySource`` (the floor of the relay's hop).
        webkit_user_content_manager_register_script_message_handler(contentManager, Self.echoChannel, Self.world)
        let relay = webkit_user_script_new_for_world(
            Self.echoRelaySource, WEBKIT_USER_CONTENT_INJECT_TOP_FRAME, WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START,
            Self.world, nil, nil)
        webkit_user_content_manager_add_script(contentManager, relay)
        webkit_user_script_unref(relay)
        onPointerSignal(UnsafeMutableRawPointer(contentManager), "script-message-received::\(Self.echoChannel)") {
            [weak self] value in
            let arrived = DispatchTime.now().uptimeNanoseconds
            guard let self, let value, let text = Self.text(of: value) else { return }
            self.arrivalRecorder?(Self.echoChannel, arrived, text)
            self.arrivalRecorder?(Self.echoReplyMark, DispatchTime.now().uptimeNanoseconds, "")
            // An echo tagged "j" comes back as the bridge's replies do: one string literal of a JSON array.
            let script =
                text.hasPrefix(#"{"k":"j""#)
                ? "window.__stradaEchoJSON" + Self.replyScript([text]).dropFirst(Self.replyCallee.count)
                : "window.__stradaEcho(\(text))"
            self.evaluate(javaScript: script) { _ in }
        }
    }

    private var arrivalRecorder: (@MainActor (String, UInt64, String) -> Void)?

    /// The function the bridge's reply script calls (``replyScript(_:)`` starts with it).
    static let replyCallee = "window.nativeBridge.replyWithJSON"

    /// Benchmarks only: the relay's hop with nothing of the bridge — JSON text dispatched on `document` as
    /// "strada-bench:echo" by the page goes, from the relay's isolated world and as relay.js forwards it, to
    /// the echo channel. Injected with the echo channel only; a page without it never has this listener.
    static let echoRelaySource = """
        (function () {
          "use strict";
          var handler = window.webkit.messageHandlers["\(echoChannel)"];
          var limit = 16777216;
          document.addEventListener("strada-bench:echo", function (event) {
            var text = event.detail;
            if (typeof text !== "string") return;
            if (text.length > limit) return;
            handler.postMessage(text);
          }, true);
        })();
        """

    /// Benchmarks only: the marks `onArrival` also sees when a reply leaves native code, just before it is
    /// handed to WebKit — the bridge's batch of replies (``deliverReplies(_:completion:)``) and the echo's.
    static let replyMark = "reply", echoReplyMark = "echo-reply"

    /// The engine's own user agent with our suffix appended. WebKit silently keeps the old value when the
    /// new one is not a valid header value, so the result is read back: `false` if it did not take.
    @discardableResult
    func setUserAgentSuffix(_ suffix: String) -> Bool {
        let settings = webkit_web_view_get_settings(view)
        webkit_settings_set_user_agent(settings, nil)  // back to the engine default
        let base = String(cString: webkit_settings_get_user_agent(settings))
        let wanted = base + " " + suffix
        webkit_settings_set_user_agent(settings, wanted)
        return userAgent == wanted
    }

    var userAgent: String {
        String(cString: webkit_settings_get_user_agent(webkit_web_view_get_settings(view)))
    }

    /// The live URL, kept from "notify::uri" (the routing rule reads it for every message).
    private(set) var currentURL: String?

    /// Reads the live URL from WebKit again.
    func syncURL() {
        currentURL = webkit_web_view_get_uri(view).map { String(cString: $0) }
    }

    var title: String {
        webkit_web_view_get_title(view).map { String(cString: $0) } ?? ""
    }

    func load(url: String) { webkit_web_view_load_uri(view, url) }
    func reload() { webkit_web_view_reload(view) }

    func evaluate(javaScript: String, completion: @escaping @MainActor ((any Error)?) -> Void) {
        let done: GAsyncReadyCallback = { source, result, userData in
            WebView.finishScript(source, userData) { webkit_web_view_evaluate_javascript_finish($0, result, $1) }
        }
        let box = Unmanaged.passRetained(EvaluationBox(completion)).toOpaque()
        webkit_web_view_evaluate_javascript(view, javaScript, -1, nil, nil, nil, done, box)
    }
}

extension WebView {
    /// One call of `window.nativeBridge.replyWithJSON(replies)` in the page's world with the JSON array of
    /// `replies` (wire texts). Up to ``scriptRepliesBytes`` the call is script text with the array as a string
    /// literal: WebKit's function call costs more to set up, the script more per byte (escaping and compiling
    /// the literal), so small batches go as script and large ones as a call (the measurements behind the
    /// threshold are in docs/engine.md). Above it the
    /// array is the string argument `replies` of a function call: nothing to escape or compile, each text
    /// copied once, into the GLib buffer that the argument then owns.
    func deliverReplies(_ replies: [String], completion: @escaping @MainActor ((any Error)?) -> Void) {
        arrivalRecorder?(Self.replyMark, DispatchTime.now().uptimeNanoseconds, "")
        let length = replies.reduce(replies.count + 1) { $0 + $1.utf8.count }
        if length <= Self.scriptRepliesBytes {
            return evaluate(javaScript: Self.replyScript(replies), completion: completion)
        }
        let done: GAsyncReadyCallback = { source, result, userData in
            WebView.finishScript(source, userData) {
                webkit_web_view_call_async_javascript_function_finish($0, result, $1)
            }
        }
        let buffer = g_malloc(gsize(length + 1))!.assumingMemoryBound(to: CChar.self)
        var offset = 0
        func put(_ byte: UInt8) {
            buffer[offset] = CChar(bitPattern: byte)
            offset += 1
        }
        put(UInt8(ascii: "["))
        for (index, reply) in replies.enumerated() {
            if index > 0 { put(UInt8(ascii: ",")) }
            var reply = reply
            reply.withUTF8 { bytes in
                if let base = bytes.baseAddress { memcpy(buffer + offset, base, bytes.count) }
                offset += bytes.count
            }
        }
        put(UInt8(ascii: "]"))
        buffer[offset] = 0
        let arguments = strada_string_argument_take("replies", buffer)
        let box = Unmanaged.passRetained(EvaluationBox(completion)).toOpaque()
        webkit_web_view_call_async_javascript_function(
            view, Self.replyFunction, -1, arguments, nil, nil, nil, done, box)
    }

    static let replyFunction = "window.nativeBridge.replyWithJSON(replies);"
    /// Reply batches up to this size (JSON text) go as script text, larger ones as a function's argument.
    static let scriptRepliesBytes = 4096

    /// Ends a script call whose user data is a retained `EvaluationBox`: `finish` is the call's WebKit
    /// `…_finish` function; the value is dropped and the box's completion gets the error, if any.
    fileprivate static func finishScript(
        _ source: UnsafeMutablePointer<GObject>?, _ userData: UnsafeMutableRawPointer?,
        _ finish: (UnsafeMutablePointer<WebKitWebView>?, UnsafeMutablePointer<UnsafeMutablePointer<GError>?>)
            -> OpaquePointer?
    ) {
        let box = Unmanaged<EvaluationBox>.fromOpaque(userData!).takeRetainedValue()
        var error: UnsafeMutablePointer<GError>?
        let value = finish(UnsafeMutableRawPointer(source)?.assumingMemoryBound(to: WebKitWebView.self), &error)
        if let value { g_object_unref(UnsafeMutableRawPointer(value)) }
        var failure: ScriptError?
        if let error {
            failure = ScriptError(description: String(cString: error.pointee.message))
            g_error_free(error)
        }
        MainActor.assumeIsolated { box.completion(failure) }
    }
}

/// Calls `body` with a NULL-terminated C array of `strings` (NULL itself when `strings` is empty).
func withCStringArray<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> R) -> R {
    guard !strings.isEmpty else { return body(nil) }
    let copies = strings.map { UnsafePointer(strdup($0)) }
    defer { for copy in copies { free(UnsafeMutablePointer(mutating: copy)) } }
    let array = copies + [nil]
    return array.withUnsafeBufferPointer { body($0.baseAddress) }
}
