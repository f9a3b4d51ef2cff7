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


def write(figures, load=None):
    """Writes `figures` with this run's date, machine, engine and `load` (the load average before and after it);
    returns what was written."""
    results = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "machine": {"cpu": cpu_name(), "cores": os.cpu_count(), "kernel": platform.release()},
        "engine": f"WebKitGTK {engine_version()}", "build": "release",
        **({"load_average": load} if load else {}), **figures,
    }
    os.makedirs("results", exist_ok=True)
    with open(PATH, "w") as out:
        json.dump(results, out, indent=2)
    return results
