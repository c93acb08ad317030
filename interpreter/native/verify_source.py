"""A game's verify kernel: `referee verify`'s random games played natively. The playout kernel
(rules_source.py) with verify's own policy (each move drawn by `random_source.below` from a
splitmix64 state seeded with seed * 31 + 7, as tools/verify.run draws it) and the rules'
invariants checked natively where verify checks them in Python: at every decision and at the
end. `verify_games(seeds, max_moves)` answers per game whether it went through clean (finished,
every invariant held, the scores and returns computable) and its number of moves; any other game
(an invariant broken, a runtime error, a dead end, stopped at max_moves) is played again in
Python by tools/verify, which finds and words its failure exactly.

What verify checks besides, and the kernel does not: the legal moves' names are distinct (the
caller proves it once for the game: verify_names.py `names_distinct`), and leaks (the caller plays in Python
when leaks are probed in a game with hidden information).
"""
from __future__ import annotations

from referee.dsl import ast
from referee.dsl.types import BOOL

from .rules_source import KernelSource, Scope, module_source, untag
from .not_native import NotNative
from .verify_names import names_distinct

class VerifySource(KernelSource):
    choice = "policy_below(mt, n)"

    def render(self) -> str:
        invariants = [untag(node) for node in self.program.of_kind(ast.Invariant)]
        checks = [f"if not ({self.expr(node.condition, Scope(), BOOL)}): return False" for node in invariants]
        self.define("def invariants_hold(S, cur):", checks + ["return True"])
        return super().render()

    def play(self, node) -> list:
        return [*self.decision_prologue("cur"), *super().play(node)]

    def decision_prologue(self, seat: str) -> list:
        return [f"if not invariants_hold(S, {seat}):", "    S[ERROR] = 1", "    return"]


VERIFY_DRIVER = '''
@njit
def policy_below(mt, n):
    """verify's draw (random_source.below) from the splitmix64 state in mt[0]."""
    index, state = game_below(mt[0], n)
    mt[0] = state
    return index


@njit(cache=True)
def verify_games(seeds, max_moves):
    """Per game: 1 if it went through clean (finished, the invariants held at every decision and
    at the end, the scores and returns computable), else 0; and its number of moves."""
    games = len(seeds)
    clean = np.zeros(games, dtype=np.int64)
    length = np.zeros(games, dtype=np.int64)
    owned_state = np.zeros(STATE_SIZE, dtype=np.int64)
    owned_buf = np.empty(MOST_MOVES, dtype=np.int64)
    S, buf = unowned(owned_state), unowned(owned_buf)      # (not reference-counted: unowned)
    mt = np.zeros(1, dtype=np.uint64)
    T = np.zeros(1, dtype=np.int64)
    for g in range(games):
        mt[0] = mix(np.uint64(seeds[g] * 31 + 7))
        play_game(S, mt, buf, seeds[g], max_moves, T)
        length[g] = S[MOVES]
        if S[ERROR] or S[STOPPED] or S[WINNERS] < 0 or not invariants_hold(S, S[CURRENT]):
            continue
        ok = 1
        for p in range(1, PLAYERS + 1):
            if score_of(S, p) == INT_NONE_CODE or returns_of(S, p) == INT_NONE_CODE:
                ok = 0
        clean[g] = ok
    kept(owned_state, owned_buf)
    return clean, length
'''


def render_verify(game) -> str:
    """The verify kernel module's source for a loaded game, or NotNative."""
    source = VerifySource(game)
    chance = next((n for n in ast.walk(game.program.parts()) if source.is_chance_node(n)), None)
    if chance is not None:          # (its driver does not draw them: the kernel broke memory)
        raise NotNative("a chance node (explicit chance) in a verify kernel has no native form yet", chance.span)
    return module_source(source) + f"INT_NONE_CODE = {-(2 ** 63)}\n" + VERIFY_DRIVER


__all__ = ["VerifySource", "names_distinct", "render_verify"]
