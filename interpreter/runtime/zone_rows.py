"""Rows of zone keys made once: a comprehension over a fixed domain (a board, an enum, the
players) that reads zones by keys naming its variable, such as `filter(c in Cell where
size(pile[p, c]) > 0)`, iterates over rows (c, ('pile', p, c)) made once per value of the
indexes that stay the same through the loop (here p), instead of building and hashing a new
tuple key on every round (about half the time of such a loop). compile/key_rows.py decides
where; here are the makers the generated module calls, and the one object kept per zone key.
Zone keys never depend on the state: the rows of a compiled game are shared by all its states."""
from __future__ import annotations

MAX_TABLE = 256         # values of the invariant indexes kept at most (then rows made each time)


def rows_maker(table, values, templates, single):
    """f(*invariants) -> the rows of `values` (each value, then its keys made from `templates`,
    (name, template) pairs, with those invariant indexes), kept in `table`. `made_by` says how
    to make it again (a compiled module writes it so)."""
    def rows(*invariants):
        found = [(x, *(canonical_key(key_of(name, template, x, invariants)) for name, template in templates))
                 for x in values]
        if len(table) < MAX_TABLE:
            table[invariants[0] if single else invariants] = found
        return found
    rows.made_by = ("rows_maker", (table, values, templates, single))
    return rows


def row_of_key_maker(by_key, table, rows, single):
    """f(*invariants) -> {zone key: the row that reads it} of the rows `rows` makes (kept in
    `table`), kept in `by_key`: what a change of that key may change (maintained.py)."""
    def make(*invariants):
        made = table.get(invariants[0] if single else invariants) or rows(*invariants)
        found = {zone_key: row for row in made for zone_key in row[1:]}
        if len(by_key) < MAX_TABLE:
            by_key[invariants[0] if single else invariants] = found
        return found
    make.made_by = ("row_of_key_maker", (by_key, table, rows, single))
    return make


# zone key -> the one tuple used for it where a zone is made (State.move, State.deal) and in
# rows of keys: a dict finds a key that is the very object it holds without comparing tuples
# (a key is its values, the same in every game: one table for all)
ZONE_KEYS = {}
MAX_ZONE_KEYS = 100_000      # zone keys given one object at most (then a read compares)


def canonical_key(key):
    """The one object kept for this zone key (ZONE_KEYS)."""
    known = ZONE_KEYS.get(key)
    if known is None:
        if len(ZONE_KEYS) >= MAX_ZONE_KEYS:
            return key
        known = ZONE_KEYS[key] = key
    return known


def key_of(name, template, x, invariants):
    parts = [name]
    for kind, detail in template:
        parts.append(x if kind == "var" else invariants[detail] if kind == "invariant" else detail)
    return tuple(parts)
