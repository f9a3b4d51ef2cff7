"""strada-host for a measurement: started with `--automation` through the repository's automation client
(strada_testing.automation.HostProcess, on the host's stdin and stdout), its log in a file so a failed start can
say why, and the peak PSS of its process tree sampled while it runs."""
import os
import sys
import tempfile
import threading
import time

from .procfs import descendants, pss_kib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "clients", "python"))
from strada_testing.automation import AutomationError, HostProcess  # noqa: E402 (the repository's own client)


class Host(HostProcess):
    """`strada-host run PAGE --plugins PLUGINS --automation EXTRA…` (without PAGE when it is None: an app
    definition's `--app` in EXTRA names it); `at(event)` is when an event was read (the `time.monotonic()` clock,
    as `started`)."""

    def __init__(self, bench, page, plugins, *extra, sample_pss=False):
        self.log = tempfile.TemporaryFile(mode="w+")
        self.peak_pss = 0
        self.sampling = sample_pss
        super().__init__([bench.host_binary, "run"] + ([page] if page else []) + ["--plugins", plugins,
                                                                                  "--automation"] + list(extra),
                         stderr=self.log, env=bench.env)
        if sample_pss:
            threading.Thread(target=self._sample, daemon=True).start()

    def _sample(self):
        """PSS of the host and every process it started, every 20 ms (the process list every 200 ms): start-up
        peaks last a few hundred ms, and sampling only while waiting for events missed some of them."""
        pids, tick = [], 0
        while self.process.poll() is None:
            if tick % 10 == 0:
                pids = descendants(self.process.pid)
            self.peak_pss = max(self.peak_pss, pss_kib(pids))
            tick += 1
            time.sleep(0.02)

    def at(self, event):
        return self.arrival(event)

    def wait(self, name, predicate=lambda e: True, timeout=120, after=0):
        """The first event `name` from index `after` on that satisfies `predicate`. Without the sampling thread,
        the tree's PSS is sampled every 0.1 s while waiting. A timeout or the host's exit ends the run."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                return self.wait_for(name, after=after, timeout=min(0.1, max(deadline - time.monotonic(), 0)),
                                     where=predicate)
            except AutomationError:
                pass
            if self.closed or self.process.poll() is not None:
                found = self.find(name, after, where=predicate)
                if found is not None:
                    return found
                raise SystemExit(f"bench: the host exited ({self.process.wait()}) before {name}: "
                                 f"{self.last_log_line()}")
            if time.monotonic() >= deadline:
                raise SystemExit(f"bench: timed out waiting for {name}: {self.last_log_line()}")
            if not self.sampling:  # the sampling thread, when there is one, does it every 20 ms
                self.peak_pss = max(self.peak_pss, pss_kib(descendants(self.process.pid)))

    def tree_pss_kib(self):
        """The PSS of the host and every process it started now (its web and network processes), in KiB."""
        return pss_kib(descendants(self.process.pid))

    def last_log_line(self):
        """The host's last three log lines, for a failure's reason."""
        self.log.seek(0)
        lines = [line.strip() for line in self.log.read().splitlines() if line.strip()]
        return " | ".join(line[-300:] for line in lines[-3:]) if lines else "(nothing logged)"
