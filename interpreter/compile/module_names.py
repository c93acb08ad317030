"""A compiled module's own names as IR sees them: the parts the module passes go through
(ModuleParts: its functions and the values it binds), the names a function reads, a function
with names changed, and when two bound values are the same plain value."""
from __future__ import annotations

from collections.abc import Mapping

import attrs
from referee.dsl.ast import Span

from . import ir

# the fields that hold a name of the module (not a local, an attribute or a key), by node class
NAME_FIELDS: dict[type, tuple[str, ...]] = {
    ir.Global: ("name",), ir.Call: ("function",), ir.ReadColumn: ("column",), ir.LabelSet: ("column",),
    ir.ChargedDomain: ("where",), ir.ChargeWork: ("where",), ir.Try: ("exception",),
}
# the module's names that the renderer writes for a node (render_python: `STEP[1] -= ...`)
IMPLIED: dict[type, tuple[str, ...]] = {
    ir.Budget: ("STEP",), ir.Spend: ("STEP",), ir.ChargeWork: ("STEP",), ir.ChargedDomain: ("STEP",),
    ir.Invalidate: ("MEMO_STAMPS",), ir.CountCoverage: ("COV",),
}
# values written as such, that nothing changes: one name serves for equal ones
PLAIN = (bool, int, float, str, type(None), range, Span)
PLAIN_ITEMS = (tuple, list, frozenset)


@attrs.frozen
class ModuleParts:
    """What a compiled module is made of, for the module passes (passes/MODULE_PASSES):
    `functions` its generated functions (their final IR, in order), `bound` the values in its
    namespace by name, in order (constants, and the values the engine links at load), `fixed`
    those of them that keep their own name: not the compiler's constants but values it or the
    engine set by name (the step's budgets, the caches' stamps: some change at run time);
    `reads`, per function, the module names it reads (names_read: one walk each)."""
    functions: tuple[ir.Function, ...]
    bound: tuple[tuple[str, object], ...]
    fixed: frozenset[str] = frozenset()
    reads: tuple[frozenset[str], ...] = attrs.field()

    @reads.default
    def _each_read(self) -> tuple[frozenset[str], ...]:
        return tuple(names_read(function) for function in self.functions)


def names_read(function: ir.Function) -> frozenset[str]:
    """The module's names a function's code reads (and builtins and the runtime's, alike)."""
    read: set[str] = set()
    for node in ir.walk(function):
        cls = node.__class__
        for field in NAME_FIELDS.get(cls, ()):
            read.add(getattr(node, field))
        read.update(IMPLIED.get(cls, ()))
    return frozenset(read)


def renamed(function: ir.Function, names: Mapping[str, str]) -> ir.Function:
    """The function reading `names[n]` wherever it read a module name n in `names` (itself,
    the very object, when it reads none of them)."""
    def change(node: ir.Node) -> ir.Node:
        node = ir.rebuilt(node, change)
        fields = NAME_FIELDS.get(node.__class__, ())
        updates = {field: names[getattr(node, field)] for field in fields if getattr(node, field) in names}
        return attrs.evolve(node, **updates) if updates else node
    return change(function)     # type: ignore[return-value]


def plain_key(value: object) -> object:
    """A key equal for values that are the same plain value (numbers, texts, spans, ranges, and
    tuples, lists and frozensets of them: a list and a tuple differ, 1 and True too) or that a
    runtime maker made of the same arguments (`made_by`: a labeler; an argument that is no plain
    value must be the very same object, a table the code fills), else None (a table itself, a
    closure over the game)."""
    cls = value.__class__
    if cls in PLAIN:
        return (cls, value)
    if cls in PLAIN_ITEMS:
        keys = tuple(plain_key(item) for item in value)     # type: ignore[attr-defined]
        if any(key is None for key in keys):
            return None
        return (cls, frozenset(keys) if cls is frozenset else keys)
    made_by = getattr(value, "made_by", None)
    if made_by is None:
        return None
    maker, arguments = made_by
    return ("made", maker, tuple(plain_key(a) or ("same", id(a)) for a in arguments))
