"""An action's legal moves in a native kernel where it has two binders or more and its guard
starts with a `let` or an inner binder's filter needs no earlier binder (`card in
hand[current] where card.kind == k`: one pass over the hand a listing, and none of the
loops when it holds no such card), a mixin of rules_source.KernelSource (listing_source.py lists
the others), listed as the engine lists them (compile/lower_actions.py `guard_placement`, `guards_as_filters`): the
binders' domains nested, the first outermost, and each step of the guard (its leading lets and
requires) placed right after the last binder it depends on, so a require that fails skips
every tuple under it, not one tuple at a time. An inner binder with a filter, whose domain and
filter need no earlier binder, is filtered once, before the loops (the engine's fixed domain);
if it holds nothing the action has no move. `moves_NAME(S, cur, buf, start)` writes the moves'
codes into buf from start; `any_NAME(S, cur)` answers whether there is one (`can_play`).

Moves of identical components are listed once (engine/moves.py `merge_by_labels`; the others'
listings: alike_source.py): a move is compared with the moves listed before it, back to the
start of the action's listing; or only back to the start of the innermost loop's run (a few
moves) where that is enough: when every binder but the last takes distinct values (a zone, a
range, an enum, a type, the seats) and the move's components of those binders are each the
only one of their label, a move alike to it has the same outer arguments, so it was listed in
the same run (no table made per listing, no scan of all of it).
"""
from __future__ import annotations

from referee.dsl import ast
from referee.dsl.types import named_type

from ..compile.lower_actions import guard_placement
from ..compile.lower_listing import tells_twins_apart
from ..compile.lower_aggregates import names_in


def untag(node):
    return ast.untag(node)[0]


class PlacedListingSource:
    """moves_NAME and any_NAME for KernelSource (its `expr`, `statement`, `domain_loop`,
    `alike_moves`...)."""

    def placed_listing(self, index: int, action, names: list, scope, move_base: int, bits: int) -> bool:
        """Render moves_NAME and any_NAME if the action's guard starts with a let, or an inner
        binder's filter needs no earlier binder, and can be placed among its loops (True); else
        nothing (False)."""
        first = untag(action.body[0]) if action.body else None
        if not (isinstance(first, ast.Let) or any(self.fixed_binders(action.binders))) or not self.placed_earlier(action):
            return False
        code = " + ".join([str(index * move_base)] + [f"({name} << {bits * k})" for k, name in enumerate(names)])
        fits = " and ".join(f"0 <= {name} < {1 << bits}" for name in names) or "True"
        listed = [f"if n >= MOST_MOVES or not ({fits}):", "    S[ERROR] = 1", "    return n"]
        alike = self.alike_in_runs(action, bits)
        before: list = []
        run: list = []
        once = self.listed_once(action, code) if alike is None else None    # (values met twice: repeats_source.py)
        if once is not None:
            before, each = once
            listed += each
        elif alike is None:
            listed += [f"buf[n] = {code}", "n += 1"]
        else:                       # (moves of identical components are one move)
            before, run, each = alike
            listed += [f"code = {code}", *each]
        self.define(f"def moves_{action.name}(S, cur, buf, start):",
                    ["n = start", *before, *self.placed_loops(action, names, scope, listed, "n", run), "return n"])
        self.define(f"def any_{action.name}(S, cur):",
                    [*self.placed_loops(action, names, scope, ["return True"], "False"), "return False"])
        return True

    def placed_earlier(self, action) -> bool:
        """Whether a binder's filter or a step of the guard can be tested outside the innermost of
        two loops or more."""
        early, placed = guard_placement(action)
        return len(action.binders) > 1 and (bool(early) or any(placed[:-1]) or any(self.fixed_binders(action.binders)))

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
                lines += self.fixed_domain(binder, names[k], scope, none, self.twins_once(action, k))
        for node in early:
            lines += self.guard_step(node, scope, f"return {none}")
        depth = 0
        for k, (binder, name) in enumerate(zip(binders, names)):
            if fixed[k]:
                # (by index: a slice of the owned array would update its count at every round)
                loop = [f"for at_{name} in range(fixed_{name}_n):", f"    {name} = fixed_{name}[at_{name}]"]
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

    def fixed_domain(self, binder, name: str, scope, none: str, twins: bool = False) -> list:
        """An inner binder's domain filtered once: fixed_NAME[:fixed_NAME_n]; with twins, a
        component identical to one kept before it (the same attributes) is not kept."""
        var = self.fresh("x")
        loop, capacity = self.domain_loop(binder, scope, var)
        inner = scope.child(**{binder.name: var})
        test = [] if binder.condition is None else \
            [f"    if not ({self.expr(binder.condition, inner, 'bool')}): continue"]
        if twins:
            if not getattr(self, "twin_helper", False):
                self.twin_helper = True
                self.define("def twin_kept(S, kept, n, x):", [
                    "for k in range(n):", f"    if {self.same_read('kept[k]')} == {self.same_read('x')}:",
                    "        return True", "return False"])
            test.append(f"    if twin_kept(S, fixed_{name}, fixed_{name}_n, {var}): continue")
        return [*loop[:-1], f"fixed_{name} = np.empty({capacity}, dtype=np.int64)", f"fixed_{name}_n = 0",
                loop[-1], *test, f"    fixed_{name}[fixed_{name}_n] = {var}", f"    fixed_{name}_n += 1",
                f"if fixed_{name}_n == 0:", f"    return {none}"]

    def twins_once(self, action, k: int) -> bool:
        """Whether binder k's identical components are tried once, after its filter, as the
        engine's fixed domains try them (compile/lower_listing.py `once_each`): where the
        action's moves are merged by label (its template names every binder) and binder k takes
        one component, and its filter and guard read it by its attributes only (`tells_twins_apart`:
        then twins are all tried and merged after, as in the engine). Twins then make moves merged
        anyway; not trying them saves the guard and the comparison with the moves listed before, on
        every tuple of the outer binders."""
        index = next(i for i, a in enumerate(self.game.actions) if a.name == action.name)
        game = self.game
        if not (game.dedupe_by_labels[index] is not None and game.argument_is_component[index][k]
                and not game.argument_lists_components[index][k] and len(set(self.same_class)) < len(self.same_class)):
            return False
        component = game.types.components[named_type(game.actions[index].binders[k][3])]
        # (attributes that statements change would change which components are twins)
        if ({f.name for f in component.fields} | {"owner"}) & game.types.changed_attributes:
            return False
        early, placed = guard_placement(action)
        return not tells_twins_apart(action.binders[k].name, action, early, placed, game.types.functions)

    def guard_step(self, node, scope, failed: str) -> list:
        if isinstance(node, ast.Require):
            return [f"if not ({self.expr(node.condition, scope, 'bool')}): {failed}"]
        return self.statement(node, scope, flow=False)

    def alike_in_runs(self, action, bits: int):
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
        name = f"alike_run_{action.name}"
        body = ["for j in range(start, n):", "    other = buf[j]", "    if other // MOVE_BASE != code // MOVE_BASE:",
                "        continue", "    same = True"]
        for k in range(binders):
            a, b = f"(code >> {bits * k}) & {mask}", f"(other >> {bits * k}) & {mask}"
            if k in alike:
                body += [f"    if {self.label_read(a)} != {self.label_read(b)}:", "        continue",
                         f"    same = same and {self.same_read(a)} == {self.same_read(b)}"]
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

    def distinct_domain(self, domain, calling: tuple = ()) -> bool:
        """Whether a binder's domain holds each value once (a list may repeat one): a range, a
        zone, a type's ids, the players, a filter or sort of such a domain, either branch of a
        condition, neighbours on boards whose neighbour lists never repeat a cell, a function
        whose body is one of those."""
        node = untag(domain)
        if isinstance(node, ast.Range):
            return True
        if isinstance(node, ast.Conditional):
            return self.distinct_domain(node.then, calling) and self.distinct_domain(node.otherwise, calling)
        if isinstance(node, ast.Aggregate) and node.kind == "filter" and node.value is None \
                or isinstance(node, ast.Ranking) and node.kind == "sorted":
            return self.distinct_domain(node.binder.domain, calling)
        if isinstance(node, ast.Call) and node.name in self.functions:
            return node.name not in calling and self.distinct_domain(self.functions[node.name].body, calling + (node.name,))
        if isinstance(node, ast.Call) and node.name == "reversed" and len(node.arguments) == 1:
            return self.distinct_domain(node.arguments[0], calling)
        if isinstance(node, ast.Call) and node.name == "neighbors" and len(node.arguments) == 1:
            return all(len(set(near)) == len(near) for geometry in self.boards.geometries.values()
                       for near in geometry.neighbors.values())
        if isinstance(node, ast.Subscript):
            node = untag(node.obj)
        return isinstance(node, ast.Name) and (
            node.id in self.zone_families or node.id in self.ids_of_type or node.id in self.game.enum_members
            or node.id == "players" or node.id in self.boards.geometries)
