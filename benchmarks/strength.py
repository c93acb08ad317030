"""How strong the search bots are: MCTS against random, seats alternating, with the win rate's
95% interval (Wilson) and the time per move. Standard library only; never a timed test.

    python benchmarks/strength.py                        # tic-tac-toe and connect four
    python benchmarks/strength.py --games 100 --iterations 1000 --only connect-four
"""
from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.bots import MCTSBot, RandomBot  # noqa: E402
from interpreter.engine import load_game  # noqa: E402

GAMES = ("tic-tac-toe", "connect-four")


def wilson(successes, n, z=1.96):
    if n == 0:
        return 0.0, 0.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def measure(name, games, iterations):
    game, diagnostics, _ = load_game(str(ROOT / "games" / f"{name}.rules"))
    assert not diagnostics, diagnostics
    wins = draws = losses = 0
    thinking, decisions = 0.0, 0
    for seed in range(games):
        seat = 1 + seed % 2
        mcts, other = MCTSBot(seed, iterations=iterations), RandomBot(seed)
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            if state.current_player() == seat:
                started = time.process_time()
                move = mcts.choose(state)
                thinking += time.process_time() - started
                decisions += 1
            else:
                move = other.choose(state)
            state.apply(move)
        if state.winners == [seat]:
            wins += 1
        elif not state.winners:
            draws += 1
        else:
            losses += 1
    low, high = wilson(wins, games)
    not_lost = wilson(wins + draws, games)
    return (f"| {name} | {games} | {iterations} | {wins} / {draws} / {losses} | {wins / games:.0%} ({low:.0%}-{high:.0%}) "
            f"| {(wins + draws) / games:.0%} ({not_lost[0]:.0%}-{not_lost[1]:.0%}) | {1000 * thinking / max(1, decisions):.0f} ms |")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--only", action="append", choices=GAMES)
    args = parser.parse_args()
    print("| game | games | iterations | MCTS wins / draws / losses | win rate (95%) | not lost (95%) | CPU per MCTS move |")
    print("|---|---|---|---|---|---|---|")
    for name in args.only or GAMES:
        print(measure(name, args.games, args.iterations), flush=True)


if __name__ == "__main__":
    main()
