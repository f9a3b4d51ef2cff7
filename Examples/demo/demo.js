// Shared by the demo pages: shows what goes over the bridge, and what native answered.
//
//   Demo.sent(component, event, data)       a message the page sent to native (logged)
//   Demo.received(component, message)        a reply native sent back (logged; fires "demo:reply")
//   Demo.report(component, text)             what the page did about it: shown in #status and in
//                                            document.title as "<component>: <text>" (the host reports
//                                            title changes as `page.title` events, which the tests read)
//   Demo.autoplay                            true with ?open=1: the page brings its control up by itself
//                                            (used by the end-to-end tests and the screenshots)
//   Demo.native(component)                   whether the native app announced `component`
//   ?go=<path>                               once the page is shown, Turbo.visit(path) — a visit proposed by
//                                            the page, as a link would (the path configuration tests use it)
(function () {
  "use strict";

  var html = document.documentElement;
  var params = new URLSearchParams(location.search);

  function format(data) {
    if (!data) return "";
    var copy = Object.assign({}, data);
    delete copy.metadata;  // every message carries metadata.url; it would only add noise
    var text = JSON.stringify(copy);
    return text === "{}" ? "" : text;
  }

  function append(direction, text) {
    var log = document.getElementById("log");
    if (!log) return;
    var empty = log.querySelector(".empty");
    if (empty) empty.remove();
    var item = document.createElement("li");
    item.className = direction;
    var arrow = document.createElement("span");
    arrow.className = "arrow";
    arrow.textContent = direction === "out" ? "→" : direction === "in" ? "←" : "•";
    item.appendChild(arrow);
    var body = document.createElement("code");
    body.textContent = text;
    item.appendChild(body);
    log.appendChild(item);
    while (log.children.length > 6) log.removeChild(log.firstElementChild);
  }

  function updateBadge() {
    var badge = document.getElementById("mode");
    if (!badge) return;
    var component = badge.dataset.component;
    var native = Demo.native(component);
    badge.classList.toggle("native", native);
    badge.textContent = native ? "native " + component : "web fallback";
  }

  window.Demo = {
    autoplay: params.get("open") === "1",

    native: function (component) {
      return (html.dataset.bridgeComponents || "").split(" ").indexOf(component) !== -1;
    },

    sent: function (component, event, data) {
      append("out", component + "/" + event + " " + format(data));
    },

    received: function (component, message) {
      append("in", component + "/" + message.event + " " + format(message.data));
      document.dispatchEvent(new CustomEvent("demo:reply", { detail: message }));
    },

    note: function (text) {
      append("note", text);
    },

    report: function (component, text) {
      var status = document.getElementById("status");
      if (status) status.textContent = text;
      document.title = component + ": " + text;
    }
  };

  // ?go=<path>: propose a visit once this page is shown (once per page: Turbo keeps this script running).
  var proposed = {};
  document.addEventListener("turbo:load", function () {
    var go = new URLSearchParams(location.search).get("go");
    if (!go || proposed[location.href] || !window.Turbo) return;
    proposed[location.href] = true;
    setTimeout(function () { window.Turbo.visit(go); }, 50);
  });

  new MutationObserver(updateBadge).observe(html, { attributes: true, attributeFilter: ["data-bridge-components"] });
  document.addEventListener("DOMContentLoaded", updateBadge);
})();
