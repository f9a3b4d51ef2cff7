#!/usr/bin/env python3
"""Drives the headless demo through strada-host's automation channel and narrates what happens."""
import json, subprocess, sys, time

host, page, plugins = sys.argv[1:4]
proc = subprocess.Popen(["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", host, "run", page, "--plugins", plugins, "--automation"],
                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

def send(command):
    proc.stdin.write(json.dumps(command) + "\n")
    proc.stdin.flush()

deadline = time.time() + 60
pressed = False
for line in proc.stdout:
    event = json.loads(line)
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
    elif kind == "page.finished" and not pressed:
        pressed = True
        print("pressing the native header-bar button 'form.submit'")
        send({"command": "activate", "control": "form.submit"})
    elif kind == "page.title" and event["title"].startswith("Submitted"):
        print(f"the form was submitted; the next page says: {event['title']}")
        send({"command": "quit"})
    elif kind == "host.exit":
        print(f"host exited: {event['reason']}")
    if time.time() > deadline:
        proc.kill()
        sys.exit("demo: timed out")
sys.exit(proc.wait())
