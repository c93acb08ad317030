"""An action's legal moves listed by one generated function (`legal_<action>(s)`), built as IR
(ir.py) and rendered once: a loop per binder, the values read once per loop level, each guard
step right after the binders it needs, the domains that need no earlier binder computed once."""
from __future__ import annotations

import attrs

from referee.dsl import ast
from referee.dsl.limits import MAX_LEGAL_MOVES
from referee.dsl.templates import parse_template
from referee.dsl.types import ListOf, element_type, named_type

from . import ir
from .lower_naming import identifier
from .blocks import Block
from .codegen import Context, names_in
from .expression_facts import (called_function, constant_range, is_bound_constant, is_read_once,
                               is_temporary_or_constant, one_call, rewritten, top_of, truth,
                               walk_written)
from .generated_names import rules_local
from .key_rows import KeyRows
from .passes import LISTING_PASSES, run_passes
from .none_tests import either_or, folded_plain
from .work import ROUND_FREE_WORK

OUT, EXACT = ir.Local("out"), ir.Local("exact")
FALSE = ir.Constant(False)


def unless(test: ir.Expression, *then: ir.Statement) -> ir.ShortIf:
    """`if not test: then` on one line."""
    return ir.ShortIf(ir.Not(test), then)


def arguments(names) -> ir.Arguments:
    return ir.Arguments(tuple(ir.Local(rules_local(name)) for name in names))


def length(name: str) -> ir.Call:
    return ir.Call("len", (ir.Local(name),))


def unless_as_long(some: ir.Expression, other: ir.Expression, then: ir.Statement) -> ir.ShortIf:
    """`then` when two collections are not as long as each other."""
    return ir.ShortIf(ir.Compare("!=", ir.Call("len", (some,)), ir.Call("len", (other,))), (then,))


def product(factors: list[ir.Expression]) -> ir.Expression:
    result = factors[0]
    for factor in factors[1:]:
        result = ir.Arithmetic("*", result, factor)
    return result


def with_cached_reads(function: ir.Function, ctx) -> ir.Function:
    """The function with each call made on first use (codegen's hoisted_lazy, an ir.FirstUse)
    an ir.Cached, that a pass can see."""
    lazy = {temp for temp in ctx.hoist.values() if temp in ctx.lazy}

    def cut(node: ir.Node) -> ir.Node:
        if isinstance(node, ir.FirstUse) and node.target in lazy:
            return ir.Cached(node.target, node.value)
        return ir.rebuilt(node, cut)
    return cut(function) if lazy else function     # type: ignore[return-value]


@attrs.define
class EnumerationPart:
    """An action's binders and guard compiled for listing its moves (Compiler.enumeration_part)."""
    action: object
    loops: list                # per binder: (name, domain, filter, independent, same, unique, component)
    sources: dict              # id(let or require node) -> (kind, name, source)
    early_nodes: list          # guard steps that need no binder
    stage_nodes: list          # per binder: the guard steps placed right after it
    names_all: bool            # the label shows every binder
    static_unique: bool        # no two argument tuples can show the same labels
    random: bool               # a domain draws from the random source
    late: frozenset = frozenset()   # binders whose filter took in requires (guards_as_filters)


class ListingCompiler:
    """The part of the Compiler that lists an action's legal moves (a mixin of compiler.Compiler)."""

    def define_listing(self, name, out, ctx, comment):
        """exec a listing function (its body: a Block) made IR, its own passes run (LISTING_PASSES,
        not the rules functions': define runs none); no `# file:line` comment inside it."""
        function = with_cached_reads(ir.Function(name, ("s",), out.statements()), ctx)
        passed = run_passes(function, self.game.passes_off, LISTING_PASSES)
        return self.define(passed, comment, by_rule=False, passes=False, comments=False)

    def enumeration(self, action, template):
        """One generated function that lists the action's legal argument tuples: a loop per
        binder, each guard step inline right after the binders it needs, the domains that
        depend on no earlier binder computed once, identical components tried once, each zone
        read once per loop level. It returns (tuples, exact): exact when no two tuples can
        show the same labels (else the engine merges them)."""
        ctx, fixed_ctx = self.enumeration_contexts()
        part = self.enumeration_part(action, template, ctx, fixed_ctx)
        loops, stage_nodes = part.loops, part.stage_nodes
        out = Block(action.span)
        out.add(1, ir.Assign("out", ir.EmptyList()), ir.Assign("exact", ir.Constant(True)))
        self.emit_hoisted(out, ctx, -1, 1)
        done = ir.Return(ir.Results((OUT, EXACT)))
        self.emit_steps(out, part, part.early_nodes, 1, (done,))
        self.emit_fixed_domains(out, part, "", "exact", (done,))
        self.charge_fixed_product(out, part, [f"fixed{k}" for k, loop in enumerate(loops) if loop[3]], 1)
        if len(loops) == 1 and loops[0][3] and not stage_nodes[0]:
            # one binder, no guard step after it: the tuples at once
            out.add(1, ir.Assign("out", ir.SingleMoves(ir.Local("fixed0"))))
        else:
            indent = 1
            move = ir.Append("out", arguments(b.name for b in action.binders))
            for k in range(len(loops)):
                innermost = (move,) if k == len(loops) - 1 else None
                indent = self.emit_loop(out, part, ctx, k, indent, f"fixed{k}", body=innermost)
            if indent is not None:
                out.add(indent, move)
            if len(loops) > 1:
                # the product of several binders may be huge: counted after each round of the
                # outermost loop (not deeper: a check per inner round costs on every listing)
                out.add(2, self.too_many_moves("out", action))
        out.add(1, ir.Return(ir.Results((OUT, EXACT if part.static_unique else FALSE))))
        name = identifier(action.name)
        return self.define_listing(f"legal_{name}", out, ctx, self.where(action))

    def too_many_moves(self, listed, action) -> ir.ShortIf:
        return ir.ShortIf(ir.Compare(">", length(listed), ir.Constant(MAX_LEGAL_MOVES)), (ir.ExpressionStatement(
            ir.Call("too_many_moves", (ir.Constant(action.name), ir.Global(self.codegen.bind(action.span, "span"))))),))

    def charge_fixed_product(self, out, part, fixed_names, indent):
        """The tuples of the domains computed once, charged together once per listing."""
        units = self.listing_charge(part.action)
        if units is not None and fixed_names:
            out.add(indent, ir.ChargeWork(product([*(length(n) for n in fixed_names), ir.Constant(units)]),
                                          self.codegen.bind(part.action.span, "span")))

    @staticmethod
    def enumeration_contexts():
        """(the nested loops' context, the context of the domains computed once): one table of
        the values read once per loop level (hoist)."""
        fixed_ctx = Context("local")               # the domains computed once
        ctx = Context("local")                     # the nested loops
        ctx.hoist, ctx.levels = {}, {}
        fixed_ctx.hoist, fixed_ctx.levels, fixed_ctx.lazy = ctx.hoist, ctx.levels, ctx.lazy
        fixed_ctx.outside_loops = True
        return ctx, fixed_ctx

    def enumeration_part(self, action, template, ctx, fixed_ctx, unfolded=1):
        """An action's binders and guard steps compiled for listing its legal moves: each
        binder's loop (name, domain, filter, independent, same, unique, component), the guard's
        lets and requires placed by loop level, their sources. The binders from `unfolded` on
        take in the requires that test them alone (guards_as_filters)."""
        original, action = action, self.guards_as_filters(action, unfolded)
        late = frozenset(k for k, (a, b) in enumerate(zip(original.binders, action.binders)) if a is not b)
        cg = self.codegen
        named = {p.inside for p in parse_template(template).placeholders if p.named}
        names_all = named >= {b.name for b in action.binders}
        early_nodes, stage_nodes = self.guard_placement(action)
        lets = {n.name: k for k, stage in enumerate(stage_nodes) for n in stage if isinstance(n, ast.Let)}
        scope = self.types.globals
        loops, listed_components = [], False
        for k, binder in enumerate(action.binders):
            domain_type = self.type_value(binder.domain, scope)
            earlier = {b.name for b in action.binders[:k]} | {n for n, d in lets.items() if d < k}
            used = names_in(binder.domain) | (names_in(binder.condition) if binder.condition is not None else set())
            independent = not (used & earlier)
            here = fixed_ctx if independent else ctx
            indexed = self.indexed_reads.get(id(binder)) if k == 0 else None
            domain = cg.indexed_keys_node(indexed, scope, here) if indexed is not None \
                else cg.collection_node(binder.domain, scope, here)
            element = element_type(domain_type).without_none()
            if isinstance(element, ListOf):
                domain = ir.Call("hashable_values", (domain,))     # a move's arguments are keys: lists as tuples
            scope = scope.child(**{binder.name: element})
            element_name = named_type(element)
            if cg.never_none_domain(binder.domain, domain_type, scope):
                fixed_ctx.safe.add(rules_local(binder.name))
                ctx.safe.add(rules_local(binder.name))
            where = truth(cg.lower(binder.condition, scope, here)) if binder.condition is not None else None
            if indexed is not None:       # the table gave the values that pass the test on the variable
                tests = tuple(ir.Grouped(cg.lower(o, scope, here)) for o in indexed[2] + indexed[3])
                where = (tests[0] if len(tests) == 1 else ir.BoolOp("and", tests)) if tests else None
            ctx.levels[rules_local(binder.name)] = k
            component = element_name in self.types.components or element_name in self.types.boards
            # board cells are all different: only components can be identical
            same = binder.name in named and names_all and element_name in self.types.components \
                and not tells_twins_apart(binder.name, action, early_nodes, stage_nodes, self.types.functions)
            if element_name in self.types.boards and len(self.types.boards) == 1:
                component = False     # one board: a cell's label is its own
            unique = cg.never_none_domain(binder.domain, domain_type, scope) or (
                isinstance(binder.domain, ast.Name) and binder.domain.id in self.types.enums)
            loops.append((binder.name, domain, where, independent, same, unique, component))
            # lists of components (a subset of a hand) may show the same labels: merged by them
            listed_components = listed_components or (isinstance(element, ListOf) and named_type(
                element.element) in self.types.components)
        guard_scope = scope.child()
        sources = {}
        for statement in action.body:
            node = ast.untag(statement)[0]
            if isinstance(node, ast.Let):
                source = self.codegen.lower(node.value, guard_scope, ctx)
                sources[id(node)] = ("let", node.name, source)
                guard_scope.names[node.name] = self.type_value(node.value, guard_scope)
                if is_read_once(source):
                    ctx.bound[node.name] = source     # a let of a value read once: the same name
            elif isinstance(node, ast.Require):
                sources[id(node)] = ("require", None, self.codegen.lower(node.condition, guard_scope, ctx))
            else:
                break
        static_unique = not listed_components and not any(not independent and (not unique or (component and names_all))
                                                          for name, domain, where, independent, same, unique, component in loops)
        # one may draw from the random source: the domains are computed in binder order, all of them
        draws = self.random_functions
        random = any(isinstance(n, ast.Call) and n.name in draws for n in ast.walk(action.binders))
        return EnumerationPart(action, loops, sources, early_nodes, stage_nodes, names_all, static_unique, random, late)

    def listing_rows(self, part, ctx, k, hoist):
        """For binder k over a constant domain (a range, an enum...): (loop target, iterable,
        key source -> row variable) when the values it reads once build zone keys from it and
        from what stays the same through the loop; the keys are then made once per value of
        those (zone_rows), not on every round. Else None."""
        name, domain, where, _, same = part.loops[k][:5]
        if where is not None or same:
            return None         # (the loop goes over its filtered list, not the whole domain)
        values = constant_range(domain) or (self.codegen.namespace.get(domain.name) if is_bound_constant(domain) else None)
        if not isinstance(values, tuple) or not values or len(values) > 1000:
            return None
        rows, keys = KeyRows(self.codegen, rules_local(name), values), {}
        for value, temp in (ctx.hoist if hoist is None else hoist).items():
            if ctx.levels[temp] != k or temp in ctx.lazy:
                continue
            for key in walk_written(value):
                if isinstance(key, ir.Key) and plain_indexes(key):
                    row = rows.key_of(key.family, key.indexes)
                    if row is not None:
                        keys[key] = row
        if not keys:
            return None
        target, iterable = rows.iteration(domain)
        return target, iterable, keys

    def returns_list(self, domain) -> bool:
        """Whether a domain is one call of a rules function declared to return a list (its
        value is a list of its own or a cached one, never changed in place)."""
        function = self.types.functions.get(called_function(domain) or "")
        return function is not None and isinstance(function.result_type, ast.ListType)

    def unswitched(self, part, ctx, k, hoist):
        """(A, B) when binder k's only guard step is a `require A or B` (no coverage counter)
        whose A reads nothing of this loop level: neither the binder nor the values read once
        per round of this loop, nor a value it keeps (:=). Else None."""
        nodes = part.stage_nodes[k]
        if len(nodes) != 1 or self.counter(nodes[0]) is not None:
            return None
        kind, _, source = part.sources[id(nodes[0])]
        if kind != "require":
            return None
        this_level = {rules_local(part.loops[k][0])} | {temp for temp in (ctx.hoist if hoist is None else hoist).values()
                                                   if ctx.levels.get(temp) == k}
        return either_or(source, this_level)

    def emit_steps(self, out, part, nodes, indent, fail, known=None):
        """The guard steps, each right away: a let's value, or `fail` (statements) when a
        require does not hold; `known`: which values are none (folded())."""
        for node in nodes:
            out.span = node.span
            kind, name, source = part.sources[id(node)]
            counter = self.counter(node)
            if known and counter is None and kind == "require":
                decided = folded_plain(source, known)
                if decided is True:
                    continue            # (always holds in this case: none_split)
                if decided is not False:
                    source = decided
            if counter is not None:
                out.add(indent, ir.CountCoverage(counter))
            if kind == "let":
                if counter is None and is_read_once(source):
                    continue        # a value read once: the steps after it use that name
                out.add(indent, ir.Assign(rules_local(name), source))
            elif counter is None:
                out.add(indent, unless(ir.Grouped(source), *fail))
            else:
                out.open(indent, ir.If(ir.Not(ir.Grouped(source)), ()))
                out.add(indent + 1, ir.CountCoverage(counter + 1), *fail)

    @staticmethod
    def emit_hoisted(out, ctx, level, indent, hoist=None, keys=None):
        """The values read once at this loop level (hoist: those of one action, else all);
        keys: zone key -> the loop's row variable that holds it (listing_rows)."""
        hoist = ctx.hoist if hoist is None else hoist
        for value, temp in hoist.items():     # (codegen's hoisted values)
            if ctx.levels[temp] == level:
                if keys and temp not in ctx.lazy:
                    value = rewritten(value, lambda n: ir.Local(keys[n]) if isinstance(n, ir.Key) and n in keys else None)
                out.add(indent, ir.Assign(temp, ir.Global("UNSET") if temp in ctx.lazy else read_once(value, ctx.hoist)))

    def emit_loop(self, out, part, ctx, k, indent, fixed, hoist=None, steps=True, body=None, known=None):
        """The loop of binder k with its filter and (steps) the guard steps placed at its
        level; the depth of its body. With `body` (the innermost loop's statements), a loop
        whose one guard step is `A or B`, A the same for every value, may be written twice
        instead, under `if A:` without the step and under `else:` testing B only: then it
        writes the body itself and returns None."""
        name, domain, where, independent, same, unique, component = part.loops[k]
        split = self.unswitched(part, ctx, k, hoist) if body is not None and steps and independent else None
        if split is not None:
            invariant, rest = split
            decided = folded_plain(invariant, known)

            rows = self.listing_rows(part, ctx, k, hoist)

            def one_loop(at, test):
                out.open(at, ir.ForEach(rows[0], rows[1], ()) if rows else
                         ir.ForEach(rules_local(name), ir.Local(fixed), ()))
                self.emit_hoisted(out, ctx, k, at + 1, hoist, rows[2] if rows else None)
                if test is not None:
                    out.span = part.stage_nodes[k][0].span
                    out.add(at + 1, unless(ir.Grouped(test), ir.Continue()))
                out.add(at + 1, *body)
            if decided is True or decided is False:
                one_loop(indent, None if decided else rest)      # the case is known here (none_split)
            else:
                out.open(indent, ir.If(invariant, ()))
                one_loop(indent + 1, None)
                out.otherwise(indent)
                one_loop(indent + 1, rest)
            return None
        units = self.listing_charge(part.action)
        iterated = ir.Local(fixed) if independent else domain
        if not independent and units is not None:
            # a domain computed per outer value: its length times the fixed ones inside it
            # (its own filter and steps per value, and what the fixed ones inside it may try)
            prefix = fixed[:-len(str(k))]
            deeper = [m for m in range(k + 1, len(part.loops)) if part.loops[m][3]]
            per_value = ir.Constant(self.level_units(part, k))
            if deeper:
                inside = max(self.level_units(part, m) for m in deeper)
                per_value = ir.Arithmetic("+", per_value, product(
                    [*(length(f"{prefix}{m}") for m in deeper), ir.Constant(inside)]))
            iterated = ir.ChargedDomain(iterated, per_value, self.codegen.bind(part.action.span, "span"))
        rows = self.listing_rows(part, ctx, k, hoist) if independent else None
        out.open(indent, ir.ForEach(rows[0], rows[1], ()) if rows else ir.ForEach(rules_local(name), iterated, ()))
        indent += 1
        self.emit_hoisted(out, ctx, k, indent, hoist, rows[2] if rows else None)
        if where is not None and not independent:
            out.add(indent, unless(ir.Grouped(where), ir.Continue()))
        if steps:
            self.emit_steps(out, part, part.stage_nodes[k], indent, (ir.Continue(),), known)
        return indent

    def emit_fixed_domains(self, out, part, prefix, exact, fail, levels=None):
        """The domains computed once (named fixed<prefix><k>), those with a filter first (the
        likeliest to be empty: then nothing else is computed), each checked at once (`fail`,
        statements, when empty); in binder order, all of them, when one may draw from the
        random source (the draws must stay the same). levels: only these binders."""
        loops, random = part.loops, part.random
        fixed_order = [k for k, loop in enumerate(loops) if loop[3] and (levels is None or k in levels)]
        if not random:
            # (a filter that took in requires after the domains without one: a guard costs more)
            fixed_order.sort(key=lambda k: 2 if k in part.late else loops[k][2] is None)
        inexact = ir.Assign(exact, FALSE)
        for k in fixed_order:
            name, domain, where, independent, same, unique, component = loops[k]
            fixed = f"fixed{prefix}{k}"
            value, values = ir.Local(rules_local(name)), ir.Local(fixed)
            if where is None and not same:
                # (only iterated: a zone's list or a constant tuple needs no copy)
                constant = constant_range(domain)
                if constant is not None:
                    domain = ir.Global(self.codegen.bind(constant, "k"))
                copied = domain if (is_temporary_or_constant(domain) or one_call(domain, "numbers")
                                    or self.returns_list(domain)) \
                    else ir.Call("list", (domain,))
                out.add(1, ir.Assign(fixed, copied))
                if not unique:
                    out.add(1, self.repeated(values, inexact))
                if not random:
                    out.add(1, unless(values, *fail))    # no value: no move at all
                continue
            out.add(1, ir.Assign(fixed, ir.EmptyList()))
            # the domain is gone through once, its filter tried on each value: charged when the
            # filter costs more than a loop round may (the list itself was paid for where it was
            # made, or is a zone, which the components limit bounds)
            units = 1 + self.work.cost(part.action.binders[k].condition)
            iterated = domain
            if self.listing_charge(part.action) is not None and units > ROUND_FREE_WORK:
                iterated = ir.ChargedDomain(iterated, ir.Constant(units), self.codegen.bind(part.action.span, "span"))
            seen, kept = f"seen{prefix}{k}", f"labels{prefix}{k}"
            if same:
                # identical components (the same attributes) are tried once; when two kept ones
                # still share a label, the moves are merged by label afterwards
                out.add(1, ir.Assign(seen, ir.Call("set")), ir.Assign(kept, ir.Call("set")))
            out.open(1, ir.ForEach(rules_local(name), iterated, ()))
            if same:
                out.add(2, *self.once_each(name, seen))
            if where is not None:
                out.add(2, unless(ir.Grouped(where), ir.Continue()))
            if same:
                out.add(2, ir.AddToSet(kept, ir.ReadColumn(self.game.component_column("__label__"), value)))
            out.add(2, ir.Append(fixed, value))
            if same:
                out.add(1, unless_as_long(ir.Local(kept), values, inexact))
            elif not unique:
                out.add(1, self.repeated(values, inexact))
            if not random:
                out.add(1, unless(values, *fail))    # no value: no move at all
        for k, (name, domain, where, independent, same, unique, component) in enumerate(loops):
            if independent and component and not same and part.names_all and (levels is None or k in levels):
                # cells of several boards may share a label: moves are merged by label then
                values = ir.Local(f"fixed{prefix}{k}")
                out.add(1, unless_as_long(ir.LabelSet(self.game.component_column("__label__"), values), values, inexact))

    @staticmethod
    def repeated(values, then) -> ir.ShortIf:
        """`then` when a list holds a value twice."""
        return unless_as_long(ir.Call("set", (values,)), values, then)

    def once_each(self, name, seen) -> tuple:
        """A component whose twin (the same attributes) was tried already is not tried again."""
        return (ir.Assign("signature", ir.ReadColumn(self.game.component_column("__same__"), ir.Local(rules_local(name)))),
                ir.ShortIf(ir.Compare("in", ir.Local("signature"), ir.Local(seen)), (ir.Continue(),)),
                ir.AddToSet(seen, ir.Local("signature")))



def tells_twins_apart(name: str, action, early_nodes, stage_nodes, functions) -> bool:
    """Whether the binders or the guard may tell two identical components apart: they read the
    binder `name` other than by its attributes (its place in a zone, a zone keyed by it, a
    variable holding it). Then its twins are all tried and their moves merged after
    (merge_by_labels), not one of them tried per signature before the filter."""
    tested = (*action.binders, *early_nodes, *(n for stage in stage_nodes for n in stage))
    return not only_attributes_read(name, tested, functions, set())


def only_attributes_read(name: str, nodes, functions, visiting: set) -> bool:
    """Whether these nodes read the component `name` holds by its attributes only, directly or
    through the functions they give it to (a function met again is taken as reading so)."""
    walked = list(ast.walk(nodes))
    named = sum(1 for n in walked if isinstance(n, ast.Name) and n.id == name)
    read = sum(1 for n in walked if isinstance(n, ast.Attribute) and isinstance(n.obj, ast.Name) and n.obj.id == name)
    for n in walked:
        if isinstance(n, ast.Call) and n.name in functions:
            function = functions[n.name]
            for k, argument in enumerate(n.arguments):
                if isinstance(argument, ast.Name) and argument.id == name and k < len(function.parameters):
                    key = (n.name, k)
                    parameter = function.parameters[k].name
                    if key in visiting or only_attributes_read(parameter, function.body, functions, visiting | {key}):
                        read += 1
    return named == read


def read_once(value: ir.Expression, hoist: dict) -> ir.Expression:
    """A value read once per loop level: the top of a zone read once before (`(_h1[-1] if _h1
    else None)`) as such, others as codegen lowered them."""
    top = top_of(value)
    return ir.TopOfZone(ir.Local(top)) if isinstance(value, ir.Grouped) and top in hoist.values() else value


def plain_indexes(key: ir.Key) -> bool:
    """Whether a zone key's indexes are all names or plain literals (whole numbers, words):
    the keys whose rows a listing's loop may make once."""
    def plain(index):
        if isinstance(index, (ir.Local, ir.Global)):
            return True
        value = index.value if isinstance(index, ir.Constant) else None
        return (type(value) is int and value >= 0) or (type(value) is str and value != "" and all(
            c.isalnum() or c == "_" for c in value))
    return bool(key.indexes) and all(plain(index) for index in key.indexes)
