"""What the native renderer (render_native.py) knows of a game's arrays: where the state's
parts are (Places, VarPlace), the refusal it raises (NotNative), and what its parts for zones
(render_native_zones.py) ask of the renderer (Renderer)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

import attrs
from referee.dsl.ast import Span

from . import ir


class NotNative(Exception):
    """A node the native renderer cannot render (yet): what it is (`construct`, the node's
    kind), why, and where the rules say it."""

    def __init__(self, node: ir.Node, why: str) -> None:
        super().__init__(why)
        self.node, self.why, self.construct = node, why, type(node).__name__

    def note(self, around: Span | None = None) -> str:
        """What it is and why, at its rules line (or that of the statement `around` it)."""
        span = self.node.span or around
        place = f"{span.file}:{span.line}: " if span is not None and span.line else ""
        return f"{place}{self.construct}: {self.why}"


@attrs.frozen
class VarPlace:
    """A variable family's array, `var_NAME`: an index value minus its axis's offset is its
    position (an axis of an enum's members: their positions), `none` the code of none in it,
    `members` an enum's members, coded by position, when the variable holds them."""
    offsets: tuple[int, ...] = ()
    axis_members: tuple[tuple[str, ...] | None, ...] = ()
    none: int = -1
    members: tuple[str, ...] = ()

    def encode(self, node: ir.Node, value: object) -> int:
        """The code of a constant stored in the variable."""
        if value is None:
            return self.none
        if isinstance(value, str):
            if value not in self.members:
                raise NotNative(node, f"the text {value!r} is not a member the variable holds")
            return self.members.index(value)
        return int(value)       # type: ignore[call-overload]


@attrs.frozen
class Places:
    """Where the state's parts are in the arrays: the environment's scalar entries by key (their
    index in `env`), the names a call or a global may name besides NATIVE_BUILTINS (compiled
    ones the kernel binds: the random stream, other native functions), the module's constants
    written in place (LOOP_CAP, the whole numbers and tuples of them the compiler bound), and the entries of the flow's loops (their row in `loops`,
    (present, length, next position), and in `loop_values`)."""
    env: Mapping[str, int] = attrs.field(factory=dict)
    calls: frozenset[str] = frozenset()
    constants: Mapping[str, int | tuple[int, ...]] = attrs.field(factory=dict)
    loops: Mapping[str, int] = attrs.field(factory=dict)
    vars: Mapping[str, VarPlace] = attrs.field(factory=dict)
    # zone families: `zone_NAME[cell..., :zone_NAME_len[cell...]]` (each index placed as a variable's)
    zones: Mapping[str, VarPlace] = attrs.field(factory=dict)
    # a component column's module name (`_A<k>`) -> its attribute, `attr_NAME` over every component
    columns: Mapping[str, tuple[str, VarPlace]] = attrs.field(factory=dict)
    # a component type -> its ids (first, count): those the setup made, in a run
    components: Mapping[str, tuple[int, int]] = attrs.field(factory=dict)
    # the zone families in the order of loc's first column (a component's family), the layout's
    zone_order: tuple[str, ...] = ()
    # a generated function that renders natively -> the state arrays its header names (a caller passes them)
    signatures: Mapping[str, tuple[str, ...]] = attrs.field(factory=dict)
    # the runtime's error calls rendered so far, in the order of their sites (err[0] = 1 + position),
    # each with the code of none in its varying value when known: filled while rendering, read by
    # Layout.runtime_error
    errors: list[tuple[ir.Call, int | None]] = attrs.field(factory=list, eq=False)
    # a generated function -> its parameters (L_NAME) whose type codes none: that code (-1, or an int's)
    parameters: Mapping[str, Mapping[str, int]] = attrs.field(factory=dict)


class Renderer(Protocol):
    """The native renderer as render_native_zones.py uses it."""
    places: Places
    pending: list[tuple[int, str]]
    temps: int
    uses: set[str]
    keys: dict[str, ir.Key]

    def add(self, indent: int, text: str, span: Span | None) -> None: ...

    def header(self, indent: int, text: str, node: ir.Statement, body: tuple[ir.Statement, ...]) -> None: ...

    def block(self, statements: tuple[ir.Statement, ...], indent: int) -> None: ...

    def expression(self, node: ir.Expression, needs: int = ...) -> str: ...

    def positions(self, key: ir.Key, place: VarPlace) -> list[str]: ...

    def column(self, node: ir.ReadColumn) -> tuple[str, VarPlace]: ...

    def none_code(self, node: ir.Expression) -> int | None: ...

    def call(self, node: ir.Call) -> tuple[str, int]: ...
