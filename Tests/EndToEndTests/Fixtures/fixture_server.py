"""What the end-to-end tests' small apps (navigation/server.py, tabs/server.py) share: the command line
(--port, --turbo FILE), the "listening on …" line, the server's life (ends on SIGTERM), and answers that are
never cached. Python 3 standard library only."""
import argparse
import http.server
import os
import signal
import sys


class Handler(http.server.BaseHTTPRequestHandler):
    """A request handler whose answers are never cached and whose log lines name its app (`app`)."""
    protocol_version = "HTTP/1.1"
    app = "fixture"

    def send_bytes(self, status, data, content_type):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format, *args):
        sys.stderr.write("%s: %s\n" % (self.app, format % args))


def arguments(description):
    """The app's command line: --port (0: any free port) and --turbo FILE (a Turbo build served as /turbo.js)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--port", type=int, default=8000, help="the port (0: any free port)")
    parser.add_argument("--turbo", metavar="FILE", help="a Turbo build, served as /turbo.js and loaded by every page")
    parsed = parser.parse_args()
    if parsed.turbo and not os.path.isfile(parsed.turbo):
        parser.error("--turbo %s: no such file" % parsed.turbo)
    return parsed


def serve(port, handler):
    """Serves `handler` on 127.0.0.1:`port` until SIGTERM, after printing "listening on http://127.0.0.1:N/"."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT, signal.SIGHUP})
    signal.signal(signal.SIGTERM, lambda number, frame: sys.exit(0))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    server.daemon_threads = True
    print("listening on http://127.0.0.1:%d/" % server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
