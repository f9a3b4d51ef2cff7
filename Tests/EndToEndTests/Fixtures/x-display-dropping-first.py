#!/usr/bin/env python3
"""An X display whose first connection is dropped: what a client sees when it connects just as an X server resets
(the server ends every client still setting up then). Starts its own Xvfb, listens on a free display's socket
(/tmp/.X11-unix/X<n>, with its lock file), closes the first connection at once and relays every later one to the
Xvfb. Prints `DISPLAY=:<n>` when ready; runs until SIGTERM, or until its parent is gone, then cleans up."""
import os, signal, socket, subprocess, sys, threading, time

# A test runner's thread may have blocked signals; unblocked before Xvfb starts, which would inherit the mask.
signal.pthread_sigmask(signal.SIG_SETMASK, [])
parent = os.getppid()
ready, told = os.pipe()
xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(told), "-screen", "0", "1280x800x24", "-nolisten", "tcp",
                         "-noreset"], stdin=subprocess.DEVNULL, stderr=subprocess.DEVNULL, pass_fds=(told,))
os.close(told)
with os.fdopen(ready) as answer:
    real = answer.readline().strip()
if not real:
    sys.exit("x-display-dropping-first: Xvfb did not start")
target = f"/tmp/.X11-unix/X{real}"

# A display number nobody uses: no lock file and no socket; the lock file (made exclusively) reserves it.
number = 500
while True:
    lock = f"/tmp/.X{number}-lock"
    path = f"/tmp/.X11-unix/X{number}"
    if not os.path.exists(path):
        try:
            fd = os.open(lock, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o444)
            os.write(fd, b"%10d\n" % os.getpid())
            os.close(fd)
            break
        except FileExistsError:
            pass
    number += 1
listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
listener.bind(path)
os.chmod(path, 0o777)
listener.listen(64)


def clean_up(*_):
    for leftover in (path, lock):
        try:
            os.unlink(leftover)
        except OSError:
            pass
    xvfb.terminate()
    try:
        xvfb.wait(timeout=3)
    except subprocess.TimeoutExpired:
        xvfb.kill()
    os._exit(0)


signal.signal(signal.SIGTERM, clean_up)


def watch_parent():
    while os.getppid() == parent:
        time.sleep(0.2)
    clean_up()


def pump(source, sink):
    try:
        while data := source.recv(65536):
            sink.sendall(data)
    except OSError:
        pass
    for end in (source, sink):
        try:
            end.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


threading.Thread(target=watch_parent, daemon=True).start()
print(f"DISPLAY=:{number}", flush=True)
first = True
while True:
    client, _ = listener.accept()
    if first:
        first = False
        client.close()
        continue
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.connect(target)
    threading.Thread(target=pump, args=(client, server), daemon=True).start()
    threading.Thread(target=pump, args=(server, client), daemon=True).start()
