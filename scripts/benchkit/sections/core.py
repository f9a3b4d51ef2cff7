"""Engine-free: core dispatch, the C-ABI crossing, plugin loading (strada-bench), and instructions per message
under callgrind when valgrind is there."""
import json
import os
import shutil
import statistics
import subprocess
import tempfile

TITLE = "core dispatch, the C-ABI crossing and plugin loading, without the engine"


def strada_bench(bench, *arguments, env=None):
    return subprocess.run([bench.built("strada-bench"), bench.built("libStradaEchoPlugin.so"),
                           bench.built("libStradaFormPlugin.so"), *arguments], check=True, capture_output=True,
                          text=True, env=env).stdout


def measure(bench):
    # Five runs (a busy machine slows some of them), medians of the per-message times.
    runs = [json.loads(strada_bench(bench, "200000")) for _ in range(5)]
    core = runs[-1]
    for key in ("core_dispatch_us", "through_plugin_us", "abi_crossing_us"):
        core[key] = statistics.median(run[key] for run in runs)
    core["core_dispatch_us_runs"] = [round(run["core_dispatch_us"], 3) for run in runs]
    if shutil.which("valgrind"):
        folder = tempfile.mkdtemp(prefix="strada-bench-cg-")
        files = [without_debug_info(bench.built(name), folder)
                 for name in ("strada-bench", "libStradaEchoPlugin.so", "libStradaFormPlugin.so")]
        low, high = instructions(files, 5000), instructions(files, 25000)
        if low and high:
            core["core_dispatch_instructions"] = round((high - low) / 20000)
        # The same through the echo plugin: host + C ABI + the plugin's SDK + the reply back.
        low, high = instructions(files, 5000, "plugin"), instructions(files, 25000, "plugin")
        if low and high:
            core["through_plugin_instructions"] = round((high - low) / 20000)
    return {"core": core}


def instructions(files, messages, only="core"):
    """`files`: strada-bench and its two plugins (``without_debug_info`` copies, made once). Instructions per message (stable on a noisy machine): two runs of the in-process dispatch under callgrind,
    the difference divided by the difference in messages (start-up and warm-up cancel out). Only what runs inside
    Bridge.receive(json:) is counted (parse + route + component + reply encoding and delivery): the benchmark's
    own building of its input texts is not the bridge's cost."""
    out = os.path.join(tempfile.mkdtemp(prefix="strada-bench-cg-"), "callgrind.out")
    run = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                          "--toggle-collect=$s10StradaCore6BridgeC7receive4jsonySS_tF", *files, str(messages)],
                         env=dict(os.environ, STRADA_BENCH_ONLY=only), capture_output=True, text=True)
    total = [line for line in run.stderr.splitlines() if "Collected :" in line]
    if not total:
        print(f"bench: callgrind counted nothing ({(run.stderr.strip().splitlines() or ['no output'])[-1]})")
    return int(total[-1].split(":")[-1].strip()) if total else None


def without_debug_info(path, folder):
    """A copy of `path` in `folder` with its DWARF removed and its symbols kept (what --toggle-collect needs):
    valgrind 3.19 gives up on some release builds' debug info ("Possibly corrupted debuginfo file", seen
    2026-11-26 with Swift 6.3.1) and then counts nothing. Instructions are the same either way."""
    copy = os.path.join(folder, os.path.basename(path))
    if shutil.which("objcopy") and subprocess.run(["objcopy", "--strip-debug", path, copy]).returncode == 0:
        return copy
    return path
