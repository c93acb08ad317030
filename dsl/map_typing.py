"""The checker's typing of maps (`map of K to V`, docs/language.md "Maps"): literals, `m[k]`,
`k in m`, `m + n`, and the functions `keys`, `values` and `get`. A mixin of `Checker`, which
gives `expr`, `error` and the scopes.

E308 is a map used with a key or a value of another type; E309 a key or a value a map cannot
hold (a key that may be none, or another map; a zone, a place whose content changes)."""
from __future__ import annotations

from typing import Optional

from . import ast
from .types import FRACTION, INT, NONE, UNKNOWN, ListOf, MapOf, SetOf, Type, ZoneOf

EMPTY_MAP_HINT = "the empty map is {:} ({} is the empty set)"
MAP_FUNCTIONS = ("keys", "values", "get")      # (their signatures: builtins.STDLIB_SIGNATURES)


def holds_a_map(t: Type) -> bool:
    """Whether t is a map, or a list, set, zone or optional value holding one anywhere."""
    t = t.without_none()
    if isinstance(t, MapOf):
        return True
    return isinstance(t, (ListOf, SetOf, ZoneOf)) and holds_a_map(t.element)


def one_type(types: set) -> Optional[Type]:
    """The type of the keys (or of the values) of a literal: their one type, a fraction among
    whole numbers, a T among nones a T?, a list of T among empty lists; None for different types."""
    found = set(types)
    if not found:
        return UNKNOWN
    maybe_none = NONE in found or any(t.may_be_none() and t != UNKNOWN for t in found)
    found = {t.without_none() for t in found if t != NONE} or {NONE}
    if len(found) > 1 and ListOf(UNKNOWN) in found and all(t.is_list() for t in found):
        found.discard(ListOf(UNKNOWN))
    if found == {INT, FRACTION}:
        found = {FRACTION}
    if len(found) > 1:
        return None
    (one,) = found
    return one.or_none() if maybe_none and one != NONE else one


class MapTyping:
    """What the checker says of maps."""

    def map_type(self, node: ast.MapType) -> Type:
        """The type of a written `map of K to V`."""
        key = self.map_key(self.type_name(node.key), node.key.span)
        return MapOf(key, self.map_value(self.type_name(node.value), node.value.span))

    def map_key(self, t: Type, span) -> Type:
        """What may be a key: a value that compares and orders (found at once, gone through in one
        order), never none, nor a zone, nor a map (whose content is no key)."""
        if t.is_zone() or holds_a_map(t):
            what = "a zone is a place whose content changes" if t.is_zone() else "a map is not a key"
            self.error("E309", f"a map's key cannot be {t.describe()}: {what}", span,
                       "a map's key is a number, a text, true/false, a player, an enum member, a component, "
                       "a cell, or a list or set of these")
            return UNKNOWN
        if t != UNKNOWN and t.may_be_none():
            self.error("E309", f"a map's key cannot be none, but this is {t.describe()}", span,
                       f"write map of {t.without_none()} to ..., without the '?', and look up only keys that are not none")
            return t.without_none() if t != NONE else UNKNOWN
        return t

    def map_value(self, t: Type, span) -> Type:
        if t.is_zone():
            self.error("E309", f"a map's value cannot be {t.describe()}: a zone is a place whose content changes", span,
                       "a map may hold the list of a zone's components: list of ...")
            return UNKNOWN
        return t

    def visit_MapLiteral(self, node, scope):
        keys, values = [], []
        for entry in node.entries:
            keys.append(self.expr(entry.key, scope))
            values.append(self.expr(entry.value, scope))
        key, value = one_type(set(keys)), one_type(set(values))
        for found, what in ((key, "keys"), (value, "values")):
            if found is None:
                given = keys if what == "keys" else values
                self.error("E308", f"the {what} of a map are of one type, but these are "
                                   + " and ".join(sorted({t.describe() for t in given})), node.span)
        key = self.map_key(key, node.entries[0].key.span) if key not in (None, UNKNOWN) else UNKNOWN
        return MapOf(key, self.map_value(value, node.entries[0].value.span) if value not in (None, UNKNOWN) else UNKNOWN)

    def looked_up(self, t: Type, given: Type, span) -> None:
        """E308 unless a key of type `given` may be in a map of type t."""
        key = t.without_none().key
        if not given.fits(key):
            self.error("E308", f"{t.describe()} is looked up by {key.describe()}, not {given.describe()}", span)

    def map_subscript(self, t: Type, node, scope) -> Type:
        """m[k]: the value of key k, none when m has no such key."""
        if len(node.indexes) != 1:
            self.error("E208", f"a map is looked up by one key, not {len(node.indexes)}", node.span)
        for index in node.indexes:
            self.looked_up(t, self.expr(index, scope), index.span)
        return t.without_none().value.or_none()

    def joined_maps(self, a: Type, b: Type, node) -> Type:
        """m + n: the entries of both, n's value where both have a key."""
        for t, side in ((a, node.left), (b, node.right)):
            if not t.is_map() and t != UNKNOWN:
                self.error("E308", f"'+' joins two maps, but this is {t.describe()}", side.span,
                           EMPTY_MAP_HINT if t == SetOf(UNKNOWN) else "an entry is added as a map of one: m + {key: value}")
                return a if a.is_map() else b
        if a.is_map() and (a.without_none().key, a.without_none().value) == (UNKNOWN, UNKNOWN):
            return b
        if not b.fits(a):
            self.error("E308", f"{a.describe()} cannot take the entries of {b.describe()}", node.right.span)
        return a

    def map_function(self, node, args: list) -> Type:
        """keys(m), values(m) (in the order of the keys), get(m, k, default)."""
        t = args[0] if args else UNKNOWN
        if not t.is_map():
            if t != UNKNOWN:
                self.error("E308", f"{node.name} takes a map, not {t.describe()}", node.arguments[0].span)
            return ListOf(UNKNOWN) if node.name != "get" else UNKNOWN
        key, value = t.without_none().key, t.without_none().value
        if node.name == "keys":
            return ListOf(key)
        if node.name == "values":
            return ListOf(value)
        if len(args) > 1:
            self.looked_up(t, args[1], node.arguments[1].span)
        if len(args) > 2 and not args[2].fits(value):
            self.error("E308", f"the default of get is what {t.describe()} holds, {value.describe()}, "
                               f"not {args[2].describe()}", node.arguments[2].span)
        # the default stands for a missing key: a value that is never none gives a value
        return value if len(args) < 3 or args[2] != NONE else value.or_none()

    def map_written(self, target, scope) -> bool:
        """E308 for `m[k] = v` on a map (a local, or a variable without indexes): a map is a value."""
        local = self.local_type(target.name, scope)
        var = self.vars.get(target.name)
        t = local if local is not None else self.type_name(var.type) if var is not None and not var.index else UNKNOWN
        if not t.is_map():
            return False
        self.error("E308", f"'{target.name}' is {t.describe()}, a value: an entry is not written in place", target.span,
                   f"write {target.name} = {target.name} + {{key: value}} (the new map replaces the old one)")
        return True

    def no_map_option(self, t: Optional[Type], span, what: str) -> None:
        """E308 for a move's argument or a choice's option that is (or holds) a map: an option is
        told apart by its value, and a map, changed only by making another, is no such key."""
        if t is not None and holds_a_map(t):
            self.error("E308", f"{what} cannot be {t.describe()}", span,
                       "give the keys instead (k in keys(m)), and read the map there: m[k]")
