"""A repetition rule two ways, measured in one run as ratios: the times a position was seen kept
in a `map of list of int to int` (one lookup a move, and a new map: `m + {k: v}` copies it)
against the same count by a scan of the list of positions seen (`count(p in history where p ==
dials)`, the workaround before maps), per move, after histories of growing length.

    python benchmarks/repetition.py                  histories of 100, 1,000 and 5,000 moves
    python benchmarks/repetition.py --lengths 200 2000 --moves 200

Both games play the same seeded random moves (four dials of ten values, a step of one or two):
each measure is the mean time of `--moves` moves played from a clone of the state reached after
that many moves. Nothing here is a timed test.
"""
import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.interpreter.engine import load_game            # noqa: E402

HEAD = '''game "Repetition" { players 2 }
var dials: list of int = [0, 0, 0, 0]
var most: int = 1
fn turned(now: list of int, k: int, step: int): list of int = map(j in 1..4: j == k ? (now[j] + step) % 10 : now[j])
'''
TAIL = '''
flow { turns from 1 { play turn } }
'''
BY_MAP = HEAD + '''var seen: map of list of int to int = {[0, 0, 0, 0]: 1}
action turn(k in 1..4, step in 1..2) "turn {k} by {step}" {
  dials = turned(dials, k, step)
  let times = get(seen, dials, 0) + 1
  seen = seen + {dials: times}
  if times > most {
    most = times
  }
}''' + TAIL
BY_SCAN = HEAD + '''var history: list of list of int = [[0, 0, 0, 0]]
action turn(k in 1..4, step in 1..2) "turn {k} by {step}" {
  dials = turned(dials, k, step)
  history = history + [dials]
  let times = count(p in history where p == dials)
  if times > most {
    most = times
  }
}''' + TAIL


def loaded(folder, name, text):
    path = Path(folder) / name
    path.write_text(text, encoding="utf-8")
    game, diagnostics, _ = load_game(str(path))
    assert not diagnostics, [d.render() for d in diagnostics]
    return game


def per_move(game, moves: list, length: int, measured: int) -> float:
    """The mean seconds of a move after `length` moves (the best of three runs from a clone)."""
    state = game.new_initial_state(0)
    for name in moves[:length]:
        state.apply(name)
    best = float("inf")
    for _ in range(3):
        twin = state.clone()
        start = time.perf_counter()
        for name in moves[length:length + measured]:
            twin.apply(name)
        best = min(best, time.perf_counter() - start)
    return best / measured, twin


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lengths", type=int, nargs="+", default=[100, 1000, 5000])
    parser.add_argument("--moves", type=int, default=100)
    args = parser.parse_args()
    rng = random.Random(1)
    moves = [f"turn {rng.randint(1, 4)} by {rng.randint(1, 2)}" for _ in range(max(args.lengths) + args.moves)]
    with tempfile.TemporaryDirectory() as folder:
        by_map, by_scan = loaded(folder, "map.rules", BY_MAP), loaded(folder, "scan.rules", BY_SCAN)
    print("moves before | map: µs a move | scan: µs a move | scan / map | most repeats (same in both)")
    for length in args.lengths:
        (mapped, a), (scanned, b) = per_move(by_map, moves, length, args.moves), per_move(by_scan, moves, length, args.moves)
        assert a.vars["most"] == b.vars["most"], "the two rules disagree"
        print(f"{length:>12,} | {mapped * 1e6:>14.1f} | {scanned * 1e6:>15.1f} | {scanned / mapped:>10.2f} | {a.vars['most']}")


if __name__ == "__main__":
    main()
