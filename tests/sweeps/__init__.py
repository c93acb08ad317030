"""The full sweeps the suite samples: each runs with `python -m tests.sweeps.NAME` (before a
release; see the README's "Checking everything"). A sampled test module reads SWEEP_ENV, which
its sweep sets, to collect everything instead of its sample."""

SWEEP_ENV = "REFEREE_SWEEP"
