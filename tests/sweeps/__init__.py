"""What the suite samples, and the full sweeps a developer runs before a release.

A test that sweeps everything (every game through OpenSpiel's random simulation, every
configuration through every property...) keeps in the suite a fixed sample that still meets
each thing it checks at least once; `python -m tests.sweeps` runs the same tests over
everything (REFEREE_SWEEP=1), on two workers:

    python -m tests.sweeps                 # every sampled test, whole
    python -m tests.sweeps -k openspiel    # (pytest's own arguments go through)
    python -m tests.sweeps.native_layout   # one module's sweep alone
"""
from __future__ import annotations

import os

SWEEP_ENV = "REFEREE_SWEEP"


def sweeping() -> bool:
    """Whether this run is the sweep (read when asked: `python -m tests.sweeps` sets it after
    importing this package)."""
    return bool(os.environ.get(SWEEP_ENV))


# the test modules whose parametrizations are sampled (the sweep runs these whole)
SAMPLED_MODULES = ("tests/test_openspiel.py", "tests/test_properties.py", "tests/test_verify.py",
                   "tests/test_compiled_module.py", "tests/test_native_layout.py",
                   "tests/test_ir_flow.py")


def sampled(everything, kept):
    """`everything` in a sweep; otherwise its items that `kept(item)` keeps, in its order."""
    everything = list(everything)
    return everything if sweeping() else [item for item in everything if kept(item)]


def amount(in_suite: int, in_sweep: int) -> int:
    """A number of games (or examples) for the suite, or for the sweep."""
    return in_sweep if sweeping() else in_suite
