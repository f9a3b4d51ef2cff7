/*
 * Strada for Linux — the bridge adapter (page side of the native bridge). Not a file pages load: the host
 * compiles it in (Sources/StradaEngineGTK/EmbeddedFiles.txt) and injects it at document start, top frame only,
 * in the page's script world.
 *
 * It installs `window.nativeBridge` (platform "linux"), says "ready", and attaches to whichever web library
 * the page loads (`window.HotwireNative.web` or `window.Strada.web`), before or after this script ran.
 * It cannot reach the engine itself: each message goes as JSON text to the relay (relay.js, an isolated
 * world) in a `CustomEvent("strada-linux:post", {detail: text})` on `document`. It asks for the relay with
 * "strada-linux:hello" and queues messages until the relay answers "strada-linux:relay" (WebKit does not
 * order the two scripts). These names are fixed here; AdapterScript.swift holds the same names and
 * Tests/StradaEngineGTKTests checks they match.
 */
(function () {
  "use strict";
  if (window.nativeBridge && window.nativeBridge.__stradaLinux) return;
  var dispatch = document.dispatchEvent.bind(document);
  var stringify = JSON.stringify;
  var parse = JSON.parse;
  var relayed = false;
  var waiting = [];
  function send(text) { dispatch(new CustomEvent("strada-linux:post", { detail: text })); }
  // Messages sent in one JavaScript task go out as one post at the end of the task (a microtask): a lone
  // message as its own JSON text, several as a JSON array of them ("[m1,m2]"). A batch stops growing at
  // 1 MiB of text, so larger messages travel alone; the order is the order they were sent in.
  var batchLimit = 1048576;
  var outbox = [];
  var outboxLength = 0;
  function flush() {
    if (outbox.length === 0) return;
    var texts = outbox;
    outbox = [];
    outboxLength = 0;
    send(texts.length === 1 ? texts[0] : "[" + texts.join(",") + "]");
  }
  function enqueue(text) {
    if (outbox.length > 0 && outboxLength + text.length > batchLimit) flush();
    if (outbox.length === 0) queueMicrotask(flush);
    outbox.push(text);
    outboxLength += text.length;
  }
  document.addEventListener("strada-linux:relay", function () {
    if (relayed) return;
    relayed = true;
    var queued = waiting;
    waiting = [];
    for (var i = 0; i < queued.length; i++) enqueue(queued[i]);
  }, true);
  var channel = {
    postMessage: function (message) {
      var text = stringify(message);
      if (relayed) enqueue(text); else waiting.push(text);
    }
  };
  dispatch(new CustomEvent("strada-linux:hello"));
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
    platform: "linux",
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
    },
    // How the host delivers replies: the JSON text of an array of reply messages, all produced in one turn
    // of its main loop, passed as a string argument (parsed here: no script text to compile). Each goes to
    // replyWith in order; one that throws does not stop the rest, and the first error is thrown at the end.
    replyWithJSON: function (text) {
      var replies = parse(text);
      var failure = null;
      for (var i = 0; i < replies.length; i++) {
        try { this.replyWith(replies[i]); } catch (error) { if (failure === null) failure = error; }
      }
      if (failure !== null) throw failure;
    }
  };
  Object.defineProperty(window, "nativeBridge", { value: adapter, writable: false, configurable: false });
  document.addEventListener("web-bridge:ready", attach);
  channel.postMessage("ready");
  if (webBridge()) attach();
})();
