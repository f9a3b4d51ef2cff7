"""The run's setting: the release build, the environment hosts start in (sandbox probe, one Xvfb for the whole
run), and one scratch folder for every temporary file (ours and our children's), removed at exit."""
import atexit
import os
import shutil
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Bench:
    """What every section needs: `root`, `bin_dir` (the release build), `env` (for hosts), the options, and
    `plugins_dir(*names)` (a fresh folder with copies of built plugins)."""

    def __init__(self, count=2000, starts=40, scratch_path=None):
        self.root, self.count, self.starts = ROOT, count, starts
        # Every temporary file and folder of the run, ours and its children's (strada-host's staging, strada-bench's
        # plugin copies, SwiftPM's locks), in one folder removed at exit: each run used to leave a dozen
        # strada-bench-* in /tmp.
        scratch_root = tempfile.mkdtemp(prefix="strada-bench-")
        atexit.register(shutil.rmtree, scratch_root, True)
        tempfile.tempdir = os.environ["TMPDIR"] = scratch_root
        os.chdir(ROOT)
        subprocess.run(["scripts/setup"], check=True)
        scratch = ["--scratch-path", scratch_path] if scratch_path else []
        subprocess.run(["swift", "build", "-c", "release"] + scratch, check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        self.bin_dir = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"] + scratch, check=True,
                                      capture_output=True, text=True).stdout.strip()
        self.host_binary = os.path.join(self.bin_dir, "strada-host")
        self.env = dict(os.environ, NO_AT_BRIDGE="1")
        probe = ["bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-all", "--share-net",
                 "true"]
        if subprocess.run(probe, capture_output=True).returncode != 0:
            self.env["WEBKIT_DISABLE_SANDBOX_THIS_IS_DANGEROUS"] = "1"
        self.xvfb = None
        if not (self.env.get("DISPLAY") or self.env.get("WAYLAND_DISPLAY")):
            self.env["DISPLAY"] = self._start_xvfb()

    def _start_xvfb(self):
        """One X server for every run, so start-up times do not include starting Xvfb. It never resets (-noreset):
        an X server resets when its last client leaves and drops every client still setting up its connection then.
        A host's web process keeps an X connection of its own until it has exited, after the host; a host started
        at once could connect in between and lose its connection ("cannot open a display", 2 starts in 110 under
        load). Xvfb picks a free display itself and names it once it accepts connections (-displayfd)."""
        ready, told = os.pipe()
        self.xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(told), "-screen", "0", "1280x800x24", "-nolisten",
                                      "tcp", "-noreset"], stderr=subprocess.DEVNULL, pass_fds=(told,))
        os.close(told)
        with os.fdopen(ready) as answer:
            number = answer.readline().strip()
        if not number:
            raise SystemExit("bench: Xvfb did not start; run `Xvfb -displayfd 1` to see why")
        return ":" + number

    def close(self):
        if self.xvfb:
            self.xvfb.terminate()

    def path(self, relative):
        return os.path.join(self.root, relative)

    def built(self, name):
        return os.path.join(self.bin_dir, name)

    def plugins_dir(self, *names):
        folder = tempfile.mkdtemp(prefix="strada-bench-")
        for name in names:
            shutil.copy(self.built(name), folder)
        return folder
