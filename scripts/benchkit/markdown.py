"""results/BENCHMARKS.md from the figures (results/benchmarks.json): the verdict table with the targets, the
start-up phases, the payload sizes, and the scale and screens sections once measured. Formats only."""


def verdict(ok):
    return "met" if ok else "**not met**"


def human(size):
    return f"{size / 1048576:.0f} MiB" if size >= 1048576 else f"{size / 1024:.0f} KiB" if size >= 1024 else f"{size} B"


def hops_md(split, costs):
    """The lone round trip hop by hop (roundtrip.py `account`) and the page's scripts per message in a burst
    (roundtrip.html `scriptCosts`); empty when the run did not measure them."""
    if not split or "relay_event" not in split:
        return ""
    n = split["samples"]
    rows = [
        ("native: the bridge, the echo plugin, the reply's text (the echo: its handler)",
         "arrival → reply handed to WebKit", split["bridge_host"], split["floor_host"], split["host_added"]),
        ("web library send → adapter", "bridge whole − from the adapter on", split["bridge_web"],
         split["bridge_adapter_web"], split["library_send"]),
        ("adapter → relay event (size check, JSON text, the microtask)", "from the adapter on − from the relay on",
         split["bridge_adapter_web"], split["bridge_relay_web"], split["adapter_send"]),
        ("reply: the host's script shape (the replies as a string literal), JSON.parse", "the padded echo "
         "answered as the bridge's replies − as the echo, the next message from the relay on",
         split["json_relay_web"], split["sized_relay_web"], split["reply_literal"]),
        ("reply: the adapter's loop → web library → callback", "the bridge's reply − the padded echo answered "
         "as the bridge's", split["bridge_relay_web"], split["json_relay_web"], split["reply_scripts"]),
        ("relay → the bridge's handler", "from the relay on − the padded echo through the isolated world",
         split["sized_relay_web"], split["sized_event_web"], split["relay_rest"]),
        ("DOM event across worlds → postMessage (the engine's hop)", "the padded echo through the isolated world "
         "− the padded echo", split["sized_event_web"], split["sized_web"], split["relay_event"]),
        (f"message size ({split.get('bridge_bytes', '?')} B against {split.get('floor_bytes', '?')} B, both ways)",
         "the padded echo − the echo", split["sized_web"], split["floor_web"], split["size_added"]),
    ]
    table = "\n".join(f"| {hop} | {how} | {a:.1f} | {b:.1f} | {d:+.1f} |" for hop, how, a, b, d in rows)
    attributed = sum(row[4] for row in rows)
    text = f"""
## A lone round trip, hop by hop

One sequential run (after the others) whose messages each take one of seven ways, chosen at random, all alike,
so that every way's samples spread over the same stretch of time: the bridge whole, from the adapter on (the page calls
`nativeBridge.receive`), from the relay on (the page dispatches the relay's DOM event), the engine echo, the echo
padded to the bridge's message size, that echo through a DOM event to a listener in the relay's isolated
world (the engine's own floor of the relay's hop), and that echo answered as the bridge's replies are written (a
string literal the page parses). Native code times each gap between two arrivals and files it
by the way the reply came back and the way the next message went out; "native" is arrival → the reply handed to
WebKit, the rest from there to the next arrival. p50 in µs; each hop is the difference of two cells that differ
in that hop alone ({min(n.values()):,}–{max(n.values()):,} samples a cell).

| hop | cells | with | without | µs |
|---|---|---|---|---|
{{table}}
| **round trip, bridge against echo** | p50 {split['bridge']:.1f} against {split['floor']:.1f} µs | | | {split['gap']:+.1f} |

The hops add up to {attributed:+.1f} µs (a difference of medians is not the median of differences, hence any
rest against the round trip's {split['gap']:+.1f}).
""".replace("{table}", table)
    if costs:
        names = [("librarySend", "web library send (component → Strada.web.send → a stub adapter)"),
                 ("adapterSend", "adapter: nativeBridge.receive (size check, JSON text, batching, each full batch's relay event and postMessage)"),
                 ("relayPost", "of which the relay: the same batches dispatched to it, relay → postMessage"),
                 ("relayEvent", "one DOM event across worlds (the relay drops it), per event"),
                 ("sameWorldEvent", "one DOM event in the page's world, per event"),
                 ("replyAdapter", "reply batch: JSON.parse + the adapter's loop (web library stubbed)"),
                 ("replyLibrary", "reply batch: the same with the web library and a callback"),
                 ("replyLoneLibrary", "a lone reply: one replyWithJSON call with the web library and a callback"),
                 ("burstSend", "in place, overlapped throughput: the send loop (web library + adapter + relay posts)"),
                 ("burstReplies", "in place: inside replyWithJSON (parse, adapter, web library, callbacks)")]
        cost_rows = "\n".join(f"| {label} | {costs[name]:.2f} |" for name, label in names if name in costs)
        text += f"""
The page's scripts per message in a burst of {costs['messages']:,} (µs, page-timed totals: the page's clock steps
by {costs['clockStepUs']:g} µs; medians of {costs['rounds']}; in place: {costs.get('replyBatches', '?'):g} reply
calls a burst):

| part | µs per message |
|---|---|
{{cost_rows}}
""".replace("{cost_rows}", cost_rows)
    return text


def render(results):
    """The Markdown text, and the verdict rows (measure, result, floor / context, target, met)."""
    r, t, l, c = results["roundtrip"], results["throughput_msgs_per_s"], results["large_payload"], results["core"]
    m, st = results["host_peak_rss_mb"], results["stress"]
    pss = results.get("peak_pss_pages_mb", {"plain": results["peak_pss_mb"], "hostile": None})
    sizes = results.get("payload_sizes", [])

    ratio = t["bridge"] / t["floor"]
    window_ms = results["startup_ms"].get("window_on_screen")
    instructions = c.get("core_dispatch_instructions")
    instr_text = f"{instructions:,} instructions/msg (callgrind)" if instructions else "instructions not counted (no valgrind)"
    hostile = f"{pss['hostile']:.0f} MB" if pss.get("hostile") is not None else "—"
    rows = [
        ("overlapped throughput (20,000 sent at once, median of 5 alternating)", f"{t['bridge']:,} msg/s", f"engine echo {t['floor']:,} msg/s (×{ratio:.2f})",
         "≥ 4 × floor", ratio >= 4),
        (f"round trip p50 ({r['messages']} sequential)", f"{r['bridge_ms']['p50']:.3f} ms",
         f"engine echo {r['floor_ms']['p50']:.3f} ms (×{r['p50_ratio']})", "≤ 1.1 × floor", r["p50_ratio"] <= 1.1),
        ("round trip p99", f"{r['bridge_ms']['p99']:.3f} ms", f"engine echo {r['floor_ms']['p99']:.3f} ms (×{r['p99_ratio']})",
         "≤ 1.3 × floor", r["p99_ratio"] <= 1.3),
        ("1 MiB JSON there and back (10 interleaved)", f"{l['bridge_ms']:.1f} ms", f"engine echo {l['floor_ms']:.1f} ms", "≤ 30 ms and ≤ floor",
         l["bridge_ms"] <= 30 and l["bridge_ms"] <= l["floor_ms"]),
        ("core dispatch (parse + route + reply, Swift component)", f"{c['core_dispatch_us']:.2f} µs/msg", instr_text, "≤ 1.5 µs",
         c["core_dispatch_us"] <= 1.5),
        ("start-up to adapter ready", f"{results['startup_ms']['median']:.0f} ms median", "process start → adapter \"ready\"",
         "≤ 550 ms", results["startup_ms"]["median"] <= 550),
        ("window on screen", f"{window_ms:.0f} ms median" if window_ms else "—", "process start → first frame painted",
         "≤ 350 ms", window_ms is not None and window_ms <= 350),
        ("peak PSS, plain page", f"{pss['plain']:.0f} MB", "host + web + network processes, sampled every 20 ms", "≤ 230 MB", pss["plain"] <= 230),
        ("peak PSS, hostile page", hostile, "floods, 64 MiB string, deep nesting, bad JSON", "≤ plain + 64 MB",
         pss.get("hostile") is not None and pss["hostile"] <= pss["plain"] + 64),
    ] + ([
        ("peak PSS, hostile page beyond its control", f"{pss['hostile'] - pss['hostile_control']:+.0f} MB",
         f"control {pss['hostile_control']:.0f} MB (plain {pss['hostile_control'] - pss['plain']:+.0f} MB): the same page "
         "allocations, nothing sent", "≤ 64 MB", pss["hostile"] - pss["hostile_control"] <= 64),
    ] if pss.get("hostile") is not None and pss.get("hostile_control") is not None else []) + [
        ("hot reload", f"{results['hot_reload_ms']['median']:.0f} ms median",
         "file renamed in → new code's control shown" + (f" (stage + probe + dlopen {results['hot_reload_ms']['registry_median']:.0f} ms)"
                                                         if "registry_median" in results["hot_reload_ms"] else ""), "≤ 150 ms",
         results["hot_reload_ms"]["median"] <= 150),
        ("stress: starts with all 10 plugins under CPU load", f"{st['failures']} failed of {st['starts']}",
         f"{st['cpu_burners']} busy processes; host.ready {st['ready_ms_first_start']:.0f} ms first start, "
         f"{st['ready_ms_median_known']:.0f} ms median after", "0 failed", st["failures"] == 0),
    ]
    table = "\n".join(f"| {a} | {b} | {f} | {g} | {verdict(ok)} |" for a, b, f, g, ok in rows)
    plugin_instr = f", {c['through_plugin_instructions']:,} instructions/msg" if c.get("through_plugin_instructions") else ""
    rounds = t.get("rounds")
    rounds_row = (f"| overlapped throughput, each round | bridge {', '.join(f'{v:,}' for v in rounds['bridge'])} msg/s | engine echo "
                  f"{', '.join(f'{v:,}' for v in rounds['floor'])} msg/s | — | |\n") if rounds else ""
    split = r.get("account")
    account_row = (f"| round trip p50, where the time goes | native {split['bridge_host']:.1f} µs, page and WebKit "
                   f"{split['bridge_web']:.1f} µs | engine echo: native {split['floor_host']:.1f} µs, page and WebKit "
                   f"{split['floor_web']:.1f} µs; padded to the bridge's {split.get('bridge_bytes', '?')} B "
                   f"{split['sized_web']:.1f} µs (the hop-by-hop run, below). The bridge adds {split['host_added']:+.1f} µs native, "
                   f"{split['size_added']:+.1f} µs for its messages' size, {split['scripts_added']:+.1f} µs in the "
                   f"page's scripts | — | |\n") if split and "size_added" in split else ""
    extra = rounds_row + account_row + f"""| C-ABI crossing (Swift plugin) | {c['abi_crossing_us']:.2f} µs/msg | through the plugin {c['through_plugin_us']:.2f} µs{plugin_instr} | — | |
| plugin load | {c['plugin_load_ms']['1']['milliseconds']:.1f} ms (1), {c['plugin_load_ms']['50']['milliseconds']:.1f} ms (50) | distinct Swift plugin copies | — | |
| host peak RSS, plain / hostile page | {m['plain']:.0f} / {m['hostile']:.0f} MB | the host process alone | — | |"""
    phase_names = {"main": "engine libraries loaded, `main` entered", "display": "GTK and libadwaita initialised, display open",
                   "application": "app id registered on the session bus (one instance per app)",
                   "plugins": "plugins declared (each opened when first used)", "webView": "web view created", "load": "start page's load started",
                   "window": "window built", "ready": "session ready (`host.ready`)", "present": "window presented",
                   "mapped": "window mapped", "firstFrame": "first frame painted: the window is on screen",
                   "page.committed": "web process running, document committed",
                   "bridge.ready": "adapter ready (its \"ready\" reached native)", "page.finished": "load finished"}
    phase_rows, previous = [], 0.0
    for name, at in sorted(results["startup_ms"].get("phases", {}).items(), key=lambda item: item[1]):
        phase_rows.append(f"| {name} | {phase_names.get(name, name)} | {at:.0f} ms | +{at - previous:.0f} ms |")
        previous = at
    phase_table = "\n".join(phase_rows)
    installed = results["startup_ms"].get("installed_plugins", {})
    unknown = results["startup_ms"].get("first_start_unknown")
    plugin_rows = [f"| {int(count):,} installed | {ms:.0f} ms | {ms - installed.get('0', ms):+.0f} ms |"
                   for count, ms in installed.items()]
    if unknown:
        plugin_rows.append(f"| 10 never seen, first start / known | {unknown['first']:.0f} / {unknown['known']:.0f} ms | "
                           f"{unknown['first'] - unknown['known']:+.0f} ms |")
    plugins_section = ("""

## Start-up against installed plugins

Medians, in ms from the process start to `host.ready`, with the form plugin and copies of a tiny C plugin, each
with its manifest (`Benchmarks/tiny-plugin`), the counts alternating run by run; plugins are opened only when a
page first uses them ([docs/plugins.md](../docs/plugins.md#when-plugins-are-opened)). The last row: ten copies the
host has never seen, their first start against the next one.

| plugins | to host.ready | against none |
|---|---|---|
""" + "\n".join(plugin_rows)) if plugin_rows else ""
    isolated = results.get("isolated", {})
    isolated_rows = [f"| {mode.replace('_', ' ')} | {row['start_ms']:.0f} ms | ×{row['p50_ratio']:.2f} / "
                     f"×{row['p99_ratio']:.2f} | ×{row['throughput_ratio']:.2f} | {row['large_payload_ms']:.0f} ms "
                     f"(echo {row['large_payload_floor_ms']:.0f} ms) |" for mode, row in isolated.items()]
    targets_rows = [f"| {mode.replace('_', ' ')} | {row['ready_ms']:.0f} ms ({verdict(row['ready_ms'] <= 550)}) | "
                    f"{row['hot_reload_ms']:.0f} ms ({verdict(row['hot_reload_ms'] <= 150)}) | "
                    f"{row['hot_reload_registry_ms']:.0f} ms |"
                    for mode, row in isolated.items() if "hot_reload_ms" in row]
    isolated_section = ("""

## In process, isolated, sandboxed

The echo plugin in the host's process, in a worker process (`--isolate`) and in a sandboxed worker (`--sandbox`),
each against the engine echo of the same host run; start is the median of three starts to `host.ready`
([docs/third-party-components.md](../docs/third-party-components.md)).

| plugin runs | start | round trip p50 / p99 | throughput | 1 MiB |
|---|---|---|---|---|
""" + "\n".join(isolated_rows)) if isolated_rows else ""
    if targets_rows:
        isolated_section += """

The start-up and hot-reload targets with each mode on: the hot test plugin (`Tests/EndToEndTests/Fixtures/hot-plugin.c`)
with `--watch`, started three times to the adapter's ready (median; target ≤ 550 ms), then six rebuilds renamed in,
each to its new control shown (median; target ≤ 150 ms). A worker's reload starts a new worker (under bubblewrap
and its seccomp filter in the sandbox) while the old one serves; its part is from the staged copy to the new
worker serving (its hello, its components brought back).

| plugin runs | start to adapter ready | hot reload | of which loading |
|---|---|---|---|
""" + "\n".join(targets_rows)
    wakeups = results.get("isolated_wakeup_floor")
    in_process, worker = isolated.get("in_process", {}), isolated.get("process", {})
    if wakeups and "p50_us" in in_process and "p50_us" in worker:
        isolated_section += f"""

What isolation adds to a lone round trip, against the operating system's floor for it
(`Benchmarks/wakeup-floor/pingpong.c`: one-byte round trips with a {wakeups.get('pause_us', 250)} µs pause between them, p50 / p99): the
isolated bridge's p50 is {worker['p50_us'] - in_process['p50_us']:+.0f} µs over in process ({worker['p50_us']:.0f}
against {in_process['p50_us']:.0f} µs; their echoes {worker['floor_p50_us']:.0f} and {in_process['floor_p50_us']:.0f}
µs). The floor: to a thread {wakeups['thread']['p50']:.0f} / {wakeups['thread']['p99']:.0f} µs, to a child process
{wakeups['process']['p50']:.0f} / {wakeups['process']['p99']:.0f} µs, in the host's shape (the child, then a
reader thread that wakes the main thread) {wakeups['host']['p50']:.0f} / {wakeups['host']['p99']:.0f} µs."""
    plugins_section += isolated_section

    hop_section = hops_md(r.get("account"), results.get("script_costs_us"))

    def size_ratio(row):
        return f"×{row['bridgeMs'] / row['floorMs']:.2f}" if row["floorMs"] >= 1 and row["bridgeMs"] >= 1 else "— (under the 1 ms clock)"


    size_table = "\n".join(f"| {human(row['bytes'])} | {row['bridgeMs']:.0f} ms | {row['floorMs']:.0f} ms | {size_ratio(row)} |"
                            for row in sizes)

    md = f"""# Benchmark results

{results['date']} · {results['engine']} · {results['machine']['cpu']} ({results['machine']['cores']} cores) · release build · `scripts/bench`{load_text(results)}

| measure | result | floor / context | target | |
|---|---|---|---|---|
{table}
{extra}

Round trips are timed in native code where messages arrive (WebKit gives pages a 1 ms timer): each sample is
the gap between two consecutive arrivals of a sequential run, i.e. one full trip native → web callback → native.
Bridge and floor runs alternate four times in one host process; warm-ups are not counted. The floor is the
engine's bare echo in the same run: JSON text posted to a script-message handler that evaluates the callback
with it, one message at a time, no bridge.
{hop_section}
## Start-up phases

Medians of the start-up runs, in ms since the bench started the process: the host's own phases as its
`host.startup` event dates them (the monotonic clock, shared with the bench), then the page's events as they
reached the bench (the automation channel adds well under a millisecond).

| event | phase done | since start | phase |
|---|---|---|---|
{phase_table}{plugins_section}

## Round trip against payload size

JSON of about that size (an array of small objects) sent by the web library, echoed by the plugin, and back to
its callback (page-timed, 1 ms resolution, median); the floor posts the same JSON text to the bare echo.

| payload | bridge | engine echo | ratio |
|---|---|---|---|
{size_table}

![round trip against payload size](benchmarks.png)

"""


    def scale_md():
        """The scale and screens sections (empty until measured)."""
        scale, screens, text = results.get("scale", {}), results.get("screens", {}), ""
        if scale:
            components = "\n".join(f"| {row['components']} | {row['bridge']:,} msg/s | {row['floor']:,} msg/s | "
                                    f"×{row['bridge'] / max(row['floor'], 1):.2f} |" for row in scale["components_per_page"])
            plugins = "\n".join(f"| {row['plugins']} | {row['ms']:.1f} ms | {row['ms'] / row['plugins']:.2f} ms |"
                                 for row in scale["plugin_load"])
            text += f"""
## Scale

Overlapped throughput against the number of bridge components on one page: that many elements, each with an echo
controller (one native component serves a name per page, as in Hotwire Native), 5,000 messages sent at once
spread over them in turn, median of three; the engine echo of the same 5,000 messages sent at once in the same
run is the floor.

| components | bridge | engine echo | ratio |
|---|---|---|---|
{components}

Plugin load time against the number of plugins: distinct copies of a Swift plugin (each a real `dlopen`), loaded
by the host's loader in a fresh process for each count, median of three.

| plugins | load time | per plugin |
|---|---|---|
{plugins}

![scale curves](scale.png)
"""
        if screens:
            depth = "\n".join(f"| {row['depth']} | {row['push_ms']:.1f} ms | {row['push_shown_ms']:.1f} ms | "
                               f"{row['pop_ms']:.1f} ms | {row['pop_shown_ms']:.1f} ms |" for row in screens["by_depth"])
            text += f"""
## Screens

With the real Turbo (the demo app's posts; each visit a distinct URL of the same page), pushed one by one to a
stack of 50 screens and popped back, timed from the automation command: to the navigator's `screen.pushed` /
`screen.popped`, and to the screen shown (`visit.completed`: Turbo rendered the page, reported after a repaint;
for Back, Turbo's restore). Median of the depths within 2 of the one shown.

| stack depth | push: screen pushed | push: shown | Back: screen popped | Back: shown |
|---|---|---|---|---|
{depth}

The same page (`/posts/new`) shown by a Turbo visit and loaded by plain WebKit, alternating, median of 7 each:

| how | from → to | time |
|---|---|---|
| Turbo visit (the posts' "New post" button) | Turbo's proposal → `visit.completed` (rendered, after a repaint) | {screens['turbo_visit_ms']:.1f} ms |
| plain WebKit load (`navigate`, a new stack) | the command → `page.finished` (no paint waited for) | {screens['plain_load_ms']:.1f} ms |
| Turbo visit, from the automation press | `activate` → `visit.completed` | {screens['turbo_visit_command_ms']:.1f} ms |

About 250 ms of the last row is GTK's own: an activated `GtkButton` shows itself pressed for 250 ms before it
emits `clicked` (a pointer click does not wait).
"""
        return text


    return md.rstrip("\n") + "\n" + scale_md() + isolated_sizes_md(results) + tabs_md(results) + cost_md(results), rows


def load_text(results):
    """The load average before and after the run (other builds share the machine) and the machine's yardstick (the
    CPU time of `strada-host --help`: how fast the VM runs now), when they were noted."""
    load = results.get("load_average")
    text = f" · load average {load['before']:.2f} before, {load['after']:.2f} after" if load else ""
    yardstick = results.get("machine", {}).get("yardstick_cpu_ms")
    if yardstick is not None:
        text += f" · yardstick `strada-host --help` {yardstick:.0f} ms CPU (67 ms on 2026-11-24)"
    return text


MODE_NAMES = {"in_process": "in process", "process": "isolated", "sandbox": "sandboxed"}


def isolated_sizes_md(results):
    """Round trip against payload size in each plugin mode (empty until the isolate section has measured it)."""
    by_mode = {mode: rows for mode, rows in results.get("isolated_payload_sizes", {}).items() if rows}
    if "in_process" not in by_mode:
        return ""
    modes = list(by_mode)
    header = " | ".join(MODE_NAMES.get(mode, mode) for mode in modes)
    lines = []
    for i, row in enumerate(by_mode["in_process"]):
        cells = [by_mode[mode][i]["bridgeMs"] for mode in modes]
        ratios = ", ".join(f"×{cell / cells[0]:.2f}" if cells[0] >= 1 and cell >= 1 else "—" for cell in cells[1:])
        rate = f"{row['bytes'] / 1048576 / (cells[1] / 1000):.0f} MiB/s" if len(cells) > 1 and cells[1] >= 5 else "—"
        lines.append(f"| {human(row['bytes'])} | " + " | ".join(f"{cell:.0f} ms" for cell in cells) +
                     f" | {row['floorMs']:.0f} ms | {ratios} | {rate} |")
    return f"""
## Isolated and sandboxed against in process, by payload size

The round trip against payload size of [above](#round-trip-against-payload-size) with the echo plugin in the host's
process, in a worker process (`--isolate`) and in a sandboxed worker (`--sandbox`), one host run each (the
`isolate` section; page-timed, 1 ms resolution, median); the engine echo is the in-process run's. Ratios against
in process where both are at least 1 ms; the last column is the isolated worker's payload rate (payload bytes
per round trip time, from 5 ms up).

| payload | {header} | engine echo | against in process ({", ".join(MODE_NAMES.get(m, m) for m in modes[1:])}) | isolated rate |
|---|{"---|" * len(modes)}---|---|---|
""" + "\n".join(lines) + "\n\n![round trip and payload rate against payload size, per plugin mode](isolated.png)\n"


def tabs_md(results):
    """Memory and switch time against open tabs, memory against open windows (empty until measured)."""
    tabs = results.get("tabs")
    if not tabs:
        return ""
    curve = "\n".join(f"| {row['tabs']} | {row['pss_mb']:.0f} MB | {row['pss_mb'] - tabs['floor_window_mb']:+.0f} MB | "
                      + (f"{row['switch_ms']:.1f} ms | {row['switch_host_ms']:.1f} ms |" if "switch_ms" in row else "— | — |")
                      for row in tabs["curve"])
    windows = "\n".join(f"| {row['windows']} | {row['pss_mb']:.0f} MB | {row['pss_mb'] - tabs['floor_window_mb']:+.0f} MB |"
                        for row in tabs["windows"])
    first = tabs["first_open"]
    shown = sorted(row["shown_ms"] for row in first)[len(first) // 2]
    loaded = sorted(row["loaded_ms"] for row in first)[len(first) // 2]
    return f"""
## Tabs and windows

PSS of the host and every process it started (its WebKit web and network processes) against open tabs: an app
definition with 10 tabs, each the demo app's posts with the real Turbo at its own URL (the button and form
plugins), opened one by one (tabs are lazy: a tab's web view is made when it is first selected), measured 1.5 s
after each page loaded (median of five samples); every run `--ephemeral`. PSS counts a share of the libraries the
machine's other processes map too, so it moves with what else runs. Switch: `select-tab` to a tab already open →
`tab.shown` (the window painted its first frame with the tab shown), on the bench's clock and on the host's
(selection → paint), switching in turn among the tabs open. Medians of {tabs['runs']} host runs
({tabs['switches_per_point']} switches each per point). The floor is one bare window: the posts without tabs,
{tabs['floor_window_mb']:.0f} MB. **PSS per tab: {tabs['pss_per_tab_mb']:.0f} MB** (least-squares slope); **switch:
{tabs['switch_ms']:.1f} ms** (median over the points).

| open tabs | PSS | against one bare window | switch (command → painted) | in the host (selection → painted) |
|---|---|---|---|---|
{curve}

A tab's first opening (tabs 2 … 10, medians): painted {shown:.0f} ms after the command (its web view before its
page has loaded), its page loaded (`page.finished`) {loaded:.0f} ms after the command.

Against open windows: the posts in the main window, then "New post" over it, a modal window by the demo's path
configuration (the app has one main window and at most one modal: two is the most). **PSS per extra window:
{tabs['pss_per_window_mb']:+.0f} MB.**

| open windows | PSS | against one bare window |
|---|---|---|
{windows}

![memory and switch time against open tabs, memory against open windows](tabs.png)
"""


COST_CASES = {"bridge": "bridge, in process", "bridge_isolated": "bridge, isolated (--isolate)",
              "floor": "engine echo", "bridge_from_adapter": "bridge from nativeBridge.receive on (no web library)",
              "bridge_from_relay": "bridge from the relay on (no web library, no adapter)",
              "relay_unanswered": "the same, to a component the host does not have (no replies)"}


def cost_md(results):
    """CPU per message in each process during overlapped throughput (empty until measured)."""
    cost = results.get("cost")
    if not cost:
        return ""
    rows = "\n".join(
        f"| {COST_CASES.get(case, case)} | {row['host_main']:.2f} | {row['host_other']:.2f} | {row['web_main']:.2f} | "
        f"{row['web_other']:.2f} | {row['worker']:.2f} | **{row['total_us']:.2f}** | {row['rate'] or 0:,} msg/s |"
        for case, row in cost.items())
    return f"""
## CPU per message

Where overlapped throughput spends its CPU: each process's CPU time (the scheduler's nanosecond counts) over a host
run that sends 5 × 20,000 messages at once, less that of a run that sends none, per message, in µs (medians of 3
alternating pairs). The pipeline runs as fast as its busiest thread: the host's main thread (the bridge, the
plugin in process), or the web process's main thread (the web library, the adapter, the relay, the callbacks).

| messages | host main | host other threads | web main | web other threads | worker | total | rate |
|---|---|---|---|---|---|---|---|
{rows}
""" + cost_split_md(results.get("cost_page_split"))


def cost_split_md(split):
    """The web process main thread's CPU per message by part (cost.py `page_split`)."""
    if not split:
        return ""
    return f"""
The web process's main thread per message, by part (differences of the rows above): the web library's send
{split['library_send']:.2f} µs, the adapter's (size check, batching) {split['adapter_send']:.2f} µs, the replies' delivery
(the host's call, JSON.parse, the adapter's loop, the web library, the callbacks) {split['reply_delivery']:.2f} µs, the
messages' JSON text, batches, the relay's DOM event and postMessage {split['text_and_relay']:.2f} µs; {split['total']:.2f} µs
in all.
"""
