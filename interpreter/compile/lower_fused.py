"""The actions of one decision that share their first binders listed together by one generated
function (`legal_together_<actions>(s)`), built as IR (ir.py): the shared loops once, then each
action's guard steps and own loops, with the none-ness of a value read once decided per branch
where several test it."""
from __future__ import annotations


import attrs

from referee.dsl import ast

from . import ir
from .lower_naming import identifier
from .blocks import Block
from .expression_facts import is_read_once, is_temporary_or_constant, zone_under_top
from .generated_names import Hoisted, rules_local
from .none_tests import folded, folded_test, none_tests
from .lower_listing import arguments, length, unless, unless_as_long
from .work import ROUND_FREE_WORK


def shape(value):
    """A syntax tree without its spans: two texts that say the same thing have one shape."""
    if isinstance(value, tuple):
        return tuple(shape(item) for item in value)
    if attrs.has(type(value)) and not isinstance(value, ast.Span):
        return (type(value).__name__,) + tuple(shape(getattr(value, f.name)) for f in attrs.fields(type(value))
                                              if f.name != "span")
    return value


def shared_binders(a, b) -> int:
    """How many first binders two actions have alike: the same names, domains and filters."""
    k = 0
    while k < min(len(a.binders), len(b.binders)) and shape(a.binders[k]) == shape(b.binders[k]):
        k += 1
    return k


class FusedListingCompiler:
    """The part of the Compiler that lists several actions together (a mixin of compiler.Compiler)."""

    def emit_merged_domains(self, out, parts, shared) -> set:
        """The fused actions' own first binder after the shared ones, when all of them go over
        the same domain (`card in hand[current] where ...` in each): one pass over it for all,
        each action's filter tried on each value (identical components tried once by those
        that try them once alone, each by the others). The binders so computed (fixed<j>_<k>
        for every action j)."""
        k = shared
        loops = [part.loops[k] if k < len(part.loops) else None for part in parts]
        first = loops[0]
        if first is None or any(loop is None or loop[0] != first[0] or loop[1] != first[1] or not loop[3]
                                or loop[2] is None for loop in loops):
            return set()
        if any(part.random or 1 + self.work.cost(part.action.binders[k].condition) > ROUND_FREE_WORK
               for part in parts):
            return set()        # (a domain that charges its filter, or draws: each alone)
        name, domain = first[0], first[1]
        value = ir.Local(rules_local(name))
        for j, loop in enumerate(loops):
            out.add(1, ir.Assign(f"fixed{j}_{k}", ir.EmptyList()))
            if loop[4]:
                out.add(1, ir.Assign(f"labels{j}_{k}", ir.Call("set")))
        if any(loop[4] for loop in loops):
            out.add(1, ir.Assign("seen", ir.Call("set")))
        out.open(1, ir.ForEach(rules_local(name), domain, ()))
        for once in (False, True):
            members = [j for j, loop in enumerate(loops) if loop[4] == once]
            if once and members:
                out.add(2, *self.once_each(name, "seen"))
            for j in members:
                out.open(2, ir.If(loops[j][2], ()))
                if once:
                    out.add(3, ir.AddToSet(f"labels{j}_{k}", ir.ReadColumn(self.game.component_column("__label__"), value)))
                out.add(3, ir.Append(f"fixed{j}_{k}", value))
        for j, loop in enumerate(loops):
            fixed = ir.Local(f"fixed{j}_{k}")
            if loop[4]:
                out.add(1, unless_as_long(ir.Local(f"labels{j}_{k}"), fixed, ir.Assign(f"exact{j}", ir.Constant(False))))
            elif not loop[5]:
                out.add(1, self.repeated(fixed, ir.Assign(f"exact{j}", ir.Constant(False))))
        return {k}

    def fused_listing(self, indexes):
        """The actions of one decision that share their first binders (`r in rows, k in 1..n`
        for two actions that both begin so) listed by one generated function: the shared
        loops once, each value read at their levels once, then each action's guard steps and
        own binders in turn, in its own list. f(s) -> {action index: (tuples, exact)}, the
        same tuples as each action's own enumerator, or None when no two actions share their
        first two binders (or with coverage, or where a domain draws at random)."""
        if self.coverage is not None or len(indexes) < 2:
            return None
        declared = list(self.types.actions.values())
        group = [i for i in indexes if len(declared[i].binders) >= 2 and not self.guard_placement(declared[i])[0]]
        if len(group) < 2:
            return None
        first = declared[group[0]]
        group = [i for i in group if shared_binders(first, declared[i]) >= 2]
        if len(group) < 2:
            return None
        shared = min(shared_binders(first, declared[i]) for i in group)
        # the actions whose shared binders loop alike (independent domains, the same way of
        # trying identical components) and that pass no guard step before the last of them
        ctx, fixed_ctx = self.enumeration_contexts()
        tried = {i: self.enumeration_part(declared[i], self.actions[i].template or "", ctx, fixed_ctx, shared)
                 for i in group}
        base = tried[group[0]].loops[:shared]

        def loops_alike(loop, model):
            # (or one that tries identical components each, where the first tries them once:
            # it shares the loops when the listing finds no two identical ones there)
            return loop[3] == model[3] and loop[5] == model[5] and (
                loop[4] == model[4] or (model[4] and not loop[4] and is_temporary_or_constant(model[1])))
        group = [i for i in group if not tried[i].random and not any(tried[i].stage_nodes[k] for k in range(shared - 1))
                 and all(loop[3] for loop in tried[i].loops[:shared])
                 and all(loops_alike(loop, model) for loop, model in zip(tried[i].loops[:shared], base))]
        if len(group) < 2 or group[0] != next(iter(tried)):
            return None
        # per action: the shared levels where the first dedupes identical components and it does not
        plain = [[k for k in range(shared) if base[k][4] and not tried[i].loops[k][4]] for i in group]
        ctx, fixed_ctx = self.enumeration_contexts()
        parts, own_hoists = [], []
        for i in group:
            action = declared[i]
            bound, known = dict(ctx.bound), set(ctx.hoist.values())
            part = self.enumeration_part(action, self.actions[i].template or "", ctx, fixed_ctx, shared)
            # what this action reads at its own levels is its own: the next one makes its own
            own = {source: temp for source, temp in ctx.hoist.items()
                   if temp not in known and ctx.levels[temp] >= shared}
            for source in own:
                del ctx.hoist[source]
            ctx.bound = bound
            for b in action.binders[shared:]:
                ctx.levels.pop(rules_local(b.name), None)
            parts.append(part)
            own_hoists.append(own)
        if not all(is_temporary_or_constant(parts[0].loops[k][1]) for levels in plain for k in levels):
            return None         # (a shared domain whose length cannot be read again: each alone)
        out = Block(first.span)
        # an action listed apart (None) where the shared loops skipped identical components it tries each
        listed = [ir.Tuple((ir.Local(f"out{j}"), ir.BoolOp("and", (ir.Local(f"exact{j}"), ir.Local("exact_s")))
                                                 if parts[j].static_unique else ir.Constant(False)))
                  for j in range(len(group))]
        result = ir.ByAction(tuple(ir.Constant(i) for i in group), tuple(
            listed[j] if not plain[j] else ir.Conditional(ir.Local(f"alike{j}"), listed[j], ir.Constant(None))
            for j in range(len(group))))
        done = ir.Return(result)
        for j in range(len(group)):
            out.add(1, ir.Assign(f"out{j}", ir.EmptyList()), ir.Assign(f"exact{j}", ir.Constant(True)),
                    ir.Assign(f"on{j}", ir.Constant(True)))
            if plain[j]:
                out.add(1, ir.Assign(f"alike{j}", ir.Constant(False)))
        out.add(1, ir.Assign("exact_s", ir.Constant(True)))
        self.emit_hoisted(out, ctx, -1, 1)
        self.emit_fixed_domains(out, parts[0], "s", "exact_s", (done,), levels=range(shared))
        for j in range(len(group)):
            if plain[j]:
                # no two identical components among the shared values: the same loops as its own
                alike = [ir.Compare("==", length(f"seens{k}"), ir.Call("len", (parts[0].loops[k][1],)))
                         for k in plain[j]]
                out.add(1, ir.Assign(f"alike{j}", alike[0] if len(alike) == 1 else ir.BoolOp("and", tuple(alike))),
                        unless(ir.Local(f"alike{j}"), ir.Assign(f"on{j}", ir.Constant(False))))
        merged = self.emit_merged_domains(out, parts, shared)
        for j, part in enumerate(parts):
            # the action's own domains: one that is empty leaves it without moves
            block = Block(part.action.span)
            off = (ir.Assign(f"on{j}", ir.Constant(False)), ir.Break())
            for k in merged:
                block.add(1, unless(ir.Local(f"fixed{j}_{k}"), *off))
            self.emit_fixed_domains(block, part, f"{j}_", f"exact{j}", off,
                                    levels=[k for k in range(shared, len(part.loops)) if k not in merged])
            self.charge_fixed_product(block, part, [f"fixeds{k}" for k in range(shared)] + [
                f"fixed{j}_{k}" for k in range(shared, len(part.loops)) if part.loops[k][3]], 1)
            if block:
                out.open(1, ir.While(ir.Constant(True), ()))
                out.extend(block, 1)
                out.add(2, ir.Break())
        out.add(1, unless(ir.BoolOp("or", tuple(ir.Local(f"on{j}") for j in range(len(group)))), done))
        indent = 1
        for k in range(shared):
            indent = self.emit_loop(out, parts[0], ctx, k, indent, f"fixeds{k}", steps=False)
        splits = [self.none_split(part, ctx, shared - 1) if self.nested_steps(part, shared) else None for part in parts]
        common = max(set(splits) - {None}, key=splits.count, default=None)
        if common is not None and splits.count(common) >= 2:
            # several actions test the same value's none-ness: one split for all of them
            pile = self.top_of_zone(ctx, common)
            for case in (True, False):
                if case:
                    out.open(indent, ir.If(ir.Compare("is", ir.Local(common), ir.Constant(None)), ()))
                else:
                    out.otherwise(indent)
                known = {common: case} if pile is None else {common: case, ("truthy", pile): not case}
                for j, (part, own) in enumerate(zip(parts, own_hoists)):
                    self.emit_fused_action(out, part, ctx, shared, indent + 1, j, own, known, splits[j] == common)
        else:
            for j, (part, own) in enumerate(zip(parts, own_hoists)):
                self.emit_fused_action(out, part, ctx, shared, indent, j, own, None, False)
        for j, part in enumerate(parts):
            out.add(2, self.too_many_moves(f"out{j}", part.action))
        out.add(1, done)
        name = "_".join(identifier(declared[i].name) for i in group)
        return self.define_listing(f"legal_together_{name}", out, ctx, self.where(first))

    @staticmethod
    def top_of_zone(ctx, temp):
        """The name of the zone read that `temp` is the top card of (`(_h1[-1] if _h1 else
        None)`, _h1 a zone's list: its cards are never none, so temp is none exactly when the
        zone is empty), or None."""
        return zone_under_top({t: value for value, t in ctx.hoist.items()}, temp)

    def nested_steps(self, part, shared) -> bool:
        """Whether a fused action's guard steps at the last shared level are written as nested
        ifs (not so many that Python's indentation limit is near, and no coverage counters)."""
        steps = part.stage_nodes[shared - 1]
        return len(steps) <= 16 and all(self.counter(node) is None for node in steps)

    def emit_fused_action(self, out, part, ctx, shared, indent, j, own, known, split_outside):
        """One fused action inside the shared loops: its guard steps at the last shared level
        and its own loops. known: the none-ness of a value decided by the branch this is
        written in; split_outside: that branch is the action's own none split."""
        steps = part.stage_nodes[shared - 1]
        on = ir.If(ir.Local(f"on{j}"), ())
        if not self.nested_steps(part, shared):
            out.open(indent, on)
            out.open(indent + 1, ir.While(ir.Constant(True), ()))
            self.emit_steps(out, part, steps, indent + 2, (ir.Break(),))
            self.emit_action_loops(out, part, ctx, shared, indent + 2, j, own)
            out.add(indent + 2, ir.Break())
            return
        if known and any(part.sources[id(node)][0] == "require" and folded(part.sources[id(node)][2], known) is False
                         for node in steps):
            return          # no move in this case
        if split_outside:
            out.open(indent, on)
            inner = self.emit_nested_steps(out, part, steps, indent + 1, known)
            self.emit_action_loops(out, part, ctx, shared, inner, j, own, known)
            return
        out.open(indent, on)
        split = self.none_split(part, ctx, shared - 1)
        if split is None:
            inner = self.emit_nested_steps(out, part, steps, indent + 1, known)
            self.emit_action_loops(out, part, ctx, shared, inner, j, own, known)
            return
        # the guard's none tests of that value decided in each case; a case where a step
        # is false lists nothing (no `else` of its own)
        live = [case for case in (True, False)
                if not any(part.sources[id(node)][0] == "require"
                           and folded(part.sources[id(node)][2], {**(known or {}), split: case}) is False for node in steps)]
        for n, case in enumerate(live):
            if n == 0:
                out.open(indent + 1, ir.If(ir.Compare("is" if case else "is not", ir.Local(split), ir.Constant(None)), ()))
            else:
                out.otherwise(indent + 1)
            decided = {**(known or {}), split: case}
            inner = self.emit_nested_steps(out, part, steps, indent + 2, decided)
            self.emit_action_loops(out, part, ctx, shared, inner, j, own, decided)

    def emit_nested_steps(self, out, part, nodes, indent, known=None):
        """Guard steps without coverage counters as nested ifs (what follows runs inside the
        last one); the depth of what follows, or None when a step is decided false by `known`
        (which values are none: folded()), so that nothing passes."""
        for node in nodes:
            out.span = node.span
            kind, name, source = part.sources[id(node)]
            if kind == "let":
                if not is_read_once(source):      # (else: the steps after it use that name)
                    out.add(indent, ir.Assign(rules_local(name), source))
            else:
                test = folded_test(source, known)
                if test is False:
                    return None
                if test is not True:
                    out.open(indent, ir.If(test, ()))
                    indent += 1
        return indent

    def emit_action_loops(self, out, part, ctx, shared, inner, j, own, known=None):
        """A fused action's own binders' loops (after the shared ones) and its tuples."""
        move = ir.Append(f"out{j}", arguments(b.name for b in part.action.binders))
        for k in range(shared, len(part.loops)):
            innermost = (move,) if k == len(part.loops) - 1 else None
            inner = self.emit_loop(out, part, ctx, k, inner, f"fixed{j}_{k}", own, body=innermost, known=known)
        if inner is not None:
            out.add(inner, move)

    def none_split(self, part, ctx, k):
        """A value read once at loop level k whose none-ness the guard steps there test (`under
        == none or ...`): the loop body is then written once for each case, the tests decided.
        Its name, or None."""
        sources = [part.sources[id(node)][2] for node in part.stage_nodes[k]]
        for m in range(k + 1, len(part.loops)):
            sources += [part.sources[id(node)][2] for node in part.stage_nodes[m]]
        for temp, level in ctx.levels.items():
            if level == k and isinstance(temp, Hoisted) and temp not in ctx.lazy and \
                    none_tests(temp, sources) >= 2:
                return temp
        return None
