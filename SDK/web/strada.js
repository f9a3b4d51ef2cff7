/*
 * Strada for Linux — web library.
 *
 * Our own implementation of the page side of the Strada protocol (docs/protocol.md), API-compatible with
 * @hotwired/strada 1.0.0-beta1 and @hotwired/hotwire-native-bridge 1.x. A classic script: works from
 * file://, without a bundler and without dependencies. See SDK/web/README.md.
 *
 *   window.Strada.web            the web bridge (also window.HotwireNative.web and window.webBridge)
 *   Strada.BridgeComponent       base class of web components: a Stimulus Controller subclass when Stimulus
 *                                is present (window.Stimulus.Controller, or Strada.useStimulus(...)),
 *                                otherwise a framework-free class
 *   Strada.BridgeElement         helpers over an element (title, disabled, bridge attributes, click)
 *   Strada.registerComponent(C)  connect C to every element whose data-controller has "bridge--<name>"
 *   Strada.useStimulus(Controller, application)   choose the Stimulus flavour explicitly
 */
(function () {
  "use strict";
  if (window.Strada && window.Strada.__stradaLinux) return;

  var html = document.documentElement;

  // MARK: - Web bridge

  /** The page-side singleton. Sends component messages through the native adapter, keeps reply callbacks. */
  class WebBridge {
    constructor() {
      this.__stradaLinux = true;
      this.adapter = null;
      this.lastMessageId = 0;
      this.pendingMessages = [];           // sent before an adapter existed, flushed in order by setAdapter
      this.pendingCallbacks = new Map();   // message id -> callback; kept: native may reply many times
      this.connectedComponents = new Set();
      this.sentQueuedMessages = new WeakMap(); // queued message object -> the id it got when flushed
    }

    start() { this.notifyApplicationAfterStart(); }

    notifyApplicationAfterStart() { document.dispatchEvent(new Event("web-bridge:ready")); }

    supportsComponent(component) {
      return this.adapter ? this.adapter.supportsComponent(component) : false;
    }

    /**
     * Sends `{component, event, data, callback}`. Returns the message id; `null` when the message was queued
     * (no adapter yet) or dropped (the native app does not support `component`).
     */
    send(message) {
      if (!this.adapter) {
        this.pendingMessages.push(message);
        return null;
      }
      if (!this.supportsComponent(message.component)) return null;
      var id = this.generateMessageId();
      this.adapter.receive({ id: id, component: message.component, event: message.event, data: message.data || {} });
      if (message.callback) this.pendingCallbacks.set(id, message.callback);
      return id;
    }

    /** A reply from native: runs the callback registered for its id (it stays registered). */
    receive(message) { this.executeCallbackFor(message); }

    executeCallbackFor(message) {
      var callback = message && this.pendingCallbacks.get(message.id);
      if (callback) callback(message);
    }

    removeCallbackFor(messageId) { this.pendingCallbacks.delete(messageId); }

    removePendingMessagesFor(component) {
      this.pendingMessages = this.pendingMessages.filter(function (message) { return message.component !== component; });
    }

    generateMessageId() {
      this.lastMessageId += 1;
      return String(this.lastMessageId);
    }

    /** Called by the native adapter once it registered its components: marks <html>, flushes the queue. */
    setAdapter(adapter) {
      this.adapter = adapter;
      html.dataset.bridgePlatform = adapter.platform;
      this.adapterDidUpdateSupportedComponents();
      var pending = this.pendingMessages;
      this.pendingMessages = [];
      for (var i = 0; i < pending.length; i++) {
        var id = this.send(pending[i]);
        if (id !== null) this.sentQueuedMessages.set(pending[i], id);
      }
    }

    adapterDidUpdateSupportedComponents() {
      if (this.adapter) html.dataset.bridgeComponents = this.adapter.supportedComponents.join(" ");
      registry.reconcile();
    }

    /** Whether `message` (the object given to send) is still waiting in the queue. */
    isPending(message) { return this.pendingMessages.indexOf(message) !== -1; }

    /** Drops these message objects from the queue (one component's, where removePendingMessagesFor drops all of a name). */
    removePendingMessages(messages) {
      this.pendingMessages = this.pendingMessages.filter(function (message) { return messages.indexOf(message) === -1; });
    }

    /** The id a message object that was queued got when it was finally sent, or `null`. */
    idForQueuedMessage(message) {
      var id = this.sentQueuedMessages.get(message);
      return id === undefined ? null : id;
    }

    // hotwire-native-bridge components report their lifetime to the bridge.
    componentDidConnect(component) { this.connectedComponents.add(component); }
    componentDidDisconnect(component) { this.connectedComponents.delete(component); }
  }

  // MARK: - Platform, user agent, opt-out

  /** "linux" in our host: the attribute setAdapter writes, or the adapter's platform before it attached. */
  function currentPlatform() {
    return html.getAttribute("data-bridge-platform") || (window.nativeBridge && window.nativeBridge.platform) || undefined;
  }

  /** "data-controller-optout-<platform>", made once per platform (read on every send). */
  var optOut = { platform: null, name: null };
  function optOutAttribute(platform) {
    if (optOut.platform !== platform) optOut = { platform: platform, name: "data-controller-optout-" + platform };
    return optOut.name;
  }

  /** The names in the user agent's `bridge-components: [a b]`, or `[]`. */
  function userAgentComponents() {
    var match = navigator.userAgent.match(/bridge-components: \[(.*?)\]/);
    return match && match[1] ? match[1].split(" ").filter(Boolean) : [];
  }

  function tokens(value) {
    return (value || "").split(/\s+/).filter(Boolean);
  }

  /**
   * `<html data-controller-optout-linux>` opts every component out on Linux; with a value, only the listed
   * identifiers (`bridge--form`) or component names (`form`).
   */
  function pageOptsOut(identifier, component, knownPlatform) {
    var platform = knownPlatform || currentPlatform();
    if (!platform) return false;
    var name = optOutAttribute(platform);
    if (!html.hasAttribute(name)) return false;
    var listed = tokens(html.getAttribute(name));
    return listed.length === 0 || listed.indexOf(identifier) !== -1 || listed.indexOf(component) !== -1;
  }

  /** Upstream's per-element opt-out: `data-controller-optout-linux="bridge--form"` on the controller element. */
  function elementOptsOut(element, identifier, knownPlatform) {
    var platform = knownPlatform || currentPlatform();
    if (!platform || !element) return false;
    var listed = element.getAttribute(optOutAttribute(platform));
    return listed !== null && tokens(listed).indexOf(identifier) !== -1;
  }

  function activeBridge() {
    return (window.HotwireNative && window.HotwireNative.web) || (window.Strada && window.Strada.web);
  }

  // MARK: - Bridge element

  class BridgeElement {
    constructor(element) { this.element = element; }

    /** data-bridge-title, then aria-label, then textContent, then value; trimmed. */
    get title() {
      return (this.bridgeAttribute("title") || this.attribute("aria-label") || this.element.textContent || this.element.value || "").trim();
    }

    get enabled() { return !this.disabled; }

    /** data-bridge-disabled is "true" or names the current platform ("linux"). */
    get disabled() {
      var disabled = this.bridgeAttribute("disabled");
      return disabled === "true" || (disabled !== null && disabled === this.platform);
    }

    enableForComponent(component) {
      if (component.enabled) this.removeBridgeAttribute("disabled");
    }

    hasClass(className) { return this.element.classList.contains(className); }
    attribute(name) { return this.element.getAttribute(name); }
    bridgeAttribute(name) { return this.attribute("data-bridge-" + name); }
    setBridgeAttribute(name, value) { this.element.setAttribute("data-bridge-" + name, value); }
    removeBridgeAttribute(name) { this.element.removeAttribute("data-bridge-" + name); }

    click() {
      if (this.platform === "android") this.element.removeAttribute("target");
      this.element.click();
    }

    get platform() { return currentPlatform(); }
  }

  // MARK: - Bridge component (one implementation, two bases)

  /** Removes what a component left in the bridge: its reply callbacks, its queued messages, its listener. */
  function cleanUp(component) {
    var bridge = component.bridge;
    if (bridge) {
      component.pendingMessageCallbacks.forEach(function (id) { bridge.removeCallbackFor(id); });
      if (bridge.__stradaLinux) {
        // Our bridge: exactly this component's queued messages, and the callbacks of those already flushed.
        bridge.removePendingMessages(component.queuedMessages);
        component.queuedMessages.forEach(function (message) {
          var id = bridge.idForQueuedMessage(message);
          if (id !== null) bridge.removeCallbackFor(id);
        });
      } else {
        bridge.removePendingMessagesFor(component.component);
      }
      if (typeof bridge.componentDidDisconnect === "function") bridge.componentDidDisconnect(component.component);
    }
    component.pendingMessageCallbacks = [];
    component.queuedMessages = [];
    if (component.__restoreListener) {
      document.removeEventListener("native:restore", component.__restoreListener);
      component.__restoreListener = null;
    }
  }

  /**
   * Builds `BridgeComponent` over `Base`: a Stimulus `Controller`, or `FrameworkFreeBase`. Both flavours have
   * the same API; only who creates and connects instances differs.
   */
  function defineBridgeComponent(Base) {
    class BridgeComponent extends Base {
      /** The component name, e.g. "form"; must match the native component's name. */
      static component = "";

      /** Loads only when the native app announced this component in its user agent (hotwire-native-bridge ≥1.1). */
      static get shouldLoad() {
        return !this.platformOptingOut && userAgentComponents().indexOf(this.component) !== -1;
      }

      /** True when `<html data-controller-optout-linux>` opts this component out of the page. */
      static get platformOptingOut() {
        return pageOptsOut("bridge--" + this.component, this.component);
      }

      constructor() {
        super(...arguments);
        this.pendingMessageCallbacks = [];
        this.queuedMessages = [];
        // Callbacks are removed after disconnect() even when an override does not call super.disconnect().
        var disconnect = this.disconnect;
        if (disconnect !== BridgeComponent.prototype.disconnect) {
          this.disconnect = function () {
            try { return disconnect.apply(this, arguments); } finally { cleanUp(this); }
          };
        }
      }

      initialize() {
        if (!this.pendingMessageCallbacks) this.pendingMessageCallbacks = [];
        if (!this.queuedMessages) this.queuedMessages = [];
      }

      connect() {
        if (this.__restoreListener) document.removeEventListener("native:restore", this.__restoreListener);
        var self = this;
        this.__restoreListener = function () { self.connect(); };
        document.addEventListener("native:restore", this.__restoreListener);
        if (this.bridge && typeof this.bridge.componentDidConnect === "function") this.bridge.componentDidConnect(this.component);
      }

      disconnect() { cleanUp(this); }

      get component() { return this.constructor.component; }

      /** `data-controller-optout-linux="<identifier>"` on the element, or the page-wide opt-out. */
      get platformOptingOut() {
        // Read on every send: the platform once, and an attribute's token list only when it is there.
        var platform = currentPlatform();
        if (!platform) return false;
        return elementOptsOut(this.element, this.identifier, platform) || pageOptsOut(this.identifier, this.component, platform);
      }

      get enabled() {
        return !this.platformOptingOut && !!this.bridge && this.bridge.supportsComponent(this.component);
      }

      get bridgeElement() { return new BridgeElement(this.element); }

      get bridge() { return activeBridge(); }

      /**
       * Sends `event` with a copy of `data` plus `metadata.url`; `callback` runs for every reply to it until
       * the component disconnects. Returns the id, or `null` if queued, unsupported or opted out.
       */
      send(event, data, callback) {
        if (this.platformOptingOut) return null;
        // Own enumerable properties copied as own properties: assigning a "__proto__" key would set the
        // prototype instead (as Object.assign does), so that one key is defined, never assigned.
        var payload = {};
        var source = data || {};
        var keys = Object.keys(source);
        for (var i = 0; i < keys.length; i++) {
          var key = keys[i];
          if (key === "__proto__") {
            Object.defineProperty(payload, key, { value: source[key], enumerable: true, writable: true, configurable: true });
          } else {
            payload[key] = source[key];
          }
        }
        payload.metadata = { url: window.location.href };
        var message = { component: this.component, event: event, data: payload, callback: callback };
        var bridge = this.bridge;
        var id = bridge.send(message);
        if (id !== null && id !== undefined) {
          if (callback) this.pendingMessageCallbacks.push(id);
        } else if (bridge.__stradaLinux && bridge.isPending(message)) {
          this.queuedMessages.push(message);
        }
        return id;
      }

      removePendingCallbacks() {
        var bridge = this.bridge;
        this.pendingMessageCallbacks.forEach(function (id) { bridge.removeCallbackFor(id); });
        this.pendingMessageCallbacks = [];
      }

      removePendingMessages() { this.bridge.removePendingMessagesFor(this.component); }

      /** What disconnecting does: this component's callbacks (queued messages' too) and queued messages. */
      removeBridgeCallbacks() { cleanUp(this); }
    }
    return BridgeComponent;
  }

  /** The framework-free base: `new Component(element)`; the registry connects and disconnects it. */
  class FrameworkFreeBase {
    constructor(element, identifier) {
      this.element = element;
      this.identifier = identifier || "bridge--" + this.constructor.component;
    }
  }

  var FrameworkFreeBridgeComponent = defineBridgeComponent(FrameworkFreeBase);

  // MARK: - Stimulus detection

  var stimulus = { explicit: false, Controller: null, application: null, flavours: new Map() };

  /** The Stimulus Controller class in use: set by useStimulus, else `window.Stimulus.Controller` if any. */
  function stimulusController() {
    if (stimulus.explicit) return stimulus.Controller;
    var global = window.Stimulus;
    return global && typeof global.Controller === "function" ? global.Controller : null;
  }

  /** The application registerComponent registers with: useStimulus's, else `window.Stimulus` if it is one. */
  function stimulusApplication() {
    if (stimulus.application) return stimulus.application;
    var global = window.Stimulus;
    return global && typeof global.register === "function" ? global : null;
  }

  function stimulusFlavour(Controller) {
    var flavour = stimulus.flavours.get(Controller);
    if (!flavour) {
      flavour = defineBridgeComponent(Controller);
      Object.defineProperty(flavour, "__stradaStimulus", { value: Controller });
      stimulus.flavours.set(Controller, flavour);
    }
    return flavour;
  }

  function currentBridgeComponent() {
    var Controller = stimulusController();
    return Controller ? stimulusFlavour(Controller) : FrameworkFreeBridgeComponent;
  }

  /**
   * Use Stimulus: `BridgeComponent` becomes a subclass of `Controller`, and `registerComponent` registers with
   * `application` (optional). `useStimulus(null)` forces the framework-free flavour. Returns BridgeComponent.
   */
  function useStimulus(Controller, application) {
    if (Controller !== null && typeof Controller !== "function") {
      throw new TypeError("Strada.useStimulus(Controller, application): Controller must be the Stimulus Controller class, or null");
    }
    stimulus.explicit = true;
    stimulus.Controller = Controller;
    stimulus.application = application || null;
    return currentBridgeComponent();
  }

  // MARK: - Framework-free registry: data-controller="bridge--<name>"

  var registry = {
    classes: new Map(),    // identifier -> component class
    connected: new Map(),  // element -> Map(identifier -> instance)
    observer: null,

    register: function (componentClass, identifier) {
      this.classes.set(identifier, componentClass);
      this.observe();
      this.reconcile();
    },

    observe: function () {
      if (this.observer) return;
      var self = this;
      this.observer = new MutationObserver(function () { self.reconcile(); });
      this.observer.observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ["data-controller"] });
      if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { self.reconcile(); });
    },

    reconcile: function () {
      var self = this;
      if (this.classes.size === 0) return;
      // Disconnect instances whose element left the document, lost the token, or whose class was replaced.
      this.connected.forEach(function (instances, element) {
        instances.forEach(function (instance, identifier) {
          var stays = element.isConnected && tokens(element.getAttribute("data-controller")).indexOf(identifier) !== -1 &&
            self.classes.get(identifier) === instance.constructor;
          if (stays) return;
          instances.delete(identifier);
          guarded(function () { instance.disconnect(); });
        });
        if (instances.size === 0) self.connected.delete(element);
      });
      // Connect every matching element, in document order.
      this.classes.forEach(function (componentClass, identifier) {
        if (!componentClass.shouldLoad) return;
        var elements = document.querySelectorAll('[data-controller~="' + CSS.escape(identifier) + '"]');
        for (var i = 0; i < elements.length; i++) {
          var element = elements[i];
          var instances = self.connected.get(element);
          if (instances && instances.has(identifier)) continue;
          if (elementOptsOut(element, identifier)) continue;
          var instance = new componentClass(element, identifier);
          if (!instances) { instances = new Map(); self.connected.set(element, instances); }
          instances.set(identifier, instance);
          guarded(function () { instance.initialize(); instance.connect(); });
        }
      });
    }
  };

  function guarded(body) {
    try { body(); } catch (error) { console.error("Strada: a bridge component threw", error); }
  }

  /**
   * Registers a component class. Framework-free: every element whose data-controller contains
   * `bridge--<component>` (or `identifier`) gets an instance. Stimulus flavour: `application.register(...)`.
   */
  function registerComponent(componentClass, identifier) {
    if (typeof componentClass !== "function" || !componentClass.component) {
      throw new TypeError("Strada.registerComponent: pass a BridgeComponent subclass with a static component name");
    }
    identifier = identifier || "bridge--" + componentClass.component;
    if (componentClass.__stradaStimulus) {
      var application = stimulusApplication();
      if (!application) {
        throw new Error("Strada.registerComponent: " + (componentClass.name || identifier) + " is a Stimulus controller; " +
          "call application.register(\"" + identifier + "\", " + (componentClass.name || "Component") + ") or Strada.useStimulus(Controller, application) first");
      }
      application.register(identifier, componentClass);
      return;
    }
    registry.register(componentClass, identifier);
  }

  // MARK: - Install

  // One web bridge per document: reuse one another library (hotwire-native-bridge, @hotwired/strada)
  // already installed, so the adapter and every component share it.
  var existing = activeBridge();
  var web = existing || new WebBridge();

  var namespace = window.Strada || {};
  if (!namespace.web) namespace.web = web;
  Object.defineProperty(namespace, "__stradaLinux", { value: true });
  Object.defineProperty(namespace, "BridgeComponent", { get: currentBridgeComponent, enumerable: true, configurable: true });
  namespace.BridgeElement = BridgeElement;
  namespace.registerComponent = registerComponent;
  namespace.useStimulus = useStimulus;
  window.Strada = namespace;

  if (!window.HotwireNative) window.HotwireNative = {};
  if (!window.HotwireNative.web) window.HotwireNative.web = web;
  if (!window.webBridge) window.webBridge = web;

  if (!existing) web.start();
})();
