"""Tabs and windows, on the demo app's posts with the real Turbo: the PSS of the host and every process it started
(its WebKit web and network processes) against open tabs (an app definition with 10 tabs, each the posts at its
own URL, opened one by one: tabs are lazy) and against open windows (the posts, then "New post" as the modal the
demo's path configuration makes it: the app has one main window and at most one modal), and the time to switch to a
tab already open against open tabs: from the `select-tab` command to the host's `tab.shown` (the window painted its
first frame with the tab shown). One bare window (the posts, no tabs) is the floor; PSS per tab is the slope of a
least-squares line through the tab points. Each point: the median of three host runs (PSS: the median of five
samples taken 1.5 s after the page loaded), switches the median of eight."""
import json
import os
import statistics
import tempfile
import time

from ..demo import demo_server
from ..host import Host

TITLE = "memory and tab switch time against open tabs, memory against open windows"

PLUGINS = ("libStradaButtonPlugin.so", "libStradaFormPlugin.so")
TABS = 10
POINTS = [1, 2, 4, 6, 8, 10]
RUNS = 3
SWITCHES = 8
NEW_POST = "button.button-right"


def measure(bench):
    with demo_server() as base:
        tab_runs = [open_tabs(bench, base) for _ in range(RUNS)]
        window_runs = [open_windows(bench, base) for _ in range(RUNS)]
    return {"tabs": summary(tab_runs, window_runs)}


def app_definition(base):
    """An app with TABS tabs, each the posts at its own URL."""
    tabs = [{"title": f"Tab {i + 1}", "icon": "folder-symbolic", "url": f"{base}posts?tab={i}"} for i in range(TABS)]
    path = os.path.join(tempfile.mkdtemp(prefix="strada-bench-"), "tabs.json")
    with open(path, "w") as out:
        json.dump({"id": "org.example.TabsBench", "name": "Tabs", "start_url": tabs[0]["url"], "plugins": [],
                   "system_plugins": False, "tabs": tabs}, out)
    return path


def since(host, t0, event):
    return round((host.at(event) - t0) * 1000, 1)


def settled_pss(host):
    """The tree's PSS in KiB once the page has settled: the median of five samples, 0.2 s apart."""
    time.sleep(1.5)
    samples = []
    for _ in range(5):
        samples.append(host.tree_pss_kib())
        time.sleep(0.2)
    return statistics.median(samples)


def open_tabs(bench, base):
    """One host run: tabs opened one by one; the PSS at each point, switch times among the tabs open there, and
    each first opening (command → painted, command → its page loaded)."""
    host = Host(bench, None, bench.plugins_dir(*PLUGINS), "--app", app_definition(base),
                "--ephemeral", "--automation-events", "tab,page")
    host.wait("page.finished", lambda e: e["url"].endswith("tab=0"))
    pss, switches, first = {}, {}, []
    for count in range(1, TABS + 1):
        if count > 1:
            first.append(open_tab(host, count - 1))
        if count in POINTS:
            pss[count] = settled_pss(host)
            if count > 1:
                switches[count] = switch_times(host, count)
    host.quit()
    return {"pss": pss, "switches": switches, "first": first}


def select(host, index):
    """Sends `select-tab`; the bench clock before it and the mark after which its events come."""
    t0 = time.monotonic()
    return t0, host.send(command="select-tab", index=index)


def open_tab(host, index):
    t0, mark = select(host, index)
    shown = host.wait("tab.shown", lambda e: e["index"] == index, after=mark)
    loaded = host.wait("page.finished", lambda e: e["url"].endswith(f"tab={index}"), after=mark)
    return {"tab": index + 1, "shown_ms": since(host, t0, shown), "loaded_ms": since(host, t0, loaded)}


def switch_times(host, count):
    """SWITCHES switches among the `count` tabs open (the last opened is shown), in turn from the first: each
    (command → tab.shown on the bench's clock, the host's own selection → paint)."""
    times, current = [], count - 1
    for turn in range(SWITCHES):
        target = turn % count if turn % count != current else (turn + 1) % count
        time.sleep(0.3)
        t0, mark = select(host, target)
        shown = host.wait("tab.shown", lambda e: e["index"] == target, after=mark)
        times.append((since(host, t0, shown), shown["milliseconds"]))
        current = target
    return times


def open_windows(bench, base):
    """One host run on the posts (the demo's path configuration; ephemeral, as the tabs' runs): its PSS with the
    main window alone, then with "New post" presented as a modal window over it."""
    host = Host(bench, base + "posts", bench.plugins_dir(*PLUGINS), "--path-configuration",
                bench.path("Examples/demo/path-configuration.json"), "--ephemeral", "--automation-events",
                "page,modal,turbo,control")
    host.wait("turbo.ready")
    host.wait("control.added", lambda e: e["control"]["id"] == NEW_POST)
    one = settled_pss(host)
    # The posts' "New post" button: a Turbo visit the path configuration presents as a modal (the `visit` command
    # pushes on the main stack whatever the rules say).
    mark = host.send(command="activate", control=NEW_POST)
    host.wait("modal.presented", after=mark)
    host.wait("page.finished", lambda e: e["url"].endswith("/posts/new"), after=mark)
    two = settled_pss(host)
    host.quit()
    return {1: one, 2: two}


def mb(kib):
    return round(kib / 1024, 1)


def slope(points):
    """The least-squares slope of (x, y) points."""
    xs, ys = [x for x, _ in points], [y for _, y in points]
    mean_x, mean_y = statistics.mean(xs), statistics.mean(ys)
    return sum((x - mean_x) * (y - mean_y) for x, y in points) / sum((x - mean_x) ** 2 for x in xs)


def summary(tab_runs, window_runs):
    """The figures kept: medians over the runs at each point, the slope, the floor, the first openings."""
    curve = []
    for count in POINTS:
        row = {"tabs": count, "pss_mb": mb(statistics.median(run["pss"][count] for run in tab_runs))}
        if count > 1:
            pairs = [pair for run in tab_runs for pair in run["switches"][count]]
            row["switch_ms"] = round(statistics.median(bench for bench, _ in pairs), 1)
            row["switch_host_ms"] = round(statistics.median(host for _, host in pairs), 1)
        curve.append(row)
    windows = [{"windows": count, "pss_mb": mb(statistics.median(run[count] for run in window_runs))}
               for count in (1, 2)]
    first = [{"tab": opened["tab"], "shown_ms": round(statistics.median(run["first"][i]["shown_ms"]
                                                                           for run in tab_runs), 1),
              "loaded_ms": round(statistics.median(run["first"][i]["loaded_ms"] for run in tab_runs), 1)}
             for i, opened in enumerate(tab_runs[0]["first"])]
    switches = [row["switch_ms"] for row in curve if "switch_ms" in row]
    return {
        "pss_per_tab_mb": round(slope([(row["tabs"], row["pss_mb"]) for row in curve]), 1),
        "switch_ms": round(statistics.median(switches), 1),
        "floor_window_mb": windows[0]["pss_mb"],
        "pss_per_window_mb": round(windows[1]["pss_mb"] - windows[0]["pss_mb"], 1),
        "curve": curve, "windows": windows, "first_open": first,
        "runs": RUNS, "switches_per_point": SWITCHES,
    }
