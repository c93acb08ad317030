"""Do native playouts give the same games as Python? For every rules file of games/ and
games/variants/ at every player count, without options and with each declared option, whose
kernel renders, `referee simulate FILE -n N
--seed 1 --json --engine native` against `--engine python`, compared apart from the timing
(issue 24). Files that do not render natively are listed with the construct that stops them;
a kernel that hands some games back to Python (a game it flags) says how many.

    python benchmarks/same_games.py                 every file, -n 200
    python benchmarks/same_games.py -n 50 --game liars
Exits 1 if any summary differs.
"""
import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def summary(path, players, options, n, engine) -> dict:
    chosen = [word for option in options for word in ("--option", option)]
    out = subprocess.run([sys.executable, "-m", "referee", "simulate", str(path), "--players", str(players), *chosen,
                          "-n", str(n), "--seed", "1", "--json", "--engine", engine, "-j", "1"],
                         cwd=ROOT, capture_output=True, text=True)
    result = json.loads(out.stdout)
    result.pop("seconds")
    return result


def handed_back(game, n: int) -> int:
    """How many of simulate's games (seeds 1..n) the kernel, loaded from its cache, hands to Python."""
    from referee.interpreter.native.kernel import TO_PYTHON, load_kernel
    status = load_kernel(game).play(range(1, n + 1), 10_000)[0]
    return int((status == TO_PYTHON).sum())


def main(argv=None) -> int:
    from referee.interpreter.engine import load_game
    from referee.interpreter.engine.params import player_range
    from referee.interpreter.native.rules_source import NotNative, render
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", type=int, default=200)
    parser.add_argument("--game", help="only the rules files whose name holds this")
    args = parser.parse_args(argv)
    files = sorted((ROOT / "games").glob("*.rules")) + sorted((ROOT / "games" / "variants").glob("*.rules"))
    differ = 0
    for path in files:
        if args.game and args.game not in path.stem:
            continue
        probe, _, _ = load_game(str(path))
        low, high = player_range(probe.program)
        choices = [()] + [(option,) for option in sorted(probe.types.options)]
        for players in range(low, high + 1):
            for options in choices:
                game, _, _ = load_game(str(path), players=players, options=options)
                what = f"{path.relative_to(ROOT)} {players}p" + "".join(f" --option {o}" for o in options)
                try:
                    render(game)
                except NotNative as refused:
                    print(f"python  {what}: {refused.note()}")
                    continue
                same = summary(path, players, options, args.n, "native") == summary(path, players, options, args.n, "python")
                differ += not same
                handed = handed_back(game, args.n)
                print(f"{'same' if same else 'DIFFER'}    {what}" + (f" ({handed} of {args.n} played in Python)" if handed else ""))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
