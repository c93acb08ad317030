"""IR statements added one after another at a nesting depth, as the listing compiler writes
them (its loops go over depths): a block opener's body is what follows it one deeper, until the
depth comes back. `statements()` gives the IR (ir.py); no text is written here."""
from __future__ import annotations

import attrs
from referee.dsl.ast import Span

from . import ir

# a block opener's field that gets what follows it one deeper
BODY = "body"


@attrs.define
class Entry:
    depth: int
    node: ir.Statement | None      # None: the `else` of the If just before at this depth
    opens: bool


class Block:
    """Statements being added, each at a depth (1: the function's body), each with the span
    current when it is added (`span`), like the listing compiler's Lines were."""

    def __init__(self, span: Span | None = None) -> None:
        self.entries: list[Entry] = []
        self.span = span

    def located(self, node: ir.Statement) -> ir.Statement:
        return node if node.span is not None or self.span is None else attrs.evolve(node, span=self.span)    # type: ignore[call-arg]

    def add(self, depth: int, *nodes: ir.Statement) -> None:
        """Statements without a body of their own (or with it complete)."""
        self.entries.extend(Entry(depth, self.located(node), False) for node in nodes)

    def open(self, depth: int, node: ir.Statement) -> None:
        """A block opener (If, ForEach, While, ...) whose body is what is added next one deeper."""
        self.entries.append(Entry(depth, self.located(node), True))

    def otherwise(self, depth: int) -> None:
        """The `else` of the If opened last at this depth: what is added next one deeper."""
        self.entries.append(Entry(depth, None, True))

    def extend(self, other: Block, deeper: int = 0) -> None:
        """Another block's statements added here, `deeper` more deep."""
        self.entries.extend(Entry(e.depth + deeper, e.node, e.opens) for e in other.entries)

    def __bool__(self) -> bool:
        return bool(self.entries)

    def statements(self, depth: int = 1) -> tuple[ir.Statement, ...]:
        nodes, end = self.nested(0, depth)
        if end != len(self.entries):
            raise ValueError(f"a statement added at depth {self.entries[end].depth} outside the block's")
        return nodes

    def nested(self, k: int, depth: int) -> tuple[tuple[ir.Statement, ...], int]:
        """The statements from entry k on at `depth` (and what is inside them); the entry after."""
        out: list[ir.Statement] = []
        while k < len(self.entries) and self.entries[k].depth >= depth:
            entry = self.entries[k]
            if entry.depth > depth:
                raise ValueError(f"a statement at depth {entry.depth} in a block of depth {depth}")
            k += 1
            if not entry.opens:
                out.append(entry.node)      # type: ignore[arg-type]
                continue
            inner, k = self.nested(k, depth + 1)
            if entry.node is None:
                last = out[-1]
                if not isinstance(last, ir.If) or last.orelse:
                    raise ValueError("an else without its if")
                out[-1] = attrs.evolve(last, orelse=inner)
            else:
                out.append(attrs.evolve(entry.node, **{BODY: entry.node.body + inner}))   # type: ignore[attr-defined]
        return tuple(out), k
