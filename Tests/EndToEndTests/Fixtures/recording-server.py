#!/usr/bin/env python3
"""A web app that writes down what it is asked, for the deep-link, file and print tests.

Usage: recording-server.py LOG_FOLDER. Prints its address (http://127.0.0.1:<port>/) first. Every request's
method and path (with its query) is appended to LOG_FOLDER/requests.log, one line each, before it is answered.

GET /upload           a form with a file input (its attributes from the query: multiple, accept,
                      webkitdirectory), sent as soon as files are chosen
POST /upload          multipart form data: each file's bytes are written to LOG_FOLDER/uploads/<n>-<name>;
                      the answer's title is "uploaded <count>"
GET /signin?to=URL    the identity provider's end of a sign-in: a redirect (302) to URL?code=s3cret
GET /print            a page of text that calls window.print() when it is clicked (anywhere)
GET anything else     a page whose title is its path and query
"""
import email.parser, email.policy, html, http.server, os, sys, urllib.parse

LOG = sys.argv[1]
os.makedirs(os.path.join(LOG, "uploads"), exist_ok=True)


class Handler(http.server.BaseHTTPRequestHandler):
    def record(self):
        with open(os.path.join(LOG, "requests.log"), "a") as log:
            log.write("%s %s\n" % (self.command, self.path))

    def send_page(self, title, body=""):
        page = ("<!doctype html><html><head><meta charset=utf-8><title>%s</title></head><body>%s</body></html>"
                % (html.escape(title), body)).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(page)))
        self.end_headers()
        self.wfile.write(page)

    def do_GET(self):
        self.record()
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query, keep_blank_values=True)
        if url.path == "/upload":
            attributes = " ".join(
                ('%s="%s"' % (name, html.escape(query[name][0])) if query[name][0] else name)
                for name in ("multiple", "accept", "webkitdirectory") if name in query)
            self.send_page("upload", """
                <form method=post action=/upload enctype=multipart/form-data>
                  <input id=file type=file name=file %s onchange="this.form.submit()"
                         style="position:fixed;inset:0;width:100%%;height:100%%">
                </form>""" % attributes)
        elif url.path == "/signin":
            self.send_response(302)
            self.send_header("Location", query["to"][0] + "?code=s3cret")
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif url.path == "/print":
            self.send_page("print", """
                <style>@media print { button { display: none } }</style>
                <h1>Strada prints this page</h1><p>Printed through the GTK print operation.</p>
                <button onclick="window.print()" style="position:fixed;inset:0;opacity:0">Print</button>""")
        else:
            self.send_page(self.path)

    def do_POST(self):
        self.record()
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        head = "Content-Type: %s\r\nMIME-Version: 1.0\r\n\r\n" % self.headers.get("Content-Type", "")
        message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(head.encode() + body)
        count = 0
        for part in message.iter_parts() if message.is_multipart() else []:
            name = part.get_filename()
            if name is None:
                continue
            count += 1
            safe = os.path.basename(name.replace("\\", "/")) or "file"
            with open(os.path.join(LOG, "uploads", "%d-%s" % (count, safe)), "wb") as out:
                out.write(part.get_payload(decode=True) or b"")
        self.send_page("uploaded %d" % count)

    def log_message(self, format, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print("http://127.0.0.1:%d/" % server.server_address[1], flush=True)
server.serve_forever()
