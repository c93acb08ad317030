"""Explicit chance in a native kernel (a mixin of rules_source.KernelSource). A game loaded with
`chance="explicit"` (docs/language.md, "Explicit chance": the adapters' and solvers' games) stops
at a chance node at each shuffle and at each pick given to a `let` or an assignment, where the
RandomBot samples the outcomes by their odds (play/bots.py sample_chance: its generator's
random(), identical components one outcome as likely as they are many). The kernel does not
draw those yet: such a game is refused at its first chance node, named with its rules line; a
game with none plays as it does with sampled chance, which changes nothing for it.
"""
from __future__ import annotations

from referee.dsl import ast

from ..compile.lower_actions import is_pick
from .not_native import NotNative


class ChanceSource:
    """The refusal of chance nodes, for KernelSource (its game and program)."""

    def refuse_chance_nodes(self) -> None:
        if not self.game.explicit_chance:
            return
        for node in ast.walk(self.program.parts()):
            if isinstance(node, ast.Shuffle):
                raise NotNative("a shuffle as chance nodes (explicit chance) has no native form yet", node.span)
            if isinstance(node, (ast.Let, ast.Assign)) and is_pick(ast.untag(node.value)[0]):
                raise NotNative("a pick as a chance node (explicit chance) has no native form yet", node.span)
