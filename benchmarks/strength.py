"""How strong the search bots are: MCTS (games of perfect information) or ISMCTS (games of
hidden information) against random bots, the search bot's seat rotating, with the win rate's
95% interval (Wilson), the mean return and the CPU time per search move. Standard library
only; never a timed test.

    python benchmarks/strength.py                        # MCTS: tic-tac-toe and connect four
    python benchmarks/strength.py --games 100 --iterations 1000 --only connect-four
    python benchmarks/strength.py --bot ismcts           # ISMCTS: Kuhn poker and the seed games, 2 players
    python benchmarks/strength.py --bot ismcts --players 3 --only titicaca --jobs 2
"""
from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.interpreter.tools.analyze import wilson_interval  # noqa: E402
from referee.interpreter.play.bots import ISMCTSBot, MCTSBot, RandomBot  # noqa: E402
from referee.interpreter.engine import load_game  # noqa: E402

GAMES = {"mcts": ("tic-tac-toe", "connect-four"),
         "ismcts": ("kuhn-poker", "liars-dice", "continents", "titicaca", "solstis")}
BOTS = {"mcts": MCTSBot, "ismcts": ISMCTSBot}
ITERATIONS = {"mcts": 1000, "ismcts": 50}
GAME_COUNTS = {"kuhn-poker": 400, "liars-dice": 200}         # a game of a few moves: many games, a tighter interval


def load(name, players):
    game, diagnostics, _ = load_game(str(ROOT / "games" / f"{name}.rules"), (), players)
    assert not diagnostics, diagnostics
    return game


def play_one(task):
    """One game: the search bot in seat 1 + seed % players, random bots elsewhere. Returns
    (outcome for the search bot: 'win', 'draw' or 'loss', its return, CPU seconds of its
    moves, its moves)."""
    kind, name, players, iterations, seed = task
    game = load(name, players)
    seat = 1 + seed % game.num_players
    search = BOTS[kind](seed, iterations=iterations)
    other = RandomBot(seed)
    state = game.new_initial_state(seed)
    thinking, decisions = 0.0, 0
    while not state.is_terminal():
        if state.current_player() == seat:
            started = time.process_time()
            move = search.choose(state)
            thinking += time.process_time() - started
            decisions += 1
        else:
            move = other.choose(state)
        state.apply(move)
    outcome = "win" if state.winners == [seat] else "draw" if not state.winners or seat in state.winners else "loss"
    return outcome, state.returns()[seat - 1], thinking, decisions


def measure(kind, name, games, iterations, players, jobs):
    tasks = [(kind, name, players, iterations, seed) for seed in range(games)]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(play_one, tasks))
    else:
        results = [play_one(task) for task in tasks]
    outcomes = [r[0] for r in results]
    wins, draws = outcomes.count("win"), outcomes.count("draw")
    losses = games - wins - draws
    thinking, decisions = sum(r[2] for r in results), sum(r[3] for r in results)
    mean_return = sum(r[1] for r in results) / games
    low, high = wilson_interval(wins, games)
    not_lost = wilson_interval(wins + draws, games)
    count = load(name, players).num_players
    return (f"| {name} | {count} | {games} | {iterations} | {wins} / {draws} / {losses} | "
            f"{wins / games:.0%} ({low:.0%}-{high:.0%}) | {(wins + draws) / games:.0%} ({not_lost[0]:.0%}-{not_lost[1]:.0%}) "
            f"| {mean_return:+.2f} | {1000 * thinking / max(1, decisions):.0f} ms |")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bot", choices=sorted(BOTS), default="mcts")
    parser.add_argument("--games", type=int, default=None,
                        help="games per game (default 40; 400 for Kuhn poker)")
    parser.add_argument("--iterations", type=int, default=None, help="default 1000 for mcts, 50 for ismcts")
    parser.add_argument("--players", type=int, default=None, help="default: each game's least")
    parser.add_argument("--only", action="append", choices=sorted({g for names in GAMES.values() for g in names}))
    parser.add_argument("--jobs", type=int, default=1, help="games played side by side in N processes")
    args = parser.parse_args()
    iterations = args.iterations or ITERATIONS[args.bot]
    label = args.bot.upper()
    print(f"| game | players | games | iterations | {label} wins / draws / losses | win rate (95%) | not lost (95%) "
          f"| {label} mean return | CPU per {label} move |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in args.only or GAMES[args.bot]:
        refused = load_game(str(ROOT / "games" / f"{name}.rules"), (), args.players)[1]
        if refused:                 # e.g. --players 3 for a game of 2
            print(f"| {name} | {args.players} | not played: {refused[0].message} |||||||", flush=True)
            continue
        games = args.games or GAME_COUNTS.get(name, 40)
        print(measure(args.bot, name, games, iterations, args.players, args.jobs), flush=True)


if __name__ == "__main__":
    main()
