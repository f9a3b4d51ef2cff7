"""One module per section; each has TITLE and measure(bench) -> {results key: figures}. SECTIONS is the order of a
full run."""
from . import core, cost, isolate, memory, reload, roundtrip, scale, screens, startup, stress, tabs

SECTIONS = {"roundtrip": roundtrip, "core": core, "startup": startup, "reload": reload, "memory": memory,
            "stress": stress, "scale": scale, "screens": screens, "isolate": isolate, "tabs": tabs,
            "cost": cost}
