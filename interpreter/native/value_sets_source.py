"""Sets (`set of T`) and maps of values (`map of K to V`) in a native kernel (a mixin of
rules_source.KernelSource; the runtime's are runtime/sets.py and runtime/value_maps.py).

Two forms, by what they hold:
- values of one coded type whose codes follow the language's order of values (numbers, bools,
  seats, enum members, cells, components): a set is an int64 array of its codes, sorted, each
  once, and a map a (2, n) array, its keys sorted in row 0 and their values in row 1. A `for`,
  an aggregate or a binder goes through the array as it lies: the Python runtime's order. A
  variable has a row of S per cell of its index domains (its size, then room for the values its
  element type has, as a list variable's: list_vars_source.py), read as a copy (a set is a
  value) and asked in place (`x in s`, `m[k]`: a binary search in S, no copy). A set variable
  of at most 62 consecutive codes (seats, an enum, bools, a board's cells) is one word of bits
  per cell instead: `x in s` one bit, `s = s + {...}` or'ed in place.
- lists (positions, for superko and repetition rules): a variable only, a table hashed by the
  list's items in S (hashed_values.py), copied with the state, so `after` and `can_play` stay
  array copies. Past its room the game goes to Python, as a game past a trail's work does.

Texts in a set or as a map's keys are coded in their order first (ordered_texts.py: refused in a
game that makes texts in play); fractions there are refused (NotNative).
"""
from __future__ import annotations

import attrs
from referee.dsl import ast
from referee.dsl.types import BOOL, INT, PLAYER, TEXT, ListOf, MapOf, SetOf, Type, named_type

from .hashed_values import HASHED_FUNCTIONS, ROWS_FUNCTIONS, HashedValues
from .not_native import NotNative
from .ordered_texts import check_text_order

INT_NONE = -(2 ** 63)


@attrs.frozen
class ValueSlot:
    offset: int
    axes: tuple             # per index: (first code, size, enum members or ())
    room: int               # sorted: the values (entries) a cell holds at most; hashed: its entries
    type: Type              # its SetOf or MapOf
    hashed: bool            # a table hashed by lists (hashed_values.py), else sorted codes
    bits: tuple = ()        # a set of a small domain: (its first code, how many) as one word's bits

    @property
    def is_map(self) -> bool:
        return isinstance(self.type, MapOf)

    @property
    def cell_size(self) -> int:
        return 1 if self.bits else 1 + self.room * (2 if self.is_map else 1)


def untag(node):
    return ast.untag(node)[0]


def held_type(t: Type) -> Type:
    """What a set holds or a map's keys are."""
    t = t.without_none()
    return t.key if isinstance(t, MapOf) else t.element


class ValueSetsSource(HashedValues):
    """Sets and maps of values for KernelSource (its `expr`, `code_of`, `list_room`, `type_of`...)."""

    value_vars: dict

    # ---- the layout -----------------------------------------------------------------------
    def lay_out_value_var(self, name: str, t: Type, axes: tuple, span) -> None:
        """Room in S for a variable holding a set or a map, and its first value (zones_setup)."""
        if not hasattr(self, "value_vars"):
            self.value_vars, self.value_defaults = {}, []
        t = t.without_none()
        held = held_type(t)
        if isinstance(t, MapOf):
            self.value_coding(t.value, span, "a map's values")
        hashed = self.is_hashed(held, span)
        cells = 1
        for _, size, _ in axes:
            cells *= size
        if hashed:
            if axes:
                raise NotNative(f"a variable indexed holding a set or a map of lists ({name})", span)
            slot = ValueSlot(self.size, axes, self.hashed_entries(), t, True)
            self.size += self.hashed_size()
        else:
            bits = self.small_domain(held) if isinstance(t, SetOf) else ()
            slot = ValueSlot(self.size, axes, self.value_room(held, span), t, False, bits)
            self.size += cells * slot.cell_size
        self.value_vars[name] = slot
        self.uses_values = True
        self.value_defaults += self.default_lines(slot, self.game.var_defaults[name], cells, span)

    def value_room(self, held: Type, span) -> int:
        """The values a set or a map's keys hold at most: texts, every text the game codes (all
        coded before: ordered_texts.py) and none; else as a list variable's room."""
        if held.without_none() == TEXT:
            return len(self.text_codes) + 1
        return self.list_room(held, span)

    def small_domain(self, held: Type) -> tuple:
        """(the first code, how many) of a type of at most 62 consecutive codes (seats, an enum's
        members, bools, a board's cells): a set of it is a word of bits; else ()."""
        held, named = held.without_none(), named_type(held)
        if held == PLAYER:
            domain = (1, self.players)
        elif held == BOOL:
            domain = (0, 2)
        elif named in self.game.enum_members:
            domain = (0, len(self.game.enum_members[named]))
        elif named in self.boards.geometries:
            domain = self.boards.range_of(named)
        else:
            return ()
        return domain if domain[1] <= 62 else ()

    def is_hashed(self, held: Type, span) -> bool:
        """Whether values of type `held` go in a hashed table (lists), else sorted (codes)."""
        held = held.without_none()
        if isinstance(held, ListOf):
            self.value_coding(held.element, span, "a list in a set or a map")
            return True
        self.value_coding(held, span, "a set or a map's keys")
        if held == TEXT and getattr(self, "ordered_texts", False) is False:
            raise NotNative("a set or a map of texts (their codes do not follow the order of texts)", span)
        return False

    def value_coding(self, t: Type, span, what: str) -> None:
        """Refuses a type whose values have no native code (a list, a fraction...)."""
        base, named = t.without_none(), named_type(t)
        if base in (INT, BOOL, PLAYER, TEXT) or named in self.game.enum_members \
                or named in self.boards.geometries or named in self.game.types.components:
            return
        raise NotNative(f"{what} of type {t.text} have no native form yet", span)

    def default_lines(self, slot: ValueSlot, value, cells: int, span) -> list:
        """The setup's lines writing a variable's first value (S is all zeros before)."""
        t = slot.type
        if slot.hashed:
            entries = value.items() if slot.is_map else ((k, 0) for k in value)
            lines = []
            for key, v in entries:
                codes = ", ".join(str(self.code_of(x, t_x, span)) for x, t_x in
                                  zip(key, [held_type(t).element] * len(key)))
                coded = self.code_of(v, t.value, span) if slot.is_map else 0
                lines.append(f"hashed_put(S, {slot.offset}, np.array([{codes}], dtype=np.int64), {coded})")
            return lines
        keys = sorted(self.code_of(k, held_type(t), span) for k in value)
        if not keys:
            return []
        if slot.bits:
            mask = sum(1 << (k - slot.bits[0]) for k in keys)
            return [f"S[{slot.offset}:{slot.offset + cells}] = {mask}"]
        if len(keys) > slot.room:
            raise NotNative("a first value larger than its variable's room", span)
        row = [len(keys)] + keys + [0] * (slot.room - len(keys))
        if slot.is_map:
            by_code = {self.code_of(k, t.key, span): self.code_of(v, t.value, span) for k, v in value.items()}
            row += [by_code[k] for k in keys] + [0] * (slot.room - len(keys))
        return [f"S[{slot.offset + k * slot.cell_size}:{slot.offset + (k + 1) * slot.cell_size}] = np.array({row})"
                for k in range(cells)]

    def zones_setup(self) -> list:
        return super().zones_setup() + list(getattr(self, "value_defaults", ()))

    def value_functions(self) -> str:
        """The helpers of the kernels that hold sets or maps (none in the others: their sources,
        and so their compiled kernels, stay as they were)."""
        check_text_order(self)
        return VALUE_SET_FUNCTIONS + HASHED_FUNCTIONS + ROWS_FUNCTIONS if getattr(self, "uses_values", False) else ""

    # ---- which expressions are sets and maps ------------------------------------------------
    def value_var(self, node, scope):
        """(the slot, the indexes) of a Name or a Subscript of a set or map variable, else None."""
        node = untag(node)
        slots = getattr(self, "value_vars", {})
        local = scope.names if scope is not None else {}
        if isinstance(node, ast.Name) and node.id in slots and node.id not in local:
            return slots[node.id], ()
        if isinstance(node, ast.Subscript):
            obj = untag(node.obj)
            if isinstance(obj, ast.Name) and obj.id in slots and obj.id not in local \
                    and slots[obj.id].axes:         # (else `m[k]`: a map's value)
                return slots[obj.id], node.indexes
        return None

    def set_or_map_type(self, node, scope):
        """The SetOf or MapOf of an expression (a variable's declared one), else None."""
        held = self.value_var(node, scope)
        t = held[0].type if held is not None else self.checked.type_of(untag(node))
        if t is None:
            return None
        t = t.without_none()
        return t if isinstance(t, (SetOf, MapOf)) else None

    def value_cell(self, slot: ValueSlot, indexes, scope, span) -> str:
        """Where a sorted variable's cell starts in S (-1: an index none or outside)."""
        return self.row_cell(slot.offset, slot.cell_size, slot.axes, indexes, scope, span)

    def sorted_value(self, node, scope) -> str:
        """A set or a map as a value: sorted codes, or (a set of lists) its sorted rows; a map of
        lists has no value form (its variable is asked in place)."""
        t = self.set_or_map_type(node, scope)
        held = self.value_var(node, scope)
        lists = t is not None and self.is_hashed(held_type(t), untag(node).span)
        if lists and isinstance(t, MapOf):
            raise NotNative("a map of lists taken whole has no native form yet", untag(node).span)
        if held is not None and held[0].hashed:
            return f"hashed_rows(S, {held[0].offset})"
        return self.expr(node, scope, t)

    def holds_lists(self, t) -> bool:
        return isinstance(t, SetOf) and isinstance(t.element.without_none(), ListOf)

    # ---- hooks of the other mixins ----------------------------------------------------------
    def over_rows(self, binder) -> bool:
        t = self.set_or_map_type(binder.domain, None)
        if t is not None and isinstance(held_type(t).without_none(), ListOf):
            held = self.value_var(binder.domain, None)
            if isinstance(t, MapOf) and (held is None or not held[0].hashed):
                raise NotNative("an action's argument over a map of lists", binder.span)
            return True         # (its rows in the language's order: the move codes a row's position)
        return super().over_rows(binder)

    def rows_of(self, domain, scope) -> str:
        held = self.value_var(domain, scope)
        if held is not None and held[0].hashed:          # (a map's keys too)
            return f"hashed_rows(S, {held[0].offset})"
        return super().rows_of(domain, scope)

    def list_var_value(self, node, scope):
        held = self.value_var(node, scope)
        if held is None:
            return super().list_var_value(node, scope)
        slot, indexes = held
        if slot.hashed and not slot.is_map:
            return f"hashed_rows(S, {slot.offset})"
        if slot.hashed:
            raise NotNative("a map of lists taken whole has no native form yet", untag(node).span)
        cell = self.value_cell(slot, indexes, scope, untag(node).span)
        if slot.bits:
            return f"bits_read(S, {cell}, {slot.bits[0]})"
        return f"map_read(S, {cell}, {slot.room})" if slot.is_map else f"list_read(S, {cell})"

    def list_var_write(self, node, scope):
        if not isinstance(node, (ast.Assign, ast.Augment)) or not isinstance(node.target, ast.Target):
            return super().list_var_write(node, scope)
        slots = getattr(self, "value_vars", {})
        target = node.target
        if target.name not in slots or target.name in scope.names:
            return super().list_var_write(node, scope)
        slot = slots[target.name]
        if isinstance(node, ast.Augment):
            raise NotNative(f"the update {node.op} of a set or a map", node.span)
        if slot.hashed:
            return self.hashed_write(slot, node, scope)
        cell = self.value_cell(slot, target.indexes, scope, target.span)
        if slot.bits:
            return self.bits_write(slot, node, cell, scope)
        value = self.expr(node.value, scope, slot.type)
        return [f"{'map' if slot.is_map else 'list'}_write(S, {cell}, {slot.room}, {value})"]

    def bits_write(self, slot: ValueSlot, node, cell: str, scope) -> list:
        """`s = VALUE` of a set of a small domain; `s = s + VALUE` or'ed in place."""
        value, target = untag(node.value), node.target
        first, size = slot.bits
        read = self.value_var(value.left, scope) if isinstance(value, ast.Binary) and value.op == "+" else None
        same = read is not None and read[0] is slot and self.same_indexes(read[1], target.indexes, scope)
        added = self.expr(value.right if same else value, scope, slot.type)
        lines = [f"at = {cell}", "if at < 0:", "    S[ERROR] = 1", "    return"]
        return lines + [f"S[at] = {'S[at] | ' if same else ''}bits_of(S, {added}, {first}, {size})"]

    def same_indexes(self, read, written, scope) -> bool:
        """Whether two variables' indexes are the same names or numbers (so the same cell)."""
        simple = (ast.Name, ast.Integer)
        if not all(isinstance(untag(i), simple) for i in (*read, *written)):
            return False
        return [self.expr(i, scope, self.type_of(i)) for i in read] == \
            [self.expr(i, scope, self.type_of(i)) for i in written]

    def visit_SetLiteral(self, node, scope, want):
        t = self.known_type(node, want).without_none()
        if not isinstance(t, SetOf):
            raise NotNative("a set of values of no known type", node.span)
        if self.is_hashed(t.element, node.span):       # (lists: sorted rows)
            rows = "nested_empty()"
            for item in node.items:
                rows = f"nested_with({rows}, {self.expr(item, scope, t.element)})"
            return f"rows_made({rows})"
        if not node.items:
            return "np.empty(0, dtype=np.int64)"
        items = ", ".join(self.expr(i, scope, t.element) for i in node.items)
        return f"np.unique(np.array([{items}], dtype=np.int64))"

    def visit_MapLiteral(self, node, scope, want):
        t = self.known_type(node, want).without_none()
        if not isinstance(t, MapOf) or self.is_hashed(t.key, node.span):
            raise NotNative("a map of lists as a value has no native form yet", node.span)
        self.value_coding(t.value, node.span, "a map's values")
        if not node.entries:
            return "np.empty((2, 0), dtype=np.int64)"
        keys = ", ".join(self.expr(e.key, scope, t.key) for e in node.entries)
        values = ", ".join(self.expr(e.value, scope, t.value) for e in node.entries)
        return f"map_made(np.array([{keys}], dtype=np.int64), np.array([{values}], dtype=np.int64))"

    def joined_lists(self, node, scope, want):
        t = self.set_or_map_type(node, scope) if node.op == "+" else None
        if t is None:
            return super().joined_lists(node, scope, want)
        left, right = (self.sorted_value(side, scope) for side in (node.left, node.right))
        if self.holds_lists(t):
            return f"rows_made(nested_join({left}, {right}))"
        return f"{'map_joined' if isinstance(t, MapOf) else 'set_union'}({left}, {right})"

    def zone_member(self, node, scope):
        t = self.set_or_map_type(node.collection, scope)
        if t is None:
            return super().zone_member(node, scope)
        item = self.expr(node.item, scope, held_type(t))
        held = self.value_var(node.collection, scope)
        if held is not None and held[0].hashed:
            return self.hashed_has(held[0], item)
        if held is not None:            # (in place: no copy of the row)
            slot, indexes = held
            cell = self.value_cell(slot, indexes, scope, node.span)
            if slot.bits:
                return f"bits_has(S, {cell}, {item} - {slot.bits[0]}, {slot.bits[1]})"
            return f"row_has(S, {cell}, {item})"
        value = self.sorted_value(node.collection, scope)
        if self.holds_lists(t):
            return f"rows_has({value}, {item})"
        return f"set_has({value}[0], {item})" if isinstance(t, MapOf) else f"set_has({value}, {item})"

    def zone_domain(self, domain, scope, var: str, copy: bool):
        t = self.set_or_map_type(domain, scope)
        if t is None:
            return super().zone_domain(domain, scope, var, copy)
        held = self.value_var(domain, scope)
        if held is not None and held[0].hashed:        # (a map's keys too)
            keys = f"hashed_rows(S, {held[0].offset})"
        else:
            value = self.sorted_value(domain, scope)
            keys = f"{value}[0]" if isinstance(t, MapOf) else value
        return [f"items_{var} = {keys}", f"for {var} in items_{var}:"], f"len(items_{var})"

    def list_item(self, node, scope):
        t = self.set_or_map_type(node.obj, scope) if len(node.indexes) == 1 else None
        if not isinstance(t, MapOf):
            return super().list_item(node, scope)
        return self.map_lookup(node.obj, node.indexes[0], self.none_of(t.value), scope)

    def map_lookup(self, m, key, default: str, scope) -> str:
        t = self.set_or_map_type(m, scope)
        item = self.expr(key, scope, t.key)
        held = self.value_var(m, scope)
        if held is not None and held[0].hashed:
            return self.hashed_get(held[0], item, default)
        if held is not None:            # (in place: no copy of the row)
            cell = self.value_cell(held[0], held[1], scope, untag(m).span)
            return f"row_get(S, {cell}, {held[0].room}, {item}, {default})"
        return f"map_get({self.sorted_value(m, scope)}, {item}, {default})"

    def value_call(self, node, scope):
        args = node.arguments
        t = self.set_or_map_type(args[0], scope) if args and node.name in ("size", "get", "keys", "values") else None
        if t is None:
            return super().value_call(node, scope)
        held = self.value_var(args[0], scope)
        if node.name == "size" and len(args) == 1:
            if held is not None and held[0].hashed:
                return f"S[{held[0].offset}]"
            if held is not None:
                cell = self.value_cell(held[0], held[1], scope, node.span)
                return f"bits_count(S, {cell})" if held[0].bits else f"row_size(S, {cell})"
            value = self.sorted_value(args[0], scope)
            return f"{value}.shape[1]" if isinstance(t, MapOf) else f"len({value})"
        if node.name == "get" and len(args) == 3 and isinstance(t, MapOf):
            return self.map_lookup(args[0], args[1], self.expr(args[2], scope, t.value), scope)
        if node.name in ("keys", "values") and len(args) == 1 and held is not None and held[0].hashed:
            return f"hashed_{'rows' if node.name == 'keys' else 'entry_values'}(S, {held[0].offset})"
        if node.name in ("keys", "values") and len(args) == 1 and isinstance(t, MapOf):
            return f"{self.sorted_value(args[0], scope)}[{0 if node.name == 'keys' else 1}].copy()"
        return super().value_call(node, scope)

    def lists_compared(self, node, scope):
        t = self.set_or_map_type(node.left, scope) if node.op in ("==", "!=") else None
        if t is None or isinstance(untag(node.right), ast.Nothing):
            return super().lists_compared(node, scope)
        left, right = (self.sorted_value(side, scope) for side in (node.left, node.right))
        same = f"{'rows_same' if self.holds_lists(t) else 'same_values'}({left}, {right})"
        return same if node.op == "==" else f"(not {same})"


VALUE_SET_FUNCTIONS = '''
@njit
def bits_of(S, codes, first, size):
    """A set of a small domain as a word: bit k for the code first + k."""
    word = 0
    for code in codes:
        if not 0 <= code - first < size:
            S[ERROR] = 1
            return 0
        word |= 1 << (code - first)
    return word


@njit
def bits_read(S, at, first):
    """A word's set as its codes, ascending (the language's order)."""
    if at < 0:
        S[ERROR] = 1
        return np.empty(0, dtype=np.int64)
    word = S[at]
    out = np.empty(64, dtype=np.int64)
    n = 0
    k = 0
    while word:
        if word & 1:
            out[n] = first + k
            n += 1
        word >>= 1
        k += 1
    return out[:n].copy()


@njit
def bits_has(S, at, k, size):
    if at < 0:
        S[ERROR] = 1
        return False
    return 0 <= k < size and (S[at] >> k) & 1 == 1


@njit
def bits_count(S, at):
    if at < 0:
        S[ERROR] = 1
        return 0
    word = S[at]
    n = 0
    while word:
        word &= word - 1
        n += 1
    return n


@njit
def set_has(items, x):
    """x in a set (its codes sorted): a binary search."""
    at = np.searchsorted(items, x)
    return at < len(items) and items[at] == x


@njit
def row_has(S, at, x):
    """x in a set or a map variable's row, in place."""
    if at < 0:
        S[ERROR] = 1
        return False
    return set_has(S[at + 1:at + 1 + S[at]], x)


@njit
def row_get(S, at, room, key, default):
    """m[k] or get(m, k, d) of a map variable's row, in place."""
    if at < 0:
        S[ERROR] = 1
        return default
    n = S[at]
    found = np.searchsorted(S[at + 1:at + 1 + n], key)
    if found < n and S[at + 1 + found] == key:
        return S[at + 1 + room + found]
    return default


@njit
def row_size(S, at):
    if at < 0:
        S[ERROR] = 1
        return 0
    return S[at]


@njit
def set_union(a, b):
    """s + t: the codes of both, sorted, each once."""
    out = np.empty(len(a) + len(b), dtype=np.int64)
    i = j = n = 0
    while i < len(a) or j < len(b):
        if j >= len(b) or (i < len(a) and a[i] < b[j]):
            out[n] = a[i]
            i += 1
        elif i >= len(a) or b[j] < a[i]:
            out[n] = b[j]
            j += 1
        else:
            out[n] = a[i]
            i += 1
            j += 1
        n += 1
    return out[:n]


@njit
def map_made(keys, values):
    """{k: v, ...}: the keys sorted, a key given twice its last value."""
    order = np.argsort(keys, kind="mergesort")
    out = np.empty((2, len(keys)), dtype=np.int64)
    n = 0
    for k in order:
        if n > 0 and out[0, n - 1] == keys[k]:
            out[1, n - 1] = values[k]
        else:
            out[0, n] = keys[k]
            out[1, n] = values[k]
            n += 1
    return out[:, :n].copy()


@njit
def map_joined(a, b):
    """m + n: the entries of both, n's value where both have a key."""
    out = np.empty((2, a.shape[1] + b.shape[1]), dtype=np.int64)
    i = j = n = 0
    while i < a.shape[1] or j < b.shape[1]:
        if j >= b.shape[1] or (i < a.shape[1] and a[0, i] < b[0, j]):
            out[0, n], out[1, n] = a[0, i], a[1, i]
            i += 1
        else:
            if i < a.shape[1] and a[0, i] == b[0, j]:
                i += 1
            out[0, n], out[1, n] = b[0, j], b[1, j]
            j += 1
        n += 1
    return out[:, :n].copy()


@njit
def map_get(m, key, default):
    at = np.searchsorted(m[0], key)
    if at < m.shape[1] and m[0, at] == key:
        return m[1, at]
    return default


@njit
def map_read(S, at, room):
    if at < 0:
        S[ERROR] = 1
        return np.empty((2, 0), dtype=np.int64)
    n = S[at]
    out = np.empty((2, n), dtype=np.int64)
    out[0] = S[at + 1:at + 1 + n]
    out[1] = S[at + 1 + room:at + 1 + room + n]
    return out


@njit
def map_write(S, at, room, m):
    n = m.shape[1]
    if at < 0 or n > room:
        S[ERROR] = 1
        return
    S[at] = n
    S[at + 1:at + 1 + n] = m[0]
    S[at + 1 + room:at + 1 + room + n] = m[1]


@njit
def same_values(a, b):
    """Two sets (or two maps) are equal: the same codes (the same keys, with equal values)."""
    if a.shape != b.shape:
        return False
    return np.all(a == b)
'''
