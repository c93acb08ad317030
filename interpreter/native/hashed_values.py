"""A set or a map of lists held by a variable in a native kernel (value_sets_source.py): a table
in S hashed by the list's items (open addressing, linear probing), so that `x in seen`, `m[k]`
and `get(m, k, d)` are one lookup and `seen = seen + {x}` one insertion, as the runtime's
frozenset and dict are (runtime/sets.py, value_maps.py).

The table is `S[base]` (its number of entries), then HASHED_ENTRIES slots of HASHED_WIDTH + 2
cells: the key's length + 1 (0: an empty slot), its items, its value (a map's). A key longer
than HASHED_WIDTH items, or an entry past three quarters of the slots, sets the error slot: the
game is played in Python, the same game. The table is part of S, so a copy of the state
(`after`, `can_play`, rollouts) copies it as an array.

What is done with such a variable: `x in v`, `x not in v`, `size(v)`, `v[k]`, `get(v, k, d)`,
`v = v + {...}` and `v = {...}` in place; going through it (`for`, aggregates, binders, `keys`,
`values`) and taking a set whole (`hashed_rows`: its lists sorted in the language's order), and
`v = SET` (emptied, then each list put). A set of lists as a value is a typed List of its rows,
sorted, each once (ROWS_FUNCTIONS); a map of lists is held by a variable only.
"""
from __future__ import annotations

from referee.dsl import ast
from referee.dsl.types import MapOf

from .not_native import NotNative

HASHED_ENTRIES = 256        # a power of two
HASHED_WIDTH = 16           # the items a key holds at most


def untag(node):
    return ast.untag(node)[0]


class HashedValues:
    """The hashed tables of KernelSource's set and map variables of lists."""

    @staticmethod
    def hashed_entries() -> int:
        return HASHED_ENTRIES * 3 // 4

    @staticmethod
    def hashed_size() -> int:
        return 1 + HASHED_ENTRIES * (HASHED_WIDTH + 2)

    @staticmethod
    def hashed_has(slot, item: str) -> str:
        return f"hashed_has(S, {slot.offset}, {item})"

    @staticmethod
    def hashed_get(slot, item: str, default: str) -> str:
        return f"hashed_get(S, {slot.offset}, {item}, {default})"

    def hashed_write(self, slot, node, scope) -> list:
        """`v = v + {...}` (the entries put in place) or `v = {...}` (emptied first): every key and
        value computed before the first is put, as the runtime makes the new value first."""
        value, name = untag(node.value), node.target.name
        if node.target.indexes:
            raise NotNative("a set or a map of lists indexed", node.span)
        literal_types = (ast.MapLiteral, ast.SetLiteral)
        if isinstance(value, ast.Binary) and value.op == "+" and isinstance(untag(value.left), ast.Name) \
                and untag(value.left).id == name and isinstance(untag(value.right), literal_types):
            literal, lines = untag(value.right), []
        elif isinstance(value, literal_types):
            literal, lines = value, [f"hashed_clear(S, {slot.offset})"]
        elif isinstance(slot.type, MapOf):
            raise NotNative(f"a map of lists ({name}) written other than `{name} = {name} + {{...}}`", node.span)
        else:
            return [f"hashed_assign(S, {slot.offset}, {self.expr(value, scope, slot.type)})"]
        t = slot.type
        computed, puts = [], []
        if isinstance(t, MapOf):
            pairs = [(e.key, e.value) for e in getattr(literal, "entries", ())]
        else:
            pairs = [(item, None) for item in getattr(literal, "items", ())]
        for key, entry in pairs:
            k = self.fresh("key")
            computed.append(f"{k} = {self.expr(key, scope, t.key if isinstance(t, MapOf) else t.element)}")
            coded = "0"
            if entry is not None:
                coded = self.fresh("entry")
                computed.append(f"{coded} = {self.expr(entry, scope, t.value)}")
            puts.append(f"hashed_put(S, {slot.offset}, {k}, {coded})")
        return computed + lines + puts


HASHED_FUNCTIONS = f'''
HASHED_ENTRIES = {HASHED_ENTRIES}
HASHED_WIDTH = {HASHED_WIDTH}
HASHED_STRIDE = {HASHED_WIDTH + 2}


@njit
def hashed_slot(S, base, key):
    """Where the key is in the table at base, or the empty slot where it would go (-1: neither)."""
    h = np.uint64(len(key)) * np.uint64(0x9E3779B97F4A7C15)
    for v in key:
        h = (h ^ np.uint64(v)) * np.uint64(0x100000001B3)
    i = np.int64(h >> np.uint64(40)) & (HASHED_ENTRIES - 1)
    for _ in range(HASHED_ENTRIES):
        at = base + 1 + i * HASHED_STRIDE
        if S[at] == 0:
            return at
        if S[at] == len(key) + 1:
            same = True
            for j in range(len(key)):
                if S[at + 1 + j] != key[j]:
                    same = False
                    break
            if same:
                return at
        i = (i + 1) & (HASHED_ENTRIES - 1)
    return -1


@njit
def hashed_has(S, base, key):
    if len(key) > HASHED_WIDTH:         # (never put: a longer key sends the game to Python)
        return False
    at = hashed_slot(S, base, key)
    return at >= 0 and S[at] != 0


@njit
def hashed_get(S, base, key, default):
    if len(key) > HASHED_WIDTH:
        return default
    at = hashed_slot(S, base, key)
    if at >= 0 and S[at] != 0:
        return S[at + 1 + HASHED_WIDTH]
    return default


@njit
def hashed_put(S, base, key, value):
    if len(key) > HASHED_WIDTH:
        S[ERROR] = 1
        return
    at = hashed_slot(S, base, key)
    if at < 0:
        S[ERROR] = 1
        return
    if S[at] == 0:
        if S[base] >= HASHED_ENTRIES * 3 // 4:
            S[ERROR] = 1
            return
        S[at] = len(key) + 1
        S[at + 1:at + 1 + len(key)] = key
        S[base] += 1
    S[at + 1 + HASHED_WIDTH] = value


@njit
def hashed_clear(S, base):
    S[base:base + 1 + HASHED_ENTRIES * HASHED_STRIDE] = 0
'''


# A set of lists as a value (a literal, `+`, a variable taken whole, a function's): a typed List
# of its rows (nested_source.py's form of a list of lists), in the language's order, each once.
ROWS_FUNCTIONS = '''
@njit
def row_order(a, b):
    """-1, 0 or 1: list a against list b in the language's order (item by item, a shorter one
    first when it begins the other; runtime/sets.value_key)."""
    for j in range(min(len(a), len(b))):
        if a[j] != b[j]:
            return -1 if a[j] < b[j] else 1
    if len(a) == len(b):
        return 0
    return -1 if len(a) < len(b) else 1


@njit
def rows_made(rows):
    """{a, b, ...} of lists: sorted (a merge sort, stable), each once."""
    order = np.arange(len(rows))
    spare = np.empty(len(rows), dtype=np.int64)
    width = 1
    while width < len(rows):
        for low in range(0, len(rows), 2 * width):
            middle, high = min(low + width, len(rows)), min(low + 2 * width, len(rows))
            i, j = low, middle
            for k in range(low, high):
                if j >= high or (i < middle and row_order(rows[order[i]], rows[order[j]]) <= 0):
                    spare[k] = order[i]
                    i += 1
                else:
                    spare[k] = order[j]
                    j += 1
        order, spare = spare, order
        width *= 2
    out = List.empty_list(ROW)
    for k in order:
        if len(out) == 0 or row_order(out[len(out) - 1], rows[k]) != 0:
            out.append(rows[k].copy())
    return out


@njit
def rows_has(rows, x):
    low, high = 0, len(rows)
    while low < high:
        middle = (low + high) // 2
        order = row_order(rows[middle], x)
        if order == 0:
            return True
        if order < 0:
            low = middle + 1
        else:
            high = middle
    return False


@njit
def rows_same(a, b):
    if len(a) != len(b):
        return False
    for k in range(len(a)):
        if row_order(a[k], b[k]) != 0:
            return False
    return True


@njit
def hashed_rows(S, base):
    """The keys of a hashed table, in the language's order (what `for` and `keys` go through)."""
    rows = List.empty_list(ROW)
    for i in range(HASHED_ENTRIES):
        at = base + 1 + i * HASHED_STRIDE
        if S[at] != 0:
            rows.append(S[at + 1:at + S[at]].copy())
    return rows_made(rows)


@njit
def hashed_entry_values(S, base):
    """values(m) of a hashed map: its values in the order of their keys."""
    keys = hashed_rows(S, base)
    out = np.empty(len(keys), dtype=np.int64)
    for k in range(len(keys)):
        out[k] = hashed_get(S, base, keys[k], 0)
    return out


@njit
def hashed_assign(S, base, rows):
    """v = a set of lists: the table emptied, then each list put."""
    hashed_clear(S, base)
    for r in rows:
        hashed_put(S, base, r, 0)
'''
