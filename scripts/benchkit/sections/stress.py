"""Stress: many starts with all ten first-party plugins while every core is kept busy; any start that does not reach
host.ready and exit 0 on quit counts (an intermittent crash was once seen loading Swift plugins under load). Also
the start-up cost of probing each plugin in a child first: a first start (nothing known) against later ones (every
file known to load, nothing probed)."""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

from ..host import Host

TITLE = "starts with all ten plugins under CPU load (--starts N)"
FIRST_PARTY = ["Form", "Menu", "OverflowMenu", "Button", "Alert", "Toast", "Page", "Search", "Share", "Theme"]


def measure(bench):
    all_plugins = bench.plugins_dir(*[f"libStrada{name}Plugin.so" for name in FIRST_PARTY])
    cache = tempfile.mkdtemp(prefix="strada-bench-cache-")
    bench.env["XDG_CACHE_HOME"] = cache
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(os.cpu_count() or 1)]
    failures, ready_ms = [], []
    try:
        for start in range(bench.starts):
            host = Host(bench, "file://" + bench.path("Examples/form-demo/index.html"), all_plugins,
                        "--automation-events", "host")
            try:
                ready = host.wait("host.ready", timeout=60)
                ready_ms.append((host.at(ready) - host.started) * 1000)
                if len(ready["components"]) != len(FIRST_PARTY):
                    failures.append(f"start {start}: components {ready['components']}")
            except SystemExit as failed:
                failures.append(f"start {start}: {failed}")
                host.quit()
                continue
            host.quit()
            if host.process.returncode != 0:
                failures.append(f"start {start}: exit status {host.process.returncode}: {host.last_log_line()}")
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()
        del bench.env["XDG_CACHE_HOME"]
        shutil.rmtree(cache, ignore_errors=True)
    return {"stress": {"starts": bench.starts, "plugins": len(FIRST_PARTY), "cpu_burners": len(burners),
                       "failures": len(failures), "failure_details": failures[:10],
                       "ready_ms_first_start": round(ready_ms[0], 1) if ready_ms else None,
                       "ready_ms_median_known": round(statistics.median(ready_ms[1:]), 1) if len(ready_ms) > 1
                       else None}}
