"""Round trip, throughput, large payload: the bridge + the echo plugin against the bare engine echo, alternating in
one host process (Benchmarks/web/roundtrip.html; its report arrives as `benchmark.roundtrip`)."""
import os

from ..host import Host

TITLE = "round trip, overlapped throughput and payload sizes, each against the engine echo"


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
                      "p50_ratio": round(b["p50"] / f["p50"], 2), "p99_ratio": round(b["p99"] / f["p99"], 2)},
        "throughput_msgs_per_s": {"bridge": round(throughput["bridge"]), "floor": round(throughput["floor"]),
                                  "rounds": {kind: [round(rate) for rate in rates]
                                             for kind, rates in throughput["rounds"].items()}},
        "large_payload": {"bytes": page["largePayload"]["bridge"]["bytes"],
                          "bridge_ms": page["largePayload"]["bridge"]["medianMs"],
                          "floor_ms": page["largePayload"]["floor"]["medianMs"]},
        "payload_sizes": page.get("sizes", []),
    }
