"""How much of the games' generated code renders natively: every function each game of games/
compiles to (at every player count), rendered by render_native over the game's layout; a
count of those that render whole, and of the node kinds that refuse the others.
`python -m referee.interpreter.native.coverage [--top N] [--game NAME]`."""
from __future__ import annotations

import argparse
import collections
import contextlib
from pathlib import Path

from ..compile import ir, lower_functions
from ..compile.render_native import refusals, render_all
from ..engine import load_game
from ..engine.params import player_range
from .layout import Layout

GAMES = Path(__file__).resolve().parents[2] / "games"


@contextlib.contextmanager
def recorded(functions: list):
    """While loading games: each IR function the compiler renders, as define gets it (a
    listing after its own passes, every other before the passes define runs)."""
    define = lower_functions.FunctionLowering.define

    def recording_define(self, function, *args, **kwargs):
        functions.append(ir.Function(function.name, function.params,
                                     lower_functions.prologue(function.body, self.game.column_locals()) + function.body, function.span))
        return define(self, function, *args, **kwargs)

    lower_functions.FunctionLowering.define = recording_define
    try:
        yield
    finally:
        lower_functions.FunctionLowering.define = define


def rules_files(only: str | None = None) -> list[Path]:
    files = sorted(GAMES.glob("*.rules")) + sorted((GAMES / "variants").glob("*.rules"))
    return [f for f in files if only is None or only in f.stem]


def measure(only: str | None = None):
    """(functions, rendered whole, Counter of refused node kinds, notes by game, (whole, functions) by game)."""
    total = whole = 0
    by_game: dict = {}
    kinds: collections.Counter = collections.Counter()
    notes: dict = {}
    for path in rules_files(only):
        probe, _, _ = load_game(str(path))
        low, high = player_range(probe.program)
        for players in range(low, high + 1):
            functions: list = []
            with recorded(functions):
                game, diagnostics, _ = load_game(str(path), players=players)
            if game is None:
                raise RuntimeError(f"{path}: {diagnostics}")
            rendered, places = render_all(functions, Layout.of(game).places())
            for function in functions:
                total += 1
                refused = refusals(function, places)
                figures = by_game.setdefault(f"{path.stem} {players}p", [0, 0])
                figures[1] += 1
                if not refused:
                    whole += 1
                    figures[0] += 1
                kinds.update(refusal.construct for refusal in refused)
                notes.setdefault(f"{path.stem} {players}p", []).extend(f"{function.name}: {r.note}" for r in refused)
    return total, whole, kinds, notes, by_game


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--game", help="only the rules files whose name holds this")
    parser.add_argument("--notes", action="store_true", help="every refusal, by game")
    parser.add_argument("--by-game", action="store_true", help="the figures of each game and player count")
    args = parser.parse_args(argv)
    total, whole, kinds, notes, by_game = measure(args.game)
    print(f"{whole} of {total} functions render natively whole")
    if args.by_game:
        for game, (native, functions) in by_game.items():
            print(f"{native:6} of {functions:4}  {game}")
    for kind, count in kinds.most_common(args.top):
        print(f"{count:6}  {kind}")
    if args.notes:
        for game, lines in notes.items():
            print(f"== {game}")
            print("\n".join(lines))


if __name__ == "__main__":
    main()
