"""An action's guard in a native kernel (a mixin of rules_source.KernelSource): the lets and
requires that lead its body, in their order (compile/lower_actions.py: the guard is that
prefix). `legal_NAME` computes the lets and tests the requires as it meets them; `act_NAME`
plays a move that was listed as legal, so it computes the lets again and skips the requires
(as the engine's act_legal_)."""
from __future__ import annotations

from referee.dsl import ast
from referee.dsl.types import BOOL

from .not_native import NotNative


def untag(node):
    return ast.untag(node)[0]


class GuardsSource:
    """The guard of an action for KernelSource (its `expr`, `statement`, `fresh`...)."""

    def action_guard(self, action, scope) -> tuple:
        """(the legal test's lines, the effect's first lines, the rest of the body, the scope the
        rest is rendered in)."""
        body = [untag(s) for s in action.body]
        legal_scope, apply_scope = scope.child(), scope.child()
        legal, apply = [], []
        while body and isinstance(body[0], (ast.Let, ast.Require)):
            node = body.pop(0)
            if isinstance(node, ast.Require):
                legal.append(f"if not ({self.expr(node.condition, legal_scope, BOOL)}): return False")
                continue
            if any(isinstance(n, ast.Call) and n.name == "pick" for n in ast.walk(node.value)):
                raise NotNative("a let of the guard that draws", node.span)
            legal += self.statement(node, legal_scope, flow=False)
            apply += self.statement(node, apply_scope, flow=False)
        if any(isinstance(s, ast.Require) for s in body):
            raise NotNative("a require after the action's first effect", action.span)
        return legal, apply, body, apply_scope
