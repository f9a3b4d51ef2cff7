#!/usr/bin/env python3
"""The Strada for Linux demo app: a small multi-page web app, one page per first-party component.

    python3 Examples/demo/server.py --port 8000     # then: strada-host run http://127.0.0.1:8000/ --plugins …
    python3 Examples/demo/server.py --port 0        # any free port

Prints exactly one line on stdout when it is ready to serve, "listening on http://127.0.0.1:N/", so
scripts and tests can start it on port 0 and read the address back. Request logs go to stderr.

Python 3 standard library only. Routes:

    GET  /                    the index (pages/index.html)
    GET  /<component>         one page per component (pages/<component>.html)
    GET  /input               a page that records the input it gets and whether it is trusted (event.isTrusted):
                              clicks, double clicks, hovering, a drag, key presses, a form submitted with Enter
    POST /form                stores the message, answers 303 See Other → /form/sent?id=N
    GET  /form/sent?id=N      the result page (pages/form-sent.html with the message filled in)
    GET  /style.css, /demo.js, /components/*.js    the app's assets
    GET  /SDK/web/strada.js   the web library, straight from the repository

    GET  /posts               the posts: a Turbo app of screens (index → new → show), see pages/posts*.html
    GET  /posts/new           a new post (the form component's Save button)
    POST /posts               stores the post, answers 303 See Other → /posts/N
    GET  /posts/N             the post (no components)
    POST /posts/N/done|stay|refresh   303 → /recede_… | /resume_… | /refresh_historical_location
    GET  /recede_historical_location, /resume_historical_location, /refresh_historical_location
                              turbo-rails' historical-location routes (native apps pop / stay / refresh)
    GET  /links               links that leave the app: another origin, a redirect out, mailto:, target=_blank
    GET  /session             a login that lasts: sets the cookie demo_session (an hour) on the first visit;
                              later visits that send it are "returning" (the page title says which)
    GET  /files/notes.txt     a file the browser downloads (Content-Disposition: attachment)
    GET  /away?to=URL         answers 302 Found → URL (a redirect out of the app)
    GET  /configurations/linux.json   the app's path configuration (path-configuration.json next to this file, or
                              the file given with --path-configuration FILE), for `strada-host run
                              --path-configuration http://…/configurations/linux.json`
    GET  /turbo.js            the real Turbo, with --turbo FILE (e.g. `--turbo "$(scripts/fetch-turbo)"`):
                              every page then loads it, and Turbo Drive turns its links and forms into visits
"""
import argparse
import html
import http.server
import os
import signal
import sys
import threading
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
REPOSITORY = os.path.dirname(os.path.dirname(HERE))
PAGES = os.path.join(HERE, "pages")
COMPONENTS = ["form", "menu", "overflow-menu", "button", "alert", "toast", "page", "search", "share", "theme"]
CONTENT_TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
                 ".js": "text/javascript; charset=utf-8", ".svg": "image/svg+xml", ".png": "image/png",
                 ".json": "application/json"}

# Messages posted through the form page, kept in memory for the result page; posts likewise.
messages = []
posts = []
messages_lock = threading.Lock()
# The real Turbo's file (--turbo), or None: then pages load no Turbo and every visit is a full page load.
TURBO_FILE = None
PATH_CONFIGURATION = os.path.join(HERE, "path-configuration.json")
HISTORICAL = {
    "/recede_historical_location": "Going back…",
    "/resume_historical_location": "Staying put…",
    "/refresh_historical_location": "Refreshing…",
}


class DemoHandler(http.server.BaseHTTPRequestHandler):
    server_version = "StradaDemo/1.0"
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        self.handle_get(send_body=True)

    def do_HEAD(self):
        self.handle_get(send_body=False)

    def handle_get(self, send_body):
        url = urllib.parse.urlsplit(self.path)
        path = url.path
        if path == "/":
            return self.send_file(os.path.join(PAGES, "index.html"), send_body)
        name = path.strip("/")
        if name in COMPONENTS or name == "input":
            return self.send_file(os.path.join(PAGES, name + ".html"), send_body)
        if path == "/form/sent":
            return self.send_result(urllib.parse.parse_qs(url.query), send_body)
        if path == "/posts":
            return self.send_page("posts.html", {"posts": self.post_list()}, send_body)
        if path == "/posts/new":
            return self.send_page("posts-new.html", {}, send_body)
        if path.startswith("/posts/"):
            return self.send_post(path[len("/posts/"):], send_body)
        if path in HISTORICAL:
            return self.send_page("historical.html", {"text": HISTORICAL[path]}, send_body)
        if path == "/files/notes.txt":
            data = b"Notes from the Strada demo.\n"
            self.send_response(200)
            self.send_header("Content-Type", "text/plain; charset=utf-8")
            self.send_header("Content-Disposition", 'attachment; filename="notes.txt"')
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            if send_body:
                self.wfile.write(data)
            return
        if path == "/session":
            return self.send_session(send_body)
        if path == "/configurations/linux.json":
            return self.send_file(PATH_CONFIGURATION, send_body)
        if path == "/links":
            # The same server under another host name is another origin.
            other = "http://localhost:%d/posts" % self.server.server_address[1]
            return self.send_page("links.html", {"other": other, "other_escaped": urllib.parse.quote(other, safe="")},
                                  send_body)
        if path == "/away":
            target = (urllib.parse.parse_qs(url.query).get("to") or ["/"])[0]
            self.send_response(302)
            self.send_header("Location", target)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if path == "/turbo.js" and TURBO_FILE:
            return self.send_file(TURBO_FILE, send_body)
        if path == "/SDK/web/strada.js":
            return self.send_file(os.path.join(REPOSITORY, "SDK", "web", "strada.js"), send_body)
        if path in ("/style.css", "/demo.js"):
            return self.send_file(os.path.join(HERE, path.lstrip("/")), send_body)
        if path.startswith("/components/"):
            return self.send_file(self.inside(os.path.join(HERE, "components"), path[len("/components/"):]), send_body)
        self.send_text(404, "Not found: " + path, send_body)

    def do_POST(self):
        url = urllib.parse.urlsplit(self.path)
        if url.path == "/posts":
            return self.create_post()
        route = {"done": "/recede_historical_location", "stay": "/resume_historical_location",
                 "refresh": "/refresh_historical_location"}
        parts = url.path.strip("/").split("/")
        if len(parts) == 3 and parts[0] == "posts" and parts[2] in route:
            length = int(self.headers.get("Content-Length") or 0)
            self.rfile.read(length)
            return self.redirect(route[parts[2]])
        if url.path != "/form":
            return self.send_text(404, "Not found: " + url.path, True)
        length = int(self.headers.get("Content-Length") or 0)
        fields = urllib.parse.parse_qs(self.rfile.read(length).decode("utf-8", "replace"))
        name = (fields.get("name") or [""])[0].strip()
        body = (fields.get("message") or [""])[0].strip()
        if not name or not body:
            return self.send_text(422, "A message needs a name and a text.", True)
        with messages_lock:
            messages.append({"name": name, "message": body})
            number = len(messages)
        # Post/Redirect/Get: the browser (or web view) follows with a GET of the result page.
        self.send_response(303)
        self.send_header("Location", "/form/sent?id=%d" % number)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def create_post(self):
        length = int(self.headers.get("Content-Length") or 0)
        fields = urllib.parse.parse_qs(self.rfile.read(length).decode("utf-8", "replace"))
        title = (fields.get("title") or [""])[0].strip()
        if not title:
            return self.send_text(422, "A post needs a title.", True)
        with messages_lock:
            posts.append({"title": title, "body": (fields.get("body") or [""])[0].strip()})
            number = len(posts)
        self.redirect("/posts/%d" % number)

    def redirect(self, location):
        self.send_response(303)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    # MARK: Responses

    def post_list(self):
        with messages_lock:
            items = list(enumerate(posts, start=1))
        if not items:
            return '<li class="empty">No posts yet</li>'
        return "".join('<li><a href="/posts/%d">%s</a></li>' % (number, html.escape(post["title"]))
                       for number, post in items)

    def send_post(self, rest, send_body):
        number, _, action = rest.partition("/")
        with messages_lock:
            post = posts[int(number) - 1] if number.isdigit() and 0 < int(number) <= len(posts) else None
        if post is None:  # an HTML answer, so Turbo reports the 404 instead of a content-type mismatch
            page = b"<!DOCTYPE html><title>No such post</title><p>No such post.</p>"
            return self.send_bytes(404, page, CONTENT_TYPES[".html"], send_body)
        if action:
            return self.send_text(404, "Not found: " + self.path, send_body)
        values = {"number": number, "title": html.escape(post["title"]), "body": html.escape(post["body"])}
        self.send_page("posts-show.html", values, send_body, escape=False)

    def send_session(self, send_body):
        cookies = dict(part.strip().split("=", 1) for part in (self.headers.get("Cookie") or "").split(";")
                       if "=" in part)
        known = cookies.get("demo_session")
        title = "session: returning %s" % known if known else "session: new"
        page = ("<!DOCTYPE html><title>%s</title><p>%s</p>" % (title, title)).encode("utf-8")
        self.send_response(200)
        if not known:
            self.send_header("Set-Cookie", "demo_session=%d; Max-Age=3600; Path=/; SameSite=Lax" % os.getpid())
        self.send_header("Content-Type", CONTENT_TYPES[".html"])
        self.send_header("Content-Length", str(len(page)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if send_body:
            self.wfile.write(page)

    def send_page(self, name, values, send_body, escape=False):
        """A page from pages/, with {{key}} replaced by `values` (already HTML) and Turbo per --turbo."""
        with open(os.path.join(PAGES, name), encoding="utf-8") as file:
            page = file.read()
        for key, value in values.items():
            page = page.replace("{{" + key + "}}", html.escape(value, quote=True) if escape else value)
        self.send_bytes(200, self.with_turbo(page.encode("utf-8")), CONTENT_TYPES[".html"], send_body)

    @staticmethod
    def with_turbo(page):
        """Pages mark where Turbo goes with <!--turbo-->; it is loaded only when the server has --turbo."""
        script = b'<script src="/turbo.js"></script>' if TURBO_FILE else b""
        return page.replace(b"<!--turbo-->", script)

    def send_result(self, query, send_body):
        try:
            number = int((query.get("id") or ["0"])[0])
        except ValueError:
            number = 0
        with messages_lock:
            entry = messages[number - 1] if 0 < number <= len(messages) else None
        if entry is None:
            return self.send_text(404, "No such message.", send_body)
        with open(os.path.join(PAGES, "form-sent.html"), encoding="utf-8") as file:
            page = file.read()
        for key, value in (("name", entry["name"]), ("message", entry["message"]), ("number", str(number))):
            page = page.replace("{{" + key + "}}", html.escape(value, quote=True))
        self.send_bytes(200, self.with_turbo(page.encode("utf-8")), CONTENT_TYPES[".html"], send_body)

    def send_file(self, path, send_body):
        if path is None or not os.path.isfile(path):
            return self.send_text(404, "Not found: " + self.path, send_body)
        with open(path, "rb") as file:
            data = file.read()
        content_type = CONTENT_TYPES.get(os.path.splitext(path)[1], "application/octet-stream")
        if path.endswith(".html"):
            data = self.with_turbo(data)
        self.send_bytes(200, data, content_type, send_body)

    def send_text(self, status, text, send_body):
        self.send_bytes(status, (text + "\n").encode("utf-8"), "text/plain; charset=utf-8", send_body)

    def send_bytes(self, status, data, content_type, send_body):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if send_body:
            self.wfile.write(data)

    @staticmethod
    def inside(root, url_path):
        """The file for `url_path` under `root`, or None when the path tries to leave it."""
        candidate = os.path.realpath(os.path.join(root, urllib.parse.unquote(url_path).lstrip("/")))
        return candidate if candidate.startswith(os.path.realpath(root) + os.sep) else None

    def log_message(self, format, *args):
        sys.stderr.write("demo: %s %s\n" % (self.address_string(), format % args))


def main():
    parser = argparse.ArgumentParser(description="Serves the Strada for Linux demo app.")
    parser.add_argument("--port", type=int, default=8000, help="the port to listen on (0: any free port)")
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    parser.add_argument("--turbo", metavar="FILE", help="the real Turbo to serve and load in every page "
                        "(scripts/fetch-turbo prints its path); without it every visit is a full page load")
    parser.add_argument("--path-configuration", metavar="FILE",
                        help="serve this file as /configurations/linux.json (default: path-configuration.json here)")
    arguments = parser.parse_args()
    global TURBO_FILE, PATH_CONFIGURATION
    if arguments.path_configuration:
        PATH_CONFIGURATION = os.path.abspath(arguments.path_configuration)
    if arguments.turbo:
        if not os.path.isfile(arguments.turbo):
            parser.error("--turbo %s: no such file; run scripts/fetch-turbo and pass the path it prints" % arguments.turbo)
        TURBO_FILE = arguments.turbo
    # A launcher may hand us its blocked signal mask (a thread pool's worker, say): make sure SIGTERM and
    # SIGINT stop the server, as the scripts and tests that start it expect.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT, signal.SIGHUP})
    signal.signal(signal.SIGTERM, lambda number, frame: sys.exit(0))
    server = http.server.ThreadingHTTPServer((arguments.host, arguments.port), DemoHandler)
    server.daemon_threads = True
    host, port = server.server_address[:2]
    print("listening on http://%s:%d/" % (host, port), flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
