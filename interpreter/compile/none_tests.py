"""Conditions with the none tests of some names decided (a listing written once for each case
of a value read once: compiler.none_split), and what that decides folded."""
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


def plain(node: ir.Expression) -> ir.Expression:
    """An expression written as Python would print it: on one line, in no parentheses but those
    the renderer needs (how a listing has always written a condition whose tests it decided)."""
    if isinstance(node, ir.Grouped) and not node.over_lines:
        return plain(node.value)
    node = cast(ir.Expression, ir.rebuilt(node, lambda child: plain(cast(ir.Expression, child))))
    if getattr(node, "spread", False) and not isinstance(node, ir.Comprehension):
        return attrs.evolve(node, spread=False)  # type: ignore[call-arg]
    if isinstance(node, ir.Conditional) and node.layout:
        return attrs.evolve(node, layout="")
    return node


def folded_plain(condition: ir.Expression, known: Known | None) -> ir.Expression | bool:
    """folded(), the condition written plain where the known values decided something in it."""
    if not known or not mentions_known(condition, known):
        return condition
    result = folded(condition, known)
    return result if isinstance(result, bool) else plain(result)


def mentions_known(condition: ir.Expression, known: Known) -> bool:
    """Whether a condition names a value whose none-ness (or truth) `known` gives."""
    names = {name if isinstance(name, str) else name[1] for name in known}
    return any(isinstance(n, (ir.Local, ir.Global)) and n.name in names for n in ir.walk(condition))


def folded_test(condition: ir.Expression, known: Known | None) -> ir.Expression | bool:
    """folded() for a listing's nested ifs: True, False, or the test, an ir.HostTest where it
    is (or begins with) a comparison of a name or an item of one with a constant (for
    drop_implied_tests)."""
    result = folded_plain(condition, known)
    if isinstance(result, bool) or result is condition:
        return result
    top = result
    negated = isinstance(top, ir.Not)
    whole = not (isinstance(top, ir.BoolOp) and top.op == "and")
    compared = ungrouped(top.operand) if isinstance(top, ir.Not) else top if whole else \
        ungrouped(top.operands[0])     # type: ignore[attr-defined]
    equality = equals_constant(compared)
    if equality is None or (negated and not whole):
        return result
    return ir.HostTest(result, equality[0], equality[1], negated, whole)


def equals_constant(node: ir.Expression) -> tuple[ir.SubjectKey, int | str] | None:
    """(subject's key, constant) of `subject == constant`, the subject a name or an item of
    one, the constant a whole number or a word; else None."""
    if not (isinstance(node, ir.Compare) and node.op == "=="):
        return None
    subject, constant = ungrouped(node.left), ungrouped(node.right)
    if not (isinstance(constant, ir.Constant) and type(constant.value) in (int, str)
            and (type(constant.value) is int or all(c.isalnum() or c == "_" for c in str(constant.value)))):
        return None
    key = subject_key(subject)
    return None if key is None else (key, constant.value)     # type: ignore[return-value]


def subject_key(node: ir.Expression) -> ir.SubjectKey | None:
    """The key of a name or of an item of one by a name or a whole number (`_A0[x]`,
    `t[x][0]`: a column's entry is an item of the column), else None."""
    indexes: list[str | int] = []
    while True:
        index = node.entity if isinstance(node, ir.ReadColumn) else node.index if isinstance(node, ir.Item) else None
        if isinstance(index, (ir.Local, ir.Global)):
            indexes.append(index.name)
        elif isinstance(index, ir.Constant) and type(index.value) is int:
            indexes.append(index.value)
        else:
            break
        node = ir.Global(node.column) if isinstance(node, ir.ReadColumn) else node.sequence   # type: ignore[attr-defined]
    if not isinstance(node, (ir.Local, ir.Global)):
        return None
    return (node.name, *reversed(indexes))


def none_tests(temp: str, conditions: list[ir.Expression]) -> int:
    """How many times the conditions test whether the local `temp` is none."""
    return sum(1 for condition in conditions for n in ir.walk(condition)
               if isinstance(n, ir.Compare) and n.op in ("is", "is not") and ungrouped(n.left) == ir.Local(temp)
               and ungrouped(n.right) == ir.Constant(None))


def either_or(condition: ir.Expression, this_level: set[str]) -> tuple[ir.Expression, ir.Expression] | None:
    """(A, B) of a condition `A or B` whose A reads none of the names `this_level` and keeps no
    value (:=), else None."""
    top = ungrouped(condition)
    if not (isinstance(top, ir.BoolOp) and top.op == "or"):
        return None
    invariant = top.operands[0]
    names = {n.name for n in ir.walk(invariant) if isinstance(n, (ir.Local, ir.Global))}
    if names & this_level or any(isinstance(n, (ir.Named, ir.FirstUse)) for n in ir.walk(invariant)):
        return None
    rest = top.operands[1] if len(top.operands) == 2 else attrs.evolve(top, operands=top.operands[1:])
    return plain(invariant), plain(rest)


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
