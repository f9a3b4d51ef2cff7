/*
 * Harness for the web library's end-to-end pages (WebLibraryTests.swift). Each page runs its checks in the
 * real engine against the real host and reports once through document.title: "PASS" or "FAIL: <reason>".
 * The host reports title changes as `page.title` automation events.
 */
(function () {
  "use strict";
  var finished = false;

  function finish(title) {
    if (finished) return;
    finished = true;
    document.title = title;
  }

  /** JSON with object keys sorted, so equal values compare equal whatever order native serialised them in. */
  function show(value) {
    function canonical(v) {
      if (Array.isArray(v)) return v.map(canonical);
      if (v && typeof v === "object") {
        var sorted = {};
        Object.keys(v).sort().forEach(function (key) { sorted[key] = canonical(v[key]); });
        return sorted;
      }
      return v;
    }
    try { return JSON.stringify(canonical(value)); } catch (error) { return String(value); }
  }

  var T = {
    pass: function () { finish("PASS"); },
    fail: function (reason) { finish("FAIL: " + reason); },

    check: function (condition, what) {
      if (!condition) throw new Error(what);
    },

    equal: function (actual, expected, what) {
      if (show(actual) !== show(expected)) throw new Error(what + ": expected " + show(expected) + ", got " + show(actual));
    },

    sleep: function (ms) { return new Promise(function (resolve) { setTimeout(resolve, ms); }); },

    /** Resolves once `predicate()` is truthy; rejects naming `what` after `timeout` ms. */
    waitFor: function (predicate, what, timeout) {
      var deadline = Date.now() + (timeout || 5000);
      return new Promise(function (resolve, reject) {
        (function poll() {
          var value;
          try { value = predicate(); } catch (error) { return reject(error); }
          if (value) return resolve(value);
          if (Date.now() > deadline) return reject(new Error("timed out waiting for " + what));
          setTimeout(poll, 10);
        })();
      });
    },

    /** Waits until the native adapter attached to the web bridge (setAdapter marked <html>). */
    adapterAttached: function () {
      return T.waitFor(function () { return document.documentElement.hasAttribute("data-bridge-platform"); }, "the adapter to attach");
    },

    /** Runs the page's checks: PASS when `body` resolves, FAIL with the first error otherwise. */
    run: function (body) {
      Promise.resolve().then(body).then(T.pass, function (error) { T.fail(error && error.message ? error.message : String(error)); });
    },

    /** A message sent directly through Strada.web, with the metadata.url native routes by. */
    message: function (component, event, data, callback) {
      var payload = Object.assign({}, data || {}, { metadata: { url: location.href } });
      return { component: component, event: event, data: payload, callback: callback };
    },

    /** Resolves after native answered a sentinel `ping`: every reply native sent before it has run. */
    settle: function () {
      return new Promise(function (resolve) {
        var id = Strada.web.send(T.message("echo", "ping", { sentinel: true }, function () {
          Strada.web.removeCallbackFor(id);
          resolve();
        }));
        if (id === null) throw new Error("the sentinel ping was not sent");
      });
    }
  };

  window.addEventListener("error", function (event) { T.fail("uncaught " + event.message); });
  window.addEventListener("unhandledrejection", function (event) {
    T.fail("unhandled rejection " + (event.reason && event.reason.message ? event.reason.message : event.reason));
  });
  setTimeout(function () { T.fail("the page did not finish within 15 s"); }, 15000);
  window.T = T;
})();
