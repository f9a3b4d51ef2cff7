#!/usr/bin/env python3
"""Runs the demo app (Examples/demo/server.py with the real Turbo) in strada-host. With a display, opens the
window on the app's index. The app's path configuration comes from its server (/configurations/linux.json, cached
for the next start): /posts/new is a modal, /settings a native screen. Without a display, drives the posts flow
headless through the automation channel and narrates: index → New post (a modal) → Save (303 → the post: the
modal is dismissed and the post pushed on the main stack) → Back."""
import os, subprocess, sys, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "clients", "python"))
from strada_testing.automation import AutomationError, HostProcess  # noqa: E402 (the repository's own client)


def narrate(app, event, steps, base):
    """Prints what `event` says (URLs relative to `base`) and sends the step it calls for (each once)."""
    kind = event["event"]
    if kind.startswith("screen."):
        print("%s %s (%s stack, depth %d, %s)" % (kind, event["url"].replace(base, "/"), event["stack"],
                                                  event["depth"], event["action"]))
        key = (kind, event["depth"]) if event["stack"] == "main" else None
    elif kind.startswith("modal."):
        print("%s %s" % (kind, event.get("url", "").replace(base, "/") or event.get("reason")))
        key = None
    elif kind in ("control.added", "control.removed"):
        control = event.get("control") or {}
        print("  %s %s" % (kind, "%s '%s'" % (control["id"], control["title"]) if control else event.get("id")))
        key = (kind, control.get("id"))
    else:
        key = None
    if key in steps:
        command, text = steps.pop(key)
        time.sleep(0.5)
        if text:
            print(text)
        app.send(**command)


host, plugins, turbo = sys.argv[1:4]
here = os.path.dirname(os.path.abspath(__file__))
server = subprocess.Popen([sys.executable, os.path.join(here, "..", "Examples", "demo", "server.py"), "--port", "0",
                           "--turbo", turbo], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
base = server.stdout.readline().split()[-1]
try:
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        print("demo app at %s (Turbo on): open posts for screens and Back" % base)
        sys.exit(subprocess.call([host, "run", base, "--plugins", plugins,
                                  "--path-configuration", base + "configurations/linux.json"]))
    print("demo: no display — running the posts flow headless", file=sys.stderr)
    app = HostProcess(["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", host, "run", base + "posts",
                       "--plugins", plugins, "--path-configuration", base + "configurations/linux.json",
                       "--automation", "--automation-events", "screen,control,modal"])
    # What to do when: (event, control id or depth) → (command, narration).
    steps = {("control.added", "button.button-right"): ({"command": "activate", "control": "button.button-right"},
                                                         "pressing the native 'New post' button"),
             ("control.added", "form.submit"): ({"command": "activate", "control": "form.submit"},
                                                "pressing the native 'Save' button"),
             ("screen.pushed", 2): ({"command": "back"}, "pressing Back"),
             ("screen.popped", 1): ({"command": "quit"}, None)}
    try:
        for event in app.follow(timeout=90):
            narrate(app, event, steps, base)
    except AutomationError:
        app.kill()
        sys.exit("demo: timed out")
    sys.exit(app.process.wait())
finally:
    server.terminate()

