"""Rules -> Python source: one module per compiled game.

Every fn, proc, action (its legal-move enumeration and its effect), trigger, the setup and the
steps of the flow become plain Python functions in one generated module. Rules locals are
Python locals (`L_name`), aggregates are comprehensions with their filter fused, small pure
functions are inlined, the state's zones, variables and entities are read through locals bound
once per function (`_Z`, `_V`, `_E`). `referee compile` writes the module out for reading.

Expressions are generated in a context that says how a rules local is spelled: a Python local
(functions, procedures, actions), a key of the flow's environment dict (`e['name']`, the flow
keeps its loop variables in the state), or a comprehension variable.
"""
from __future__ import annotations

import ast as python_ast
import contextlib
import re

import attrs

from referee.dsl import ast
from referee.dsl.checker import ANY, element_of, strip_optional
from referee.dsl.limits import MAX_RANGE
from referee.dsl.visitor import EXPRESSIONS, Visitor

from .. import runtime
from ..runtime import stdlib
from ..runtime.errors import RulesRuntimeError
from .key_rows import KeyRows
from .source_text import (SPREAD, CONTINUED, joined, gap, truth, filter_values, top_of_tested,
                          attributes_read_once, reusing, temporaries_of_their_own, is_number, is_identifier)

UNROLL = 12             # aggregates over a constant range this small are unrolled




class Context:
    """How the rules locals of one generated function are spelled in Python."""

    def __init__(self, mode="local", bound=None):
        self.mode = mode                  # "local": L_name; "env": e['name']
        self.bound = dict(bound or {})    # names spelled otherwise (comprehension variables, inlined parameters)
        self.no_walrus = 0                # inside a comprehension's iterable: no ':=' allowed there
        self.safe = set()                 # Python names that are never 'none' (loop variables over zones)
        self.hoist = None                 # while listing legal moves: zone reads computed once per loop level
        self.lazy = set()                 # with hoist: those computed on first use (function calls)
        self.outside_loops = False        # with hoist: code before the loops (hoists only what needs no binder)
        self.levels = {}                  # with hoist: Python name -> the loop level that binds it
        self.steps = False                # a generator: a choice yields and resumes where it stopped
        self.iterating = False            # the expression being written is a comprehension's domain
        self.rows = None                  # in a comprehension over a fixed domain: its zone keys (zone_rows)

    def local(self, name) -> str:
        if name in self.bound:
            return self.bound[name]
        return f"L_{name}" if self.mode == "local" else f"e[{name!r}]"

    def child(self, **bound):
        other = Context(self.mode, {**self.bound, **bound})
        other.no_walrus = self.no_walrus
        other.safe = self.safe
        other.hoist = self.hoist
        other.lazy = self.lazy
        other.outside_loops = self.outside_loops
        other.levels = self.levels
        other.steps = self.steps
        other.rows = self.rows
        return other


@attrs.frozen
class MaintainedFilter:
    """What a cached filter kept up to date from the zones that changed needs (maintained.py)."""
    target: str           # the loop's target over the rows (the value, its keys)
    tested: str           # source of (value, passes) of a row
    rows_of_key: str      # source of {zone key: the row that reads it}
    order: str            # {value: its place in the domain}
    limit: int            # more changes than this since the last value: computed whole


class SourceGenerator(Visitor):
    kinds = EXPRESSIONS

    def __init__(self, compiler):
        self.compiler = compiler
        self.namespace = runtime.namespace()
        self.count = 0
        self.bound_values = {}     # id(value) -> name, so that one value is bound once
        self.safe_names = set()    # comprehension variables that are never 'none'
        self.substitutions = {}    # id(aggregate node) -> the source that replaces it
        self.made_nodes = []       # nodes made while compiling (work.py keeps costs by id: kept alive)
        self.geometry_functions = compiler.game.board_functions

    # ---- names in the generated module ----
    def bind(self, value, hint="k") -> str:
        """A name in the generated module that stands for a Python value."""
        known = self.bound_values.get(id(value))
        if known is not None and self.namespace.get(known) is value:
            return known
        self.count += 1
        name = f"_{hint}{self.count}"
        self.namespace[name] = value
        self.bound_values[id(value)] = name
        return name

    def temp(self) -> str:
        self.count += 1
        return f"_t{self.count}"

    def literal(self, value) -> str:
        if value is None or isinstance(value, (bool, int, str)):
            return repr(value)
        return self.bind(value)

    def constant_of(self, node, ctx=None):
        """(value,) when the expression is a constant, else None."""
        if isinstance(node, (ast.Integer, ast.Text, ast.Boolean)):
            return (node.value,)
        if isinstance(node, ast.Nothing):
            return (None,)
        if isinstance(node, ast.Name) and (ctx is None or node.id not in ctx.bound):
            c = self.compiler
            name = node.id
            if name == "num_players":
                return (c.game.num_players,)
            if name in c.game.params:
                return (c.game.params[name],)
            if name in c.types.options:
                return (name in c.game.options,)
            if name in c.types.members:
                return (name,)
        return None

    def is_local(self, name, scope, ctx) -> bool:
        return name in ctx.bound or (scope.lookup(name) is not None and name not in self.compiler.types.globals.names)

    # ---- expressions ----
    def source(self, node, scope, ctx) -> str:
        return self.dispatch(node, scope, ctx)

    def collection(self, node, scope, ctx) -> str:
        """The source of a sequence: a zone's content when the expression is a zone."""
        src = self.source(node, scope, ctx)
        if self.compiler.type_of(node, scope).startswith("zone["):
            return self.hoisted(f"_Z.get({src}, EMPTY)", ctx)
        return src

    def hoisted(self, source, ctx) -> str:
        """A read of the state that is the same wherever it appears while legal moves are
        listed: computed once, at the loop level where its names are known."""
        if ctx.hoist is None or ":=" in source or re.search(r"\b(_t\d+|a\d+_\w+|e)\b", source):
            return source
        names = re.findall(r"\b(L_\w+|_h\d+)\b", source)
        if any(n not in ctx.levels for n in names):
            return source       # it needs a let: not hoisted
        if ctx.outside_loops and any(ctx.levels[n] >= 0 for n in names):
            return source       # a domain listed before the loops: only what needs no binder
        known = ctx.hoist.get(source)
        if known is None:
            self.count += 1
            known = ctx.hoist[source] = f"_h{self.count}"
            ctx.levels[known] = max((ctx.levels[n] for n in names), default=-1)
        return known

    def hoisted_lazy(self, source, ctx) -> str:
        """A variable read or a call of a pure function while legal moves are listed: computed
        at most once per round of the loop level where its arguments are known, and only where
        the rules ask for it (a call may fail where a test before it would have stopped it, and
        an 'or' may not need it)."""
        if ctx.hoist is None or ctx.no_walrus or ":=" in source:
            return source
        temp = self.hoisted(source, ctx)
        if temp == source:
            return source
        ctx.lazy.add(temp)
        return f"({temp} if {temp} is not UNSET else ({temp} := {source}))"

    def visit_Integer(self, node, scope, ctx):
        return repr(node.value)

    visit_Text = visit_Boolean = visit_Integer

    def visit_Nothing(self, node, scope, ctx):
        return "None"

    def visit_Name(self, node, scope, ctx):
        name = node.id
        c = self.compiler
        if self.is_local(name, scope, ctx):
            return ctx.local(name)
        constant = self.constant_of(node, ctx)
        if constant is not None:
            return self.literal(constant[0])
        if name == "current":
            return self.hoisted("s.current", ctx)
        if name in ("players", "Player"):
            return self.bind(c.game.seats)
        if name in c.types.enums:
            return self.bind(c.game.enum_members[name])
        if name in c.types.components:
            return f"s.by_type.get({name!r}, EMPTY)"
        if name in c.types.boards:
            return self.bind(c.game.geometries[name].cells)
        if name in c.types.zones:
            return repr(name)
        if name in c.types.vars:
            return self.hoisted_lazy(f"_V.get({name!r}, {self.default_of(name, node)})", ctx)
        return ctx.local(name)

    def default_of(self, var, node) -> str:
        """The source of a variable's initial value (known once the variables are set up)."""
        defaults = self.compiler.game.var_defaults
        if var not in defaults:      # read while the initial values themselves are computed
            raise RulesRuntimeError(f"'{var}' is read before the game starts: an initial value or a "
                                    f"param cannot depend on a variable", node.span)
        return self.literal(defaults[var])

    def visit_ListLiteral(self, node, scope, ctx):
        return "[" + joined([self.source(i, scope, ctx) for i in node.items], ", ") + "]"

    def visit_Conditional(self, node, scope, ctx):
        c, a, b = (self.source(n, scope, ctx) for n in (node.condition, node.then, node.otherwise))
        if len(a) + len(c) + len(b) > SPREAD:
            return f"({a}{CONTINUED}if {c}{CONTINUED}else {b})"
        return f"({a} if {c} else {b})"

    def boolean(self, node, scope) -> bool:
        return self.compiler.type_of(node, scope) == "bool"

    def visit_Or(self, node, scope, ctx):
        a = self.source(node.left, scope, ctx)
        with self.narrowed(a, "is None", ctx):      # x == none or ...: x is some value on the right
            b = self.source(node.right, scope, ctx)
        if self.boolean(node.left, scope) and self.boolean(node.right, scope):
            return f"({joined((a, b), ' or ')})"
        return f"bool({joined((a, b), ' or ')})"

    def visit_And(self, node, scope, ctx):
        a = self.source(node.left, scope, ctx)
        with self.narrowed(a, "is not None", ctx):  # x != none and ...: x is some value on the right
            b = self.source(node.right, scope, ctx)
        if self.boolean(node.left, scope) and self.boolean(node.right, scope):
            if a == "True" or b == "True":     # (a none test found needless: the other side alone)
                return b if a == "True" else a
            return f"({joined((a, b), ' and ')})"
        return f"bool({joined((a, b), ' and ')})"

    @contextlib.contextmanager
    def narrowed(self, test, form, ctx):
        """While the right side of 'and'/'or' is written: the name that `test` (the left side's
        source) found to be or not to be none needs no more none test there."""
        match = re.fullmatch(rf"\(([A-Za-z_]\w*) {form}\)", test)
        name = match.group(1) if match else None
        if name is None or name in ctx.safe:
            yield
            return
        ctx.safe.add(name)
        try:
            yield
        finally:
            ctx.safe.discard(name)

    def visit_Not(self, node, scope, ctx):
        return f"(not {self.source(node.operand, scope, ctx)})"

    def visit_Compare(self, node, scope, ctx):
        emptiness = self.count_against_zero(node, scope, ctx)
        if emptiness is None:
            emptiness = self.size_against_zero(node, scope, ctx)
        if emptiness is not None:
            return emptiness
        a, b = self.source(node.left, scope, ctx), self.source(node.right, scope, ctx)
        op = node.op
        if op in ("==", "!="):
            if b == "None" or a == "None":
                other = a if b == "None" else b
                if other in ctx.safe or is_number(other) or other in ("True", "False") or \
                        re.fullmatch(r"'[^'\\]*'|\"[^\"\\]*\"", other):
                    return "False" if op == "==" else "True"     # (a literal is never none)
                if other == "None":
                    return "True" if op == "==" else "False"
                return f"({other} is {'' if op == '==' else 'not '}None)"
            return f"({joined((a, b), f' {op} ')})"
        # an order with 'none' on either side is false
        sure_a, sure_b = self.surely(node.left, scope, ctx), self.surely(node.right, scope, ctx)
        if sure_a and sure_b:
            return f"({joined((a, b), f' {op} ')})"
        simple_a = is_identifier(a) or sure_a
        simple_b = is_identifier(b) or sure_b
        if simple_a and simple_b:
            checks = [f"{x} is not None" for x, sure in ((a, sure_a), (b, sure_b)) if not sure]
            return "(" + joined(checks + [joined((a, b), f" {op} ")], " and ") + ")"
        if ctx.no_walrus:
            return f"order({a}, {op!r}, {b})"
        checks, operands = [], []
        for x, n, simple in ((a, node.left, simple_a), (b, node.right, simple_b)):
            if self.surely(n, scope, ctx):
                operands.append(x)
            elif simple:
                checks.append(f"{x} is not None")
                operands.append(x)
            else:
                t = self.temp()
                checks.append(f"({t} := {x}) is not None")
                operands.append(t)
        return "(" + joined(checks + [joined(operands, f" {op} ")], " and ") + ")"

    def count_against_zero(self, node, scope, ctx):
        """count(x in D where c) == 0 (or != 0, > 0, >= 1, < 1): whether any x passes, which
        can stop at the first one."""
        for count, zero, op in ((node.left, node.right, node.op),
                                (node.right, node.left, {"<": ">", ">": "<", "<=": ">=", ">=": "<="}.get(node.op, node.op))):
            if isinstance(count, ast.Aggregate) and count.kind == "count" and count.value is None and \
                    count.binder.condition is not None and isinstance(zero, ast.Integer) and \
                    id(count) not in self.substitutions:
                some = {(0, "=="): False, (0, "!="): True, (0, ">"): True, (1, ">="): True, (1, "<"): False,
                        (0, "<="): False}.get((zero.value, op))
                if some is None:
                    return None
                whether = ast.Aggregate(count.span, "any", count.binder, None)
                indexed = self.compiler.indexed_reads.get(id(count))       # a table of the count's values
                found = self.indexed_aggregate(whether, indexed, scope, ctx) if indexed is not None else \
                    self.visit_Aggregate(whether, scope, ctx)
                return found if some else f"(not {found})"
        return None

    def size_against_zero(self, node, scope, ctx):
        """size(z) > 0 (== 0, >= 1...) of a zone or list: its truth, without counting."""
        for size, zero, op in ((node.left, node.right, node.op),
                               (node.right, node.left, {"<": ">", ">": "<", "<=": ">=", ">=": "<="}.get(node.op, node.op))):
            if isinstance(size, ast.Call) and size.name == "size" and len(size.arguments) == 1 and \
                    isinstance(zero, ast.Integer) and size.name not in self.compiler.types.functions:
                some = {(0, "=="): False, (0, "!="): True, (0, ">"): True, (1, ">="): True, (1, "<"): False,
                        (0, "<="): False}.get((zero.value, op))
                t = self.compiler.type_of(size.arguments[0], scope)
                if some is None or not (t.startswith("zone[") or t.startswith("list[")):
                    return None
                items = self.collection(size.arguments[0], scope, ctx)
                if items.startswith("_Z.get(") and items.endswith(", EMPTY)"):
                    items = items[:-len(", EMPTY)")] + ")"       # a missing zone is empty: None is false too
                return f"(not not {items})" if some else f"(not {items})"
        return None

    def visit_Member(self, node, scope, ctx):
        if isinstance(node.collection, ast.Range):     # a test, whatever the range's length
            bounds = (self.source(node.collection.low, scope, ctx), self.source(node.collection.high, scope, ctx))
            item = self.source(node.item, scope, ctx)
            if all(is_number(b) for b in bounds) and is_identifier(item):
                return f"({item} is not None and {bounds[0]} <= {item} <= {bounds[1]})"
            return f"within({item}, {', '.join(bounds)})"
        return f"({self.source(node.item, scope, ctx)} in {self.collection(node.collection, scope, ctx)})"

    def visit_NotMember(self, node, scope, ctx):
        if isinstance(node.collection, ast.Range):
            return f"(not {self.visit_Member(node, scope, ctx)})"
        return f"({self.source(node.item, scope, ctx)} not in {self.collection(node.collection, scope, ctx)})"

    def visit_Range(self, node, scope, ctx):
        low, high = self.source(node.low, scope, ctx), self.source(node.high, scope, ctx)
        if is_number(low) and is_number(high) and int(high.strip("()")) - int(low.strip("()")) < MAX_RANGE:
            return f"range({low}, {int(high.strip('()')) + 1})"       # known when compiled (params included)
        if self.short_range(node):
            return f"range({low}, {high} + 1)"
        return f"numbers({low}, {high}, {self.bind(node.span, 'span')})"

    def short_range(self, node) -> bool:
        """Whether a range's ends are never none and always fewer than MAX_RANGE numbers apart:
        constants, and variables of type int (never none: a none stored is an error) with a
        declared range (`1..columns + 1`, `columns: int in 1..48`)."""
        work, types = self.compiler.work, self.compiler.types
        low, high = work.bounds(node.low), work.bounds(node.high)
        if low is None or high is None or high[1] - low[0] >= MAX_RANGE:
            return False
        names = names_in(node.low) | names_in(node.high)
        return all(types.type_name(types.vars[n].type) == "int" for n in names if n in types.vars)

    def surely(self, node, scope, ctx) -> bool:
        """Whether an expression can never be 'none' (its 'none' checks can go)."""
        if isinstance(node, (ast.Integer, ast.Text, ast.Boolean, ast.Binary, ast.Negate, ast.Range,
                             ast.ListLiteral, ast.Compare, ast.Member, ast.NotMember, ast.Not)):
            return True
        if isinstance(node, ast.Conditional):
            return self.surely(node.then, scope, ctx) and self.surely(node.otherwise, scope, ctx)
        if isinstance(node, ast.Call):
            return node.name in ("size", "next", "previous", "abs", "neighbors", "adjacent", "has_line",
                                 "groups", "largest_group", "reachable", "squares", "reversed", "label")
        if isinstance(node, ast.Aggregate):
            return node.kind in ("count", "sum", "filter", "map", "any", "all")
        if isinstance(node, ast.Name):
            if self.is_local(node.id, scope, ctx):
                return ctx.local(node.id).isdigit() or self.never_none(node, scope, ctx)
            constant = self.constant_of(node, ctx)
            if constant is not None:
                return constant[0] is not None
            return node.id == "current"
        if isinstance(node, ast.Attribute):
            kind = strip_optional(self.compiler.type_of(node.obj, scope))
            if not self.surely(node.obj, scope, ctx):
                return False
            if kind in self.compiler.types.boards:
                return node.name in ("row", "col")      # (a board cell's row and column are always known)
            # a component's attribute of a type without '?': given when it was created, never
            # set to none since (both refused: E207, and the located error of a none written)
            declared = self.compiler.types.fields_of(kind) if kind in self.compiler.types.components else None
            field = declared.get(node.name) if declared else None
            return field is not None and not field.endswith("?") and field not in (ANY, "any")
        return False

    def number(self, node, scope, ctx, span) -> str:
        """A number operand: 'none' is reported as a located error."""
        src = self.source(node, scope, ctx)
        if self.surely(node, scope, ctx):
            return src
        return self.unless_none(src, ctx, lambda x: x, f"none_error({span})", f"present({src}, {span})")

    def unless_none(self, src, ctx, use, on_none, helper) -> str:
        """use(value) of a value that may be none (then: on_none), evaluated once; `helper`
        where no ':=' may stand (in a comprehension's iterable)."""
        if src in ctx.safe:
            return use(src)
        if is_identifier(src):
            return f"({use(src)} if {src} is not None else {on_none})"
        if ctx.no_walrus:
            return helper
        t = self.temp()
        return f"({use(t)} if ({t} := {src}) is not None else {on_none})"

    def visit_Binary(self, node, scope, ctx):
        span = self.bind(node.span, "span")
        if node.op == "+" and self.compiler.type_of(node.left, scope).startswith("list["):
            return f"joined(STEP, {self.source(node.left, scope, ctx)}, {self.source(node.right, scope, ctx)}, {span})"
        a = self.number(node.left, scope, ctx, span)
        if node.op in ("//", "%"):
            return f"({a} {node.op} divisor({self.source(node.right, scope, ctx)}, {span}))"
        if node.op == "/":          # exact, never a float (exact.py)
            return f"quotient({a}, {self.number(node.right, scope, ctx, span)}, {span})"
        b = self.number(node.right, scope, ctx, span)
        if (node.op == "*" and not (is_number(a) or is_number(b))) or \
                (node.op in "+-" and self.compiler.type_of(node, scope) == "real"):
            # a product of two values (or a sum of fractions) may square its digits round
            # after round: checked where it is made, before it grows past any memory
            return f"bounded({joined((a, b), f' {node.op} ')}, {span})"
        return f"({joined((a, b), f' {node.op} ')})"

    def visit_Negate(self, node, scope, ctx):
        return f"(-{self.number(node.operand, scope, ctx, self.bind(node.span, 'span'))})"

    def visit_Attribute(self, node, scope, ctx):
        obj = self.source(node.obj, scope, ctx)
        t = strip_optional(self.compiler.type_of(node.obj, scope))
        # every attribute of a component is given when it is created; the attributes of board
        # cells never change: a list indexed by the cell
        if t in self.compiler.types.components:
            column = self.compiler.game.component_column(node.name)
            read = (lambda x: f"{column}[{x}]")
        elif t in self.compiler.types.boards:
            column = self.bind(self.compiler.game.cell_column(node.name), "col")
            read = (lambda x: f"{column}[{x}]")
        else:
            read = (lambda x: f"_E[{x}].get({node.name!r})")
        if self.never_none(node.obj, scope, ctx):
            return read(obj)
        return self.unless_none(obj, ctx, read, "None", f"attribute(_E, {obj}, {node.name!r})")

    def never_none(self, node, scope, ctx) -> bool:
        """A comprehension or loop variable over a zone or a type: never 'none'."""
        if not isinstance(node, ast.Name) or not self.is_local(node.id, scope, ctx):
            return False
        source = ctx.local(node.id)
        return source in self.safe_names or source in ctx.safe

    def key(self, name, indexes, scope, ctx) -> str:
        if not indexes:
            return repr(name)
        sources = [self.source(i, scope, ctx) for i in indexes]
        row = ctx.rows.key(name, sources) if ctx.rows is not None else None
        return row or "(" + ", ".join([repr(name)] + sources) + ",)"

    def visit_Subscript(self, node, scope, ctx):
        c = self.compiler
        if isinstance(node.obj, ast.Name) and node.obj.id not in ctx.bound and scope.lookup(node.obj.id) is None:
            name = node.obj.id
            if name in c.types.zones:
                return self.key(name, node.indexes, scope, ctx)
            if name in c.types.vars:
                default = self.default_of(name, node)
                read = f"_V.get({self.key(name, node.indexes, scope, ctx)}, {default})"
                return self.hoisted_lazy(read, ctx)
        return f"item_at({self.collection(node.obj, scope, ctx)}, {self.source(node.indexes[0], scope, ctx)})"

    def visit_LetIn(self, node, scope, ctx):
        """let x = v in e: v computed once, e reads it (a walrus in a tuple; where no ':=' may
        stand, a lambda)."""
        value = self.source(node.value, scope, ctx)
        inner_scope = scope.child(**{node.name: self.compiler.type_of(node.value, scope)})
        if ctx.no_walrus:
            temp = self.temp()
            body = self.source(node.body, inner_scope, ctx.child(**{node.name: temp}))
            return f"(lambda {temp}: {body})({value})"
        temp = self.temp()
        body = self.source(node.body, inner_scope, ctx.child(**{node.name: temp}))
        return f"(({temp} := {value}), {body})[1]"

    def visit_After(self, node, scope, ctx):
        """after P(args): E -- E, read by a generated function from a copy of the state on which
        the procedure ran; the locals E names are passed to it."""
        c = self.compiler
        free = sorted(n for n in names_in(node.value) if self.is_local(n, scope, ctx))
        types = {n: scope.lookup(n) for n in free}
        inner_scope = c.types.globals.child(**types)
        value = self.source(node.value, inner_scope, Context("local"))
        self.count += 1
        name = f"_after{self.count}"
        c.define(f"def {name}(s{''.join(f', L_{n}' for n in free)})", [f"    return {value}"], c.where(node), node.span)
        args = "".join(f"{self.source(a, scope, ctx)}, " for a in node.arguments)
        passed = "".join(f"{ctx.local(n)}, " for n in free)
        return f"after_procedure(s, proc_{node.procedure}, ({args}), {name}, ({passed}))"

    def visit_Call(self, node, scope, ctx):
        c = self.compiler
        name = node.name
        if name in c.types.boards:
            cells = c.game.geometries[name].at
            row, col = (self.source(a, scope, ctx) for a in node.arguments)
            if is_number(row) and is_number(col):
                return repr(cells.get((int(row.strip("()")), int(col.strip("()")))))
            for fixed, other, k in ((row, col, 0), (col, row, 1)):
                if is_number(fixed):
                    # one row (or column) given: its cells by the other coordinate, one lookup
                    line = {rc[1 - k]: eid for rc, eid in cells.items() if rc[k] == int(fixed.strip("()"))}
                    return f"{self.bind(line, 'line')}.get({other})"
            return f"{self.bind(cells)}.get(({row}, {col}))"
        if name in c.types.functions:
            fn_decl = c.types.functions[name]
            if c.inline_depth < 8 and name not in c.memoized and name not in c.not_inlined and \
                    not c.work.charges_at_entry(name) and can_inline(fn_decl, node.arguments):
                return self.inline(fn_decl, node.arguments, scope, ctx)
            sources = [self.source(a, scope, ctx) for a in node.arguments]
            args = f", {joined(sources, ', ')}" if sources else ""
            if name not in c.random_functions:
                return self.hoisted_lazy(f"fn_{name}(s{args})", ctx)
            return f"fn_{name}(s{args})"
        if name == "can_play":  # the action's generated enumerator, asked whether it finds a move
            action = re.sub(r"\W", "_", node.arguments[0].id)
            player = self.source(node.arguments[1], scope, ctx) if len(node.arguments) > 1 else "None"
            return f"can_play(s, legal_{action}, {player})"
        if name == "label":     # the text depends on the value's type: compiled here, not in stdlib
            t = c.type_of(node.arguments[0], scope)
            labeler = self.bind(c.game.labeler("list[" + element_of(t) + "]" if t.startswith("zone[") else t))
            return f"{labeler}(s, {self.collection(node.arguments[0], scope, ctx)})"
        args = [self.collection(a, scope, ctx) for a in node.arguments]
        if name == "size":
            return f"len({args[0]})"
        if name in ("neighbors", "adjacent") and all(is_identifier(a) for a in args):
            # the neighbours of every cell, precomputed: a tuple per cell
            table = self.bind(c.game.neighbor_table(), "neighbors")
            iterating, ctx.iterating = ctx.iterating, False
            if name == "neighbors":
                if iterating:
                    return f"({table}[{args[0]}] if {args[0]} is not None else ())"
                return f"(list({table}[{args[0]}]) if {args[0]} is not None else [])"
            a, b = args
            return f"({a} is not None and {b} is not None and {b} in {table}[{a}])"
        if name == "toward" and all(is_identifier(a) for a in args):
            # the step table of every board, precomputed: cell -> {direction: next cell}
            table = self.bind(self.geometry_functions["all_steps"](), "steps")
            return f"({table}[{args[0]}].get({args[1]}) if {args[0]} is not None else None)"
        if name in self.geometry_functions:
            # the board's geometry, precomputed: its neighbours, lines and 2x2 blocks
            return f"{self.bind(self.geometry_functions[name])}({joined(args, ', ')})"
        if name in ("top", "bottom"):
            at = "-1" if name == "top" else "0"
            if is_identifier(args[0]):
                return self.hoisted(f"({args[0]}[{at}] if {args[0]} else None)", ctx)
            if ctx.no_walrus or name == "bottom":
                return f"{self.bind(stdlib.FUNCTIONS[name])}(s, {args[0]})"
            t = self.temp()
            return f"({t}[-1] if ({t} := {args[0]}) else None)"
        if name == "next" and not c.type_of(node.arguments[0], scope).endswith("?"):    # (next of none: stdlib says so)
            return f"({args[0]} % {c.game.num_players} + 1)"
        fn = self.bind(stdlib.FUNCTIONS[name])
        return f"{fn}(s, {joined(args, ', ')})"

    def inline(self, fn_decl, arguments, scope, ctx):
        """The function's body in place, its parameters standing for the caller's argument
        expressions (simple ones: see can_inline)."""
        c = self.compiler
        sources = {}
        for p, a in zip(fn_decl.parameters, arguments):
            source = self.source(a, scope, ctx)
            sources[p.name] = source if source.isidentifier() else f"({source})"
        fn_scope = c.types.globals.child(**{p.name: c.types.type_name(p.type) for p in fn_decl.parameters})
        inner = Context(ctx.mode, sources)
        inner.no_walrus = ctx.no_walrus
        inner.hoist = ctx.hoist
        inner.lazy = ctx.lazy
        inner.outside_loops = ctx.outside_loops
        inner.levels = ctx.levels
        inner.safe = ctx.safe
        inner.rows = ctx.rows
        c.inline_depth += 1
        try:
            return self.source(fn_decl.body, fn_scope, inner)
        finally:
            c.inline_depth -= 1

    # ---- aggregates: comprehensions with the filter fused ----
    def comprehension(self, binder, scope, ctx, rows=False):
        """(variable, domain source, filter source or None, inner scope, inner context); with
        `rows`, inner.rows collects the zone keys a loop over a fixed domain may build once."""
        c = self.compiler
        ctx.no_walrus += 1
        # neighbours only iterated: the board's own tuple, no copy
        ctx.iterating = isinstance(binder.domain, ast.Call) and binder.domain.name == "neighbors"
        try:
            domain = self.collection(binder.domain, scope, ctx)
        finally:
            ctx.no_walrus -= 1
        self.count += 1
        var = f"a{self.count}_{binder.name}"
        domain_type = c.type_of(binder.domain, scope)
        element = strip_optional(element_of(domain_type))
        inner_scope = scope.child(**{binder.name: element})
        inner = ctx.child(**{binder.name: var})
        values = c.static_domain(binder.domain) if rows else None
        inner.rows = KeyRows(self, var, values) if values else None
        if self.never_none_domain(binder.domain, domain_type, scope):
            self.safe_names.add(var)
        where = truth(self.source(binder.condition, inner_scope, inner)) if binder.condition is not None else None
        return var, domain, where, inner_scope, inner

    def never_none_domain(self, domain, domain_type, scope) -> bool:
        c = self.compiler
        if domain_type.startswith("zone[") or isinstance(domain, ast.Range):
            return True
        return isinstance(domain, ast.Name) and (domain.id in c.types.components or domain.id in c.types.boards
                                                 or domain.id in ("players", "Player"))

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
            inner_scope = scope.child(**{node.binder.name: "int"})
            chain = "None"
            tried = list(values) if kind != "max" else list(values)[::-1]
            for value in reversed(tried):      # built from the last one tried
                inner = ctx.child(**{node.binder.name: repr(value)})
                condition = self.source(node.binder.condition, inner_scope, inner)
                chain = f"({value} if {condition}{gap(condition, chain)}else {chain})"
            return chain
        if values is None or kind not in ("any", "all", "count", "sum") or \
                (kind in ("any", "all") and node.value is not None and node.binder.condition is not None):
            return None
        inner_scope = scope.child(**{node.binder.name: "int"})
        parts = []
        for value in values:
            inner = ctx.child(**{node.binder.name: repr(value)})
            where = node.binder.condition
            condition = self.source(where, inner_scope, inner) if where is not None else None
            if condition is not None and not self.boolean(where, inner_scope):
                condition = f"bool({condition})"
            body = self.source(node.value, inner_scope, inner) if node.value is not None else None
            if body is not None and kind in ("any", "all") and not self.boolean(node.value, inner_scope):
                body = f"bool({body})"
            if kind in ("any", "all"):
                parts.append(condition if body is None else body)
            elif kind == "count":
                parts.append(condition if condition is not None else "1")
            else:
                term = f"({body if body is not None else repr(value)} or 0)"
                parts.append(term if condition is None else f"({term} if {condition} else 0)")
        if kind in ("any", "all"):
            if parts[0] is None:          # all/any of a non-empty range without a filter or a value
                return "True"
            return "(" + joined(parts, f" {'or' if kind == 'any' else 'and'} ") + ")"
        return "(" + joined(["0"] + parts, " + ") + ")"

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
        var, domain, where, inner_scope, inner = self.comprehension(node.binder, scope, ctx, rows=True)
        body = self.source(node.value, inner_scope, inner) if node.value is not None else var
        if node.value is not None and where is not None:
            where, body = top_of_tested(where, body)
        if node.value is not None and where is not None and ":=" in where:
            body = reusing(body, filter_values(where))      # sum(x where f(x) > 0: f(x)): f once
        target, rows = inner.rows.iteration(domain) if inner.rows is not None else (var, domain)
        domain = self.charged(node, domain)
        rows = self.charged(node, rows)
        cond = f"{gap(rows, where)}if {where}" if where is not None else ""
        loop = f"{gap(body, rows)}for {target} in {rows}{cond}"      # (a space, or a new line when long)
        kind = node.kind
        if kind == "count":
            return f"len({domain})" if where is None else f"len([1{loop}])"
        if kind == "filter":
            return f"list({domain})" if where is None else f"[{var}{loop}]"
        if kind == "map":
            return f"[{body}{loop}]"
        if kind == "first":
            if where is None:
                return f"next(iter({domain}), None)"      # (no generator to make)
            return f"next(({var}{loop}), None)"
        if kind in ("any", "all") and node.value is None:
            # no ':' part: any = some item passes the filter, all = every item passes it
            if kind == "any":
                return f"any(True{loop})"
            return "True" if where is None else f"all({where}{gap(where, rows)}for {target} in {rows})"
        if kind == "any":
            return f"any({body}{loop})"
        if kind == "all":
            return f"all({body}{loop})"
        if kind == "sum":
            return f"sum([({body} or 0){loop}])"
        helper = "largest" if kind == "max" else "smallest"
        return f"{helper}([{body}{loop}])"

    def invariant_first(self, node, scope, ctx):
        """`any(x in D where A or B)` whose first disjuncts A do not name x (`size(bag) > 0 or
        can_capture(t)`): A is the same for every item, so it is tested once, when D is not
        empty, and B alone per item: `(D and A) or any(x in D where B)`, D read once. The same
        answer and the same errors (A is what each item tries first). None where it does not
        apply (invariant_split)."""
        split = self.invariant_split(node, scope) if not ctx.no_walrus else None
        if split is None:
            return None
        rest, invariant = split
        var, domain, where, _, _ = self.comprehension(rest.binder, scope, ctx)
        invariant = truth(self.source(invariant, scope, ctx))
        if is_identifier(domain):
            bound = items = domain
        else:
            items = self.temp()
            bound = f"({items} := {domain})"
        return f"(True if ({bound} and {invariant}) else any(True for {var} in {self.charged(rest, items)} if {where}))"

    def invariant_split(self, node, scope):
        """(the aggregate with B alone as its filter, A) of `any(x in D where A or B)` whose
        first disjuncts A do not name x and draw nothing; None where A names x, where D is no
        zone or list (whose truth says whether it is empty) or a board's cells (never empty,
        read by rows)."""
        condition = node.binder.condition
        if node.kind != "any" or node.value is not None or not isinstance(condition, ast.Or) \
                or self.compiler.static_domain(node.binder.domain):
            return None
        if not self.compiler.type_of(node.binder.domain, scope).startswith(("zone[", "list[")):
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

    def maintained_filter(self, node, scope, ctx, parameters):
        """A cached function's body that is a filter over a fixed domain: (its source, and when
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
        var, domain, where, _, inner = self.comprehension(node.binder, scope, ctx, rows=True)
        if not inner.rows.templates:
            return f"[{var} for {var} in {domain} if {where}]", None
        target, rows = inner.rows.iteration(domain)
        scan = f"[{var} for {target} in {rows} if {where}]"
        row_names = {row for row, _ in inner.rows.templates.values()}
        if not self.reads_only_rows(where, var, row_names, {f"L_{p}" for p in parameters}):
            return scan, None
        ascending = all(isinstance(x, int) for x in values) and list(values) == sorted(values)
        order = "None" if ascending else self.bind({x: k for k, x in enumerate(values)}, "order")
        return scan, MaintainedFilter(target, f"({var}, {where})", inner.rows.rows_of_keys(), order, len(values))

    def stopping_loop(self, node, scope, ctx):
        """A function's body that is `any` or `all` over a domain: lines that set `value` by a
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
            var, domain, where, _, _ = self.comprehension(rest.binder, scope, ctx)
            items = self.temp()
            return ["    value = False", f"    {items} = {domain}",
                    f"    if {items} and {truth(self.source(invariant, scope, ctx))}:", "        value = True",
                    "    else:", f"        for {var} in {self.charged(rest, items)}:",
                    f"            if {where}:", "                value = True", "                break"]
        var, domain, where, inner_scope, inner = self.comprehension(node.binder, scope, ctx, rows=True)
        body = self.source(node.value, inner_scope, inner) if node.value is not None else None
        if body is not None and where is not None and ":=" in where:
            body = reusing(body, filter_values(where))
        target, rows = inner.rows.iteration(domain) if inner.rows is not None else (var, domain)
        found = node.kind == "any"        # the answer of the item that stops the loop
        before, (where, body) = attributes_read_once([where, body], self.temp)
        before = [f"    {line}" for line in before]
        if found:       # any: an item that passes the filter and whose value is true
            tests = [f"({t})" for t in (where, body) if t is not None]
        elif body is not None:      # all: an item that passes the filter, its value false
            tests = [f"({t})" for t in (where,) if t is not None] + [f"not ({body})"]
        elif where is not None:     # all: an item that fails
            tests = [f"not ({where})"]
        else:
            return ["    value = True"]          # all of a domain without a filter or a value
        stop = [f"        if {' and '.join(tests)}:", f"            value = {found}", "            break"] if tests \
            else ["        value = True", "        break"]
        return [f"    value = {not found}", *before, f"    for {target} in {self.charged(node, rows)}:", *stop]

    # what a maintained filter's condition may name besides its rows and values: pure helpers
    PURE_NAMES = frozenset({"len", "any", "all", "next", "iter", "sum", "min", "max", "bool", "abs", "list",
                            "tuple", "set", "sorted", "EMPTY", "none_error", "item_at", "present", "within",
                            "order", "largest", "smallest"})

    def reads_only_rows(self, where, var, row_names, parameters) -> bool:
        """Whether a filter's condition reads the state only as `_Z.get(row)` of its rows' keys
        (so a value's answer changes only when a key of its row does): the comprehension's
        variable, the parameters, temporaries, columns of attributes (no statement changes
        them: the function reads no variable), values bound when compiling, pure helpers."""
        tree = python_ast.parse(where, mode="eval")
        rows_read = set()
        for node in python_ast.walk(tree):
            if isinstance(node, python_ast.Call) and isinstance(node.func, python_ast.Attribute) and \
                    isinstance(node.func.value, python_ast.Name) and node.func.value.id == "_Z" and \
                    node.func.attr == "get" and node.args and isinstance(node.args[0], python_ast.Name) and \
                    node.args[0].id in row_names:
                rows_read.add(id(node.func.value))
        for node in python_ast.walk(tree):
            if not isinstance(node, python_ast.Name):
                continue
            name = node.id
            if name == "_Z":
                if id(node) not in rows_read:
                    return False
            elif not (name == var or name in row_names or name in parameters or name in self.PURE_NAMES
                      or re.fullmatch(r"_t\d+|_A\d+|a\d+_\w+", name)
                      or (re.fullmatch(r"_[a-z_]+\d+", name) and name in self.namespace)):
                return False
        return True

    def indexed_keys(self, indexed, scope, ctx, ordered=True) -> str:
        """The indexes of a variable that hold a value, from the table the state keeps of it
        (Compiler.var_indexes): a list not to be changed (in domain order unless not `ordered`)."""
        c = self.compiler
        family, value, _, _ = indexed
        domain = self.bind(c.static_domain(c.types.vars[family].index[0]), "domain")
        default = self.literal(c.game.var_defaults[family])
        table = f"var_table(s, {family!r}, {domain}, {default})"
        if value is not None:
            return f"{table}.get({self.source(value, scope, ctx)}, EMPTY)"
        # v[x] == x: the values that are indexes and among the indexes holding them, in domain
        # order (a few values, where the domain is a board's cells)
        positions = c.game.var_positions[family]
        place = self.bind(positions, "positions")
        found = f"[x for x, holding in {table}.items() if x in {place} and x in holding]"
        if not ordered:
            return found
        if all(type(x) is int for x in positions) and list(positions) == sorted(positions):
            return f"sorted({found})"
        return f"sorted({found}, key={place}.__getitem__)"

    def indexed_aggregate(self, node, indexed, scope, ctx) -> str:
        """filter/count/any/all over a variable's domain by its value: the table's indexes for
        that value, tried against the other conditions that name the binder, if any; the
        conditions that do not are tested once."""
        _, _, guards, rest = indexed
        kind = node.kind
        ctx.no_walrus += 1          # (the iterable of a comprehension)
        try:
            keys = self.indexed_keys(indexed, scope, ctx, ordered=kind == "filter")
        finally:
            ctx.no_walrus -= 1
        if rest:
            condition = rest[0]
            for more in rest[1:]:
                condition = ast.And(condition.span, condition, more)
            var, _, where, _, _ = self.comprehension(attrs.evolve(node.binder, condition=condition), scope, ctx)
            loop = f"for {var} in {self.charged(node, keys)} if {where}"
            found = {"filter": f"[{var} {loop}]", "count": f"len([1 {loop}])", "any": f"any(True {loop})"}[kind]
        else:
            fresh = indexed[1] is None      # (the fixed points are a new list: no copy)
            found = {"filter": keys if fresh else f"list({keys})", "count": f"len({keys})",
                     "any": f"(not not {keys})", "all": f"(not {keys})"}[kind]
        if not guards:
            return found
        test = " and ".join(f"({self.source(g, scope, ctx)})" for g in guards)
        otherwise = {"filter": "[]", "count": "0", "any": "False", "all": "True"}[kind]
        return f"({found} if {test} else {otherwise})"

    def charged(self, node, domain) -> str:
        """The domain of an aggregate (or ranking), charged to the step's work budget when it
        runs unless what it costs is bounded when compiling (work.py)."""
        charged, units = self.compiler.work.iteration(node)
        if not charged:
            return domain
        return f"charged(STEP, {domain}, {units}, {self.bind(node.span, 'span')})"

    def visit_Ranking(self, node, scope, ctx):
        var, domain, where, inner_scope, inner = self.comprehension(node.binder, scope, ctx)
        domain = self.charged(node, domain)
        sources = [f"({self.source(k, inner_scope, inner)} or 0)" for k in node.keys]
        cond = f"{gap(domain, where)}if {where}" if where is not None else ""
        later = sources[1:]
        # a key the filter computed already (`by f(p)` after `where f(p) > 0`): its value, read
        # in the same item's round (not in the lambda below: that runs after the loop)
        kept = filter_values(where) if where is not None and ":=" in where else {}
        reused = [f"({reusing(self.source(k, inner_scope, inner), kept)} or 0)" for k in node.keys] if kept else sources
        if (node.kind != "sorted" and later and temporaries_of_their_own(", ".join(later), reused[0] + cond)
                and not any(isinstance(n, ast.Call) and n.name in self.compiler.random_functions
                            for n in ast.walk(node.keys[1:]))):
            # the tie-breaking keys only for the tied values (a lambda, whose ':=' bind there:
            # only temporaries the keys bind and read themselves; a draw must happen as often
            # as before)
            first = f"[({reused[0]}, {var}){gap(reused[0], domain)}for {var} in {domain}{cond}]"
            tie = f"lambda {var}: ({joined(later, ', ')}, )"
            return f"ranked_ties({node.kind!r}, {first},{gap(first, tie)}{tie})"
        keys = "".join(f"{k}, " for k in reused)
        return f"ranked({node.kind!r}, [(({keys}), {var}){gap(keys, domain)}for {var} in {domain}{cond}])"


def names_in(node) -> set:
    """Every name an expression mentions (a safe over-approximation of what it depends on)."""
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def simple_argument(node) -> bool:
    """An argument cheap and pure enough to be evaluated again wherever it is used."""
    while isinstance(node, ast.Attribute):
        node = node.obj
    return isinstance(node, (ast.Name, ast.Integer, ast.Text, ast.Boolean, ast.Nothing))


def can_inline(fn_decl, arguments) -> bool:
    """Inline a call when every argument is simple and no name the body binds could capture a
    name the arguments use."""
    if not all(simple_argument(a) for a in arguments):
        return False
    bound = {n.name for n in ast.walk(fn_decl.body) if isinstance(n, ast.Binder)}
    used = set().union(*(names_in(a) for a in arguments)) if arguments else set()
    return not (bound & used) and not (bound & {p.name for p in fn_decl.parameters})
