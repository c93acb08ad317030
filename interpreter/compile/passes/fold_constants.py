"""Constant folding: operators over constants computed, `not not x` tested as `x`, tests that
are constant decided (`if False:` and `if True:` leave their one branch in place), inside the
rules' statements (Rule, Guard, Unless, Rounds) too."""
from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, TypeVar, cast

import attrs

from .. import ir
from ..expression_facts import facts_of

COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
    "is": operator.is_, "is not": operator.is_not}
ARITHMETIC: dict[str, Callable[[int, int], int]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv, "%": operator.mod}


N = TypeVar("N", bound=ir.Node)
R = TypeVar("R", bound=ir.Node)

# what value() and test() made of each node during one function's folding, by the node's identity
# (an inlined function's IR is shared by its calls: a tree of 2^k paths over k nodes is folded once
# per node, not once per path); each entry keeps its node alive, so that an identity stays its own
FOLDED: dict[int, tuple[ir.Node, ir.Node]] = {}
TESTED: dict[int, tuple[ir.Node, ir.Expression]] = {}


def fold_constants(function: ir.Function) -> ir.Function:
    try:
        return ir.with_fields(function, body=block(function.body))
    finally:
        FOLDED.clear()
        TESTED.clear()


def is_number(node: ir.Expression) -> bool:
    return isinstance(node, ir.Constant) and type(node.value) is int


def once(made: dict, node: N, fold: Callable[[N], R], also_folded: bool = False) -> N | R:
    """fold(node), once per node (by its identity) during one function's folding; the node
    itself where nothing in it folds. `also_folded`: what it gives folds to itself."""
    if not facts_of(node).folds:
        return node
    known = made.get(id(node))
    if known is not None and known[0] is node:
        return known[1]
    result = fold(node)
    made[id(node)] = (node, result)
    if also_folded:
        made[id(result)] = (result, result)
    return result


def value(node: ir.Node) -> ir.Node:
    """An expression (in a place that uses its value) folded."""
    return once(FOLDED, node, folded_value, also_folded=True)


def folded_value(node: ir.Node) -> ir.Node:
    folded = ir.rebuilt(node, value)
    if isinstance(node, ir.Grouped) and isinstance(folded, ir.Grouped) and not node.over_lines \
            and type(folded.value) is not type(node.value) and isinstance(folded.value, (ir.Constant, ir.Grouped)):
        return folded.value     # what folding left in parentheses was a constant or was in its own: (3), (x)
    node = folded
    if isinstance(node, ir.Not) and isinstance(node.operand, ir.Constant):
        return ir.Constant(not node.operand.value, node.span)
    if isinstance(node, ir.Arithmetic) and is_number(node.left) and is_number(node.right):
        right = node.right.value    # type: ignore[attr-defined]
        if node.op in ("//", "%") and right == 0:
            return node             # the error stays where it is raised
        return ir.Constant(ARITHMETIC[node.op](node.left.value, right), node.span)   # type: ignore[attr-defined]
    if isinstance(node, ir.Compare) and node.op in COMPARE and isinstance(node.left, ir.Constant) \
            and isinstance(node.right, ir.Constant) and comparable(node.left.value, node.right.value, node.op):
        return ir.Constant(COMPARE[node.op](node.left.value, node.right.value), node.span)
    if isinstance(node, ir.BoolOp):
        return bool_op(node, tested=False)
    if isinstance(node, ir.Conditional) and isinstance(node.test, ir.Constant):
        return node.then if node.test.value else node.orelse
    if isinstance(node, ir.Conditional):
        return ir.with_fields(node, test=test(node.test))
    return node


def comparable(left: ir.Value, right: ir.Value, op: str) -> bool:
    """Whether comparing two constants here gives what comparing them when the game runs does."""
    if op in ("is", "is not"):
        return left is None or right is None
    return op in ("==", "!=") or (type(left) is type(right) and (left is not None))


def test(node: ir.Expression) -> ir.Expression:
    """An expression whose truth alone counts (a test) folded: `not not x` is `x` there, and an
    `and` drops its true constants, an `or` its false ones."""
    return once(TESTED, node, folded_test)


def folded_test(node: ir.Expression) -> ir.Expression:
    node = cast(ir.Expression, value(node))
    if isinstance(node, ir.Grouped) and not node.over_lines:     # (the parentheses stay: it may go over lines)
        inner = test(node.value)
        return inner if isinstance(inner, ir.Constant) else ir.with_fields(node, value=inner)
    if isinstance(node, ir.Not):
        operand = test(node.operand)
        if isinstance(operand, ir.Not):
            return operand.operand
        if isinstance(operand, ir.Grouped) and isinstance(operand.value, ir.Not):     # not (not x): (x)
            return attrs.evolve(operand, value=operand.value.operand)
        return node if operand is node.operand else cast(ir.Expression, value(ir.Not(operand, node.span)))
    if isinstance(node, ir.BoolOp):
        return bool_op(node, tested=True)
    return node


def bool_op(node: ir.BoolOp, tested: bool) -> ir.Expression:
    """`and`/`or` with its constant operands taken into account: one that decides ends it, one
    that does not goes (in a test, anywhere; for a value, before the last operand only)."""
    deciding = node.op == "or"          # a true constant decides an `or`, a false one an `and`
    operands = [test(o) if tested else o for o in node.operands]
    kept: list[ir.Expression] = []
    for k, operand in enumerate(operands):
        last = k == len(operands) - 1
        if isinstance(operand, ir.Constant) and bool(operand.value) == deciding:
            kept.append(operand)
            break
        if isinstance(operand, ir.Constant) and (tested or not last) and (kept or not last):
            continue
        kept.append(operand)
    if not kept:
        return ir.Constant(not deciding, node.span)
    if len(kept) == 1:
        return kept[0]
    return node if len(kept) == len(node.operands) and all(map(operator.is_, kept, node.operands)) \
        else attrs.evolve(node, operands=tuple(kept))


def statement(node: ir.Statement) -> ir.Statement | tuple[ir.Statement, ...]:
    if isinstance(node, ir.If):
        condition = test(node.test)
        if isinstance(condition, ir.Constant):
            return block(node.body if condition.value else node.orelse)
        return ir.with_fields(node, test=condition, body=block(node.body), orelse=block(node.orelse))
    if isinstance(node, ir.While):
        condition = test(node.test)
        if isinstance(condition, ir.Constant) and not condition.value:
            return ()
        return ir.with_fields(node, test=condition, body=block(node.body))
    if isinstance(node, ir.ForRange):
        return ir.with_fields(node, start=value_of(node.start), stop=value_of(node.stop), body=block(node.body))
    if isinstance(node, ir.ForEach):
        return ir.with_fields(node, sequence=value_of(node.sequence), body=block(node.body))
    if isinstance(node, ir.Try):
        return ir.with_fields(node, body=block(node.body), handler=block(node.handler))
    if isinstance(node, ir.Rule):
        return ir.with_fields(node, body=block(node.body))
    if isinstance(node, ir.Guard):
        condition = test(node.test)
        if isinstance(condition, ir.Constant):
            return block(node.then if condition.value else node.orelse)
        return ir.with_fields(node, test=condition, then=block(node.then), orelse=block(node.orelse))
    if isinstance(node, ir.Unless):     # a refusal that surely happens, or never does
        condition = test(node.test)
        if isinstance(condition, ir.Constant):
            return () if condition.value else block(node.then)
        return ir.with_fields(node, test=condition, then=block(node.then))
    if isinstance(node, ir.Rounds):
        return ir.with_fields(node, count=value_of(node.count), body=block(node.body), exhausted=block(node.exhausted))
    return ir.rebuilt(node, value)      # type: ignore[return-value]


def value_of(node: ir.Expression) -> ir.Expression:
    return cast(ir.Expression, value(node))


def block(statements: tuple[ir.Statement, ...]) -> tuple[ir.Statement, ...]:
    return ir.block_of(statements, statement)
