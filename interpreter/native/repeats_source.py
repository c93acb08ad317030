"""Moves of equal values listed once in a native kernel (a mixin of rules_source.KernelSource),
as the engine lists them (engine/moves.py `named_once`: one move a name, the first): an
argument over a list may meet a value twice (`split_text("ab/c/ab", "/")`, a list param
`[1, 2, 1]`, a function's list), and equal arguments make equal codes (a row of a list of lists
is coded by the position of the first row equal to it). Only actions with such a
binder look for each code among those listed before: in buf while the listing is short (no
allocation, the usual case), then in alike_source.py's hash table, built once the listing reaches
SCANNED_MOVES (a listing may be long: the pairs of two lists); the others list as before.
"""
from __future__ import annotations

from referee.dsl.types import ListOf

from .alike_source import ALIKE_FUNCTIONS, ALIKE_SLOTS

SCANNED_MOVES = 32      # a listing this short is searched in buf; a longer one gets a hash table


class RepeatsSource:
    """The listing lines of an action whose arguments may repeat, for KernelSource (its `defs`,
    `type_of`, `distinct_domain`)."""

    def arguments_may_repeat(self, action) -> bool:
        """Whether a binder's domain is a list that may hold a value twice."""
        return any(isinstance(self.type_of(b.domain).without_none(), ListOf) and not self.distinct_domain(b.domain)
                   for b in action.binders)

    def listed_once(self, action, code: str):
        """(the lines before the action's loops, the lines that put `code`, a legal move, in
        buf[n] unless listed before), or None where the action's arguments never repeat."""
        if not self.arguments_may_repeat(action):
            return None
        if not getattr(self, "alike_helpers", False):
            self.alike_helpers = True
            self.defs.append(ALIKE_FUNCTIONS.strip())
        if not getattr(self, "scan_helper", False):
            self.scan_helper = True
            self.define("def alike_table_of(buf, start, n):", [
                f"size = {2 * ALIKE_SLOTS}", "while 4 * (n - start + 1) > size:", "    size *= 2",
                "table = np.full(size, -1, dtype=np.int64)", "for k in range(start, n):",
                "    h = alike_slot(table, buf[k])", "    table[2 * h] = buf[k]", "    table[2 * h + 1] = k", "return table"])
        before = ["listed_codes = buf[:0]"]
        each = [f"code = {code}", f"if n - start < {SCANNED_MOVES}:", "    seen_at = start", "    while seen_at < n and buf[seen_at] != code:",
                "        seen_at += 1", "    if seen_at == n:", "        buf[n] = code", "        n += 1", "else:",
                "    if len(listed_codes) == 0:", "        listed_codes = alike_table_of(buf, start, n)",
                "    elif 4 * (n - start + 1) > len(listed_codes):", "        listed_codes = alike_grown(listed_codes)",
                "    h = alike_slot(listed_codes, code)", "    if listed_codes[2 * h + 1] < 0:", "        listed_codes[2 * h] = code",
                "        listed_codes[2 * h + 1] = n", "        buf[n] = code", "        n += 1"]
        return before, each

    def row_code(self, var: str) -> str:
        """The code of an argument over a list of lists: the position of the first row equal to
        the row at `at_VAR` (nested_source.py `argument_loop`)."""
        if not getattr(self, "first_row_helper", False):
            self.first_row_helper = True
            self.define("def first_row(rows, at):", [
                "row = rows[at]", "for k in range(at):", "    other = rows[k]",
                "    if len(other) == len(row) and (other == row).all():", "        return k", "return at"])
        return f"first_row(items_{var}, at_{var})"
