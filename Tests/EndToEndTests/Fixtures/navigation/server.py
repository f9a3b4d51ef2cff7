#!/usr/bin/env python3
"""A small Rails-style app for the navigation end-to-end tests (Tests/EndToEndTests/NavigationTests.swift).

    python3 server.py --port 0 [--turbo FILE]

Prints one line, "listening on http://127.0.0.1:N/", when it is ready. Python 3 standard library only. Every
HTML page's title ends with " #N", N counting the HTML pages served so far, so a test sees a page fetched
afresh. Pages use the web library (SDK/web/strada.js) and the demo's button and form components
(Examples/demo/components): a native header-bar button clicks its element; the form's native Save submits it.

    GET  /page/NAME?right=T&left=T   a page with up to two buttons, titled "NAME right" / "NAME left"; T is a
    GET  /modal/page/NAME?…          path (the button is a link to it), js:forward (history.forward()) or
                                     js:back (history.back()); under /modal/ the path configuration says modal
    GET  /refresh                    turbo-refresh-method morph; a "Reload" button (Turbo.visit(location.href,
                                     {action: "replace"})) and a form (Save)
    POST /refresh                    303 → /refresh, whose next GET shows the flash "Saved N"
    GET  /modal/form?then=X          a form (Save) in a modal; X is recede, resume or refresh
    POST /modal/form?then=X          303 → /X_historical_location (turbo-rails' recede_or_redirect_to & co.)
    GET  /recede_historical_location, /resume_historical_location, /refresh_historical_location
    GET  /form                       a form (Save), for the page without Turbo restored from the back/forward cache
    POST /form                       303 → /page/saved
    GET  /frame, /frame/2            a <turbo-frame data-turbo-action="advance">: /frame's link (a right
                                     button) loads /frame/2's frame, whose content has a left button
    GET  /forums[?sort=S]            hotwire-native-ios #53's page: a right button outside a
                                     <turbo-frame data-turbo-action="replace">, whose left button links to the
                                     next sort (newest → trending → unanswered): links that differ only in a query
    GET  /slow-title                 a page whose <title> comes 1.5 s after its first bytes (the document is
                                     committed with no title meanwhile)
    GET  /missing                    404 (an HTML page)
    GET  /private                    401 (an HTML page); the path configuration routes 401 to /page/signin, a modal
    GET  /away                       302 → the same server under another origin (localhost instead of 127.0.0.1)
    GET  /reloading[?slow=1]         turbo-visit-control reload: Turbo cannot render it in place (pageInvalidated);
                                     a right button; with slow=1, an image that takes 3 s (GET /slow-image)
    GET  /flaky                      500 until GET /flaky/fix, then a page with a right button
    GET  /dropping                   no response at all (the connection closed, as a server going away) until
                                     GET /dropping/fix, then a page with a right button
    GET  /configurations/linux.json  path-configuration.json (next to this file)
    GET  /strada.js, /demo.js, /components/*.js, /turbo.js (with --turbo FILE)
"""
import html
import os
import sys
import threading
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import fixture_server  # noqa: E402 (Fixtures/fixture_server.py)

REPOSITORY = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
DEMO = os.path.join(REPOSITORY, "Examples", "demo")
PAGES = os.path.join(HERE, "pages")
HISTORICAL = ("/recede_historical_location", "/resume_historical_location", "/refresh_historical_location")
TURBO_FILE = None
state = {"served": 0, "saved": 0, "flash": "", "flaky": True, "dropping": True}
lock = threading.Lock()


def page_file(name):
    with open(os.path.join(PAGES, name), encoding="utf-8") as file:
        return file.read()


def fill(template, **values):
    for key, value in values.items():
        template = template.replace("{{" + key + "}}", value)
    return template


def button(name, side, target):
    """A bridge button for `target`: a link to a path, or a script (js:forward, js:back)."""
    title = html.escape("%s %s" % (name, side), quote=True)
    attributes = 'data-controller="bridge--button" data-bridge-title="%s"' % title
    if side == "left":
        attributes += ' data-bridge-side="left"'
    if target.startswith("js:"):
        script = {"forward": "history.forward()", "back": "history.back()"}[target[3:]]
        return '<button type="button" %s onclick="%s">%s</button>' % (attributes, script, title)
    return '<a href="%s" %s>%s</a>' % (html.escape(target, quote=True), attributes, title)


class Handler(fixture_server.Handler):
    app = "navigation"

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        path, query = url.path, urllib.parse.parse_qs(url.query)
        static = {"/strada.js": os.path.join(REPOSITORY, "SDK", "web", "strada.js"),
                  "/demo.js": os.path.join(DEMO, "demo.js"),
                  "/components/button.js": os.path.join(DEMO, "components", "button.js"),
                  "/components/form.js": os.path.join(DEMO, "components", "form.js"),
                  "/configurations/linux.json": os.path.join(HERE, "path-configuration.json")}
        if path == "/turbo.js" and TURBO_FILE:
            return self.send_file(TURBO_FILE)
        if path in static:
            return self.send_file(static[path])
        for prefix in ("/page/", "/modal/page/"):
            if path.startswith(prefix):
                name = path[len(prefix):]
                buttons = [button(name, side, query[side][0]) for side in ("right", "left") if side in query]
                return self.send_page(name, "\n".join(buttons))
        if path == "/refresh":
            with lock:
                flash, state["flash"] = state["flash"], ""
            meta = ('<meta name="turbo-refresh-method" content="morph">\n'
                    '  <meta name="turbo-refresh-scroll" content="preserve">')
            body = fill(page_file("refresh.html"), flash=html.escape(flash or "no flash"), path="/refresh")
            return self.send_page("refresh · " + (flash or "no flash"), body, meta=meta)
        if path == "/modal/form":
            action = html.escape(self.path, quote=True)
            return self.send_page("modal form", fill(page_file("form.html"), action=action))
        if path == "/form":
            return self.send_page("form", fill(page_file("form.html"), action="/form"))
        if path == "/forums":
            sort = query.get("sort", ["newest"])[0]
            following = {"newest": "trending", "trending": "unanswered"}.get(sort, "newest")
            body = (button("forums", "right", "/page/topic") + '\n<turbo-frame id="list" data-turbo-action="replace">'
                    + button("sort " + html.escape(sort), "left", "/forums?sort=" + following) + "</turbo-frame>")
            return self.send_page("forums " + sort, body)
        if path == "/frame":
            link = '<a href="/frame/2" data-controller="bridge--button" data-bridge-title="frame link">Load</a>'
            return self.send_page("frame", fill(page_file("frame.html"), frame=link))
        if path == "/frame/2":
            content = ('<button type="button" data-controller="bridge--button" data-bridge-side="left" '
                       'data-bridge-title="frame 2 left">frame 2 left</button>')
            return self.send_page("frame 2", fill(page_file("frame.html"), frame=content))
        if path in HISTORICAL:
            return self.send_page(path.strip("/"), "<p>Never shown by a native app.</p>")
        if path == "/slow-title":
            with lock:
                state["served"] += 1
                serial = state["served"]
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            self.wfile.write(b'<!DOCTYPE html>\n<html><head><meta charset="utf-8">\n' + b" " * 2048 + b"\n")
            self.wfile.flush()
            time.sleep(1.5)
            self.wfile.write(("<title>slow title #%d</title></head><body>slow</body></html>\n" % serial).encode())
            return None
        if path == "/private":
            return self.send_page("private", "<p>Sign in first.</p>", status=401)
        if path == "/missing":
            return self.send_page("missing", "<p>No such page.</p>", status=404)
        if path == "/away":
            self.send_response(302)
            self.send_header("Location", "http://localhost:%d/page/elsewhere" % self.server.server_address[1])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        if path == "/reloading":
            meta = '<meta name="turbo-visit-control" content="reload">'
            body = button("reloading", "right", "/page/next")
            if "slow" in query:
                body += '\n<img src="/slow-image" alt="">'  # the document finishes loading 3 s later
            return self.send_page("reloading", body, meta=meta)
        if path == "/slow-image":
            time.sleep(3)
            return self.send_bytes(200, b"", "image/gif")
        if path == "/flaky/fix":
            with lock:
                state["flaky"] = False
            return self.send_bytes(200, b"fixed\n", "text/plain; charset=utf-8")
        if path == "/dropping/fix":
            with lock:
                state["dropping"] = False
            return self.send_bytes(200, b"fixed\n", "text/plain; charset=utf-8")
        if path == "/dropping":
            if state["dropping"]:
                self.close_connection = True  # nothing written: the client sees the connection end
                return None
            return self.send_page("dropping", button("dropping", "right", "/page/after-dropping"))
        if path == "/flaky":
            if state["flaky"]:
                return self.send_page("flaky failing", "<p>Something broke.</p>", status=500)
            return self.send_page("flaky", button("flaky", "right", "/page/after-flaky"))
        self.send_bytes(404, ("Not found: %s\n" % path).encode(), "text/plain; charset=utf-8")

    def do_POST(self):
        url = urllib.parse.urlsplit(self.path)
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if url.path == "/refresh":
            with lock:
                state["saved"] += 1
                state["flash"] = "Saved %d" % state["saved"]
            return self.redirect("/refresh")
        if url.path == "/modal/form":
            then = (urllib.parse.parse_qs(url.query).get("then") or ["recede"])[0]
            return self.redirect("/%s_historical_location" % then)
        if url.path == "/form":
            return self.redirect("/page/saved")
        self.send_bytes(404, b"Not found\n", "text/plain; charset=utf-8")

    def redirect(self, location):
        self.send_response(303)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def send_page(self, name, body, meta="", status=200):
        with lock:
            state["served"] += 1
            serial = state["served"]
        title = html.escape("%s #%d" % (name, serial))
        page = fill(page_file("layout.html"), title=title, heading=html.escape(name), meta=meta, body=body)
        page = page.replace("<!--turbo-->", '<script src="/turbo.js"></script>' if TURBO_FILE else "")
        self.send_bytes(status, page.encode("utf-8"), "text/html; charset=utf-8")

    def send_file(self, path):
        with open(path, "rb") as file:
            data = file.read()
        kind = "application/json" if path.endswith(".json") else "text/javascript; charset=utf-8"
        self.send_bytes(200, data, kind)


def main():
    arguments = fixture_server.arguments("The navigation tests' app.")
    global TURBO_FILE
    TURBO_FILE = arguments.turbo
    fixture_server.serve(arguments.port, Handler)


if __name__ == "__main__":
    main()
