"""Hot reload: from a rebuilt plugin renamed into place to the new code answering (its control back), and the part
of it in the registry (plugin.reloaded's milliseconds: stage the copy, probe it in a child, dlopen). The first
rebuild comes a second after start, as a developer's would (the spare probe child is started half a second after
the watcher). `hot_reloads` does the same for a host started with other flags (`--isolate`, `--sandbox`: the
isolate section)."""
import os
import shutil
import statistics
import subprocess
import tempfile
import time

from ..host import Host

TITLE = "hot reload: a rebuilt plugin renamed in to its new control shown"


def builds(bench):
    """The hot plugin built twice (v1, v2) into a new folder: {version: library}."""
    source = ""
    for name in ["plugin-support.c", "hot-plugin.c"]:  # the shared part first, as the tests compile it
        with open(bench.path("Tests/EndToEndTests/Fixtures/" + name)) as file:
            source += file.read()
    work = tempfile.mkdtemp(prefix="strada-bench-hot-")
    result = {}
    for version in ["v1", "v2"]:
        path = os.path.join(work, f"{version}.c")
        with open(path, "w") as out:
            out.write(f'#define VERSION "{version}"\n' + source)
        result[version] = os.path.join(work, f"lib{version}.so")
        subprocess.run(["cc", "-std=c11", "-shared", "-fPIC", "-I", "SDK/CStradaPlugin/include", path, "-o",
                        result[version]], check=True)
    return result


def hot_reloads(bench, flags=(), count=10, starts=1, built=None):
    """`count` hot reloads in a host started with `--watch` and `flags`, after `starts` starts (the last one kept)
    each timed from the process start to the adapter's ready (bridge.ready): reload and start medians, the
    reloads' runs, and the registry's part of each reload (plugin.reloaded's milliseconds: for a worker, from
    the staged copy to its new worker serving)."""
    built = built or builds(bench)
    plugins = bench.plugins_dir()
    shutil.copy(built["v1"], os.path.join(plugins, "libhot.so"))
    ready = []
    for index in range(starts):
        host = Host(bench, "file://" + bench.path("Tests/EndToEndTests/Fixtures/hot.html"), plugins, "--watch",
                    *flags)
        ready.append((host.at(host.wait("bridge.ready")) - host.started) * 1000)
        host.wait("control.added", lambda e: e["control"]["title"] == "v1")
        if index < starts - 1:
            host.quit()
    time.sleep(1.0)
    reloads, in_registry = [], []
    for i in range(count):
        version = "v2" if i % 2 == 0 else "v1"
        staged = os.path.join(plugins, ".libhot.so.new")
        shutil.copy(built[version], staged)
        mark = host.mark
        t0 = time.monotonic()
        os.rename(staged, os.path.join(plugins, "libhot.so"))
        event = host.wait("control.added", lambda e, v=version: e["control"]["title"] == v, after=mark)
        reloads.append((host.at(event) - t0) * 1000)
        in_registry.append(host.wait("plugin.reloaded", after=mark)["milliseconds"])
        time.sleep(0.3)
    host.quit()
    return {"median": round(statistics.median(reloads), 1), "runs": [round(x, 1) for x in reloads],
            "registry_median": round(statistics.median(in_registry), 1),
            "ready_median": round(statistics.median(ready), 1)}


def measure(bench):
    figures = hot_reloads(bench)
    del figures["ready_median"]  # one start: the start-up section measures start-up
    return {"hot_reload_ms": figures}
