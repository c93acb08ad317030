"""Native anchors (issue 24): random playouts per CPU second of the hand-written Python
references, the hand-written Numba anchors, the engine's Python path and its native kernel
(the rules file rendered to Numba: interpreter/native), in one interleaved run; the compile
times of the anchors and kernels reported apart.

    python benchmarks/native.py                          5 rounds of 1 s slices
    python benchmarks/native.py --rounds 9 --seconds 2 --markdown
    python benchmarks/native.py --check                  do the anchors play the rules files' games?
    python benchmarks/native.py --only backgammon        the configurations whose name holds a word
    python benchmarks/native.py --only "continents " --cached   the kernels loaded from Numba's cache

Games with no hand-written reference (KERNEL_GAMES: backgammon with and without its cube,
hearts, goofspiel, the card games, Continents, Titicaca and their variants, The Resistance, Solstis,
skull, dominion, Ticket to Ride, checkers) are
measured as the engine's Python path against its native kernel only.

One process plays everything. Each round gives each contestant one slice per game, in an order
that rotates from round to round; a slice plays whole games until its time is up (the Python
contestants the random games of seeds 0, 1, 2, ... as compare.py does, the anchors batches of
games in one compiled call each). The figures are the median and min-max over the rounds of
playouts per CPU second, and the ratios are taken round by round (slices close in time), then
the median. The anchors and kernels are compiled first, in a cache folder of their own (so the
compile is measured, not a cache load), and timed apart; with --cached, in Numba's own cache (a
kernel compiled before, by simulate or an earlier run, is loaded: the quick way to measure speed).
"""
import argparse
import importlib
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

from worker import NATIVE_BATCH, NativeBatches, playout  # noqa: E402

GAMES = {"tic-tac-toe": ("tic_tac_toe", "tic_tac_toe_numba"), "connect-four": ("connect_four", "connect_four_numba")}
# rules files measured without references: the Python path against the kernel (name: file, options)
KERNEL_GAMES = {"backgammon": ("backgammon", ()), "backgammon --option cube": ("backgammon", ("cube",)),
                "hearts": ("hearts", ()), "goofspiel": ("goofspiel", ())}
KERNEL_GAMES.update({         # (the card games: components and zones; name, options, players)
    "kuhn-poker": ("kuhn-poker", (), 2), "leduc-poker": ("leduc-poker", (), 2),
    **{f"love-letter {p}p": ("love-letter", (), p) for p in (2, 3, 4)}, "hearts": ("hearts", (), 4),
    **{f"continents {p}p": ("continents", (), p) for p in (2, 4, 6)},
    "continents 4p --option normal": ("continents", ("normal",), 4),
    "continents-four-cards 3p": ("variants/continents-four-cards", (), 3),
    "continents-six-places 3p": ("variants/continents-six-places", (), 3),
    **{f"titicaca {p}p": ("titicaca", (), p) for p in (2, 3, 5)},
    "titicaca-wide 4p": ("variants/titicaca-wide", (), 4)})
KERNEL_GAMES.update({f"the-resistance {p}p": ("the-resistance", (), p) for p in (5, 7, 10)})     # (teams)
KERNEL_GAMES.update({"solstis": ("solstis", (), 2), "solstis --option discovery": ("solstis", ("discovery",), 2)})
KERNEL_GAMES.update({         # (decisions inside a step: choose, play ... by)
    **{f"skull {p}p": ("skull", (), p) for p in (3, 4, 5, 6)},
    **{f"dominion {p}p": ("dominion", (), p) for p in (2, 3, 4)}})
KERNEL_GAMES.update({f"ticket-to-ride {p}p": ("ticket-to-ride", (), p) for p in (2, 3, 4, 5)})     # (maps)
KERNEL_GAMES.update({"checkers": ("checkers", (), 2)})        # (a recursion: recursion_heads.py)
KERNEL_GAMES.update({"othello": ("othello", (), 2), **{f"liars-dice {p}p": ("liars-dice", (), p) for p in (2, 4)},
                     **{f"goofspiel {p}p": ("goofspiel", (), p) for p in (3, 4)}})
BATCH = 2000            # games per call of an anchor
CHECK_SEEDS = 1000


class Python:
    """A game played from Python, one random playout at a time: the engine or a reference."""

    def __init__(self, label, game):
        self.label, self.game, self.seed = label, game, 0

    def slice(self, seconds):
        played = 0
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline or not played:
            playout(self.game, self.seed)
            self.seed += 1
            played += 1
        return played


class Anchor:
    """A hand-written Numba playout loop: batches of games, one compiled call each."""

    def __init__(self, label, module, seed_state):
        self.label, self.module = label, module
        self.state = module.np.uint64(seed_state(0))

    def compile(self):
        started = time.perf_counter()
        _, _, self.state = self.module.playouts(1, self.state)
        return time.perf_counter() - started

    def slice(self, seconds):
        played = 0
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline or not played:
            _, _, state = self.module.playouts(BATCH, self.state)
            self.state = self.module.np.uint64(state)
            played += BATCH
        return played


def native_kernel(game, batch=NATIVE_BATCH):
    """The engine's native kernel for the rules file (interpreter/native), timed as compare.py's
    native worker times it (worker.NativeBatches)."""
    from referee.interpreter.native.kernel import load_kernel
    return NativeBatches(load_kernel(game), batch, label="engine (native kernel)")


def contestants(rules):
    from referee.interpreter.engine import load_game
    from referee.interpreter.runtime.random_source import seed_state
    if rules in KERNEL_GAMES:
        name, options, *players = KERNEL_GAMES[rules]
        game, diagnostics, _ = load_game(str(ROOT / "games" / f"{name}.rules"), options=options,
                                         players=players[0] if players else None)
        if game is None:
            raise SystemExit(f"native.py: cannot load {rules}: {diagnostics}")
        batch = 20 if name in ("backgammon", "ticket-to-ride") else 200     # (a card game is short: batches as long as a slice)
        return [Python("engine (Python path)", game), native_kernel(game, batch)]
    reference, anchor = GAMES[rules]
    game, diagnostics, _ = load_game(str(ROOT / "games" / f"{rules}.rules"), players=2)
    if game is None:
        raise SystemExit(f"native.py: cannot load {rules}: {diagnostics}")
    return [Python("Python reference", importlib.import_module(f"references.{reference}").Game()),
            Anchor("Numba anchor", importlib.import_module(f"references.{anchor}"), seed_state),
            Python("engine (Python path)", game), native_kernel(game)]


def measure(rounds, seconds, only=None):
    """(figures[game][label] = playouts per CPU second, one a round; compile seconds per game)."""
    table = {rules: contestants(rules) for rules in [*GAMES, *KERNEL_GAMES] if only is None or only in rules}
    compile_times = {(rules, c.label): c.compile() for rules, players in table.items()
                     for c in players if isinstance(c, (Anchor, NativeBatches))}
    for players in table.values():          # a warm-up slice each, not counted
        for contestant in players:
            contestant.slice(0.05)
    figures = {rules: {c.label: [] for c in players} for rules, players in table.items()}
    for round_number in range(rounds):
        for rules, players in table.items():
            turn = round_number % len(players)
            for contestant in players[turn:] + players[:turn]:
                started = time.process_time()
                played = contestant.slice(seconds)
                figures[rules][contestant.label].append(played / (time.process_time() - started))
    return figures, compile_times


def ratio(figures, top, bottom):
    return statistics.median(a / b for a, b in zip(figures[top], figures[bottom]))


def report(figures, compile_times, markdown, first_call="compile"):
    rows = []
    for rules, by_label in figures.items():
        for label, rates in by_label.items():
            referenced = f"{ratio(by_label, label, 'Python reference'):.2f}" if "Python reference" in by_label else "-"
            rows.append((rules, label, f"{statistics.median(rates):,.0f} ({min(rates):,.0f}-{max(rates):,.0f})",
                         referenced, f"{ratio(by_label, label, 'engine (Python path)'):.2f}"))
    header = ("game", "contestant", "playouts/CPU s: median (min-max)", "/ Python reference", "/ engine")
    if markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for row in rows:
            print("| " + " | ".join(row) + " |")
    else:
        widths = [max(len(str(r[k])) for r in rows + [header]) for k in range(len(header))]
        for row in [header] + rows:
            print("  ".join(str(cell).ljust(width) for cell, width in zip(row, widths)))
    for (rules, label), seconds in compile_times.items():
        print(f"\n{rules}: {label}'s first call, its {first_call} (the first one also compiles the random stream): "
              f"{seconds:.2f} s", end="")
    print()


def check():
    """Each anchor's games of seeds 0..CHECK_SEEDS-1 replayed in the engine: every move legal
    there, the game over after the same moves, the same winner."""
    from referee.interpreter.engine import load_game
    from referee.interpreter.runtime.random_source import seed_state
    failed = False
    for rules, (reference_name, anchor_name) in GAMES.items():
        reference = importlib.import_module(f"references.{reference_name}")
        anchor = importlib.import_module(f"references.{anchor_name}")
        game, _, _ = load_game(str(ROOT / "games" / f"{rules}.rules"), players=2)
        winners = {}
        for seed in range(CHECK_SEEDS):
            moves, winner = anchor.recorded(seed_state(seed))
            state = game.new_initial_state(seed)
            for k, move in enumerate(moves):
                if state.is_terminal():
                    problem = f"the engine's game ended after {k} moves, not {len(moves)}"
                    break
                state.apply(reference.move_name(move))
            else:
                engine_winners = [p for p, value in enumerate(state.returns(), 1) if value > 0]
                problem = (None if state.is_terminal() and engine_winners == ([winner] if winner else [])
                           else f"engine: ended {state.is_terminal()}, winners {engine_winners}; anchor: {winner}")
            if problem:
                print(f"{rules}: seed {seed}: {problem}")
                failed = True
                break
            winners[winner] = winners.get(winner, 0) + 1
        else:
            tally = ", ".join(f"player {w} won {n}" if w else f"{n} draws" for w, n in sorted(winners.items()))
            print(f"{rules}: the Numba anchor's games of seeds 0..{CHECK_SEEDS - 1} replay in the engine, "
                  f"move for move, to the same end ({tally})")
    return 1 if failed else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds of time slices (default 5)")
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one slice, wall clock (default 1)")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.add_argument("--check", action="store_true", help="check the anchors against the engine, then stop")
    parser.add_argument("--only", help="only the configurations whose name holds this (e.g. backgammon)")
    parser.add_argument("--cached", action="store_true",
                        help="load the kernels from Numba's cache (compiled there first if they are not): "
                             "the first call's time is then a load")
    args = parser.parse_args()
    if args.check:
        return check()
    if args.rounds < 1 or args.seconds <= 0:
        parser.error("--rounds and --seconds must be positive")
    with tempfile.TemporaryDirectory(prefix="referee-numba-") as folder:
        if not args.cached:
            os.environ["NUMBA_CACHE_DIR"] = folder        # (read when numba is first imported, below)
        figures, compile_times = measure(args.rounds, args.seconds, args.only)
    report(figures, compile_times, args.markdown, "load or compile" if args.cached else "compile")
    return 0


if __name__ == "__main__":
    sys.exit(main())
