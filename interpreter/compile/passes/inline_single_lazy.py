"""A call kept for its first use (ir.Cached, with its local set to UNSET before) that is asked
for once only, on a line of the block that sets it (not in a deeper loop, nor in a
comprehension): the plain call there, and the local goes."""
from __future__ import annotations

from collections import Counter
from typing import cast

import attrs

from .. import ir

UNSET = ir.Global("UNSET")


def inline_single_lazy(function: ir.Function) -> ir.Function:
    declared: Counter[str] = Counter()
    used: Counter[str] = Counter()
    for node in ir.walk(function):
        if isinstance(node, ir.Cached):
            used[node.name] += 1
        elif isinstance(node, ir.Assign) and node.value == UNSET:
            declared[node.target] += 1
    single = frozenset(name for name, count in used.items() if count == 1 and declared[name] == 1)
    if not single:
        return function
    return ir.each_block(function, lambda block: inlined(block, single))    # type: ignore[return-value]


def inlined(block: tuple[ir.Statement, ...], single: frozenset[str]) -> tuple[ir.Statement, ...]:
    out = list(block)
    for name in single:
        declaration = next((k for k, s in enumerate(out) if isinstance(s, ir.Assign) and s.target == name
                            and s.value == UNSET), None)
        if declaration is None:
            continue
        use = next((k for k, s in enumerate(out) if name in cached_on_its_line(s)), None)
        if use is None:
            continue
        out[use] = cast(ir.Statement, without_cached(out[use], name))
        del out[declaration]
    return tuple(out)


def own_expressions(statement: ir.Statement) -> list[ir.Node]:
    """What a statement writes on its own line: its expressions, not its blocks' statements
    (a short if's body is on its line too); none for a loop over a sequence."""
    if isinstance(statement, (ir.ForEach, ir.ForRange)):
        return []
    if isinstance(statement, ir.ShortIf):
        return [statement]
    return [value for field in attrs.fields(type(statement)) if field.name not in ir.BLOCK_FIELDS
            for value in [getattr(statement, field.name)] if isinstance(value, ir.Expression)]


def cached_on_its_line(statement: ir.Statement) -> set[str]:
    found = set()
    for expression in own_expressions(statement):
        for node in ir.walk(expression):
            if isinstance(node, (ir.Comprehension, ir.Ranked)):
                return set()
            if isinstance(node, ir.Cached):
                found.add(node.name)
    return found


def without_cached(node: ir.Node, name: str) -> ir.Node:
    if isinstance(node, ir.Cached) and node.name == name:
        return node.value
    return ir.rebuilt(node, lambda child: without_cached(child, name))
