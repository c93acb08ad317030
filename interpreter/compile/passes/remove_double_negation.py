"""Double negation removed: `not not x` is `x` where only its truth counts (a test, an operand
of `not`, an `and`/`or` in a test, what any() and all() go through), `x` itself where x is a
bool already (a comparison, a `not`), and `True if x else False` where its value must be a
bool (a returned value, a stored one); an `and`/`or` of bools with such operands becomes one
`True if (a and b) else False`."""
from __future__ import annotations

import operator
from typing import cast

import attrs

from .. import ir
from ..expression_facts import facts_of

# the fields of a node whose value counts only by its truth
TESTED_FIELDS: dict[type, tuple[str, ...]] = {
    ir.If: ("test",), ir.While: ("test",), ir.Guard: ("test",), ir.ShortIf: ("test",),
    ir.Conditional: ("test",), ir.Comprehension: ("condition",), ir.Ranked: ("condition",), ir.Not: ("operand",)}
# expressions written as one term, whatever their length (any line break inside their own brackets):
# brackets around them say nothing
TERMS = (ir.Constant, ir.Local, ir.Global, ir.Call, ir.StateCall, ir.Item, ir.Field, ir.Method, ir.ReadZone,
         ir.ReadVar, ir.ReadAttribute, ir.ReadColumn, ir.FirstUse, ir.Cached, ir.Named)
# the builtins that read the items of their one argument by their truth alone
TRUTH_READERS = ("any", "all")

# what one function's rewriting made of each node, by (identity, tested): an inlined function's IR
# is shared by its calls, rewritten once (each entry keeps its node alive: an identity stays its own)
DONE: dict[tuple[int, bool], tuple[ir.Node, ir.Node]] = {}


def remove_double_negation(function: ir.Function) -> ir.Function:
    try:
        body = tuple(cast(ir.Statement, rewritten(s, tested=False)) for s in function.body)
        # (unchanged, the function itself: what was found in it still holds, see ir.Node.facts)
        return function if all(map(operator.is_, body, function.body)) else ir.with_fields(function, body=body)
    finally:
        DONE.clear()


def rewritten(node: ir.Node, tested: bool) -> ir.Node:
    """The node without its double negations; `tested`: only its truth counts."""
    if not facts_of(node).negations:
        return node     # nothing inside that this pass changes (see expression_facts.Facts)
    known = DONE.get((id(node), tested))
    if known is not None and known[0] is node:
        return known[1]
    result = truth(node) if tested and isinstance(node, ir.Expression) else inside(node)
    DONE[(id(node), tested)] = (node, result)
    return result


def inside(node: ir.Node) -> ir.Node:
    """The node with what is inside it rewritten, each field as its place needs; a double
    negation whose value counts made a bool without it."""
    if isinstance(node, ir.HostTest):     # (what drop_implied_tests reads stays as made)
        return node
    operand = negated_twice(node)
    if operand is not None:
        if not boolean(operand):
            return as_bool(operand)
        operand = cast(ir.Expression, rewritten(operand, tested=False))
        return ir.Grouped(operand) if isinstance(node, ir.Grouped) else operand
    chain = node.value if isinstance(node, ir.Grouped) and not node.over_lines else node
    if isinstance(chain, ir.BoolOp) and boolean(chain) and any(negated_twice(o) is not None for o in chain.operands):
        return as_bool(chain)       # (a and b) of bools: its truth, made a bool once
    if is_truth_reader(node):       # any(x for ...): each x tested
        node = cast(ir.Call, node)
        items = cast(ir.Expression, fields_rewritten(node.args[0], ("element", "condition")))
        return attrs.evolve(node, args=(items,))
    return fields_rewritten(node, TESTED_FIELDS.get(type(node), ()))


def fields_rewritten(node: ir.Node, tested_fields: tuple[str, ...]) -> ir.Node:
    """The node with each node inside it rewritten, tested when its field is in `tested_fields`."""
    updates: dict[str, object] = {}
    for name in ir.field_names(type(node)):
        value = getattr(node, name)
        tested = name in tested_fields
        if isinstance(value, ir.Node):
            new = rewritten(value, tested)
            if new is not value:
                updates[name] = new
        elif value.__class__ is tuple and any(isinstance(item, ir.Node) for item in value):
            items = tuple(rewritten(item, tested) if isinstance(item, ir.Node) else item for item in value)
            if any(a is not b for a, b in zip(items, value)):
                updates[name] = items
    return ir.evolved(node, updates) if updates else node


def tested(node: ir.Expression) -> ir.Expression:
    return cast(ir.Expression, rewritten(node, tested=True))


def truth(node: ir.Expression) -> ir.Expression:
    """An expression of which only the truth counts, rewritten."""
    operand = negated_twice(node)
    if operand is not None:
        operand = tested(operand)
        # (in brackets still when it was: it may go over lines)
        return bracketed(operand) if isinstance(node, ir.Grouped) else operand
    if isinstance(node, ir.Grouped) and not node.over_lines:
        inner = tested(node.value)
        return node if inner is node.value else bracketed(inner)
    if isinstance(node, ir.BoolOp):
        return cast(ir.Expression, fields_rewritten(node, ("operands",)))
    if isinstance(node, ir.Conditional):        # the truth of the branch taken
        return cast(ir.Expression, fields_rewritten(node, ("test", "then", "orelse")))
    return cast(ir.Expression, inside(node))


def negated_twice(node: ir.Node) -> ir.Expression | None:
    """x when the node is `not not x` (in parentheses or not), else None."""
    if isinstance(node, ir.Grouped) and not node.over_lines:
        node = node.value
    if not isinstance(node, ir.Not):
        return None
    inner = node.operand
    if isinstance(inner, ir.Grouped) and not inner.over_lines:
        inner = inner.value
    return inner.operand if isinstance(inner, ir.Not) else None


def boolean(node: ir.Expression) -> bool:
    """Whether the expression's value is surely True or False."""
    if isinstance(node, ir.Grouped):
        return boolean(node.value)
    if isinstance(node, ir.Constant):
        return type(node.value) is bool
    if isinstance(node, ir.BoolOp):
        return all(boolean(o) for o in node.operands)
    if isinstance(node, ir.Conditional):
        return boolean(node.then) and boolean(node.orelse)
    return isinstance(node, (ir.Not, ir.Compare, ir.Between, ir.HasEnv)) or is_truth_reader(node)


def is_truth_reader(node: ir.Node) -> bool:
    return isinstance(node, ir.Call) and node.function in TRUTH_READERS and len(node.args) == 1 \
        and isinstance(node.args[0], ir.Comprehension) and node.args[0].generator


def as_bool(value: ir.Expression) -> ir.Expression:
    """`(True if value else False)`: the value's truth as a bool (an `and`/`or` in brackets)."""
    test = bracketed(tested(value))
    return ir.Grouped(ir.Conditional(test, ir.Constant(True), ir.Constant(False)))


def bracketed(node: ir.Expression) -> ir.Expression:
    """The expression in brackets, unless it is a term or in brackets already."""
    return node if isinstance(node, TERMS + (ir.Grouped,)) else ir.Grouped(node)
