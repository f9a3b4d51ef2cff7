"""pytest: the `strada` fixture (a StradaHost per test) and failure artefacts.

    def test_save(strada):
        strada.driver.get(...)
        strada.native.press("Save")

Options (or environment): --strada-plugins DIR (STRADA_PLUGINS), --strada-allow ORIGIN (STRADA_ALLOW),
--strada-arg ARG, repeatable, for any other `strada-host run` option (STRADA_ARGS, split as a shell would:
"--path-configuration config/path.json"), --strada-artifacts DIR (STRADA_ARTIFACTS, default
"strada-artifacts"). A failing test leaves
<artifacts>/<test name>/ with screenshot.png (the whole window), traffic.jsonl, events.jsonl and host.log.
"""
import os
import re
import shlex

import pytest

from . import StradaHost


def pytest_addoption(parser):
    group = parser.getgroup("strada")
    group.addoption("--strada-plugins", action="append", default=None, help="a plugins folder for strada-host")
    group.addoption("--strada-allow", action="append", default=None, help="an origin that gets the bridge")
    group.addoption("--strada-arg", action="append", default=None,
                    help="another strada-host run option, e.g. --strada-arg=--path-configuration=config/path.json")
    group.addoption("--strada-artifacts", default=None, help="where failing tests leave their artefacts")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, "strada_report_" + report.when, report)


@pytest.fixture
def strada(request):
    config = request.config
    plugins = config.getoption("--strada-plugins") or [p for p in os.environ.get("STRADA_PLUGINS", "").split(":") if p]
    allow = config.getoption("--strada-allow") or [o for o in os.environ.get("STRADA_ALLOW", "").split() if o]
    args = config.getoption("--strada-arg") or shlex.split(os.environ.get("STRADA_ARGS", ""))
    host = StradaHost(plugins=plugins, allow=allow, args=args)
    yield host
    report = getattr(request.node, "strada_report_call", None)
    if report is not None and report.failed:
        root = config.getoption("--strada-artifacts") or os.environ.get("STRADA_ARTIFACTS", "strada-artifacts")
        folder = host.save_artifacts(os.path.join(root, re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.name)))
        print("strada: artefacts of %s in %s" % (request.node.name, folder))
    host.quit()
