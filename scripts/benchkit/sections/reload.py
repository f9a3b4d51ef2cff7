"""Hot reload: from a rebuilt plugin renamed into place to the new code answering (its control back), and the part
of it in the registry (plugin.reloaded's milliseconds: stage the copy, probe it in a child, dlopen). The first
rebuild comes a second after start, as a developer's would (the spare probe child is started half a second after
the watcher)."""
import os
import shutil
import statistics
import subprocess
import tempfile
import time

from ..host import Host

TITLE = "hot reload: a rebuilt plugin renamed in to its new control shown"


def measure(bench):
    source = ""
    for name in ["plugin-support.c", "hot-plugin.c"]:  # the shared part first, as the tests compile it
        with open(bench.path("Tests/EndToEndTests/Fixtures/" + name)) as file:
            source += file.read()
    plugins = bench.plugins_dir()
    work = tempfile.mkdtemp(prefix="strada-bench-hot-")
    builds = {}
    for version in ["v1", "v2"]:
        path = os.path.join(work, f"{version}.c")
        with open(path, "w") as out:
            out.write(f'#define VERSION "{version}"\n' + source)
        builds[version] = os.path.join(work, f"lib{version}.so")
        subprocess.run(["cc", "-std=c11", "-shared", "-fPIC", "-I", "SDK/CStradaPlugin/include", path, "-o",
                        builds[version]], check=True)
    shutil.copy(builds["v1"], os.path.join(plugins, "libhot.so"))
    host = Host(bench, "file://" + bench.path("Tests/EndToEndTests/Fixtures/hot.html"), plugins, "--watch")
    host.wait("control.added", lambda e: e["control"]["title"] == "v1")
    time.sleep(1.0)
    reloads, in_registry = [], []
    for i in range(10):
        version = "v2" if i % 2 == 0 else "v1"
        staged = os.path.join(plugins, ".libhot.so.new")
        shutil.copy(builds[version], staged)
        mark = host.mark
        t0 = time.monotonic()
        os.rename(staged, os.path.join(plugins, "libhot.so"))
        event = host.wait("control.added", lambda e, v=version: e["control"]["title"] == v, after=mark)
        reloads.append((host.at(event) - t0) * 1000)
        in_registry.append(host.wait("plugin.reloaded", after=mark)["milliseconds"])
        time.sleep(0.3)
    host.quit()
    return {"hot_reload_ms": {"median": round(statistics.median(reloads), 1), "runs": [round(x, 1) for x in reloads],
                              "registry_median": round(statistics.median(in_registry), 1)}}
