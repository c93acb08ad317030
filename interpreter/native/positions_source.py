"""Zones read by position and texts in a native kernel (a mixin of rules_source.KernelSource):
`zone[k]`, the k-th card of a zone from the bottom (1-based, none outside: values.item_at);
`reversed(zone)` and `reversed(list)` as a loop's domain (a copy, top first: the body may move
its items).
"""
from __future__ import annotations

from referee.dsl import ast
from referee.dsl.types import INT, ListOf


def untag(node):
    return ast.untag(node)[0]


class PositionsSource:
    """`zone[k]` for KernelSource (its `expr`, `is_zone`, `zone_items`...)."""

    def zone_item(self, node, scope):
        """`zone[k]`: the k-th item from the bottom, -1 (none) outside; None if not a zone read."""
        obj = untag(node.obj)
        if len(node.indexes) != 1 or not self.is_zone(obj, scope) or isinstance(obj, ast.Name) and \
                self.zone_families[obj.id].axes:
            return None
        index = self.expr(node.indexes[0], scope, INT)
        return f"item_at({self.zone_items(obj, scope)}, {index}, -1)"

    def reversed_items(self, inner, scope, var: str):
        """`reversed(a zone or a list)` as a domain: a copy, last first; None for other values."""
        if isinstance(inner, ast.Range) or not self.is_zone(inner, scope) and not isinstance(self.type_of(inner).without_none(), ListOf):
            return None
        items = self.sequence(inner, scope, copy=True)
        return [f"items_{var} = {items}[::-1]", f"for {var} in items_{var}:"], f"len(items_{var})"
