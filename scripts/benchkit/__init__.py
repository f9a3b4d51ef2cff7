"""scripts/bench as a package: `cli` parses the command line, `environment` builds the release binaries and holds
the run's settings (display, sandbox, scratch folder), `host` starts strada-host through the repository's
automation client (clients/python/strada_testing), `sections/` measures (one module per section, each returning
its figures), and `results`, `markdown` and `plots` write results/benchmarks.json, results/BENCHMARKS.md and the
figures. Measuring never formats; formatting never measures.

Every engine figure is measured against the engine's own floor in the same run (a bare script-message echo with no
bridge), because these machines are noisy.
"""
