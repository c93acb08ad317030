"""The OpenSpiel adapter against OpenSpiel's own games, in one run (docs/openspiel.md).

    python benchmarks/openspiel.py                     conformance, speed and CFR+, every figure
    python benchmarks/openspiel.py --games 500         lockstep playthroughs per game (default 300)
    python benchmarks/openspiel.py --only kuhn_poker   one native game (repeatable)
    python benchmarks/openspiel.py --skip-cfr --seconds 1

- Conformance: `--games` random lockstep playthroughs per native game (tests/openspiel_conformance.py):
  the same legal moves, chance outcomes and probabilities, and returns, at every step (checkers:
  the same whole moves, as sequences of OpenSpiel's actions; a step is a whole move).
- Speed: random playouts per second (CPU time) of the native game and of the rules file through
  the adapter, each for `--seconds`, the same random policy (a uniform legal action, chance by
  its probabilities), interleaved `--rounds` times; the ratio is native / adapter, the median.
- CFR+ on kuhn-poker.rules: exploitability after 1, 10, 100, 200 and 500 iterations, and the
  CPU time, with the native kuhn_poker's figures beside them.
Needs `pip install 'referee[openspiel]'`.
"""
import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pyspiel  # noqa: E402
from open_spiel.python.algorithms import cfr, exploitability  # noqa: E402

from referee.interpreter.adapters.openspiel_game import load_openspiel_game  # noqa: E402
from tests import openspiel_conformance  # noqa: E402

CFR_CHECKPOINTS = (1, 10, 100, 200, 500)


def random_playouts(game, seconds) -> float:
    """Random playouts per CPU second."""
    rng = random.Random(0)
    start = time.process_time()
    played = 0
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probabilities = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, weights=probabilities)[0])
            elif state.is_simultaneous_node():
                state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(game.num_players())])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        played += 1
    return played / (time.process_time() - start)


def cfr_figures(game, iterations):
    solver = cfr.CFRPlusSolver(game)
    start = time.process_time()
    out = []
    for i in range(1, max(iterations) + 1):
        solver.evaluate_and_update_policy()
        if i in iterations:
            out.append((i, exploitability.exploitability(game, solver.average_policy()), time.process_time() - start))
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300, help="lockstep playthroughs per native game")
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per speed slice")
    parser.add_argument("--rounds", type=int, default=3, help="speed slices per contestant")
    parser.add_argument("--only", action="append", help="a native game to keep (repeatable)")
    parser.add_argument("--skip-cfr", action="store_true")
    args = parser.parse_args(argv)
    mappings = openspiel_conformance.native_name_mappings()
    names = [n for n in sorted(mappings) if not args.only or n in args.only]
    print("| native game | rules file | playthroughs | player steps compared | result | "
          "native playouts/s | adapter playouts/s | native / adapter |")
    print("|---|---|---|---|---|---|---|---|")
    for name in names:
        adapter = openspiel_conformance.load_rules_game(name)
        try:
            steps = openspiel_conformance.run(name, args.games, seed=1, rules_game=adapter)
            result = "same"
        except openspiel_conformance.Mismatch as error:
            steps, result = 0, f"differs: {error}"
        native = pyspiel.load_game(name)
        native_speed, adapter_speed = [], []
        for _ in range(args.rounds):
            native_speed.append(random_playouts(native, args.seconds))
            adapter_speed.append(random_playouts(adapter, args.seconds))
        ratio = statistics.median(n / a for n, a in zip(native_speed, adapter_speed))
        options = "".join(f" --option {o}" for o in mappings[name].options)
        print(f"| `{name}` | `games/{mappings[name].rules_file}{options}` | {args.games} | {steps} | {result} | "
              f"{statistics.median(native_speed):,.0f} | {statistics.median(adapter_speed):,.0f} | {ratio:.0f}x |",
              flush=True)
    if not args.skip_cfr:
        print()
        print("| CFR+ iterations | kuhn-poker.rules exploitability | CPU s | native kuhn_poker exploitability | CPU s |")
        print("|---|---|---|---|---|")
        rules = cfr_figures(load_openspiel_game(openspiel_conformance.GAMES / "kuhn-poker.rules", zero_sum=True,
                                                utility_range=(-2, 2)), CFR_CHECKPOINTS)
        native = cfr_figures(pyspiel.load_game("kuhn_poker"), CFR_CHECKPOINTS)
        for (i, e, t), (_, ne, nt) in zip(rules, native):
            print(f"| {i} | {e:.6f} | {t:.2f} | {ne:.6f} | {nt:.2f} |", flush=True)


if __name__ == "__main__":
    main()
