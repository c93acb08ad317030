"""An action's legal moves in a native kernel (a mixin of rules_source.KernelSource), listed as
the engine lists them (compile/lower_actions.py `guard_placement`, `guards_as_filters`): the
binders' domains nested, the first outermost, and each step of the guard (its leading lets and
requires) placed right after the last binder it depends on, so a require that fails skips
every tuple under it, not one tuple at a time. An inner binder with a filter, whose domain and
filter need no earlier binder, is filtered once, before the loops (the engine's fixed domain);
if it holds nothing the action has no move. Where nothing can be placed earlier, each tuple is
tested by `legal_NAME` in the innermost loop. `moves_NAME(S, cur, buf, start)` writes the
moves' codes into buf from start (moves of identical components once: alike_source.py);
`any_NAME(S, cur)` answers whether there is one (`can_play`).
"""
from __future__ import annotations

from referee.dsl import ast

from ..compile.lower_actions import guard_placement
from ..compile.lower_aggregates import names_in


def untag(node):
    return ast.untag(node)[0]


class ListingSource:
    """moves_NAME and any_NAME for KernelSource (its `expr`, `statement`, `domain_loop`,
    `alike_moves`...)."""

    def listing(self, index: int, action, names: list, scope, move_base: int, bits: int) -> None:
        code = " + ".join([str(index * move_base)] + [f"({name} << {bits * k})" for k, name in enumerate(names)])
        fits = " and ".join(f"0 <= {name} < {1 << bits}" for name in names) or "True"
        listed = [f"if n >= MOST_MOVES or not ({fits}):", "    S[ERROR] = 1", "    return n"]
        alike = self.alike_moves(action, bits)
        before: list = []
        run: list = []
        if alike is None:
            listed += [f"buf[n] = {code}", "n += 1"]
        else:                       # (moves of identical components are one move)
            before, run, each = alike
            listed += [f"code = {code}", *each]
        loops = self.placed_loops if self.placed_earlier(action) else self.tested_loops
        self.define(f"def moves_{action.name}(S, cur, buf, start):",
                    ["n = start", *before, *loops(action, names, scope, listed, "n", run), "return n"])
        self.define(f"def any_{action.name}(S, cur):",
                    [*loops(action, names, scope, ["return True"], "False"), "return False"])

    def placed_earlier(self, action) -> bool:
        """Whether a binder's filter or a step of the guard can be tested outside the innermost of
        two loops or more."""
        early, placed = guard_placement(action)
        return len(action.binders) > 1 and (bool(early) or any(placed[:-1]) or any(self.fixed_binders(action.binders)))

    def tested_loops(self, action, names: list, scope, innermost: list, none: str, run=()) -> list:
        """The binders' loops, each tuple tested whole by legal_NAME (`run`: the lines before
        the innermost loop)."""
        loop = []
        for depth, (binder, name) in enumerate(zip(action.binders, names)):
            lines, _ = self.domain_loop(binder, scope, name)
            if depth == len(names) - 1:
                lines = [*run, *lines]
            loop += ["    " * depth + line for line in lines]
            scope = scope.child(**{binder.name: name})
        indent = "    " * len(names)
        test = f"if legal_{action.name}(S, cur{''.join(', ' + name for name in names)}):"
        return loop + [indent + test] + [indent + "    " + line for line in innermost]

    @staticmethod
    def fixed_binders(binders) -> list:
        """Per binder, whether it is filtered once before the loops."""
        return [k > 0 and b.condition is not None and
                not ((names_in(b.domain) | names_in(b.condition)) & {a.name for a in binders[:k]})
                for k, b in enumerate(binders)]

    def placed_loops(self, action, names: list, scope, innermost: list, none: str, run=()) -> list:
        """The loops over the binders' domains with the guard's steps placed among them, around
        `innermost` (run for each legal tuple); `none`: what the function returns when a step
        outside every loop fails or a fixed domain is empty; `run`: the lines before the
        innermost loop."""
        binders = action.binders
        early, placed = guard_placement(action)
        fixed = self.fixed_binders(binders)
        lines: list = []
        scope = scope.child()
        for k, binder in enumerate(binders):
            if fixed[k]:
                lines += self.fixed_domain(binder, names[k], scope, none)
        for node in early:
            lines += self.guard_step(node, scope, f"return {none}")
        depth = 0
        for k, (binder, name) in enumerate(zip(binders, names)):
            if fixed[k]:
                loop = [f"for {name} in fixed_{name}[:fixed_{name}_n]:"]
            else:
                loop, _ = self.domain_loop(binder, scope, name)
            if k == len(names) - 1:
                loop = [*run, *loop]
            lines += ["    " * depth + line for line in loop]
            depth += 1
            scope = scope.child(**{binder.name: name})
            steps = []
            if binder.condition is not None and not fixed[k]:
                steps.append(f"if not ({self.expr(binder.condition, scope, 'bool')}): continue")
            for node in placed[k]:
                steps += self.guard_step(node, scope, "continue")
            lines += ["    " * depth + line for line in steps]
        return lines + ["    " * depth + line for line in innermost]

    def fixed_domain(self, binder, name: str, scope, none: str) -> list:
        """An inner binder's domain filtered once: fixed_NAME[:fixed_NAME_n]."""
        var = self.fresh("x")
        loop, capacity = self.domain_loop(binder, scope, var)
        inner = scope.child(**{binder.name: var})
        test = [] if binder.condition is None else \
            [f"    if not ({self.expr(binder.condition, inner, 'bool')}): continue"]
        return [*loop[:-1], f"fixed_{name} = np.empty({capacity}, dtype=np.int64)", f"fixed_{name}_n = 0",
                loop[-1], *test, f"    fixed_{name}[fixed_{name}_n] = {var}", f"    fixed_{name}_n += 1",
                f"if fixed_{name}_n == 0:", f"    return {none}"]

    def guard_step(self, node, scope, failed: str) -> list:
        if isinstance(node, ast.Require):
            return [f"if not ({self.expr(node.condition, scope, 'bool')}): {failed}"]
        return self.statement(node, scope, flow=False)
