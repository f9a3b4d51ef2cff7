"""The bridge's round trip, overlapped throughput and 1 MiB payload with the echo plugin in the host's process, in
a worker process (--isolate) and in a sandboxed worker (--sandbox: bubblewrap), each against the engine echo in the
same host run (Benchmarks/web/roundtrip.html), and each mode's start to host.ready; the page's round trip against
payload size (100 B … 16 MiB, each against the engine echo) in each mode, kept apart as `isolated_payload_sizes` so
`isolated` keeps its shape; then, for the start-up and hot-reload targets with each mode on, the hot plugin's host
started three times to the adapter's ready and reloaded six times (the reload section's measure, with --isolate or
--sandbox). Beside them, the operating system's floor for what isolation adds: Benchmarks/wakeup-floor/pingpong.c's
sequential one-byte round trips to a thread, to a child process, and in the host's shape (the child, then a reader
thread that wakes the main thread), with the bench page's pause between trips."""
import json
import os
import shutil
import statistics
import subprocess
import time

from ..host import Host
from .reload import builds, hot_reloads

TITLE = "round trip, throughput and 1 MiB in process, isolated and sandboxed, against the engine echo"

MODES = {"in_process": [], "process": ["--isolate"], "sandbox": ["--sandbox"]}


def measure(bench):
    figures, sizes = {}, {}
    built = builds(bench)
    page = "file://" + os.path.join(bench.root, f"Benchmarks/web/roundtrip.html?count={bench.count}&mixed=0")
    for mode, flags in MODES.items():
        if mode == "sandbox" and not shutil.which("bwrap"):
            continue
        starts = []
        for _ in range(3):
            started = time.monotonic()
            host = Host(bench, page, bench.plugins_dir("libStradaEchoPlugin.so"), *flags, "--automation-events",
                        "benchmark,host", "--benchmark-echo-channel")
            host.wait("host.ready")
            starts.append((time.monotonic() - started) * 1000)
            if len(starts) < 3:
                host.quit()
        report = host.wait("benchmark.roundtrip", timeout=900)["result"]
        host.quit()
        bridge, floor, page_figures = report["bridge"], report["floor"], report["page"]
        throughput, large = page_figures["throughput"], page_figures["largePayload"]
        sizes[mode] = page_figures.get("sizes", [])
        figures[mode] = {
            "start_ms": round(statistics.median(starts), 1),
            "p50_ratio": round(bridge["p50"] / floor["p50"], 2), "p99_ratio": round(bridge["p99"] / floor["p99"], 2),
            "p50_us": round(bridge["p50"] * 1000, 1), "floor_p50_us": round(floor["p50"] * 1000, 1),
            "throughput_ratio": round(throughput["bridge"] / throughput["floor"], 2),
            "large_payload_ms": large["bridge"]["medianMs"], "large_payload_floor_ms": large["floor"]["medianMs"],
            "large_payload_bytes": large["bridge"]["bytes"],
        }
        hot = hot_reloads(bench, flags, count=6, starts=3, built=built)
        figures[mode].update({"ready_ms": hot["ready_median"], "hot_reload_ms": hot["median"],
                              "hot_reload_runs": hot["runs"], "hot_reload_registry_ms": hot["registry_median"]})
    return {"isolated": figures, "isolated_payload_sizes": sizes, "isolated_wakeup_floor": wakeup_floor(bench)}


def wakeup_floor(bench, runs=3):
    """p50 and p99 in µs of each shape of Benchmarks/wakeup-floor/pingpong.c, the medians of `runs` runs."""
    built = os.path.join(bench.bin_dir, "pingpong")
    subprocess.run(["gcc", "-O2", "-pthread", bench.path("Benchmarks/wakeup-floor/pingpong.c"), "-o", built],
                   check=True)
    reports = [json.loads(subprocess.run([built, "2000", "250"], check=True, capture_output=True, text=True).stdout)
               for _ in range(runs)]
    floor = {shape: {figure: round(statistics.median(report[shape][figure] for report in reports), 1)
                     for figure in ["p50", "p99"]}
             for shape in ["thread", "process", "host"]}
    return {**floor, "pause_us": reports[0]["pause_us"]}
