"""The types of the language: `Type` values, which the checker works on and hands out.

Each is asked by its structure (`without_none`, `fits`, `is_number`, `element_type`...); a type's
text exists only to be shown: `str(t)` or `t.text` its spelling ('int', 'Card?', 'list[Player]',
'set[int]', 'map[list[int],int]', 'zone[Card]'), `describe()` and `written()` the words of the diagnostics and hovers
("a list of Card", "list of int"). `type_of(text)` reads a spelling back (a type that a test, or a
zone's declaration, writes as a text).
"""
from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, Optional

from . import ast

if TYPE_CHECKING:      # (the type checker knows attrs' classes, not the syntax tree's helper)
    from attrs import frozen as value_class
else:                  # frozen attrs classes sharing one repr, equality and hash: cheaper to make at start-up
    from .ast import node as value_class

ANY = "any"        # the texts of the types not known and of fractions (their values: UNKNOWN, FRACTION)
REAL = "real"


# ---- the values -----------------------------------------------------------------------------

@value_class
class Type:
    """A type of the language. `text` is its checker spelling (and `str`), `describe()` and
    `written()` its words in diagnostics and in hovers; the rest asks its structure."""

    @property
    def text(self) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        return self.text

    def describe(self) -> str:
        """In the words of a diagnostic: 'a number', 'a list of Card', "'Card?'" (a list, a set
        or a zone that may be none is told as one that may not)."""
        base = self.without_none()
        if isinstance(base, (ListOf, SetOf)):
            kind = "a list" if isinstance(base, ListOf) else "a set"
            return kind if base.element == UNKNOWN else f"{kind} of {base.element.written()}"    # (of mixed or no items)
        if isinstance(base, ZoneOf):
            return f"a zone of {base.element.written()}"
        if isinstance(base, MapOf):
            return "a map" if (base.key, base.value) == (UNKNOWN, UNKNOWN) else f"a {base.written()}"
        return WORDS.get(self) or f"'{self.text}'"

    def written(self) -> str:
        """As a rules file writes it: 'list of list of int', not 'list[list[int]]'."""
        base = self.without_none()
        if isinstance(base, (ListOf, SetOf, ZoneOf)):
            return f"{base.kind} of {base.element.written()}"
        if isinstance(base, MapOf):
            return f"map of {base.key.written()} to {base.value.written()}"
        return self.text

    def may_be_none(self) -> bool:
        return False

    def fits(self, other: Type) -> bool:
        """Whether a value of this type may stand where `other` is needed."""
        if self == other or UNKNOWN in (self, other) or NONE in (self, other):
            return True
        a, b = self.without_none(), other.without_none()
        if a == b or a == INT and b in (PLAYER, FRACTION) or a == PLAYER and b == INT:   # a seat number is a player
            return True                     # (and a whole number a fraction, not the other way)
        if isinstance(a, (ListOf, SetOf)) and a.__class__ is b.__class__:
            return a.element.fits(b.element)
        if isinstance(a, MapOf) and isinstance(b, MapOf):
            return a.key.fits(b.key) and a.value.fits(b.value)
        return False

    def without_none(self) -> Type:
        return self

    def or_none(self) -> Type:
        """This type or none: Card? of a Card and of a Card? alike."""
        return OptionalOf(self.without_none())

    def is_number(self) -> bool:
        """A number, a seat, a fraction, or none of them (or not known)."""
        return self.without_none() in NUMBER_TYPES

    def is_whole(self) -> bool:
        return self.without_none() in WHOLE_TYPES

    def is_fraction(self) -> bool:
        return self.without_none() == FRACTION

    def is_list(self) -> bool:
        return isinstance(self.without_none(), ListOf)

    def is_set(self) -> bool:
        return isinstance(self.without_none(), SetOf)

    def is_map(self) -> bool:
        return isinstance(self.without_none(), MapOf)

    def is_zone(self) -> bool:
        return isinstance(self.without_none(), ZoneOf)

    def is_collection(self) -> bool:
        return isinstance(self.without_none(), (ListOf, SetOf, ZoneOf))


@value_class
class Unknown(Type):
    """A value the checker does not follow further (after an error, or of mixed kinds)."""

    @property
    def text(self) -> str:
        return ANY

    def may_be_none(self) -> bool:
        return True

    def or_none(self) -> Type:
        return self           # a value of unknown type stays unknown


@value_class
class NoneValue(Type):
    """The type of `none` itself."""

    @property
    def text(self) -> str:
        return "none"

    def may_be_none(self) -> bool:
        return True


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
    kind = "list"

    @property
    def text(self) -> str:
        return f"list[{self.element.text}]"


@value_class
class SetOf(Type):
    """A set of values: no order, each value once (iterated in the language's value order)."""
    element: Type
    kind = "set"

    @property
    def text(self) -> str:
        return f"set[{self.element.text}]"


@value_class
class MapOf(Type):
    """A map from keys to values: each key once (gone through in the language's value order)."""
    key: Type
    value: Type

    @property
    def text(self) -> str:
        return f"map[{self.key.text},{self.value.text}]"


@value_class
class ZoneOf(Type):
    element: Type
    kind = "zone"

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

    def may_be_none(self) -> bool:
        return True


UNKNOWN = Unknown()
INT, BOOL, PLAYER, TEXT = Named("int"), Named("bool"), Named("Player"), Named("text")
FRACTION = Real()
OWNER = OptionalOf(PLAYER)         # the type of every component's owner: a seat, or none
NONE = NoneValue()
NUMBER_TYPES = frozenset((INT, PLAYER, UNKNOWN, FRACTION))   # a seat is a number: p + 1, p < q
WHOLE_TYPES = frozenset((INT, PLAYER, UNKNOWN))
WORDS = {NONE: "none", INT: "a number", FRACTION: "a fraction", BOOL: "true/false"}    # (describe's)


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
    a map; unknown for any other type."""
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


def key_and_value(text: str) -> tuple[str, str]:
    """The key's and the value's spellings in a map's ('map[list[int],int]'): the comma outside
    any brackets (type_of's reading of a spelling)."""
    inner, depth = text[4:-1], 0
    for at, character in enumerate(inner):
        depth += (character == "[") - (character == "]")
        if character == "," and depth == 0:
            return inner[:at], inner[at + 1:]
    return ANY, ANY
