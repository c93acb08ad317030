"""What the checker hands out: the program with its symbol table, the type of every expression
it typed, its locals' types, its texts with placeholders parsed, and the diagnostics.
"""
from __future__ import annotations

from typing import Any, Optional

import attrs

from . import ast
from .diagnostics import Diagnostic
from .program import Program
from .symbols import Symbols
from .templates import Template
from .types import Type


@attrs.frozen
class Checked:
    program: Program
    sources: dict
    diagnostics: list[Diagnostic]
    symbols: Symbols
    # id(node) -> the type of the expression, and the node itself (kept alive, so that no
    # other node takes its id)
    types: dict[int, Type]
    expressions: dict[int, Any]
    local_types: dict[ast.Span, Type]          # span of a binder, a let or a parameter -> its type
    templates: dict[str, Template]             # each text with placeholders the program holds
    placeholder_nodes: dict[tuple[str, str], Any]   # (text, inside) -> the expression of a {...}
    label_expressions: dict[tuple[str, str], Any]   # (action, inside) -> a label's {expression}
    argument_types: dict[tuple[str, str], Type]     # (action, argument) -> its type
    # the checker that typed it all, for a consumer's own scopes (its symbols and type_name)
    typer: Any = attrs.field(eq=False, repr=False)

    @property
    def ok(self) -> bool:
        return not self.diagnostics

    def type_of(self, node: Any) -> Optional[Type]:
        """The type of an expression of the program (None for one the checker never typed)."""
        return self.types.get(id(node))
