"""The search bots with their playouts in Python and in the game's native kernel (issue 24,
interpreter/native/rollouts.py): CPU seconds per search move at a fixed number of iterations,
both engines in one run, and whether they chose the same moves (they must: the kernel draws
from the bot's own generator).

    python benchmarks/mcts_native.py                                 MCTS, tic-tac-toe and connect four
    python benchmarks/mcts_native.py --rounds 7 --iterations 1000 --markdown
    python benchmarks/mcts_native.py --only liars-dice               ISMCTS (3 players)
    python benchmarks/mcts_native.py --rounds 3 --iterations 100 --positions 3 --only checkers \
        --only titicaca --only hearts --only dominion                the seed and card games
    python benchmarks/mcts_native.py --only dominion --only skull --only solstis --paused
                                                                     steps paused at a choice

The positions: for each of --positions seeds, the state after a few random moves (seeded) of the
game of that seed. A round lets each engine choose a move at every position with a fresh bot of
the position's seed, the engines' order alternating from round to round; the figures are the
median and min-max over the rounds of CPU seconds per move, the ratio taken round by round and
then its median. The rollout kernel is compiled (or loaded from the cache) before any timing,
and that time is reported apart. With --paused, one more round (not timed) counts the playouts
that start from a state paused inside a step (a choice in an action or a flow statement: all
played in Python before the kernels resumed them) and those of them still left to Python. Needs Numba (pip install 'referee[native]').
"""
import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from referee.interpreter.engine import load_game  # noqa: E402
from referee.interpreter.native.rollouts import rollouts_of  # noqa: E402
from referee.interpreter.play.bots import ISMCTSBot, MCTSBot  # noqa: E402
from same_rollouts import walked  # noqa: E402

GAMES = {"tic-tac-toe": (MCTSBot, 2), "connect-four": (MCTSBot, 2), "othello": (MCTSBot, 2),
         "liars-dice": (ISMCTSBot, 3), "checkers": (MCTSBot, 2), "titicaca": (ISMCTSBot, 3),
         "hearts": (ISMCTSBot, 4), "dominion": (ISMCTSBot, 2), "skull": (ISMCTSBot, 4), "solstis": (ISMCTSBot, 2)}
DEFAULT = ("tic-tac-toe", "connect-four")


def positions(game, count, walk=5):
    """(seed, state) for seeds 0.. : the state after 0-`walk` random moves of that seed's game."""
    out, seed = [], 0
    while len(out) < count:
        s = walked(game, seed, walk)
        if not s.is_terminal():
            out.append((seed, s))
        seed += 1
    return out


def moves_of(bot_class, states, iterations, rollouts):
    """(CPU seconds per move, the moves chosen) of fresh bots at these positions."""
    chosen = []
    started = time.process_time()
    for seed, s in states:
        chosen.append(bot_class(seed, iterations=iterations, rollouts=rollouts).choose(s.clone()).name)
    return (time.process_time() - started) / len(states), chosen


class Counted:
    """A game's rollouts counting the playouts, those from a state paused inside a step, and
    those of them the kernel left to Python."""

    def __init__(self, rollouts):
        self.rollouts = rollouts
        self.playouts = self.paused = self.paused_in_python = 0

    def generator(self, seed):
        return self.rollouts.generator(seed)

    def returns(self, s, rng, max_moves):
        paused = s.pending is not None
        got = self.rollouts.returns(s, rng, max_moves)
        self.playouts += 1
        self.paused += paused
        self.paused_in_python += paused and got is None
        return got


def measure(name, rounds, iterations, count, paused=False, walk=5):
    bot_class, players = GAMES[name]
    game, diagnostics, _ = load_game(str(ROOT / "games" / f"{name}.rules"), players=players)
    assert not diagnostics, diagnostics
    started = time.perf_counter()
    rollouts = rollouts_of(game)            # (rendered, imported, then compiled or loaded)
    rollouts.compile()
    compile_seconds = time.perf_counter() - started
    states = positions(game, count, walk)
    seconds = {"python": [], "native": []}
    ratios, same = [], True
    for r in range(rounds):
        order = ("python", "native") if r % 2 == 0 else ("native", "python")
        chosen = {}
        for engine in order:
            spent, chosen[engine] = moves_of(bot_class, states, iterations, rollouts if engine == "native" else None)
            seconds[engine].append(spent)
        same = same and chosen["python"] == chosen["native"]
        ratios.append(seconds["python"][-1] / seconds["native"][-1])
    counted = None
    if paused:
        counted = Counted(rollouts)
        moves_of(bot_class, states, iterations, counted)
    return {"game": name, "players": game.num_players, "counted": counted, "walk": walk, "bot": bot_class.kind, "iterations": iterations,
            "positions": len(states), "compile_seconds": compile_seconds, "seconds": seconds,
            "ratio": statistics.median(ratios), "ratios": (min(ratios), max(ratios)), "same_moves": same}


def spread(values) -> str:
    return f"{statistics.median(values):.4f} ({min(values):.4f}-{max(values):.4f})"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--only", action="append", choices=sorted(GAMES))
    parser.add_argument("--markdown", action="store_true", help="print the table of benchmarks/README.md")
    parser.add_argument("--paused", action="store_true", help="count the playouts from a step paused at a choice")
    parser.add_argument("--walk", type=int, default=5, help="the most random moves into a game before a position")
    args = parser.parse_args()
    results = [measure(name, args.rounds, args.iterations, args.positions, args.paused, args.walk) for name in args.only or DEFAULT]
    if args.markdown:
        print("| game | bot, iterations | CPU s per move, Python playouts | native playouts | Python / native "
              "| same moves | kernel compile or load |")
        print("|---|---|---|---|---|---|---|")
    for r in results:
        if args.markdown:
            print(f"| {r['game']} {r['players']}p | {r['bot']}, {r['iterations']} | {spread(r['seconds']['python'])} "
                  f"| {spread(r['seconds']['native'])} | {r['ratio']:.2f} ({r['ratios'][0]:.2f}-{r['ratios'][1]:.2f}) "
                  f"| {'yes' if r['same_moves'] else 'NO'} | {r['compile_seconds']:.1f} s |")
        else:
            print(f"{r['game']} {r['players']}p, {r['bot']} {r['iterations']} iterations, {r['positions']} positions: "
                  f"python {spread(r['seconds']['python'])} s/move, native {spread(r['seconds']['native'])} s/move, "
                  f"ratio {r['ratio']:.2f}, same moves: {r['same_moves']}, compile/load {r['compile_seconds']:.1f} s")
    for r in results:
        counted = r["counted"]
        if counted is not None:
            print(f"{r['game']} {r['players']}p: {counted.paused} of {counted.playouts} playouts from a step paused "
                  f"at a choice, {counted.paused_in_python} of them left to Python")
    return 0 if all(r["same_moves"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
