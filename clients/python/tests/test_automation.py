"""strada_testing.automation, the one Python client of the automation channel (scripts/bench, scripts/screenshots
and the demo drivers use it): HostProcess against the real strada-host with `--automation`."""
import os
import shutil

import pytest

from strada_testing.automation import AutomationError, HostProcess

REPOSITORY = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


@pytest.fixture
def host(plugins):
    binary = os.environ.get("STRADA_HOST") or shutil.which("strada-host")
    if not binary:
        pytest.fail("set STRADA_HOST to the strada-host binary (scripts/test-clients does)")
    page = os.path.join(REPOSITORY, "Examples", "form-demo", "index.html")
    arguments = ["--plugins", plugins[0], "--automation", "--ephemeral"]
    started = HostProcess([binary, "run", page] + arguments, stderr=open(os.devnull, "w"))
    yield started
    if started.process.poll() is None:
        started.kill()


def test_events_arrive_in_order_and_a_command_is_answered(host):
    ready = host.wait_for("host.ready", timeout=60)
    assert "form" in ready["components"]
    button = host.wait_for("control.added", control=lambda c: c["id"] == "form.submit")
    assert host.events.index(button) > host.events.index(ready)
    assert host.arrival(button) >= host.arrival(ready) >= host.started

    assert host.command("activate", control="form.submit")["command"] == "activate"
    host.wait_for("page.title", title="Submitted: Ada Lovelace")
    assert host.quit() == 0
    assert host.closed


def test_a_refused_command_raises_with_the_hosts_reason(host):
    host.wait_for("control.added", timeout=60)
    with pytest.raises(AutomationError, match="activate: .*no-such-control"):
        host.command("activate", control="no-such-control")
    mark = host.mark
    with pytest.raises(AutomationError, match="timed out waiting for toast"):
        host.wait_for("toast", after=mark, timeout=0.5)
    host.quit()


def test_waiting_ends_when_the_host_goes_away(host):
    host.wait_for("host.ready", timeout=60)
    host.send(command="quit")
    with pytest.raises(AutomationError, match="went away"):
        host.wait_for("toast", timeout=30)
    assert list(host.follow(after=host.mark)) == []
