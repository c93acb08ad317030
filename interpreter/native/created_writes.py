"""Writes to the attributes of components created in play, in a native kernel (a mixin of
created_source.CreatedSource): `c.value = 2` where c is of a type declared `max N` that play
creates (runtime/writes.py set_attribute: the entity's label and identity made again).

A created component's classes are in S (created_source.py): after a write (its shape stays: a
`create` gives every attribute), every component of its type has its label and identity
classes made again in id order (`reclass_T`: each the first id of its type with the same
label, or the same attributes), so that the classes of the components that shared the written
one's stay theirs. Refused: a write to a type whose components another component's attribute
may hold (that one's label shows the written one's).
"""
from __future__ import annotations

from referee.dsl.types import OWNER, named_type

from .not_native import NotNative


class CreatedWritesSource:
    """`x.attribute = value` of a created type, for KernelSource (its columns, classes_function...)."""

    def created_attribute_write(self, node, scope, type_name: str) -> list:
        target = node.target
        attribute = target.attribute
        for other, component in self.game.types.components.items():
            for field in component.fields:
                if named_type(self.game.compiler.declared_type(field.type).without_none()) == type_name:
                    raise NotNative(f"a write to the attribute {attribute} of a {type_name}, created in play, "
                                    f"which {other}.{field.name} may hold (its label shows it)", target.span)
        fields = {f.name: self.game.compiler.declared_type(f.type) for f in self.game.types.components[type_name].fields}
        value = self.expr(node.value, scope, fields.get(attribute, OWNER))
        x = scope.names[target.name]
        self.classes_function(type_name, fields)
        self.reclass_function(type_name)
        return [f"set_attribute(S, {self.columns[(type_name, attribute)]}, {x}, {value})", "if S[ERROR] == 0:",
                f"    reclass_{type_name}(S)"]

    def reclass_function(self, type_name: str) -> None:
        if type_name in self.reclassed:
            return
        self.reclassed.add(type_name)
        self.define(f"def reclass_{type_name}(S):",
                    ["for z in range(S[NEXT_ID]):", f"    if S[KIND_AT + z] == {self.component_types.index(type_name)}:",
                     f"        classes_{type_name}(S, z)"])
