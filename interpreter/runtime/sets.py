"""Sets of the rules (`set of T`) at run time: a Python frozenset, so that `x in s` is one
lookup. A list held in a set is held as a tuple (hashable), and given back as a list; a set is
gone through in the language's value order (numbers by value, enum members in their declared
order, lists item by item), never in the hash order, so that a game replays the same.

None of these is among the names every compiled module imports (runtime/__init__.py): a module
imports them (ON_USE) only when its game has sets, so that the modules of the games without sets
stay as they were."""
from __future__ import annotations

from fractions import Fraction

from referee.dsl.limits import MAX_LIST

from .errors import RulesRuntimeError

def frozen(value):
    """A value as a set holds it: a list as a tuple of its (frozen) items."""
    if isinstance(value, (list, tuple, range)):
        return tuple(frozen(v) for v in value)
    return value


def thawed(value):
    """A value of a set as the rules hold it: a tuple back as a list."""
    if isinstance(value, tuple):
        return [thawed(v) for v in value]
    return value


def value_key(value, positions):
    """The language's order of values of one type: none first, then false before true, numbers,
    enum members by their position (texts by themselves), lists and sets item by item."""
    if value is None:
        return (0,)
    if isinstance(value, bool):
        return (1, value)
    if isinstance(value, (int, Fraction)):
        return (2, value)
    if isinstance(value, str):
        return (3, positions.get(value, 0), value)
    if isinstance(value, tuple):
        return (4, tuple(value_key(v, positions) for v in value))
    if isinstance(value, frozenset):
        return (5, tuple(sorted(value_key(v, positions) for v in value)))
    return (6, repr(value))


def new_set(items, span):
    """{a, b, ...}: the values, each once (a list of values: frozen)."""
    return checked_size(frozenset(frozen(v) for v in items), span)


def union(a, b, span):
    """s + t of two sets."""
    return checked_size(a | b, span)


def checked_size(value: frozenset, span) -> frozenset:
    if len(value) > MAX_LIST:
        raise RulesRuntimeError(f"a set of {len(value):,} values, beyond the limit of {MAX_LIST:,} "
                                "(see the limits in docs/language.md)", span)
    return value


def set_items(value, positions) -> list:
    """The values of a set in the language's order (what `for`, aggregates and binders go
    through)."""
    return [thawed(v) for v in sorted(value, key=lambda v: value_key(v, positions))]


def set_labeler(inner, positions):
    """The text of a set: its values' texts in the language's order, as a list's."""
    def label(s, v):
        return ", ".join(inner(s, x) for x in set_items(v, positions))
    label.made_by = ("set_labeler", (inner, positions))
    return label


# what a compiled module that uses sets imports from here
ON_USE = {"frozen": frozen, "new_set": new_set, "set_items": set_items, "set_labeler": set_labeler, "union": union}
