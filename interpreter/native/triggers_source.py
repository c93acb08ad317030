"""Triggers that decide in a native kernel (a mixin of rules_source.KernelSource): a trigger
whose effect asks a player (`play ... by`, `respond`, `choose`), as the Python engine runs it
(engine/steps.py trigger_steps: after each move, and after each move played inside a step,
the triggers fire until none does, and a decision inside one is a move of the random bot).

The triggers then take the decision's arrays (decisions_source.DECISION_ARGUMENTS), and a move
played inside a trigger sets off the triggers again, one level deeper: Numba's cache does not
load a mutual recursion (numba/numba#6061, recursion_heads.py), so the triggers' functions are
rendered once per level (run_triggers, run_triggers_1, ...), TRIGGER_LEVELS of them; a trigger
that would fire past the last hands the game to Python, which plays it to its exact end.
A procedure that decides, called from a trigger (or from what it calls), and an action that
decides, played inside one, are rendered once more per level where they are met
(`proc_NAME_t2`, `run_NAME_t2`/`act_NAME_t2`: their moves set off that level's triggers), as
the triggers are. Refused there: a recursive procedure, and an action over subsets or over a
list of lists (their moves are rendered by other mixins).
"""
from __future__ import annotations

from referee.dsl import ast

from .decisions_source import DECIDING, DECISION_ARGUMENTS
from .not_native import NotNative

TRIGGER_LEVELS = 4      # triggers set off inside a trigger's decision, nested at most natively


class TriggersSource:
    """Triggers that decide, for KernelSource (its program, deciding, define, trigger_functions)."""

    def find_deciding_triggers(self) -> None:
        """Whether a trigger decides (plays, asks, draws, or calls a procedure that decides)."""
        self.triggers_decide = False
        self.trigger_level = 0          # (while a level's triggers render: the level their moves set off)
        for trigger in self.program.of_kind(ast.Trigger):
            for node in ast.walk(trigger.body):
                if isinstance(node, DECIDING) or self.is_chance_node(node):
                    self.triggers_decide = True
                if isinstance(node, ast.CallStatement) and node.name in self.deciding:
                    self.triggers_decide = True
        self.level_copies_wanted: list = []         # (kind, name, level) met, not rendered yet
        self.level_copies_made: set = set()

    def deciding_triggers(self, scope_class, found) -> bool:
        """The triggers' functions at each level, if they decide (else False: flow_source's own)."""
        if not self.triggers_decide:
            return False
        for level in range(TRIGGER_LEVELS + 1):
            self.trigger_level = level + 1
            self.trigger_functions(scope_class, found, self.level_suffix(level), DECISION_ARGUMENTS,
                                   last=level == TRIGGER_LEVELS)
        while self.level_copies_wanted:             # (each may call or play more)
            kind, name, self.trigger_level = self.level_copies_wanted.pop()
            if kind == "proc":
                self.procedure_copy(name, scope_class)
            else:
                self.action_copy(name, scope_class)
        self.trigger_level = 0
        return True

    def level_copy(self, kind: str, name: str, suffix: str = "") -> str:
        """The suffix of the copy a call of a procedure (kind "proc") or a play of an action
        ("action") goes to where it is rendered: its trigger level's, if it decides, else ''."""
        if not getattr(self, "trigger_level", 0) or name not in self.deciding:
            return ""
        if suffix:
            raise NotNative(f"a recursive procedure that decides ({name}), called from a trigger",
                            self.procedure_named(name, None).span)
        key = (kind, name, self.trigger_level)
        if key not in self.level_copies_made:
            self.level_copies_made.add(key)
            self.level_copies_wanted.append(key)
        return f"_t{self.trigger_level}"

    def procedure_copy(self, name: str, scope_class) -> None:
        proc = self.procedure_named(name, None)
        scope = scope_class({p.name: f"L_{p.name}" for p in proc.parameters})
        self.define(f"def proc_{name}_t{self.trigger_level}(S, cur{scope.params()}{DECISION_ARGUMENTS}):",
                    self.block(proc.body, scope, flow=False))

    def action_copy(self, name: str, scope_class) -> None:
        """act_NAME_tL and run_NAME_tL: the action's effect as rules_source renders it."""
        action = self.actions[name][1]
        if self.subsets_domain(action) is not None or any(self.over_rows(b) for b in action.binders):
            raise NotNative(f"a trigger that plays {name}, which decides over subsets or lists of lists",
                            action.span)
        names = [f"L_{b.name}" for b in action.binders]
        scope = scope_class({b.name: n for b, n in zip(action.binders, names)})
        _, apply, body, apply_scope = self.action_guard(action, scope)
        apply += self.block(body, apply_scope, flow=False)
        suffix = f"_t{self.trigger_level}"
        self.define(f"def act_{name}{suffix}(S, cur{''.join(', ' + n for n in names)}{DECISION_ARGUMENTS}):",
                    apply or ["pass"])
        self.run_move(action, suffix)

    @staticmethod
    def level_suffix(level: int) -> str:
        return f"_{level}" if level else ""

    def triggers_called(self) -> str:
        """The call of the triggers after a move, from where it is rendered (its level)."""
        if not self.triggers_decide:
            return "(S, cur)"
        return f"{self.level_suffix(self.trigger_level)}(S, cur{DECISION_ARGUMENTS})"
