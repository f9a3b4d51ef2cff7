"""Round trip, throughput, large payload: the bridge + the echo plugin against the bare engine echo, alternating in
one host process (Benchmarks/web/roundtrip.html; its report arrives as `benchmark.roundtrip`)."""
import os

from ..host import Host

TITLE = "round trip, overlapped throughput and payload sizes, each against the engine echo"


def account(report):
    """Where a lone round trip's time goes, from the hop-by-hop run of roundtrip.html (`mixedRun`): one
    sequential run whose messages each take one of six ways at random, every gap between two arrivals counted
    under the way the reply came back (`bridge`, `floor`, `floor_sized`: the bridge's, the echo's, the echo's
    padded to the bridge's size) and the way the next message went out (`bridge` whole, `bridge_adapter` from
    nativeBridge.receive on, `bridge_relay` from the relay's DOM event on, `floor`, `floor_sized`, `floor_event`:
    the padded echo through a DOM event to a listener in the relay's isolated world). Each gap is split where the
    reply left native code: `host` (arrival → reply handed to WebKit) and `web` (→ the next arrival). p50 in µs.
    The bridge's round trip against the echo's (`mixed_bridge_bridge` against `mixed_floor_floor`) is `host_added`
    plus six hops, each the difference of two cells' `web` that differ in that hop alone (so they add up to
    the two `web` parts' difference):
      library_send  the web library's send, to the adapter               (bridge, bridge − bridge, bridge_adapter)
      adapter_send  the adapter: size check, JSON text, the microtask    (bridge, bridge_adapter − bridge, bridge_relay)
      reply_path    the reply: the host's script (the replies as a string literal), JSON.parse, the adapter, the web
                    library, the callback, against the echo's evaluated object literal
                                                                        (bridge, bridge_relay − floor_sized, bridge_relay)
                    split by the padded echo answered as the bridge's replies are written (`floor_json`: the same
                    script shape, then JSON.parse and nothing else) into
        reply_literal   the string literal and JSON.parse      (floor_json, bridge_relay − floor_sized, bridge_relay)
        reply_scripts   the adapter's loop, the web library, the callback  (bridge, bridge_relay − floor_json, bridge_relay)
      relay_rest    the relay and the bridge's handler against the bench's isolated listener and the echo's handler,
                    the same hop                                         (floor_sized, bridge_relay − floor_sized, floor_event)
      relay_event   the DOM event across worlds and a postMessage from the isolated world, nothing of the bridge: the
                    engine's own cost of the hop                         (floor_sized, floor_event − floor_sized, floor_sized)
      size_added    the bridge's message size, both ways, in the echo   (floor_sized, floor_sized − floor, floor)
    The run (roundtrip.html) is 30 × the round trips asked for: ≥ 1/49 of them in each cell."""
    def p50(cell):
        return round(report[cell]["p50"] * 1000, 1) if report.get(cell) else None

    cells = {"bridge": ("bridge", "bridge"), "bridge_adapter": ("bridge", "bridge_adapter"),
             "bridge_relay": ("bridge", "bridge_relay"), "sized_relay": ("floor_sized", "bridge_relay"),
             "json_relay": ("floor_json", "bridge_relay"), "sized_event": ("floor_sized", "floor_event"), "sized": ("floor_sized", "floor_sized"),
             "floor": ("floor", "floor")}
    us = {}
    for name, (way, kind) in cells.items():
        for part in ("", "_host", "_web"):
            value = p50(f"mixed_{way}_{kind}{part}")
            if value is None:
                return None
            us[name + part] = value
    us["samples"] = {name: report[f"mixed_{way}_{kind}"]["n"] for name, (way, kind) in cells.items()}
    us["host_added"] = round(us["bridge_host"] - us["floor_host"], 1)
    us["library_send"] = round(us["bridge_web"] - us["bridge_adapter_web"], 1)
    us["adapter_send"] = round(us["bridge_adapter_web"] - us["bridge_relay_web"], 1)
    us["reply_path"] = round(us["bridge_relay_web"] - us["sized_relay_web"], 1)
    us["reply_literal"] = round(us["json_relay_web"] - us["sized_relay_web"], 1)
    us["reply_scripts"] = round(us["bridge_relay_web"] - us["json_relay_web"], 1)
    us["relay_rest"] = round(us["sized_relay_web"] - us["sized_event_web"], 1)
    us["relay_event"] = round(us["sized_event_web"] - us["sized_web"], 1)
    us["size_added"] = round(us["sized_web"] - us["floor_web"], 1)
    us["scripts_added"] = round(us["bridge_web"] - us["sized_web"], 1)
    us["gap"] = round(us["bridge"] - us["floor"], 1)
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
        "script_costs_us": page.get("scriptCosts"),
        "throughput_msgs_per_s": {"bridge": round(throughput["bridge"]), "floor": round(throughput["floor"]),
                                  "rounds": {kind: [round(rate) for rate in rates]
                                             for kind, rates in throughput["rounds"].items()}},
        "large_payload": {"bytes": page["largePayload"]["bridge"]["bytes"],
                          "bridge_ms": page["largePayload"]["bridge"]["medianMs"],
                          "floor_ms": page["largePayload"]["floor"]["medianMs"]},
        "payload_sizes": page.get("sizes", []),
    }
