/*
 * Strada for Linux — the relay. Not a file pages load: the host compiles it in
 * (Sources/StradaEngineGTK/EmbeddedFiles.txt) and injects it at document start, top frame only, in an
 * isolated script world that the page's scripts and iframes cannot see. It is the only code that can reach
 * the engine's message handler "strada": it forwards the JSON text the adapter (adapter.js) dispatches on
 * `document` as "strada-linux:post" (and the adapter's "strada-linux:oversized" notices), and announces
 * itself with "strada-linux:relay" (again whenever the adapter asks with "strada-linux:hello").
 * AdapterScript.swift holds the same names; a test checks them.
 */
(function () {
  "use strict";
  // Once per document: evaluated again (a second injection), it must not post every message twice. The
  // flag lives in this isolated world, so the page cannot see or set it.
  if (window.__stradaRelayInstalled) return;
  window.__stradaRelayInstalled = true;
  var handler = window.webkit.messageHandlers["strada"];
  // Text over the bridge's size limit (16 MiB, JSONLimits.messages in WebView.swift; a UTF-16 length never
  // exceeds the UTF-8 size) is not copied into the host: a short notice says how long it was.
  var limit = 16777216;
  document.addEventListener("strada-linux:post", function (event) {
    var text = event.detail;
    if (typeof text !== "string") return;
    if (text.length > limit) handler.postMessage({ stradaOversized: text.length, head: text.slice(0, 120) });
    else handler.postMessage(text);
  }, true);
  // The adapter's notice of a message it did not turn into text because its strings alone are over the
  // limit: "<least length> <head>".
  document.addEventListener("strada-linux:oversized", function (event) {
    var notice = event.detail;
    if (typeof notice !== "string" || notice.length > 1024) return;
    var space = notice.indexOf(" ");
    var length = Number(notice.slice(0, space));
    if (space < 1 || !(length > limit)) return;
    handler.postMessage({ stradaOversized: length, head: notice.slice(space + 1, space + 121) });
  }, true);
  function announce() { document.dispatchEvent(new CustomEvent("strada-linux:relay")); }
  document.addEventListener("strada-linux:hello", announce, true);
  announce();
})();
