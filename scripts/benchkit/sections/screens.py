"""Screens, with the real Turbo (the demo app's posts; each visit a distinct URL of the same page):
- push: the automation command `visit` → the navigator's screen.pushed (Turbo proposed it, the navigator pushed) →
  visit.completed (Turbo rendered it, after a repaint: the screen is shown), at each depth 2 … 50;
- pop: `back` → screen.popped → the restored page shown (visit.completed of Turbo's restore), 50 … 2;
- a Turbo visit (the posts' "New post" button: visit.proposed → visit.completed of /posts/new) against the same page
  loaded by plain WebKit (`navigate`: a full load at the root of a new stack, command → page.finished),
  alternating, 7 of each."""
import statistics
import time

from ..demo import demo_server
from ..host import Host

TITLE = "screen push and pop against stack depth, a Turbo visit against a plain load (the real Turbo)"


def measure(bench):
    with demo_server() as base:
        host = Host(bench, base + "posts", bench.plugins_dir("libStradaButtonPlugin.so", "libStradaFormPlugin.so"),
                    "--automation-events", "screen,visit,turbo,page,control")
        host.wait("turbo.ready")
        time.sleep(0.5)
        pushes, pops = push_and_pop(host, base)
        visits, visits_command, loads = visit_against_load(host, base)
        host.quit()

    def around(rows, depth, key):
        return round(statistics.median(row[key] for row in rows if abs(row["depth"] - depth) <= 2), 1)

    return {"screens": {
        "by_depth": [{"depth": d, "push_ms": around(pushes, d, "pushed_ms"),
                      "push_shown_ms": around(pushes, d, "shown_ms"), "pop_ms": around(pops, d, "popped_ms"),
                      "pop_shown_ms": around(pops, d, "shown_ms")} for d in [2, 5, 10, 20, 30, 40, 50]],
        "pushes": pushes, "pops": pops,
        "turbo_visit_ms": round(statistics.median(visits), 1),
        "turbo_visit_command_ms": round(statistics.median(visits_command), 1),
        "plain_load_ms": round(statistics.median(loads), 1), "turbo_visit_runs": visits, "plain_load_runs": loads}}


def since(host, t0, event):
    return round((host.at(event) - t0) * 1000, 1)


def push_and_pop(host, base):
    pushes, pops = [], []
    for depth in range(2, 51):
        t0 = time.monotonic()
        mark = host.send(command="visit", url=f"{base}posts?screen={depth}")
        pushed = host.wait("screen.pushed", lambda e, d=depth: e.get("depth") == d, after=mark)
        shown = host.wait("visit.completed", lambda e, d=depth: e["url"].endswith(f"screen={d}"), after=mark)
        pushes.append({"depth": depth, "pushed_ms": since(host, t0, pushed), "shown_ms": since(host, t0, shown)})
    for depth in range(49, 0, -1):
        t0 = time.monotonic()
        mark = host.send(command="back")
        popped = host.wait("screen.popped", lambda e, d=depth: e.get("depth") == d, after=mark)
        target = f"screen={depth}" if depth > 1 else "posts"
        shown = host.wait("visit.completed", lambda e, t=target: e["url"].endswith(t), after=mark)
        pops.append({"depth": depth + 1, "popped_ms": since(host, t0, popped), "shown_ms": since(host, t0, shown)})
    return pushes, pops


def visit_against_load(host, base):
    visits, visits_command, loads = [], [], []
    for _ in range(7):
        mark = host.send(command="navigate", url=f"{base}posts")
        host.wait("turbo.ready", after=mark)
        host.wait("control.added", lambda e: e["control"]["id"] == "button.button-right", after=mark)
        time.sleep(0.3)
        t0 = time.monotonic()
        mark = host.send(command="activate", control="button.button-right")
        proposed = host.wait("visit.proposed", lambda e: e["url"].endswith("/posts/new"), after=mark)
        shown = host.wait("visit.completed", lambda e: e["url"].endswith("/posts/new"), after=mark)
        visits.append(round((host.at(shown) - host.at(proposed)) * 1000, 1))
        visits_command.append(since(host, t0, shown))
        time.sleep(0.3)
        t0 = time.monotonic()
        mark = host.send(command="navigate", url=f"{base}posts/new")
        loads.append(since(host, t0, host.wait("page.finished", lambda e: e["url"].endswith("/posts/new"),
                                               after=mark)))
    return visits, visits_command, loads
