"""Which of the rules' functions keep their values (choose_memoized), what each reads (the
stamps that tell a cached value is stale), and the indexes that answer their aggregates
without a scan: tables of a variable by value (var_indexes), tables of an aggregate by one
parameter (equality_index). A mixin of the Compiler (compiler.py)."""
from __future__ import annotations

import attrs

from referee.dsl import ast
from referee.dsl.builtins import SEAT_LISTS
from referee.dsl.types import ListOf, MapOf, ZoneOf

from ..runtime.maintained import PartCounts
from . import ir
from .codegen import Context, names_in
from .generated_names import rules_local

UNHASHABLE = (ListOf, MapOf)      # the values that are no keys of a dict (a list, a map)

# how many cells an aggregate may visit before a function is worth caching (see memoized)
MEMO_COST = 40
# the most values one cached function keeps (then it starts again): memory stays bounded
MEMO_LIMIT = 50_000
# what a comparison may compare in a body answered by indexes alone (answered_by_indexes)
SIMPLE_OPERANDS = (ast.Name, ast.Integer, ast.Text, ast.Boolean, ast.Nothing)
LAST_CALL_GRAPH = []     # (functions, how many, their call graph): the last asked about


@attrs.frozen
class Stamp:
    """What one counter of the cached functions' stamps counts the changes of: the `epoch` (the
    engine entered again), a `variable`, an `attribute` that statements change, or a `zone`
    family (`#types`: the components of every type)."""
    kind: str
    name: str = ""

    def order(self) -> str:
        """(the counters are numbered in the order they have always had: that of these texts)"""
        return {"variable": self.name, "attribute": "." + self.name}.get(self.kind, f"{self.kind}:{self.name}")


EPOCH = Stamp("epoch")


def call_graph(functions) -> dict:
    """function name -> the names its body calls; for the last functions asked about (a
    compile asks callers() a dozen times of the same functions: one walk of each body)."""
    last = LAST_CALL_GRAPH
    if last and last[0] is functions and last[1] == len(functions):
        return last[2]
    calls = {name: {n.name for n in ast.walk(fn.body) if isinstance(n, ast.Call)} for name, fn in functions.items()}
    LAST_CALL_GRAPH[:] = [functions, len(functions), calls]
    return calls


def callers(functions, names) -> set:
    """The names, and the functions that call one of them, directly or through others."""
    calls = call_graph(functions)
    found = set(names)
    changed = True
    while changed:
        changed = False
        for name in functions:
            if name not in found and not calls[name].isdisjoint(found):
                found.add(name)
                changed = True
    return found


def any_chain(node):
    """([binders], conjuncts) of `any(x in D: any(y in E where c1 and c2 ...))` (the innermost
    binder without its filter, which is the conjunction), else None."""
    levels, chain = [], node
    while isinstance(chain, ast.Aggregate) and chain.kind == "any":
        if chain.value is None:
            if chain.binder.condition is None:
                return None
            levels.append(attrs.evolve(chain.binder, condition=None))
            return levels, flatten_and(chain.binder.condition)
        levels.append(chain.binder)
        chain = chain.value
    return (levels, flatten_and(chain)) if levels else None


def flatten_and(node) -> list:
    """The conjuncts of a condition (a and b and c -> [a, b, c])."""
    if isinstance(node, ast.And):
        return flatten_and(node.left) + flatten_and(node.right)
    return [node]


class Caching:
    """The cached functions and their indexes: a mixin of the Compiler, whose tables it sets."""

    def log_changes(self):
        """Once the functions are compiled, if a filter is maintained: the changes of the zone
        families counted by part are logged (maintained.py)."""
        if not self.maintained:
            return
        counts = PartCounts(self.game.memo_parts)
        self.codegen.namespace["MEMO_PARTS"] = self.game.memo_parts = counts
        self.change_logs.append(counts)
        marks = self.game.zone_marks
        for family, (k, partitioned, _) in marks.items():
            # (every family counted by part: its changes logged, key_mark)
            marks[family] = (k, partitioned, partitioned)
        self.game.key_marks.clear()

    def answered_by_indexes(self, body) -> bool:
        """Whether a cached function's body became reads of its equality indexes, joined by
        `and`, `or`, `not` and comparisons of names and constants (`a != b and touches(a, b)`)."""
        substituted = self.codegen.substitutions
        found = False

        def cheap(node) -> bool:
            nonlocal found
            if id(node) in substituted:
                found = True
                return True
            if isinstance(node, (ast.And, ast.Or)):
                return cheap(node.left) and cheap(node.right)
            if isinstance(node, ast.Not):
                return cheap(node.operand)
            if isinstance(node, ast.Compare):
                return all(isinstance(side, SIMPLE_OPERANDS) for side in (node.left, node.right))
            return False
        return cheap(body) and found

    def equality_index(self, name, fn, scope):
        """Indexes for aggregates of a cached function that test one of its parameters, b, for
        equality and use it nowhere else: `any(x in D: any(y in E where v(x, y) == b and c))`
        becomes `b in` the set of the values v takes where c holds; `filter(x in D where v(x)
        == b and c)` and `count(...)` read the group of b in a table grouped by v. Each index
        is computed once for the other parameters and kept like the function's values (a
        relation asked for every pair is one set per first value, not one scan per pair)."""
        parameters = {p.name for p in fn.parameters}
        binders = [n.name for n in ast.walk(fn.body) if isinstance(n, ast.Binder)]
        covered = set()        # the nodes under an index: answered by it already
        for node in ast.walk(fn.body):
            if not isinstance(node, ast.Aggregate) or id(node) in covered or id(node) in self.indexed_reads:
                continue
            found = None
            if node.kind in ("filter", "count") and node.value is None and node.binder.condition is not None:
                level = attrs.evolve(node.binder, condition=None)
                found = self.keyed_conjunct([level], flatten_and(node.binder.condition), parameters, binders)
                if found is None:
                    # filter(w in D where c(w) and any(x in E(w) where v(x) == b ...)): grouped by
                    # every value v takes around w
                    conjuncts = flatten_and(node.binder.condition)
                    for k, conjunct in enumerate(conjuncts):
                        chain = any_chain(conjunct)
                        if chain is None:
                            continue
                        inner = self.keyed_conjunct([level] + chain[0], chain[1], parameters, binders)
                        if inner is None:
                            continue
                        b, value, inner_rest, guards = inner
                        outer_rest = conjuncts[:k] + conjuncts[k + 1:]
                        if any(b in names_in(c) or not self.cannot_fail(c) for c in outer_rest) or \
                                set().union(*(names_in(c) for c in outer_rest)) & \
                                {n for n in binders if n != level.name or binders.count(n) > 1}:
                            continue
                        found = (b, value, (chain[0], inner_rest, outer_rest), guards)
                        break
                    if found is not None:
                        b, value, nested, guards = found
                        if self.define_index(name, fn, scope, node, [level], nested, value, b, guards):
                            covered |= {id(n) for n in ast.walk(node)}
                        continue
                levels = [level]
            elif node.kind == "any":
                chain = any_chain(node)
                if chain is None:
                    continue
                levels = chain[0]
                found = self.keyed_conjunct(levels, chain[1], parameters, binders)
            if found is not None:
                b, value, rest, guards = found
                if self.define_index(name, fn, scope, node, levels, rest, value, b, guards):
                    covered |= {id(n) for n in ast.walk(node)}

    def keyed_conjunct(self, levels, conjuncts, parameters, binders):
        """(b, the value compared with b, the other conjuncts, those on b alone), for the first
        conjunct `value == b` (b a parameter) of an aggregate whose levels bind `levels` and that
        uses b nowhere else, only reads and compares, and names no variable of an enclosing
        aggregate; else None."""
        bound = {b.name for b in levels}
        # a variable of an enclosing aggregate would change from one evaluation to the next
        enclosing = {n for n in binders if n not in bound or binders.count(n) > 1}
        for k, conjunct in enumerate(conjuncts):
            if not (isinstance(conjunct, ast.Compare) and conjunct.op == "=="):
                continue
            for key_side, other in ((conjunct.right, conjunct.left), (conjunct.left, conjunct.right)):
                if not (isinstance(key_side, ast.Name) and key_side.id in parameters and key_side.id not in bound):
                    continue
                b = key_side.id
                others = conjuncts[:k] + conjuncts[k + 1:]
                # conditions on b alone are checked once, before the index is read
                guards = [c for c in others if b in names_in(c) and not names_in(c) & bound]
                rest = [c for c in others if c not in guards]
                outer = [lv.condition for lv in levels if lv.condition is not None]
                pieces = [lv.domain for lv in levels] + outer + rest + [other]
                used = set().union(*(names_in(p) for p in pieces))
                if b in used or used & enclosing or not all(self.cannot_fail(p) for p in pieces + guards):
                    continue
                return b, other, rest, guards
        return None

    def cannot_fail(self, node) -> bool:
        """An expression that only reads and compares: evaluating it more often than written
        cannot raise an error the rules would not have raised."""
        for n in ast.walk(node):
            if isinstance(n, (ast.Binary, ast.Negate, ast.Ranking)):
                return False
            if isinstance(n, ast.Call) and n.name in self.types.functions:
                if not self.cannot_fail(self.types.functions[n.name].body):
                    return False
            elif isinstance(n, ast.Call) and n.name not in ("neighbors", "adjacent", "size", "top", "bottom") \
                    and n.name not in self.types.boards:
                return False
        return True

    def define_index(self, name, fn, scope, node, levels, rest, value, b, guards) -> bool:
        cg = self.codegen
        ctx = Context("local")
        clauses, inner_scope = [], scope
        nested = None
        if isinstance(rest, tuple):         # filter/count of items around which v takes b
            nested, rest = rest, None
        for binder in levels:
            var, domain, where, inner_scope, ctx = cg.lowered_comprehension(binder, inner_scope, ctx)
            clauses.append(ir.ForClause(var, domain, () if where is None else (where,)))
        item = ir.Local(var)
        if nested is not None:
            inner_levels, inner_rest, outer_rest = nested
            last = clauses[-1]
            clauses[-1] = attrs.evolve(last, tests=last.tests + tuple(cg.lower(c, inner_scope, ctx) for c in outer_rest))
            ctx.no_walrus += 1          # the set of values is the iterable of a comprehension
            inner_clauses = []
            for binder in inner_levels:
                inner_var, domain, where, inner_scope, ctx = cg.lowered_comprehension(binder, inner_scope, ctx)
                inner_clauses.append(ir.ForClause(inner_var, domain, () if where is None else (where,)))
            if isinstance(self.type_value(value, inner_scope).without_none(), UNHASHABLE):
                return False
            inner_tests = tuple(cg.lower(c, inner_scope, ctx) for c in inner_rest)
            last = inner_clauses[-1]
            inner_clauses[-1] = attrs.evolve(last, tests=last.tests + inner_tests)
            keys = ir.Loops(cg.lower(value, inner_scope, ctx), tuple(inner_clauses), braces=True)
            ctx.no_walrus -= 1
            key = ir.Local(self.fresh("key"))
            loops = tuple(clauses) + (ir.ForClause(key.name, keys),)
            source = ir.Call("grouped", (ir.Loops(ir.Tuple((key, item)), loops),)) if node.kind == "filter" \
                else ir.Call("counted", (ir.Loops(key, loops),))
        else:
            if isinstance(self.type_value(value, inner_scope).without_none(), UNHASHABLE):
                return False        # not hashable
            last = clauses[-1]
            clauses[-1] = attrs.evolve(last, tests=last.tests + tuple(cg.lower(c, inner_scope, ctx) for c in rest))
            element = cg.lower(value, inner_scope, ctx)
            if node.kind == "any":
                source = ir.Loops(element, tuple(clauses), braces=True)
            elif node.kind == "filter":
                source = ir.Call("grouped", (ir.Loops(ir.Tuple((element, item)), tuple(clauses)),))
            else:
                source = ir.Call("counted", (ir.Loops(element, tuple(clauses)),))
        others = [p for p in fn.parameters if p.name != b]
        asked, table = ir.Local(rules_local(b)), ir.Local("table")
        found = {"any": ir.Grouped(ir.Compare("in", asked, table)),
                 "filter": ir.Grouped(ir.BoolOp("or", (ir.Method(table, "get", (asked,)), ir.NewList()))),
                 "count": ir.Method(table, "get", (asked, ir.Constant(0)))}[node.kind]
        # the aggregate as written, for a value of b asked alone
        index = self.index_function(name, others, b, source, lambda: cg.lower(node, scope, Context("local")), found)
        read = ir.Call(index, (ir.TheState(), *(ir.Local(rules_local(p.name)) for p in others), ir.Local(rules_local(b))))
        fn_scope = self.types.globals.child(**{p.name: self.types.type_name(p.type) for p in fn.parameters})
        guard = ir.BoolOp("and", tuple(ir.Grouped(cg.lower(g, fn_scope, Context("local"))) for g in guards))
        empty = {"any": ir.Constant(False), "filter": ir.NewList(()), "count": ir.Constant(0)}[node.kind]
        cg.substitutions[id(node)] = ir.Grouped(ir.Conditional(guard, read, empty)) if guards else read
        return True

    def var_indexes(self):
        """Aggregates that ask which indexes of a variable hold a value, over the variable's
        whole domain (`filter(c in Cell where flag[c] == p)`, `count`, `any`, and `all(c in
        Cell: flag[c] != e)`), read a table of the variable by value that the state keeps
        exact as the variable is written (var_table, var_index_write), instead of a scan.
        Only for variables of one index over a board, an enum or the players, whose values are
        not lists. Sets self.indexed_reads (id of the node -> (variable, the value compared,
        the conditions that do not name the binder, those that do)) and game.var_positions
        (variable -> {index: its place})."""
        self.indexed_reads = {}
        positions = {}
        program = self.program
        everything = program.parts() + ((program.game,) if program.game is not None else ())
        for node in ast.walk(everything):
            if isinstance(node, ast.Aggregate):
                if node.kind in ("filter", "count", "any") and node.value is None and node.binder.condition is not None:
                    found = self.indexed_condition(node.binder.domain, node.binder.name, node.binder.condition, "==")
                elif node.kind == "all" and node.value is not None and node.binder.condition is None:
                    found = self.indexed_condition(node.binder.domain, node.binder.name, node.value, "!=")
                else:
                    found = None
            elif isinstance(node, ast.Action):
                # an action's first binder: `seal(c in Cell where flag[c] == none)`
                first = node.binders[0] if node.binders else None
                found = None if first is None or first.condition is None else \
                    self.indexed_condition(first.domain, first.name, first.condition, "==")
                if found is not None:
                    self.indexed_reads[id(first)] = found
                continue
            else:
                continue
            if found is not None:
                self.indexed_reads[id(node)] = found
        for family, _, _, _ in self.indexed_reads.values():
            positions[family] = {x: k for k, x in enumerate(self.static_domain(self.types.vars[family].index[0]))}
        self.game.var_positions = positions

    def static_domain(self, node):
        """The values of a board, an enum or the players named by `node`, or None."""
        if not isinstance(node, ast.Name):
            return None
        if node.id in self.types.boards:
            return list(self.game.geometries[node.id].cells)
        if node.id in self.types.enums:
            return list(self.game.enum_members[node.id])
        if node.id in SEAT_LISTS:
            return list(self.game.seats)
        return None

    def indexed_condition(self, domain, name, condition, op):
        """(variable, the value compared (None: `name` itself), the other conjuncts without
        `name`, those with it) when `condition` is `v[name] op value` (and other conditions), v a variable indexed by
        `domain` alone, every part only reading and comparing (tried on fewer values than
        written, none can fail); else None."""
        values = self.static_domain(domain)
        if values is None:
            return None
        conjuncts = flatten_and(condition) if op == "==" else [condition]
        for k, conjunct in enumerate(conjuncts):
            if not (isinstance(conjunct, ast.Compare) and conjunct.op == op):
                continue
            for side, value in ((conjunct.left, conjunct.right), (conjunct.right, conjunct.left)):
                if not (isinstance(side, ast.Subscript) and isinstance(side.obj, ast.Name) and len(side.indexes) == 1
                        and isinstance(side.indexes[0], ast.Name) and side.indexes[0].id == name):
                    continue
                var = self.types.vars.get(side.obj.id)
                if var is None or len(var.index) != 1 or self.static_domain(var.index[0]) != values:
                    continue
                if isinstance(self.declared_type(var.type).without_none(), UNHASHABLE):
                    continue
                others = conjuncts[:k] + conjuncts[k + 1:]
                if isinstance(value, ast.Name) and value.id == name:
                    value = None        # v[x] == x: the indexes that hold themselves (indexed_keys)
                elif name in names_in(value):
                    continue
                if not all(self.cannot_fail(c) for c in ([value] if value is not None else []) + others):
                    continue
                guards = [c for c in others if name not in names_in(c)]
                rest = [c for c in others if name in names_in(c)]
                if rest and op != "==":
                    continue
                return side.obj.id, value, guards, rest
        return None

    def choose_memoized(self):
        """Functions worth caching: their body visits a large board (an aggregate over many
        cells) or calls one that does. A cached value stays until a statement writes what the
        function reads (a variable it names, or any zone), or until the engine is entered
        again (a state changed from outside). Not cached: functions that call pick (they
        change the random source), ask `can_play` (it reads the whole state), read `current`, or
        take lists or maps (unhashable)."""
        functions = self.types.functions
        costly = set()
        for name, fn in functions.items():
            for node in ast.walk(fn.body):
                if isinstance(node, (ast.Aggregate, ast.Ranking)) and isinstance(node.binder.domain, ast.Name) and \
                        len(self.game.static_by_type.get(node.binder.domain.id, ())) >= MEMO_COST:
                    costly.add(name)
                # a range up to a variable that may grow as far (a display of up to 48 columns)
                if isinstance(node, (ast.Aggregate, ast.Ranking)) and isinstance(node.binder.domain, ast.Range) and \
                        (self.work.static_length(node.binder.domain) or 0) >= MEMO_COST:
                    costly.add(name)
        reads_current = {name for name, fn in functions.items() if "current" in names_in(fn.body)}
        scalar = {name for name, fn in functions.items()
                  if not any(isinstance(self.declared_type(p.type).without_none(), UNHASHABLE) for p in fn.parameters)}
        # a zone given as an argument is read under another name: such functions are not cached
        takes_zone = {name for name, fn in functions.items()
                      if any(isinstance(self.declared_type(p.type).without_none(), ZoneOf) for p in fn.parameters)}
        # a function with an `after` reads whatever its procedure reads: never cached
        hypothetical = {name for name, fn in functions.items() if any(isinstance(n, ast.After) for n in ast.walk(fn.body))}
        self.memoized = (callers(functions, costly) - callers(functions, {"pick", "can_play"} | hypothetical)
                         - callers(functions, reads_current) - callers(functions, takes_zone)) & scalar
        if self.coverage is not None:
            # a counted function counts every call: neither cached (nor any that calls it) nor inlined
            self.not_inlined = {name for name, fn in functions.items() if self.coverage.tag_of.get(id(fn))}
            self.memoized -= callers(functions, self.not_inlined)
        self.memo_cache_names = {name: self.codegen.bind({}, f"cache_{name}_") for name in sorted(self.memoized)}
        # what each cached function reads, through the functions it calls: variables, and zones
        # (a zone family, or the part of one whose first index is one of the function's
        # parameters: a function f(p) that reads only zone[p, ...] keeps its values when
        # zone[q, ...] changes)
        # one counter per thing read ('#epoch' grows when the engine is entered again)
        self.memo_stamp_index = {EPOCH: 0}
        self.memo_reads = {}
        self.memo_zone_parts = {}      # cached function -> {(zone family, its parameter)}
        partitioned = set()
        for name in sorted(self.memoized):
            variables, zones = self.state_read(name, {p.name: p.name for p in functions[name].parameters}, set())
            parts = {(zone, param) for zone, param in zones if param is not None}
            wholes = {zone for zone, param in zones if param is None}
            parts = {(zone, param) for zone, param in parts if zone not in wholes}
            partitioned |= {zone for zone, _ in parts}
            reads = variables | {Stamp("zone", zone) for zone in wholes}
            for dependency in sorted(reads, key=Stamp.order):
                self.memo_stamp_index.setdefault(dependency, len(self.memo_stamp_index))
            self.memo_reads[name] = [0] + sorted(self.memo_stamp_index[d] for d in reads)
            self.memo_zone_parts[name] = parts
        # a family read by part is also read whole by an index over that parameter
        for zone in partitioned:
            self.memo_stamp_index.setdefault(Stamp("zone", zone), len(self.memo_stamp_index))
        stamps = [0] * len(self.memo_stamp_index)
        owner = self.game.memo_owner
        part_stamps = {}
        families = {d.name: k for d, k in self.memo_stamp_index.items() if d.kind == "zone"}

        logs = self.change_logs = []       # the PartCounts a new epoch empties (log_changes)

        def memo_reset(s):
            owner[0] = s
            stamps[0] += 1
            if logs:
                logs[0].forget()

        self.codegen.namespace.update(memo_reset=memo_reset, MEMO_OWNER=owner, MEMO_STAMPS=stamps,
                                      MEMO_PARTS=part_stamps, MEMO_LIMIT=MEMO_LIMIT)
        self.game.memo_reset = memo_reset
        # for State.mark_changed: zone family -> (its stamp, also by first index?, changes logged?
        # (set by log_changes))
        self.game.zone_marks = {family: (k, family in partitioned, False) for family, k in families.items()} or None
        self.game.memo_stamps, self.game.memo_parts = stamps, part_stamps

    def state_read(self, name, mapping, seen):
        """({Stamp} of the variables and attributes, {(zone family, parameter of the cached function or None)}) that function
        `name` reads, its parameters standing for the cached function's as `mapping` says."""
        key = (name, tuple(sorted(mapping.items())))
        if key in seen:
            return set(), set()
        seen.add(key)
        fn = self.types.functions[name]
        shadowed = {n.name for n in ast.walk(fn.body) if isinstance(n, ast.Binder)}
        mapping = {k: v for k, v in mapping.items() if k not in shadowed}
        variables, zones = set(), set()

        def visit(node):
            if isinstance(node, tuple):
                for item in node:
                    visit(item)
                return
            if not attrs.has(type(node)):
                return
            if isinstance(node, ast.Subscript) and isinstance(node.obj, ast.Name) and node.obj.id in self.types.zones:
                first = node.indexes[0] if node.indexes else None
                zones.add((node.obj.id, mapping.get(first.id) if isinstance(first, ast.Name) else None))
                visit(node.indexes)
                return
            if isinstance(node, ast.Name):
                if node.id in self.types.vars:
                    variables.add(Stamp("variable", node.id))
                elif node.id in self.types.zones:
                    zones.add((node.id, None))
                elif node.id in self.types.components:
                    zones.add(("#types", None))
                return
            if isinstance(node, ast.Subscript) and isinstance(node.obj, ast.Name) and node.obj.id in self.types.vars:
                variables.add(Stamp("variable", node.obj.id))
            if isinstance(node, ast.Attribute) and node.name in self.changed_attributes:
                variables.add(Stamp("attribute", node.name))       # an attribute that statements change
            if isinstance(node, ast.Call) and node.name in self.types.functions:
                callee = self.types.functions[node.name]
                passed = {p.name: mapping.get(a.id) for p, a in zip(callee.parameters, node.arguments)
                          if isinstance(a, ast.Name) and mapping.get(a.id) is not None}
                more_variables, more_zones = self.state_read(node.name, passed, seen)
                variables.update(more_variables)
                zones.update(more_zones)
            for field in attrs.fields(type(node)):
                visit(getattr(node, field.name))
        visit(fn.body)
        return variables, zones
