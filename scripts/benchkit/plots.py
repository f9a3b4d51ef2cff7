"""The figures: results/benchmarks.png (round trip against payload size; bridge against the floor),
results/scale.png (the scale and screens curves), results/isolated.png (payload size curves per plugin mode) and
results/tabs.png (tabs and windows). Plots only."""
import os
import subprocess
import sys


# The plot: matplotlib from PyPI, installed once into a folder of the build directory (not the system).
def matplotlib_site(root):
    """The folder matplotlib is installed into (once), or None when pip could not install it."""
    site = os.path.join(root, ".build", "bench-python")
    if not os.path.exists(os.path.join(site, "matplotlib")):
        installed = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--target", site, "matplotlib"],
                                   capture_output=True, text=True)
        if installed.returncode != 0:
            print("bench: no plot (pip could not install matplotlib): " + installed.stderr.strip()[-200:])
            return None
    return site


def plot(results, root):
    r, t, l = results["roundtrip"], results["throughput_msgs_per_s"], results["large_payload"]
    sizes = results.get("payload_sizes", [])
    if not sizes:
        return
    site = matplotlib_site(root)
    if site is None:
        return
    sys.path.insert(0, site)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    xs = [row["bytes"] for row in sizes]
    left.loglog(xs, [max(row["bridgeMs"], 0.5) for row in sizes], "o-", label="bridge (web library → plugin → callback)")
    left.loglog(xs, [max(row["floorMs"], 0.5) for row in sizes], "s--", label="engine echo (floor)")
    left.set_xlabel("payload (bytes of JSON)")
    left.set_ylabel("round trip (ms, page clock; 1 ms resolution)")
    left.set_title("Round trip against payload size")
    left.grid(True, which="both", alpha=0.3)
    left.legend()
    labels = ["throughput\n(×1000 msg/s)", "round trip p50\n(µs)", "round trip p99\n(µs/10)", "1 MiB\n(ms)"]
    bridge = [t["bridge"] / 1000, r["bridge_ms"]["p50"] * 1000, r["bridge_ms"]["p99"] * 100, l["bridge_ms"]]
    floor = [t["floor"] / 1000, r["floor_ms"]["p50"] * 1000, r["floor_ms"]["p99"] * 100, l["floor_ms"]]
    positions = range(len(labels))
    right.bar([p - 0.2 for p in positions], bridge, 0.4, label="bridge")
    right.bar([p + 0.2 for p in positions], floor, 0.4, label="engine echo (floor)")
    right.set_xticks(list(positions))
    right.set_xticklabels(labels)
    right.set_title("Bridge against the engine's floor, same run")
    right.legend()
    fig.suptitle(f"Strada for Linux · {results['engine']} · {results['date'][:10]}")
    fig.tight_layout()
    fig.savefig("results/benchmarks.png", dpi=110)
    print("bench: wrote results/benchmarks.png")


def plot_scale(results, root):
    """results/scale.png: throughput against components per page, plugin load time against plugins, screen push and
    pop against stack depth, a Turbo visit against a plain load."""
    scale, screens = results.get("scale", {}), results.get("screens", {})
    site = matplotlib_site(root) if scale or screens else None
    if site is None:
        return
    sys.path.insert(0, site)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(2, 2, figsize=(11, 8.4))
    (components, plugins), (depths, visit) = axes
    if scale:
        rows = scale["components_per_page"]
        xs = [row["components"] for row in rows]
        components.plot(xs, [row["bridge"] for row in rows], "o-", label="bridge (5,000 sent at once)")
        components.plot(xs, [row["floor"] for row in rows], "s--", label="engine echo (floor, same 5,000 at once)")
        components.set_xlabel("bridge components on the page")
        components.set_ylabel("messages per second")
        components.set_title("Throughput against components per page")
        components.set_ylim(bottom=0)
        components.legend()
        loads = scale["plugin_load"]
        plugins.plot([row["plugins"] for row in loads], [row["ms"] for row in loads], "o-")
        plugins.set_xlabel("plugins loaded (Swift, each a dlopen)")
        plugins.set_ylabel("load time (ms)")
        plugins.set_title("Plugin load time against plugins")
        plugins.set_ylim(bottom=0)
    if screens:
        pushes, pops = screens["pushes"], screens["pops"]
        depths.plot([row["depth"] for row in pushes], [row["shown_ms"] for row in pushes], ".-", label="push (visit) → shown")
        depths.plot([row["depth"] for row in pushes], [row["pushed_ms"] for row in pushes], ":", label="push → screen pushed")
        depths.plot([row["depth"] for row in pops], [row["shown_ms"] for row in pops], ".-", label="Back → shown")
        depths.plot([row["depth"] for row in pops], [row["popped_ms"] for row in pops], ":", label="Back → screen popped")
        depths.set_xlabel("stack depth (screens)")
        depths.set_ylabel("ms from the command")
        depths.set_title("Screen push and pop against stack depth (Turbo)")
        depths.set_ylim(bottom=0)
        depths.legend(fontsize="small")
        labels = ["Turbo visit\n(proposal → shown)", "plain WebKit load\n(command → load finished)"]
        values = [screens["turbo_visit_ms"], screens["plain_load_ms"]]
        visit.bar(labels, values, 0.5, color=["C0", "C1"])
        for x, value in enumerate(values):
            visit.annotate(f"{value:.0f} ms", (x, value), ha="center", va="bottom")
        visit.set_ylabel("ms (median of 7)")
        visit.set_title("The same page: Turbo visit against a full load")
    for axis in (components, plugins, depths, visit):
        axis.grid(True, alpha=0.3)
    fig.suptitle(f"Strada for Linux · scale · {results['engine']} · {results['date'][:10]}")
    fig.tight_layout()
    fig.savefig("results/scale.png", dpi=110)
    print("bench: wrote results/scale.png")


def pyplot(root):
    """matplotlib's pyplot (non-interactive), or None when it could not be installed."""
    site = matplotlib_site(root)
    if site is None:
        return None
    sys.path.insert(0, site)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


MODE_LABELS = {"in_process": "in process", "process": "isolated (--isolate)", "sandbox": "sandboxed (--sandbox)"}


def plot_isolated_sizes(results, root):
    """results/isolated.png: round trip and payload rate against payload size, one line per plugin mode."""
    by_mode = {mode: rows for mode, rows in results.get("isolated_payload_sizes", {}).items() if rows}
    plt = pyplot(root) if by_mode else None
    if plt is None:
        return
    fig, (times, rates) = plt.subplots(1, 2, figsize=(11, 4.2))
    for mode, rows in by_mode.items():
        xs = [row["bytes"] for row in rows]
        times.loglog(xs, [max(row["bridgeMs"], 0.5) for row in rows], "o-", label=MODE_LABELS.get(mode, mode))
        big = [row for row in rows if row["bridgeMs"] >= 5]
        rates.semilogx([row["bytes"] for row in big], [row["bytes"] / 1048576 / (row["bridgeMs"] / 1000)
                                                       for row in big], "o-", label=MODE_LABELS.get(mode, mode))
    if "in_process" in by_mode:
        rows = by_mode["in_process"]
        times.loglog([row["bytes"] for row in rows], [max(row["floorMs"], 0.5) for row in rows], "s--", color="grey",
                     label="engine echo (floor)")
    times.set_xlabel("payload (bytes of JSON)")
    times.set_ylabel("round trip (ms, page clock; 1 ms resolution)")
    times.set_title("Round trip against payload size")
    rates.set_xlabel("payload (bytes of JSON)")
    rates.set_ylabel("payload per round trip time (MiB/s)")
    rates.set_title("Payload rate (round trips of 5 ms and more)")
    rates.set_ylim(bottom=0)
    for axis in (times, rates):
        axis.grid(True, which="both", alpha=0.3)
        axis.legend(fontsize="small")
    fig.suptitle(f"Strada for Linux · plugin in process, isolated, sandboxed · {results['engine']} · "
                 f"{results['date'][:10]}")
    fig.tight_layout()
    fig.savefig("results/isolated.png", dpi=110)
    print("bench: wrote results/isolated.png")


def plot_tabs(results, root):
    """results/tabs.png: PSS and switch time against open tabs (the bare window as the floor), PSS against open
    windows."""
    tabs = results.get("tabs")
    plt = pyplot(root) if tabs else None
    if plt is None:
        return
    fig, (memory, switch, windows) = plt.subplots(1, 3, figsize=(13, 4.2))
    curve, floor = tabs["curve"], tabs["floor_window_mb"]
    xs = [row["tabs"] for row in curve]
    memory.plot(xs, [row["pss_mb"] for row in curve], "o-", label=f"tabs ({tabs['pss_per_tab_mb']:.0f} MB per tab)")
    memory.axhline(floor, linestyle="--", color="grey", label=f"one bare window ({floor:.0f} MB)")
    memory.set_xlabel("open tabs")
    memory.set_ylabel("PSS, host + WebKit processes (MB)")
    memory.set_title("Memory against open tabs")
    memory.set_ylim(bottom=0)
    switched = [row for row in curve if "switch_ms" in row]
    switch.plot([row["tabs"] for row in switched], [row["switch_ms"] for row in switched], "o-",
                label="command → painted (bench)")
    switch.plot([row["tabs"] for row in switched], [row["switch_host_ms"] for row in switched], "s--",
                label="selection → painted (host)")
    switch.set_xlabel("open tabs")
    switch.set_ylabel("ms (median)")
    switch.set_title("Switch to a tab already open")
    switch.set_ylim(bottom=0)
    counts = [row["windows"] for row in tabs["windows"]]
    values = [row["pss_mb"] for row in tabs["windows"]]
    windows.bar([str(count) for count in counts], values, 0.5)
    windows.set_ylim(0, max(values) * 1.15)
    for x, value in enumerate(values):
        windows.annotate(f"{value:.0f} MB", (x, value), ha="center", va="bottom")
    windows.set_xlabel("open windows (the main one, then a modal)")
    windows.set_ylabel("PSS, host + WebKit processes (MB)")
    windows.set_title("Memory against open windows")
    for axis in (memory, switch):
        axis.legend(fontsize="small")
    for axis in (memory, switch, windows):
        axis.grid(True, alpha=0.3)
    fig.suptitle(f"Strada for Linux · tabs and windows · {results['engine']} · {results['date'][:10]}")
    fig.tight_layout()
    fig.savefig("results/tabs.png", dpi=110)
    print("bench: wrote results/tabs.png")
