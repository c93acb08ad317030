"""The optimisation passes over the IR, as a table: each an IR -> IR function in its own module,
run in this order, each one switched off by its name (`disabled`; `referee compile --no-pass
NAME`). With any of them off the generated code does the same, only more slowly or at length."""
from __future__ import annotations

from collections.abc import Iterable

from .. import ir
from .fold_constants import fold_constants
from .remove_dead_code import remove_dead_code

PASSES = (fold_constants, remove_dead_code)
PASS_NAMES = tuple(p.__name__ for p in PASSES)


def run_passes(function: ir.Function, disabled: Iterable[str] = ()) -> ir.Function:
    """The function after every pass not disabled, in table order."""
    disabled = frozenset(disabled)
    unknown = sorted(disabled - set(PASS_NAMES))
    if unknown:
        raise ValueError(f"no pass named {', '.join(unknown)} (the passes: {', '.join(PASS_NAMES)})")
    for optimise in PASSES:
        if optimise.__name__ not in disabled:
            function = optimise(function)
    return function
