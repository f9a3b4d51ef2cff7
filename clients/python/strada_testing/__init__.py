"""Test a Hotwire app in strada-host: Selenium drives the page, `Native` drives the window's native controls.

    from strada_testing import StradaHost

    with StradaHost(plugins="plugins", allow=["http://127.0.0.1:3000"]) as app:
        app.driver.get("http://127.0.0.1:3000/posts/new")          # Selenium, as in a browser
        app.driver.find_element("name", "title").send_keys("Hello")
        app.native.press("Save")                                   # the native header-bar button
        assert app.driver.find_element("css selector", "h1").text == "Hello"

The host is started by WebKitWebDriver (`webkitgtk:browserOptions`) with `run --webdriver --automation-socket
PATH`; `Native` speaks the host's automation protocol (JSON lines, the tables of docs/automation.md) on that socket.
Selenium talks to strada-webdriver (strada_testing/webdriver.py), which stands in front of WebKitWebDriver and
performs clicks, typing and the actions API as real X input into the host's window (`event.isTrusted` true).
"""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

from .automation import Automation, AutomationError, HostProcess

__all__ = ["StradaHost", "Native", "NativeError", "HostProcess", "click", "fill"]


def click(element):
    """Clicks `element` (Selenium's `element.click()`: a real click, see strada_testing.webdriver)."""
    element.click()


def fill(element, text):
    """Replaces `element`'s value with `text`, typed for real (Selenium's `clear()` then `send_keys(text)`)."""
    element.clear()
    element.send_keys(text)


NativeError = AutomationError  # the name tests know: a native control was not there, or a command was refused


class Native(Automation):
    """The host's automation channel on its Unix socket: every event, and commands on native controls."""

    def __init__(self, path, timeout=30):
        deadline = time.time() + timeout
        while True:
            try:
                self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self._socket.connect(path)
                break
            except OSError:
                self._socket.close()
                if time.time() > deadline:
                    raise NativeError("no strada-host automation socket at %s" % path)
                time.sleep(0.05)
        super().__init__(self._socket.makefile("rb"), self._socket.sendall)

    def close(self):
        try:
            self._socket.shutdown(socket.SHUT_RDWR)  # the reading thread sees the end (makefile keeps it open)
            self._socket.close()
        except OSError:
            pass

    # The controls of the screen shown

    def controls(self):
        """The native controls shown now: dicts with id, kind (button, menu, dialog, search), title, …"""
        return self.command("controls")["controls"]

    def control(self, title=None, kind=None, id=None, timeout=10):
        """Waits until a control with that title (or id) and kind is shown, and returns it."""
        deadline = time.time() + timeout
        while True:
            for control in self.controls():
                if (id is None or control.get("id") == id) and (title is None or control.get("title") == title) \
                        and (kind is None or control.get("kind") == kind):
                    return control
            if time.time() > deadline:
                shown = ", ".join("%s %r" % (c.get("kind"), c.get("title")) for c in self.controls()) or "none"
                raise NativeError("no native %s %r shown (shown: %s)" % (kind or "control", title or id, shown))
            time.sleep(0.1)

    def press(self, title):
        """Presses the header-bar button with this title, as a click would."""
        self.command("activate", control=self.control(title, kind="button")["id"])

    def choose(self, item, menu=None):
        """Chooses `item` (its title) in the menu shown (or the menu titled `menu`)."""
        shown = self.control(menu, kind="menu")
        for entry in shown.get("items", []):
            if entry.get("title") == item:
                return self.command("choose", control=shown["id"], index=entry["index"])
        raise NativeError("menu %r has no item %r (it has: %s)" % (
            shown.get("title"), item, ", ".join(entry.get("title", "") for entry in shown.get("items", []))))

    def confirm(self, title=None):
        """Confirms the native alert shown (or the one titled `title`)."""
        self.command("confirm", control=self.control(title, kind="dialog")["id"])

    def dismiss(self, title=None):
        """Dismisses the native alert or menu shown, as Escape would."""
        shown = [c for c in self.controls() if c.get("kind") in ("dialog", "menu") and title in (None, c.get("title"))]
        if not shown:
            raise NativeError("no native alert or menu %s to dismiss" % (repr(title) if title else "shown"))
        self.command("dismiss", control=shown[0]["id"])

    def search(self, text):
        """Types `text` into the native search bar."""
        self.command("type", control=self.control(kind="search")["id"], text=text)

    def back(self):
        """Native Back: the previous screen."""
        self.command("back")

    @property
    def window_title(self):
        """The window's title now."""
        titles = [e for e in self.events if e.get("event") == "window.title"]
        return titles[-1].get("title") if titles else None

    @property
    def toasts(self):
        """Every toast shown so far (their messages)."""
        return [e.get("message") for e in self.events if e.get("event") == "toast"]

    def wait_for_message(self, component, event, after=0, timeout=15):
        """The next message the page sent to native for `component`/`event` (its `message` dict)."""
        found = self.wait_for("bridge.received", after=after, timeout=timeout,
                              message=lambda m: isinstance(m, dict) and m.get("component") == component
                              and m.get("event") == event)
        return found["message"]

    def screenshot(self, path):
        """The whole window — header bar, popovers and dialogs included — as a PNG file."""
        self.command("screenshot", path=os.path.abspath(path))
        return path

    @property
    def traffic(self):
        """The bridge messages so far, in and out."""
        return [e for e in self.events if e.get("event", "").startswith("bridge.")]


def start_intermediary(driver="WebKitWebDriver"):
    """strada-webdriver on a free port, in front of `driver`: the process, with its address as `url`."""
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "webdriver.py")
    process = subprocess.Popen([sys.executable, script, "--port", "0", "--driver", driver],
                               stdout=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    if not line.startswith("listening on "):
        process.wait()
        raise NativeError("strada-webdriver did not start (is Debian's webkit2gtk-driver installed?)")
    process.url = line.split()[-1].rstrip("/")
    return process


def _executor(url):
    """Selenium's connection to `url`, made as Selenium 4.26 and later ask (earlier ones take the URL)."""
    from selenium.webdriver.remote.remote_connection import RemoteConnection
    try:
        from selenium.webdriver.remote.client_config import ClientConfig
    except ImportError:
        return url
    return RemoteConnection(client_config=ClientConfig(remote_server_addr=url))


def stop(process):
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


class StradaHost:
    """strada-host started by WebKitWebDriver behind strada-webdriver: `driver` (Selenium) drives the page —
    clicks, typing and actions as real input —, `native` the window's native controls."""

    def __init__(self, plugins=(), allow=(), host=None, args=(), driver_path=None):
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.options import Options

        self.workspace = tempfile.mkdtemp(prefix="strada-test-")
        self.socket_path = os.path.join(self.workspace, "automation.sock")
        self.log_path = os.path.join(self.workspace, "host.log")
        binary = host or os.environ.get("STRADA_HOST") or shutil.which("strada-host")
        if not binary:
            raise NativeError("strada-host not found: set STRADA_HOST or put it on PATH")
        options = Options()
        options.binary_location = binary
        options.set_capability("browserName", "strada-host")
        arguments = ["run", "--webdriver", "--ephemeral", "--automation-socket", self.socket_path,
                     "--log-file", self.log_path]
        for folder in ([plugins] if isinstance(plugins, str) else plugins):
            arguments += ["--plugins", folder]
        for origin in allow:
            arguments += ["--allow-origin", origin]
        for argument in arguments + list(args):
            options.add_argument(argument)
        driver = driver_path or shutil.which("WebKitWebDriver") or "WebKitWebDriver"
        self.intermediary = start_intermediary(driver)
        try:
            self.driver = webdriver.Remote(command_executor=_executor(self.intermediary.url), options=options)
        except BaseException:
            stop(self.intermediary)
            raise
        self.native = Native(self.socket_path)
        self.native.wait_for("host.ready")

    def save_artifacts(self, folder):
        """Saves what a failing test needs: the window (screenshot.png), the bridge traffic (traffic.jsonl),
        every automation event (events.jsonl) and the host's log (host.log). Returns the folder."""
        os.makedirs(folder, exist_ok=True)
        try:
            self.native.screenshot(os.path.join(folder, "screenshot.png"))
        except Exception as error:  # the window may be gone: save the rest
            with open(os.path.join(folder, "screenshot-error.txt"), "w") as file:
                file.write(str(error))
        with open(os.path.join(folder, "traffic.jsonl"), "w") as file:
            file.writelines(json.dumps(event, sort_keys=True) + "\n" for event in self.native.traffic)
        with open(os.path.join(folder, "events.jsonl"), "w") as file:
            file.writelines(json.dumps(event, sort_keys=True) + "\n" for event in self.native.events)
        if os.path.exists(self.log_path):
            shutil.copy(self.log_path, os.path.join(folder, "host.log"))
        return folder

    def quit(self):
        self.native.close()
        try:
            self.driver.quit()
        finally:
            stop(self.intermediary)
            shutil.rmtree(self.workspace, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exception):
        self.quit()
