"""The scripts strada-webdriver runs in the page, through the proxied session: where an element is, whether the
input made arrived, and the two things no input can do here (an <option>'s selection, a file input's files)."""

# Input reaches the page after the command answers (the engine queues key events, one at a time): the page counts
# the trusted key and mouse releases and moves it gets, and the command answers once the ones it made arrived,
# the page went away, or 1.5 s passed — as a person's next action comes after the page reacted.
COUNT = """
const counts = {...(window.__stradaInput ||= (() => {
  const seen = {keyup: 0, mouseup: 0, mousemove: 0};
  for (const type in seen) addEventListener(type, (event) => { if (event.isTrusted) seen[type] += 1; }, true);
  return seen;
})())};
"""
ARRIVED = """
const baseline = arguments[0], expected = arguments[1], done = arguments[arguments.length - 1];
const seen = window.__stradaInput, deadline = Date.now() + 1500;
if (!seen) return done(false);
addEventListener("pagehide", () => done(false));
const check = () => {
  if (Object.keys(expected).every((type) => seen[type] - baseline[type] >= expected[type])) return done(true);
  if (Date.now() > deadline) return done(false);
  setTimeout(check, 2);
};
check();
"""
# The element's in-view centre (scrolled into view first, as the spec's element click does), what is on top
# there, and the viewport's size to map CSS pixels to the window.
GEOMETRY = COUNT + """
const element = arguments[0], scroll = arguments[1];
const viewport = {width: innerWidth, height: innerHeight, ratio: devicePixelRatio};
if (!element) return {viewport, counts};
if (!element.isConnected) return {stale: true};
if (element.localName === "option") return {option: true, viewport, counts};
const file = element.localName === "input" && element.type === "file";
const rectangle = () => element.getClientRects()[0];
let r = rectangle();
if (!r) return {hidden: true, file, viewport};
const inside = (r) => r.right > 0 && r.bottom > 0 && r.left < innerWidth && r.top < innerHeight;
if (scroll && (!inside(r) || r.top < 0 || r.bottom > innerHeight)) {
  element.scrollIntoView({block: "end", inline: "nearest"});
  r = rectangle();
}
const left = Math.max(0, Math.min(r.left, r.right)), right = Math.min(innerWidth, Math.max(r.left, r.right));
const top = Math.max(0, Math.min(r.top, r.bottom)), bottom = Math.min(innerHeight, Math.max(r.top, r.bottom));
const x = Math.floor((left + right) / 2), y = Math.floor((top + bottom) / 2);
const hit = inside(r) ? document.elementFromPoint(x, y) : null;
const on = hit && (hit === element || element.contains(hit) || (element.labels && [...element.labels].includes(hit)));
const describe = (e) => e ? e.outerHTML.slice(0, 120) : "nothing";
return {x, y, viewport, counts, file, inView: inside(r), covered: on ? null : describe(hit)};
"""
FOCUS = COUNT + """
const element = arguments[0];
if (document.activeElement !== element) {
  element.focus();
  if (typeof element.setSelectionRange === "function" && typeof element.value === "string") {
    try { element.setSelectionRange(element.value.length, element.value.length); } catch (e) {}
  }
}
return counts;
"""
# The spec's element click on an <option> is no pointer input either: the remote end selects it and fires the
# events itself. WebKitWebDriver refuses here, so the intermediary does it as the spec's steps say, without the
# spec's synthetic mouse events (a mousedown on a <select>, even a script's, opens the engine's popup menu).
SELECT_OPTION = """
const option = arguments[0], select = option.closest("select, datalist");
if (!select || option.disabled || select.disabled) return;
select.focus();
const before = option.selected;
option.selected = select.multiple ? !before : true;
if (option.selected !== before) {
  select.dispatchEvent(new Event("input", {bubbles: true, composed: true}));
  select.dispatchEvent(new Event("change", {bubbles: true}));
}
"""
# A file input's files: no typing chooses files, and WebKitWebDriver refuses; the files are read here and given
# to the input as a person's choice in the file chooser would (input and change events follow).
SET_FILES = """
const input = arguments[0], files = arguments[1], transfer = new DataTransfer();
if (!input.multiple) transfer.items.clear();
for (const file of (input.multiple ? [...input.files] : [])) transfer.items.add(file);
for (const {name, type, data} of files) {
  const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
  transfer.items.add(new File([bytes], name, {type}));
}
input.files = transfer.files;
input.dispatchEvent(new Event("input", {bubbles: true, composed: true}));
input.dispatchEvent(new Event("change", {bubbles: true}));
"""
SCRIPT_CLICK = "arguments[0].scrollIntoView({block: 'center'}); arguments[0].focus(); arguments[0].click();"
SCRIPT_TYPE = """
const element = arguments[0], text = arguments[1];
element.focus();
const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(element), "value")?.set;
setter ? setter.call(element, element.value + text) : (element.value += text);
element.dispatchEvent(new InputEvent("input", {bubbles: true, inputType: "insertText", data: text}));
element.dispatchEvent(new Event("change", {bubbles: true}));
"""

# WebKitGTK 2.50 with hardware acceleration off (the host's default) answers a WebDriver screenshot only once the
# web process renders a new frame, and an idle page renders none (docs/engine.md): the command would never
# answer. While a screenshot is taken, a transparent 1-pixel element in the page's top-left corner changes every
# 40 ms (a frame each time); it is removed right after, so the page is left as it was.
REPAINT_START = """
if (!window.__stradaRepaint) {
  const dot = document.createElement("strada-repaint");
  dot.setAttribute("aria-hidden", "true");
  dot.style.cssText = "position:fixed;left:0;top:0;width:1px;height:1px;pointer-events:none;z-index:2147483647";
  (document.body || document.documentElement).appendChild(dot);
  let tick = 0;
  const timer = setInterval(() => { dot.style.background = (tick++ % 2) ? "rgba(0,0,0,0.01)" : "transparent"; }, 40);
  window.__stradaRepaint = () => { clearInterval(timer); dot.remove(); delete window.__stradaRepaint; };
}
"""
REPAINT_STOP = "window.__stradaRepaint && window.__stradaRepaint();"
