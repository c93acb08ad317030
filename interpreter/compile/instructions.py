"""The flow's instructions: the flat list the flow compiles to (`effect`, jumps, `for_*`,
`turns_*`, `turn`, `play`, `simultaneous`), which the engine reads at decisions and run_flow
runs (lower_flow.py turns it into run_flow's IR)."""
from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

if TYPE_CHECKING:
    from .ir import Expression, Statement


@attrs.define
class Instruction:
    op: str                    # effect, jump, jump_if, jump_unless, for_init, for_next, turns_init,
    #                            turns_check, turns_next, turn, play, simultaneous
    span: object = None
    fn: object = None          # a compiled expression or statement
    target: int = -1           # jump target
    key: str = ""              # where the instruction keeps its progress in s.env
    name: str = ""             # a loop variable
    actions: tuple = ()        # action indexes for play / simultaneous
    optional: bool = False
    may_choose: bool = False
    code: Expression | None = None     # its IR: a condition's (or a turn's) expression
    statements: tuple[Statement, ...] = ()     # its IR: an effect's statements (run in run_flow)
    listed: tuple = ()         # play/simultaneous: (index, action, label merging) of each action
    fused: object = None       # play/simultaneous: f(s) listing several of them at once (fused_listing)
    counters: tuple = ()       # with coverage: (where, counter) it increments (see flow_counters)
