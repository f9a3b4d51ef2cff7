"""The host's peak RSS on a plain page and on a hostile one (floods, a 64 MiB string, deep nesting, bad JSON):
rejected input must not be buffered whole. Target: hostile ≤ plain + 64 MB. The hostile page's own allocations
(the 64 MiB string it builds, its 100,000 message objects) are not the bridge's: a control page
(Benchmarks/web/hostile-control.html) makes the same ones and sends nothing, and hostile − control is what the
bridge adds. Both figures are reported; the raw row keeps the target as written."""
import os
import time

from ..host import Host
from ..procfs import descendants, peak_rss_kib, pss_kib

TITLE = "peak memory on a plain page, a hostile page and its control"


def measure(bench):
    plain_rss, hostile_rss, plain_pss, hostile_pss, control_pss = [], [], [], [], []

    def still_here(event):
        return event["control"].get("title") == "Still here"

    for _ in range(3):
        host = Host(bench, "file://" + os.path.join(bench.root, "Examples/form-demo/index.html"),
                    bench.plugins_dir("libStradaFormPlugin.so"), sample_pss=True)
        host.wait("control.added")
        time.sleep(1.5)
        plain_rss.append(peak_rss_kib(host.process.pid))
        plain_pss.append(max(host.peak_pss, pss_kib(descendants(host.process.pid))))
        host.quit()
        host = Host(bench, "file://" + bench.path("Tests/EndToEndTests/Fixtures/hostile-messages.html"),
                    bench.plugins_dir("libStradaFormPlugin.so"), "--automation-events", "page,control",
                    sample_pss=True)
        host.wait("control.added", still_here)
        hostile_rss.append(peak_rss_kib(host.process.pid))
        hostile_pss.append(max(host.peak_pss, pss_kib(descendants(host.process.pid))))
        host.quit()
        host = Host(bench, "file://" + bench.path("Benchmarks/web/hostile-control.html"),
                    bench.plugins_dir("libStradaFormPlugin.so"), "--automation-events", "page,control",
                    sample_pss=True)
        host.wait("control.added", still_here)
        control_pss.append(max(host.peak_pss, pss_kib(descendants(host.process.pid))))
        host.quit()
    return {
        "host_peak_rss_mb": {"plain": round(max(plain_rss) / 1024, 1), "hostile": round(max(hostile_rss) / 1024, 1)},
        "peak_pss_pages_mb": {"plain": round(max(plain_pss) / 1024, 1), "hostile": round(max(hostile_pss) / 1024, 1),
                              "hostile_control": round(max(control_pss) / 1024, 1)},
    }
