"""Moves of identical components listed once in a native kernel (a mixin of
rules_source.KernelSource), as the engine lists them (engine/moves.py `merge_by_labels`): two
moves of one action whose arguments are equal, or components of the same label, are one move,
the first listed; if their components are not identical (the same label, other attributes)
that is the engine's error, flagged (the game is played in Python).

Each listing keeps a small hash table of the moves it kept, keyed by the move with its
components replaced by their label class (the first component of that label), so a move is
told apart from those before it in constant time, not by a scan of them: the table (pairs of a
key and where its move lies in buf) starts at ALIKE_SLOTS slots and doubles when half full.
"""
from __future__ import annotations

ALIKE_SLOTS = 32

ALIKE_FUNCTIONS = '''
@njit
def alike_slot(table, key):
    """Where key is in the table, or the empty slot where it goes (linear probing)."""
    mask = len(table) // 2 - 1
    h = (key ^ (key >> 10) ^ (key >> 20) ^ (key >> 30) ^ (key >> 40)) & mask
    while table[2 * h + 1] >= 0 and table[2 * h] != key:
        h = (h + 1) & mask
    return h


@njit
def alike_grown(table):
    """The table with twice the slots, the same pairs."""
    bigger = np.full(2 * len(table), -1, dtype=np.int64)
    for h in range(len(table) // 2):
        if table[2 * h + 1] >= 0:
            g = alike_slot(bigger, table[2 * h])
            bigger[2 * g] = table[2 * h]
            bigger[2 * g + 1] = table[2 * h + 1]
    return bigger
'''


class AlikeSource:
    """The listing of an action's moves where components look alike, for KernelSource (its
    `game`, `define`, `label_class`...)."""

    def alike_moves(self, action_name: str, binders: int, bits: int):
        """(the lines before the action's loops, the lines that list `code`, a legal move, in
        buf[n]) where two components look alike and the action takes one; else None."""
        index = next(k for k, a in enumerate(self.game.actions) if a.name == action_name)
        components = [k for k, component in enumerate(self.game.argument_is_component[index][:binders]) if component]
        if not components or len(set(self.label_class)) == len(self.label_class):
            return None
        if not getattr(self, "alike_helpers", False):
            self.alike_helpers = True
            self.defs.append(ALIKE_FUNCTIONS.strip())
        mask = (1 << bits) - 1
        for kind, read in (("key", self.label_read), ("same", self.same_read)):
            swapped = "".join(f" - (x{k} << {bits * k}) + ({read(f'x{k}')} << {bits * k})" for k in components)
            self.define(f"def alike_{kind}_{action_name}({self.class_arguments()}code):",
                        [f"x{k} = (code >> {bits * k}) & {mask}" for k in components] + [f"return code{swapped}"])
        before = [f"table = np.full({2 * ALIKE_SLOTS}, -1, dtype=np.int64)"]
        classes = self.class_arguments()
        each = [f"key = alike_key_{action_name}({classes}code)", "if 4 * (n - start + 1) > len(table):",
                "    table = alike_grown(table)", "h = alike_slot(table, key)", "first = table[2 * h + 1]",
                "if first < 0:", "    table[2 * h] = key", "    table[2 * h + 1] = n", "    buf[n] = code",
                "    n += 1",
                f"elif alike_same_{action_name}({classes}buf[first]) != alike_same_{action_name}({classes}code):",
                "    S[ERROR] = 1", "    return n"]
        return before, each
