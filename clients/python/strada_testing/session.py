"""A strada-webdriver session: the host's X window and the input state the actions API keeps between calls."""
import shutil
import threading
import time

if __package__:
    from .keys import KeyboardState
    from .x11 import X11, XError
else:  # run as a file, beside webdriver.py
    from keys import KeyboardState
    from x11 import X11, XError


class WebDriverError(Exception):
    def __init__(self, status, error, message):
        super().__init__(message)
        self.status, self.error, self.message = status, error, message


class Session:
    """One WebDriver session: its host's window and the input state the actions API keeps between calls."""

    def __init__(self, identifier, host_pid):
        self.id, self.host_pid = identifier, host_pid
        self.lock = threading.Lock()
        self.screen = None
        self.window = None
        self.pointer = (0, 0)  # viewport CSS pixels
        self.buttons = set()
        self.last_press = 0.0  # time.monotonic() of the last button press
        self.released = []  # buttons released, in order (what the page's mouseup events will be)
        self.keyboard = None
        self.uploads = None  # a folder for files Selenium uploads

    def attach(self):
        """The host's X window (found once, again if it went away)."""
        if self.screen is None:
            self.screen = X11()
            self.keyboard = KeyboardState(self.screen)
        if self.window is None:
            deadline = time.time() + 5
            while self.window is None:
                self.window = self.screen.window_of(self.host_pid) if self.host_pid else None
                if self.window is None:
                    if time.time() > deadline:
                        raise XError("no X11 window of strada-host (pid %s) on $DISPLAY" % self.host_pid)
                    time.sleep(0.05)
        return self.window

    def close(self):
        if self.screen is not None:
            self.screen.close()
        if self.uploads:
            shutil.rmtree(self.uploads, ignore_errors=True)
