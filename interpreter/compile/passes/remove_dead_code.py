"""Dead-code removal: statements after one that leaves the block (return, break, continue, or
an if whose branches all leave), a continue that ends a loop's body, ifs with nothing in them
and a test without effect, pure expressions run for nothing, and assignments of pure values to
locals nobody reads."""
from __future__ import annotations

from .. import ir
from ..expression_facts import facts_of

# expressions that compute a value without effect and without raising
PURE = (ir.Constant, ir.Local, ir.Global, ir.TheState, ir.ReadState, ir.HasEnv, ir.Not, ir.BoolOp, ir.Tuple)


def remove_dead_code(function: ir.Function) -> ir.Function:
    body = block(function.body)
    while True:         # a local that goes may leave another unread
        read = locals_read(body)
        lighter = block(without_unread(body, read))
        if lighter is body or lighter == body:
            return ir.with_fields(function, body=body)
        body = lighter


def pure(node: ir.Expression) -> bool:
    return isinstance(node, PURE) and all(pure(child) for child in ir.children(node))   # type: ignore[arg-type]


def leaves(statements: tuple[ir.Statement, ...] | list[ir.Statement]) -> bool:
    """Whether running the statements surely leaves the block (the rest of it never runs)."""
    if not statements:
        return False
    last = statements[-1]
    if isinstance(last, ir.ENDS_BLOCK):
        return True
    if isinstance(last, ir.Rule):
        return leaves(last.body)
    return isinstance(last, ir.If) and bool(last.orelse) and leaves(last.body) and leaves(last.orelse)


def block(statements: tuple[ir.Statement, ...]) -> tuple[ir.Statement, ...]:
    out: list[ir.Statement] = []
    same = True
    for node in statements:
        kept = statement(node)
        out.extend(kept)
        same = same and len(kept) == 1 and kept[0] is node
        if leaves(out):
            break
    return statements if same and len(out) == len(statements) else tuple(out)


def loop_body(statements: tuple[ir.Statement, ...]) -> tuple[ir.Statement, ...]:
    """A loop's body without the continue it ends with (the loop goes round anyway)."""
    body = block(statements)
    return body[:-1] if body and isinstance(body[-1], ir.Continue) else body


def statement(node: ir.Statement) -> tuple[ir.Statement, ...]:
    if isinstance(node, ir.If):
        body, orelse = block(node.body), block(node.orelse)
        if not body and not orelse:
            return () if pure(node.test) else (ir.ExpressionStatement(node.test, node.span),)
        if not body:        # `if t: pass else: B` is `if not t: B`
            return (ir.If(ir.Not(node.test, node.span), orelse, (), node.span),)
        return (ir.with_fields(node, body=body, orelse=orelse),)
    if isinstance(node, (ir.While, ir.ForRange, ir.ForEach)):
        return (ir.with_fields(node, body=loop_body(node.body)),)
    if isinstance(node, ir.Try):
        body = block(node.body)
        return (ir.with_fields(node, body=body, handler=block(node.handler)),) if body else ()
    if isinstance(node, ir.ExpressionStatement) and pure(node.value):
        return ()
    if isinstance(node, ir.Rule):       # (one that became nothing goes with its comment)
        body = block(node.body)
        return (ir.with_fields(node, body=body),) if body else ()
    if isinstance(node, ir.Guard):      # (its action stays whole: it is written on the test's line)
        return (ir.with_fields(node, orelse=block(node.orelse)),)
    if isinstance(node, ir.Rounds):
        return (ir.with_fields(node, body=loop_body(node.body), exhausted=block(node.exhausted)),)
    return (node,)


def locals_read(statements: tuple[ir.Statement, ...]) -> frozenset[str]:
    """Every local some expression may read; `e` where the flow's environment is
    used (its operations go through the local e)."""
    facts = [facts_of(top) for top in statements]
    read = frozenset().union(*(f.names for f in facts))
    return read | {"e"} if any(f.env for f in facts) else read


def without_unread(statements: tuple[ir.Statement, ...], read: frozenset[str]) -> tuple[ir.Statement, ...]:
    def change(node: ir.Statement) -> ir.Statement | tuple[ir.Statement, ...]:
        if isinstance(node, ir.Assign) and node.target not in read and pure(node.value):
            return ()
        if isinstance(node, ir.Unpack) and not read & set(node.targets) and pure(node.value):
            return ()
        if isinstance(node, ir.If):
            return ir.with_fields(node, body=without_unread(node.body, read), orelse=without_unread(node.orelse, read))
        if isinstance(node, (ir.While, ir.ForRange, ir.ForEach)):
            return ir.with_fields(node, body=without_unread(node.body, read))
        if isinstance(node, ir.Try):
            return ir.with_fields(node, body=without_unread(node.body, read), handler=without_unread(node.handler, read))
        if isinstance(node, ir.Rule):
            return ir.with_fields(node, body=without_unread(node.body, read))
        if isinstance(node, ir.Guard):
            return ir.with_fields(node, orelse=without_unread(node.orelse, read))
        if isinstance(node, ir.Rounds):
            return ir.with_fields(node, body=without_unread(node.body, read),
                                  exhausted=without_unread(node.exhausted, read))
        return node
    return ir.block_of(statements, change)
