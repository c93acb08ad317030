"""The checker's typing of maps (`map of K to V`, docs/language.md "Maps"): literals, `m[k]`,
`k in m`, `m + n`, and the functions `keys`, `values` and `get`. A mixin of `Checker`, which
gives `expr`, `error` and the scopes.

E308 is a map used with a key or a value of another type; E309 a key or a value a map cannot
hold (a key that may be none, or another map; a zone, a place whose content changes)."""
from __future__ import annotations

from typing import Optional

from . import ast
from .types import ANY, REAL, compatible, describe, is_map, key_and_value, list_of, map_of, may_be_none, optional, \
    strip_optional

EMPTY_MAP_HINT = "the empty map is {:} ({} is the empty set)"
MAP_FUNCTIONS = ("keys", "values", "get")      # (their signatures: builtins.STDLIB_SIGNATURES)


def one_type(types: set) -> Optional[str]:
    """The type of the keys (or of the values) of a literal: their one type, a fraction among
    whole numbers, a T among nones a T?, a list of T among empty lists; None for different types."""
    found = set(types)
    if not found:
        return ANY
    maybe_none = "none" in found or any(t.endswith("?") for t in found)
    found = {strip_optional(t) for t in found if t != "none"} or {"none"}
    if len(found) > 1 and list_of(ANY) in found and all(t.startswith("list[") for t in found):
        found.discard(list_of(ANY))
    if found == {"int", REAL}:
        found = {REAL}
    if len(found) > 1:
        return None
    (one,) = found
    return optional(one) if maybe_none and one != "none" else one


class MapTyping:
    """What the checker says of maps."""

    def map_type(self, node: ast.MapType) -> str:
        """The text of a written `map of K to V`."""
        key = self.map_key(self.type_name(node.key), node.key.span)
        return map_of(key, self.map_value(self.type_name(node.value), node.value.span))

    def map_key(self, t: str, span) -> str:
        """What may be a key: a value that compares and orders (found at once, gone through in one
        order), never none, nor a zone, nor a map (whose content is no key)."""
        if t.startswith("zone[") or "map[" in t:
            what = "a zone is a place whose content changes" if t.startswith("zone[") else "a map is not a key"
            self.error("E309", f"a map's key cannot be {describe(t)}: {what}", span,
                       "a map's key is a number, a text, true/false, a player, an enum member, a component, "
                       "a cell, or a list or set of these")
            return ANY
        if t != ANY and may_be_none(t):
            self.error("E309", f"a map's key cannot be none, but this is {describe(t)}", span,
                       f"write map of {strip_optional(t)} to ..., without the '?', and look up only keys that are not none")
            return strip_optional(t) if t != "none" else ANY
        return t

    def map_value(self, t: str, span) -> str:
        if t.startswith("zone["):
            self.error("E309", f"a map's value cannot be {describe(t)}: a zone is a place whose content changes", span,
                       "a map may hold the list of a zone's components: list of ...")
            return ANY
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
                                   + " and ".join(sorted({describe(t) for t in given})), node.span)
        key = self.map_key(key, node.entries[0].key.span) if key not in (None, ANY) else ANY
        return map_of(key, self.map_value(value, node.entries[0].value.span) if value not in (None, ANY) else ANY)

    def looked_up(self, t: str, given: str, span) -> None:
        """E308 unless a key of type `given` may be in a map of type t."""
        key = key_and_value(t)[0]
        if not compatible(given, key):
            self.error("E308", f"{describe(t)} is looked up by {describe(key)}, not {describe(given)}", span)

    def map_subscript(self, t: str, node, scope) -> str:
        """m[k]: the value of key k, none when m has no such key."""
        if len(node.indexes) != 1:
            self.error("E208", f"a map is looked up by one key, not {len(node.indexes)}", node.span)
        for index in node.indexes:
            self.looked_up(t, self.expr(index, scope), index.span)
        return optional(key_and_value(t)[1])

    def joined_maps(self, a: str, b: str, node) -> str:
        """m + n: the entries of both, n's value where both have a key."""
        for t, side in ((a, node.left), (b, node.right)):
            if not is_map(t) and t != ANY:
                self.error("E308", f"'+' joins two maps, but this is {describe(t)}", side.span,
                           EMPTY_MAP_HINT if t == "set[any]" else "an entry is added as a map of one: m + {key: value}")
                return a if is_map(a) else b
        if key_and_value(a) == (ANY, ANY):
            return b
        if not compatible(b, a):
            self.error("E308", f"{describe(a)} cannot take the entries of {describe(b)}", node.right.span)
        return a

    def map_function(self, node, args: list) -> str:
        """keys(m), values(m) (in the order of the keys), get(m, k, default)."""
        t = args[0] if args else ANY
        if not is_map(t):
            if t != ANY:
                self.error("E308", f"{node.name} takes a map, not {describe(t)}", node.arguments[0].span)
            return list_of(ANY) if node.name != "get" else ANY
        key, value = key_and_value(t)
        if node.name == "keys":
            return list_of(key)
        if node.name == "values":
            return list_of(value)
        if len(args) > 1:
            self.looked_up(t, args[1], node.arguments[1].span)
        if len(args) > 2 and not compatible(args[2], value):
            self.error("E308", f"the default of get is what {describe(t)} holds, {describe(value)}, "
                               f"not {describe(args[2])}", node.arguments[2].span)
        # the default stands for a missing key: a value that is never none gives a value
        return value if len(args) < 3 or args[2] != "none" else optional(value)

    def map_written(self, target, scope) -> bool:
        """E308 for `m[k] = v` on a map (a local, or a variable without indexes): a map is a value."""
        local = self.local_type(target.name, scope)
        var = self.vars.get(target.name)
        t = local if local is not None else self.type_name(var.type) if var is not None and not var.index else ANY
        if not is_map(t):
            return False
        self.error("E308", f"'{target.name}' is {describe(t)}, a value: an entry is not written in place", target.span,
                   f"write {target.name} = {target.name} + {{key: value}} (the new map replaces the old one)")
        return True

    def no_map_option(self, t: str, span, what: str) -> None:
        """E308 for a move's argument or a choice's option that is (or holds) a map: an option is
        told apart by its value, and a map, changed only by making another, is no such key."""
        if "map[" in t:
            self.error("E308", f"{what} cannot be {describe(t)}", span,
                       "give the keys instead (k in keys(m)), and read the map there: m[k]")
