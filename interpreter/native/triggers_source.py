"""Triggers that decide in a native kernel (a mixin of rules_source.KernelSource): a trigger
whose effect asks a player (`play ... by`, `respond`, `choose`), as the Python engine runs it
(engine/steps.py trigger_steps: after each move, and after each move played inside a step,
the triggers fire until none does, and a decision inside one is a move of the random bot).

The triggers then take the decision's arrays (decisions_source.DECISION_ARGUMENTS), and a move
played inside a trigger sets off the triggers again, one level deeper: Numba's cache does not
load a mutual recursion (numba/numba#6061, recursion_heads.py), so the triggers' functions are
rendered once per level (run_triggers, run_triggers_1, ...), TRIGGER_LEVELS of them; a trigger
that would fire past the last hands the game to Python, which plays it to its exact end.
Refused: a trigger that calls a procedure that decides or plays an action that decides (their
functions are rendered once, at no level).
"""
from __future__ import annotations

from referee.dsl import ast

from .decisions_source import DECIDING, DECISION_ARGUMENTS
from .not_native import NotNative

TRIGGER_LEVELS = 4      # triggers set off inside a trigger's decision, nested at most natively


class TriggersSource:
    """Triggers that decide, for KernelSource (its program, deciding, define, trigger_functions)."""

    def find_deciding_triggers(self) -> None:
        """Whether a trigger decides (then what it plays and calls must not decide itself)."""
        self.triggers_decide = False
        self.trigger_level = 0          # (while a level's triggers render: the level their moves set off)
        for trigger in self.program.of_kind(ast.Trigger):
            for node in ast.walk(trigger.body):
                if isinstance(node, DECIDING) or self.is_chance_node(node):
                    self.triggers_decide = True
                if isinstance(node, ast.CallStatement) and node.name in self.deciding:
                    raise NotNative(f"a trigger that calls {node.name}, which decides, has no native form yet", node.span)
                for name in node.actions if isinstance(node, (ast.Play, ast.PlayBy)) else ():
                    if name in self.deciding:
                        raise NotNative(f"a trigger that plays {name}, which decides, has no native form yet",
                                        node.span)

    def deciding_triggers(self, scope_class, found) -> bool:
        """The triggers' functions at each level, if they decide (else False: flow_source's own)."""
        if not self.triggers_decide:
            return False
        for level in range(TRIGGER_LEVELS + 1):
            self.trigger_level = level + 1
            self.trigger_functions(scope_class, found, self.level_suffix(level), DECISION_ARGUMENTS,
                                   last=level == TRIGGER_LEVELS)
        self.trigger_level = 0
        return True

    @staticmethod
    def level_suffix(level: int) -> str:
        return f"_{level}" if level else ""

    def triggers_called(self) -> str:
        """The call of the triggers after a move, from where it is rendered (its level)."""
        if not self.triggers_decide:
            return "(S, cur)"
        return f"{self.level_suffix(self.trigger_level)}(S, cur{DECISION_ARGUMENTS})"
