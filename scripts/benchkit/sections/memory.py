"""The host's peak RSS on a plain page and on a hostile one (floods, a 64 MiB string, deep nesting, bad JSON):
rejected input must not be buffered whole. Target: hostile ≤ plain + 64 MB. The hostile page's own allocations
(the 64 MiB string it builds, its 100,000 message objects) are not the bridge's: a control page
(Benchmarks/web/hostile-control.html) makes the same ones and sends nothing, and hostile − control is what the
bridge adds. Both figures are reported; the raw row keeps the target as written."""
import time

from ..host import Host
from ..procfs import descendants, peak_rss_kib, pss_kib

TITLE = "peak memory on a plain page, a hostile page and its control"


def measure(bench):
    plain_rss, hostile_rss, plain_pss, hostile_pss, control_pss = [], [], [], [], []

    def still_here(event):
        return event["control"].get("title") == "Still here"

    def peaks(page, *arguments, until=None):
        """One run of the host on `page` until its control shows: its peak RSS and the pages' peak PSS (KiB)."""
        host = Host(bench, "file://" + bench.path(page), bench.plugins_dir("libStradaFormPlugin.so"), *arguments,
                    sample_pss=True)
        if until:
            host.wait("control.added", until)
        else:
            host.wait("control.added")
            time.sleep(1.5)
        rss, pss = peak_rss_kib(host.process.pid), max(host.peak_pss, pss_kib(descendants(host.process.pid)))
        host.quit()
        return rss, pss

    events = ("--automation-events", "page,control")
    for _ in range(3):
        rss, pss = peaks("Examples/form-demo/index.html")
        plain_rss.append(rss)
        plain_pss.append(pss)
        rss, pss = peaks("Tests/EndToEndTests/Fixtures/hostile-messages.html", *events, until=still_here)
        hostile_rss.append(rss)
        hostile_pss.append(pss)
        control_pss.append(peaks("Benchmarks/web/hostile-control.html", *events, until=still_here)[1])
    return {
        "host_peak_rss_mb": {"plain": round(max(plain_rss) / 1024, 1), "hostile": round(max(hostile_rss) / 1024, 1)},
        "peak_pss_pages_mb": {"plain": round(max(plain_pss) / 1024, 1), "hostile": round(max(hostile_pss) / 1024, 1),
                              "hostile_control": round(max(control_pss) / 1024, 1)},
    }
