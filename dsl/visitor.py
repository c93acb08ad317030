"""One convention for walking the syntax tree: a visitor handles the node class `C` with its
method `visit_C`, and `dispatch(node, ...)` calls it. The checker, the expression generator, the
statement compiler and the names index are visitors; tests/test_visitor.py checks that each
handles every class of the kinds it declares (`kinds`), and only classes of dsl/ast.py.
"""
from __future__ import annotations

from . import ast

PREFIX = "visit_"

# What the parser makes where an expression stands (`let ... in` and `after` included).
EXPRESSIONS = (
    ast.Conditional, ast.Or, ast.And, ast.Not, ast.Compare, ast.Member, ast.NotMember, ast.Range, ast.Binary,
    ast.Negate, ast.Attribute, ast.Subscript, ast.Call, ast.Aggregate, ast.Ranking, ast.Integer, ast.Text,
    ast.Boolean, ast.Nothing, ast.Name, ast.ListLiteral, ast.SetLiteral, ast.MapLiteral, ast.LetIn, ast.After,
)

# What the parser makes where a statement stands in a block. (Targets, `elif` clauses, a move's
# `top`/`bottom` and a creation's `init` are parts of a statement, handled with it.)
STATEMENTS = (
    ast.Let, ast.Assign, ast.Augment, ast.If, ast.For, ast.While, ast.Repeat, ast.Move, ast.MoveAll, ast.Deal,
    ast.Shuffle, ast.Reveal, ast.Create, ast.Destroy, ast.Choose, ast.Require, ast.Again, ast.Finish, ast.FinishTeam, ast.FinishLost,
    ast.Log, ast.Play, ast.Turns, ast.Turn, ast.Simultaneous, ast.CallStatement, ast.PlayBy, ast.Respond,
)


class Visitor:
    """A visitor of syntax nodes. `kinds` names the node classes it must handle all of (checked
    by the tests); `dispatch` finds a handler by its class's name once per visitor class."""
    kinds: tuple = ()
    handlers: dict = {}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.handlers = {}       # node class -> function (or None), this visitor class's own

    @classmethod
    def handler(cls, node_class):
        """The function that handles a node class, or None."""
        try:
            return cls.handlers[node_class]
        except KeyError:
            found = cls.handlers[node_class] = getattr(cls, PREFIX + node_class.__name__, None)
            return found

    def dispatch(self, node, *arguments):
        handler = self.handlers.get(node.__class__) or self.handler(node.__class__)
        if handler is None:
            raise TypeError(f"{type(self).__name__} has no {PREFIX}{type(node).__name__}")
        return handler(self, node, *arguments)


def handled(visitor_class) -> set:
    """The node classes of dsl/ast.py that a visitor class has a handler for."""
    return {cls for name, cls in vars(ast).items()
            if isinstance(cls, type) and cls.__module__ == ast.__name__ and hasattr(visitor_class, PREFIX + name)}


def handler_names(visitor_class) -> set:
    """The names after `visit_` of a visitor class's handlers (a name that is no node class is a
    handler left behind by a rename)."""
    return {name[len(PREFIX):] for name in dir(visitor_class) if name.startswith(PREFIX)}
