/*
 * Strada for Linux — the page world's half of the relay handshake, shared by adapter.js and turbo-adapter.js.
 * Not a script of its own: AdapterScript.swift puts it in front of each of them, both inside one function
 * scope, so `openRelay` is a name only those two scripts see (never a property of `window`).
 *
 * The relay (relay.js) lives in an isolated world, and WebKit does not order the injection of scripts in
 * different worlds, so either side may run first. openRelay() asks for the relay with "strada-linux:hello"
 * and queues what is sent until the relay answers "strada-linux:relay" (it also announces itself once when
 * it starts). Then, in the order they were sent:
 *   post(text)        the JSON text of a message, as `CustomEvent("strada-linux:post", {detail: text})`
 *   oversized(notice) a message too large for the bridge, never turned into text: "<least length> <head>",
 *                     as `CustomEvent("strada-linux:oversized", {detail: notice})`
 * both dispatched on `document`. AdapterScript.swift holds the same names; PageScriptHandshakeTests runs
 * these scripts and checks they use them.
 */
function openRelay() {
  "use strict";
  // Kept before the page can replace them.
  var dispatch = document.dispatchEvent.bind(document);
  var PageCustomEvent = window.CustomEvent;
  var relayed = false;
  var waiting = []; // [type, detail] sent before the relay announced itself
  function deliver(type, detail) { dispatch(new PageCustomEvent(type, { detail: detail })); }
  function send(type, detail) {
    if (relayed) deliver(type, detail);
    else waiting.push([type, detail]);
  }
  document.addEventListener("strada-linux:relay", function () {
    if (relayed) return;
    relayed = true;
    var queued = waiting;
    waiting = [];
    for (var i = 0; i < queued.length; i++) deliver(queued[i][0], queued[i][1]);
  }, true);
  dispatch(new PageCustomEvent("strada-linux:hello"));
  return {
    post: function (text) { send("strada-linux:post", text); },
    oversized: function (notice) { send("strada-linux:oversized", notice); }
  };
}
