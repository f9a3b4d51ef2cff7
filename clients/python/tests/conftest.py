import os
import subprocess
import sys

import pytest

REPOSITORY = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


@pytest.fixture(scope="session")
def demo():
    """The repository's demo app (Examples/demo/server.py) on a free port: its base URL."""
    server = subprocess.Popen([sys.executable, os.path.join(REPOSITORY, "Examples", "demo", "server.py"), "--port", "0"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    base = server.stdout.readline().split()[-1]
    yield base
    server.terminate()
    server.wait()


@pytest.fixture
def plugins():
    folder = os.environ.get("STRADA_PLUGINS")
    if not folder:
        pytest.fail("set STRADA_PLUGINS to a folder with the demo's plugins (scripts/test-clients does)")
    return folder.split(":")
