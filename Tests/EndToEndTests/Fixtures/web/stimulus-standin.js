/*
 * TEST DOUBLE — this is NOT Stimulus.
 *
 * A tiny stand-in, written for the web library's end-to-end tests, with the slice of the Stimulus 3 API that
 * Strada bridge components rely on: `Application.start()`, `application.register(identifier, Controller)`
 * (honouring `static shouldLoad`), controllers connected and disconnected as elements gain and lose
 * `data-controller` tokens (MutationObserver), `this.element`, `this.identifier`, `this.application`,
 * `initialize()/connect()/disconnect()`, and `static targets` (`this.xTarget`, `this.xTargets`,
 * `this.hasXTarget` from `data-<identifier>-target="x"`). Real Stimulus cannot be installed or vendored here,
 * so the tests use this; real apps use @hotwired/stimulus.
 *
 * Installs `window.StimulusStandIn = { Application, Controller }`; pages decide whether to expose it as
 * `window.Stimulus` (like the Stimulus UMD build's namespace) or pass it to `Strada.useStimulus`.
 */
(function () {
  "use strict";

  class Controller {
    constructor(context) { this.context = context; }
    static get shouldLoad() { return true; }
    get application() { return this.context.application; }
    get element() { return this.context.element; }
    get identifier() { return this.context.identifier; }
    initialize() {}
    connect() {}
    disconnect() {}
  }

  function capitalize(name) { return name.charAt(0).toUpperCase() + name.slice(1); }

  /** Adds target accessors for `static targets` to a subclass of the registered controller. */
  function withTargets(controllerClass) {
    var names = [];
    for (var c = controllerClass; c && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
      if (Object.prototype.hasOwnProperty.call(c, "targets") && Array.isArray(c.targets)) names = names.concat(c.targets);
    }
    if (names.length === 0) return controllerClass;
    var blessed = class extends controllerClass {};
    names.forEach(function (name) {
      function all(controller) {
        var selector = "[data-" + controller.identifier + '-target~="' + name + '"]';
        return Array.prototype.slice.call(controller.element.querySelectorAll(selector));
      }
      Object.defineProperty(blessed.prototype, name + "Targets", { get: function () { return all(this); } });
      Object.defineProperty(blessed.prototype, "has" + capitalize(name) + "Target", { get: function () { return all(this).length > 0; } });
      Object.defineProperty(blessed.prototype, name + "Target", {
        get: function () {
          var found = all(this)[0];
          if (!found) throw new Error('Missing target element "' + name + '" for "' + this.identifier + '" controller');
          return found;
        }
      });
    });
    return blessed;
  }

  class Application {
    static start(element) {
      var application = new this(element);
      application.start();
      return application;
    }

    constructor(element) {
      this.element = element || document.documentElement;
      this.definitions = new Map(); // identifier -> blessed controller class
      this.contexts = new Map();    // element -> Map(identifier -> controller)
      this.started = false;
    }

    start() {
      var self = this;
      // Like Stimulus: controllers connect once the DOM is ready, asynchronously.
      var ready = document.readyState === "loading"
        ? new Promise(function (resolve) { document.addEventListener("DOMContentLoaded", resolve, { once: true }); })
        : Promise.resolve();
      return ready.then(function () {
        self.started = true;
        new MutationObserver(function () { self.sync(); })
          .observe(self.element, { childList: true, subtree: true, attributes: true, attributeFilter: ["data-controller"] });
        self.sync();
      });
    }

    register(identifier, controllerClass) {
      if (!controllerClass.shouldLoad) return;
      this.definitions.set(identifier, withTargets(controllerClass));
      if (this.started) this.sync();
    }

    getControllerForElementAndIdentifier(element, identifier) {
      var controllers = this.contexts.get(element);
      return (controllers && controllers.get(identifier)) || null;
    }

    get controllers() {
      var all = [];
      this.contexts.forEach(function (controllers) { controllers.forEach(function (c) { all.push(c); }); });
      return all;
    }

    sync() {
      var self = this;
      this.contexts.forEach(function (controllers, element) {
        controllers.forEach(function (controller, identifier) {
          var tokens = (element.getAttribute("data-controller") || "").split(/\s+/);
          if (element.isConnected && tokens.indexOf(identifier) !== -1) return;
          controllers.delete(identifier);
          controller.disconnect();
        });
        if (controllers.size === 0) self.contexts.delete(element);
      });
      this.definitions.forEach(function (controllerClass, identifier) {
        var elements = self.element.querySelectorAll('[data-controller~="' + identifier + '"]');
        var candidates = self.element.matches('[data-controller~="' + identifier + '"]') ? [self.element] : [];
        candidates = candidates.concat(Array.prototype.slice.call(elements));
        candidates.forEach(function (element) {
          var controllers = self.contexts.get(element) || new Map();
          if (controllers.has(identifier)) return;
          var controller = new controllerClass({ application: self, element: element, identifier: identifier });
          controllers.set(identifier, controller);
          self.contexts.set(element, controllers);
          controller.initialize();
          controller.connect();
        });
      });
    }
  }

  window.StimulusStandIn = { Application: Application, Controller: Controller };
})();
