"""Expressions -> Python source -> one Python function per expression tree.

A closure per syntax node costs a Python call per node at every evaluation; here a whole
expression (with the small functions it calls inlined) becomes one `def f(s, e): return ...`,
so evaluating it is one call. What has no source form here (aggregates, rankings) is compiled
to closures by the Compiler, and the generated source calls them.
"""
from __future__ import annotations

from dsl import ast
from dsl.checker import element_of

from . import stdlib
from .errors import RulesRuntimeError

SOURCE_NODES = (ast.Integer, ast.Text, ast.Boolean, ast.Nothing, ast.Name, ast.Conditional,
                ast.Or, ast.And, ast.Not, ast.Compare, ast.Member, ast.NotMember, ast.Range,
                ast.Binary, ast.Negate, ast.Attribute, ast.Subscript, ast.Call, ast.ListLiteral)



def present(value, span):
    """Arithmetic needs numbers: a 'none' here is a rules bug, reported where it happens."""
    if value is None:
        raise RulesRuntimeError("arithmetic on 'none'", span)
    return value


def divisor(value, span):
    if not value:
        raise RulesRuntimeError("division by zero", span)
    return value


def item_at(items, index):
    return items[index - 1] if index is not None and 1 <= index <= len(items) else None


class SourceGenerator:
    def __init__(self, compiler):
        self.compiler = compiler
        self.namespace = {"present": present, "divisor": divisor, "item_at": item_at, "EMPTY": ()}
        self.count = 0
        self.aliases = {}        # inlined function parameter -> source of the caller's argument

    # ---- the generated functions ----
    def bind(self, value) -> str:
        """A name in the generated code's namespace that stands for a Python value."""
        self.count += 1
        name = f"_k{self.count}"
        self.namespace[name] = value
        return name

    def temp(self) -> str:
        self.count += 1
        return f"_t{self.count}"

    def function(self, node, scope):
        source = self.source(node, scope)
        self.count += 1
        name = f"_f{self.count}"
        exec(f"def {name}(s, e):\n    return {source}\n", self.namespace)
        fn = self.namespace[name]
        constant = self.constant_of(node)
        if constant is not None:
            fn.value = constant[0]
        return fn

    def constant_of(self, node):
        """(value,) when the expression is a constant, else None."""
        if isinstance(node, (ast.Integer, ast.Text, ast.Boolean)):
            return (node.value,)
        if isinstance(node, ast.Nothing):
            return (None,)
        if isinstance(node, ast.Name) and node.id not in self.aliases:
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

    def literal(self, value) -> str:
        if value is None or isinstance(value, (bool, int, str)):
            return repr(value)
        return self.bind(value)

    # ---- sources ----
    def source(self, node, scope) -> str:
        if isinstance(node, SOURCE_NODES):
            return getattr(self, "s_" + type(node).__name__)(node, scope)
        closure = getattr(self.compiler, "x_" + type(node).__name__)(node, scope)
        return f"{self.bind(closure)}(s, e)"

    def collection(self, node, scope) -> str:
        src = self.source(node, scope)
        if self.compiler.type_of(node, scope).startswith("zone["):
            return f"s.zones.get({src}, EMPTY)"
        return src

    def s_Integer(self, node, scope):
        return repr(node.value)

    s_Text = s_Boolean = s_Integer

    def s_Nothing(self, node, scope):
        return "None"

    def s_Name(self, node, scope):
        name = node.id
        c = self.compiler
        if name in self.aliases:
            return self.aliases[name]
        if scope.lookup(name) is not None and name not in c.types.globals.names:
            return f"e[{name!r}]"
        constant = self.constant_of(node)
        if constant is not None:
            return self.literal(constant[0])
        if name == "current":
            return "s.current"
        if name in ("players", "Player"):
            return self.bind(list(range(1, c.game.num_players + 1)))
        if name in c.types.enums:
            return self.bind(list(c.types.enums[name].members))
        if name in c.types.components:
            return f"s.by_type.get({name!r}, EMPTY)"
        if name in c.types.boards:
            return self.bind(c.game.geometries[name].cells)
        if name in c.types.zones:
            return repr(name)
        if name in c.types.vars:
            return f"s.vars.get({name!r}, {self.literal(c.game.var_defaults[name])})"
        return f"e[{name!r}]"

    def s_ListLiteral(self, node, scope):
        return "[" + ", ".join(self.source(i, scope) for i in node.items) + "]"

    def s_Conditional(self, node, scope):
        c, a, b = (self.source(n, scope) for n in (node.condition, node.then, node.otherwise))
        return f"({a} if {c} else {b})"

    def s_Or(self, node, scope):
        return f"bool({self.source(node.left, scope)} or {self.source(node.right, scope)})"

    def s_And(self, node, scope):
        return f"bool({self.source(node.left, scope)} and {self.source(node.right, scope)})"

    def s_Not(self, node, scope):
        return f"(not {self.source(node.operand, scope)})"

    def s_Compare(self, node, scope):
        a, b = self.source(node.left, scope), self.source(node.right, scope)
        op = node.op
        if op in ("==", "!="):
            if b == "None" or a == "None":
                other = a if b == "None" else b
                return f"({other} is {'' if op == '==' else 'not '}None)"
            return f"({a} {op} {b})"
        # an order with 'none' on either side is false
        x, y = self.temp(), self.temp()
        return f"(({x} := {a}) is not None and ({y} := {b}) is not None and {x} {op} {y})"

    def s_Member(self, node, scope):
        return f"({self.source(node.item, scope)} in {self.collection(node.collection, scope)})"

    def s_NotMember(self, node, scope):
        return f"({self.source(node.item, scope)} not in {self.collection(node.collection, scope)})"

    def s_Range(self, node, scope):
        return f"range({self.source(node.low, scope)}, {self.source(node.high, scope)} + 1)"

    def s_Binary(self, node, scope):
        a, b = self.source(node.left, scope), self.source(node.right, scope)
        span = self.bind(node.span)
        if node.op == "+" and self.compiler.type_of(node.left, scope).startswith("list["):
            return f"(list({a}) + list({b}))"
        if node.op in ("//", "%"):
            return f"(present({a}, {span}) {node.op} divisor({b}, {span}))"
        return f"(present({a}, {span}) {node.op} present({b}, {span}))"

    def s_Negate(self, node, scope):
        return f"(-present({self.source(node.operand, scope)}, {self.bind(node.span)}))"

    def s_Attribute(self, node, scope):
        value = self.temp()
        return f"(None if ({value} := {self.source(node.obj, scope)}) is None else s.entities[{value}].get({node.name!r}))"

    def key(self, name, indexes, scope) -> str:
        if not indexes:
            return repr(name)
        return "(" + ", ".join([repr(name)] + [self.source(i, scope) for i in indexes]) + ",)"

    def s_Subscript(self, node, scope):
        c = self.compiler
        if isinstance(node.obj, ast.Name) and scope.lookup(node.obj.id) is None and node.obj.id not in self.aliases:
            name = node.obj.id
            if name in c.types.zones:
                return self.key(name, node.indexes, scope)
            if name in c.types.vars:
                default = self.literal(c.game.var_defaults[name])
                return f"s.vars.get({self.key(name, node.indexes, scope)}, {default})"
        return f"item_at({self.collection(node.obj, scope)}, {self.source(node.indexes[0], scope)})"

    def s_Call(self, node, scope):
        from .compiler import can_inline
        c = self.compiler
        name = node.name
        if name in c.types.boards:
            at = self.bind(c.game.geometries[name].at)
            row, col = (self.source(a, scope) for a in node.arguments)
            return f"{at}.get(({row}, {col}))"
        if name in c.types.functions:
            fn_decl = c.types.functions[name]
            if c.inline_depth < 8 and can_inline(fn_decl, node.arguments):
                return self.inline(fn_decl, node.arguments, scope)
            functions = self.bind(c.functions)
            args = ", ".join(f"{p.name!r}: {self.source(a, scope)}" for p, a in zip(fn_decl.parameters, node.arguments))
            return f"{functions}[{name!r}](s, {{{args}}})"
        args = [self.collection(a, scope) for a in node.arguments]
        if name == "label":     # the text depends on the value's type: compiled here, not in stdlib
            t = c.type_of(node.arguments[0], scope)
            labeler = self.bind(c.game.labeler("list[" + element_of(t) + "]" if t.startswith("zone[") else t))
            return f"{labeler}(s, {args[0]})"
        fn = self.bind(stdlib.FUNCTIONS[name])
        return f"{fn}(s, {', '.join(args)})"

    def inline(self, fn_decl, arguments, scope):
        """The function's body in place, its parameters standing for the caller's argument
        expressions (simple ones: see compiler.can_inline)."""
        c = self.compiler
        sources = {p.name: f"({self.source(a, scope)})" for p, a in zip(fn_decl.parameters, arguments)}
        fn_scope = c.types.globals.child(**{p.name: c.types.type_name(p.type) for p in fn_decl.parameters})
        saved = self.aliases
        self.aliases = sources
        c.inline_depth += 1
        try:
            return self.source(fn_decl.body, fn_scope)
        finally:
            self.aliases = saved
            c.inline_depth -= 1
