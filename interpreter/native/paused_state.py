"""Where a rollout resumes a state paused inside a step (paused_source.py renders it): the copy of
the state from before the step (engine/steps.py `Pending.snapshot`, made again from the game's
seed and moves where the engine did not keep it, as a clone that goes on does), the decision of
the flow the step runs from (a play, a simultaneous step revealing its sealed moves, a flow
statement that may choose), and the draws the step made already: the move played, as its
position among the moves listed at the copy, then the choices made. A shape the kernel does not
resume is named with its rules line (`why`): the playout stays in Python.
"""
from __future__ import annotations

from ..engine.steps import Unbuilt, play_steps, rebuild_snapshot
from ..runtime.errors import RulesRuntimeError
from .not_native import NotNative
from .paused_source import FORCED_ROOM


class PausedWriter:
    """The resumed decision and forced draws of one game's paused states (its RolloutSource's
    play_at, effect_at, forced_at)."""

    def __init__(self, source):
        self.game = source.game
        self.play_at, self.effect_at, self.forced_at = source.play_at, source.effect_at, source.forced_at

    def resumed(self, s):
        """(the state before the step, the decision's number, the forced draws) of a paused state
        s, or a NotNative saying why the kernel does not resume it."""
        pending, game = s.pending, self.game
        if pending.runner is game.setup_runner:
            return NotNative("a choice inside the setup: a rollout resumes from the flow", game.program.setup.span)
        if self.forced_at is None:          # (no step of the flow may choose: not a state of this game's flow)
            return NotNative("a step paused where no step of the flow chooses", game.program.game.span)
        if game.explicit_chance:
            return NotNative("a step paused with chance nodes (explicit chance): its draws are not forced natively",
                             game.program.game.span)
        if pending.snapshot.__class__ is Unbuilt:
            try:
                rebuild_snapshot(s, pending, applying=False)
            except RulesRuntimeError as error:
                return NotNative(f"a paused step its seed and moves do not make again ({error})", game.program.game.span)
        before = pending.snapshot
        instruction = game.flow[before.pc] if before.pc < len(game.flow) else None
        if instruction is None:
            return NotNative("a step paused outside the flow", game.program.game.span)
        forced = list(pending.choices)
        runner = pending.runner
        if instruction.op == "play" and getattr(runner, "func", None) is play_steps:
            position = self.move_position(before, runner.keywords["index"], runner.keywords["args"])
            if position is None:
                return NotNative("a paused move that is not one of the moves listed before it", instruction.span)
            forced.insert(0, position)
            resume = self.play_at.get(before.pc)
        elif instruction.op == "simultaneous" and not before.env.get(instruction.key, ((None,), ()))[0]:
            resume = self.play_at.get(before.pc)        # (revealing the sealed moves)
        elif instruction.op == "effect":
            resume = self.effect_at.get(before.pc)
        else:
            resume = None
        if resume is None:
            return NotNative(f"a step of a flow `{instruction.op}` paused at a choice", instruction.span)
        if len(forced) > FORCED_ROOM:
            return NotNative(f"a step of more than {FORCED_ROOM} choices", instruction.span)
        return before, resume, forced

    @staticmethod
    def move_position(before, index: int, args: tuple):
        """The position of the move (action index, arguments) among the legal moves of the state
        before it (the kernel's draw of the play), or None."""
        for k, move in enumerate(before.legal_moves()):
            if move.kind == "action" and move.action == index and move.args == args:
                return k
        return None

    def write_forced(self, S, forced: list) -> None:
        """The forced draws into S (none taken yet)."""
        at = self.forced_at
        S[at] = 0
        S[at + 1] = len(forced)
        S[at + 2:at + 2 + len(forced)] = forced


__all__ = ["PausedWriter"]
