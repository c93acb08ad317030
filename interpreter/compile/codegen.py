"""Rules expressions -> the IR (ir.py), for one module per compiled game.

Every fn, proc, action (its legal-move enumeration and its effect), trigger, the setup and the
steps of the flow become plain Python functions in one generated module. Rules locals are
Python locals (`L_name`), aggregates are comprehensions with their filter fused
(lower_aggregates.py), small pure functions are inlined, the state's zones, variables and
entities are read through named operations (ReadZone, ReadVar, ReadAttribute, ...).
`lower` gives an expression's IR; `source` its Python text (render_python.py), which the
statement compiler (compiler.py) still writes around.

Expressions are lowered in a context that says how a rules local is spelled: a Python local
(functions, procedures, actions), a key of the flow's environment dict (`e['name']`, the flow
keeps its loop variables in the state), or a comprehension variable.
"""
from __future__ import annotations

import contextlib

from referee.dsl import ast
from referee.dsl.builtins import SEAT_LISTS
from referee.dsl.limits import MAX_RANGE
from referee.dsl.map_typing import MAP_FUNCTIONS
from referee.dsl.orders import ordered_enum
from referee.dsl.types import (BOOL, INT, ListOf, MapOf, OptionalOf, Real, SetOf, Unknown, ZoneOf, element_type, named_type,
                               type_of)
from referee.dsl.visitor import EXPRESSIONS, Visitor

from .. import runtime
from ..runtime import sets, stdlib, value_maps
from ..runtime.errors import RulesRuntimeError
from . import ir
from .expression_facts import (binds_locals, is_bare_name, is_comprehension_variable, is_constant, is_temporary,
                               is_text_literal, mentioned_locals, name_of, none_test, number_value)
from .generated_names import BoundConstant, Hoisted, ModuleValue, RulesFunction, RulesLocal, Temporary, rules_local
from .lower_aggregates import UNROLL, AggregateLowering, MaintainedFilter, names_in
from .render_python import expression as rendered

EMPTY_SET: frozenset = frozenset()      # {} of the rules
EMPTY_MAP: dict = {}                    # {:} of the rules (a map is never changed in place)

__all__ = ["UNROLL", "Context", "MaintainedFilter", "SourceGenerator", "names_in", "can_inline"]

NONE = ir.Constant(None)


def is_not_none(value: ir.Expression) -> ir.Compare:
    return ir.Compare("is not", value, NONE)


def as_node(value) -> ir.Expression:
    """A bound name as IR: the IR it is bound to, or a local given by its name."""
    return value if isinstance(value, ir.Expression) else ir.Local(value)


def python_name(name: str) -> str:
    """A rules name as part of a Python name: what is no letter, digit or _ becomes _."""
    return "".join(c if c.isalnum() or c == "_" else "_" for c in name)


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

    def name(self, name) -> ir.Expression:
        """A rules local as IR."""
        if name in self.bound:
            return as_node(self.bound[name])
        return ir.Local(rules_local(name)) if self.mode == "local" else ir.ReadEnv(name)

    def local(self, name) -> str:
        return rendered(self.name(name))

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


class SourceGenerator(AggregateLowering, Visitor):
    kinds = EXPRESSIONS

    def __init__(self, compiler):
        self.compiler = compiler
        self.namespace = runtime.namespace()
        self.count = 0
        self.bound_values = {}     # id(value) -> name, so that one value is bound once
        self.safe_names = set()    # comprehension variables that are never 'none'
        self.substitutions = {}    # id(aggregate node) -> the expression (IR) that replaces it
        self.made_nodes = []       # nodes made while compiling (work.py keeps costs by id: kept alive)
        self.geometry_functions = compiler.game.board_functions

    # ---- names in the generated module ----
    def bind(self, value, hint="k") -> str:
        """A name in the generated module that stands for a Python value."""
        known = self.bound_values.get(id(value))
        if known is not None and self.namespace.get(known) is value:
            return known
        self.count += 1
        name = BoundConstant(f"_k{self.count}") if hint == "k" else ModuleValue(f"_{hint}{self.count}")
        self.namespace[str(name)] = value    # (a plain str key: a dict of only those reads globals faster)
        self.bound_values[id(value)] = name
        return name

    def temp(self) -> str:
        self.count += 1
        return Temporary(f"_t{self.count}")

    def literal_node(self, value) -> ir.Expression:
        if value is None or isinstance(value, (bool, int, str)):
            return ir.Constant(value)
        return ir.Global(self.bind(value))

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
            if name in c.game.place_ids:
                return (c.game.place_ids[name],)
        return None

    def is_local(self, name, scope, ctx) -> bool:
        return name in ctx.bound or (scope.lookup(name) is not None and name not in self.compiler.types.globals.names)

    # ---- expressions ----
    def lower(self, node, scope, ctx) -> ir.Expression:
        """An expression's IR."""
        return self.dispatch(node, scope, ctx)

    def collection_node(self, node, scope, ctx) -> ir.Expression:
        """A sequence: a zone's content when the expression is a zone."""
        value = self.lower(node, scope, ctx)
        t = self.compiler.type_value(node, scope).without_none()
        if isinstance(t, ZoneOf):
            return self.hoisted(ir.ReadZone(value, empty=True), ctx)
        if isinstance(t, SetOf):        # in the language's order, never the hash order
            return ir.Call(self.bind(sets.set_items, "set"), (value, self.positions()))
        if isinstance(t, MapOf):        # its keys, in the language's order
            return ir.Call(self.bind(value_maps.map_keys, "map"), (value, self.positions()))
        return value

    def positions(self) -> ir.Expression:
        """The position of every enum member in its enum (the language's order of values)."""
        return ir.Global(self.bind(self.compiler.game.member_positions, "position"))

    def whole_value(self, node, scope, ctx) -> ir.Expression:
        """A collection taken whole (its size, its label): a set or a map as it is, not in order."""
        if isinstance(self.compiler.type_value(node, scope).without_none(), (SetOf, MapOf)):
            return self.lower(node, scope, ctx)
        return self.collection_node(node, scope, ctx)

    def map_key(self, node, t: MapOf, scope, ctx) -> ir.Expression:
        """A key as a map holds it: a list as a tuple (a key of a type not known: frozen too)."""
        key = self.lower(node, scope, ctx)
        if isinstance(t.key.without_none(), (ListOf, Unknown)):
            return ir.Call(self.bind(sets.frozen, "set"), (key,))
        return key

    def map_call(self, node, scope, ctx) -> ir.Expression:
        """keys(m) and values(m) in the order of the keys; get(m, k, default) one lookup."""
        t = self.compiler.type_value(node.arguments[0], scope).without_none()
        m = self.lower(node.arguments[0], scope, ctx)
        if node.name == "get":
            default = self.lower(node.arguments[2], scope, ctx)
            return ir.Method(m, "get", (self.map_key(node.arguments[1], t, scope, ctx), default))
        function = value_maps.map_keys if node.name == "keys" else value_maps.map_values
        return ir.Call(self.bind(function, "map"), (m, self.positions()))

    def member_test(self, op: str, node, scope, ctx) -> ir.Expression:
        """x in C / x not in C: a set or a map is asked at once (a list it holds as a tuple)."""
        t = self.compiler.type_value(node.collection, scope).without_none()
        if isinstance(t, MapOf):        # one lookup among the keys
            return ir.Grouped(ir.Compare(op, self.map_key(node.item, t, scope, ctx), self.lower(node.collection, scope, ctx)))
        item = self.lower(node.item, scope, ctx)
        if not isinstance(t, SetOf):
            return ir.Grouped(ir.Compare(op, item, self.collection_node(node.collection, scope, ctx)))
        if isinstance(t.element.without_none(), (ListOf, Unknown)):
            item = ir.Call(self.bind(sets.frozen, "set"), (item,))
        return ir.Grouped(ir.Compare(op, item, self.lower(node.collection, scope, ctx)))

    def hoisted(self, value: ir.Expression, ctx) -> ir.Expression:
        """A read of the state that is the same wherever it appears while legal moves are
        listed: computed once, at the loop level where the locals it reads are known."""
        if ctx.hoist is None or binds_locals(value):
            return value
        names = mentioned_locals(value)
        if any(is_temporary(n) or is_comprehension_variable(n) or n == "e" for n in names):
            return value        # it changes inside the expression: not hoisted
        names = {n for n in names if isinstance(n, (RulesLocal, Hoisted))}
        if any(n not in ctx.levels for n in names):
            return value       # it needs a let: not hoisted
        if ctx.outside_loops and any(ctx.levels[n] >= 0 for n in names):
            return value       # a domain listed before the loops: only what needs no binder
        known = ctx.hoist.get(value)
        if known is None:
            self.count += 1
            known = ctx.hoist[value] = Hoisted(f"_h{self.count}")
            ctx.levels[known] = max((ctx.levels[n] for n in names), default=-1)
        return ir.Local(known)

    def hoisted_lazy(self, value: ir.Expression, ctx) -> ir.Expression:
        """A variable read or a call of a pure function while legal moves are listed: computed
        at most once per round of the loop level where its arguments are known, and only where
        the rules ask for it (a call may fail where a test before it would have stopped it, and
        an 'or' may not need it)."""
        if ctx.hoist is None or ctx.no_walrus or binds_locals(value):
            return value
        temp = self.hoisted(value, ctx)
        if temp is value:
            return value
        ctx.lazy.add(temp.name)
        return ir.FirstUse(temp.name, value)

    def visit_Integer(self, node, scope, ctx):
        return ir.Constant(node.value)

    visit_Text = visit_Boolean = visit_Integer

    def visit_Nothing(self, node, scope, ctx):
        return NONE

    def visit_Name(self, node, scope, ctx):
        name = node.id
        c = self.compiler
        if self.is_local(name, scope, ctx):
            return ctx.name(name)
        constant = self.constant_of(node, ctx)
        if constant is not None:
            return self.literal_node(constant[0])
        if name == "current":
            return self.hoisted(ir.ReadState("current"), ctx)
        if name in SEAT_LISTS:
            return ir.Global(self.bind(c.game.seats))
        if name in c.types.enums:
            return ir.Global(self.bind(c.game.enum_members[name]))
        if name in c.types.components:
            return ir.ComponentsOf(name)
        if name in c.types.boards:
            return ir.Global(self.bind(c.game.geometries[name].cells))
        if name in c.types.zones:
            return ir.Constant(name)
        if name in c.types.vars:
            return self.hoisted_lazy(ir.ReadVar(ir.Constant(name), self.default_of(name, node)), ctx)
        return ctx.name(name)

    def default_of(self, var, node) -> ir.Expression:
        """A variable's initial value (known once the variables are set up)."""
        defaults = self.compiler.game.var_defaults
        if var not in defaults:      # read while the initial values themselves are computed
            raise RulesRuntimeError(f"'{var}' is read before the game starts: an initial value or a "
                                    f"param cannot depend on a variable", node.span)
        return self.literal_node(defaults[var])

    def visit_ListLiteral(self, node, scope, ctx):
        return ir.NewList(tuple(self.lower(i, scope, ctx) for i in node.items), spread=True)

    def visit_SetLiteral(self, node, scope, ctx):
        if not node.items:
            return ir.Global(self.bind(EMPTY_SET, "set"))
        items = ir.NewList(tuple(self.lower(i, scope, ctx) for i in node.items), spread=True)
        return ir.Call(self.bind(sets.new_set, "set"), (items, ir.Global(self.bind(node.span, "span"))))

    def visit_MapLiteral(self, node, scope, ctx):
        if not node.entries:
            return ir.Global(self.bind(EMPTY_MAP, "map"))
        keys = ir.NewList(tuple(self.lower(e.key, scope, ctx) for e in node.entries), spread=True)
        values = ir.NewList(tuple(self.lower(e.value, scope, ctx) for e in node.entries), spread=True)
        return ir.Call(self.bind(value_maps.new_map, "map"), (keys, values, ir.Global(self.bind(node.span, "span"))))

    def visit_Conditional(self, node, scope, ctx):
        c, a, b = (self.lower(n, scope, ctx) for n in (node.condition, node.then, node.otherwise))
        return ir.Grouped(ir.Conditional(c, a, b, layout="spread"))

    def boolean(self, node, scope) -> bool:
        return self.compiler.type_value(node, scope) == BOOL

    def visit_Or(self, node, scope, ctx):
        a = self.lower(node.left, scope, ctx)
        with self.narrowed(a, "is", ctx):      # x == none or ...: x is some value on the right
            b = self.lower(node.right, scope, ctx)
        either = ir.BoolOp("or", (a, b), spread=True)
        if self.boolean(node.left, scope) and self.boolean(node.right, scope):
            return ir.Grouped(either)
        return ir.Call("bool", (either,))

    def visit_And(self, node, scope, ctx):
        a = self.lower(node.left, scope, ctx)
        with self.narrowed(a, "is not", ctx):  # x != none and ...: x is some value on the right
            b = self.lower(node.right, scope, ctx)
        both = ir.BoolOp("and", (a, b), spread=True)
        if self.boolean(node.left, scope) and self.boolean(node.right, scope):
            if is_constant(a, True) or is_constant(b, True):     # (a none test found needless: the other side alone)
                return b if is_constant(a, True) else a
            return ir.Grouped(both)
        return ir.Call("bool", (both,))

    @contextlib.contextmanager
    def narrowed(self, test, op, ctx):
        """While the right side of 'and'/'or' is lowered: the name that `test` (the left side)
        found to be (op "is") or not to be ("is not") none needs no more none test there."""
        name = none_test(test, op)
        if name is None or name in ctx.safe:
            yield
            return
        ctx.safe.add(name)
        try:
            yield
        finally:
            ctx.safe.discard(name)

    def visit_Not(self, node, scope, ctx):
        return ir.Grouped(ir.Not(self.lower(node.operand, scope, ctx)))

    def is_safe(self, value, ctx) -> bool:
        """Whether a lowered value is a name known never to be none here."""
        return isinstance(value, (ir.Local, ir.Global)) and value.name in ctx.safe

    def visit_Compare(self, node, scope, ctx):
        emptiness = self.count_against_zero(node, scope, ctx)
        if emptiness is None:
            emptiness = self.size_against_zero(node, scope, ctx)
        if emptiness is not None:
            return emptiness
        a, b = self.lower(node.left, scope, ctx), self.lower(node.right, scope, ctx)
        op = node.op
        if op not in ("==", "!=") and ordered_enum(self.compiler.type_value(node.left, scope),
                                                   self.compiler.type_value(node.right, scope), self.compiler.types.enums):
            a, b = self.member_position(a), self.member_position(b)     # members by their enum's order
        if op in ("==", "!="):
            if is_constant(b, None) or is_constant(a, None):
                other = a if is_constant(b, None) else b
                if self.is_safe(other, ctx) or number_value(other) is not None or is_constant(other, True) or \
                        is_constant(other, False) or is_text_literal(other):
                    return ir.Constant(op != "==")     # (a literal is never none)
                if is_constant(other, None):
                    return ir.Constant(op == "==")
                return ir.Grouped(ir.Compare("is" if op == "==" else "is not", other, NONE))
            return ir.Grouped(ir.Compare(op, a, b, spread=True))
        # an order with 'none' on either side is false
        sure_a, sure_b = self.surely(node.left, scope, ctx), self.surely(node.right, scope, ctx)
        if sure_a and sure_b:
            return ir.Grouped(ir.Compare(op, a, b, spread=True))
        simple_a = name_of(a) is not None or sure_a
        simple_b = name_of(b) is not None or sure_b
        if simple_a and simple_b:
            checks = [is_not_none(x) for x, sure in ((a, sure_a), (b, sure_b)) if not sure]
            return ir.Grouped(ir.BoolOp("and", (*checks, ir.Compare(op, a, b, spread=True)), spread=True))
        if ctx.no_walrus:
            return ir.Call("order", (a, ir.Constant(op), b))
        checks, operands = [], []
        for x, n, simple in ((a, node.left, simple_a), (b, node.right, simple_b)):
            if self.surely(n, scope, ctx):
                operands.append(x)
            elif simple:
                checks.append(is_not_none(x))
                operands.append(x)
            else:
                t = self.temp()
                checks.append(is_not_none(ir.Named(t, x)))
                operands.append(ir.Local(t))
        return ir.Grouped(ir.BoolOp("and", (*checks, ir.Compare(op, *operands, spread=True)), spread=True))

    ZERO_TESTS = {(0, "=="): False, (0, "!="): True, (0, ">"): True, (1, ">="): True, (1, "<"): False, (0, "<="): False}
    MIRRORED = {"<": ">", ">": "<", "<=": ">=", ">=": "<="}

    def count_against_zero(self, node, scope, ctx):
        """count(x in D where c) == 0 (or != 0, > 0, >= 1, < 1): whether any x passes, which
        can stop at the first one."""
        for count, zero, op in ((node.left, node.right, node.op),
                                (node.right, node.left, self.MIRRORED.get(node.op, node.op))):
            if isinstance(count, ast.Aggregate) and count.kind == "count" and count.value is None and \
                    count.binder.condition is not None and isinstance(zero, ast.Integer) and \
                    id(count) not in self.substitutions:
                some = self.ZERO_TESTS.get((zero.value, op))
                if some is None:
                    return None
                whether = ast.Aggregate(count.span, "any", count.binder, None)
                indexed = self.compiler.indexed_reads.get(id(count))       # a table of the count's values
                found = self.indexed_aggregate(whether, indexed, scope, ctx) if indexed is not None else \
                    self.visit_Aggregate(whether, scope, ctx)
                return found if some else ir.Grouped(ir.Not(found))
        return None

    def size_against_zero(self, node, scope, ctx):
        """size(z) > 0 (== 0, >= 1...) of a zone or list: its truth, without counting."""
        for size, zero, op in ((node.left, node.right, node.op),
                               (node.right, node.left, self.MIRRORED.get(node.op, node.op))):
            if isinstance(size, ast.Call) and size.name == "size" and len(size.arguments) == 1 and \
                    isinstance(zero, ast.Integer) and size.name not in self.compiler.types.functions:
                some = self.ZERO_TESTS.get((zero.value, op))
                t = self.compiler.type_value(size.arguments[0], scope).without_none()
                if some is None or not isinstance(t, (ZoneOf, ListOf)):
                    return None
                items = self.collection_node(size.arguments[0], scope, ctx)
                if isinstance(items, ir.ReadZone) and items.empty:
                    items = ir.ReadZone(items.key)       # a missing zone is empty: None is false too
                return ir.Grouped(ir.Not(ir.Not(items))) if some else ir.Grouped(ir.Not(items))
        return None

    def visit_Member(self, node, scope, ctx):
        if isinstance(node.collection, ast.Range):     # a test, whatever the range's length
            low, high = self.lower(node.collection.low, scope, ctx), self.lower(node.collection.high, scope, ctx)
            item = self.lower(node.item, scope, ctx)
            if number_value(low) is not None and number_value(high) is not None and name_of(item) is not None:
                return ir.Grouped(ir.BoolOp("and", (is_not_none(item), ir.Between(low, item, high))))
            return ir.Call("within", (item, low, high))
        return self.member_test("in", node, scope, ctx)

    def visit_NotMember(self, node, scope, ctx):
        if isinstance(node.collection, ast.Range):
            return ir.Grouped(ir.Not(self.visit_Member(node, scope, ctx)))
        return self.member_test("not in", node, scope, ctx)

    def visit_Range(self, node, scope, ctx):
        low, high = self.lower(node.low, scope, ctx), self.lower(node.high, scope, ctx)
        first, last = number_value(low), number_value(high)
        if first is not None and last is not None and last - first < MAX_RANGE:
            return ir.Call("range", (low, ir.Constant(last + 1)))       # known when compiled (params included)
        if self.short_range(node):
            return ir.Call("range", (low, ir.Arithmetic("+", high, ir.Constant(1))))
        return ir.Call("numbers", (low, high, ir.Global(self.bind(node.span, "span"))))

    def short_range(self, node) -> bool:
        """Whether a range's ends are never none and always fewer than MAX_RANGE numbers apart:
        constants, and variables of type int (never none: a none stored is an error) with a
        declared range (`1..columns + 1`, `columns: int in 1..48`)."""
        work, types = self.compiler.work, self.compiler.types
        low, high = work.bounds(node.low), work.bounds(node.high)
        if low is None or high is None or high[1] - low[0] >= MAX_RANGE:
            return False
        names = names_in(node.low) | names_in(node.high)
        return all(self.compiler.declared_type(types.vars[n].type) == INT for n in names if n in types.vars)

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
                value = ctx.name(node.id)      # (a value of an unrolled range: a number)
                number = isinstance(value, ir.Constant) and type(value.value) is int and value.value >= 0
                return number or self.never_none(node, scope, ctx)
            constant = self.constant_of(node, ctx)
            if constant is not None:
                return constant[0] is not None
            return node.id == "current"
        if isinstance(node, ast.Attribute):
            kind = named_type(self.compiler.type_value(node.obj, scope))
            if not self.surely(node.obj, scope, ctx):
                return False
            if kind in self.compiler.types.boards:
                return node.name in ("row", "col")      # (a board cell's row and column are always known)
            # a component's attribute of a type without '?': given when it was created, never
            # set to none since (both refused: E207, and the located error of a none written)
            declared = self.compiler.types.fields_of(kind) if kind in self.compiler.types.components else None
            field = declared.get(node.name) if declared else None
            return field is not None and not isinstance(type_of(field), (OptionalOf, Unknown))
        return False

    def number_node(self, node, scope, ctx, span: ir.Expression) -> ir.Expression:
        """A number operand: 'none' is reported as a located error."""
        value = self.lower(node, scope, ctx)
        if self.surely(node, scope, ctx):
            return value
        return self.unless_none(value, ctx, lambda x: x, ir.Call("none_error", (span,)),
                                ir.Call("present", (value, span)))

    def unless_none(self, value, ctx, use, on_none, helper) -> ir.Expression:
        """use(value) of a value that may be none (then: on_none), evaluated once; `helper`
        where no ':=' may stand (in a comprehension's iterable)."""
        if self.is_safe(value, ctx):
            return use(value)
        if name_of(value) is not None:
            return ir.Grouped(ir.Conditional(is_not_none(value), use(value), on_none))
        if ctx.no_walrus:
            return helper
        t = self.temp()
        return ir.Grouped(ir.Conditional(is_not_none(ir.Named(t, value)), use(ir.Local(t)), on_none))

    def visit_Binary(self, node, scope, ctx):
        span = ir.Global(self.bind(node.span, "span"))
        if node.op == "+" and isinstance(self.compiler.type_value(node, scope).without_none(), MapOf):
            joined = self.bind(value_maps.joined_maps, "map")
            return ir.Call(joined, (self.lower(node.left, scope, ctx), self.lower(node.right, scope, ctx), span))
        if node.op == "+" and isinstance(self.compiler.type_value(node, scope).without_none(), SetOf):
            union = self.bind(sets.union, "set")
            return ir.Call(union, (self.lower(node.left, scope, ctx), self.lower(node.right, scope, ctx), span))
        if node.op == "+" and isinstance(self.compiler.type_value(node.left, scope).without_none(), ListOf):
            left = self.lower(node.left, scope, ctx)
            return ir.Call("joined", (ir.Global("STEP"), left, self.lower(node.right, scope, ctx), span))
        a = self.number_node(node.left, scope, ctx, span)
        if node.op in ("//", "%"):
            divisor = ir.Call("divisor", (self.lower(node.right, scope, ctx), span))
            return ir.Grouped(ir.Arithmetic(node.op, a, divisor))
        if node.op == "/":          # exact, never a float (exact.py)
            return ir.Call("quotient", (a, self.number_node(node.right, scope, ctx, span), span))
        b = self.number_node(node.right, scope, ctx, span)
        value = ir.Arithmetic(node.op, a, b, spread=True)
        if (node.op == "*" and number_value(a) is None and number_value(b) is None) or \
                (node.op in "+-" and isinstance(self.compiler.type_value(node, scope), Real)):
            # a product of two values (or a sum of fractions) may square its digits round
            # after round: checked where it is made, before it grows past any memory
            return ir.Call("bounded", (value, span))
        return ir.Grouped(value)

    def visit_Negate(self, node, scope, ctx):
        span = ir.Global(self.bind(node.span, "span"))
        return ir.Grouped(ir.Negative(self.number_node(node.operand, scope, ctx, span)))

    def visit_Attribute(self, node, scope, ctx):
        obj = self.lower(node.obj, scope, ctx)
        t = named_type(self.compiler.type_value(node.obj, scope))
        # every attribute of a component is given when it is created; the attributes of board
        # cells never change: a list indexed by the cell
        if t in self.compiler.types.components:
            column = self.compiler.game.component_column(node.name)
            read = (lambda x: ir.ReadColumn(column, x))
        elif t in self.compiler.types.boards:
            column = self.bind(self.compiler.game.cell_column(node.name), "col")
            read = (lambda x: ir.ReadColumn(column, x))
        else:
            read = (lambda x: ir.ReadAttribute(x, node.name))
        if self.never_none(node.obj, scope, ctx):
            return read(obj)
        helper = ir.Call("attribute", (ir.Entities(), obj, ir.Constant(node.name)))
        return self.unless_none(obj, ctx, read, NONE, helper)

    def never_none(self, node, scope, ctx) -> bool:
        """A comprehension or loop variable over a zone or a type: never 'none'."""
        if not isinstance(node, ast.Name) or not self.is_local(node.id, scope, ctx):
            return False
        value = ctx.name(node.id)
        return isinstance(value, (ir.Local, ir.Global)) and (value.name in self.safe_names or value.name in ctx.safe)

    def key(self, name, indexes, scope, ctx) -> ir.Expression:
        if not indexes:
            return ir.Constant(name)
        values = [self.lower(i, scope, ctx) for i in indexes]
        row = ctx.rows.key_of(name, values) if ctx.rows is not None else None
        return ir.Local(row) if row else ir.Key(name, tuple(values))

    def visit_Subscript(self, node, scope, ctx):
        c = self.compiler
        if isinstance(node.obj, ast.Name) and node.obj.id not in ctx.bound and scope.lookup(node.obj.id) is None:
            name = node.obj.id
            if name in c.types.zones:
                return self.key(name, node.indexes, scope, ctx)
            if name in c.types.vars and (c.types.vars[name].index
                                           or not isinstance(c.declared_type(c.types.vars[name].type), MapOf)):
                default = self.default_of(name, node)
                return self.hoisted_lazy(ir.ReadVar(self.key(name, node.indexes, scope, ctx), default), ctx)
        t = c.type_value(node.obj, scope).without_none()
        if isinstance(t, MapOf):        # m[k]: its value, none when it has no such key
            return ir.Method(self.lower(node.obj, scope, ctx), "get", (self.map_key(node.indexes[0], t, scope, ctx),))
        items = self.collection_node(node.obj, scope, ctx)
        return ir.Call("item_at", (items, self.lower(node.indexes[0], scope, ctx)))

    def visit_LetIn(self, node, scope, ctx):
        """let x = v in e: v computed once, e reads it (a ':=' in a tuple; where no ':=' may
        stand, a lambda)."""
        value = self.lower(node.value, scope, ctx)
        inner_scope = scope.child(**{node.name: self.compiler.type_value(node.value, scope)})
        temp = self.temp()
        body = self.lower(node.body, inner_scope, ctx.child(**{node.name: ir.Local(temp)}))
        if ctx.no_walrus:
            return ir.Apply(ir.Grouped(ir.Lambda((temp,), body)), (value,))
        return ir.Item(ir.Tuple((ir.Named(temp, value), body)), ir.Constant(1))

    def visit_After(self, node, scope, ctx):
        """after P(args): E -- E, read by a generated function from a copy of the state on which
        the procedure ran; the locals E names are passed to it."""
        c = self.compiler
        free = sorted(n for n in names_in(node.value) if self.is_local(n, scope, ctx))
        types = {n: scope.lookup(n) for n in free}
        inner_scope = c.types.globals.child(**types)
        value = self.lower(node.value, inner_scope, Context("local"))
        self.count += 1
        name = f"_after{self.count}"
        c.define(ir.Function(name, ("s", *(rules_local(n) for n in free)), (ir.Return(value, node.span),), node.span), c.where(node))
        args = ir.Arguments(tuple(self.lower(a, scope, ctx) for a in node.arguments))
        passed = ir.Arguments(tuple(ctx.name(n) for n in free))
        procedure = ir.Global(f"proc_{node.procedure}")
        return ir.Call("after_procedure", (ir.TheState(), procedure, args, ir.Global(name), passed))

    def visit_Call(self, node, scope, ctx):
        c = self.compiler
        name = node.name
        if name in c.types.boards:
            cells = c.game.geometries[name].at
            row, col = (self.lower(a, scope, ctx) for a in node.arguments)
            at_row, at_col = number_value(row), number_value(col)
            if at_row is not None and at_col is not None:
                return ir.Constant(cells.get((at_row, at_col)))
            for fixed, other, k in ((at_row, col, 0), (at_col, row, 1)):
                if fixed is not None:
                    # one row (or column) given: its cells by the other coordinate, one lookup
                    line = {rc[1 - k]: eid for rc, eid in cells.items() if rc[k] == fixed}
                    return ir.Method(ir.Global(self.bind(line, "line")), "get", (other,))
            return ir.Method(ir.Global(self.bind(cells)), "get", (ir.Tuple((row, col)),))
        if name in c.types.functions:
            fn_decl = c.types.functions[name]
            if c.inline_depth < 8 and name not in c.memoized and name not in c.not_inlined and \
                    not c.work.charges_at_entry(name) and can_inline(fn_decl, node.arguments):
                return self.inline(fn_decl, node.arguments, scope, ctx)
            args = (ir.TheState(), *(self.lower(a, scope, ctx) for a in node.arguments))
            call = ir.Call(RulesFunction.of(name), args, spread=True)
            if name not in c.random_functions:
                return self.hoisted_lazy(call, ctx)
            return call
        if name == "can_play":  # the action's generated enumerator, asked whether it finds a move
            action = python_name(node.arguments[0].id)
            player = self.lower(node.arguments[1], scope, ctx) if len(node.arguments) > 1 else NONE
            return ir.Call("can_play", (ir.TheState(), ir.Global(f"legal_{action}"), player))
        if name == "label":     # the text depends on the value's type: compiled here, not in stdlib
            t = c.type_value(node.arguments[0], scope)
            labeler = self.bind(c.game.labeler(ListOf(element_type(t)) if isinstance(t.without_none(), ZoneOf) else t))
            return ir.Call(labeler, (ir.TheState(), self.whole_value(node.arguments[0], scope, ctx)))
        if name in MAP_FUNCTIONS:
            return self.map_call(node, scope, ctx)
        args = [self.whole_value(a, scope, ctx) if name == "size" else self.collection_node(a, scope, ctx)
                for a in node.arguments]
        if name == "size":
            return ir.Call("len", (args[0],))
        if name == "index":
            return self.member_position(args[0])
        if name in ("neighbors", "adjacent") and all(name_of(a) is not None for a in args):
            # the neighbours of every cell, precomputed: a tuple per cell
            table = ir.Global(self.bind(c.game.neighbor_table(), "neighbors"))
            iterating, ctx.iterating = ctx.iterating, False
            if name == "neighbors":
                cell = args[0]
                if iterating:
                    return ir.Grouped(ir.Conditional(is_not_none(cell), ir.Item(table, cell), ir.Tuple(())))
                return ir.Grouped(ir.Conditional(is_not_none(cell), ir.Call("list", (ir.Item(table, cell),)),
                                                 ir.NewList(())))
            a, b = args
            touching = ir.Compare("in", b, ir.Item(table, a))
            return ir.Grouped(ir.BoolOp("and", (is_not_none(a), is_not_none(b), touching)))
        if name == "toward" and all(name_of(a) is not None for a in args):
            # the step table of every board, precomputed: cell -> {direction: next cell}
            table = ir.Global(self.bind(self.geometry_functions["all_steps"](), "steps"))
            step = ir.Method(ir.Item(table, args[0]), "get", (args[1],))
            return ir.Grouped(ir.Conditional(is_not_none(args[0]), step, NONE))
        if name in self.geometry_functions:
            # the board's geometry, precomputed: its neighbours, lines and 2x2 blocks
            return ir.Call(self.bind(self.geometry_functions[name]), tuple(args), spread=True)
        if name in ("top", "bottom"):
            at = ir.Constant(-1 if name == "top" else 0)
            if name_of(args[0]) is not None:
                return self.hoisted(ir.Grouped(ir.Conditional(args[0], ir.Item(args[0], at), NONE)), ctx)
            if ctx.no_walrus or name == "bottom":
                return ir.Call(self.bind(stdlib.FUNCTIONS[name]), (ir.TheState(), args[0]))
            t = self.temp()
            return ir.Grouped(ir.Conditional(ir.Named(t, args[0]), ir.Item(ir.Local(t), at), NONE))
        if name == "next" and not isinstance(c.type_value(node.arguments[0], scope), OptionalOf):    # (next of none: stdlib says so)
            seat = ir.Arithmetic("%", args[0], ir.Constant(c.game.num_players))
            return ir.Grouped(ir.Arithmetic("+", seat, ir.Constant(1)))
        return ir.Call(self.bind(stdlib.FUNCTIONS[name]), (ir.TheState(), *args), spread=True)

    def member_position(self, member: ir.Expression) -> ir.Expression:
        """The position of an enum member in its enum, from 1 (none of none)."""
        return ir.Method(ir.Global(self.bind(self.compiler.game.member_positions, "position")), "get", (member,))

    def inline(self, fn_decl, arguments, scope, ctx):
        """The function's body in place, its parameters standing for the caller's argument
        expressions (simple ones: see can_inline)."""
        c = self.compiler
        values = {}
        for p, a in zip(fn_decl.parameters, arguments):
            value = self.lower(a, scope, ctx)
            values[p.name] = value if is_bare_name(value) else ir.Grouped(value)
        fn_scope = c.types.globals.child(**{p.name: c.types.type_name(p.type) for p in fn_decl.parameters})
        inner = Context(ctx.mode, values)
        inner.no_walrus = ctx.no_walrus
        inner.hoist = ctx.hoist
        inner.lazy = ctx.lazy
        inner.outside_loops = ctx.outside_loops
        inner.levels = ctx.levels
        inner.safe = ctx.safe
        inner.rows = ctx.rows
        c.inline_depth += 1
        try:
            return self.lower(fn_decl.body, fn_scope, inner)
        finally:
            c.inline_depth -= 1


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
