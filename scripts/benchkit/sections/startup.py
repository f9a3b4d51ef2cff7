"""Start-up to the first page ready (the adapter's "ready" reaching native), its phases, and peak memory (PSS of
the host and every process it started), with the host's default settings (hardware acceleration off: docs/engine.md);
and start-up (to host.ready) against the number of installed plugins (0, 10, 100, 1,000 copies of a tiny C plugin,
each with its manifest, beside the form plugin), and the first start with ten never-seen plugins against a known
start of the same folders."""
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time

from ..host import Host
from ..procfs import descendants, pss_kib

TITLE = "start-up to the adapter's ready, its phases, peak PSS, and start-up against installed plugins"


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
                       "phases": {name: round(statistics.median(times), 1) for name, times in phases.items()},
                       **installed_plugins(bench, form_only)},
        "peak_pss_mb": round(max(peaks) / 1024, 1),
    }


def tiny_plugins(bench, count, folder=None):
    """A folder (new unless given) with `count` new copies of the tiny plugin, libtiny<N>.so each with its
    manifest libtiny<N>.json (id and components, as `plugin install` writes them)."""
    built = os.path.join(bench.bin_dir, "libtiny.so")
    if not os.path.exists(built):
        subprocess.run(["gcc", "-shared", "-fPIC", "-O2", "-I", bench.path("SDK/CStradaPlugin/include"),
                        bench.path("Benchmarks/tiny-plugin/tiny.c"), "-o", built], check=True)
    folder = folder or tempfile.mkdtemp(prefix="strada-bench-tiny-")
    os.chmod(folder, 0o755)
    for index in range(count):
        shutil.copy(built, os.path.join(folder, f"libtiny{index}.so"))
        with open(os.path.join(folder, f"libtiny{index}.json"), "w") as manifest:
            json.dump({"id": f"dev.bench.tiny{index}", "version": "1.0.0", "components": [f"tiny{index}"],
                       "abi": "1.0"}, manifest)
    return folder


def ready_ms(bench, *folders):
    """Milliseconds from the host's start to host.ready (its plugins known, the window built), with `folders`."""
    arguments = [argument for folder in folders[1:] for argument in ("--plugins", folder)]
    host = Host(bench, "file://" + bench.path("Examples/form-demo/index.html"), folders[0], *arguments)
    ready = host.wait("host.ready")
    host.wait("control.added")
    host.quit()
    return (host.at(ready) - host.started) * 1000


def installed_plugins(bench, form_only, runs=5):
    """startup_ms.installed_plugins (count → median ms to host.ready) and startup_ms.first_start_unknown."""
    counts = [0, 10, 100, 1000]
    folders = {count: tiny_plugins(bench, count) for count in counts}
    for count in counts:
        ready_ms(bench, form_only, folders[count])  # each folder's first start, not measured
    # The counts alternate, run by run, so the machine's drift over the section falls on every count alike.
    times = {count: [] for count in counts}
    for _ in range(runs):
        for count in counts:
            times[count].append(ready_ms(bench, form_only, folders[count]))
    curve = {str(count): round(statistics.median(times[count]), 1) for count in counts}
    first, known = [], []
    for _ in range(runs):
        tiny = tiny_plugins(bench, 10)
        first.append(ready_ms(bench, form_only, tiny))
        known.append(ready_ms(bench, form_only, tiny))
    return {"installed_plugins": curve,
            "first_start_unknown": {"first": round(statistics.median(first), 1),
                                    "known": round(statistics.median(known), 1),
                                    "runs": [[round(a, 1), round(b, 1)] for a, b in zip(first, known)]}}
