"""The demo app's server (Examples/demo/server.py) with the real Turbo, for the sections that measure Turbo pages."""
import contextlib
import subprocess
import sys


@contextlib.contextmanager
def demo_server():
    """Runs the demo's server on a free port with the Turbo scripts/fetch-turbo brings; yields its base URL."""
    turbo = subprocess.run(["scripts/fetch-turbo"], check=True, capture_output=True, text=True).stdout.strip()
    server = subprocess.Popen([sys.executable, "Examples/demo/server.py", "--port", "0", "--turbo", turbo],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        yield server.stdout.readline().strip().split()[-1]
    finally:
        server.terminate()
        server.wait()
