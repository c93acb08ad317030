"""An aggregate over a function that returns a filter, walked without the list (a mixin of
rules_source.KernelSource): `any(x in owned(p) where ...)`, with `fn owned(p: Player): list of
Cell = filter(c in Cell where holder[c] == p)`, loops over the cells once, testing the
function's condition then its own, instead of building the filtered list at each call (an
array allocated, reference counted and freed: in a game that calls such functions in its
legality, a quarter of the kernel's time). The items and their order are the list's. Only where
the function's condition cannot fail (comparisons of variables indexed by the item, the item's
attributes, the function's parameters and constants): an `any` that stops early then skips no
error the Python path, which builds the whole list, would raise.
"""
from __future__ import annotations

from referee.dsl import ast
from referee.dsl.types import BOOL

SAFE_COMPARISONS = ("==", "!=")


class FusedSource:
    """For KernelSource (its `functions`, `groups`, `vars`, `game`, `boards`, `type_of`...)."""

    def fused_filter(self, domain):
        """(the function, its filter) where `domain` calls a function whose body is a filter
        of a board's cells or an enum's members that cannot fail; else None."""
        call = ast.untag(domain)[0]
        if not isinstance(call, ast.Call) or call.name not in self.functions or self.groups.get(call.name) is not None:
            return None
        fn = self.functions[call.name]
        body = ast.untag(fn.body)[0]
        if not isinstance(body, ast.Aggregate) or body.kind != "filter" or body.value is not None \
                or body.binder.condition is None or len(call.arguments) != len(fn.parameters):
            return None
        inner = ast.untag(body.binder.domain)[0]
        if not (isinstance(inner, ast.Name) and (inner.id in self.boards.geometries or inner.id in self.game.enum_members)):
            return None
        names = {p.name for p in fn.parameters}
        if body.binder.name in names or not self.cannot_fail(body.binder.condition, body.binder.name, inner.id, names):
            return None
        return fn, body

    def cannot_fail(self, node, item: str, domain: str, parameters: set) -> bool:
        """Whether a condition over `item` (of the type `domain`) never raises an error."""
        node = ast.untag(node)[0]
        if isinstance(node, (ast.And, ast.Or)):
            return self.cannot_fail(node.left, item, domain, parameters) and self.cannot_fail(node.right, item, domain, parameters)
        if isinstance(node, ast.Not):
            return self.cannot_fail(node.operand, item, domain, parameters)
        if isinstance(node, ast.Compare):
            return node.op in SAFE_COMPARISONS and all(self.plain_value(side, item, domain, parameters)
                                                       for side in (node.left, node.right))
        return False

    def plain_value(self, node, item: str, domain: str, parameters: set) -> bool:
        """A value read without any failure: a constant, a parameter, the item, one of its
        attributes, a variable indexed by the item alone."""
        node = ast.untag(node)[0]
        if isinstance(node, (ast.Integer, ast.Boolean, ast.Nothing)):
            return True
        if isinstance(node, ast.Name):
            return node.id == item or node.id in parameters or any(node.id in members for members in self.game.enum_members.values())
        if isinstance(node, ast.Attribute):
            obj = ast.untag(node.obj)[0]
            return isinstance(obj, ast.Name) and obj.id == item and domain in self.boards.geometries
        if isinstance(node, ast.Subscript) and len(node.indexes) == 1:
            obj, index = ast.untag(node.obj)[0], ast.untag(node.indexes[0])[0]
            if not (isinstance(obj, ast.Name) and obj.id in self.vars and isinstance(index, ast.Name) and index.id == item):
                return False
            index_types = self.game.var_meta[obj.id][2]
            return len(index_types) == 1 and getattr(index_types[0].without_none(), "name", None) == domain \
                and index_types[0] == index_types[0].without_none()
        return False

    def fused_loop(self, fused, var: str, scope) -> tuple:
        """(the loop over the filter's domain, its size at most, the function's parameters ->
        their names in the aggregate's function, the line that tests the filter's condition);
        the function sees its parameters only (a scope of the caller's kind)."""
        fn, body = fused
        given = {p.name: self.fresh("p") for p in fn.parameters}
        loop, capacity = self.domain_loop(body.binder, type(scope)(given), var)
        own = type(scope)(given).child(**{body.binder.name: var})
        return loop, capacity, given, [f"if not ({self.expr(body.binder.condition, own, BOOL)}): continue"]

    def fused_arguments(self, fused, domain, scope) -> list:
        """The function's arguments, computed at the call as the call computed them."""
        fn, _ = fused
        return [self.expr(a, scope, self.argument_type(fn.name, k, a)) for k, a in enumerate(ast.untag(domain)[0].arguments)]

