"""Which games have a rollout kernel (the search bots' playouts natively, issue 24), and do its
playouts give Python's? For every rules file of games/ and games/variants/ at every player
count: the rollout kernel renders (`kernel`) or the construct that stops it, located. With
--check N, the kernel is compiled (or loaded from the cache) and N states under way (0..--depth
random moves into the game of seeds 0..) each play two random playouts natively and in Python:
the returns and the generator after must be equal; a state the kernel leaves to Python is
counted with why (a step paused where the kernel does not resume it: its construct and rules
line; pc: not at a decision; S or F: a value the kernel's state or flow cannot code; kernel: the
playout handed back).

    python benchmarks/same_rollouts.py                           the table, rendered only
    python benchmarks/same_rollouts.py --check 20 --game titicaca --players 3
Exits 1 if any playout differs.
"""
import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def walked(game, seed, most):
    s, walk = game.new_initial_state(seed), random.Random(seed)
    for _ in range(walk.randrange(most + 1)):
        if s.is_terminal():
            break
        moves = s.legal_moves()
        s.apply(moves[walk.randrange(len(moves))])
    return s


def check(rollouts, count: int, depth: int) -> tuple:
    """(playouts resumed natively, those of them from a step paused at a choice, those left to
    Python by why, those that differ)."""
    from referee.interpreter.native.shared_random import SharedRandom
    from referee.interpreter.play.bots import playout
    resumed, paused, left, differ = 0, 0, {}, 0
    for seed in range(count):
        s = walked(rollouts.game, seed, depth)
        if s.is_terminal():
            continue
        for k in range(2):
            python, native = random.Random(seed * 7 + k), SharedRandom(seed * 7 + k)
            expected = playout(s.clone(), python, 10_000)
            got = rollouts.returns(s, native, 10_000)
            if got is None:
                why = rollouts.why_python(s)
                left[why] = left.get(why, 0) + 1
                continue
            resumed += 1
            paused += s.pending is not None
            differ += got != expected or native.getstate() != python.getstate()
    return resumed, paused, left, differ


def configurations(name: str | None, players: int | None):
    """(a rules file, a player count) of games/ and games/variants/, those asked only."""
    from referee.interpreter.engine import load_game
    from referee.interpreter.engine.params import player_range
    paths = sorted((ROOT / "games").glob("*.rules")) + sorted((ROOT / "games" / "variants").glob("*.rules"))
    for path in (p for p in paths if not name or name in p.stem):
        low, high = player_range(load_game(str(path))[0].program)
        yield from ((path, n) for n in range(low, high + 1) if not players or n == players)


def main(argv=None) -> int:
    from referee.interpreter.engine import load_game
    from referee.interpreter.native import rollouts as module
    from referee.interpreter.native.not_native import NotNative
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", help="only the rules files whose name holds this")
    parser.add_argument("--players", type=int, help="only this player count")
    parser.add_argument("--check", type=int, default=0, metavar="N", help="compile and compare N states' playouts")
    parser.add_argument("--depth", type=int, default=40, help="the most random moves into a game before a state")
    args = parser.parse_args(argv)
    load_module = module.load_module
    if not args.check:
        module.load_module = lambda text: (None, None)       # (rendered only)
    differ = 0
    for path, players in configurations(args.game, args.players):
        game, _, _ = load_game(str(path), players=players)
        what = f"{path.relative_to(ROOT)} {players}p"
        try:
            rollouts = module.NativeRollouts(game)
        except NotNative as refused:
            print(f"python  {what}: {refused.note()}")
            continue
        if not args.check:
            print(f"kernel  {what}")
            continue
        started = time.perf_counter()
        rollouts.compile()
        resumed, paused, left, wrong = check(rollouts, args.check, args.depth)
        differ += wrong
        print(f"{'DIFFER' if wrong else 'same'}    {what}: {resumed} playouts native ({paused} from a paused step), left to Python {left or 0}, "
              f"{wrong} differ (compile or load {time.perf_counter() - started:.0f} s)", flush=True)
    module.load_module = load_module
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
