"""results/benchmarks.json: the figures of the sections measured, those of the last run for the others, and the
run's machine, engine and date."""
import datetime
import json
import os
import platform
import subprocess

PATH = "results/benchmarks.json"
RUN_KEYS = ("date", "machine", "engine", "build", "load_average")


def previous():
    """The last run's figures (without its machine, engine and date), or nothing."""
    if not os.path.exists(PATH):
        return {}
    with open(PATH) as file:
        return {key: value for key, value in json.load(file).items() if key not in RUN_KEYS}


def load():
    with open(PATH) as file:
        return json.load(file)


def engine_version():
    return subprocess.run(["pkg-config", "--modversion", "webkitgtk-6.0"], capture_output=True,
                          text=True).stdout.strip() or "unknown"


def cpu_name():
    try:
        with open("/proc/cpuinfo") as file:
            return next(line.split(":", 1)[1].strip() for line in file if line.startswith("model name"))
    except (OSError, StopIteration):
        return "unknown"


def load_average():
    """The machine's 1-minute load average now (other builds and runs share it)."""
    with open("/proc/loadavg") as file:
        return float(file.read().split()[0])


def yardstick(host_binary, runs=7):
    """How fast this machine is now, for comparing absolute figures across runs: the median CPU time (user + system,
    ms) of `strada-host --help`, nearly all of it the dynamic loader mapping the engine's libraries. The same build
    took 67 ms of CPU on 2026-11-24 and 100-120 ms on 2026-11-26 (the VM ran ×1.6 slower): start-up, hot reload and
    other absolute times move with it, ratios against a floor measured in the same run do not."""
    times = []
    for _ in range(runs):
        child = subprocess.Popen([host_binary, "--help"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, _, usage = os.wait4(child.pid, 0)
        times.append((usage.ru_utime + usage.ru_stime) * 1000)
    return round(sorted(times)[len(times) // 2], 1)


def write(figures, load=None, yardstick_ms=None):
    """Writes `figures` with this run's date, machine (with its `yardstick_ms`, see ``yardstick``), engine and
    `load` (the load average before and after it); returns what was written."""
    machine = {"cpu": cpu_name(), "cores": os.cpu_count(), "kernel": platform.release()}
    if yardstick_ms is not None:
        machine["yardstick_cpu_ms"] = yardstick_ms
    results = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "machine": machine,
        "engine": f"WebKitGTK {engine_version()}", "build": "release",
        **({"load_average": load} if load else {}), **figures,
    }
    os.makedirs("results", exist_ok=True)
    with open(PATH, "w") as out:
        json.dump(results, out, indent=2)
    return results
