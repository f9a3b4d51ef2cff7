"""What one message costs each process during overlapped throughput: the CPU time of the host's main thread, its
other threads, the web process's main thread and its other threads, and the isolation worker (all its threads),
per message, for the bridge in process, the bridge with the echo plugin in a worker (--isolate), and the engine
echo. Each is the difference between a host run that sends ROUNDS × 20,000 messages and one that sends none (both
start, load Benchmarks/web/roundtrip.html?cost=…, idle 1.5 s, report), so start-up cancels out; CPU time comes
from the scheduler's nanosecond counts (/proc/…/schedstat), which the machine's load moves far less than wall
time. Alternating runs; medians."""
import os
import statistics

from ..host import Host
from ..procfs import cpu_ms, descendants

TITLE = "CPU per message in each process during overlapped throughput (bridge, isolated bridge, engine echo)"

ROUNDS, PER_ROUND, REPEATS = 5, 20000, 3
CASES = {"bridge": ("bridge", []), "bridge_isolated": ("bridge", ["--isolate"]), "floor": ("floor", []),
         # The bridge with part of the page's way left out (roundtrip.html `partialThroughput`): what each part
         # costs the web process's main thread is the difference of two of these rows (`page_split`).
         "bridge_from_adapter": ("adapter", []), "bridge_from_relay": ("relay", []),
         "relay_unanswered": ("relay_unanswered", [])}
PARTS = ["host_main", "host_other", "web_main", "web_other", "worker"]


def one_run(bench, kind, flags, rounds):
    """CPU ms of each part over one host run, and the page's rates (messages per second)."""
    page = "file://" + os.path.join(bench.root, f"Benchmarks/web/roundtrip.html?cost={kind}&rounds={rounds}")
    host = Host(bench, page, bench.plugins_dir("libStradaEchoPlugin.so"), *flags, "--automation-events",
                "benchmark,host", "--benchmark-echo-channel")
    rates = host.wait("benchmark.roundtrip", timeout=600)["result"].get("page", {}).get("rates", [])
    pid = host.process.pid
    parts = dict.fromkeys(PARTS, 0.0)
    parts["host_main"] = cpu_ms(pid, pid)
    parts["host_other"] = cpu_ms(pid) - parts["host_main"]
    for child in descendants(pid)[1:]:
        try:
            with open(f"/proc/{child}/comm") as f:
                name = f.read().strip()
        except OSError:
            continue
        if name.startswith("WebKitWebProce"):
            main = cpu_ms(child, child)
            parts["web_main"] += main
            parts["web_other"] += cpu_ms(child) - main
        elif name == "strada-host" or name.startswith("strada-plugin"):
            parts["worker"] += cpu_ms(child)
    host.quit()
    return parts, rates


def measure(bench):
    figures = {}
    for case, (kind, flags) in CASES.items():
        per_message = {part: [] for part in PARTS}
        rates = []
        for _ in range(REPEATS):
            idle, _ = one_run(bench, kind, flags, 0)
            busy, run_rates = one_run(bench, kind, flags, ROUNDS)
            rates += run_rates
            for part in PARTS:
                per_message[part].append((busy[part] - idle[part]) * 1000 / (ROUNDS * PER_ROUND))
        row = {part: round(statistics.median(values), 2) for part, values in per_message.items()}
        row["total_us"] = round(sum(row[part] for part in PARTS), 2)
        row["rate"] = round(statistics.median(rates)) if rates else None
        figures[case] = row
    return {"cost": figures, "cost_page_split": page_split(figures)}


def page_split(figures):
    """The web process main thread's µs per message during overlapped throughput, by part: the web library's send
    (bridge − from the adapter), the adapter's (from the adapter − from the relay: size check, batching; the JSON
    text is made in both), the replies' delivery (from the relay − unanswered: the host's call, JSON.parse, the
    adapter's loop, the web library, the callbacks) and the rest (unanswered: the JSON text, batches, the relay's
    DOM event and postMessage)."""
    names = ("bridge", "bridge_from_adapter", "bridge_from_relay", "relay_unanswered")
    if not all(name in figures for name in names):
        return None
    web = {name: figures[name]["web_main"] for name in names}
    return {"library_send": round(web["bridge"] - web["bridge_from_adapter"], 2),
            "adapter_send": round(web["bridge_from_adapter"] - web["bridge_from_relay"], 2),
            "reply_delivery": round(web["bridge_from_relay"] - web["relay_unanswered"], 2),
            "text_and_relay": web["relay_unanswered"], "total": web["bridge"]}
