"""The types of the language: `Type` values that the checker hands out, and the texts they are
written as ('int', 'Card?', 'list[Player]', 'set[int]', 'map[list[int],int]', 'zone[Card]': the checker's
working spelling).

`type_of(text)` gives the value of a text and `Type.text` the text back; `describe()` and
`written()` give the words of the diagnostics ("a list of Card", "list of int").
"""
from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, Optional

from . import ast

if TYPE_CHECKING:      # (the type checker knows attrs' classes, not the syntax tree's helper)
    from attrs import frozen as value_class
else:                  # frozen attrs classes sharing one repr, equality and hash: cheaper to make at start-up
    from .ast import node as value_class

ANY = "any"
REAL = "real"                        # an exact fraction, made by '/'; an int widens to it
WHOLE = ("int", "Player", ANY)       # a seat is a number: p + 1, p < q
NUMBERS = WHOLE + (REAL,)


# ---- the texts ------------------------------------------------------------------------------

def list_of(t: str) -> str:
    return f"list[{t}]"


def set_of(t: str) -> str:
    return f"set[{t}]"


def is_set(t: str) -> bool:
    return strip_optional(t).startswith("set[")


def map_of(key: str, value: str) -> str:
    return f"map[{key},{value}]"


def is_map(t: str) -> bool:
    return strip_optional(t).startswith("map[")


def key_and_value(t: str) -> tuple[str, str]:
    """The key type and the value type of a map's text (the comma outside any brackets)."""
    inner, depth = strip_optional(t)[4:-1], 0
    for at, character in enumerate(inner):
        depth += (character == "[") - (character == "]")
        if character == "," and depth == 0:
            return inner[:at], inner[at + 1:]
    return ANY, ANY


def element_of(t: str) -> str:
    t = strip_optional(t)      # a list that may be none ('pick' of lists): its elements'
    if t.startswith("map["):   # a map is gone through by its keys
        return key_and_value(t)[0]
    for prefix in ("list[", "zone[", "set["):
        if t.startswith(prefix):
            return t[len(prefix):-1]
    return ANY


def strip_optional(t: str) -> str:
    return t[:-1] if t.endswith("?") else t


def optional(t: str) -> str:
    """t or none: 'Card?' of a Card and of a Card? alike; a value of unknown type stays unknown."""
    return t if t == ANY else strip_optional(t) + "?"


def describe(t: str) -> str:
    """A type in the words of a diagnostic: 'a number', 'a list of Card', "'Card?'"."""
    if t == "none":
        return "none"
    if t.startswith("list["):
        return "a list" if element_of(t) == ANY else f"a list of {written(element_of(t))}"    # (of mixed or no items)
    if t.startswith("zone["):
        return f"a zone of {written(element_of(t))}"
    if t.startswith("set["):
        return "a set" if element_of(t) == ANY else f"a set of {written(element_of(t))}"
    if t.startswith("map["):
        return "a map" if key_and_value(t) == (ANY, ANY) else f"a {written(t)}"
    if t == "int":
        return "a number"
    if t == REAL:
        return "a fraction"
    if t == "bool":
        return "true/false"
    return f"'{t}'"


def written(t: str) -> str:
    """A type as a rules file writes it: 'list of list of int', not 'list[list[int]]'."""
    if strip_optional(t).startswith("map["):
        key, value = key_and_value(t)
        return f"map of {written(key)} to {written(value)}"
    for kind in ("list", "zone", "set"):
        if strip_optional(t).startswith(kind + "["):
            return f"{kind} of {written(element_of(t))}"
    return t


def may_be_none(t: str) -> bool:
    return t in (ANY, "none") or t.endswith("?")


def compatible(a: str, b: str) -> bool:
    """Whether a value of type a may stand where b is needed."""
    if ANY in (a, b) or a == b:
        return True
    if "none" in (a, b):
        return True
    sa, sb = strip_optional(a), strip_optional(b)
    if sa == sb or {sa, sb} == {"int", "Player"}:   # a seat number is a player
        return True
    if sa == "int" and sb == REAL:                  # a whole number is a fraction (not the other way)
        return True
    for kind in ("list[", "set["):
        if sa.startswith(kind) and sb.startswith(kind):
            return compatible(element_of(sa), element_of(sb))
    if sa.startswith("map[") and sb.startswith("map["):
        return all(compatible(x, y) for x, y in zip(key_and_value(sa), key_and_value(sb)))
    return False


# ---- the values -----------------------------------------------------------------------------

@value_class
class Type:
    """A type of the language. `text` is its checker spelling, `describe()` and `written()` its
    words in diagnostics and in hovers."""

    @property
    def text(self) -> str:
        raise NotImplementedError

    def describe(self) -> str:
        return describe(self.text)

    def written(self) -> str:
        return written(self.text)

    def may_be_none(self) -> bool:
        return may_be_none(self.text)

    def fits(self, other: Type) -> bool:
        """Whether a value of this type may stand where `other` is needed."""
        return compatible(self.text, other.text)

    def without_none(self) -> Type:
        return self


@value_class
class Unknown(Type):
    """A value the checker does not follow further (after an error, or of mixed kinds)."""

    @property
    def text(self) -> str:
        return ANY


@value_class
class NoneValue(Type):
    """The type of `none` itself."""

    @property
    def text(self) -> str:
        return "none"


@value_class
class Real(Type):
    """An exact fraction (made by '/'); a whole number widens to it."""

    @property
    def text(self) -> str:
        return REAL


@value_class
class Named(Type):
    """int, bool, text, Player, or an enum, a component type or a board (its cells) by name."""
    name: str

    @property
    def text(self) -> str:
        return self.name


@value_class
class ListOf(Type):
    element: Type

    @property
    def text(self) -> str:
        return list_of(self.element.text)


@value_class
class SetOf(Type):
    """A set of values: no order, each value once (iterated in the language's value order)."""
    element: Type

    @property
    def text(self) -> str:
        return set_of(self.element.text)


@value_class
class MapOf(Type):
    """A map from keys to values: each key once (gone through in the language's value order)."""
    key: Type
    value: Type

    @property
    def text(self) -> str:
        return map_of(self.key.text, self.value.text)


@value_class
class ZoneOf(Type):
    element: Type

    @property
    def text(self) -> str:
        return f"zone[{self.element.text}]"


@value_class
class OptionalOf(Type):
    """A value or none: `Card?`."""
    base: Type

    @property
    def text(self) -> str:
        return self.base.text + "?"

    def without_none(self) -> Type:
        return self.base


UNKNOWN = Unknown()
INT, BOOL, PLAYER, TEXT = Named("int"), Named("bool"), Named("Player"), Named("text")
FRACTION = Real()
OWNER = OptionalOf(PLAYER)         # the type of every component's owner: a seat, or none


def named_type(t: Type) -> Optional[str]:
    """The name of a named type, none stripped ('Card' of Card and of Card?); None for any other
    type (a list, a fraction, none, one not known)."""
    t = t.without_none()
    return t.name if isinstance(t, Named) else None


def names_in(t: Type) -> frozenset:
    """The names a type holds, its elements' too ('list[Square]?' -> {'Square'})."""
    t = t.without_none()
    if isinstance(t, Named):
        return frozenset((t.name,))
    if isinstance(t, MapOf):
        return names_in(t.key) | names_in(t.value)
    return names_in(t.element) if isinstance(t, (ListOf, ZoneOf, SetOf)) else frozenset()


def element_type(t: Type) -> Type:
    """The type of the items of a list or a zone (or of a list that may be none), of the keys of
    a map; unknown for any other type (element_of's value)."""
    t = t.without_none()
    if isinstance(t, MapOf):
        return t.key
    return t.element if isinstance(t, (ListOf, ZoneOf, SetOf)) else UNKNOWN


@functools.lru_cache(maxsize=None)
def type_of(text: str) -> Type:
    """The value of a type's text ('list[Card?]' -> ListOf(OptionalOf(Named('Card'))))."""
    if text == ANY:
        return UNKNOWN
    if text == "none":
        return NoneValue()
    if text.endswith("?"):
        return OptionalOf(type_of(text[:-1]))
    if text.startswith("list["):
        return ListOf(type_of(text[5:-1]))
    if text.startswith("zone["):
        return ZoneOf(type_of(text[5:-1]))
    if text.startswith("set["):
        return SetOf(type_of(text[4:-1]))
    if text.startswith("map["):
        key, value = key_and_value(text)
        return MapOf(type_of(key), type_of(value))
    if text == REAL:
        return Real()
    return Named(text)


def written_type(node: Any) -> Type:
    """The Type a declaration writes (`int`, `Card?`, `list of Card`, `set of int`, `map of K to V`), as written:
    not checked (the checker's `type_name` says whether its names are known); unknown of none."""
    if node is None:
        return UNKNOWN
    if isinstance(node, ast.NamedType):
        return type_of(node.name)
    if isinstance(node, ast.OptionalType):
        return OptionalOf(type_of(node.name))
    if isinstance(node, ast.SetType):
        return SetOf(written_type(node.element))
    if isinstance(node, ast.MapType):
        return MapOf(written_type(node.key), written_type(node.value))
    return ListOf(written_type(node.element))
