"""An action's legal moves in a native kernel (a mixin of rules_source.KernelSource): the
binders' loops nested, first binder outermost, each test (a binder's `where`, a `require`)
tested in the loop of the deepest binder it reads, as the Python path's listings hoist them
(compile/lower_listing.py): `require touch(home(), a)` of `associate(a in regions(), b in
regions())` is asked once per `a`, not once per pair. At each loop the tests keep the rules'
order (the binders' `where` first, then the `require`s); a test that reads no binder (and draws
nothing) is asked once, before the loops, and ends the first loop when it fails (`require not
can_play(other)` of an action over every cell: once a listing, not once a cell). A guard with a `let` (guards_source.py) keeps its requires in `legal_NAME`, asked
for each move.
"""
from __future__ import annotations

from referee.dsl import ast
from referee.dsl.types import BOOL


def binder_levels(binders, tests) -> list:
    """Per binder, the tests whose deepest binder it is (a name read anywhere in a test counts,
    even one an aggregate binds again: a test may go deeper than it must, never shallower)."""
    names = [b.name for b in binders]
    levels: list = [[] for _ in binders]
    for test in tests:
        read = {node.id for node in ast.walk(test) if isinstance(node, ast.Name)}
        deepest = max((k for k, name in enumerate(names) if name in read), default=0)
        levels[deepest].append(test)
    return levels


def reads_binder_or_draws(test, binders) -> bool:
    names = {b.name for b in binders}
    return any((isinstance(node, ast.Name) and node.id in names) or (isinstance(node, ast.Call) and node.name == "pick")
               for node in ast.walk(test))


class ListingSource:
    """The nested loops of an action's moves for KernelSource (its `expr`, `define`, `domain_loop`)."""

    def legal_loops(self, action, names: list, tests: list, scope_class) -> tuple:
        """(the lines of the binders' loops, each with the tests of its level in `legal_NAME_k`, a
        function of the first k arguments; the test left for the innermost body, at their depth)."""
        binders = action.binders
        arguments = "".join(f", {name}" for name in names)
        guard = []
        for statement in action.body:
            node = ast.untag(statement)[0]
            if not isinstance(node, ast.Require):
                break
            guard.append(node.condition)
        leads = [ast.untag(s)[0] for s in action.body[len(guard):len(guard) + 1]]
        if not binders or (leads and isinstance(leads[0], ast.Let)):    # (lets: the whole guard per move)
            return self.nested_loops(action, names, tests, scope_class), f"legal_{action.name}(S, cur{arguments})"
        return self.nested_loops(action, names, tests + guard, scope_class), "True"

    def nested_loops(self, action, names: list, tests: list, scope_class) -> list:
        binders = action.binders
        loop, inner_scope = [], scope_class()
        free = [t for t in tests if not reads_binder_or_draws(t, binders)]
        if binders and free:
            tests = [t for t in tests if t not in free]
            self.define(f"def legal_{action.name}_0(S, cur):",
                        [f"if not ({self.expr(t, inner_scope, BOOL)}): return False" for t in free] + ["return True"])
            loop.append(f"listed_{action.name} = legal_{action.name}_0(S, cur)")
        for depth, (binder, tests_here) in enumerate(zip(binders, binder_levels(binders, tests))):
            lines, _ = self.argument_loop(binder, inner_scope, names[depth])    # (nested_source.py)
            loop += ["    " * depth + line for line in lines]
            inner_scope = inner_scope.child(**{binder.name: names[depth]})
            if depth == 0 and binders and free:
                loop.append(f"    if not listed_{action.name}: break")
            if tests_here:
                arguments = "".join(f", {name}" for name in names[:depth + 1])
                self.define(f"def legal_{action.name}_{depth + 1}(S, cur{arguments}):",
                            [f"if not ({self.expr(t, inner_scope, BOOL)}): return False" for t in tests_here]
                            + ["return True"])
                loop.append("    " * (depth + 1) + f"if not legal_{action.name}_{depth + 1}(S, cur{arguments}): continue")
        return loop
