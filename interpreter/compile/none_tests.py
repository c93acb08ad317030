"""Conditions with the none tests of some names decided (a listing written once for each case
of a value read once: compiler.none_split), and what that decides folded: the IR twin of
listing_text.folded, which reads the condition's text back."""
from __future__ import annotations

from collections.abc import Mapping
from typing import cast

import attrs

from . import ir
from .expression_facts import ungrouped

# a key of `known`: a name (whether it is none), or ("truthy", name) (its truth as a condition)
Known = Mapping[str | tuple[str, str], bool]


def folded(condition: ir.Expression, known: Known) -> ir.Expression | bool:
    """`condition` with `X is None` / `X is not None` decided for the names in `known`, and what
    that decides folded (`not`, `and`, `or`, `a if c else b`): True or False when the whole
    condition is decided, else the condition."""
    if not known:
        return condition
    result = Folder(known).fold(condition)
    decided = ungrouped(result)
    if isinstance(decided, ir.Constant) and isinstance(decided.value, bool):
        return decided.value
    return result


def decided(node: ir.Expression) -> bool | None:
    """The truth value a node is, when it is one (in parentheses or not), else None."""
    node = ungrouped(node)
    return node.value if isinstance(node, ir.Constant) and isinstance(node.value, bool) else None


class Folder:
    """folded(): the none tests of known names decided, and what they decide folded."""

    def __init__(self, known: Known):
        self.known = {k: v for k, v in known.items() if isinstance(k, str)}
        self.truthy = {k[1]: v for k, v in known.items() if not isinstance(k, str)}

    def truth(self, node: ir.Expression) -> ir.Expression:
        """The node, or its truth when it is a name whose truth is known."""
        name = ungrouped(node)
        if isinstance(name, (ir.Local, ir.Global)) and name.name in self.truthy:
            return ir.Constant(self.truthy[name.name])
        return node

    def fold(self, node: ir.Expression) -> ir.Expression:
        node = cast(ir.Expression, ir.rebuilt(node, lambda child: self.fold(cast(ir.Expression, child))))
        if isinstance(node, ir.Grouped):
            inner = decided(node.value)
            return ir.Constant(inner) if inner is not None else node
        if isinstance(node, ir.Compare) and node.op in ("is", "is not") and ungrouped(node.right) == ir.Constant(None):
            name = ungrouped(node.left)
            if isinstance(name, (ir.Local, ir.Global)) and name.name in self.known:
                return ir.Constant(self.known[name.name] == (node.op == "is"))
        if isinstance(node, ir.Not):
            operand = self.truth(node.operand)
            value = decided(operand)
            return ir.Constant(not value) if value is not None else attrs.evolve(node, operand=operand)
        if isinstance(node, ir.BoolOp):
            return self.bool_op(node)
        if isinstance(node, ir.Conditional):
            test = self.truth(node.test)
            value = decided(test)
            if value is not None:
                return node.then if value else node.orelse
            return attrs.evolve(node, test=test)
        return node

    def bool_op(self, node: ir.BoolOp) -> ir.Expression:
        is_and = node.op == "and"
        kept = []
        for operand in node.operands:
            operand = self.truth(operand)
            value = decided(operand)
            if value is None:
                kept.append(operand)
            elif value != is_and:
                return ir.Constant(value)       # False in an `and`, True in an `or`
        if not kept:
            return ir.Constant(is_and)          # (each one decided, none deciding the whole)
        return kept[0] if len(kept) == 1 else attrs.evolve(node, operands=tuple(kept))
