"""Actions whose argument is a list of components, `a(cards in subsets(LIST) where ...)`, in a
native kernel (a mixin of rules_source.KernelSource): "discard any number of cards".

A move's code holds the list as a bit mask of positions in LIST (at most MASK_BITS items: more,
and the game is played in Python); LIST is computed again when the move is run, from the same
state. The moves are listed in the engine's order (runtime.stdlib.subsets: by size, then the
combinations of positions in order), those the `where` and the `require`s allow. Lists whose
cards show the same labels, item by item, are one move, the first legal one (engine/moves.py):
the first subset of a label sequence is the one that takes, for each label in turn, the first
position after the previous one that shows it (`first_alike`). A later subset of that sequence
is the same move when the first one is legal and their cards identical; any other case (the
first one illegal while a later one is legal, or cards of one label that are not identical)
sets the error slot: the engine's answer is played in Python.
"""
from __future__ import annotations

from referee.dsl import ast
from referee.dsl.limits import MAX_LIST
from referee.dsl.types import element_type, named_type

from .not_native import NotNative

MASK_BITS = 40          # a move's code keeps 40 bits beside the action's index


def untag(node):
    return ast.untag(node)[0]


class SubsetsSource:
    """The moves of an action over subsets of a list of components, for KernelSource."""

    def subsets_domain(self, action):
        """The list an action's single binder takes subsets of, or None for other actions."""
        domains = [untag(b.domain) for b in action.binders]
        found = [d for d in domains if isinstance(d, ast.Call) and d.name == "subsets"]
        if not found:
            return None
        if len(domains) != 1 or len(found[0].arguments) != 1:
            raise NotNative("subsets as one binder among others, or of a given size, have no native form yet",
                            found[0].span)
        listed = found[0].arguments[0]
        element = named_type(element_type(self.type_of(listed)))
        if element not in self.game.types.components:
            raise NotNative(f"subsets of {element_type(self.type_of(listed)).text}s as a move's argument have no native form yet", found[0].span)
        return listed

    def subsets_action(self, index: int, action, scope, deciding: str) -> bool:
        """moves_, any_ and run_ of an action over subsets (legal_ and act_ take the list as
        they take any argument); False for other actions."""
        listed = self.subsets_domain(action)
        if listed is None:
            return False
        items = self.expr(listed, scope, self.type_of(listed))     # (its binder is not in it)
        name = action.name
        self.define(f"def moves_{name}(S, cur, buf, start):",
                    [f"items = {items}", "h = len(items)", "n = start",
                     f"if h > {MASK_BITS} or (1 << h) > {MAX_LIST} or not valid_ids(items):",
                     "    S[ERROR] = 1", "    return n",
                     f"labels = {self.label_read('items')}", "for size in range(h + 1):",
                     "    at = np.arange(size)", "    while True:", "        cards = items[at]",
                     f"        if legal_{name}(S, cur, cards):",
                     "            first = first_alike(labels, at)",
                     "            if (first == at).all():",
                     "                if n >= MOST_MOVES:", "                    S[ERROR] = 1", "                    return n",
                     f"                buf[n] = {index * (1 << MASK_BITS)} + mask_of(at)", "                n += 1",
                     "            else:",
                     "                alike = items[first]",
                     f"                if not legal_{name}(S, cur, alike) or not identical({self.class_arguments()}alike, cards):",
                     "                    S[ERROR] = 1", "                    return n",
                     "        if not next_combination(at, h):", "            break",
                     "return n"])
        self.define(f"def any_{name}(S, cur):",
                    [f"items = {items}", "h = len(items)", f"if h > {MASK_BITS}:", "    S[ERROR] = 1",
                     "    return False", "for size in range(h + 1):", "    at = np.arange(size)", "    while True:",
                     f"        if legal_{name}(S, cur, items[at]):", "            return True",
                     "        if not next_combination(at, h):", "            break", "return False"])
        self.define(f"def run_{name}(S, cur, move{deciding}):",
                    [f"items = {items}", f"act_{name}(S, cur, items[positions_of(move, len(items))]{deciding})"])
        self.subsets_helpers()
        return True

    def subsets_helpers(self) -> None:
        if getattr(self, "has_subsets", False):
            return
        self.has_subsets = True
        self.define("def next_combination(at, h):",
                    ['"""The next combination of positions (itertools.combinations\' order), in place; False after the last."""',
                     "size = len(at)", "k = size - 1", "while k >= 0 and at[k] == h - size + k:", "    k -= 1",
                     "if k < 0:", "    return False", "at[k] += 1", "for j in range(k + 1, size):",
                     "    at[j] = at[j - 1] + 1", "return True"])
        self.define("def first_alike(labels, at):",
                    ['"""The first positions whose labels are those of `at`, in order (the greedy match)."""',
                     "first = np.empty(len(at), dtype=np.int64)", "q = 0", "for k in range(len(at)):",
                     "    while labels[q] != labels[at[k]]:", "        q += 1", "    first[k] = q", "    q += 1",
                     "return first"])
        self.define(f"def identical({self.class_arguments()}a, b):",     # (classes in S where made in play)
                    ["for k in range(len(a)):", f"    if {self.same_read('a[k]')} != {self.same_read('b[k]')}:",
                     "        return False", "return True"])
        self.define("def mask_of(at):", ["mask = 0", "for k in at:", "    mask |= 1 << k", "return mask"])
        self.define("def positions_of(move, h):",
                    ["at = np.empty(h, dtype=np.int64)", "n = 0", "for k in range(h):",
                     "    if (move >> k) & 1:", "        at[n] = k", "        n += 1", "return at[:n]"])
        self.define("def valid_ids(items):",
                    ["for x in items:", "    if x < 0 or x >= COMPONENTS:", "        return False", "return True"])
