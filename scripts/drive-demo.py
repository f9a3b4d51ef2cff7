#!/usr/bin/env python3
"""Drives the headless demo through strada-host's automation channel and narrates what happens."""
import json, os, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "clients", "python"))
from strada_testing.automation import AutomationError, HostProcess  # noqa: E402 (the repository's own client)

host_binary, page, plugins = sys.argv[1:4]
host = HostProcess(["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", host_binary, "run", page, "--plugins", plugins,
                    "--automation"])
pressed = False
try:
    for event in host.follow(timeout=60):
        kind = event["event"]
        if kind == "host.ready":
            print(f"host ready: components {event['components']}")
        elif kind == "bridge.received":
            m = event["message"]
            print(f"web → native  {m['component']}/{m['event']} #{m['id']} {json.dumps(m['data'])}")
        elif kind == "bridge.sent":
            m = event["message"]
            print(f"native → web  {m['component']}/{m['event']} #{m['id']} (reply)")
        elif kind in ("control.added", "control.changed"):
            c = event["control"]
            print(f"native control {kind.split('.')[1]}: {c['kind']} '{c['title']}' id={c['id']} enabled={c['enabled']}")
            # Once the page's form component has put its button up, enabled (page.finished can come before it).
            if c["id"] == "form.submit" and c["enabled"] and not pressed:
                pressed = True
                print("pressing the native header-bar button 'form.submit'")
                host.send(command="activate", control="form.submit")
        elif kind == "page.title" and event["title"].startswith("Submitted"):
            print(f"the form was submitted; the next page says: {event['title']}")
            host.send(command="quit")
        elif kind == "host.exit":
            print(f"host exited: {event['reason']}")
except AutomationError:
    host.kill()
    sys.exit("demo: timed out")
sys.exit(host.process.wait())
