"""Scale: overlapped throughput against the number of bridge components on one page (1 … 100 elements, each with an
echo controller; 5,000 messages sent at once spread over them), each against the engine echo of the same run; and
plugin load time against the number of plugins (1 … 200 distinct copies of a Swift plugin, each a real dlopen, each
count in a fresh process)."""
import json
import os
import statistics

from ..host import Host
from .core import strada_bench

TITLE = "throughput against components per page, plugin load time against plugins"


def measure(bench):
    per_page = []
    echo_only = bench.plugins_dir("libStradaEchoPlugin.so")
    for components in [1, 10, 25, 50, 100]:
        host = Host(bench, "file://" + bench.path(f"Benchmarks/web/components.html?n={components}"), echo_only,
                    "--automation-events", "benchmark", "--benchmark-echo-channel")
        page = host.wait("benchmark.roundtrip", timeout=300)["result"]["page"]
        host.quit()
        per_page.append({"components": components, "messages": page["messages"], "bridge": round(page["bridge"]),
                         "floor": round(page["floor"])})
    loads = []
    for plugins in [1, 10, 25, 50, 100, 200]:
        times = []
        for _ in range(3):
            out = strada_bench(bench, env=dict(os.environ, STRADA_BENCH_ONLY="load",
                                               STRADA_BENCH_LOAD_COUNTS=str(plugins)))
            load = json.loads(out)["plugin_load_ms"][str(plugins)]
            if load["loaded"] != plugins:
                raise SystemExit(f"bench: {load['loaded']} of {plugins} plugins loaded")
            times.append(load["milliseconds"])
        loads.append({"plugins": plugins, "ms": round(statistics.median(times), 1)})
    return {"scale": {"components_per_page": per_page, "plugin_load": loads}}
