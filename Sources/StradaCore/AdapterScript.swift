/// The script the engine injects at document start in the top frame: installs `window.nativeBridge`,
/// says "ready" through the message channel, and attaches to whichever web library the page loads
/// (`window.HotwireNative.web` or `window.Strada.web`), before or after this script ran.
public enum AdapterScript {
    /// The adapter source for `platform`, posting to the engine's script-message handler `channel`.
    public static func source(platform: String = "linux", channel: String = "strada") -> String {
        let platformLiteral = JSON.string(platform).serialized()
        let channelLiteral = JSON.string(channel).serialized()
        return """
        (function () {
          "use strict";
          if (window.nativeBridge && window.nativeBridge.__stradaLinux) return;
          var channel = window.webkit.messageHandlers[\(channelLiteral)];
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
