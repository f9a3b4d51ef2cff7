/*
 * Strada for Linux — web library.
 *
 * Our own implementation of the page side of the Strada protocol (see PROTOCOL.md), API-compatible with
 * @hotwired/strada: `window.Strada.web` (the web bridge), `Strada.BridgeComponent`, `Strada.BridgeElement`.
 * A classic script (works from file:// and without a bundler); no dependencies.
 *
 * Framework-free components: subclass `Strada.BridgeComponent`, set `static component = "form"`, and call
 * `Strada.registerComponent(FormComponent)`. Every element whose `data-controller` contains
 * `bridge--form` then gets an instance (connect()/disconnect() follow the element), when the native app
 * announces the component in its user agent and the page does not opt out for this platform.
 */
(function () {
  "use strict";
  if (window.Strada && window.Strada.web && window.Strada.web.__stradaLinux) return;

  // MARK: Web bridge

  function WebBridge() {
    this.__stradaLinux = true;
    this.adapter = null;
    this.lastMessageId = 0;
    this.pendingMessages = [];
    this.pendingCallbacks = new Map();
  }

  WebBridge.prototype.start = function () {
    this.notifyApplicationAfterStart();
  };

  WebBridge.prototype.notifyApplicationAfterStart = function () {
    document.dispatchEvent(new Event("web-bridge:ready"));
  };

  WebBridge.prototype.supportsComponent = function (component) {
    return this.adapter ? this.adapter.supportsComponent(component) : false;
  };

  /** Sends {component, event, data, callback}; returns the message id, or null if it was queued/dropped. */
  WebBridge.prototype.send = function (options) {
    if (!this.adapter) {
      this.pendingMessages.push(options);
      return null;
    }
    if (!this.supportsComponent(options.component)) return null;
    var id = this.generateMessageId();
    var message = { id: id, component: options.component, event: options.event, data: options.data || {} };
    this.adapter.receive(message);
    if (options.callback) this.pendingCallbacks.set(id, options.callback);
    return id;
  };

  /** Called by the native adapter with a reply; callbacks stay registered (native may reply many times). */
  WebBridge.prototype.receive = function (message) {
    var callback = this.pendingCallbacks.get(message.id);
    if (callback) callback(message);
  };

  WebBridge.prototype.removeCallbackFor = function (messageId) {
    this.pendingCallbacks.delete(messageId);
  };

  WebBridge.prototype.removePendingMessagesFor = function (component) {
    this.pendingMessages = this.pendingMessages.filter(function (m) { return m.component !== component; });
  };

  WebBridge.prototype.generateMessageId = function () {
    this.lastMessageId += 1;
    return this.lastMessageId.toString();
  };

  WebBridge.prototype.setAdapter = function (adapter) {
    this.adapter = adapter;
    document.documentElement.dataset.bridgePlatform = adapter.platform;
    this.adapterDidUpdateSupportedComponents();
    var pending = this.pendingMessages;
    this.pendingMessages = [];
    for (var i = 0; i < pending.length; i++) this.send(pending[i]);
  };

  WebBridge.prototype.adapterDidUpdateSupportedComponents = function () {
    if (this.adapter) {
      document.documentElement.dataset.bridgeComponents = this.adapter.supportedComponents.join(" ");
    }
    connectAll();
  };

  // MARK: Bridge element

  function BridgeElement(element) {
    this.element = element;
  }

  Object.defineProperty(BridgeElement.prototype, "title", {
    get: function () {
      var value = this.bridgeAttribute("title") || this.attribute("aria-label") || this.element.textContent || this.element.value || "";
      return value.trim();
    }
  });

  Object.defineProperty(BridgeElement.prototype, "disabled", {
    get: function () {
      var disabled = this.bridgeAttribute("disabled");
      return disabled === "true" || disabled === currentPlatform();
    }
  });

  BridgeElement.prototype.enableForComponent = function (component) {
    if (component.enabled) this.removeBridgeAttribute("disabled");
  };
  BridgeElement.prototype.hasClass = function (name) { return this.element.classList.contains(name); };
  BridgeElement.prototype.attribute = function (name) { return this.element.getAttribute(name); };
  BridgeElement.prototype.bridgeAttribute = function (name) { return this.attribute("data-bridge-" + name); };
  BridgeElement.prototype.setBridgeAttribute = function (name, value) { this.element.setAttribute("data-bridge-" + name, value); };
  BridgeElement.prototype.removeBridgeAttribute = function (name) { this.element.removeAttribute("data-bridge-" + name); };
  BridgeElement.prototype.click = function () {
    // Mobile Safari needs the element's own click; keep the same behaviour.
    this.element.click();
  };

  // MARK: Bridge component (framework-free)

  function currentPlatform() {
    return document.documentElement.dataset.bridgePlatform;
  }

  function userAgentComponents() {
    var match = navigator.userAgent.match(/bridge-components: \[(.*?)\]/);
    return match && match[1] ? match[1].split(" ") : [];
  }

  class BridgeComponent {
    /** The component name, e.g. "form"; subclasses override. */
    static get component() { return ""; }

    /** The web component loads only when the native app announced it and the page does not opt out. */
    static get shouldLoad() {
      return !this.platformOptingOut && userAgentComponents().indexOf(this.component) !== -1;
    }

    static get platformOptingOut() {
      var platform = "linux";
      var html = document.documentElement;
      return html.hasAttribute("data-controller-optout-" + platform);
    }

    constructor(element) {
      this.element = element;
      this.pendingMessageCallbacks = [];
    }

    get component() { return this.constructor.component; }
    get platformOptingOut() { return this.constructor.platformOptingOut; }
    get enabled() { return !this.platformOptingOut && window.Strada.web.supportsComponent(this.component); }
    get bridgeElement() { return new BridgeElement(this.element); }

    connect() {}
    disconnect() {}

    /** Sends `event` with `data` (+ metadata.url); `callback` runs for every reply to it. */
    send(event, data, callback) {
      var payload = Object.assign({}, data || {});
      payload.metadata = { url: window.location.href };
      var self = this;
      var message = { component: this.component, event: event, data: payload, callback: callback };
      var id = window.Strada.web.send(message);
      if (callback && id) this.pendingMessageCallbacks.push(id);
      return id;
    }

    removeBridgeCallbacks() {
      var web = window.Strada.web;
      this.pendingMessageCallbacks.forEach(function (id) { web.removeCallbackFor(id); });
      this.pendingMessageCallbacks = [];
      web.removePendingMessagesFor(this.component);
    }
  }

  // MARK: Framework-free registration: data-controller="bridge--<name>"

  var registered = [];
  var instances = new Map(); // element -> Map(componentClass -> instance)

  function registerComponent(componentClass) {
    registered.push(componentClass);
    connectAll();
  }

  function controllerTokens(element) {
    return (element.getAttribute("data-controller") || "").split(/\s+/);
  }

  function connectAll() {
    if (!document.documentElement) return;
    registered.forEach(function (componentClass) {
      if (!componentClass.shouldLoad) return;
      var identifier = "bridge--" + componentClass.component;
      var elements = document.querySelectorAll("[data-controller]");
      for (var i = 0; i < elements.length; i++) {
        var element = elements[i];
        if (controllerTokens(element).indexOf(identifier) === -1) continue;
        var forElement = instances.get(element) || new Map();
        instances.set(element, forElement);
        if (forElement.has(componentClass)) continue;
        var instance = new componentClass(element);
        forElement.set(componentClass, instance);
        instance.connect();
      }
    });
  }

  function disconnectRemoved() {
    instances.forEach(function (forElement, element) {
      if (document.contains(element)) return;
      forElement.forEach(function (instance) {
        instance.disconnect();
        instance.removeBridgeCallbacks();
      });
      instances.delete(element);
    });
  }

  new MutationObserver(function () {
    disconnectRemoved();
    connectAll();
  }).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ["data-controller"] });

  // MARK: Install

  var web = new WebBridge();
  window.Strada = Object.assign(window.Strada || {}, {
    web: web,
    BridgeComponent: BridgeComponent,
    BridgeElement: BridgeElement,
    registerComponent: registerComponent
  });
  if (!window.webBridge) window.webBridge = web;
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", connectAll);
  }
  web.start();
})();
