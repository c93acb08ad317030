"""Static checks: every name resolves, types fit, statements stand where they may.

`check(program, sources)` runs every check and returns a `Checked` value: the diagnostics (all
of them at once; it never raises) with what the checker found (dsl/checked.py). The sources,
file -> text, only sharpen where some diagnostics point. Each check is a small function of the
checker; CHECKS lists them in the order they run.
"""
from __future__ import annotations

from typing import Optional

from ..checked import Checked
from ..checker import Checker
from ..program import Program
from .bodies import (check_actions, check_binder_reasons, check_functions, check_invariants, check_procedures,
                     check_setup_and_flow, check_triggers)
from .declarations import (check_boards, check_game_fields, check_owner_has_a_seat, check_params_and_options, check_sections,
                           check_types_and_names, check_var_display, check_var_ranges)
from .labels import check_labels, check_labels_of_a_play
from .maps import check_maps
from .windows import check_open_windows

CHECKS = (check_sections, check_types_and_names, check_params_and_options, check_var_ranges, check_owner_has_a_seat, check_var_display,
          check_boards, check_maps, check_game_fields, check_functions, check_procedures, check_actions, check_labels, check_labels_of_a_play, check_triggers,
          check_invariants, check_setup_and_flow, check_binder_reasons, check_open_windows)


def check(program: Program, sources: Optional[dict] = None) -> Checked:
    checker = Checker(program, sources)
    for run in CHECKS:
        run(checker)
    return Checked(program=program, sources=checker.sources, diagnostics=list(checker.diagnostics), symbols=checker.symbols,
                   types={key: t for key, (_, t) in checker.expression_types.items()},
                   expressions={key: node for key, (node, _) in checker.expression_types.items()},
                   local_types=dict(checker.local_types),
                   templates=dict(checker.templates), placeholder_nodes=dict(checker.placeholder_nodes),
                   label_expressions=dict(checker.label_expressions), argument_types=dict(checker.argument_types),
                   typer=checker)


def diagnostics(program: Program, sources: Optional[dict] = None) -> list:
    """Only the diagnostics of `check` (for callers that need nothing else)."""
    return check(program, sources).diagnostics
