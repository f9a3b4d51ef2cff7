/// The script the engine injects at document start in the top frame: installs `window.nativeBridge`,
/// says "ready" through the message channel, and attaches to whichever web library the page loads
/// (`window.HotwireNative.web` or `window.Strada.web`), before or after this script ran.
public enum AdapterScript {
    /// The DOM event the page-world adapter hands messages to the relay with.
    public static let relayEvent = "strada-linux:post"
    /// The adapter asks whether the relay is there; the relay answers with ``relayReadyEvent``. The two
    /// scripts live in different worlds, and WebKit does not order their injection, so either may run first.
    static let helloEvent = "strada-linux:hello"
    static let relayReadyEvent = "strada-linux:relay"

    /// The relay: runs in an isolated script world (invisible to the page's scripts and to iframes), in the
    /// top frame only, and is the only code that can reach the engine's message handler `channel`.
    /// It forwards the JSON text the adapter dispatches on `document`.
    public static func relaySource(channel: String = "strada") -> String {
        let channelLiteral = JSON.string(channel).serialized()
        let eventLiteral = JSON.string(relayEvent).serialized()
        return """
        (function () {
          "use strict";
          var handler = window.webkit.messageHandlers[\(channelLiteral)];
          document.addEventListener(\(eventLiteral), function (event) {
            if (typeof event.detail === "string") handler.postMessage(event.detail);
          }, true);
          function announce() { document.dispatchEvent(new CustomEvent(\(JSON.string(relayReadyEvent).serialized()))); }
          document.addEventListener(\(JSON.string(helloEvent).serialized()), announce, true);
          announce();
        })();
        """
    }

    /// The adapter source for `platform`. It runs in the page's world and sends each message as JSON text
    /// to the relay (``relaySource(channel:)``) through a DOM event on `document`.
    public static func source(platform: String = "linux") -> String {
        let platformLiteral = JSON.string(platform).serialized()
        let eventLiteral = JSON.string(relayEvent).serialized()
        return """
        (function () {
          "use strict";
          if (window.nativeBridge && window.nativeBridge.__stradaLinux) return;
          var dispatch = document.dispatchEvent.bind(document);
          var stringify = JSON.stringify;
          var relayed = false;
          var waiting = [];
          function send(text) { dispatch(new CustomEvent(\(eventLiteral), { detail: text })); }
          document.addEventListener(\(JSON.string(relayReadyEvent).serialized()), function () {
            if (relayed) return;
            relayed = true;
            var queued = waiting;
            waiting = [];
            for (var i = 0; i < queued.length; i++) send(queued[i]);
          }, true);
          var channel = {
            postMessage: function (message) {
              var text = stringify(message);
              if (relayed) send(text); else waiting.push(text);
            }
          };
          dispatch(new CustomEvent(\(JSON.string(helloEvent).serialized())));
          var resolveRegistered;
          var registered = new Promise(function (resolve) { resolveRegistered = resolve; });
          var attachedTo = null;
          function webBridge() {
            return (window.HotwireNative && window.HotwireNative.web) || (window.Strada && window.Strada.web) || null;
          }
          function attach() {
            registered.then(function () {
              var bridge = webBridge();
              if (bridge && attachedTo !== bridge) { attachedTo = bridge; bridge.setAdapter(adapter); }
            });
          }
          var adapter = {
            __stradaLinux: true,
            platform: \(platformLiteral),
            supportedComponents: [],
            supportsComponent: function (name) { return this.supportedComponents.indexOf(name) !== -1; },
            register: function (names) {
              var list = Array.isArray(names) ? names : [names];
              for (var i = 0; i < list.length; i++) this.supportedComponents.push(list[i]);
              resolveRegistered();
              var bridge = webBridge();
              if (bridge && attachedTo === bridge) bridge.adapterDidUpdateSupportedComponents();
              attach();
            },
            unregister: function (name) {
              var index = this.supportedComponents.indexOf(name);
              if (index === -1) return;
              this.supportedComponents.splice(index, 1);
              var bridge = webBridge();
              if (bridge && attachedTo === bridge) bridge.adapterDidUpdateSupportedComponents();
            },
            receive: function (message) { channel.postMessage(message); },
            replyWith: function (message) {
              var bridge = webBridge();
              if (bridge) bridge.receive(message);
            }
          };
          Object.defineProperty(window, "nativeBridge", { value: adapter, writable: false, configurable: false });
          document.addEventListener("web-bridge:ready", attach);
          channel.postMessage("ready");
          if (webBridge()) attach();
        })();
        """
    }
}

/// The user agent the host announces: engine default, then an optional app prefix, then our product
/// token with the native-app markers and the loaded component names in a comment. The comment form
/// matters: WebKitGTK silently rejects the iOS form (`…; bridge-components: [a b]`) as an invalid header.
public enum UserAgent {
    /// The product token version.
    public static let productVersion = "1.0"

    /// e.g. `StradaLinux/1.0 (Hotwire Native Linux; Turbo Native Linux; bridge-components: [form menu])`.
    public static func suffix(prefix: String? = nil, componentNames: [String]) -> String {
        let product = "StradaLinux/\(productVersion) (Hotwire Native Linux; Turbo Native Linux; \(Strada.userAgentSubstring(forNames: componentNames)))"
        guard let prefix, !prefix.isEmpty else { return product }
        return "\(prefix) \(product)"
    }
}
