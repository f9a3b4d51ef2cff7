"""Start-up to the first page ready (the adapter's "ready" reaching native), its phases, and peak memory (PSS of
the host and every process it started), with the host's default settings (hardware acceleration off: docs/engine.md)."""
import os
import statistics
import time

from ..host import Host
from ..procfs import descendants, pss_kib

TITLE = "start-up to the adapter's ready, its phases, and peak PSS"


def measure(bench):
    startups, peaks, phases = [], [], {}
    form_only = bench.plugins_dir("libStradaFormPlugin.so")  # one folder, as a user's: probed once, then known
    for _ in range(7):
        host = Host(bench, "file://" + os.path.join(bench.root, "Examples/form-demo/index.html"), form_only)
        ready = host.wait("bridge.ready")
        startups.append((host.at(ready) - host.started) * 1000)
        # Phases in ms since the process was started: the host's own (host.startup: each phase's end on the
        # monotonic clock, which time.monotonic() reads too), then page.committed (the web process runs and the
        # document is committed), bridge.ready (the adapter's "ready" reached native) and page.finished as each
        # event reached the bench.
        timeline = host.wait("host.startup")
        phases.setdefault("main", []).append(timeline["mainClock"] - host.started * 1000)
        for name, at in timeline["phases"].items():
            phases.setdefault(name, []).append(timeline["mainClock"] + at - host.started * 1000)
        for name in ["page.committed", "bridge.ready", "page.finished"]:
            event = host.wait(name)
            phases.setdefault(name, []).append((host.at(event) - host.started) * 1000)
        host.wait("control.added")
        time.sleep(0.5)
        host.peak_pss = max(host.peak_pss, pss_kib(descendants(host.process.pid)))
        peaks.append(host.peak_pss)
        host.quit()
    return {
        "startup_ms": {"median": round(statistics.median(startups), 1), "runs": [round(x, 1) for x in startups],
                       "window_on_screen": round(statistics.median(phases["firstFrame"]), 1),
                       "phases": {name: round(statistics.median(times), 1) for name, times in phases.items()}},
        "peak_pss_mb": round(max(peaks) / 1024, 1),
    }
