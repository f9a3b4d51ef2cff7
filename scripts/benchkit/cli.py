"""The command line of scripts/bench (argparse): `measure` (the default) runs sections and writes every output,
`report` writes the Markdown and the figures again from results/benchmarks.json, `list` names the sections."""
import argparse
import os
import sys

from . import markdown, plots, results
from .environment import ROOT, Bench
from .sections import SECTIONS

DESCRIPTION = """Benchmarks: writes results/benchmarks.json, results/BENCHMARKS.md and the figures (results/*.png).
Every engine figure is measured against the engine's own floor in the same run (a bare script-message echo with no
bridge), because these machines are noisy. Builds in release mode first."""


def parser():
    top = argparse.ArgumentParser(prog="scripts/bench", description=DESCRIPTION,
                                  epilog="`scripts/bench` alone measures every section; `scripts/bench scale` is "
                                         "`scripts/bench measure scale`.")
    commands = top.add_subparsers(dest="command", metavar="{measure,report,list}")
    measure = commands.add_parser("measure", help="run sections (all when none is named) and write the results",
                                  description="Runs the sections named (every one when none is), in the order of "
                                              "`list`; the figures of the others are kept from the last "
                                              "results/benchmarks.json.")
    measure.add_argument("sections", nargs="*", metavar="SECTION", help="one of: " + ", ".join(SECTIONS))
    measure.add_argument("--only", type=lambda text: [name for name in text.split(",") if name], default=[],
                         metavar="A,B", help="the same as naming the sections")
    measure.add_argument("--count", type=int, default=2000, help="sequential round trips (roundtrip; default 2000)")
    measure.add_argument("--starts", type=int, default=40, help="starts under load (stress; default 40)")
    measure.add_argument("--scratch-path", metavar="DIR", help="SwiftPM's build folder for the release build")
    commands.add_parser("report", help="write results/BENCHMARKS.md and the figures from results/benchmarks.json")
    commands.add_parser("list", help="the sections and what each measures")
    return top


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    # The old spellings: `scripts/bench`, `scripts/bench scale screens`, `scripts/bench --only core`.
    if not argv or argv[0] in SECTIONS or (argv[0].startswith("--") and argv[0] not in ("-h", "--help")):
        argv.insert(0, "measure")
    arguments = parser().parse_args(argv)
    os.chdir(ROOT)
    if arguments.command == "list":
        for name, section in SECTIONS.items():
            print(f"{name:10} {section.TITLE}")
        return
    if arguments.command == "report":
        write_outputs(results.load())
        return
    named = arguments.sections + arguments.only
    unknown = [name for name in named if name not in SECTIONS]
    if unknown:
        parser().error(f"unknown section(s): {', '.join(unknown)} (sections: {', '.join(SECTIONS)})")
    before = results.load_average()
    figures, yardstick_ms = measure(arguments, set(named))
    write_outputs(results.write(figures, load={"before": before, "after": results.load_average()},
                                yardstick_ms=yardstick_ms))


def measure(arguments, named):
    """The figures of the sections in `named` (all when empty), over those of the last run when some are named,
    and the machine's yardstick (``results.yardstick``) taken before them."""
    figures = results.previous() if named else {}
    bench = Bench(count=arguments.count, starts=arguments.starts, scratch_path=arguments.scratch_path)
    yardstick_ms = results.yardstick(bench.host_binary)
    try:
        for name, section in SECTIONS.items():
            if not named or name in named:
                figures.update(section.measure(bench))
    finally:
        bench.close()
    return figures, yardstick_ms


def write_outputs(figures):
    """results/BENCHMARKS.md, the verdicts on stdout, and the figures."""
    text, rows = markdown.render(figures)
    with open("results/BENCHMARKS.md", "w") as out:
        out.write(text)
    print(text)
    for measure_, result, context, target, ok in rows:
        print(f"bench: {'met    ' if ok else 'NOT MET'} {measure_}: {result} ({context}; target {target})")
    plots.plot(figures, ROOT)
    plots.plot_scale(figures, ROOT)
    plots.plot_isolated_sizes(figures, ROOT)
    plots.plot_tabs(figures, ROOT)
