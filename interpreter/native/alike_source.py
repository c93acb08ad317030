"""Moves of identical components listed once in a native kernel (a mixin of
rules_source.KernelSource), as the engine lists them (engine/moves.py `merge_by_labels`): two
moves of one action whose arguments are equal, or components of the same label, are one move,
the first listed; if their components are not identical (the same label, other attributes)
that is the engine's error, flagged (the game is played in Python).

A move is compared with the moves listed before it, back to the start of the action's listing;
or only back to the start of the innermost loop's run (a few moves) where that is enough: when
every binder but the last takes distinct values (a zone, a range, an enum, a type, the seats)
and the move's components of those binders are each the only one of their label, a move alike
to it has the same outer arguments, so it was listed in the same run (no scan of the whole
listing for each move: it made Continents' listings quadratic).
"""
from __future__ import annotations

from referee.dsl import ast


def untag(node):
    return ast.untag(node)[0]


class AlikeSource:
    """The listing of an action's moves where components look alike, for KernelSource (its
    `game`, `define`, `label_class`...)."""

    def alike_moves(self, action, bits: int):
        """(the lines before the action's loops, the line before its innermost loop, the lines
        that list `code`, a legal move, in buf[n]) where two components look alike and the
        action takes one; else None."""
        binders = len(action.binders)
        index = next(k for k, a in enumerate(self.game.actions) if a.name == action.name)
        components = self.game.argument_is_component[index][:binders]
        alike = [k for k, component in enumerate(components) if component]
        if not alike or len(set(self.label_class)) == len(self.label_class):
            return None
        mask = (1 << bits) - 1
        name = f"alike_{action.name}"
        body = ["for j in range(start, n):", "    other = buf[j]", "    if other // MOVE_BASE != code // MOVE_BASE:",
                "        continue", "    same = True"]
        for k in range(binders):
            a, b = f"(code >> {bits * k}) & {mask}", f"(other >> {bits * k}) & {mask}"
            if k in alike:
                body += [f"    if LABEL_CLASS[{a}] != LABEL_CLASS[{b}]:", "        continue",
                         f"    same = same and SAME_CLASS[{a}] == SAME_CLASS[{b}]"]
            else:
                body += [f"    if {a} != {b}:", "        continue"]
        body += ["    return 1 if same else -1", "return 0"]
        self.define(f"def {name}(buf, start, n, code):", body)
        outer = [k for k in alike if k < binders - 1]
        if binders > 1 and all(self.distinct_domain(b.domain) for b in action.binders[:-1]):
            if not getattr(self, "single_labels", False):
                self.single_labels = True
                sizes = [self.label_class.count(c) for c in self.label_class]
                self.defs.append(f"SINGLE_LABEL = np.array({[int(s == 1) for s in sizes]!r}, dtype=np.int64)")
            singles = " and ".join(f"SINGLE_LABEL[(code >> {bits * k}) & {mask}] == 1" for k in outer) or "True"
            first = f"run if {singles} else start"
        else:
            first = "start"
        each = [f"alike = {name}(buf, {first}, n, code)", "if alike < 0:", "    S[ERROR] = 1", "    return n",
                "if alike == 0:", "    buf[n] = code", "    n += 1"]
        return (["run = start"], ["run = n"], each) if "run" in first else ([], [], each)

    def distinct_domain(self, domain) -> bool:
        """Whether a binder's domain holds each value once (a list may repeat one)."""
        node = untag(domain)
        if isinstance(node, ast.Range):
            return True
        if isinstance(node, ast.Call) and node.name == "reversed" and len(node.arguments) == 1:
            return self.distinct_domain(node.arguments[0])
        if isinstance(node, ast.Subscript):
            node = untag(node.obj)
        return isinstance(node, ast.Name) and (
            node.id in self.zone_families or node.id in self.ids_of_type or node.id in self.game.enum_members
            or node.id == "players" or node.id in self.boards.geometries)
