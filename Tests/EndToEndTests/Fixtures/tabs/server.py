#!/usr/bin/env python3
"""A small app with tabs for the end-to-end tests (Tests/EndToEndTests/TabTests.swift), counting requests.

    python3 server.py --port 0 [--turbo FILE]

Prints one line, "listening on http://127.0.0.1:N/", when it is ready. Python 3 standard library only. Pages
use the web library (SDK/web/strada.js) and the demo's button component (Examples/demo/components): each page
has one bridge button, so a native header-bar button "<name> right" follows the screen shown.

    GET  /tab/NAME          a tab's start page, titled "NAME", with a button "NAME right" linking to /tab/NAME/next
    GET  /tab/NAME/next     the next screen, titled "NAME next", with a button "NAME next right"
    GET  /requests          {"<path>": <times served>, …}: every HTML page served so far
    GET  /strada.js, /demo.js, /components/button.js, /turbo.js (with --turbo FILE: every page loads it)
"""
import html
import json
import os
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import fixture_server  # noqa: E402 (Fixtures/fixture_server.py)

REPOSITORY = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
DEMO = os.path.join(REPOSITORY, "Examples", "demo")
STATIC = {
    "/strada.js": os.path.join(REPOSITORY, "SDK", "web", "strada.js"),
    "/demo.js": os.path.join(DEMO, "demo.js"),
    "/components/button.js": os.path.join(DEMO, "components", "button.js"),
}
PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>%(title)s</title>
  %(turbo)s
  <script src="/strada.js"></script>
  <script src="/demo.js"></script>
  <script src="/components/button.js" defer></script>
  <style>body { font: 15px sans-serif; margin: 32px; } h1 { font-weight: 600; }</style>
</head>
<body>
  <h1>%(title)s</h1>
  <p>A screen of the tab's own stack, in its own web view.</p>
  <a href="%(target)s" data-controller="bridge--button" data-bridge-title="%(button)s">%(button)s</a>
</body>
</html>
"""
TURBO_FILE = None
requests = {}
lock = threading.Lock()


class Handler(fixture_server.Handler):
    app = "tabs"

    def do_GET(self):
        path = self.path.split("?")[0]
        static = dict(STATIC, **({"/turbo.js": TURBO_FILE} if TURBO_FILE else {}))
        if path in static:
            with open(static[path], "rb") as file:
                return self.send_bytes(200, file.read(), "text/javascript; charset=utf-8")
        if path == "/requests":
            with lock:
                counts = dict(requests)
            return self.send_bytes(200, json.dumps(counts).encode("utf-8"), "application/json")
        parts = path.strip("/").split("/")
        if len(parts) in (2, 3) and parts[0] == "tab" and (len(parts) == 2 or parts[2] == "next"):
            with lock:
                requests[path] = requests.get(path, 0) + 1
            title = parts[1] if len(parts) == 2 else parts[1] + " next"
            target = "/tab/%s/next" % parts[1] if len(parts) == 2 else "/tab/%s" % parts[1]
            values = {"title": html.escape(title), "target": html.escape(target),
                      "button": html.escape(title + " right"),
                      "turbo": '<script src="/turbo.js"></script>' if TURBO_FILE else ""}
            return self.send_bytes(200, (PAGE % values).encode("utf-8"), "text/html; charset=utf-8")
        self.send_bytes(404, b"not found", "text/plain")


def main():
    arguments = fixture_server.arguments("The tab tests' app.")
    global TURBO_FILE
    TURBO_FILE = arguments.turbo
    fixture_server.serve(arguments.port, Handler)


if __name__ == "__main__":
    main()
