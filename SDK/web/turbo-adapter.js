/*
 * Strada for Linux — Turbo adapter (page side of Turbo Native "screens").
 *
 * Injected by the host at document start into allowed-origin top frames, in the page's script world, next
 * to the bridge adapter. It registers itself as the adapter of the page's Turbo session (Turbo 7.x and 8.x)
 * so that every Turbo visit is reported to the native navigator, which turns it into a native screen.
 * Our own implementation; see docs/notes-turbo-adapter.md for the upstream behaviour it follows.
 *
 * If the page never gets a `window.Turbo`, this script does nothing: full page loads are the visits then,
 * and the host handles them natively.
 *
 * ─── Page → native ────────────────────────────────────────────────────────────────────────────────────
 * Each message is JSON text handed to the relay through the same handshake as the bridge adapter's
 * (relay-handshake.js, `openRelay`, which AdapterScript.swift puts in front of this script). Every Turbo
 * message is an object with a string "turbo" key (bridge messages never have one). URLs are absolute strings.
 *
 *   {turbo:"ready", location, restorationIdentifier, title, turboVersion}
 *       once per document (= per cold boot), when Turbo was found, our adapter registered and the DOM
 *       parsed (sent after the next repaint). turboVersion is a family, not an exact version (Turbo does
 *       not expose one): "7.0-7.1", "7.2-7.3" or "8".
 *   {turbo:"visitProposed", proposal, location, action, willRender, frame}
 *       Turbo proposed a visit (link click, Turbo.visit(), form submission answered by a redirect or a
 *       200). `proposal` is a number, counted from 1 in each document. Nothing starts: the options Turbo
 *       passed (a form submission's `response` included) are kept under that number until native calls
 *       visitProposal() or discardProposal(). `action` is "advance" | "replace" | "restore"; Turbo ≥ 8.0.6
 *       proposes "replace" for a form submission redirected back to the current location.
 *       Not sent for a same-page anchor link (Turbo 7.x – 8.0.20): the adapter scrolls to the anchor
 *       itself, as the upstream native adapters do; that is not a visit.
 *       `willRender` is false for a visit that only records history (Turbo 8 following a redirect); `frame`
 *       is true for the visit of a <turbo-frame> that advances history (proposed after the frame rendered).
 *   {turbo:"refreshing", location}
 *       a visit to the location shown (a form redirected back, Turbo.visit(location.href)): the adapter
 *       runs it itself as a "replace" (Turbo 8: a page refresh, morphed where the page asks), as upstream's
 *       adapters do; no proposal. The screen stays.
 *   {turbo:"frameVisitStarting", location, action}
 *       a <turbo-frame> navigation that will advance (or replace) history got its response and is about to
 *       render: its visitProposed (frame: true) follows the render.
 *   {turbo:"visitStarted", identifier, location, action, hasCachedSnapshot, restorationIdentifier}
 *       a Visit started: one native asked for, or a history restore Turbo started on its own (popstate:
 *       action "restore", no proposal before it). The adapter then runs the visit itself.
 *   {turbo:"visitRequestFailed", identifier, location, statusCode}
 *       the visit's request failed: an HTTP status ≥ 400, or 0 (network failure / cross-origin redirect),
 *       -1 (timeout), -2 (content-type mismatch: not HTML). The adapter renders nothing; native decides
 *       (error screen, retry with visit(), or a full load of `location`).
 *   {turbo:"visitRendered", identifier}                 after the next repaint
 *   {turbo:"visitCompleted", identifier, location, restorationIdentifier, title}
 *       after the next repaint; `location` is where the visit ended up (after a redirect).
 *   {turbo:"formSubmissionStarted", location}  {turbo:"formSubmissionFinished", location}
 *       `location` is the form's action URL.
 *   {turbo:"pageInvalidated", location, reason}
 *       Turbo cannot render in place (tracked assets changed, turbo-visit-control=reload, request failed
 *       in a way only a reload fixes, …). The adapter does NOT reload: native should load `location` as a
 *       full page load. `reason` is a string (Turbo ≥ 7.3) or null.
 * Messages are delivered in the order the events happened (the repaint-delayed ones hold back those
 * after them).
 *
 * ─── Native → page ────────────────────────────────────────────────────────────────────────────────────
 * `window.__stradaTurbo` (non-writable, non-configurable, frozen). Every method returns true when it did
 * something, false otherwise, and never throws.
 *   visitProposal(proposal, action)   start the kept proposal's visit with `action` ("advance" | "replace"
 *                                     | "restore"; anything else keeps the proposed action), with the kept
 *                                     options (a form submission's response is rendered, not refetched).
 *   visit(location, action, restorationIdentifier)
 *                                     start a fresh visit. For "restore", pass the screen's last
 *                                     restorationIdentifier (from visitCompleted/ready) so Turbo restores
 *                                     from its snapshot cache and scroll position; for other actions it
 *                                     may be omitted (Turbo then makes a new one).
 *   discardProposal(proposal)         forget a kept proposal (native handled the URL itself).
 *   clearSnapshotCache()              empty Turbo's snapshot cache.
 *   cacheSnapshot()                   snapshot the current page into the cache (before covering the web
 *                                     view with a native screen).
 *   restored()                        dispatch `new Event("native:restore")` on document: the event
 *                                     hotwire-native-bridge's BridgeComponent listens to, so connected
 *                                     components call connect() again and re-send their messages. Call it
 *                                     when a screen comes back without a visit (its page still rendered).
 *                                     The adapter does it itself when WebKit shows a document from its
 *                                     back/forward cache (pageshow, persisted).
 * When a native-started visit targets the page Turbo considers the same page (same URL, for Turbo < 8.0.21),
 * it is started as "replace" so it fetches fresh content instead of only scrolling, as upstream does.
 */
(function () {
  "use strict";
  if (window.__stradaTurbo) return;

  // MARK: - Page → native, through the relay

  var relay = openRelay();

  // Kept before the page can replace them.
  var dispatch = document.dispatchEvent.bind(document);
  var stringify = JSON.stringify;
  var PageEvent = window.Event;
  var setTimer = window.setTimeout.bind(window);
  var clearTimer = window.clearTimeout.bind(window);
  var requestFrame = typeof window.requestAnimationFrame === "function" ? window.requestAnimationFrame.bind(window) : null;

  // Messages leave in order. One that waits for a repaint holds back every message posted after it.
  var outbox = [];   // {text, ready}

  function flushOutbox() {
    while (outbox.length > 0 && outbox[0].ready) relay.post(outbox.shift().text);
  }

  function post(message, afterRepaint) {
    var text;
    try { text = stringify(message); } catch (error) { return; }
    var entry = { text: text, ready: !afterRepaint };
    outbox.push(entry);
    if (afterRepaint) afterNextRepaint(function () { entry.ready = true; flushOutbox(); });
    flushOutbox();
  }

  // Two animation frames (the frame after the one that paints the change), as the upstream adapters do,
  // so native can swap its screenshot or spinner for the web view without a flash. Immediately when the
  // document is hidden (no frames come then), and a timer as a floor in case frames are throttled.
  function afterNextRepaint(callback) {
    var done = false;
    var timer = null;
    function run() {
      if (done) return;
      done = true;
      if (timer !== null) clearTimer(timer);
      callback();
    }
    if (document.hidden || !requestFrame) { run(); return; }
    timer = setTimer(run, 250);
    requestFrame(function () { requestFrame(run); });
  }

  // MARK: - Helpers

  function href(location) {
    if (location == null) return null;
    try { return new URL(String(location), document.baseURI).href; } catch (error) { return String(location); }
  }

  function toURL(location) {
    try { return new URL(String(location), document.baseURI); } catch (error) { return null; }
  }

  function report(error) {
    try { if (window.console && console.error) console.error("[strada-linux turbo adapter]", error); } catch (ignored) {}
  }

  /** Runs `body`, swallowing (and logging) anything it throws: nothing of ours may throw into the page. */
  function guarded(body) {
    return function () {
      try { return body.apply(this, arguments); } catch (error) { report(error); return false; }
    };
  }

  function isVisitAction(action) {
    return action === "advance" || action === "replace" || action === "restore";
  }

  // MARK: - The Turbo session

  var turbo = null;           // the window.Turbo we registered with
  var attachedSession = null; // its session
  var readyPosted = false;
  var usesAdapterHistoryChange = false; // Turbo 7.0–7.1: the adapter changes history in visitStarted

  function looksLikeTurbo(value) {
    return !!value && typeof value === "object" && !!value.session && !!value.navigator &&
      typeof value.navigator.startVisit === "function";
  }

  /**
   * The family of the Turbo build. Turbo exposes no version string, so this goes by exports:
   * `cache` arrived in 7.2 (7.2 also moved history changes from the adapter into rendering), `fetch` in 8.0.
   */
  function turboVersion(value) {
    if (typeof value.fetch === "function") return "8";
    if (value.cache) return "7.2-7.3";
    return "7.0-7.1";
  }

  function restorationIdentifier() {
    try {
      if (turbo.navigator && turbo.navigator.restorationIdentifier) return String(turbo.navigator.restorationIdentifier);
      if (turbo.session && turbo.session.restorationIdentifier) return String(turbo.session.restorationIdentifier);
    } catch (error) { report(error); }
    return null;
  }

  function attach(value) {
    if (!looksLikeTurbo(value)) return false;
    if (attachedSession === value.session && value.session.adapter === adapter) return true;
    // `Turbo.registerAdapter(adapter)` exists in every 7.x and 8.x build; it sets `session.adapter`.
    if (typeof value.registerAdapter === "function") value.registerAdapter(adapter);
    else if (typeof value.session.registerAdapter === "function") value.session.registerAdapter(adapter);
    else value.session.adapter = adapter;
    turbo = value;
    attachedSession = value.session;
    usesAdapterHistoryChange = turboVersion(value) === "7.0-7.1";
    stopLooking();
    if (!readyPosted) {
      readyPosted = true;
      whenParsed(function () {
        post({
          turbo: "ready",
          location: href(window.location.href),
          restorationIdentifier: restorationIdentifier(),
          title: document.title,
          turboVersion: turboVersion(value)
        }, true);
      });
    }
    return true;
  }

  function whenParsed(callback) {
    if (document.readyState !== "loading") { callback(); return; }
    document.addEventListener("DOMContentLoaded", guarded(callback), { once: true });
  }

  // MARK: - Finding window.Turbo

  // Turbo assigns `window.Turbo` while its module runs, then calls `Turbo.start()` right after, in the same
  // task. We register at that point already (so no early click escapes us) but defer to a microtask, so
  // the session has started (its history, and so the restoration identifier, is set up) when we do.
  var lookingForTurbo = true;
  var pollTimer = null;
  var graceTimer = null;

  function tryAttach() {
    if (!lookingForTurbo && turbo) return;
    var value = window.Turbo;
    if (looksLikeTurbo(value)) attach(value);
  }

  function attachSoon() {
    Promise.resolve().then(guarded(tryAttach));
  }

  // 1. A setter on window.Turbo: catches the assignment of a classic script, a UMD build or an ES module.
  //    It turns itself back into a plain data property as soon as a Turbo-like value is assigned. (The UMD
  //    build first assigns an empty exports object, then the real namespace: the first is just stored.)
  function hookAssignment() {
    var descriptor = Object.getOwnPropertyDescriptor(window, "Turbo");
    if (descriptor && !descriptor.configurable) return;
    if (descriptor && !("value" in descriptor)) return; // someone else's accessor: leave it alone
    var stored = descriptor ? descriptor.value : undefined;
    try {
      Object.defineProperty(window, "Turbo", {
        configurable: true,
        enumerable: true,
        get: function () { return stored; },
        set: function (value) {
          stored = value;
          try {
            if (looksLikeTurbo(value)) {
              unhookAssignment(value);
              attachSoon();
            }
          } catch (error) { report(error); }
        }
      });
    } catch (error) { report(error); }
  }

  function unhookAssignment(value) {
    var descriptor = Object.getOwnPropertyDescriptor(window, "Turbo");
    if (!descriptor || "value" in descriptor || !descriptor.configurable) return;
    if (value === undefined) delete window.Turbo; // nothing was assigned: leave no trace
    else Object.defineProperty(window, "Turbo", { value: value, writable: true, enumerable: true, configurable: true });
  }

  // 2. Polling, 3. turbo:load, until the load event plus a grace period (a late import map, a script
  //    added by another script). After that, a page without Turbo is left alone.
  function stopLooking() {
    lookingForTurbo = false;
    if (pollTimer !== null) { window.clearInterval(pollTimer); pollTimer = null; }
    if (graceTimer !== null) { clearTimer(graceTimer); graceTimer = null; }
    try {
      var descriptor = Object.getOwnPropertyDescriptor(window, "Turbo");
      if (descriptor && !("value" in descriptor) && descriptor.configurable) unhookAssignment(window.Turbo);
    } catch (error) { report(error); }
  }

  function startGracePeriod() {
    if (!lookingForTurbo || graceTimer !== null) return;
    graceTimer = setTimer(guarded(function () {
      graceTimer = null;
      tryAttach();
      if (!turbo) stopLooking();
    }), 3000);
  }

  // turbo:load fires after Turbo's first load and after every visit; it also re-attaches if the page
  // replaced window.Turbo with another session (a second copy of Turbo).
  document.addEventListener("turbo:load", guarded(function () {
    var value = window.Turbo;
    if (looksLikeTurbo(value) && (value.session !== attachedSession || value.session.adapter !== adapter)) attach(value);
  }), true);

  if (looksLikeTurbo(window.Turbo)) {
    attachSoon();
  } else {
    hookAssignment();
    pollTimer = window.setInterval(guarded(tryAttach), 50);
    if (document.readyState === "complete") startGracePeriod();
    else window.addEventListener("load", guarded(startGracePeriod), { once: true });
  }

  // MARK: - Proposals

  var proposals = {};       // number -> {location, options}
  var proposalOrder = [];   // numbers, oldest first
  var lastProposal = 0;
  var MAX_KEPT_PROPOSALS = 20; // a form response is kept in full: do not hoard them if native never answers

  function keepProposal(location, options) {
    var number = ++lastProposal;
    proposals[number] = { location: location, options: options };
    proposalOrder.push(number);
    while (proposalOrder.length > MAX_KEPT_PROPOSALS) delete proposals[proposalOrder.shift()];
    return number;
  }

  function takeProposal(number) {
    var kept = proposals[number];
    if (!kept) return null;
    delete proposals[number];
    var index = proposalOrder.indexOf(number);
    if (index !== -1) proposalOrder.splice(index, 1);
    return kept;
  }

  function copyOptions(options) {
    var copy = {};
    if (options) for (var key in options) if (Object.prototype.hasOwnProperty.call(options, key)) copy[key] = options[key];
    return copy;
  }

  /** Starts a Turbo visit the way the upstream native adapters do. */
  function startVisit(location, restorationId, options) {
    if (!turbo) return false;
    var navigator = turbo.navigator;
    var url = toURL(location);
    if (!url) return false;
    // Turbo < 8.0.21 would treat a visit to the page it considers the same page (same URL; or an anchor on
    // it) as a scroll only. A visit native asked for wants fresh content: make it a replace.
    if (typeof navigator.locationWithActionIsSamePage === "function" && navigator.locationWithActionIsSamePage(url, options.action)) {
      options.action = "replace";
    }
    // Turbo makes a new restoration identifier when given none.
    navigator.startVisit(url, restorationId || undefined, options);
    return true;
  }

  /** Where Turbo's history is now (the page shown). */
  function currentLocation() {
    try {
      if (turbo && turbo.navigator && turbo.navigator.location) return href(turbo.navigator.location);
    } catch (error) { report(error); }
    return href(window.location.href);
  }

  // MARK: - Frames that advance history

  // A <turbo-frame> navigation with an action ("advance" or "replace": the frame's data-turbo-action, or its
  // link's or form's) renders the new content, then proposes the visit. Its screen must exist before the
  // content's components connect, so native is told as soon as the frame's response arrives, before Turbo
  // renders it. Turbo ≥ 7.2 keeps the navigation's action on the frame's controller; 7.0–7.1 only have the
  // frame's attribute.
  function frameAction(frame) {
    var action = null;
    try { if (frame.delegate && typeof frame.delegate.action === "string") action = frame.delegate.action; } catch (error) { report(error); }
    if (action === null && usesAdapterHistoryChange) action = frame.getAttribute("data-turbo-action");
    return action === "advance" || action === "replace" ? action : null;
  }

  document.addEventListener("turbo:before-fetch-response", guarded(function (event) {
    var frame = event.target;
    if (!turbo || !frame || frame.tagName !== "TURBO-FRAME") return;
    var action = frameAction(frame);
    if (!action) return;
    var location = frame.src || (event.detail && event.detail.fetchResponse && event.detail.fetchResponse.location);
    if (location) post({ turbo: "frameVisitStarting", location: href(location), action: action });
  }), true);

  // MARK: - Documents from the back/forward cache

  // A document WebKit shows again from its back/forward cache (no Turbo, or Back across documents) runs no
  // script: its bridge components would never connect to the screen shown. "native:restore" has them
  // connect again, as hotwire-native-bridge's components do when native asks.
  window.addEventListener("pageshow", guarded(function (event) {
    if (event.persisted) dispatch(new PageEvent("native:restore"));
  }), true);

  // MARK: - The adapter Turbo calls

  var currentVisit = null;

  function visitLocation(visit) {
    try {
      if (visit.response && visit.response.redirected && visit.redirectedToLocation) return href(visit.redirectedToLocation);
    } catch (error) { report(error); }
    return href(visit.location);
  }

  var adapter = {
    __stradaLinux: true,

    visitProposedToLocation: guarded(function (location, options) {
      options = options || {};
      var navigator = turbo && turbo.navigator;
      // A same-page anchor (Turbo 7.x – 8.0.20 still route it through the adapter): scroll, no visit.
      if (navigator && typeof navigator.locationWithActionIsSamePage === "function" &&
          navigator.locationWithActionIsSamePage(location, options.action) &&
          navigator.view && typeof navigator.view.scrollToAnchorFromLocation === "function") {
        navigator.view.scrollToAnchorFromLocation(location);
        return;
      }
      var action = isVisitAction(options.action) ? options.action : "advance";
      // A frame that advanced history proposes its visit after rendering, with history already changed:
      // native makes it a screen (announced before the render, see frameNavigation below).
      var frame = typeof options.visitCachedSnapshot === "function";
      if (!frame && href(location) === currentLocation()) {
        // The page shown: refreshed in place, as upstream's adapters do — no proposal, the screen and its
        // controls stay. A replace, so Turbo 8 renders it as a page refresh (morphed where the page asks)
        // and no second history entry is made; a form's response is rendered, not fetched again.
        post({ turbo: "refreshing", location: href(location) });
        var refresh = copyOptions(options);
        if (refresh.willRender !== false) refresh.action = "replace";
        startVisit(location, restorationIdentifier(), refresh);
        return;
      }
      var number = keepProposal(location, options);
      post({
        turbo: "visitProposed", proposal: number, location: href(location), action: action,
        willRender: options.willRender !== false, frame: frame
      });
    }),

    // What Turbo's own BrowserAdapter does to run the visit, per version: load the cached snapshot as a
    // preview, issue the request (or replay a form submission's response), change history in 7.0–7.1
    // (7.2+ does it when rendering), go to a same-page anchor where Turbo still has that step.
    visitStarted: guarded(function (visit) {
      currentVisit = visit;
      var hasCachedSnapshot = false;
      try { hasCachedSnapshot = !!visit.hasCachedSnapshot(); } catch (error) { report(error); }
      post({
        turbo: "visitStarted",
        identifier: String(visit.identifier),
        location: href(visit.location),
        action: visit.action,
        hasCachedSnapshot: hasCachedSnapshot,
        restorationIdentifier: visit.restorationIdentifier == null ? null : String(visit.restorationIdentifier)
      });
      visit.loadCachedSnapshot();
      visit.issueRequest();
      if (usesAdapterHistoryChange && typeof visit.changeHistory === "function") visit.changeHistory();
      if (typeof visit.goToSamePageAnchor === "function") visit.goToSamePageAnchor();
    }),

    visitRequestStarted: guarded(function (visit) {}),

    visitRequestCompleted: guarded(function (visit) {
      visit.loadResponse();
    }),

    visitRequestFailedWithStatusCode: guarded(function (visit, statusCode) {
      post({
        turbo: "visitRequestFailed",
        identifier: String(visit.identifier),
        location: href(visit.location),
        statusCode: typeof statusCode === "number" ? statusCode : Number(statusCode) || 0
      });
    }),

    visitRequestFinished: guarded(function (visit) {}),

    visitRendered: guarded(function (visit) {
      post({ turbo: "visitRendered", identifier: String(visit.identifier) }, true);
    }),

    visitCompleted: guarded(function (visit) {
      if (currentVisit === visit) currentVisit = null;
      post({
        turbo: "visitCompleted",
        identifier: String(visit.identifier),
        location: visitLocation(visit),
        restorationIdentifier: visit.restorationIdentifier == null ? null : String(visit.restorationIdentifier),
        title: document.title
      }, true);
    }),

    // Called after an error response was rendered; we never render one, so there is nothing to say.
    visitFailed: guarded(function (visit) {
      if (currentVisit === visit) currentVisit = null;
    }),

    formSubmissionStarted: guarded(function (formSubmission) {
      post({ turbo: "formSubmissionStarted", location: formLocation(formSubmission) });
    }),

    formSubmissionFinished: guarded(function (formSubmission) {
      post({ turbo: "formSubmissionFinished", location: formLocation(formSubmission) });
    }),

    pageInvalidated: guarded(function (reason) {
      var location = null;
      try { if (currentVisit) location = visitLocation(currentVisit); } catch (error) { report(error); }
      post({
        turbo: "pageInvalidated",
        location: location || href(window.location.href),
        reason: reason && typeof reason.reason === "string" ? reason.reason : (typeof reason === "string" ? reason : null)
      });
    }),

    // Turbo 8.0.13+: no hover/touch prefetching. A prefetched link could be a native screen, and a tap
    // would otherwise fetch twice (as in the upstream native adapters).
    linkPrefetchingIsEnabledForLocation: function () { return false; }
  };

  // `formSubmission.location` exists from Turbo 7.2; 7.0–7.1 have only `action` (a string).
  function formLocation(formSubmission) {
    try {
      if (formSubmission.location) return href(formSubmission.location);
      if (formSubmission.action) return href(formSubmission.action);
      if (formSubmission.fetchRequest && formSubmission.fetchRequest.url) return href(formSubmission.fetchRequest.url);
    } catch (error) { report(error); }
    return href(window.location.href);
  }

  // MARK: - Native → page

  var api = {
    visitProposal: guarded(function (proposal, action) {
      var kept = takeProposal(Number(proposal));
      if (!kept) return false;
      var options = copyOptions(kept.options);
      if (isVisitAction(action)) options.action = action;
      return startVisit(kept.location, options.restorationIdentifier, options);
    }),

    visit: guarded(function (location, action, restorationId) {
      var options = { action: isVisitAction(action) ? action : "advance" };
      return startVisit(location, restorationId ? String(restorationId) : undefined, options);
    }),

    discardProposal: guarded(function (proposal) {
      return takeProposal(Number(proposal)) !== null;
    }),

    clearSnapshotCache: guarded(function () {
      if (!turbo) return false;
      if (typeof turbo.session.clearCache === "function") turbo.session.clearCache();
      else if (turbo.cache && typeof turbo.cache.clear === "function") turbo.cache.clear();
      else return false;
      return true;
    }),

    cacheSnapshot: guarded(function () {
      if (!turbo || !turbo.session.view || typeof turbo.session.view.cacheSnapshot !== "function") return false;
      var result = turbo.session.view.cacheSnapshot();
      if (result && typeof result.then === "function") result.then(null, report);
      return true;
    }),

    restored: guarded(function () {
      dispatch(new PageEvent("native:restore"));
      return true;
    })
  };

  Object.defineProperty(window, "__stradaTurbo", { value: Object.freeze(api), writable: false, enumerable: false, configurable: false });
})();
