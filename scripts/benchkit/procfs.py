"""What /proc says about a process tree: its members, their proportional set size, a process's peak RSS."""
import os


def descendants(pid):
    """`pid` and every process below it."""
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
                children.setdefault(ppid, []).append(int(entry))
            except (OSError, IndexError, ValueError):
                pass
    found, stack = [], [pid]
    while stack:
        current = stack.pop()
        found.append(current)
        stack.extend(children.get(current, []))
    return found


def pss_kib(pids):
    """The summed PSS of `pids`, in KiB (processes already gone count nothing)."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/smaps_rollup") as f:
                for line in f:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1])
        except OSError:
            pass
    return total


def peak_rss_kib(pid):
    """The process's own peak resident set (VmHWM)."""
    with open(f"/proc/{pid}/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmHWM:"))


def cpu_ms(pid, thread=None):
    """CPU time the process's threads (or only `thread`) have run, in ms (the scheduler's nanosecond count in
    /proc/PID/task/TID/schedstat, not the 10 ms ticks of /proc/PID/stat); 0 for a process already gone."""
    total = 0
    try:
        threads = [str(thread)] if thread else os.listdir(f"/proc/{pid}/task")
    except OSError:
        return 0.0
    for tid in threads:
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                total += int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            pass
    return total / 1e6
