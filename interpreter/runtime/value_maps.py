"""Maps of the rules (`map of K to V`) at run time: a Python dict, never changed once made (an
update makes a new map: `m + {k: v}`), so that `m[k]`, `k in m` and `get(m, k, d)` are one hash
lookup. A key that is a list is held as a tuple (sets.frozen) and given back as a list; a map
is gone through by its keys in the language's value order (sets.value_key), never in the order
of its hashing or of its making, so that a game replays the same.

(The maps of places and routes, a kind of board, are runtime/maps.py.) As with sets, a compiled
module imports these (ON_USE) only when its game has maps of values."""
from __future__ import annotations

from referee.dsl.limits import MAX_LIST

from .errors import RulesRuntimeError
from .sets import frozen, thawed, value_key


def new_map(keys, values, span) -> dict:
    """{k: v, ...}: the entries in order (a key given twice: its last value)."""
    return checked_size(dict(zip([frozen(k) for k in keys], values)), span)


def joined_maps(a: dict, b: dict, span) -> dict:
    """m + n: the entries of both, n's value where both have a key (a new map: m is unchanged)."""
    if not b:
        return a
    return checked_size({**a, **b}, span)


def checked_size(value: dict, span) -> dict:
    if len(value) > MAX_LIST:
        raise RulesRuntimeError(f"a map of {len(value):,} entries, beyond the limit of {MAX_LIST:,} "
                                "(see the limits in docs/language.md)", span)
    return value


def ordered_keys(value: dict, positions) -> list:
    """The keys as held, in the language's order of values."""
    return sorted(value, key=lambda k: value_key(k, positions))


def map_keys(value: dict, positions) -> list:
    """keys(m), and what `for`, aggregates and binders go through: the keys in order."""
    return [thawed(k) for k in ordered_keys(value, positions)]


def map_values(value: dict, positions) -> list:
    """values(m): the values in the order of their keys."""
    return [value[k] for k in ordered_keys(value, positions)]


def map_labeler(key_label, value_label, positions, between=", "):
    """The text of a map: `key: value` of each entry, in the order of the keys, `between` between
    two entries ("; " where a key or a value is a list, whose text has commas)."""
    def label(s, v):
        if v is None:
            return "none"
        return between.join(f"{key_label(s, thawed(k))}: {value_label(s, v[k])}" for k in ordered_keys(v, positions))
    label.made_by = ("map_labeler", (key_label, value_label, positions, between))
    return label


# what a compiled module that uses maps of values imports from here
ON_USE = {"frozen": frozen, "new_map": new_map, "joined_maps": joined_maps, "map_keys": map_keys,
          "map_values": map_values, "map_labeler": map_labeler}
