"""The checker's core: the type of each expression and what each statement may do, in scopes.

`Checker` types an expression (`expr`), a statement or a block, reporting what does not fit;
the checks of dsl/checks/ drive it over a program's declarations (`check` runs them all). It
keeps the type of every expression it typed and of every local, which `check` hands out.
"""
from __future__ import annotations

from typing import Optional

from . import ast
from .builtins import BUILTIN_TYPES, BUILTIN_VALUES, STDLIB_SIGNATURES
from .diagnostics import Diagnostic, did_you_mean
from .orders import ordered_enum
from .parser import parse_expression
from .program import Program
from .symbols import Scope, Symbols
from .templates import parse_template
from .visitor import EXPRESSIONS, STATEMENTS, Visitor
from .map_typing import EMPTY_MAP_HINT, MapTyping, holds_a_map
from .standard_calls import INT_OR_NONE, StandardCalls
from .types import (BOOL, FRACTION, INT, NONE, OWNER, PLAYER, TEXT, UNKNOWN, ListOf, MapOf, Named, OptionalOf, SetOf, Type,
                    ZoneOf, element_type, named_type, written_type)

ROUND_DOWN_HINT = "'/' makes a fraction; '//' divides rounding down to a whole number (x // 1 rounds x down)"
FLOW_ONLY = (ast.Play, ast.Turns, ast.Turn, ast.Simultaneous)
# the names of the types every game has (and an unknown type's hint)
BUILTIN_TYPE_NAMES = (*BUILTIN_TYPES, "Player")
PLAYERS = ListOf(PLAYER)


class Checker(StandardCalls, MapTyping, Visitor):
    """Types expressions and statements in scopes over a program's symbol table; collects the
    diagnostics."""
    kinds = EXPRESSIONS + STATEMENTS

    def __init__(self, program: Program, sources: Optional[dict] = None):
        self.program = program
        self.sources = sources or {}
        self.diagnostics: list[Diagnostic] = []
        self.symbols = symbols = Symbols.of(program)
        # the symbol table's parts, as the checks and the compiler read them
        self.enums, self.members, self.components = symbols.enums, symbols.members, symbols.components
        self.boards, self.zones, self.vars, self.params = symbols.boards, symbols.zones, symbols.vars, symbols.params
        self.options, self.functions, self.procedures = symbols.options, symbols.functions, symbols.procedures
        self.actions, self.changed_attributes = symbols.actions, symbols.changed_attributes
        self.places = symbols.places
        self.board_cache = {}
        self.argument_types: dict[tuple[str, str], Type] = {}    # (action, argument) -> its type, found by check_actions
        self.label_expressions = {}   # (action, the text inside {...}) -> the expression of a label
        # what `check` hands out: id(node) -> (node, its type) of each expression typed (the
        # last typing wins: a param's type is refined once params are typed), a local's type by
        # the span of its binder or let, each text with placeholders and their expressions
        self.expression_types: dict[int, tuple[object, Type]] = {}
        self.local_types: dict[ast.Span, Type] = {}
        self.templates = {}
        self.placeholder_nodes = {}   # (span of the text, inside {...}) -> its expression
        self.team_type: Optional[Type] = None    # the type of the header's `teams p: EXPR`, when it has one
        self.globals = self._global_scope()

    # ---- reporting ----
    def error(self, code, message, span, hint=None):
        self.diagnostics.append(Diagnostic(code, message, span, hint))

    def whole(self, t: Type, span, what) -> bool:
        """E215 where only a whole number has a meaning (a count, an index, a range, a
        position): False when t is a fraction."""
        if not t.is_fraction():
            return True
        self.error("E215", f"{what} must be a whole number, not a fraction", span, ROUND_DOWN_HINT)
        return False

    def fits(self, given: Type, expected: Type, span, mismatch):
        """A value of type `given` where `expected` is needed: E303 `mismatch` when it does
        not fit, E215 when it is a fraction where a whole number is needed."""
        if given.is_fraction() and expected.without_none() in (INT, PLAYER):
            # "'x' holds a number, not a fraction" says more as "a whole number"
            self.error("E215", mismatch.replace(INT.describe(), "a whole number", 1), span, ROUND_DOWN_HINT)
        elif given == NONE and not expected.may_be_none():
            # a none written where the declared type says a value is always there
            self.error("E303", mismatch, span, "a list is never none: an empty list is []" if expected.is_list()
                       else f"a '?' after a type lets it hold none: '{expected}?'")
        elif not given.fits(expected):
            self.error("E303", mismatch, span, EMPTY_MAP_HINT if expected.is_map() and given == SetOf(UNKNOWN) else None)

    def _global_scope(self) -> Scope:
        names: dict[str, Type] = dict(BUILTIN_VALUES)
        for name in self.enums:
            names[name] = ListOf(Named(name))
        for name in self.components:
            names[name] = ListOf(Named(name))
        for name in self.boards:
            names[name] = ListOf(Named(name))
        for place, board in self.places.items():
            names[place] = Named(board)
        for member, enum in self.members.items():
            names[member] = Named(enum)
        for name in self.options:
            names[name] = BOOL
        for name, param in self.params.items():
            names[name] = UNKNOWN   # refined once params are typed
        return Scope(names)

    def known_type(self, t: Type) -> bool:
        base = t.without_none()
        if base.is_collection():
            return self.known_type(element_type(base))
        if isinstance(base, MapOf):
            return self.known_type(base.key) and self.known_type(base.value)
        if base in (UNKNOWN, FRACTION):
            return True
        name = named_type(base)       # (none is no type a declaration may write)
        return name is not None and (name in BUILTIN_TYPE_NAMES or name in self.enums or name in self.components
                                     or name in self.boards)

    def type_name(self, node) -> Type:
        """The type a declaration writes, its names known (E206 of one that is not: unknown)."""
        if node is None:
            return UNKNOWN
        if isinstance(node, ast.SetType):
            t: Type = SetOf(self.set_element(self.type_name(node.element), node.element.span))
        elif isinstance(node, ast.MapType):
            t = self.map_type(node)
        elif isinstance(node, ast.ListType):
            t = ListOf(self.type_name(node.element))
        else:
            t = written_type(node)
        if not self.known_type(t):
            candidates = [*BUILTIN_TYPE_NAMES, *self.enums, *self.components, *self.boards]
            name = str(t.without_none())
            self.error("E206", f"unknown type '{name}'", node.span, did_you_mean(name, candidates))
            return UNKNOWN
        return t

    # ---- expressions: return the inferred type, report what does not fit ----
    def expr(self, node, scope: Scope) -> Type:
        found = self.dispatch(node, scope)
        self.expression_types[id(node)] = (node, found)
        return found

    def condition(self, node, scope, what="a condition"):
        t = self.expr(node, scope)
        if t.without_none() not in (BOOL, UNKNOWN):
            self.error("E301", f"{what} must be true or false, but this is {t.describe()}", node.span,
                       "compare it with something, e.g. 'x > 0' or 'x != none'")

    def visit_Integer(self, node, scope):
        return INT

    def visit_Text(self, node, scope):
        return TEXT

    def visit_Boolean(self, node, scope):
        return BOOL

    def visit_Nothing(self, node, scope):
        return NONE

    def visit_Name(self, node, scope):
        t = scope.lookup(node.id)
        if t is not None:
            return t
        if node.id in self.zones:
            zone = self.zones[node.id]
            if zone.index:
                self.error("E208", f"zone '{node.id}' takes {len(zone.index)} index(es): write {node.id}[...]", node.span)
            return ZoneOf(Named(zone.element_type))
        if node.id in self.vars:
            var = self.vars[node.id]
            if var.index:
                self.error("E208", f"'{node.id}' takes {len(var.index)} index(es): write {node.id}[...]", node.span)
            return self.type_name(var.type)
        candidates = scope.all_names() | set(self.zones) | set(self.vars)
        self.error("E202", f"unknown name '{node.id}'", node.span, did_you_mean(node.id, candidates))
        return UNKNOWN

    def visit_ListLiteral(self, node, scope):
        types = {self.expr(item, scope) for item in node.items}
        if types == {INT, FRACTION}:
            return ListOf(FRACTION)          # whole numbers and fractions: fractions
        if len(types) == 2 and ListOf(UNKNOWN) in types and all(t.is_list() for t in types):
            return ListOf((types - {ListOf(UNKNOWN)}).pop())      # ([[], [1]]: the empty list is of any)
        return ListOf(types.pop() if len(types) == 1 else UNKNOWN)

    def visit_SetLiteral(self, node, scope):
        types = {self.expr(item, scope) for item in node.items}
        if types == {INT, FRACTION}:
            return SetOf(FRACTION)
        if len(types) > 1:
            self.error("E303", "the items of a set are of one type, but these are "
                               + " and ".join(sorted(t.describe() for t in types)), node.span)
            return SetOf(UNKNOWN)
        return SetOf(self.set_element(types.pop(), node.items[0].span) if types else UNKNOWN)

    def set_element(self, t: Type, span) -> Type:
        """What a set may hold: values that compare and order (to be found at once and listed in
        one order), never none (a set without it says the same) nor a zone (a place, not a value)."""
        if t.is_zone():
            self.error("E303", f"a set holds values, not {t.describe()}: a zone is a place whose content changes",
                       span, f"a set of {element_type(t)} holds the components themselves")
            return UNKNOWN
        if t != UNKNOWN and t.may_be_none():
            self.error("E303", f"a set cannot hold none, but this is {t.describe()}", span,
                       f"write set of {t.without_none()}, without the '?', and add only values that are not none")
            return t.without_none() if t != NONE else UNKNOWN
        if holds_a_map(t):
            self.error("E303", f"a set holds values that are never changed in place, not {t.describe()}", span,
                       "a set of keys is a set of the key type: keys(m) lists them")
            return UNKNOWN
        return t

    def visit_Conditional(self, node, scope):
        self.condition(node.condition, scope)
        a, b = self.expr(node.then, scope), self.expr(node.otherwise, scope)
        if {a.without_none(), b.without_none()} == {INT, FRACTION}:
            return FRACTION.or_none() if isinstance(a, OptionalOf) or isinstance(b, OptionalOf) else FRACTION
        return a if a == b else (a if b == NONE else (b if a == NONE else UNKNOWN))

    def visit_Or(self, node, scope):
        self.condition(node.left, scope, "each side of 'or'")
        self.condition(node.right, scope, "each side of 'or'")
        return BOOL

    visit_And = visit_Or

    def visit_Not(self, node, scope):
        self.condition(node.operand, scope, "what 'not' applies to")
        return BOOL

    def visit_Compare(self, node, scope):
        a, b = self.expr(node.left, scope), self.expr(node.right, scope)
        if node.op in ("<", ">", "<=", ">=") and ordered_enum(a, b, self.enums) is None:
            for t, side in ((a, node.left), (b, node.right)):
                if not t.is_number():
                    self.error("E303", f"'{node.op}' compares numbers or members of one enum, but this is "
                                       f"{t.describe()}", side.span)
        elif not (a.fits(b) or b.fits(a)):
            self.error("E303", f"comparing {a.describe()} with {b.describe()} is always false", node.span,
                       "both sides must be of the same kind")
        return BOOL

    def visit_Member(self, node, scope):
        item = self.expr(node.item, scope)
        c = self.expr(node.collection, scope)
        self.require_collection(c, node.collection)
        if c.is_set() and not item.fits(element_type(c)):
            self.error("E303", f"{c.describe()} never holds {item.describe()}", node.item.span)
        if c.is_map():
            self.looked_up(c, item, node.item.span)
        return BOOL

    visit_NotMember = visit_Member

    def visit_Range(self, node, scope):
        for side in (node.low, node.high):
            t = self.expr(side, scope)
            if self.whole(t, side.span, "a bound of a range") and not t.is_number():
                self.error("E302", f"a range runs between numbers, but this is {t.describe()}", side.span)
        return ListOf(INT)

    def visit_Binary(self, node, scope):
        a, b = self.expr(node.left, scope), self.expr(node.right, scope)
        if node.op == "+" and a.is_list() and b.is_list():
            return a
        if node.op == "+" and (a.is_map() or b.is_map()):
            return self.joined_maps(a, b, node)
        if node.op == "+" and (a.is_set() or b.is_set()):
            return self.union(a, b, node)
        for t, side in ((a, node.left), (b, node.right)):
            if not t.is_number():
                self.error("E302", f"'{node.op}' works on numbers, but this is {t.describe()}", side.span)
        if node.op == "/":
            return FRACTION
        # '//' rounds down to a whole number; '+', '-', '*' and '%' keep a fraction a fraction
        return FRACTION if node.op != "//" and (a.is_fraction() or b.is_fraction()) else INT

    def union(self, a: Type, b: Type, node) -> Type:
        """s + t of two sets: the values of both."""
        for t, side in ((a, node.left), (b, node.right)):
            if not t.is_set() and t != UNKNOWN:
                self.error("E303", f"'+' joins two sets, but this is {t.describe()}", side.span,
                           "a value x is added as a set of one: s + {x}")
                return a if a.is_set() else b
        if element_type(a) == UNKNOWN:
            return b
        if not element_type(b).fits(element_type(a)):
            self.error("E303", f"{a.describe()} cannot take the items of {b.describe()}", node.right.span)
        return a

    def visit_Negate(self, node, scope):
        t = self.expr(node.operand, scope)
        if not t.is_number():
            self.error("E302", f"'-' works on numbers, but this is {t.describe()}", node.operand.span)
        return FRACTION if t.is_fraction() else INT

    def fields_of(self, t) -> Optional[dict[str, Type]]:
        """The attributes of a component or of a board's cells, with their types: t a type (t?
        alike) or the name of a component type or a board; None for any other."""
        base = named_type(t) if isinstance(t, Type) else t
        if base in self.components:
            fields = {f.name: self.type_name(f.type) for f in self.components[base].fields}
            fields.setdefault("owner", OWNER)
            return fields
        if base in self.boards:
            return self.board_fields(base)
        return None

    def board_fields(self, name):
        return dict(self.legend(name)[0])

    def legend(self, name):
        """(attributes of the board's cells, [(legend init, its type)]), worked out once so that
        a mistake in a legend is reported once, not at every use of a cell's attribute."""
        if name not in self.board_cache:
            board = self.boards[name]
            fields: dict[str, Type] = {"row": INT, "col": INT}
            typed: list = []
            if isinstance(board.shape, ast.PlacesShape):
                fields = {}
            elif isinstance(board.shape, ast.RoutesShape):
                fields = {"ends": ListOf(Named(board.shape.places))}
                for route in board.shape.routes:
                    for init in route.inits:
                        typed.append((init, self.expr(init.value, self.globals)))
                        fields.setdefault(init.name, typed[-1][1])
            elif isinstance(board.shape, ast.HexShape):
                fields = {"row": INT, "col": INT, "number": INT_OR_NONE}
                for entry in board.shape.legend:
                    for init in entry.inits:
                        typed.append((init, self.expr(init.value, self.globals)))
                        fields[init.name] = typed[-1][1]
            self.board_cache[name] = (fields, typed)
        return self.board_cache[name]

    def visit_Attribute(self, node, scope):
        t = self.expr(node.obj, scope)
        if t == UNKNOWN:
            return UNKNOWN
        fields = self.fields_of(t)
        if fields is None:
            self.error("E305", f"{t.describe()} has no attributes (it is not a component or a cell)", node.span)
            return UNKNOWN
        if node.name not in fields:
            self.error("E203", f"{t.without_none()} has no attribute '{node.name}'", node.span,
                       did_you_mean(node.name, fields) or f"its attributes: {', '.join(sorted(fields))}")
            return UNKNOWN
        result = fields[node.name]
        return result.or_none() if isinstance(t, OptionalOf) else result

    def visit_Subscript(self, node, scope):
        if isinstance(node.obj, ast.Name) and scope.lookup(node.obj.id) is None:
            name = node.obj.id
            if name in self.zones:
                self.indexes(self.zones[name].index, node, scope, f"zone '{name}'")
                return ZoneOf(Named(self.zones[name].element_type))
            if name in self.vars and (self.vars[name].index or not self.type_name(self.vars[name].type).is_map()):
                self.indexes(self.vars[name].index, node, scope, f"'{name}'")
                return self.type_name(self.vars[name].type)
        t = self.expr(node.obj, scope)
        if t.is_map():
            return self.map_subscript(t, node, scope)
        if (t.is_list() or t.is_zone()) and len(node.indexes) == 1:
            self.whole(self.expr(node.indexes[0], scope), node.indexes[0].span, "a position in a list or a zone")
            return element_type(t).or_none()     # (a list of Card? gives a Card?, not a Card??)
        if t != UNKNOWN:
            self.error("E304", f"only zones, variables and lists take [...], not {t.describe()}", node.obj.span)
        return UNKNOWN

    def indexes(self, declared, node, scope, what):
        if len(declared) != len(node.indexes):
            self.error("E208", f"{what} takes {len(declared)} index(es), not {len(node.indexes)}", node.span)
        for given, domain in zip(node.indexes, declared):
            t = self.expr(given, scope)
            expected = element_type(self.expr(domain, self.globals))
            self.fits(t, expected, given.span, f"{what} is indexed by {expected.describe()}, not {t.describe()}")
        for extra in node.indexes[len(declared):]:
            self.expr(extra, scope)

    def visit_LetIn(self, node, scope):
        self.no_shadowing(node.name, node.span)
        inner = scope.child(**{node.name: self.expr(node.value, scope)})
        self.local_types[node.span] = inner.names[node.name]
        return self.expr(node.body, inner)

    def visit_After(self, node, scope):
        args = [self.expr(a, scope) for a in node.arguments]
        call = ast.CallStatement(node.span, node.procedure, node.arguments)
        proc = self.called_procedure(call, args, "'after' runs a procedure, then reads its expression")
        if proc is not None:
            chooser = self.choosing_procedure(node.procedure)
            if chooser is not None:
                self.error("E307", f"'after' runs '{node.procedure}' on a copy of the state, where nobody can choose, "
                                   f"but {chooser}", node.span,
                           "move the choice out of the procedure, and give what was chosen as an argument")
        return self.expr(node.value, scope)

    def choosing_procedure(self, name, seen=None) -> Optional[str]:
        """How a procedure (or one it calls) asks a player to choose, or None."""
        seen = set() if seen is None else seen
        proc = self.procedures.get(name)
        if proc is None or name in seen:
            return None
        seen.add(name)
        for n in ast.walk(proc.body):
            if isinstance(n, (ast.Choose, ast.PlayBy, ast.Respond)):
                return f"'{name}' has a {decision_word(n)} (line {n.span.line})"
            if isinstance(n, ast.CallStatement):
                found = self.choosing_procedure(n.name, seen)
                if found:
                    return found
        return None

    def visit_Call(self, node, scope):
        if node.name == "can_play":
            return self.can_play(node, scope)
        args = [self.expr(a, scope) for a in node.arguments]
        if node.name in self.functions:
            fn = self.functions[node.name]
            self.arity(node, len(fn.parameters))
            for given, parameter, arg in zip(args, fn.parameters, node.arguments):
                expected = self.type_name(parameter.type)
                self.fits(given, expected, arg.span, f"'{parameter.name}' of {node.name} is {expected.describe()}, not {given.describe()}")
            return self.type_name(fn.result_type)
        if node.name in self.boards:
            self.arity(node, 2)
            for given, arg in zip(args, node.arguments):
                if self.whole(given, arg.span, f"a row or column of {node.name}") and not given.is_whole():
                    self.error("E303", f"a cell of {node.name} is found by its row and column numbers, "
                                       f"not {given.describe()}", arg.span)
            return OptionalOf(Named(node.name))
        if node.name in STDLIB_SIGNATURES:
            return self.standard_call(node, args)
        if node.name in self.procedures:
            self.error("E204", f"'{node.name}' is a procedure: call it as a statement, it has no value", node.span)
            return UNKNOWN
        candidates = set(self.functions) | set(STDLIB_SIGNATURES) | set(self.boards)
        self.error("E204", f"unknown function '{node.name}'", node.span, did_you_mean(node.name, candidates))
        return UNKNOWN

    def can_play(self, node, scope) -> Type:
        """can_play(ACTION) or can_play(ACTION, PLAYER): whether the action has a legal move now
        (for that player)."""
        if not 1 <= len(node.arguments) <= 2:
            self.error("E208", f"'can_play' takes an action and optionally a player, not {len(node.arguments)} argument(s)",
                       node.span)
            return BOOL
        action = node.arguments[0]
        if not isinstance(action, ast.Name) or action.id not in self.actions:
            self.error("E205", "can_play asks about an action: its first argument must be an action's name",
                       action.span, did_you_mean(action.id, self.actions) if isinstance(action, ast.Name) else None)
        if len(node.arguments) == 2:
            given = self.expr(node.arguments[1], scope)
            if given == NONE or not given.fits(PLAYER):
                self.error("E303", f"can_play asks for a player, not {given.describe()}", node.arguments[1].span)
        return BOOL

    def arity(self, node, expected):
        if len(node.arguments) != expected:
            self.error("E208", f"'{node.name}' takes {expected} argument(s), not {len(node.arguments)}", node.span)

    def require_collection(self, t: Type, node):
        if not (t.is_collection() or t.is_map() or t == UNKNOWN):
            self.error("E306", f"expected a list, a set, a map or a zone, but this is {t.describe()}", node.span)

    def binder(self, binder: ast.Binder, scope) -> Scope:
        self.no_shadowing(binder.name, binder.span)
        domain = self.expr(binder.domain, scope)
        self.require_collection(domain, binder.domain)
        inner = scope.child(**{binder.name: element_type(domain).without_none()})
        self.local_types[binder.span] = inner.names[binder.name]
        if binder.condition is not None:
            self.condition(binder.condition, inner, "a 'where' filter")
        return inner

    def visit_Aggregate(self, node, scope):
        inner = self.binder(node.binder, scope)
        element = inner.names[node.binder.name]
        body = self.expr(node.value, inner) if node.value is not None else None
        kind = node.kind
        if kind in ("count",):
            return INT
        if kind in ("any", "all"):
            if body is not None and body.without_none() not in (BOOL, UNKNOWN):
                self.error("E301", f"'{kind}' needs a condition after ':'", node.value.span)
            return BOOL
        if kind == "filter":
            return ListOf(element)
        if kind == "map":
            return ListOf(body or element)
        if kind == "first":
            return element.or_none()
        if kind == "longest_trail":
            self.check_routes(element, node.binder.domain, kind)
            if body is not None and not body.is_number():
                self.error("E302", f"a route's weight in longest_trail is a number, not {body.describe()}", node.value.span)
            return FRACTION if body is not None and body.is_fraction() else INT
        if kind in ("sum", "max", "min"):
            value = body or element
            if not value.is_number():
                self.error("E302", f"'{kind}' adds up or compares numbers, but this is {value.describe()}",
                           (node.value or node.binder).span)
            number = FRACTION if value.is_fraction() else INT
            return number if kind == "sum" else number.or_none()
        return UNKNOWN

    def visit_Ranking(self, node, scope):
        inner = self.binder(node.binder, scope)
        for key in node.keys:
            t = self.expr(key, inner)
            if t.without_none() not in (INT, FRACTION, BOOL, UNKNOWN):
                self.error("E302", f"a ranking key must be a number, but this is {t.describe()}", key.span)
        return ListOf(inner.names[node.binder.name])

    # ---- statements ----
    def block(self, statements, scope: Scope, where: str, guard_allowed=False):
        scope = scope.child()
        in_guard = guard_allowed
        for statement in statements:
            inner, _ = ast.untag(statement)
            if not isinstance(inner, (ast.Let, ast.Require)):
                in_guard = False
            if isinstance(inner, ast.Require) and not in_guard:
                self.error("E407", "'require' may only open an action's body (before any effect)", inner.span,
                           "move it up, or use 'if' for a condition that does not make the move illegal")
            if isinstance(inner, FLOW_ONLY) and where != "flow":
                self.error("E407", f"'{keyword(inner)}' may only be used in the flow section", inner.span,
                           f"elsewhere, name who plays: 'play {', '.join(inner.actions)} by current'"
                           if isinstance(inner, ast.Play) else None)
            if isinstance(inner, ast.Create) and where != "setup" and inner.type_name in self.components \
                    and self.components[inner.type_name].maximum is None:
                self.error("E407", f"components of {inner.type_name} may only be created in the setup section: "
                                   "its declaration sets no maximum", inner.span,
                           f"a type created in play says how many there may be: component {inner.type_name} "
                           "{ ... } max N")
            if where == "setup":
                self.no_choice_in_setup(inner)
            self.statement(inner, scope, where)
        return scope

    def no_choice_in_setup(self, statement):
        """Nobody is asked anything before the flow starts: no `choose` in the setup, nor in a
        procedure it calls."""
        for node in ast.walk(statement):
            found = None
            if isinstance(node, (ast.Choose, ast.PlayBy, ast.Respond)):
                found = f"'{decision_word(node)}'"
            elif isinstance(node, ast.CallStatement) and self.choosing_procedure(node.name):
                found = f"'{node.name}', which reaches a choice: {self.choosing_procedure(node.name)}"
            if found:
                self.error("E407", f"the setup runs before anybody moves, but here it asks a player to choose ({found})",
                           node.span, "make the choice the flow's first step (before its turns), or draw it with pick(...)")
                return

    def statement(self, node, scope, where):
        self.dispatch(node, scope, where)

    def visit_Let(self, node, scope, where):
        self.no_shadowing(node.name, node.span)
        scope.names[node.name] = self.local_types[node.span] = self.expr(node.value, scope)

    def no_shadowing(self, name, span):
        """A local (let, binder, parameter) may not take the name of a declaration: it would
        hide it, and a write meant for one would go to the other."""
        kinds = (("a component type", self.components), ("a board", self.boards), ("an enum", self.enums),
                 ("a value of an enum", self.members), ("a place", self.places), ("a zone", self.zones), ("a variable", self.vars),
                 ("a parameter", self.params), ("an option", self.options), ("a function", self.functions),
                 ("a procedure", self.procedures), ("an action", self.actions), ("a built-in name", BUILTIN_VALUES))
        for what, names in kinds:
            if name in names:
                self.error("E210", f"the local name '{name}' is already {what}: it would hide it",
                           span, f"give the local a name of its own (e.g. '{name}_here')")
                return

    def local_type(self, name, scope) -> Optional[Type]:
        """The type of a local (let, binder, parameter): a name bound below the global scope."""
        while scope is not None and scope is not self.globals:
            if name in scope.names:
                return scope.names[name]
            scope = scope.parent
        return None

    def target(self, target: ast.Target, scope) -> Type:
        if isinstance(target, ast.AttributeTarget):
            return self.attribute_target(target, scope)
        if self.local_type(target.name, scope) is not None and not target.indexes:
            return self.local_type(target.name, scope)
        if target.indexes and self.map_written(target, scope):
            return UNKNOWN
        if target.name in self.vars:
            var = self.vars[target.name]
            fake = ast.Subscript(target.span, ast.Name(target.span, target.name), target.indexes)
            self.indexes(var.index, fake, scope, f"'{target.name}'")
            return self.type_name(var.type)
        if target.name in self.zones or target.name in self.params or scope.lookup(target.name) is not None:
            self.error("E209", f"'{target.name}' cannot be assigned: only variables (var) and locals (let) can", target.span)
            return UNKNOWN
        self.error("E202", f"unknown variable '{target.name}'", target.span,
                   did_you_mean(target.name, set(self.vars) | scope.all_names()) or "declare it with 'var'")
        return UNKNOWN

    def attribute_target(self, target, scope) -> Type:
        """x.a = ...: x a component (a local), a one of its attributes; a board cell's never change."""
        t = self.local_type(target.name, scope)
        if t is None:
            self.error("E202", f"unknown local '{target.name}'", target.span,
                       "an attribute is changed through a local that holds the component: 'let x = ...' first")
            return UNKNOWN
        base = t.without_none()
        if base == UNKNOWN:
            return UNKNOWN            # unknown already (an error said so, or a value of no one type)
        if named_type(base) in self.boards:
            self.error("E209", f"'{target.name}' is a cell of {base}: the attributes of board cells never change", target.span,
                       "keep what changes in a variable indexed by the board")
            return UNKNOWN
        fields = self.fields_of(base) if named_type(base) in self.components else None
        if fields is None:
            self.error("E305", f"'{target.name}' is {t.describe()}, which has no attributes to change", target.span)
            return UNKNOWN
        if target.attribute not in fields:
            self.error("E203", f"{base} has no attribute '{target.attribute}'", target.span, did_you_mean(target.attribute, fields))
            return UNKNOWN
        return fields[target.attribute]

    def visit_Assign(self, node, scope, where):
        expected = self.target(node.target, scope)
        given = self.expr(node.value, scope)
        self.fits(given, expected, node.value.span, f"'{node.target.name}' holds {expected.describe()}, not {given.describe()}")

    def visit_Augment(self, node, scope, where):
        expected = self.target(node.target, scope)
        given = self.expr(node.value, scope)
        for t, span in ((expected, node.target.span), (given, node.value.span)):
            if not t.is_number():
                self.error("E302", f"'{node.op}' works on numbers, but this is {t.describe()}", span)
        if expected.is_whole() and expected.without_none() != UNKNOWN:
            self.whole(given, node.value.span, f"'{node.target.name}' holds whole numbers: what '{node.op}' changes it by")

    def visit_If(self, node, scope, where):
        self.condition(node.condition, scope)
        self.block(node.body, scope, where)
        for clause in node.elifs:
            self.condition(clause.condition, scope)
            self.block(clause.body, scope, where)
        self.block(node.orelse, scope, where)

    def visit_For(self, node, scope, where):
        self.block(node.body, self.binder(node.binder, scope), where)

    def visit_While(self, node, scope, where):
        self.condition(node.condition, scope)
        self.block(node.body, scope, where)

    def visit_Repeat(self, node, scope, where):
        inner = self.block(node.body, scope, where)
        if node.until is not None:
            self.condition(node.until, inner)

    def zone_expr(self, node, scope, what):
        t = self.expr(node, scope)
        if not (t.is_zone() or t == UNKNOWN):
            self.error("E304", f"{what} must be a zone, but this is {t.describe()}", node.span)
        return t

    def visit_Move(self, node, scope, where):
        item = self.expr(node.item, scope)
        if named_type(item) not in self.components and item != UNKNOWN:
            self.error("E305", f"only components move, but this is {item.describe()}", node.item.span)
        self.zone_expr(node.destination.zone, scope, "the destination")

    def visit_MoveAll(self, node, scope, where):
        source = self.expr(node.source, scope)
        self.require_collection(source, node.source)
        self.zone_expr(node.destination.zone, scope, "the destination")

    def visit_Deal(self, node, scope, where):
        count = self.expr(node.count, scope)
        if self.whole(count, node.count.span, "the number to deal") and not count.is_number():
            self.error("E302", f"the number to deal must be a number, not {count.describe()}", node.count.span)
        self.zone_expr(node.source, scope, "what to deal from")
        self.zone_expr(node.destination.zone, scope, "the destination")

    def visit_Shuffle(self, node, scope, where):
        self.zone_expr(node.zone, scope, "what to shuffle")

    def visit_Reveal(self, node, scope, where):
        what = self.expr(node.what, scope)
        if isinstance(node.what, ast.Attribute) and what != UNKNOWN and \
                named_type(self.expr(node.what.obj, scope)) in self.components:
            what = UNKNOWN          # `reveal c.colour to p`: one attribute of a component is told
        collection = what.is_list() or what.is_zone()
        if what != UNKNOWN and named_type(element_type(what) if collection else what) not in self.components:
            self.error("E305", f"only components can be revealed (one, a list or a zone), but this is {what.describe()}",
                       node.what.span)
        players = self.expr(node.players, scope)
        if players.without_none() != PLAYER and element_type(players).without_none() != PLAYER and players != UNKNOWN:
            self.error("E303", f"reveal ... to a player or a list of players, not {players.describe()}", node.players.span)

    def visit_Create(self, node, scope, where):
        count = self.expr(node.count, scope)
        if self.whole(count, node.count.span, "how many to create") and not count.is_number():
            self.error("E302", f"how many to create must be a number, not {count.describe()}", node.count.span)
        component = self.components.get(node.type_name)
        if component is None:
            self.error("E206", f"unknown component type '{node.type_name}'", node.span,
                       did_you_mean(node.type_name, self.components))
        else:
            fields = self.fields_of(node.type_name)
            given = set()
            for init in node.inits:
                given.add(init.name)
                value = self.expr(init.value, scope)
                if init.name not in fields:
                    self.error("E207", f"{node.type_name} has no attribute '{init.name}'", init.span,
                               did_you_mean(init.name, fields))
                else:
                    self.fits(value, fields[init.name], init.value.span,
                              f"'{init.name}' is {fields[init.name].describe()}, not {value.describe()}")
            missing = [f.name for f in component.fields if f.name not in given]
            if missing:
                self.error("E207", f"missing attribute(s) of {node.type_name}: {', '.join(missing)}", node.span)
        self.zone_expr(node.zone, scope, "where to create")

    def visit_Destroy(self, node, scope, where):
        item = self.expr(node.item, scope)
        type_name = named_type(item)
        if type_name not in self.components and item != UNKNOWN:
            self.error("E305", f"only components are destroyed, but this is {item.describe()}", node.item.span)
        elif type_name in self.components and self.components[type_name].maximum is None:
            self.error("E407", f"components of {type_name} cannot be destroyed: its declaration sets no maximum "
                               "(they are a fixed set)", node.span,
                       f"a type created and destroyed in play says how many there may be at once: "
                       f"component {type_name} {{ ... }} max N")
        held = ast.destroyed_variable(node.item, self.vars)
        if held is not None and type_name in self.components and not item.may_be_none():
            self.error("E422", f"'destroy' sets the variable {held.name} to none, but it holds {item.describe()}, "
                               "never none", node.item.span, f"declare it '{held.name}: {item}?'")

    def visit_Choose(self, node, scope, where):
        if node.chooser is not None:
            t = self.expr(node.chooser, scope)
            if not t.fits(PLAYER):
                self.error("E303", f"who chooses must be a player, not {t.describe()}", node.chooser.span)
        if node.public is not None:
            self.public_choice_text(node, scope)
        inner = self.binder(node.binder, scope)
        self.no_map_option(inner.names[node.binder.name], node.binder.span, "an option of a choice")
        self.block(node.body, inner, where)

    def public_choice_text(self, node, scope):
        """`choose x in D public "TEXT"`: what the others see, {expressions} of what is known
        before the choice; never the option chosen, which is what the text keeps from them."""
        for placeholder in parse_template(node.public).placeholders:
            inner = parse_expression(placeholder.inside, node.span)
            if inner is not None and any(isinstance(n, ast.Name) and n.id == node.binder.name for n in ast.walk(inner)):
                self.error("E411", f"the public text of a choice shows '{placeholder.written}', the option chosen, "
                                   "which it is there to keep from the others", node.span,
                           f"leave '{node.binder.name}' out of it (the chooser sees the option's name)")
                return
        self.text_placeholders(node.public, scope, node.span, "the public text of a choice")

    def visit_Require(self, node, scope, where):
        self.condition(node.condition, scope, "a requirement")
        if node.reason:
            self.text_placeholders(node.reason, scope, node.span, "the reason of a refusal")

    def text_placeholders(self, text, scope, span, where):
        """Each {name} or {expression} of a text (a refusal's reason, a log line): an expression
        of what is known there (the binders, the lets before it, the game's names)."""
        self.templates[text] = template = parse_template(text)
        for placeholder in template.placeholders:
            node = parse_expression(placeholder.inside, span)
            if node is None:
                self.error("E411", f"'{placeholder.written}' in {where} is not an expression", span,
                           "show a value as {name} or {expression}, e.g. {size(hand[current])}")
            else:
                self.placeholder_nodes[span, placeholder.inside] = node
                self.expr(node, scope)

    def visit_Again(self, node, scope, where):
        pass

    def visit_Finish(self, node, scope, where):
        if node.winners is not None:
            t = self.expr(node.winners, scope)
            if not t.fits(PLAYERS):
                self.error("E303", f"the winners must be a list of players, not {t.describe()}", node.winners.span,
                           "write e.g. 'finish winners [p]'")

    def visit_FinishTeam(self, node, scope, where):
        t = self.expr(node.team, scope)
        game = self.program.game
        if game is not None and any(isinstance(f, ast.TeamsField) for f in game.fields) and self.team_type is None:
            pass        # teams of a type that is no team's: said at the header (E303)
        elif self.team_type is None:
            self.error("E419", "'finish winners team' in a game without teams", node.span,
                       "declare each player's team last in the game's header, e.g. 'teams p: side[p]'")
        elif not t.fits(self.team_type):
            self.error("E303", f"the teams are {self.team_type.describe()}, not {t.describe()}", node.team.span)

    def visit_FinishLost(self, node, scope, where):
        pass

    def visit_Log(self, node, scope, where):
        self.text_placeholders(node.message, scope, node.span, "a log line")

    def visit_Play(self, node, scope, where):
        for name in node.actions:
            if name not in self.actions:
                self.error("E205", f"unknown action '{name}'", node.span, did_you_mean(name, self.actions))

    def visit_PlayBy(self, node, scope, where):
        self.visit_Play(node, scope, where)
        t = self.expr(node.player, scope)
        if not t.fits(PLAYER):
            self.error("E303", f"who plays must be a player, not {t.describe()}", node.player.span,
                       "write e.g. 'play discard by next(current)'")

    def visit_Respond(self, node, scope, where):
        inner = self.binder(node.binder, scope)
        players = inner.names[node.binder.name]
        if not players.fits(PLAYER):
            self.error("E303", f"who may respond must be players, not {players.describe()}", node.binder.domain.span,
                       "write e.g. 'respond p in players where p != current { ... }'")
        plays = [s for s in node.body if isinstance(ast.untag(s)[0], ast.Play)]
        if len(node.body) != 1 or len(plays) != 1 or ast.untag(plays[0])[0].optional:
            self.error("E420", "a 'respond' block holds exactly one 'play' (without 'optional': not responding is "
                               "always allowed)", node.span, "write e.g. 'respond p in players { play block }'")
        else:
            self.visit_Play(ast.untag(plays[0])[0], inner, where)
        self.block(node.orelse, scope, where)

    def visit_Turns(self, node, scope, where):
        t = self.expr(node.start, scope)
        if not t.fits(PLAYER):
            self.error("E303", f"turns start from a player, not {t.describe()}", node.start.span)
        if node.until is not None:
            self.condition(node.until, scope)
        self.block(node.body, scope, where)

    def visit_Turn(self, node, scope, where):
        t = self.expr(node.player, scope)
        if not t.fits(PLAYER):
            self.error("E303", f"a turn is a player's, not {t.describe()}", node.player.span)
        self.block(node.body, scope, where)

    def visit_Simultaneous(self, node, scope, where):
        inner = self.binder(node.binder, scope)
        plays = [s for s in node.body if isinstance(ast.untag(s)[0], ast.Play)]
        if len(node.body) != 1 or len(plays) != 1:
            self.error("E407", "a 'simultaneous' block holds exactly one 'play'", node.span)
        self.block(node.body, inner, where)

    def visit_CallStatement(self, node, scope, where):
        args = [self.expr(argument, scope) for argument in node.arguments]
        self.called_procedure(node, args, f"use its value, e.g. 'let x = {node.name}(...)'")

    def called_procedure(self, node, args, function_hint):
        """The procedure a call names, its arguments checked (E204 when there is none)."""
        proc = self.procedures.get(node.name)
        if proc is None:
            hint = did_you_mean(node.name, self.procedures)
            if node.name in self.functions:
                hint = f"'{node.name}' is a function: {function_hint}"
            self.error("E204", f"unknown procedure '{node.name}'", node.span, hint)
            return None
        self.arity(node, len(proc.parameters))
        for given, parameter, arg in zip(args, proc.parameters, node.arguments):
            expected = self.type_name(parameter.type)
            self.fits(given, expected, arg.span, f"'{parameter.name}' of {node.name} is {expected.describe()}, not {given.describe()}")
        return proc


def decision_word(node) -> str:
    """How a statement that asks a player is written (in messages)."""
    return {ast.Choose: "choose", ast.PlayBy: "play ... by", ast.Respond: "respond"}[type(node)]


def keyword(node) -> str:
    return {ast.Play: "play", ast.Turns: "turns", ast.Turn: "turn", ast.Simultaneous: "simultaneous"}[type(node)]


# names this module had before the checks moved out: an import of one says where it went
MOVED = {"check": "referee.dsl.checks", "CHECKS": "referee.dsl.checks", "PLACEHOLDER_TEXT": "referee.dsl.templates"}


def __getattr__(name):
    if name in MOVED:
        raise ImportError(f"referee.dsl.checker.{name} is {MOVED[name]}.{name} now "
                          f"(check returns a Checked value: its diagnostics are check(...).diagnostics)")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
