"""The symbol table of a program, built once: its declarations by kind, the enum members, the
attributes that statements change; and `Scope`, the names (and types) visible at a place.
"""
from __future__ import annotations

from typing import Any, Optional

import attrs

from . import ast
from .builtins import BUILTIN_ENUMS
from .program import Program
from .types import Type

BUILTIN_SPAN = ast.Span("<built-in>", 0, 0, 0, 0)


@attrs.define
class Scope:
    """Names to their types (`Type` values), inside a parent scope. (The language server's walk
    keeps a symbol's key for each local instead.)"""
    names: dict
    parent: Optional["Scope"] = None

    def lookup(self, name: str) -> Optional[Type]:
        scope: Optional[Scope] = self
        while scope is not None:
            if name in scope.names:
                return scope.names[name]
            scope = scope.parent
        return None

    def child(self, **names: Any) -> "Scope":
        return Scope(dict(names), self)

    def all_names(self) -> set:
        scope: Optional[Scope] = self
        out: set = set()
        while scope is not None:
            out |= set(scope.names)
            scope = scope.parent
        return out


@attrs.frozen
class Symbols:
    """A program's declarations by kind, name -> node, in file order (enums: the built-in ones
    first, so that a game's enum reusing a member is told so)."""
    enums: dict
    members: dict               # enum member -> its enum's name
    components: dict
    boards: dict
    zones: dict
    vars: dict
    params: dict
    options: dict
    functions: dict
    procedures: dict
    actions: dict
    changed_attributes: set     # the component attributes that statements change (x.a = ...)
    places: dict = attrs.field(factory=dict)   # a place of a places board -> that board's name

    @classmethod
    def of(cls, program: Program) -> "Symbols":
        enums = {name: ast.Enum(BUILTIN_SPAN, name, members) for name, members in BUILTIN_ENUMS.items()}
        enums.update({e.name: e for e in program.of_kind(ast.Enum)})
        members = {member: enum.name for enum in enums.values() for member in enum.members}
        changed = {n.target.attribute for n in ast.walk(program.parts())
                   if isinstance(n, (ast.Assign, ast.Augment)) and isinstance(n.target, ast.AttributeTarget)}
        return cls(enums=enums, members=members,
                   components={c.name: c for c in program.of_kind(ast.Component)},
                   boards={b.name: b for b in program.of_kind(ast.Board)},
                   zones={z.name: z for z in program.of_kind(ast.Zone)},
                   vars={v.name: v for v in program.of_kind(ast.Var)},
                   params={p.name: p for p in program.of_kind(ast.Param)},
                   options={o.name: o for o in program.of_kind(ast.Option)},
                   functions={f.name: f for f in program.of_kind(ast.Function)},
                   procedures={p.name: p for p in program.of_kind(ast.Procedure)},
                   actions={a.name: a for a in program.of_kind(ast.Action)},
                   changed_attributes=changed, places=places_of(program))


def places_of(program: Program) -> dict:
    """Each place of a `places` board -> the board's name (the first board naming it: a place
    named twice is the checker's E223)."""
    places: dict = {}
    for board in program.of_kind(ast.Board):
        if isinstance(board.shape, ast.PlacesShape):
            for place in board.shape.places:
                places.setdefault(place.name, board.name)
    return places
