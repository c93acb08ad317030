"""The optimisation passes over the IR, as a table: each an IR -> IR function in its own module,
run in this order, each one switched off by its name (`disabled`; `referee compile --no-pass
NAME`). With any of them off the generated code does the same, only more slowly or at length.
The module passes go over a whole module as its file is written (module_names.ModuleParts):
its functions as they run stay as they are."""
from __future__ import annotations

from collections.abc import Iterable

from .. import ir
from ..module_names import ModuleParts
from .drop_implied_tests import drop_implied_tests
from .drop_unread_constants import drop_unread_constants
from .fold_constants import fold_constants
from .inline_single_lazy import inline_single_lazy
from .remove_dead_code import remove_dead_code
from .remove_double_negation import remove_double_negation
from .share_equal_constants import share_equal_constants
from .split_on_empty_zone import split_on_empty_zone

# those that run over every function lowered, and those over the listings of legal moves (of
# the first, only remove_double_negation runs there yet: the listings' host code is cut around
# its cached calls, which the others do not read; the rest find nothing to do elsewhere)
FUNCTION_PASSES = (fold_constants, remove_double_negation, remove_dead_code)
LISTING_PASSES = (remove_double_negation, inline_single_lazy, split_on_empty_zone, drop_implied_tests)
# over the module written out: equal constants named once first, then what nothing reads goes
MODULE_PASSES = (share_equal_constants, drop_unread_constants)
PASSES = tuple(dict.fromkeys(FUNCTION_PASSES + LISTING_PASSES + MODULE_PASSES))
PASS_NAMES = tuple(p.__name__ for p in PASSES)


def run_passes(function: ir.Function, disabled: Iterable[str] = (), passes: tuple = FUNCTION_PASSES) -> ir.Function:
    """The function after every pass of `passes` (one of the lists above) not disabled, in
    table order; any pass of the table may be named in `disabled`."""
    disabled = frozenset(disabled)
    unknown = sorted(disabled - set(PASS_NAMES))
    if unknown:
        raise ValueError(f"no pass named {', '.join(unknown)} (the passes: {', '.join(PASS_NAMES)})")
    for optimise in passes:
        if optimise.__name__ not in disabled:
            function = optimise(function)
    return function


def run_module_passes(parts: ModuleParts, disabled: Iterable[str] = ()) -> ModuleParts:
    """The module's parts after every module pass not disabled, in table order."""
    disabled = frozenset(disabled)
    for optimise in MODULE_PASSES:
        if optimise.__name__ not in disabled:
            parts = optimise(parts)
    return parts
