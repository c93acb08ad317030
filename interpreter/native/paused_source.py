"""A rollout kernel that resumes a step paused at a choice (a mixin of rollout_source.RolloutSource).

The Python engine keeps a step stopped at a choice (a `choose`, a `play ... by`, a `respond`,
inside an action, a trigger, a simultaneous step's reveal or a flow statement that may choose)
as the copy of the state from before the step, the step, and the choices made in it so far
(engine/steps.py `Pending`); a clone of the paused state goes on by playing the step again from
that copy with those choices (runtime `decided`: the choices made are taken before any is asked).
The rollout kernel does the same (paused_state.py writes it): the copy into S, the flow resumed
at the step's play, simultaneous step or flow statement (numbered after the plays), and the
first draws of the step forced: the move played (its position among the moves listed), then
each choice made. The forced draws lie in S at FORCED: how many were taken, how many there are,
then the draws. The moves they count are counted from minus their number, so the playout's first
move is the choice the state stands at, as in Python.
"""
from __future__ import annotations

from referee.dsl import ast

FORCED_ROOM = 64        # the most choices of one step a rollout resumes (more: the playout stays in Python)


class PausedSource:
    """The forced draws and the numbers of the flow statements that may choose, for RolloutSource
    (its play_number, size, define, defs)."""

    def find_paused_steps(self, game) -> None:
        """The flow statements that run as steps (they may choose): numbered after the plays. A
        game whose steps may choose has the forced draws (the others' kernels are as before)."""
        effects = [ins for ins in game.flow if ins.op == "effect" and ins.may_choose]
        first = len(self.play_number) + 1
        self.effect_number = {ins.span: first + k for k, ins in enumerate(effects)}
        self.effect_at = {pc: self.effect_number[ins.span] for pc, ins in enumerate(game.flow)
                          if ins.op == "effect" and ins.may_choose}
        self.pauses = bool(effects) or bool(game.triggers_may_choose) or any(a.may_choose for a in game.actions)
        self.forced_at = None

    def lay_out_forced(self) -> None:
        """The forced draws' cells, after the rest of S, and the draw that takes them first."""
        if not self.pauses:
            return
        self.choice = "forced_below(S, mt, n)"
        self.forced_at = self.size
        self.size += 2 + FORCED_ROOM
        self.defs.append(f"FORCED = {self.forced_at}")
        self.define("def forced_below(S, mt, n):",
                    ["k = S[FORCED]", "if k < S[FORCED + 1]:          # (a draw of the step already made in Python)",
                     "    S[FORCED] = k + 1", "    chosen = S[FORCED + 2 + k]", "    if 0 <= chosen < n:",
                     "        return chosen", "    S[ERROR] = 1               # (not the step Python played)",
                     "    return 0", "return below(mt, n)"])

    def effect_numbers_in(self, node) -> list:
        """The numbers of the flow statements that may choose in a node."""
        return [self.effect_number[n.span] for n in ast.walk(node) if getattr(n, "span", None) in self.effect_number]

    def resumed_effect(self, lines: list) -> list:
        """A flow statement that may choose, resumed: run from its start (its first draws forced)."""
        return ["resume = 0", *lines]

    def driver_moves(self) -> tuple:
        """(where the rollout's moves are counted from, the test that the forced draws were all taken)."""
        if not self.pauses:
            return "0", ""
        return ("-S[FORCED + 1]", "\n    if S[FORCED] != S[FORCED + 1]:      # (a draw made in Python not reached)"
                "\n        return 2")


__all__ = ["FORCED_ROOM", "PausedSource"]
