"""longest_trail on a map the size of Ticket to Ride's (36 places, ~100 routes), measured in one
run as a ratio: the search over a player's routes against `sum` over the same routes, and the
units of work it charges (docs/language.md, "Limits").

    python benchmarks/maps.py                 20 routes a player, 9 rounds
    python benchmarks/maps.py --routes 30 --rounds 5

Each round draws a player's routes (seeded): a walk that claims routes next to those it holds,
as players do, so that the routes join into long networks (the search's hard case). Nothing
here is a timed test.
"""
import argparse
import random
import statistics
import sys
import tempfile
import time
import types
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.interpreter.engine import load_game            # noqa: E402
from referee.interpreter.runtime import maps                 # noqa: E402

SIDE = 6        # places on a 6 x 6 lattice, routes to the neighbours and some diagonals


def map_rules(seed=0) -> str:
    rng = random.Random(seed)
    name = [[f"p{r}_{c}" for c in range(SIDE)] for r in range(SIDE)]
    lines = []
    for r in range(SIDE):
        for c in range(SIDE):
            for dr, dc in ((0, 1), (1, 0), (1, 1)):
                if r + dr < SIDE and c + dc < SIDE and (dr + dc == 1 or rng.random() < 0.5):
                    lines.append(f"  {name[r][c]} - {name[r + dr][c + dc]} {{ length: {rng.randint(1, 6)} }}")
    places = ", ".join(p for row in name for p in row)
    return (f'game "Map" {{ players 2 }}\nboard Place: places {{ {places} }}\nboard Link: routes of Place {{\n'
            + "\n".join(lines) + '\n}\naction pass "pass" { }\nflow { turns from 1 { play pass finish } }\n')


def claimed(game, count, rng) -> list:
    routes = game.geometries["Link"]
    held = [rng.choice(routes.cells)]
    while len(held) < count:
        near = [r for h in held for r in routes.neighbors[h] if r not in held]
        held.append(rng.choice(near or [r for r in routes.cells if r not in held]))
    return held


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--routes", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "map.rules"
        path.write_text(map_rules(), encoding="utf-8")
        game, diagnostics, _ = load_game(str(path))
    assert not diagnostics, diagnostics
    length = {r: game.static_entities[r]["length"] for r in game.geometries["Link"].cells}
    rng = random.Random(1)
    ratios, seconds, units = [], [], []
    for _ in range(args.rounds):
        held = claimed(game, args.routes, rng)
        weighted = [(r, length[r]) for r in held]
        state = types.SimpleNamespace(game=types.SimpleNamespace(geometry_by_cell=game.geometry_by_cell,
                                                                 step_budget=[1, 10 ** 9]))
        start = time.perf_counter()
        maps.longest_trail(state, weighted)
        searched = time.perf_counter() - start
        start = time.perf_counter()
        sum(w for _, w in weighted)
        summed = max(time.perf_counter() - start, 1e-9)
        ratios.append(searched / summed)
        seconds.append(searched)
        units.append(10 ** 9 - state.game.step_budget[1])
    print(f"map: {len(game.geometries['Place'].cells)} places, {len(length)} routes; "
          f"a player's {args.routes} routes, {args.rounds} rounds")
    print(f"longest_trail: median {statistics.median(seconds) * 1000:.2f} ms "
          f"(min {min(seconds) * 1000:.2f}, max {max(seconds) * 1000:.2f}); "
          f"{statistics.median(ratios):,.0f} x a sum over the same routes; "
          f"units of work: median {statistics.median(units):,.0f}, max {max(units):,}")


if __name__ == "__main__":
    main()
