"""Static checks: every name resolves, types fit, statements stand where they may.

`check(program, sources)` returns every diagnostic at once; it never raises (the sources, file ->
text, only sharpen where some diagnostics point).
Each check is a small function of the program; CHECKS lists them in the order they run.
"""
from __future__ import annotations

import re
from typing import Optional

import attrs

from . import ast
from .builtins import BUILTIN_ENUMS, BUILTIN_VALUES, STDLIB_SIGNATURES
from .diagnostics import Diagnostic, did_you_mean
from .limits import MAX_PLAYERS
from .parser import parse_expression
from .program import Program

ANY = "any"
REAL = "real"                        # an exact fraction, made by '/'; an int widens to it
WHOLE = ("int", "Player", ANY)       # a seat is a number: p + 1, p < q
NUMBERS = WHOLE + (REAL,)
ROUND_DOWN_HINT = "'/' makes a fraction; '//' divides rounding down to a whole number (x // 1 rounds x down)"
FLOW_ONLY = (ast.Play, ast.Turns, ast.Turn, ast.Simultaneous)


def list_of(t: str) -> str:
    return f"list[{t}]"


def element_of(t: str) -> str:
    t = strip_optional(t)      # a list that may be none ('pick' of lists): its elements'
    for prefix in ("list[", "zone["):
        if t.startswith(prefix):
            return t[len(prefix):-1]
    return ANY


def strip_optional(t: str) -> str:
    return t[:-1] if t.endswith("?") else t


def optional(t: str) -> str:
    """t or none: 'Card?' of a Card and of a Card? alike; a value of unknown type stays unknown."""
    return t if t == ANY else strip_optional(t) + "?"


@attrs.define
class Scope:
    names: dict
    parent: Optional["Scope"] = None

    def lookup(self, name):
        scope = self
        while scope is not None:
            if name in scope.names:
                return scope.names[name]
            scope = scope.parent
        return None

    def child(self, **names):
        return Scope(dict(names), self)

    def all_names(self):
        scope, out = self, set()
        while scope is not None:
            out |= set(scope.names)
            scope = scope.parent
        return out


# the direction functions: they take cells, their cell results are of the first cell's board
GEOMETRY_BY_CELL = ("surrounding", "directions", "toward", "ray", "between", "distance")


class Checker:
    def __init__(self, program: Program, sources: Optional[dict] = None):
        self.program = program
        self.sources = sources or {}
        self.diagnostics: list[Diagnostic] = []
        # the built-in enums (Direction) first: a game's enum reusing a member is told so
        builtin_span = ast.Span("<built-in>", 0, 0, 0, 0)
        self.enums = {name: ast.Enum(builtin_span, name, members) for name, members in BUILTIN_ENUMS.items()}
        self.enums.update({e.name: e for e in program.of_kind(ast.Enum)})
        self.members = {}
        for enum in self.enums.values():
            for member in enum.members:
                self.members[member] = enum.name
        self.components = {c.name: c for c in program.of_kind(ast.Component)}
        self.boards = {b.name: b for b in program.of_kind(ast.Board)}
        self.zones = {z.name: z for z in program.of_kind(ast.Zone)}
        self.vars = {v.name: v for v in program.of_kind(ast.Var)}
        self.params = {p.name: p for p in program.of_kind(ast.Param)}
        self.options = {o.name: o for o in program.of_kind(ast.Option)}
        self.functions = {f.name: f for f in program.of_kind(ast.Function)}
        self.procedures = {p.name: p for p in program.of_kind(ast.Procedure)}
        self.actions = {a.name: a for a in program.of_kind(ast.Action)}
        self.board_cache = {}
        self.argument_types = {}      # (action, argument) -> its type, found by check_actions
        self.label_expressions = {}   # (action, the text inside {...}) -> the expression of a label
        # the component attributes that statements change (x.a = ...)
        self.changed_attributes = {n.target.attribute for n in ast.walk(program.parts())
                                   if isinstance(n, (ast.Assign, ast.Augment)) and isinstance(n.target, ast.AttributeTarget)}
        self.globals = self._global_scope()

    # ---- reporting ----
    def error(self, code, message, span, hint=None):
        self.diagnostics.append(Diagnostic(code, message, span, hint))

    def whole(self, t, span, what) -> bool:
        """E215 where only a whole number has a meaning (a count, an index, a range, a
        position): False when t is a fraction."""
        if strip_optional(t) != REAL:
            return True
        self.error("E215", f"{what} must be a whole number, not a fraction", span, ROUND_DOWN_HINT)
        return False

    def fits(self, given, expected, span, mismatch):
        """A value of type `given` where `expected` is needed: E303 `mismatch` when it does
        not fit, E215 when it is a fraction where a whole number is needed."""
        if strip_optional(given) == REAL and strip_optional(expected) in ("int", "Player"):
            # "'x' holds a number, not a fraction" says more as "a whole number"
            self.error("E215", mismatch.replace(describe("int"), "a whole number", 1), span, ROUND_DOWN_HINT)
        elif given == "none" and not may_be_none(expected):
            # a none written where the declared type says a value is always there
            self.error("E303", mismatch, span, "a list is never none: an empty list is []" if expected.startswith("list[")
                       else f"a '?' after a type lets it hold none: '{expected}?'")
        elif not compatible(given, expected):
            self.error("E303", mismatch, span)

    def _global_scope(self) -> Scope:
        names = dict(BUILTIN_VALUES)
        for name in self.enums:
            names[name] = list_of(name)
        for name in self.components:
            names[name] = list_of(name)
        for name in self.boards:
            names[name] = list_of(name)
        for member, enum in self.members.items():
            names[member] = enum
        for name in self.options:
            names[name] = "bool"
        for name, param in self.params.items():
            names[name] = ANY   # refined once params are typed
        return Scope(names)

    def known_type(self, t: str) -> bool:
        base = strip_optional(t)
        if base.startswith("list[") or base.startswith("zone["):
            return self.known_type(element_of(base))
        return base in ("int", REAL, "bool", "text", "Player", ANY) or base in self.enums \
            or base in self.components or base in self.boards

    def type_name(self, node) -> str:
        if node is None:
            return ANY
        if isinstance(node, ast.NamedType):
            name = node.name
        elif isinstance(node, ast.OptionalType):
            name = node.name + "?"
        else:
            name = list_of(self.type_name(node.element))
        if not self.known_type(name):
            candidates = ["int", REAL, "bool", "text", "Player", *self.enums, *self.components, *self.boards]
            self.error("E206", f"unknown type '{strip_optional(name)}'", node.span,
                       did_you_mean(strip_optional(name), candidates))
            return ANY
        return name

    # ---- expressions: return the inferred type, report what does not fit ----
    def expr(self, node, scope: Scope) -> str:
        method = getattr(self, "expr_" + type(node).__name__)
        return method(node, scope)

    def condition(self, node, scope, what="a condition"):
        t = self.expr(node, scope)
        if strip_optional(t) not in ("bool", ANY):
            self.error("E301", f"{what} must be true or false, but this is {describe(t)}", node.span,
                       "compare it with something, e.g. 'x > 0' or 'x != none'")

    def expr_Integer(self, node, scope):
        return "int"

    def expr_Text(self, node, scope):
        return "text"

    def expr_Boolean(self, node, scope):
        return "bool"

    def expr_Nothing(self, node, scope):
        return "none"

    def expr_Name(self, node, scope):
        t = scope.lookup(node.id)
        if t is not None:
            return t
        if node.id in self.zones:
            zone = self.zones[node.id]
            if zone.index:
                self.error("E208", f"zone '{node.id}' takes {len(zone.index)} index(es): write {node.id}[...]", node.span)
            return f"zone[{zone.element_type}]"
        if node.id in self.vars:
            var = self.vars[node.id]
            if var.index:
                self.error("E208", f"'{node.id}' takes {len(var.index)} index(es): write {node.id}[...]", node.span)
            return self.type_name(var.type)
        candidates = scope.all_names() | set(self.zones) | set(self.vars)
        self.error("E202", f"unknown name '{node.id}'", node.span, did_you_mean(node.id, candidates))
        return ANY

    def expr_ListLiteral(self, node, scope):
        types = {self.expr(item, scope) for item in node.items}
        if types == {"int", REAL}:
            return list_of(REAL)          # whole numbers and fractions: fractions
        return list_of(types.pop() if len(types) == 1 else ANY)

    def expr_Conditional(self, node, scope):
        self.condition(node.condition, scope)
        a, b = self.expr(node.then, scope), self.expr(node.otherwise, scope)
        if {strip_optional(a), strip_optional(b)} == {"int", REAL}:
            return REAL + ("?" if a.endswith("?") or b.endswith("?") else "")
        return a if a == b else (a if b == "none" else (b if a == "none" else ANY))

    def expr_Or(self, node, scope):
        self.condition(node.left, scope, "each side of 'or'")
        self.condition(node.right, scope, "each side of 'or'")
        return "bool"

    expr_And = expr_Or

    def expr_Not(self, node, scope):
        self.condition(node.operand, scope, "what 'not' applies to")
        return "bool"

    def expr_Compare(self, node, scope):
        a, b = self.expr(node.left, scope), self.expr(node.right, scope)
        if node.op in ("<", ">", "<=", ">="):
            for t, side in ((a, node.left), (b, node.right)):
                if strip_optional(t) not in NUMBERS:
                    self.error("E303", f"'{node.op}' compares numbers, but this is {describe(t)}", side.span)
        elif not (compatible(a, b) or compatible(b, a)):
            self.error("E303", f"comparing {describe(a)} with {describe(b)} is always false", node.span,
                       "both sides must be of the same kind")
        return "bool"

    def expr_Member(self, node, scope):
        self.expr(node.item, scope)
        c = self.expr(node.collection, scope)
        self.require_collection(c, node.collection)
        return "bool"

    expr_NotMember = expr_Member

    def expr_Range(self, node, scope):
        for side in (node.low, node.high):
            t = self.expr(side, scope)
            if self.whole(t, side.span, "a bound of a range") and strip_optional(t) not in NUMBERS:
                self.error("E302", f"a range runs between numbers, but this is {describe(t)}", side.span)
        return "list[int]"

    def expr_Binary(self, node, scope):
        a, b = self.expr(node.left, scope), self.expr(node.right, scope)
        if node.op == "+" and a.startswith("list[") and b.startswith("list["):
            return a
        for t, side in ((a, node.left), (b, node.right)):
            if strip_optional(t) not in NUMBERS:
                self.error("E302", f"'{node.op}' works on numbers, but this is {describe(t)}", side.span)
        if node.op == "/":
            return REAL
        # '//' rounds down to a whole number; '+', '-', '*' and '%' keep a fraction a fraction
        return REAL if node.op != "//" and REAL in (strip_optional(a), strip_optional(b)) else "int"

    def expr_Negate(self, node, scope):
        t = self.expr(node.operand, scope)
        if strip_optional(t) not in NUMBERS:
            self.error("E302", f"'-' works on numbers, but this is {describe(t)}", node.operand.span)
        return REAL if strip_optional(t) == REAL else "int"

    def fields_of(self, t: str):
        base = strip_optional(t)
        if base in self.components:
            fields = {f.name: self.type_name(f.type) for f in self.components[base].fields}
            fields.setdefault("owner", "Player?")
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
            fields, typed = {"row": "int", "col": "int"}, []
            if isinstance(board.shape, ast.HexShape):
                fields = {"row": "int", "col": "int", "number": "int?"}
                for entry in board.shape.legend:
                    for init in entry.inits:
                        typed.append((init, self.expr(init.value, self.globals)))
                        fields[init.name] = typed[-1][1]
            self.board_cache[name] = (fields, typed)
        return self.board_cache[name]

    def expr_Attribute(self, node, scope):
        t = self.expr(node.obj, scope)
        if t == ANY:
            return ANY
        fields = self.fields_of(t)
        if fields is None:
            self.error("E305", f"{describe(t)} has no attributes (it is not a component or a cell)", node.span)
            return ANY
        if node.name not in fields:
            self.error("E203", f"{strip_optional(t)} has no attribute '{node.name}'", node.span,
                       did_you_mean(node.name, fields) or f"its attributes: {', '.join(sorted(fields))}")
            return ANY
        result = fields[node.name]
        return optional(result) if t.endswith("?") else result

    def expr_Subscript(self, node, scope):
        if isinstance(node.obj, ast.Name) and scope.lookup(node.obj.id) is None:
            name = node.obj.id
            if name in self.zones:
                self.indexes(self.zones[name].index, node, scope, f"zone '{name}'")
                return f"zone[{self.zones[name].element_type}]"
            if name in self.vars:
                self.indexes(self.vars[name].index, node, scope, f"'{name}'")
                return self.type_name(self.vars[name].type)
        t = self.expr(node.obj, scope)
        if (t.startswith("list[") or t.startswith("zone[")) and len(node.indexes) == 1:
            self.whole(self.expr(node.indexes[0], scope), node.indexes[0].span, "a position in a list or a zone")
            return optional(element_of(t))     # (a list of Card? gives a Card?, not a Card??)
        if t != ANY:
            self.error("E304", f"only zones, variables and lists take [...], not {describe(t)}", node.obj.span)
        return ANY

    def indexes(self, declared, node, scope, what):
        if len(declared) != len(node.indexes):
            self.error("E208", f"{what} takes {len(declared)} index(es), not {len(node.indexes)}", node.span)
        for given, domain in zip(node.indexes, declared):
            t = self.expr(given, scope)
            expected = element_of(self.expr(domain, self.globals))
            self.fits(t, expected, given.span, f"{what} is indexed by {describe(expected)}, not {describe(t)}")
        for extra in node.indexes[len(declared):]:
            self.expr(extra, scope)

    def expr_LetIn(self, node, scope):
        self.no_shadowing(node.name, node.span)
        inner = scope.child(**{node.name: self.expr(node.value, scope)})
        return self.expr(node.body, inner)

    def expr_After(self, node, scope):
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
            if isinstance(n, ast.Choose):
                return f"'{name}' has a choose (line {n.span.line})"
            if isinstance(n, ast.CallStatement):
                found = self.choosing_procedure(n.name, seen)
                if found:
                    return found
        return None

    def expr_Call(self, node, scope):
        if node.name == "can_play":
            return self.can_play(node, scope)
        args = [self.expr(a, scope) for a in node.arguments]
        if node.name in self.functions:
            fn = self.functions[node.name]
            self.arity(node, len(fn.parameters))
            for given, parameter, arg in zip(args, fn.parameters, node.arguments):
                expected = self.type_name(parameter.type)
                self.fits(given, expected, arg.span, f"'{parameter.name}' of {node.name} is {describe(expected)}, not {describe(given)}")
            return self.type_name(fn.result_type)
        if node.name in self.boards:
            self.arity(node, 2)
            for given, arg in zip(args, node.arguments):
                if self.whole(given, arg.span, f"a row or column of {node.name}") and strip_optional(given) not in WHOLE:
                    self.error("E303", f"a cell of {node.name} is found by its row and column numbers, "
                                       f"not {describe(given)}", arg.span)
            return node.name + "?"
        if node.name in STDLIB_SIGNATURES:
            params, result = STDLIB_SIGNATURES[node.name]
            self.arity(node, len(params))
            first = args[0] if args else ANY
            if node.name == "abs" and args and strip_optional(args[0]) == REAL:
                return REAL          # abs keeps a fraction a fraction
            for given, expected, arg in zip(args, params, node.arguments):
                if expected in ("int", "Player") and not self.whole(given, arg.span, f"what {node.name} takes here"):
                    continue
                if expected in ("list", "zone") and not (given.startswith("list[") or given.startswith("zone[") or given == ANY):
                    self.error("E306", f"{node.name} takes a list or a zone here, not {describe(given)}", arg.span)
                elif expected in ("int", "Player") and (given == "none" or not compatible(given, expected)):
                    self.error("E303", f"{node.name} takes {describe(expected)} here, not {describe(given)}", arg.span)
                elif expected == "Direction" and not compatible(given, expected):
                    self.error("E303", f"{node.name} takes a Direction here, not {describe(given)}", arg.span)
                elif expected == "cell" and node.name in GEOMETRY_BY_CELL and given != "none" \
                        and strip_optional(given) not in self.boards and given != ANY:
                    self.error("E303", f"{node.name} takes a cell of a board here, not {describe(given)}", arg.span)
            element = element_of(first) if first != ANY else ANY
            if node.name in ("neighbors",) or node.name in GEOMETRY_BY_CELL:
                element = strip_optional(first)
            if result == "T?":
                return optional(element)
            # replace the whole word T only: an element type may itself contain a T (Token)
            return re.sub(r"\bT\b", element, result)
        if node.name in self.procedures:
            self.error("E204", f"'{node.name}' is a procedure: call it as a statement, it has no value", node.span)
            return ANY
        candidates = set(self.functions) | set(STDLIB_SIGNATURES) | set(self.boards)
        self.error("E204", f"unknown function '{node.name}'", node.span, did_you_mean(node.name, candidates))
        return ANY

    def can_play(self, node, scope) -> str:
        """can_play(ACTION) or can_play(ACTION, PLAYER): whether the action has a legal move now
        (for that player)."""
        if not 1 <= len(node.arguments) <= 2:
            self.error("E208", f"'can_play' takes an action and optionally a player, not {len(node.arguments)} argument(s)",
                       node.span)
            return "bool"
        action = node.arguments[0]
        if not isinstance(action, ast.Name) or action.id not in self.actions:
            self.error("E205", "can_play asks about an action: its first argument must be an action's name",
                       action.span, did_you_mean(action.id, self.actions) if isinstance(action, ast.Name) else None)
        if len(node.arguments) == 2:
            given = self.expr(node.arguments[1], scope)
            if given == "none" or not compatible(given, "Player"):
                self.error("E303", f"can_play asks for a player, not {describe(given)}", node.arguments[1].span)
        return "bool"

    def arity(self, node, expected):
        if len(node.arguments) != expected:
            self.error("E208", f"'{node.name}' takes {expected} argument(s), not {len(node.arguments)}", node.span)

    def require_collection(self, t, node):
        if not (t.startswith("list[") or t.startswith("zone[") or t == ANY):
            self.error("E306", f"expected a list or a zone, but this is {describe(t)}", node.span)

    def binder(self, binder: ast.Binder, scope) -> Scope:
        self.no_shadowing(binder.name, binder.span)
        domain = self.expr(binder.domain, scope)
        self.require_collection(domain, binder.domain)
        inner = scope.child(**{binder.name: strip_optional(element_of(domain))})
        if binder.condition is not None:
            self.condition(binder.condition, inner, "a 'where' filter")
        return inner

    def expr_Aggregate(self, node, scope):
        inner = self.binder(node.binder, scope)
        element = inner.names[node.binder.name]
        body = self.expr(node.value, inner) if node.value is not None else None
        kind = node.kind
        if kind in ("count",):
            return "int"
        if kind in ("any", "all"):
            if body is not None and strip_optional(body) not in ("bool", ANY):
                self.error("E301", f"'{kind}' needs a condition after ':'", node.value.span)
            return "bool"
        if kind == "filter":
            return list_of(element)
        if kind == "map":
            return list_of(body or element)
        if kind == "first":
            return optional(element)
        if kind in ("sum", "max", "min"):
            value = body or element
            if strip_optional(value) not in NUMBERS:
                self.error("E302", f"'{kind}' adds up or compares numbers, but this is {describe(value)}",
                           (node.value or node.binder).span)
            number = REAL if strip_optional(value) == REAL else "int"
            return number if kind == "sum" else number + "?"
        return ANY

    def expr_Ranking(self, node, scope):
        inner = self.binder(node.binder, scope)
        for key in node.keys:
            t = self.expr(key, inner)
            if strip_optional(t) not in ("int", REAL, "bool", ANY):
                self.error("E302", f"a ranking key must be a number, but this is {describe(t)}", key.span)
        return list_of(inner.names[node.binder.name])

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
                self.error("E407", f"'{keyword(inner)}' may only be used in the flow section", inner.span)
            if isinstance(inner, ast.Create) and where != "setup":
                self.error("E407", "components may only be created in the setup section", inner.span,
                           "components are fixed once the game starts, so that none appears or vanishes")
            if where == "setup":
                self.no_choice_in_setup(inner)
            self.statement(inner, scope, where)
        return scope

    def no_choice_in_setup(self, statement):
        """Nobody is asked anything before the flow starts: no `choose` in the setup, nor in a
        procedure it calls."""
        for node in ast.walk(statement):
            found = None
            if isinstance(node, ast.Choose):
                found = "'choose'"
            elif isinstance(node, ast.CallStatement) and self.choosing_procedure(node.name):
                found = f"'{node.name}', which reaches a choice: {self.choosing_procedure(node.name)}"
            if found:
                self.error("E407", f"the setup runs before anybody moves, but here it asks a player to choose ({found})",
                           node.span, "make the choice the flow's first step (before its turns), or draw it with pick(...)")
                return

    def statement(self, node, scope, where):
        getattr(self, "stmt_" + type(node).__name__)(node, scope, where)

    def stmt_Let(self, node, scope, where):
        self.no_shadowing(node.name, node.span)
        scope.names[node.name] = self.expr(node.value, scope)

    def no_shadowing(self, name, span):
        """A local (let, binder, parameter) may not take the name of a declaration: it would
        hide it, and a write meant for one would go to the other."""
        kinds = (("a component type", self.components), ("a board", self.boards), ("an enum", self.enums),
                 ("a value of an enum", self.members), ("a zone", self.zones), ("a variable", self.vars),
                 ("a parameter", self.params), ("an option", self.options), ("a function", self.functions),
                 ("a procedure", self.procedures), ("an action", self.actions), ("a built-in name", BUILTIN_VALUES))
        for what, names in kinds:
            if name in names:
                self.error("E210", f"the local name '{name}' is already {what}: it would hide it",
                           span, f"give the local a name of its own (e.g. '{name}_here')")
                return

    def local_type(self, name, scope):
        """The type of a local (let, binder, parameter): a name bound below the global scope."""
        while scope is not None and scope is not self.globals:
            if name in scope.names:
                return scope.names[name]
            scope = scope.parent
        return None

    def target(self, target: ast.Target, scope) -> str:
        if isinstance(target, ast.AttributeTarget):
            return self.attribute_target(target, scope)
        if self.local_type(target.name, scope) is not None and not target.indexes:
            return self.local_type(target.name, scope)
        if target.name in self.vars:
            var = self.vars[target.name]
            fake = ast.Subscript(target.span, ast.Name(target.span, target.name), target.indexes)
            self.indexes(var.index, fake, scope, f"'{target.name}'")
            return self.type_name(var.type)
        if target.name in self.zones or target.name in self.params or scope.lookup(target.name) is not None:
            self.error("E209", f"'{target.name}' cannot be assigned: only variables (var) and locals (let) can", target.span)
            return ANY
        self.error("E202", f"unknown variable '{target.name}'", target.span,
                   did_you_mean(target.name, set(self.vars) | scope.all_names()) or "declare it with 'var'")
        return ANY

    def attribute_target(self, target, scope) -> str:
        """x.a = ...: x a component (a local), a one of its attributes; a board cell's never change."""
        t = self.local_type(target.name, scope)
        if t is None:
            self.error("E202", f"unknown local '{target.name}'", target.span,
                       "an attribute is changed through a local that holds the component: 'let x = ...' first")
            return ANY
        base = strip_optional(t)
        if base == ANY:
            return ANY            # unknown already (an error said so, or a value of no one type)
        if base in self.boards:
            self.error("E209", f"'{target.name}' is a cell of {base}: the attributes of board cells never change", target.span,
                       "keep what changes in a variable indexed by the board")
            return ANY
        fields = self.fields_of(base) if base in self.components else None
        if fields is None:
            self.error("E305", f"'{target.name}' is {describe(t)}, which has no attributes to change", target.span)
            return ANY
        if target.attribute not in fields:
            self.error("E203", f"{base} has no attribute '{target.attribute}'", target.span, did_you_mean(target.attribute, fields))
            return ANY
        return fields[target.attribute]

    def stmt_Assign(self, node, scope, where):
        expected = self.target(node.target, scope)
        given = self.expr(node.value, scope)
        self.fits(given, expected, node.value.span, f"'{node.target.name}' holds {describe(expected)}, not {describe(given)}")

    def stmt_Augment(self, node, scope, where):
        expected = self.target(node.target, scope)
        given = self.expr(node.value, scope)
        for t, span in ((expected, node.target.span), (given, node.value.span)):
            if strip_optional(t) not in NUMBERS:
                self.error("E302", f"'{node.op}' works on numbers, but this is {describe(t)}", span)
        if strip_optional(expected) in WHOLE and strip_optional(expected) != ANY:
            self.whole(given, node.value.span, f"'{node.target.name}' holds whole numbers: what '{node.op}' changes it by")

    def stmt_If(self, node, scope, where):
        self.condition(node.condition, scope)
        self.block(node.body, scope, where)
        for clause in node.elifs:
            self.condition(clause.condition, scope)
            self.block(clause.body, scope, where)
        self.block(node.orelse, scope, where)

    def stmt_For(self, node, scope, where):
        self.block(node.body, self.binder(node.binder, scope), where)

    def stmt_While(self, node, scope, where):
        self.condition(node.condition, scope)
        self.block(node.body, scope, where)

    def stmt_Repeat(self, node, scope, where):
        inner = self.block(node.body, scope, where)
        if node.until is not None:
            self.condition(node.until, inner)

    def zone_expr(self, node, scope, what):
        t = self.expr(node, scope)
        if not (t.startswith("zone[") or t == ANY):
            self.error("E304", f"{what} must be a zone, but this is {describe(t)}", node.span)
        return t

    def stmt_Move(self, node, scope, where):
        item = self.expr(node.item, scope)
        if strip_optional(item) not in self.components and item != ANY:
            self.error("E305", f"only components move, but this is {describe(item)}", node.item.span)
        self.zone_expr(node.destination.zone, scope, "the destination")

    def stmt_MoveAll(self, node, scope, where):
        source = self.expr(node.source, scope)
        self.require_collection(source, node.source)
        self.zone_expr(node.destination.zone, scope, "the destination")

    def stmt_Deal(self, node, scope, where):
        count = self.expr(node.count, scope)
        if self.whole(count, node.count.span, "the number to deal") and strip_optional(count) not in NUMBERS:
            self.error("E302", f"the number to deal must be a number, not {describe(count)}", node.count.span)
        self.zone_expr(node.source, scope, "what to deal from")
        self.zone_expr(node.destination.zone, scope, "the destination")

    def stmt_Shuffle(self, node, scope, where):
        self.zone_expr(node.zone, scope, "what to shuffle")

    def stmt_Reveal(self, node, scope, where):
        what = self.expr(node.what, scope)
        collection = what.startswith("list[") or what.startswith("zone[")
        if what != ANY and strip_optional(element_of(what) if collection else what) not in self.components:
            self.error("E305", f"only components can be revealed (one, a list or a zone), but this is {describe(what)}",
                       node.what.span)
        players = self.expr(node.players, scope)
        if strip_optional(players) != "Player" and strip_optional(element_of(players)) != "Player" and players != ANY:
            self.error("E303", f"reveal ... to a player or a list of players, not {describe(players)}", node.players.span)

    def stmt_Create(self, node, scope, where):
        count = self.expr(node.count, scope)
        if self.whole(count, node.count.span, "how many to create") and strip_optional(count) not in NUMBERS:
            self.error("E302", f"how many to create must be a number, not {describe(count)}", node.count.span)
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
                              f"'{init.name}' is {describe(fields[init.name])}, not {describe(value)}")
            missing = [f.name for f in component.fields if f.name not in given]
            if missing:
                self.error("E207", f"missing attribute(s) of {node.type_name}: {', '.join(missing)}", node.span)
        self.zone_expr(node.zone, scope, "where to create")

    def stmt_Choose(self, node, scope, where):
        if node.chooser is not None:
            t = self.expr(node.chooser, scope)
            if not compatible(t, "Player"):
                self.error("E303", f"who chooses must be a player, not {describe(t)}", node.chooser.span)
        self.block(node.body, self.binder(node.binder, scope), where)

    def stmt_Require(self, node, scope, where):
        self.condition(node.condition, scope, "a requirement")
        if node.reason:
            self.text_placeholders(node.reason, scope, node.span, "the reason of a refusal")

    def text_placeholders(self, text, scope, span, where):
        """Each {name} or {expression} of a text (a refusal's reason, a log line): an expression
        of what is known there (the binders, the lets before it, the game's names)."""
        for match in PLACEHOLDER_TEXT.finditer(text):
            node = parse_expression(match.group(1), span)
            if node is None:
                self.error("E411", f"'{{{match.group(1)}}}' in {where} is not an expression", span,
                           "show a value as {name} or {expression}, e.g. {size(hand[current])}")
            else:
                self.expr(node, scope)

    def stmt_Again(self, node, scope, where):
        pass

    def stmt_Finish(self, node, scope, where):
        if node.winners is not None:
            t = self.expr(node.winners, scope)
            if not compatible(t, "list[Player]"):
                self.error("E303", f"the winners must be a list of players, not {describe(t)}", node.winners.span,
                           "write e.g. 'finish winners [p]'")

    def stmt_Log(self, node, scope, where):
        self.text_placeholders(node.message, scope, node.span, "a log line")

    def stmt_Play(self, node, scope, where):
        for name in node.actions:
            if name not in self.actions:
                self.error("E205", f"unknown action '{name}'", node.span, did_you_mean(name, self.actions))

    def stmt_Turns(self, node, scope, where):
        t = self.expr(node.start, scope)
        if not compatible(t, "Player"):
            self.error("E303", f"turns start from a player, not {describe(t)}", node.start.span)
        if node.until is not None:
            self.condition(node.until, scope)
        self.block(node.body, scope, where)

    def stmt_Turn(self, node, scope, where):
        t = self.expr(node.player, scope)
        if not compatible(t, "Player"):
            self.error("E303", f"a turn is a player's, not {describe(t)}", node.player.span)
        self.block(node.body, scope, where)

    def stmt_Simultaneous(self, node, scope, where):
        inner = self.binder(node.binder, scope)
        plays = [s for s in node.body if isinstance(ast.untag(s)[0], ast.Play)]
        if len(node.body) != 1 or len(plays) != 1:
            self.error("E407", "a 'simultaneous' block holds exactly one 'play'", node.span)
        self.block(node.body, inner, where)

    def stmt_CallStatement(self, node, scope, where):
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
            self.fits(given, expected, arg.span, f"'{parameter.name}' of {node.name} is {describe(expected)}, not {describe(given)}")
        return proc

    # ---- declarations ----
    def run(self):
        for check in CHECKS:
            check(self)
        return self.diagnostics


def describe(t: str) -> str:
    if t == "none":
        return "none"
    if t.startswith("list["):
        return "a list" if element_of(t) == ANY else f"a list of {written(element_of(t))}"    # (of mixed or no items)
    if t.startswith("zone["):
        return f"a zone of {written(element_of(t))}"
    if t == "int":
        return "a number"
    if t == REAL:
        return "a fraction"
    if t == "bool":
        return "true/false"
    return f"'{t}'"


def written(t: str) -> str:
    """A type as a rules file writes it: 'list of list of int', not 'list[list[int]]'."""
    for kind in ("list", "zone"):
        if strip_optional(t).startswith(kind + "["):
            return f"{kind} of {written(element_of(t))}"
    return t


def may_be_none(t: str) -> bool:
    return t in (ANY, "none") or t.endswith("?")


def compatible(a: str, b: str) -> bool:
    if ANY in (a, b) or a == b:
        return True
    if "none" in (a, b):
        return True
    sa, sb = strip_optional(a), strip_optional(b)
    if sa == sb or {sa, sb} == {"int", "Player"}:   # a seat number is a player
        return True
    if sa == "int" and sb == REAL:                  # a whole number is a fraction (not the other way)
        return True
    if sa.startswith("list[") and sb.startswith("list["):
        return compatible(element_of(sa), element_of(sb))
    return False


def keyword(node) -> str:
    return {ast.Play: "play", ast.Turns: "turns", ast.Turn: "turn", ast.Simultaneous: "simultaneous"}[type(node)]


# ---- the checks, in order -------------------------------------------------------------

def check_sections(c: Checker):
    program = c.program
    # point at the first declaration of the file itself (not at a comment on line 1)
    own = [d.node.span for d in program.declarations.values() if d.node.span.file == program.path]
    own += [section.span for section in (program.game, program.flow) if section is not None
            and section.span.file == program.path]
    first = min(own, key=lambda span: (span.line, span.column), default=ast.Span(program.path, 1, 1, 1, 2))
    here = ast.Span(first.file, first.line, first.column, first.line, first.column + 1)
    if program.game is None:
        c.error("E401", "missing 'game' section", here, 'start the file with: game "Name" { players 2 }')
    else:
        players = [f for f in program.game.fields if isinstance(f, ast.PlayersField)]
        if not players:
            c.error("E401", "the game section does not say how many players", program.game.span,
                    "add e.g. 'players 2..4'")
        for field in players:
            high = field.high if field.high is not None else field.low
            if field.low < 1 or high < field.low:
                c.error("E408", f"players {field.low}..{high} is not a range of player counts", field.span)
            elif high > MAX_PLAYERS:
                c.error("E408", f"a game is for at most {MAX_PLAYERS} players, not {high}", field.span,
                        "see the limits in docs/language.md")
    if program.flow is None:
        at = program.game.span if program.game is not None else here
        c.error("E402", "missing 'flow' section: the game never asks anybody to move",
                ast.Span(at.file, at.line, at.column, at.line, at.column + 4),
                "say how turns go, e.g. flow { turns from 1 { play move } }")


def check_types_and_names(c: Checker):
    for name, declared in c.program.declarations.items():
        if isinstance(declared.node, ast.Action):
            continue           # actions have names of their own, used only by 'play'
        if name in STDLIB_SIGNATURES or name in BUILTIN_VALUES or name == "can_play":
            c.error("E211", f"'{name}' is {'a built-in name' if name in BUILTIN_VALUES else 'a standard function'}: a declaration of that name would hide it",
                    declared.node.span, f"give it a name of its own (e.g. 'game_{name}')")
    seen_members = {}
    for enum in c.enums.values():
        for member in enum.members:
            if member in seen_members and seen_members[member] != enum.name:
                c.error("E201", f"'{member}' is a member of both {seen_members[member]} and {enum.name}", enum.span)
            seen_members[member] = enum.name
            if member in c.program.declarations:
                c.error("E201", f"enum member '{member}' has the name of a declaration", enum.span)
    for component in c.components.values():
        for field in component.fields:
            c.type_name(field.type)
            if field.visibility not in (None, "owner", "public"):
                c.error("E409", f"an attribute is seen by everybody or only by its owner, not '{field.visibility}'",
                        field.span, "write 'owner' after its type, or nothing")
    for zone in c.zones.values():
        if zone.element_type not in c.components:
            c.error("E206", f"a zone holds components, and '{zone.element_type}' is not a component type",
                    zone.span, did_you_mean(zone.element_type, c.components))
        for domain in zone.index:
            c.require_collection(c.expr(domain, c.globals), domain)
    for var in c.vars.values():
        t = c.type_name(var.type)
        for domain in var.index:
            c.require_collection(c.expr(domain, c.globals), domain)
        if var.initial is not None:
            given = c.expr(var.initial, c.globals)
            c.fits(given, t, var.initial.span, f"'{var.name}' holds {describe(t)}, not {describe(given)}")
        elif not may_be_none(t) and t not in ("int", REAL, "bool"):
            # (a number starts at 0 and a bool at false; any other value would start at none)
            c.error("E303", f"'{var.name}' holds {describe(t)}, never none, but has no starting value", var.span,
                    "give it one, e.g. '= []'" if t.startswith("list[") else
                    f"give it one ('= ...'), or write '{t}?' for a variable that starts at none")


def check_params_and_options(c: Checker):
    for param in c.params.values():
        given = c.expr(param.value, c.globals)
        if param.type is None:
            c.globals.names[param.name] = given
            continue
        # a typed param: its value may be given when the game is loaded (--param n=8)
        t = c.type_name(param.type)
        if t not in ("int", "bool", ANY):
            c.error("E212", f"a typed param is an int or a bool, not {describe(t)}", param.type.span,
                    "write 'param NAME: int in LOW..HIGH = VALUE', or leave the type out")
        elif param.low is not None and t != "int":
            c.error("E212", f"only an int param has a range, not {describe(t)}", param.low.span)
        for bound in (param.low, param.high):
            if bound is not None and strip_optional(c.expr(bound, c.globals)) not in WHOLE:
                c.error("E302", "the bounds of a param's range are whole numbers", bound.span)
        if not compatible(given, t):
            c.error("E303", f"'{param.name}' holds {describe(t)}, not {describe(given)}", param.value.span)
        c.globals.names[param.name] = t
    for option in c.options.values():
        for setting in option.settings:
            if setting.name not in c.params:
                c.error("E202", f"option '{option.name}' sets '{setting.name}', which is not a param", setting.span,
                        did_you_mean(setting.name, c.params))
            else:
                given, expected = c.expr(setting.value, c.globals), c.globals.names[setting.name]
                if not compatible(given, expected) or (given == "none" and not may_be_none(expected)):
                    c.error("E303", f"option '{option.name}' sets '{setting.name}' to {describe(given)}, "
                                    f"but it holds {describe(expected)}", setting.value.span)


def check_var_ranges(c: Checker):
    """`var x: int in LOW..HIGH`: the bounds are known before the game starts (numbers and
    params), so that every value the variable may hold is known. Whether LOW <= HIGH and the
    initial value is inside is checked when the game is loaded, once the params are known."""
    for var in c.vars.values():
        if var.low is None:
            continue
        t = c.type_name(var.type)
        if strip_optional(t) != "int":
            c.error("E213", f"only an int variable has a range of values, not {describe(t)}", var.low.span,
                    f"write 'var {var.name}: int in LOW..HIGH', or leave the range out")
            continue
        for bound in (var.low, var.high):
            read = next((n.id for n in ast.walk(bound) if isinstance(n, ast.Name)
                         and n.id not in c.params and n.id != "num_players"), None)
            if read is not None:
                c.error("E213", f"the range of '{var.name}' must be known before the game starts, "
                                f"but it reads '{read}'", bound.span,
                        "write its bounds with numbers and params (param NAME = ...)")
            elif strip_optional(c.expr(bound, c.globals)) not in WHOLE:
                c.error("E213", f"the bounds of the range of '{var.name}' are whole numbers", bound.span)


def check_owner_has_a_seat(c: Checker):
    """`owner` shows a zone's or a variable's entry to the seat of its Player index: without
    one, nobody would ever see it (a hidden one says so)."""
    for kind, group in (("zone", c.zones.values()), ("variable", c.vars.values())):
        for declared in group:
            if declared.visibility != "owner":
                continue
            if not any(strip_optional(element_of(c.expr(d, c.globals))) == "Player" for d in declared.index):
                c.error("E417", f"{kind} '{declared.name}' is 'owner', but has no Player index: nobody would see it",
                        declared.span, f"index it by the players ({declared.name}[Player, ...]), or mark it 'hidden'")


def check_var_display(c: Checker):
    """`bookkeeping` and `status` say how the table shows a variable, never who sees it: a
    status variable is one value that every seat sees; a hidden one is shown nowhere."""
    for var in c.vars.values():
        if var.display == "status" and var.index:
            c.error("E214", f"'{var.name}' has indexes, but the status line shows one value", var.span,
                    "mark 'status' a variable without indexes (a round counter), or this one 'bookkeeping'")
        elif var.display == "status" and var.visibility != "public":
            c.error("E214", f"'{var.name}' is {var.visibility}, but the status line is what every seat sees",
                    var.span, "mark 'status' a public variable only")
        elif var.display == "bookkeeping" and var.visibility == "hidden":
            c.error("E214", f"'{var.name}' is hidden: no view shows it, so 'bookkeeping' changes nothing",
                    var.span, "leave out 'bookkeeping'")


def check_boards(c: Checker):
    for board in c.boards.values():
        shape = board.shape
        if isinstance(shape, ast.GridShape):
            for side in (shape.rows, shape.cols):
                t = c.expr(side, c.globals)
                if c.whole(t, side.span, "a grid's size") and strip_optional(t) not in NUMBERS:
                    c.error("E302", "a grid's size is a number", side.span)
            if shape.condition is not None:
                c.condition(shape.condition, c.globals.child(row="int", col="int"), "which cells exist")
        else:
            # a legend gives each kind of cell constant attributes, of one type per attribute
            types = {}
            for init, t in c.legend(board.name)[1]:
                if strip_optional(t) not in ("int", "bool", "text", "none", ANY) and t not in c.enums:
                    c.error("E303", "a legend gives cells numbers, text, true/false or enum members, "
                                    f"not {describe(t)}", init.value.span)
                elif init.name in types and not compatible(t, types[init.name]):
                    c.error("E303", f"'{init.name}' is {describe(types[init.name])} in another legend entry, "
                                    f"not {describe(t)}", init.value.span)
                else:
                    types.setdefault(init.name, t)


def check_game_fields(c: Checker):
    if c.program.game is None:
        return
    for field in c.program.game.fields:
        if isinstance(field, ast.ScoreField):
            t = c.expr(field.expr, c.globals.child(**{field.player_name: "Player"}))
            if strip_optional(t) == REAL:
                c.error("E215", "a score is a whole number, not a fraction", field.expr.span,
                        "scores rank the players and are shown; a payoff that is a fraction goes in 'returns p: ...'")
            elif strip_optional(t) not in NUMBERS:
                c.error("E302", f"a score is a number, but this is {describe(t)}", field.expr.span)
        if isinstance(field, ast.ReturnsField):
            t = c.expr(field.expr, c.globals.child(**{field.player_name: "Player"}))
            if strip_optional(t) not in NUMBERS:
                c.error("E302", f"a player's return is a number, but this is {describe(t)}", field.expr.span)


def parameter_scope(c: Checker, parameters):
    for p in parameters:
        c.no_shadowing(p.name, p.span)
    return c.globals.child(**{p.name: c.type_name(p.type) for p in parameters})


def check_functions(c: Checker):
    for fn in c.functions.values():
        result = c.type_name(fn.result_type)
        given = c.expr(fn.body, parameter_scope(c, fn.parameters))
        c.fits(given, result, fn.body.span, f"'{fn.name}' says it gives {describe(result)}, but its body gives {describe(given)}")


def check_procedures(c: Checker):
    for proc in c.procedures.values():
        c.block(proc.body, parameter_scope(c, proc.parameters), "proc")


def check_actions(c: Checker):
    for action in c.actions.values():
        scope = c.globals
        for binder in action.binders:
            scope = c.binder(binder, scope)
            c.argument_types[action.name, binder.name] = scope.lookup(binder.name)
            if binder.reason:
                c.text_placeholders(binder.reason, scope, binder.span, "the reason of a refusal")
            if binder.outside:
                c.text_placeholders(binder.outside, scope, binder.span, "the reason of a refusal")
                element = strip_optional(scope.lookup(binder.name))
                if element.startswith("list[") or element in ("text", ANY):
                    c.error("E414", f"'else' after the domain of '{binder.name}': a value outside it cannot be "
                                    f"typed for {describe(element)}", binder.span,
                            "a reason for a value outside the domain needs cells, components, players, an enum or numbers")
        c.block(action.body, scope, "action", guard_allowed=True)


PLACEHOLDER_TEXT = re.compile(r"\{([^{}]*)\}")


def check_labels(c: Checker):
    """A move's name is its action's label filled in: a placeholder must name an argument, and
    an argument left out of the label must not tell two moves apart (two moves with one name
    would be merged into one). Only arguments drawn from components may be left out: identical
    components make one move, and the engine refuses two different ones with the same name."""
    for action in c.actions.values():
        names = [b.name for b in action.binders]
        for match in PLACEHOLDER_TEXT.finditer(action.public_template or ""):
            inside = match.group(1)
            if inside not in names:
                c.error("E410", f"the public text of action '{action.name}' shows '{{{inside}}}', which is not one of its arguments",
                        action.span, did_you_mean(inside, names) or (f"its arguments are {', '.join(names)}" if names else
                                                                    "this action has no arguments to show"))
        if action.template is None:
            continue          # the default name shows every argument
        if action.template and not action.template.strip():
            c.error("E416", f"the label of action '{action.name}' is blank: its moves would have no name to type",
                    label_span(c, action), f'give it words, e.g. "{action.name}", or leave the label out')
            continue
        names = [b.name for b in action.binders]
        template = action.template
        shown, wrong = set(), False
        for match, span in placeholders(c, action, template):
            inside = match.group(1)
            if inside in names:
                shown.add(inside)
                continue
            if re.fullmatch(r"\w+", inside):
                wrong = True
                c.error("E410", f"the label of action '{action.name}' shows '{{{inside}}}', which is not one of its arguments",
                        span, did_you_mean(inside, names) or (f"its arguments are {', '.join(names)}" if names else
                                                             "this action has no arguments to show"))
                continue
            node, mentioned = label_expression(c, action, inside, span)
            wrong = wrong or node is None
            shown |= mentioned & set(names)
        for binder in action.binders:
            if binder.name in shown:
                continue
            if c.argument_types.get((action.name, binder.name)) in c.components:
                continue
            start = template.strip() if template.strip() and not wrong else action.name
            example = f'"{start} {{{binder.name}}}"'
            c.error("E412", f"the label of action '{action.name}' does not show its argument '{binder.name}': "
                            f"two moves that differ only in '{binder.name}' would have the same name and be merged into one",
                    label_span(c, action), f"show it, e.g. {example}")
    for component in c.components.values():
        if not component.label:
            continue
        fields = [f.name for f in component.fields] + ["owner"]
        for match in PLACEHOLDER_TEXT.finditer(component.label):
            if match.group(1) not in fields:
                c.error("E410", f"the label of component '{component.name}' shows '{{{match.group(1)}}}', which is not one of its attributes",
                        text_span(c, component.span, match.group(0)),
                        did_you_mean(match.group(1), fields) or f"its attributes are {', '.join(fields)}")


def check_labels_of_a_play(c: Checker):
    """Two actions offered by one `play` with the same label and no placeholder make moves of
    one name: a player could not tell them apart, and naming one would always play the other.
    (Labels with placeholders may differ by their values: `"{c}"` for two kinds of card.)"""
    for play in (n for n in ast.walk(c.program.parts()) if isinstance(n, ast.Play)):
        seen = {}
        for name in play.actions:
            action = c.actions.get(name)
            if action is None or (action.binders and not action.template) or PLACEHOLDER_TEXT.search(action.template or ""):
                continue
            if action.template and not action.template.strip():
                continue          # blank: E416 says so
            # the name a player types, in any case and spacing (without a label: the action's name)
            text = " ".join((action.template or action.name).lower().split())
            if text in seen and seen[text] != name:
                c.error("E415", f"'{seen[text]}' and '{name}' both make the move '{text}' in this play: "
                                f"a player could not tell them apart", play.span,
                        "give each action a label of its own")
            seen.setdefault(text, name)


def text_span(c: Checker, span, fragment) -> ast.Span:
    """The span of the first `fragment` at or after `span` on its line (`span` without the source)."""
    text = c.sources.get(span.file)
    start = source_offset(text, span)
    if start is None:
        return span
    where, end = text.find(fragment, start), text.find("\n", start)
    if where == -1 or (end != -1 and where > end):
        return span
    return offset_span(span.file, text, where, len(fragment))


def source_offset(text, span):
    if text is None:
        return None
    lines = text.split("\n")
    if not 1 <= span.line <= len(lines):
        return None
    return sum(len(line) + 1 for line in lines[:span.line - 1]) + span.column - 1


def label_span(c: Checker, action) -> ast.Span:
    """Where an action's label string starts (the action itself without the source text)."""
    found = label_offset(c, action)
    if found is None:
        return action.span
    text, offset = found
    return offset_span(action.span.file, text, offset, 1)


def label_expression(c: Checker, action, inside, span):
    """A label's {expression}: of the action's arguments only (a move's name never changes
    while it is legal, and is known without the state): no variable, zone, `current` or
    function of the rules, no attribute that statements change. (The node, kept in
    c.label_expressions, or None after an error; the names it mentions.)"""
    node = parse_expression(inside, span)
    if node is None:
        c.error("E411", f"'{{{inside}}}' in the label of action '{action.name}' is neither an argument nor an expression",
                span, "show an argument as {name}, or a value computed from the arguments, e.g. {to.row - from.row}")
        return None, set()
    mentioned = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
    changed = c.changed_attributes
    for n in ast.walk(node):
        read = None
        if isinstance(n, ast.Name) and (n.id in c.vars or n.id in c.zones or n.id == "current"
                                        or n.id in c.components):
            read = f"'{n.id}'"
        elif isinstance(n, ast.Call) and (n.name in c.functions or n.name in ("pick", "can_play")):
            read = f"'{n.name}(...)'"
        elif isinstance(n, ast.Attribute) and n.name in changed:
            read = f"the attribute '{n.name}', which statements change"
        elif isinstance(n, ast.After):
            read = "'after'"
        if read is not None:
            c.error("E413", f"the label of action '{action.name}' reads {read} in '{{{inside}}}': "
                            f"a label computes from the action's arguments only", span,
                    "make the value an argument of the action (e.g. 'd in ... where d == ...') and show that")
            return None, mentioned
    scope = c.globals.child(**{b.name: c.argument_types.get((action.name, b.name), ANY) for b in action.binders})
    before = len(c.diagnostics)
    c.expr(node, scope)
    if len(c.diagnostics) > before:
        return None, mentioned
    c.label_expressions[(action.name, inside)] = node
    return node, mentioned


def placeholders(c: Checker, action, template):
    """Each {...} of a label with the span of it in the source (the label's span when the
    string holds escapes that make the offsets differ)."""
    found = label_offset(c, action)
    for match in PLACEHOLDER_TEXT.finditer(template):
        span = action.span
        if found is not None:
            text, offset = found
            where = text.find(match.group(0), offset)
            end = text.find("\n", offset)
            if where != -1 and (end == -1 or where < end):
                span = offset_span(action.span.file, text, where, len(match.group(0)))
            else:
                span = offset_span(action.span.file, text, offset, 1)
        yield match, span


def label_offset(c: Checker, action):
    """(source text, offset of the label's opening quote), found after the action's name and
    arguments; None without the source or a label."""
    text = c.sources.get(action.span.file)
    position = source_offset(text, action.span)
    if position is None or not action.template:
        return None
    depth, quoted = 0, False
    for i in range(position, min(len(text), position + 20_000)):
        ch = text[i]
        if quoted:
            if ch == "\\":
                continue
            if ch == '"' and text[i - 1] != "\\":
                quoted = False
        elif ch == '"':
            if depth == 0:
                return text, i
            quoted = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "{" and depth == 0:
            return None          # the body starts: no label
    return None


def offset_span(file, text, offset, length) -> ast.Span:
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return ast.Span(file, line, column, line, column + length)


def check_triggers(c: Checker):
    for trigger in c.program.of_kind(ast.Trigger):
        scope = c.binder(trigger.binder, c.globals) if trigger.binder else c.globals
        c.condition(trigger.condition, scope, "a trigger's 'when'")
        c.block(trigger.body, scope, "trigger")


def check_invariants(c: Checker):
    for invariant in c.program.of_kind(ast.Invariant):
        c.condition(invariant.condition, c.globals, "an invariant")


def check_setup_and_flow(c: Checker):
    if c.program.setup is not None:
        c.block(c.program.setup.body, c.globals, "setup")
    if c.program.flow is not None:
        c.block(c.program.flow.body, c.globals, "flow")


def check_binder_reasons(c: Checker):
    """`in D else "TEXT"` and `where COND else "TEXT"` say why a player's move is refused: only
    an action's binders are typed by players."""
    allowed = {id(b) for a in c.actions.values() for b in a.binders}
    for node in ast.walk(c.program.parts()):
        if isinstance(node, ast.Binder) and (node.reason is not None or node.outside is not None) and \
                id(node) not in allowed:
            where = "filter" if node.reason is not None else "domain"
            c.error("E414", f"'else' after the {where} of '{node.name}': only an action's binders have a reason "
                            f"for a refused move", node.span,
                    "remove the 'else \"...\"'; an action's binder or a 'require ... else' says why a move is refused")


CHECKS = (check_sections, check_types_and_names, check_params_and_options, check_var_ranges, check_owner_has_a_seat, check_var_display,
          check_boards, check_game_fields, check_functions, check_procedures, check_actions, check_labels, check_labels_of_a_play, check_triggers,
          check_invariants, check_setup_and_flow, check_binder_reasons)


def check(program: Program, sources: Optional[dict] = None) -> list[Diagnostic]:
    return Checker(program, sources).run()
