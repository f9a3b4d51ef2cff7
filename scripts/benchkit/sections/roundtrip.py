"""Round trip, throughput, large payload: the bridge + the echo plugin against the bare engine echo, alternating in
one host process (Benchmarks/web/roundtrip.html; its report arrives as `benchmark.roundtrip`)."""
import os

from ..host import Host

TITLE = "round trip, overlapped throughput and payload sizes, each against the engine echo"


def account(report):
    """Where each round trip's time goes, split where the reply leaves native code: `host` (arrival → reply
    handed to WebKit) and `web` (→ the next arrival: WebKit's delivery, the page's scripts, the next send), p50 in
    µs for the bridge, the engine echo and the echo padded to the bridge's message size (`floor_sized`), and what
    the bridge adds: native, the size of its messages (in WebKit), and the page's scripts (the web library, the
    adapter, its isolated-world relay)."""
    keys = ("bridge_host", "bridge_web", "floor_host", "floor_web", "floor_sized_host", "floor_sized_web")
    if not all(report.get(key) for key in keys):
        return None
    us = {key: round(report[key]["p50"] * 1000, 1) for key in keys}
    us["host_added"] = round(us["bridge_host"] - us["floor_host"], 1)
    us["size_added"] = round(us["floor_sized_web"] - us["floor_web"], 1)
    us["scripts_added"] = round(us["bridge_web"] - us["floor_sized_web"], 1)
    for kind in ("bridge", "floor", "floor_sized"):
        if report.get(kind + "_bytes"):
            us[kind + "_bytes"] = round(report[kind + "_bytes"]["p50"])
    return us


def measure(bench):
    host = Host(bench, "file://" + os.path.join(bench.root, f"Benchmarks/web/roundtrip.html?count={bench.count}"),
                bench.plugins_dir("libStradaEchoPlugin.so"), "--automation-events", "benchmark",
                "--benchmark-echo-channel")
    report = host.wait("benchmark.roundtrip", timeout=600)["result"]
    host.quit()
    b, f = report["bridge"], report["floor"]
    page = report["page"]
    throughput = page["throughput"]
    return {
        "roundtrip": {"messages": b["n"], "bridge_ms": b, "floor_ms": f,
                      "p50_ratio": round(b["p50"] / f["p50"], 2), "p99_ratio": round(b["p99"] / f["p99"], 2),
                      "account": account(report)},
        "throughput_msgs_per_s": {"bridge": round(throughput["bridge"]), "floor": round(throughput["floor"]),
                                  "rounds": {kind: [round(rate) for rate in rates]
                                             for kind, rates in throughput["rounds"].items()}},
        "large_payload": {"bytes": page["largePayload"]["bridge"]["bytes"],
                          "bridge_ms": page["largePayload"]["bridge"]["medianMs"],
                          "floor_ms": page["largePayload"]["floor"]["medianMs"]},
        "payload_sizes": page.get("sizes", []),
    }
