"""strada-webdriver's screenshot is bounded: when WebKitWebDriver never answers (WebKit rendered no frame), the
command ends with a WebDriver "timeout" error instead of hanging the test. A stand-in upstream that answers
scripts and never answers the screenshot; no host needed."""
import http.server
import json
import threading
import time

import pytest

from strada_testing import webdriver


class SilentScreenshots(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *arguments):
        pass

    def do_POST(self):  # execute/sync: the repaint helper's start and stop
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        body = json.dumps({"value": None}).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):  # the screenshot: never answered
        time.sleep(5)


def test_a_screenshot_webkit_never_takes_is_a_timeout_error_not_a_hang(monkeypatch):
    upstream = http.server.ThreadingHTTPServer(("127.0.0.1", 0), SilentScreenshots)
    upstream.daemon_threads = True
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    try:
        monkeypatch.setattr(webdriver, "SCREENSHOT_TIMEOUT", 1)
        intermediary = webdriver.Intermediary(upstream.server_address[1], driver_process=None)
        intermediary.local.path = "/session/s1/screenshot"
        session = webdriver.Session("s1", host_pid=None)
        with pytest.raises(webdriver.WebDriverError) as raised:
            intermediary.screenshot(session, {})
        assert raised.value.error == "timeout"
        assert "no frame" in raised.value.message
    finally:
        upstream.shutdown()
