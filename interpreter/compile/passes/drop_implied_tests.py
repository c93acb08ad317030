"""`if not X == a:` whose whole body is `if X == b ...:` (b another constant, and no else):
the inner test implies the outer one, which goes. Their maker (none_tests.folded_test) says
which tests are such comparisons (ir.HostTest)."""
from __future__ import annotations

from .. import ir


def drop_implied_tests(function: ir.Function) -> ir.Function:
    if not any(isinstance(node, ir.HostTest) for node in ir.walk(function)):
        return function
    return ir.each_block(function, lambda block: tuple(dropped(s) for s in block))    # type: ignore[return-value]


def dropped(statement: ir.Statement) -> ir.Statement:
    if not (isinstance(statement, ir.If) and not statement.orelse and len(statement.body) == 1):
        return statement
    outer, inner = statement.test, statement.body[0]
    if isinstance(inner, ir.If) and not inner.orelse and isinstance(outer, ir.HostTest) and outer.negated \
            and outer.whole and isinstance(inner.test, ir.HostTest) and not inner.test.negated \
            and inner.test.subject == outer.subject and inner.test.constant != outer.constant:
        return inner
    return statement
