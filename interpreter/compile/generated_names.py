"""The names the compiler gives what it generates, each of a kind: a name is a `str` (the IR
holds it and the renderer writes it as it always has, `_h3`, `L_x`) whose class says what it
names. Codegen and the passes ask a name's kind (`isinstance(name, Hoisted)`), never its
spelling; a name of no kind (a plain `str`) is of none of them."""
from __future__ import annotations


class GeneratedName(str):
    """A Python name the compiler made for generated code; its class is its kind."""
    __slots__ = ()


class Temporary(GeneratedName):
    """`_t<n>`: a value an expression keeps for itself (`:=`, a value read before a loop)."""
    __slots__ = ()


class Hoisted(GeneratedName):
    """`_h<n>`: a value read once per loop level while legal moves are listed."""
    __slots__ = ()


class ModuleValue(GeneratedName):
    """`_<hint><n>`: a value the compiler bound in the module (SourceGenerator.bind)."""
    __slots__ = ()


class BoundConstant(ModuleValue):
    """`_k<n>`: a value bound with no other hint (a listing's domain needs no copy)."""
    __slots__ = ()


class RulesLocal(GeneratedName):
    """`L_<name>`: a local of the rules (a parameter, a binder, a let)."""
    __slots__ = ()


class ComponentColumn(GeneratedName):
    """`_A<k>`: the column of one attribute of every component (it never changes)."""
    __slots__ = ()


class ComprehensionVariable(GeneratedName):
    """`a<k>_<name>`: a comprehension's variable (it changes inside the comprehension)."""
    __slots__ = ()


class RowKey(ComprehensionVariable):
    """`a<k>_key`: a row of the zone keys a comprehension over a fixed domain builds once."""
    __slots__ = ()


class RulesFunction(GeneratedName):
    """`fn_<name>`: a function of the rules; `rules_name` is its name in the rules."""

    rules_name: str

    @classmethod
    def of(cls, rules_name: str) -> RulesFunction:
        name = cls(f"fn_{rules_name}")
        name.rules_name = rules_name
        return name


def rules_local(name: str) -> RulesLocal:
    return RulesLocal(f"L_{name}")
