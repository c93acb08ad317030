"""`T = top of zone X` followed by `if T is None: A else: B`, where neither A nor what follows
the if in the block reads T: `if not X: A else: T = X[-1]; B`, the zone's emptiness tested
once and its top read only where there is one (a zone's items are never none)."""
from __future__ import annotations

from .. import ir

NONE = ir.Constant(None)


def split_on_empty_zone(function: ir.Function) -> ir.Function:
    if not any(isinstance(node, ir.TopOfZone) for node in ir.walk(function)):
        return function
    return ir.each_block(function, split)      # type: ignore[return-value]


def split(block: tuple[ir.Statement, ...]) -> tuple[ir.Statement, ...]:
    out = list(block)
    k = 0
    while k < len(out) - 1:
        top, test = out[k], out[k + 1]
        if not (isinstance(top, ir.Assign) and isinstance(top.value, ir.TopOfZone)
                and isinstance(test, ir.If) and test.orelse
                and test.test == ir.Compare("is", ir.Local(top.target), NONE)
                and not any(top.target in ir.locals_in(s) for s in (*test.body, *out[k + 2:]))):
            k += 1
            continue
        zone = top.value.zone
        first = ir.Assign(top.target, ir.Item(zone, ir.Constant(-1)), top.span)
        out[k:k + 2] = [ir.If(ir.Not(zone), test.body, (first, *test.orelse), test.span)]
        k += 1
    return tuple(out)
