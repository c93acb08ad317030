"""Explicit chance in a native kernel (a mixin of rules_source.KernelSource). A game loaded with
`chance="explicit"` (docs/language.md, "Explicit chance": the adapters' and solvers' games) stops
at a chance node at each shuffle and at each pick given to a `let` or an assignment (runtime/
chance.py), where the RandomBot samples an outcome by its odds (play/bots.py sample_chance: its
generator's random(), then the outcomes' probabilities taken off it in order). The kernel draws
them so, from the bot's generator: the options that look the same (components of one label
class, equal values) one outcome, as likely as they are many, with no node where there is one
outcome; each node a move (counted, stopped at max_moves, in analyze's trail as a "(choice)" of
seat -1). A shuffle is a node per position from the top down, each outcome swapped into place.

A function that holds a chance node takes the decision's arrays as one that decides
(decisions_source.py), and so does the setup. Refused where Python draws from the game's
stream instead (a pick of a guard's let; a procedure with a chance node run by `after`, refused
as a deciding one) and picks among values the kernel does not code as one word (a text is
one: its code).
"""
from __future__ import annotations

from referee.dsl import ast
from referee.dsl.types import BOOL, INT, PLAYER, TEXT, ListOf, element_type, named_type

from ..compile.lower_actions import is_pick
from .decisions_source import CHOICE, DECISION_ARGUMENTS
from .not_native import NotNative

CHANCE_SEAT = -1            # the seat of a chance node in analyze's actions (runtime CHANCE)


def untag(node):
    return ast.untag(node)[0]


class ChanceSource:
    """Chance nodes for KernelSource (its game, program, expr, statement, sequence...)."""

    def is_chance_node(self, node) -> bool:
        """Whether a statement stops at a chance node (explicit chance)."""
        if not self.game.explicit_chance:
            return False
        return isinstance(node, ast.Shuffle) or (isinstance(node, (ast.Let, ast.Assign)) and is_pick(untag(node.value)))

    def refuse_chance_nodes(self) -> None:
        """Checks made before the layout: what the kernel's chance nodes do not cover."""
        if not self.game.explicit_chance:
            return
        for node in ast.walk(self.program.parts()):
            if isinstance(node, ast.Assign) and is_pick(untag(node.value)) and node.target.__class__ is not ast.Target:
                raise NotNative("a pick as a chance node into other than a variable or a local", node.span)

    def setup_arguments(self) -> str:
        """What setup_effects takes besides S and cur: the decision's arrays where it draws chance."""
        setup = self.program.setup
        if setup is None or not self.game.explicit_chance:
            return ""
        nodes = list(ast.walk(setup.body))
        if any(self.is_chance_node(n) or (isinstance(n, ast.CallStatement) and n.name in self.deciding) for n in nodes):
            return DECISION_ARGUMENTS
        return ""

    def chance_statement(self, node, scope):
        """The lines of a statement that stops at a chance node, else None."""
        if not self.is_chance_node(node):
            return None
        self.chance_helpers()
        stopped = ["if S[STOPPED] or S[ERROR]:", "    return"]
        if isinstance(node, ast.Shuffle):
            return [f"chance_shuffle(S, {self.zone_cell(node.zone, scope)}, mt, max_moves, T)", *stopped]
        items_node = untag(node.value).arguments[0]
        by_label = self.by_label(items_node, scope)
        items = self.chance_items(items_node, scope)
        drawn = self.fresh("drawn")
        none = self.none_of(self.type_of(untag(node.value)))
        lines = [f"{drawn} = chance_pick(S, {items}, {by_label}, {none}, mt, max_moves, T)", *stopped]
        if isinstance(node, ast.Let):
            var = self.fresh("L_")
            scope.names[node.name] = var
            return lines + [f"{var} = {drawn}"]
        inner = scope.child(**{f"__{drawn}": drawn})
        assign = ast.Assign(node.span, node.target, ast.Name(node.span, f"__{drawn}"))
        written = self.statement(assign, inner, False)
        scope.names.update({k: v for k, v in inner.names.items() if k != f"__{drawn}"})
        return lines + written

    def by_label(self, items_node, scope) -> str:
        """Whether the options are told apart by their label class (components), else by value."""
        items_node = untag(items_node)
        if isinstance(items_node, ast.Range):
            return "False"
        if self.is_zone(items_node, scope):
            return "True"
        t = self.type_of(items_node).without_none()
        named = named_type(element_type(t)) if isinstance(t, ListOf) else named_type(t)
        if named in self.ids_of_type:
            return "True"
        base = element_type(t).without_none() if isinstance(t, ListOf) else t
        if base in (INT, BOOL, PLAYER, TEXT) or named in self.game.enum_members or named in self.boards.geometries:
            return "False"          # (a text: its code, one per text, list_vars_source.text_code)
        raise NotNative(f"a pick as a chance node among values of type {t.text}", items_node.span)

    def chance_items(self, items_node, scope) -> str:
        items_node = untag(items_node)
        if isinstance(items_node, ast.Range):
            low, high = self.expr(items_node.low, scope, INT), self.expr(items_node.high, scope, INT)
            return f"np.arange({low}, {high} + 1)"
        if isinstance(items_node, ast.Name) and items_node.id == "players" and items_node.id not in scope.names:
            return "np.arange(1, PLAYERS + 1)"
        return self.sequence(items_node, scope)

    def chance_helpers(self) -> None:
        if getattr(self, "has_chance_helpers", False):
            return
        self.has_chance_helpers = True
        self.defs.append(CHANCE_FUNCTIONS.strip().replace("LABEL_OF_X", self.label_read("x"))
                         .replace("LABEL_OF_Y", self.label_read("y")).replace("CHOICE_CODE", str(CHOICE))
                         .replace("CHANCE_SEAT", str(CHANCE_SEAT)))


CHANCE_FUNCTIONS = '''
from referee.interpreter.native.bot_random import next_word


@njit
def bot_random(mt):
    """random.Random.random(): 53 bits of two words."""
    a = next_word(mt) >> np.uint64(5)
    b = next_word(mt) >> np.uint64(6)
    return (np.float64(a) * 67108864.0 + np.float64(b)) * (1.0 / 9007199254740992.0)


@njit
def chance_draw(S, options, by_label, mt, max_moves, T):
    """runtime chance_draw and the RandomBot's sample_chance: the position in options that
    chance draws (-1: stopped at max_moves)."""
    n = len(options)
    kept = np.empty(n, dtype=np.int64)
    weights = np.empty(n, dtype=np.int64)
    m = 0
    for k in range(n):
        x = options[k]
        found = -1
        for i in range(m):
            y = options[kept[i]]
            if (LABEL_OF_X == LABEL_OF_Y) if by_label else x == y:
                found = i
                break
        if found < 0:
            kept[m] = k
            weights[m] = 1
            m += 1
        else:
            weights[found] += 1
    if m == 1:
        return kept[0]
    if S[MOVES] >= max_moves:
        S[STOPPED] = 1
        return -1
    total = 0
    for i in range(m):
        total += weights[i]
    r = bot_random(mt)
    chosen = m - 1
    for i in range(m):
        r -= weights[i] / total
        if r < 0:
            chosen = i
            break
    if len(T) > 1:
        at = 3 * S[MOVES]
        if at + 3 > len(T):
            S[ERROR] = 1
            return -1
        T[at], T[at + 1], T[at + 2] = m, CHOICE_CODE, CHANCE_SEAT
    S[MOVES] += 1
    return kept[chosen]


@njit
def chance_pick(S, items, by_label, none, mt, max_moves, T):
    if len(items) == 0:
        return none
    j = chance_draw(S, items, by_label, mt, max_moves, T)
    return items[j] if j >= 0 else none


@njit
def chance_shuffle(S, cell, mt, max_moves, T):
    """runtime chance_shuffle: which component comes on top, then under it, and so on."""
    items = zone_items(S, cell)
    if len(items) == 0:
        return
    for top in range(len(items) - 1, 0, -1):
        j = chance_draw(S, items[:top + 1], True, mt, max_moves, T)
        if j < 0:
            return
        items[top], items[j] = items[j], items[top]
    if SHOWN >= 0:
        for x in items:
            S[SHOWN + x] = 0
'''
