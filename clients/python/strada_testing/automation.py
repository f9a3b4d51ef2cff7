"""The host's automation channel (JSON lines: events out, commands in; docs/automation.md), the one Python client
of it: `Native` reads it on the host's Unix socket (`--automation-socket`), `HostProcess` on the stdin and stdout
of a host it starts (`--automation`); scripts/bench, scripts/screenshots and the demo drivers use `HostProcess`.

Standard library only, so the repository's scripts import it without installing anything.
"""
import json
import os
import signal
import subprocess
import threading
import time

__all__ = ["Automation", "AutomationError", "HostProcess"]


class AutomationError(AssertionError):
    """An awaited event did not come (or the host went away first), or the host refused a command."""


class Automation:
    """Every event the host reported, in order (`events`, dicts, read on a thread as they arrive), waiting for
    events and sending commands. `readable` is a binary stream of event lines; `write` sends bytes."""

    def __init__(self, readable, write):
        self.events = []  # every event so far, as dicts, in order
        self.closed = False  # the stream ended: the host is gone
        self._arrivals = {}  # id(event) -> time.monotonic() when it was read
        self._write = write
        self._changed = threading.Condition()
        self._reader = threading.Thread(target=self._read, args=(readable,), daemon=True)
        self._reader.start()

    def _read(self, readable):
        try:
            for line in iter(readable.readline, b""):
                try:
                    event = json.loads(line)
                except ValueError:
                    continue
                with self._changed:
                    self._arrivals[id(event)] = time.monotonic()
                    self.events.append(event)
                    self._changed.notify_all()
        except (OSError, ValueError):  # the socket was closed under the reader
            pass
        with self._changed:
            self.closed = True
            self._changed.notify_all()

    def wait_closed(self, timeout=5):
        """Waits until every event the host wrote has been read (the stream ended); returns `closed`."""
        self._reader.join(timeout)
        return self.closed

    @property
    def mark(self):
        """The number of events so far: pass it as `after` to wait for what comes after an action."""
        with self._changed:
            return len(self.events)

    def arrival(self, event):
        """When `event` was read, on the `time.monotonic()` clock."""
        return self._arrivals[id(event)]

    def find(self, name, after=0, where=None, **fields):
        """The first event `name` (or one of a tuple of names) from index `after` on that satisfies `where`
        (a predicate on the event) and whose `fields` match (a callable value is a predicate on the field)."""
        names = name if isinstance(name, tuple) else (name,)
        with self._changed:
            events = self.events[after:]
        for event in events:
            if event.get("event") in names and (where is None or where(event)) and all(
                    value(event.get(key)) if callable(value) else event.get(key) == value
                    for key, value in fields.items()):
                return event
        return None

    def wait_for(self, name, after=0, timeout=15, where=None, **fields):
        """Waits for `find(name, after, where, **fields)`; raises AutomationError after `timeout` seconds or when
        the host went away first."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                found = self.find(name, after, where, **fields)
                if found is not None:
                    return found
                remaining = deadline - time.monotonic()
                if self.closed:
                    raise AutomationError("the host went away while waiting for %s %s" % (name, fields))
                if remaining <= 0:
                    raise AutomationError("timed out waiting for %s %s" % (name, fields))
                self._changed.wait(min(remaining, 0.5))

    def follow(self, after=0, timeout=None):
        """Every event from index `after` on, as it arrives, until the host went away; AutomationError when
        `timeout` seconds pass first."""
        deadline = None if timeout is None else time.monotonic() + timeout
        index = after
        while True:
            with self._changed:
                while index >= len(self.events) and not self.closed:
                    if deadline is not None and time.monotonic() > deadline:
                        raise AutomationError("timed out after %s s (event %d)" % (timeout, index))
                    self._changed.wait(0.5)
                if index >= len(self.events):
                    return
                event = self.events[index]
            index += 1
            yield event

    def send(self, **command):
        """Sends one command (`send(command="activate", control="form.submit")`) without waiting; returns the
        number of events before it (a mark for `wait_for(after=…)`)."""
        mark = self.mark
        self._write((json.dumps(command) + "\n").encode("utf-8"))
        return mark

    def command(self, name, timeout=15, **arguments):
        """Sends a command and returns its `command.ok` (or `controls`) event; raises on `command.error`."""
        mark = self.send(command=name, **arguments)
        if name == "controls":
            return self.wait_for("controls", after=mark, timeout=timeout)
        answer = self.wait_for(("command.ok", "command.error"), after=mark, timeout=timeout, command=name)
        if answer["event"] == "command.error":
            raise AutomationError("%s: %s" % (name, answer.get("error")))
        return answer


class HostProcess(Automation):
    """strada-host started with `--automation` (in `command`; the caller builds it): events on its stdout,
    commands on its stdin. `popen` goes to subprocess.Popen (env, stderr, start_new_session, …)."""

    def __init__(self, command, **popen):
        self.started = time.monotonic()
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, **popen)
        super().__init__(self.process.stdout, self._send_line)

    def _send_line(self, data):
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def quit(self, timeout=30):
        """Sends `quit` and waits for the exit; kills the host (its process group, when it has its own) if it
        does not go. Returns the exit status, once every event the host wrote has been read."""
        try:
            self.send(command="quit")
            self.process.wait(timeout=timeout)
        except (OSError, subprocess.TimeoutExpired):
            self.kill()
        self.wait_closed()
        return self.process.returncode

    def kill(self):
        try:
            if os.getpgid(self.process.pid) == self.process.pid:
                os.killpg(self.process.pid, signal.SIGKILL)
            else:
                self.process.kill()
        except OSError:
            pass
        self.process.wait()
