/*
 * Strada for Linux — the bridge adapter (page side of the native bridge). Not a file pages load: the host
 * compiles it in (Sources/StradaEngineGTK/EmbeddedFiles.txt) and injects it at document start, top frame only,
 * in the page's script world.
 *
 * It installs `window.nativeBridge` (platform "linux"), says "ready", and attaches to whichever web library
 * the page loads (`window.HotwireNative.web` or `window.Strada.web`), before or after this script ran.
 * It cannot reach the engine itself: each message goes as JSON text to the relay (relay.js, an isolated
 * world) through the handshake of relay-handshake.js (`openRelay`, which AdapterScript.swift puts in front of
 * this script); a message too large for the bridge goes as a short notice, never as text.
 */
(function () {
  "use strict";
  if (window.nativeBridge && window.nativeBridge.__stradaLinux) return;
  var relay = openRelay();
  var stringify = JSON.stringify;
  var parse = JSON.parse;
  // Messages sent in one JavaScript task go out as one post at the end of the task (a microtask): a lone
  // message as its own JSON text, several as a JSON array of them ("[m1,m2]"). A lone message that is not an
  // object ("[m]", "\"ready\"": a page's receive([m]) or receive("ready")) goes as a batch of one, so the host
  // rejects it as what it is (a message must be an object) instead of reading it as a batch or as this
  // adapter's handshake, which alone is posted bare (sayReady). A batch stops growing at
  // 256 KiB of text, so larger messages travel alone; the order is the order they were sent in. (A larger
  // cap costs both processes memory at a flood's peak for no speed: docs/engine.md, "Figures behind comments".)
  var batchLimit = 262144;
  var outbox = [];
  var outboxLength = 0;
  function flush() {
    if (outbox.length === 0) return;
    var texts = outbox;
    outbox = [];
    outboxLength = 0;
    var lone = texts.length === 1 && texts[0].charCodeAt(0) === 123; // "{"
    relay.post(lone ? texts[0] : "[" + texts.join(",") + "]");
  }
  function sayReady() {
    flush();
    relay.post(stringify("ready"));
  }
  function enqueue(text) {
    if (outbox.length > 0 && outboxLength + text.length > batchLimit) flush();
    if (outbox.length === 0) queueMicrotask(flush);
    outbox.push(text);
    outboxLength += text.length;
  }
  // The bridge's size limit (16 MiB, JSONLimits.messages in WebView.swift); the relay cuts longer text. A
  // message whose strings alone are longer than that is never turned into text here (the text would be one
  // more copy of it, as large, in the page's memory): the relay gets a notice of its least length and how it
  // starts instead, in its place in the order, and the host rejects it as it would the text.
  var limit = 16777216;
  function oversized(notice) {
    flush();
    relay.oversized(notice);
  }
  // A lower bound of JSON.stringify(value).length: the strings (values and the keys they stand under, with
  // their quotes) of plain objects and arrays. Whatever JSON.stringify might turn into something else (a
  // toJSON, another prototype) counts as nothing, and the walk stops after 4096 values (cycles, huge
  // arrays), so it never exceeds the real length; it stops as soon as the total is over the limit.
  function leastLength(value) {
    var total = 0;
    var budget = 4096;
    var stack = [value];
    while (stack.length > 0 && total <= limit && budget > 0) {
      var item = stack.pop();
      if (typeof item === "string") { total += item.length + 2; continue; }
      if (!plain(item)) continue;
      if (Array.isArray(item)) {
        for (var i = 0; i < item.length && budget > 0; i++, budget--) stack.push(item[i]);
        continue;
      }
      var keys = Object.keys(item);
      for (var k = 0; k < keys.length && budget > 0; k++, budget--) {
        var member = item[keys[k]];
        if (typeof member === "string" || plain(member)) { total += keys[k].length + 3; stack.push(member); }
      }
    }
    return total;
  }
  function plain(value) {
    if (value === null || typeof value !== "object" || typeof value.toJSON === "function") return false;
    if (Array.isArray(value)) return true;
    var prototype = Object.getPrototypeOf(value);
    return prototype === Object.prototype || prototype === null;
  }
  // How an oversized message starts, for the host's log line: its id, component and event.
  function headOf(message) {
    if (typeof message === "string") return stringify(message.slice(0, 100));
    var shown = {};
    var names = ["id", "component", "event"];
    for (var i = 0; i < names.length; i++) {
      var field = message[names[i]];
      if (typeof field === "string") shown[names[i]] = field.slice(0, 40);
    }
    return stringify(shown).slice(0, -1);
  }
  var channel = {
    postMessage: function (message) {
      var least = leastLength(message);
      if (least > limit) oversized(least + " " + headOf(message));
      else enqueue(stringify(message));
    }
  };
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
  sayReady();
  if (webBridge()) attach();
})();
