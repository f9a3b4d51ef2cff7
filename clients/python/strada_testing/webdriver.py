#!/usr/bin/env python3
"""strada-webdriver: WebKitWebDriver with real input, for strada-host.

WebKitGTK 6.0's WebDriver answers element click, element send keys and the actions API with "unsupported
operation" for GTK 4 web views. This intermediary starts WebKitWebDriver on a private port and forwards every
command to it unchanged, except those: it performs them as real X input (XTEST) into strada-host's own window,
so the page sees a person's input (`event.isTrusted` is true), and answers as the W3C WebDriver spec says.

    python3 webdriver.py --port 4444 [--driver WebKitWebDriver]   # prints "listening on http://127.0.0.1:4444/"
    python3 -m strada_testing.webdriver --port 0                  # any free port

Point Selenium or Capybara at it as at any remote WebDriver; the Ruby and Python clients start it for you.
Python's standard library only (ctypes for libX11 and libXtst). Under X11 (Xvfb in CI). Where real input is
impossible (no X window of the host, e.g. a Wayland session), the commands answer "unsupported operation" with
the reason, unless STRADA_SCRIPT_INPUT=1 asks for the old script events (not trusted) instead.
"""
import argparse
import base64
import http.client
import http.server
import io
import json
import mimetypes
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import zipfile

if __package__:
    from .session import Session, WebDriverError
    from .page_scripts import ARRIVED, FOCUS, GEOMETRY, REPAINT_START, REPAINT_STOP, SCRIPT_CLICK, SCRIPT_TYPE
    from .page_scripts import SELECT_OPTION, SET_FILES
    from .x11 import XError
else:  # run as a file: python3 …/strada_testing/webdriver.py
    from session import Session, WebDriverError
    from page_scripts import ARRIVED, FOCUS, GEOMETRY, REPAINT_START, REPAINT_STOP, SCRIPT_CLICK, SCRIPT_TYPE
    from page_scripts import SELECT_OPTION, SET_FILES
    from x11 import XError

ELEMENT = "element-6066-11e4-a52e-4f735466cecf"
BUTTONS = {0: 1, 1: 2, 2: 3, 3: 8, 4: 9}  # WebDriver's buttons → X's
DOUBLE_CLICK = 0.5  # s: GTK's gtk-double-click-time is 400 ms
SCREENSHOT_TIMEOUT = 20  # s: a screenshot WebKit never takes is an error, never a hang


class Intermediary:
    def __init__(self, driver_port, driver_process):
        self.upstream = ("127.0.0.1", driver_port)
        self.driver_process = driver_process
        self.sessions = {}
        self.local = threading.local()
        self.script_input = os.environ.get("STRADA_SCRIPT_INPUT") == "1"

    # Talking to WebKitWebDriver

    def forward(self, method, path, body=None):
        for attempt in (0, 1):
            connection = getattr(self.local, "connection", None)
            if connection is None:
                connection = self.local.connection = http.client.HTTPConnection(*self.upstream, timeout=600)
            try:
                headers = {"Content-Type": "application/json; charset=utf-8"} if body is not None else {}
                connection.request(method, path, body=body, headers=headers)
                response = connection.getresponse()
                return response.status, response.read()
            except (http.client.HTTPException, OSError):
                connection.close()
                self.local.connection = None
                if attempt:
                    raise

    def call(self, session, method, path, payload=None):
        body = json.dumps(payload).encode() if payload is not None else None
        status, data = self.forward(method, "/session/%s%s" % (session.id, path), body)
        value = json.loads(data or b"{}").get("value")
        if status >= 400:
            raise WebDriverError(status, value.get("error", "unknown error"), value.get("message", ""))
        return value

    def script(self, session, source, *arguments):
        return self.call(session, "POST", "/execute/sync", {"script": source, "args": list(arguments)})

    def host_pid(self):
        """strada-host: the child WebKitWebDriver started most recently."""
        children = []
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open("/proc/%s/stat" % entry) as file:
                        fields = file.read().rsplit(")", 1)[1].split()
                    if int(fields[1]) == self.driver_process.pid:
                        children.append(int(entry))
                except (OSError, IndexError, ValueError):
                    continue
        return max(children) if children else None

    # Where in the window

    def locate(self, session, element, scroll=True):
        reference = {ELEMENT: element} if element else None
        found = self.script(session, GEOMETRY, reference, scroll)
        if found.get("stale"):
            raise WebDriverError(404, "stale element reference", "the element is no longer in the document")
        return found

    def to_window(self, session, viewport, x, y):
        """Viewport CSS pixels → window pixels: the web view fills the window's width and its bottom (the
        header bar above it); a client-side border, where there is one, is as wide on every side."""
        width, height = session.screen.size(session.window)
        ratio = viewport.get("ratio") or 1
        border = max(0, (width - viewport["width"] * ratio) / 2)
        top = height - viewport["height"] * ratio - border
        # The viewport's first pixel row never reaches the page (the header bar's edge gets it): a move there
        # lands one row lower, as Selenium's scroll_by_amount (at the viewport's origin) needs.
        return border + x * ratio, top + max(y, 1) * ratio

    def move(self, session, viewport, x, y):
        if not (0 <= x < viewport["width"] and 0 <= y < viewport["height"]):
            raise WebDriverError(400, "move target out of bounds", "(%s, %s) is outside the viewport" % (x, y))
        session.screen.move(session.window, *self.to_window(session, viewport, x, y))
        session.pointer = (x, y)

    def arrived(self, session, baseline, expected):
        """Waits until the page got the input just made (see ARRIVED)."""
        expected = {type: count for type, count in expected.items() if count}
        if not expected or not baseline:
            return
        try:
            self.call(session, "POST", "/execute/async", {"script": ARRIVED, "args": [baseline, expected]})
        except WebDriverError:
            pass  # the page navigated or closed meanwhile: nothing left to wait for

    # The commands

    def element_click(self, session, element, payload):
        where = self.locate(session, element)
        if where.get("option"):
            self.script(session, SELECT_OPTION, {ELEMENT: element})
            return {"value": None}
        if where.get("file"):
            return None  # a file input opens a file chooser: WebKitWebDriver answers as it does
        if where.get("hidden") or not where.get("inView"):
            raise WebDriverError(400, "element not interactable", "the element has no box in the viewport")
        if where["covered"]:
            raise WebDriverError(400, "element click intercepted", "another element would receive the click: "
                                 + where["covered"])
        if self.script_input:
            self.script(session, SCRIPT_CLICK, {ELEMENT: element})
            return {"value": None}
        with session.lock:
            session.attach()
            session.screen.focus(session.window, session.host_pid)
            self.move(session, where["viewport"], where["x"], where["y"])
            # An element click is one click: a press within the double-click time of the last one would make
            # GTK count it as the second of a double click, so it waits until a person's next click could come.
            time.sleep(max(0, session.last_press + DOUBLE_CLICK - time.monotonic()))
            session.last_press = time.monotonic()
            session.screen.button(1, True)
            session.screen.button(1, False)
            self.arrived(session, where.get("counts"), {"mouseup": 1})
        return {"value": None}

    def element_send_keys(self, session, element, payload):
        text = payload.get("text")
        if text is None:
            text = "".join(payload.get("value") or [])
        where = self.locate(session, element)
        if where.get("file"):
            return self.set_files(session, element, text)
        if self.script_input:
            self.script(session, SCRIPT_TYPE, {ELEMENT: element}, text)
            return {"value": None}
        counts = self.script(session, FOCUS, {ELEMENT: element})
        with session.lock:
            session.attach()
            session.screen.focus(session.window, session.host_pid)
            released = session.keyboard.releases
            session.keyboard.type(text)
            self.arrived(session, counts, {"keyup": session.keyboard.releases - released})
        return {"value": None}

    def set_files(self, session, element, text):
        files = []
        for path in filter(None, text.split("\n")):
            try:
                with open(path, "rb") as file:
                    data = base64.b64encode(file.read()).decode()
            except OSError as error:
                raise WebDriverError(400, "invalid argument", "cannot read %s: %s" % (path, error.strerror))
            kind = mimetypes.guess_type(path)[0] or ""
            files.append({"name": os.path.basename(path), "type": kind, "data": data})
        self.script(session, SET_FILES, {ELEMENT: element}, files)
        return {"value": None}

    def upload(self, session, payload):
        """Selenium's file upload to a remote driver (a zip, in base64): here the driver is on this machine, so
        the file is unpacked into a folder of the session's and its path returned, for send keys."""
        if session.uploads is None:
            session.uploads = tempfile.mkdtemp(prefix="strada-webdriver-")
        folder = tempfile.mkdtemp(dir=session.uploads)
        with zipfile.ZipFile(io.BytesIO(base64.b64decode(payload.get("file", "")))) as archive:
            names = [name for name in archive.namelist() if not name.endswith("/")]
            if not names or any(name.startswith("/") or ".." in name.split("/") for name in names):
                raise WebDriverError(400, "invalid argument", "the upload has no file, or one outside its folder")
            archive.extractall(folder)
        return {"value": os.path.join(folder, names[0])}

    def perform_actions(self, session, payload):
        sources = payload.get("actions") or []
        with session.lock:
            session.attach()
            session.screen.focus(session.window, session.host_pid)
            found = self.locate(session, None)
            viewport, start = found["viewport"], (session.pointer, len(session.released), session.keyboard.releases)
            ticks = max((len(source.get("actions") or []) for source in sources), default=0)
            for tick in range(ticks):
                duration = 0
                for source in sources:
                    actions = source.get("actions") or []
                    if tick < len(actions):
                        duration = max(duration, self.act(session, source.get("type"), actions[tick], viewport) or 0)
                if duration:
                    time.sleep(min(duration, 10000) / 1000)
            self.arrived(session, found.get("counts"), {
                "mouseup": len(session.released) - start[1], "keyup": session.keyboard.releases - start[2],
                "mousemove": int(session.pointer != start[0] and not session.released[start[1]:])})
        return {"value": None}

    def act(self, session, kind, action, viewport):
        name = action.get("type")
        if name == "pause":
            return action.get("duration") or 0
        if kind == "key":
            session.keyboard.action(name, action.get("value", ""))
            return 0
        if kind == "pointer" and name == "pointerMove":
            self.pointer_move(session, action, viewport)
        elif kind == "pointer" and name in ("pointerDown", "pointerUp"):
            button = BUTTONS.get(action.get("button", 0), 1)
            pressed = name == "pointerDown"
            if pressed != (button in session.buttons):
                session.screen.button(button, pressed)
                session.last_press = time.monotonic() if pressed else session.last_press
                (session.buttons.add if pressed else session.buttons.discard)(button)
                if not pressed:
                    session.released.append(button)
        elif kind == "wheel" and name == "scroll":
            self.pointer_move(session, action, viewport)
            for delta, (back, forth) in ((action.get("deltaY", 0), (4, 5)), (action.get("deltaX", 0), (6, 7))):
                for _ in range(min(50, max(1, abs(int(delta)) // 50)) if delta else 0):
                    session.screen.button(back if delta < 0 else forth, True)
                    session.screen.button(back if delta < 0 else forth, False)
        return 0

    def pointer_move(self, session, action, viewport):
        origin, x, y = action.get("origin", "viewport"), action.get("x", 0), action.get("y", 0)
        if isinstance(origin, dict):
            where = self.locate(session, origin.get(ELEMENT), scroll=False)
            if where.get("hidden"):
                raise WebDriverError(400, "move target out of bounds", "the element has no box")
            x, y = where["x"] + x, where["y"] + y
        elif origin == "pointer":
            x, y = session.pointer[0] + x, session.pointer[1] + y
        start, steps = session.pointer, max(1, min(10, int(action.get("duration") or 0) // 25))
        for step in range(1, steps + 1):  # a move that lasts is a few motions, as a hand's is
            self.move(session, viewport, round(start[0] + (x - start[0]) * step / steps),
                      round(start[1] + (y - start[1]) * step / steps))
            if step < steps:
                time.sleep(0.02)

    def release_actions(self, session, payload):
        with session.lock:
            if session.screen is not None:
                for button in sorted(session.buttons):
                    session.screen.button(button, False)
                session.buttons.clear()
                session.keyboard.release_all()
        return {"value": None}


    def screenshot(self, session, *rest):
        """A page or element screenshot, forwarded with the page kept repainting meanwhile (REPAINT_START): without
        a new frame WebKit never answers (docs/engine.md). Answers what WebKitWebDriver answered, or a WebDriver
        "timeout" error after SCREENSHOT_TIMEOUT: never a hang."""
        try:
            self.script(session, REPAINT_START)
        except WebDriverError:
            pass  # no page to script (an alert is open, the page crashed): WebKitWebDriver's answer says why
        connection = http.client.HTTPConnection(*self.upstream, timeout=SCREENSHOT_TIMEOUT)
        try:
            connection.request("GET", self.local.path)
            response = connection.getresponse()
            return response.status, response.read()
        except (socket.timeout, TimeoutError):
            raise WebDriverError(500, "timeout", (
                "WebKit rendered no frame to take the screenshot from within %d s (docs/engine.md)"
                % SCREENSHOT_TIMEOUT))
        finally:
            connection.close()
            try:
                self.script(session, REPAINT_STOP)
            except WebDriverError:
                pass


ROUTES = [
    ("GET", re.compile(r"^/session/([^/]+)/screenshot$"), "screenshot"),
    ("GET", re.compile(r"^/session/([^/]+)/element/([^/]+)/screenshot$"), "screenshot"),
    ("POST", re.compile(r"^/session/([^/]+)/element/([^/]+)/click$"), "element_click"),
    ("POST", re.compile(r"^/session/([^/]+)/element/([^/]+)/value$"), "element_send_keys"),
    ("POST", re.compile(r"^/session/([^/]+)/actions$"), "perform_actions"),
    ("DELETE", re.compile(r"^/session/([^/]+)/actions$"), "release_actions"),
    ("POST", re.compile(r"^/session/([^/]+)/se/file$"), "upload"),
]


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    intermediary = None

    def log_message(self, format, *arguments):
        pass

    def setup(self):
        super().setup()
        # Headers and body leave in separate writes: without this, Nagle's algorithm holds the body back until
        # the client's delayed acknowledgement (40 ms a command).
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def do_GET(self):
        self.route("GET")

    def do_POST(self):
        self.route("POST")

    def do_DELETE(self):
        self.route("DELETE")

    def route(self, method):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        intermediary = self.intermediary
        intermediary.local.path = self.path
        try:
            answer = self.handle_input(method, body)
            if isinstance(answer, tuple):  # forwarded: WebKitWebDriver's own status and body
                return self.answer(*answer)
            if answer is not None:
                return self.answer(200, json.dumps(answer).encode())
        except WebDriverError as error:
            return self.answer(error.status, json.dumps({"value": {
                "error": error.error, "message": error.message, "stacktrace": ""}}).encode())
        except XError as error:
            if not intermediary.script_input:
                return self.answer(500, json.dumps({"value": {"error": "unsupported operation", "message": (
                    "no real input: %s (STRADA_SCRIPT_INPUT=1 for script events instead)" % error),
                    "stacktrace": ""}}).encode())
        status, data = intermediary.forward(method, self.path, body)
        if method == "POST" and self.path.rstrip("/") == "/session" and status == 200:
            value = json.loads(data).get("value", {})
            intermediary.sessions[value.get("sessionId")] = Session(value.get("sessionId"), intermediary.host_pid())
        elif method == "DELETE" and re.match(r"^/session/[^/]+/?$", self.path):
            session = intermediary.sessions.pop(self.path.strip("/").split("/")[1], None)
            if session:
                session.close()
        self.answer(status, data)

    def handle_input(self, method, body):
        for verb, pattern, name in ROUTES:
            match = pattern.match(self.path) if verb == method else None
            session = match and self.intermediary.sessions.get(match.group(1))
            if session and not (name == "perform_actions" and self.intermediary.script_input):
                command = getattr(self.intermediary, name)
                return command(session, *match.groups()[1:], json.loads(body or b"{}"))
        return None

    def answer(self, status, data):
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def main(arguments=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-p", "--port", type=int, default=4444)
    parser.add_argument("--driver", default="WebKitWebDriver", help="WebKit's WebDriver server to put input into")
    options = parser.parse_args(arguments)
    driver_port = free_port()
    driver = subprocess.Popen([options.driver, "--host=127.0.0.1", "--port=%d" % driver_port],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 10
    while True:
        try:
            socket.create_connection(("127.0.0.1", driver_port), timeout=1).close()
            break
        except OSError:
            if driver.poll() is not None or time.time() > deadline:
                sys.exit("strada-webdriver: %s did not start (Debian: webkit2gtk-driver)" % options.driver)
            time.sleep(0.05)
    Handler.intermediary = Intermediary(driver_port, driver)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", options.port), Handler)
    server.daemon_threads = True

    def stop(*_):
        driver.terminate()
        threading.Thread(target=server.shutdown, daemon=True).start()
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    print("listening on http://127.0.0.1:%d/" % server.server_address[1], flush=True)
    server.serve_forever()
    driver.terminate()
    try:
        driver.wait(5)
    except subprocess.TimeoutExpired:
        driver.kill()


if __name__ == "__main__":
    main()
