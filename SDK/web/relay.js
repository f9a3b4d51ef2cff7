/*
 * Strada for Linux — the relay. Not a file pages load: the host compiles it in
 * (Sources/StradaEngineGTK/EmbeddedFiles.txt) and injects it at document start, top frame only, in an
 * isolated script world that the page's scripts and iframes cannot see. It is the only code that can reach
 * the engine's message handler "strada": it forwards the JSON text the adapter (adapter.js) dispatches on
 * `document` as "strada-linux:post", and announces itself with "strada-linux:relay" (again whenever the
 * adapter asks with "strada-linux:hello"). AdapterScript.swift holds the same names; a test checks them.
 */
(function () {
  "use strict";
  var handler = window.webkit.messageHandlers["strada"];
  document.addEventListener("strada-linux:post", function (event) {
    if (typeof event.detail === "string") handler.postMessage(event.detail);
  }, true);
  function announce() { document.dispatchEvent(new CustomEvent("strada-linux:relay")); }
  document.addEventListener("strada-linux:hello", announce, true);
  announce();
})();
