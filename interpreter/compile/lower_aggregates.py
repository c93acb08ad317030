"""The rules' aggregates (count, sum, any, all, filter, map, first, min, max) and rankings lowered
to the IR (ir.py): comprehensions with the filter fused, unrolled over small constant ranges,
read from a variable's table, or (a function's whole body) loops that stop at the answer.
A mixin of codegen.SourceGenerator."""
from __future__ import annotations

import attrs

from referee.dsl import ast
from referee.dsl.builtins import SEAT_LISTS
from referee.dsl.types import INT, ListOf, Type, ZoneOf, element_type

from ..runtime import maps
from . import ir
from .expression_facts import (attributes_read_once, binds_locals, filter_values, is_comprehension_variable,
                               is_temporary, name_of, names_written, reusing, temporaries_of_their_own, top_of_tested,
                               truth)
from .generated_names import ComponentColumn, ComprehensionVariable, ModuleValue, rules_local
from .key_rows import KeyRows

UNROLL = 12             # aggregates over a constant range this small are unrolled
NONE, TRUE, ZERO = ir.Constant(None), ir.Constant(True), ir.Constant(0)


def grouped_or_zero(value: ir.Expression) -> ir.Expression:
    """`(value or 0)`: a value that may be none counted as zero."""
    return ir.Grouped(ir.BoolOp("or", (value, ZERO)))


def found(answer: bool) -> tuple[ir.Statement, ...]:
    """A loop that stops at its answer."""
    return (ir.Assign("value", ir.Constant(answer)), ir.Break())


@attrs.frozen
class MaintainedFilter:
    """What a cached filter kept up to date from the zones that changed needs (maintained.py)."""
    target: str           # the loop's target over the rows (the value, its keys)
    tested: ir.Expression         # (value, passes) of a row
    rows_of_key: ir.Expression    # {zone key: the row that reads it}
    order: ir.Expression          # {value: its place in the domain}, or None when ascending
    limit: int            # more changes than this since the last value: computed whole


class AggregateLowering:
    """Aggregates and rankings -> IR (see the module's docstring)."""

    # ---- comprehensions ----
    def lowered_comprehension(self, binder, scope, ctx, rows=False):
        """(variable, domain, filter or None, inner scope, inner context); with `rows`,
        inner.rows collects the zone keys a loop over a fixed domain may build once."""
        c = self.compiler
        ctx.no_walrus += 1
        # neighbours only iterated: the board's own tuple, no copy
        ctx.iterating = isinstance(binder.domain, ast.Call) and binder.domain.name == "neighbors"
        try:
            domain = self.collection_node(binder.domain, scope, ctx)
        finally:
            ctx.no_walrus -= 1
        self.count += 1
        var = ComprehensionVariable(f"a{self.count}_{binder.name}")
        domain_type = c.type_value(binder.domain, scope)
        inner_scope = scope.child(**{binder.name: element_type(domain_type).without_none()})
        inner = ctx.child(**{binder.name: ir.Local(var)})
        values = c.static_domain(binder.domain) if rows else None
        inner.rows = KeyRows(self, var, values) if values else None
        if self.never_none_domain(binder.domain, domain_type, scope):
            self.safe_names.add(var)
        where = truth(self.lower(binder.condition, inner_scope, inner)) if binder.condition is not None else None
        return var, domain, where, inner_scope, inner

    def row_iteration(self, rows, domain):
        """(loop targets, iterable) of a comprehension: its variable over `domain` as it was, or
        with the rows of the zone keys it reads (KeyRows)."""
        if not rows.templates:
            return (rows.var,), domain
        names, found, make = rows.tables()
        invariants = tuple(ir.Local(name) for name in rows.invariants)
        key = invariants[0] if len(invariants) == 1 else ir.RowKey(invariants)
        made = ir.BoolOp("or", (ir.Method(ir.Global(found), "get", (key,)), ir.Call(make, invariants)))
        return (rows.var, *names), ir.Grouped(made)

    def never_none_domain(self, domain, domain_type: Type, scope) -> bool:
        c = self.compiler
        if isinstance(domain_type.without_none(), ZoneOf) or isinstance(domain, ast.Range):
            return True
        return isinstance(domain, ast.Name) and (domain.id in c.types.components or domain.id in c.types.boards
                                                 or domain.id in SEAT_LISTS)

    def charged(self, node, domain):
        """The domain of an aggregate (or ranking), charged to the step's work budget when it
        runs unless what it costs is bounded when compiling (work.py)."""
        charged, units = self.compiler.work.iteration(node)
        if not charged:
            return domain
        span = ir.Global(self.bind(node.span, "span"))
        return ir.Call("charged", (ir.Global("STEP"), domain, ir.Constant(units), span))

    # ---- small constant ranges: one expression per value ----
    def small_range(self, binder, ctx):
        """The values of a binder over a constant range of at most UNROLL numbers, else None."""
        domain = binder.domain
        if not isinstance(domain, ast.Range):
            return None
        low, high = self.constant_of(domain.low, ctx), self.constant_of(domain.high, ctx)
        if low is None or high is None or not all(isinstance(v[0], int) and not isinstance(v[0], bool)
                                                  for v in (low, high)):
            return None
        values = range(low[0], high[0] + 1)
        return values if 0 < len(values) <= UNROLL else None

    def unrolled(self, node, scope, ctx):
        """any/all/count/sum over a small constant range as one expression per value, joined
        (no comprehension, and a zone read per value can be hoisted like any other)."""
        values = self.small_range(node.binder, ctx)
        kind = node.kind
        if values is not None and node.value is None and node.binder.condition is not None and \
                kind in ("first", "min", "max"):
            # the first value (the smallest, or the largest from the end) that passes: tried in order
            inner_scope = scope.child(**{node.binder.name: INT})
            chain = NONE
            tried = list(values) if kind != "max" else list(values)[::-1]
            for value in reversed(tried):      # built from the last one tried
                inner = ctx.child(**{node.binder.name: ir.Constant(value)})
                condition = self.lower(node.binder.condition, inner_scope, inner)
                chain = ir.Grouped(ir.Conditional(condition, ir.Constant(value), chain, layout="chain"))
            return chain
        if values is None or kind not in ("any", "all", "count", "sum") or \
                (kind in ("any", "all") and node.value is not None and node.binder.condition is not None):
            return None
        inner_scope = scope.child(**{node.binder.name: INT})
        parts = []
        for value in values:
            inner = ctx.child(**{node.binder.name: ir.Constant(value)})
            where = node.binder.condition
            condition = self.lower(where, inner_scope, inner) if where is not None else None
            if condition is not None and not self.boolean(where, inner_scope):
                condition = ir.Call("bool", (condition,))
            body = self.lower(node.value, inner_scope, inner) if node.value is not None else None
            if body is not None and kind in ("any", "all") and not self.boolean(node.value, inner_scope):
                body = ir.Call("bool", (body,))
            if kind in ("any", "all"):
                parts.append(condition if body is None else body)
            elif kind == "count":
                parts.append(condition if condition is not None else ir.Constant(1))
            else:
                term = grouped_or_zero(body if body is not None else ir.Constant(value))
                parts.append(term if condition is None else ir.Grouped(ir.Conditional(condition, term, ZERO)))
        if kind in ("any", "all"):
            if parts[0] is None:          # all/any of a non-empty range without a filter or a value
                return TRUE
            return ir.Grouped(ir.BoolOp("or" if kind == "any" else "and", tuple(parts), spread=True))
        total = ZERO
        for part in parts:
            total = ir.Arithmetic("+", total, part, spread=True)
        return ir.Grouped(total)

    # ---- aggregates ----
    def visit_Aggregate(self, node, scope, ctx):
        if id(node) in self.substitutions:        # an index stands for it (Compiler.equality_index)
            return self.substitutions[id(node)]
        indexed = self.compiler.indexed_reads.get(id(node))
        if indexed is not None:
            return self.indexed_aggregate(node, indexed, scope, ctx)
        # (one that charges, or holds one that does, is a loop: work.py)
        unrolled = self.unrolled(node, scope, ctx) if self.compiler.work.may_unroll(node) else None
        if unrolled is not None:
            return unrolled
        invariant = self.invariant_first(node, scope, ctx)
        if invariant is not None:
            return invariant
        var, domain, where, inner_scope, inner = self.lowered_comprehension(node.binder, scope, ctx, rows=True)
        body = self.lower(node.value, inner_scope, inner) if node.value is not None else ir.Local(var)
        if node.value is not None and where is not None:
            where, body = top_of_tested(where, body)
        if node.value is not None and where is not None and binds_locals(where):
            body = reusing(body, filter_values(where))      # sum(x where f(x) > 0: f(x)): f once
        targets, rows = self.row_iteration(inner.rows, domain) if inner.rows is not None else ((var,), domain)
        domain = self.charged(node, domain)
        rows = self.charged(node, rows)

        def loop(element, generator=False):      # (a long one breaks where the body is long)
            return ir.Comprehension(element, targets, rows, where, generator,
                                    measure=None if element is body else body)
        kind = node.kind
        if kind == "longest_trail":      # the routes with their weights, searched by the runtime
            weighted = ir.Tuple((ir.Local(var), body if node.value is not None else ir.Constant(1)))
            return ir.Call(self.bind(maps.longest_trail), (ir.TheState(), loop(weighted)))
        if kind == "count":
            return ir.Call("len", (domain,)) if where is None else ir.Call("len", (loop(ir.Constant(1)),))
        if kind == "filter":
            return ir.Call("list", (domain,)) if where is None else loop(body)
        if kind == "map":
            return loop(body)
        if kind == "first":
            if where is None:
                return ir.Call("next", (ir.Call("iter", (domain,)), NONE))      # (no generator to make)
            return ir.Call("next", (ir.Grouped(loop(body, True)), NONE))
        if kind in ("any", "all") and node.value is None:
            # no ':' part: any = some item passes the filter, all = every item passes it
            if kind == "any":
                return ir.Call("any", (loop(TRUE, True),))
            return TRUE if where is None else ir.Call("all", (ir.Comprehension(where, targets, rows, None, True),))
        if kind in ("any", "all"):
            return ir.Call(kind, (loop(body, True),))
        if kind == "sum":
            return ir.Call("sum", (loop(grouped_or_zero(body)),))
        return ir.Call("largest" if kind == "max" else "smallest", (loop(body),))

    def invariant_first(self, node, scope, ctx):
        """`any(x in D where A or B)` whose first disjuncts A do not name x (`size(pool) > 0 or
        can_take(t)`): A is the same for every item, so it is tested once, when D is not
        empty, and B alone per item: `(D and A) or any(x in D where B)`, D read once. The same
        answer and the same errors (A is what each item tries first). None where it does not
        apply (invariant_split)."""
        split = self.invariant_split(node, scope) if not ctx.no_walrus else None
        if split is None:
            return None
        rest, invariant = split
        var, domain, where, _, _ = self.lowered_comprehension(rest.binder, scope, ctx)
        invariant = truth(self.lower(invariant, scope, ctx))
        if name_of(domain) is not None:
            bound = items = domain
        else:
            temp = self.temp()
            items, bound = ir.Local(temp), ir.Named(temp, domain)
        each = ir.Comprehension(TRUE, (var,), self.charged(rest, items), where, True, spread=False)
        first = ir.Grouped(ir.BoolOp("and", (bound, invariant)))
        return ir.Grouped(ir.Conditional(first, TRUE, ir.Call("any", (each,))))

    def invariant_split(self, node, scope):
        """(the aggregate with B alone as its filter, A) of `any(x in D where A or B)` whose
        first disjuncts A do not name x and draw nothing; None where A names x, where D is no
        zone or list (whose truth says whether it is empty) or a board's cells (never empty,
        read by rows)."""
        condition = node.binder.condition
        if node.kind != "any" or node.value is not None or not isinstance(condition, ast.Or) \
                or self.compiler.static_domain(node.binder.domain):
            return None
        if not isinstance(self.compiler.type_value(node.binder.domain, scope).without_none(), (ZoneOf, ListOf)):
            return None
        disjuncts = []

        def flatten(n):
            if isinstance(n, ast.Or):
                flatten(n.left)
                flatten(n.right)
            else:
                disjuncts.append(n)
        flatten(condition)
        k = 0
        while k < len(disjuncts) and node.binder.name not in names_in(disjuncts[k]) and self.pure(disjuncts[k]):
            k += 1
        if k == 0 or k == len(disjuncts):
            return None

        def joined(parts):
            out = parts[0]
            for part in parts[1:]:
                out = ast.Or(condition.span, out, part)
            return out
        rest = attrs.evolve(node, binder=attrs.evolve(node.binder, condition=joined(disjuncts[k:])))
        self.made_nodes.append(rest)
        return rest, joined(disjuncts[:k])

    def pure(self, node) -> bool:
        """Whether evaluating an expression draws nothing (no pick, no `after`): its value is
        the same however often it is evaluated in one state."""
        random = self.compiler.random_functions
        return not any(isinstance(n, ast.After) or (isinstance(n, ast.Call) and (n.name == "pick" or n.name in random))
                       for n in ast.walk(node))

    # ---- a function's whole body ----
    def maintained_filter(self, node, scope, ctx, parameters):
        """A cached function's body that is a filter over a fixed domain: (its IR, and when
        its condition reads the state only through zone keys naming the filter's variable, a
        MaintainedFilter; else None). None when the body is not such a filter."""
        c = self.compiler
        if not isinstance(node, ast.Aggregate) or node.kind != "filter" or node.value is not None or \
                node.binder.condition is None or isinstance(node.binder.domain, ast.Range) or \
                id(node) in self.substitutions or id(node) in c.indexed_reads or c.work.iteration(node)[0]:
            return None
        values = c.static_domain(node.binder.domain)
        if not values or len(set(values)) != len(values):
            return None
        var, domain, where, _, inner = self.lowered_comprehension(node.binder, scope, ctx, rows=True)
        if not inner.rows.templates:
            return ir.Comprehension(ir.Local(var), (var,), domain, where, spread=False), None
        targets, rows = self.row_iteration(inner.rows, domain)
        scan = ir.Comprehension(ir.Local(var), targets, rows, where, spread=False)
        row_names = {row for row, _ in inner.rows.templates.values()}
        if not self.reads_only_rows(where, var, row_names, {rules_local(p) for p in parameters}):
            return scan, None
        ascending = all(isinstance(x, int) for x in values) and list(values) == sorted(values)
        order = NONE if ascending else ir.Global(self.bind({x: k for k, x in enumerate(values)}, "order"))
        return scan, MaintainedFilter(", ".join(targets), ir.Tuple((ir.Local(var), where)), inner.rows.rows_of_keys(),
                                      order, len(values))

    def stopping_loop(self, node, scope, ctx):
        """A function's body that is `any` or `all` over a domain: statements that set `value` by a
        loop that stops at the answer, as the aggregate would (no generator made and resumed
        per item); None when the body is no such aggregate, or one written otherwise
        (unrolled, an index)."""
        c = self.compiler
        if not isinstance(node, ast.Aggregate) or node.kind not in ("any", "all") or \
                id(node) in self.substitutions or id(node) in c.indexed_reads or \
                (c.work.may_unroll(node) and self.small_range(node.binder, ctx) is not None):
            return None
        split = self.invariant_split(node, scope)
        if split is not None:
            # any(x in D where A or B), A the same for every item: tested once (invariant_first)
            rest, invariant = split
            var, domain, where, _, _ = self.lowered_comprehension(rest.binder, scope, ctx)
            items = ir.Local(self.temp())
            test = ir.BoolOp("and", (items, truth(self.lower(invariant, scope, ctx))))
            each = ir.ForEach(var, self.charged(rest, items), (ir.If(where, found(True)),))
            return (ir.Assign("value", ir.Constant(False)), ir.Assign(items.name, domain),
                    ir.If(test, (ir.Assign("value", TRUE),), (each,)))
        var, domain, where, inner_scope, inner = self.lowered_comprehension(node.binder, scope, ctx, rows=True)
        body = self.lower(node.value, inner_scope, inner) if node.value is not None else None
        if body is not None and where is not None and binds_locals(where):
            body = reusing(body, filter_values(where))
        targets, rows = self.row_iteration(inner.rows, domain) if inner.rows is not None else ((var,), domain)
        answer = node.kind == "any"        # the answer of the item that stops the loop
        reads, (where, body) = attributes_read_once([where, body], self.temp)
        before = tuple(ir.Assign(temp, read) for temp, read in reads)
        if answer:       # any: an item that passes the filter and whose value is true
            tests = [ir.Grouped(t) for t in (where, body) if t is not None]
        elif body is not None:      # all: an item that passes the filter, its value false
            tests = [ir.Grouped(t) for t in (where,) if t is not None] + [ir.Not(ir.Grouped(body))]
        elif where is not None:     # all: an item that fails
            tests = [ir.Not(ir.Grouped(where))]
        else:
            return (ir.Assign("value", TRUE),)          # all of a domain without a filter or a value
        stop = (ir.If(ir.BoolOp("and", tuple(tests)), found(answer)),) if tests else found(True)
        return (ir.Assign("value", ir.Constant(not answer)), *before,
                ir.ForEach(", ".join(targets), self.charged(node, rows), stop))

    # what a maintained filter's condition may name besides its rows and values: pure helpers
    PURE_NAMES = frozenset({"len", "any", "all", "next", "iter", "sum", "min", "max", "bool", "abs", "list",
                            "tuple", "set", "sorted", "EMPTY", "none_error", "item_at", "present", "within",
                            "order", "largest", "smallest"})

    def reads_only_rows(self, where, var, row_names, parameters) -> bool:
        """Whether a filter's condition reads the state only as the zones of its rows' keys (so
        a value's answer changes only when a key of its row does): the comprehension's
        variable, the parameters, temporaries, columns of attributes (no statement changes
        them: the function reads no variable), values bound when compiling, pure helpers."""
        for name, node in names_written(where):
            if name == "_Z":
                key = node.key if isinstance(node, ir.ReadZone) else None
                if not (isinstance(key, ir.Local) and key.name in row_names):
                    return False
            elif not (name == var or name in row_names or name in parameters or name in self.PURE_NAMES
                      or is_temporary(name) or isinstance(name, ComponentColumn) or is_comprehension_variable(name)
                      or (isinstance(name, ModuleValue) and name in self.namespace)):
                return False
        return True

    # ---- a variable's table of values ----
    def indexed_keys_node(self, indexed, scope, ctx, ordered=True):
        """The indexes of a variable that hold a value, from the table the state keeps of it
        (Compiler.var_indexes): a list not to be changed (in domain order unless not `ordered`)."""
        c = self.compiler
        family, value, _, _ = indexed
        domain = ir.Global(self.bind(c.static_domain(c.types.vars[family].index[0]), "domain"))
        default = self.literal_node(c.game.var_defaults[family])
        table = ir.Call("var_table", (ir.TheState(), ir.Constant(family), domain, default))
        if value is not None:
            return ir.Method(table, "get", (self.lower(value, scope, ctx), ir.Global("EMPTY")))
        # v[x] == x: the values that are indexes and among the indexes holding them, in domain
        # order (a few values, where the domain is a board's cells)
        positions = c.game.var_positions[family]
        place = ir.Global(self.bind(positions, "positions"))
        x = ir.Local("x")
        holding = ir.BoolOp("and", (ir.Compare("in", x, place), ir.Compare("in", x, ir.Local("holding"))))
        found = ir.Comprehension(x, ("x", "holding"), ir.Method(table, "items"), holding, spread=False)
        if not ordered:
            return found
        if all(type(x) is int for x in positions) and list(positions) == sorted(positions):
            return ir.Call("sorted", (found,))
        return ir.Call("sorted", (found, ir.Keyword("key", ir.Field(place, "__getitem__"))))

    def indexed_aggregate(self, node, indexed, scope, ctx):
        """filter/count/any/all over a variable's domain by its value: the table's indexes for
        that value, tried against the other conditions that name the binder, if any; the
        conditions that do not are tested once."""
        _, _, guards, rest = indexed
        kind = node.kind
        ctx.no_walrus += 1          # (the iterable of a comprehension)
        try:
            keys = self.indexed_keys_node(indexed, scope, ctx, ordered=kind == "filter")
        finally:
            ctx.no_walrus -= 1
        if rest:
            condition = rest[0]
            for more in rest[1:]:
                condition = ast.And(condition.span, condition, more)
            var, _, where, _, _ = self.lowered_comprehension(attrs.evolve(node.binder, condition=condition), scope, ctx)
            items = self.charged(node, keys)

            def loop(element, generator=False):
                return ir.Comprehension(element, (var,), items, where, generator, spread=False)
            found = {"filter": lambda: loop(ir.Local(var)), "count": lambda: ir.Call("len", (loop(ir.Constant(1)),)),
                     "any": lambda: ir.Call("any", (loop(TRUE, True),))}[kind]()
        else:
            fresh = indexed[1] is None      # (the fixed points are a new list: no copy)
            found = {"filter": keys if fresh else ir.Call("list", (keys,)), "count": ir.Call("len", (keys,)),
                     "any": ir.Grouped(ir.Not(ir.Not(keys))), "all": ir.Grouped(ir.Not(keys))}[kind]
        if not guards:
            return found
        test = ir.BoolOp("and", tuple(ir.Grouped(self.lower(g, scope, ctx)) for g in guards))
        otherwise = {"filter": ir.NewList(()), "count": ZERO, "any": ir.Constant(False), "all": TRUE}[kind]
        return ir.Grouped(ir.Conditional(test, found, otherwise))

    # ---- rankings ----
    def visit_Ranking(self, node, scope, ctx):
        var, domain, where, inner_scope, inner = self.lowered_comprehension(node.binder, scope, ctx)
        domain = self.charged(node, domain)
        keys = [grouped_or_zero(self.lower(k, inner_scope, inner)) for k in node.keys]
        later = keys[1:]
        # a key the filter computed already (`by f(p)` after `where f(p) > 0`): its value, read
        # in the same item's round (not in the lambda below: that runs after the loop)
        kept = filter_values(where) if where is not None and binds_locals(where) else {}
        reused = [grouped_or_zero(reusing(self.lower(k, inner_scope, inner), kept)) for k in node.keys] if kept \
            else keys
        if (node.kind != "sorted" and later and temporaries_of_their_own(tuple(later), (reused[0], where))
                and not any(isinstance(n, ast.Call) and n.name in self.compiler.random_functions
                            for n in ast.walk(node.keys[1:]))):
            # the tie-breaking keys only for the tied values (a lambda, whose ':=' bind there:
            # only temporaries the keys bind and read themselves; a draw must happen as often
            # as before)
            return ir.Ranked(node.kind, (reused[0],), var, domain, where, tuple(later))
        return ir.Ranked(node.kind, tuple(reused), var, domain, where)


def names_in(node) -> set:
    """Every name an expression mentions (a safe over-approximation of what it depends on)."""
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
