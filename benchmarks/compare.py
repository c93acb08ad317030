"""Random playouts per second of the referee engine, compared in one interleaved run.

    python benchmarks/compare.py                       this checkout and the hand-written references
    python benchmarks/compare.py --against 8ed730e     ... and an older commit (repeatable)
    python benchmarks/compare.py --only continents --rounds 9 --seconds 2
    python benchmarks/compare.py --markdown            a table for benchmarks/README.md
    python benchmarks/compare.py --json
    python benchmarks/compare.py --check-references    do the references play the rules files' games?
    python benchmarks/compare.py --native --against 15592e0    ... and each checkout's native kernel

Every contestant (this checkout "now", the references, each --against commit) runs in its own
worker process (benchmarks/worker.py), started afresh for each round, that loads each game once
before any timing. A round gives every contestant one time slice per configuration, in turn
(the order rotates from round to round); each slice plays the random games of seeds 0, 1, 2, ...
so all contestants play the same games. The report gives the median and the min-max over the rounds of playouts per second
of the worker's CPU time (other programs on the machine change it much less than wall-clock
time), and the ratio now / other, taken round by round (slices close in time) then the median.
Only figures from the same run are compared.

With --native, each checkout that has native kernels (interpreter/native) also has a "native"
contestant: a worker that plays each configuration's kernel in batches of games (one compiled
call each, as benchmarks/native.py times it), in the same rounds; a second table gives its
playouts per CPU second and the ratios native / the same checkout's Python path, native /
reference and native now / native then. The kernels' compile or load from Numba's cache is
done before the timing and reported apart.
"""
import argparse
import importlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from references import BY_RULES

ROOT = Path(__file__).resolve().parent.parent          # the checkout this script belongs to
WORKER = Path(__file__).resolve().parent / "worker.py"
CHECK_SEEDS = 1000
NOW_NATIVE = "now native"


class Config:
    def __init__(self, rules, players, options=()):
        self.rules = f"games/{rules}.rules"
        self.players = players
        self.options = list(options)
        self.name = " ".join([f"{rules} {players}p", *options])
        self.has_reference = rules in BY_RULES

    def load_command(self):
        return {"load": self.name, "rules": self.rules, "players": self.players, "options": self.options}


CONFIGS = [
    Config("tic-tac-toe", 2),
    Config("connect-four", 2),
    Config("continents", 2),
    Config("continents", 4),
    Config("continents", 6),
    Config("continents", 3, ["normal"]),
    Config("titicaca", 2),
    Config("titicaca", 3),
    Config("titicaca", 5),
    Config("solstis", 2),
    Config("solstis", 2, ["discovery"]),
]


class Contestant:
    """The engine of a checkout (kind "engine"), its native kernels (kind "native", python_path:
    the label of that checkout's engine) or the references, and its worker process of the
    current round."""

    def __init__(self, label, kind, root, description, python_path=None):
        self.label, self.kind, self.root, self.description = label, kind, Path(root), description
        self.python_path = python_path
        self.loaded = set()         # names of the configs this contestant can play
        self.process = None

    def start(self):
        self.loaded = set()
        environment = dict(os.environ, PYTHONPATH=str(self.root))
        self.process = subprocess.Popen([sys.executable, str(WORKER), self.kind], cwd=self.root, env=environment,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        imported = self.receive()["interpreter"]
        if self.kind != "reference" and Path(imported) != (self.root / "interpreter").resolve():
            raise SystemExit(f"compare.py: the worker for {self.label} imports {imported}, not {self.root}")

    def send(self, command):
        self.process.stdin.write(json.dumps(command) + "\n")
        self.process.stdin.flush()

    def receive(self):
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"compare.py: the worker for {self.label} stopped (see its error above)")
        return json.loads(line)

    def ask(self, command):
        self.send(command)
        return self.receive()

    def stop(self):
        if self.process is None:
            return
        if self.process.poll() is None:
            try:
                self.send({"quit": True})
                self.process.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()


def native_contestant(engine):
    """The native kernels of an engine contestant's checkout."""
    label = NOW_NATIVE if engine.label == "now" else f"{engine.label} native"
    return Contestant(label, "native", engine.root, f"native kernels of {engine.description}", python_path=engine.label)


def git(*arguments):
    return subprocess.run(["git", "-C", str(ROOT), *arguments], check=True, text=True,
                          capture_output=True).stdout.strip()


def describe_checkout():
    head = git("rev-parse", "--short", "HEAD")
    changed = git("status", "--porcelain", "--untracked-files=no")
    return f"{ROOT} at {head}" + (" with uncommitted changes" if changed else "")


def add_worktree(commit, folder):
    try:
        full = git("rev-parse", "--verify", "--quiet", commit + "^{commit}")
    except subprocess.CalledProcessError:
        raise SystemExit(f"compare.py: no commit {commit!r}")
    path = Path(folder) / full[:12]
    git("worktree", "add", "--detach", "--quiet", str(path), full)
    return path, full


def remove_worktree(path):
    try:
        git("worktree", "remove", "--force", str(path))
    except subprocess.CalledProcessError:
        pass        # the prune after removing the temporary folder forgets it


# ---- measuring ---------------------------------------------------------------------------

def load_all(contestants, configs, loads):
    """Every worker loads its games at the same time (nothing is timed yet); a native worker's
    compile or cache load goes into loads[config][label], one a round."""
    for contestant in contestants:
        for config in configs:
            if contestant.kind != "reference" or config.has_reference:
                contestant.send(config.load_command())
    warnings = []
    for contestant in contestants:
        for config in configs:
            if contestant.kind != "reference" or config.has_reference:
                answer = contestant.receive()
                if "error" in answer:
                    warnings.append(f"{contestant.label} cannot play {config.name}: {answer['error']}")
                    continue
                contestant.loaded.add(config.name)
                if "load_seconds" in answer:
                    loads.setdefault(config.name, {}).setdefault(contestant.label, []).append(
                        {"seconds": answer["load_seconds"], "from_cache": answer["from_cache"]})
    return warnings


def measure(contestants, configs, rounds, seconds):
    """Play the rounds. Each round starts its own worker processes: one process can run a few
    per cent faster or slower than another with the same code (memory layout, hash seed), and
    a process kept for the whole run would carry that into every round.
    Returns slices[config][label][round] = the worker's answer, the same-games checks,
    warnings, the differences in play and the native kernels' loads."""
    slices = {config.name: {} for config in configs}
    checks, warnings, differences, loads = {}, [], {}, {}
    for round_number in range(rounds):
        print(f"round {round_number + 1}/{rounds}", file=sys.stderr, flush=True)
        try:
            for contestant in contestants:
                contestant.start()
            warnings += load_all(contestants, configs, loads)
            for config in configs:
                players = [c for c in contestants if config.name in c.loaded]
                shift = round_number % len(players) if players else 0
                for contestant in players[shift:] + players[:shift]:
                    answer = contestant.ask({"run": config.name, "seconds": seconds})
                    if "error" in answer:
                        warnings.append(f"{contestant.label} stopped playing {config.name}: {answer['error']}")
                        contestant.loaded.discard(config.name)
                    else:
                        slices[config.name].setdefault(contestant.label, {})[round_number] = answer
                        if answer.get("handed_to_python"):
                            warnings.append(f"{contestant.label} hands games of {config.name} to Python "
                                            f"(counted as played, not played there)")
            check_same_games(contestants, configs, slices, round_number, checks, differences)
        finally:
            for contestant in contestants:
                contestant.stop()
    return slices, checks, list(dict.fromkeys(warnings)), list(differences.values()), loads


def check_same_games(contestants, configs, slices, round_number, checks, differences):
    """Ask this round's workers for the moves and outcomes of seeds 0..N-1 (N: the fewest any
    of them played in its slice); note a contestant that plays them differently from the
    first one. checks keeps, per config, the moves of the round with the largest N."""
    for config in configs:
        played = {label: rounds[round_number] for label, rounds in slices[config.name].items() if round_number in rounds}
        players = [c for c in contestants if c.label in played and config.name in c.loaded]
        if not players:
            continue
        seeds = min(played[c.label]["playouts"] for c in players)
        answers = {c.label: c.ask({"check": config.name, "seeds": seeds}) for c in players}
        first = players[0].label
        for label, answer in answers.items():
            if answer.get("outcomes") != answers[first].get("outcomes"):
                differences.setdefault((config.name, label), (
                    f"{config.name}: {label} plays seeds 0..{seeds - 1} differently from {first} "
                    f"({answer.get('moves', answer.get('error'))} moves against {answers[first].get('moves')}, "
                    f"or other winners)"))
        if seeds > checks.get(config.name, {}).get("seeds", 0):
            checks[config.name] = {"seeds": seeds, "moves": {label: a.get("moves") for label, a in answers.items()}}


def summarize(values):
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def ratio_over_rounds(rates, top, bottom):
    """The ratio top / bottom taken round by round (median, min, max), or None if they never met."""
    both = [r for r in rates.get(top, {}) if r in rates.get(bottom, {})]
    return summarize([rates[top][r] / rates[bottom][r] for r in both]) if both else None


def native_ratios(contestant, rates, natives):
    """A native contestant's ratios: over its checkout's Python path and the reference, and
    (for another checkout's) native now over it."""
    found = {"native_over_python_path": ratio_over_rounds(rates, contestant.label, contestant.python_path),
             "native_over_reference": ratio_over_rounds(rates, contestant.label, "reference")}
    if contestant.label != NOW_NATIVE and NOW_NATIVE in natives:
        found["now_native_over_this"] = ratio_over_rounds(rates, NOW_NATIVE, contestant.label)
    return {name: figure for name, figure in found.items() if figure is not None}


def results(contestants, configs, slices, checks, loads=None):
    """The figures, as printed by --json."""
    natives = {c.label: c for c in contestants if c.kind == "native"}
    rows = []
    for config in configs:
        per_label = slices[config.name]
        rates = {label: {r: run["playouts"] / run["cpu_seconds"] for r, run in runs.items()}
                 for label, runs in per_label.items()}
        check = checks.get(config.name, {"seeds": 0, "moves": {}})
        row = {"config": config.name, "rules": config.rules, "players": config.players, "options": config.options,
               "seeds_checked": check["seeds"], "contestants": {}}
        for label, by_round in rates.items():
            runs = per_label[label].values()
            entry = {"playouts_per_second": summarize(list(by_round.values())),
                     "per_round": {r: round(rate, 2) for r, rate in by_round.items()},
                     "moves_per_second": statistics.median(run["moves"] / run["cpu_seconds"] for run in runs),
                     "wall_clock_playouts_per_second": summarize([run["playouts"] / run["wall_seconds"] for run in runs]),
                     "moves_in_seeds_checked": check["moves"].get(label)}
            both = [r for r in by_round if r in rates.get("now", {})]
            if label != "now" and both:
                entry["now_over_this"] = summarize([rates["now"][r] / by_round[r] for r in both])
            if label in natives:
                entry.update(native_ratios(natives[label], rates, natives),
                             loads=(loads or {}).get(config.name, {}).get(label, []))
            row["contestants"][label] = entry
        rows.append(row)
    return {"contestants": [{"label": c.label, "kind": c.kind, "description": c.description} for c in contestants],
            "configs": rows}


# ---- reporting ---------------------------------------------------------------------------

def rate_text(figure):
    digits = 0 if figure["median"] >= 100 else 1
    return f"{figure['median']:.{digits}f} ({figure['min']:.{digits}f}-{figure['max']:.{digits}f})"


def ratio_text(figure):
    digits = 2 if figure["median"] >= 0.1 else 3
    return f"{figure['median']:.{digits}f} ({figure['min']:.{digits}f}-{figure['max']:.{digits}f})"


def native_table(report):
    """(header, rows) of the native contestants' figures, None if there are none."""
    natives = [c["label"] for c in report["contestants"] if c["kind"] == "native"]
    if not natives:
        return None
    header = ["config", "contestant", "playouts/CPU s: median (min-max)", "/ Python path", "/ reference",
              f"{NOW_NATIVE} / this", "first load, later (s)"]
    rows = []
    for row in report["configs"]:
        name = row["config"]
        for label in natives:
            entry = row["contestants"].get(label)
            if entry is None:
                continue
            ratios = [ratio_text(entry[k]) if k in entry else "-"
                      for k in ("native_over_python_path", "native_over_reference", "now_native_over_this")]
            rows.append([name, label, rate_text(entry["playouts_per_second"]), *ratios, load_text(entry["loads"])])
            name = ""
    return header, rows


def load_text(loads):
    """The first round's compile or cache load, then the median of the later rounds'."""
    if not loads:
        return "-"
    first = f"{loads[0]['seconds']:.1f}" + ("" if loads[0]["from_cache"] is not False else " (compiled)")
    later = [load["seconds"] for load in loads[1:]]
    return first + (f", {statistics.median(later):.1f}" if later else "")


def print_native(report, markdown):
    table = native_table(report)
    if table is None:
        return
    header, rows = table
    print()
    if markdown:
        for cells in [header, *rows]:
            print("| " + " | ".join(cells) + " |")
            if cells is header:
                print("|" + "---|" * len(header))
        return
    print("Native kernels (interpreter/native), in the same rounds; the kernels' load is not timed:")
    widths = [max(len(cells[k]) for cells in [header, *rows]) for k in range(len(header))]
    for cells in [header, *rows]:
        print("  ".join(cell.ljust(width) for cell, width in zip(cells, widths)).rstrip())


def print_text(report, rounds, seconds):
    print(f"Random playouts per CPU second, {rounds} rounds of {seconds:g} s per contestant and configuration, interleaved.")
    width = max([10] + [len(c["label"]) for c in report["contestants"]])
    for contestant in report["contestants"]:
        print(f"  {contestant['label']:<{width}} {contestant['description']}")
    print()
    header = ("config", "contestant", "playouts/CPU s: median (min-max)", "now / this (min-max)", "moves in seeds checked")
    line = "{:<24} {:<10} {:>33} {:>22} {:>24}"
    print(line.format(*header))
    natives = {c["label"] for c in report["contestants"] if c["kind"] == "native"}
    for row in report["configs"]:
        name = row["config"]
        for label, entry in row["contestants"].items():
            if label in natives:
                continue
            ratio = ratio_text(entry["now_over_this"]) if "now_over_this" in entry else ""
            moves = f"{entry['moves_in_seeds_checked']} (0..{row['seeds_checked'] - 1})"
            print(line.format(name, label, rate_text(entry["playouts_per_second"]), ratio, moves))
            name = ""


def print_markdown(report):
    labels = [c["label"] for c in report["contestants"] if c["kind"] != "native"]
    others = [label for label in labels if label != "now"]
    header = ["config", "now playouts/CPU s"]
    for label in others:
        header += [f"{label} playouts/CPU s", f"now / {label}"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in report["configs"]:
        entries = row["contestants"]
        cells = [row["config"], rate_text(entries["now"]["playouts_per_second"]) if "now" in entries else "-"]
        for label in others:
            entry = entries.get(label)
            cells.append(rate_text(entry["playouts_per_second"]) if entry else "-")
            cells.append(ratio_text(entry["now_over_this"]) if entry and "now_over_this" in entry else "-")
        print("| " + " | ".join(cells) + " |")


# ---- do the references play the same games as the rules files? ---------------------------

def check_references():
    """Drive the engine and each reference with the same random choices; compare them move by move."""
    sys.path.insert(0, str(ROOT))
    import referee.interpreter
    from referee.interpreter.engine import load_game
    print(f"engine: {Path(referee.interpreter.__file__).parent}")
    failed = False
    for rules, module_name in BY_RULES.items():
        module = importlib.import_module("references." + module_name)
        game, diagnostics, _ = load_game(str(ROOT / "games" / f"{rules}.rules"), options=(), players=2)
        if game is None:
            raise SystemExit(f"compare.py: cannot load {rules}: {diagnostics}")
        lengths, winners = [], {}
        for seed in range(CHECK_SEEDS):
            outcome = play_both(game, module.Game(), module.move_name, seed)
            if isinstance(outcome, str):
                print(f"{rules}: seed {seed}: {outcome}")
                failed = True
                break
            length, winner = outcome
            lengths.append(length)
            winners[winner] = winners.get(winner, 0) + 1
        else:
            tally = ", ".join(f"player {w} won {n}" if w else f"{n} draws" for w, n in sorted(winners.items(), key=str))
            print(f"{rules}: the reference plays seeds 0..{CHECK_SEEDS - 1} as the engine does (same legal moves "
                  f"in the same order, players, lengths, winners); mean length {statistics.mean(lengths):.2f}; {tally}")
    return 1 if failed else 0


def play_both(game, reference, move_name, seed):
    """(length, winner or None) of seed's game if both play it alike, else what differs."""
    rng = random.Random(seed)
    engine_state, reference_state = game.new_initial_state(seed), reference.new_initial_state(seed)
    played = 0
    while True:
        if engine_state.is_terminal() != reference_state.is_terminal():
            return f"after {played} moves, ended: engine {engine_state.is_terminal()}, reference {reference_state.is_terminal()}"
        if engine_state.is_terminal():
            break
        if engine_state.current_player() != reference_state.current_player():
            return f"after {played} moves, player {engine_state.current_player()} against {reference_state.current_player()}"
        engine_moves, reference_moves = engine_state.legal_moves(), reference_state.legal_moves()
        engine_names = [move.name for move in engine_moves]
        reference_names = [move_name(move) for move in reference_moves]
        if engine_names != reference_names:
            return f"after {played} moves, legal moves {engine_names} against {reference_names}"
        index = rng.randrange(len(engine_moves))
        engine_state.apply(engine_moves[index])
        reference_state.apply(reference_moves[index])
        played += 1
    if list(engine_state.returns()) != list(reference_state.returns()):
        return f"returns {engine_state.returns()} against {reference_state.returns()}"
    winners = [player for player, value in enumerate(engine_state.returns(), 1) if value > 0]
    return played, winners[0] if winners else None


# ---- main --------------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds of time slices (default 5)")
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one slice, wall clock (default 1)")
    parser.add_argument("--only", action="append", metavar="NAME",
                        help="only the configurations whose name starts with NAME (repeatable): 'continents', 'continents 2p'")
    parser.add_argument("--against", action="append", default=[], metavar="COMMIT",
                        help="also measure this commit, in a temporary git worktree (repeatable)")
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print the figures as JSON")
    output.add_argument("--markdown", action="store_true", help="print a Markdown table of the figures and ratios")
    parser.add_argument("--native", action="store_true",
                        help="also measure each checkout's native kernels (interpreter/native; needs numba)")
    parser.add_argument("--check-references", action="store_true",
                        help=f"check that the references play seeds 0..{CHECK_SEEDS - 1} as the engine does, then stop")
    args = parser.parse_args()
    if args.check_references:
        return check_references()
    if args.rounds < 1 or args.seconds <= 0:
        parser.error("--rounds and --seconds must be positive")
    configs = [c for c in CONFIGS if not args.only or any(c.name.startswith(name) for name in args.only)]
    if not configs:
        parser.error(f"no configuration matches; they are: {', '.join(c.name for c in CONFIGS)}")

    contestants = [Contestant("now", "engine", ROOT, describe_checkout())]
    if args.native:
        contestants.append(native_contestant(contestants[0]))
    if any(c.has_reference for c in configs):
        contestants.append(Contestant("reference", "reference", ROOT, "benchmarks/references (hand-written Python)"))
    worktrees, notes = [], []
    with tempfile.TemporaryDirectory(prefix="referee-compare-") as folder:
        try:
            for commit in dict.fromkeys(args.against):
                path, full = add_worktree(commit, folder)
                worktrees.append(path)
                contestants.append(Contestant(commit, "engine", path, f"commit {full[:12]}, in a temporary worktree"))
                if args.native:
                    if (path / "interpreter" / "native" / "kernel.py").is_file():
                        contestants.append(native_contestant(contestants[-1]))
                    else:
                        notes.append(f"{commit} has no native kernels (interpreter/native): no native contestant")
            slices, checks, warnings, differences, loads = measure(contestants, configs, args.rounds, args.seconds)
        finally:
            for path in worktrees:
                remove_worktree(path)
    if worktrees:
        git("worktree", "prune")

    report = results(contestants, configs, slices, checks, loads)
    report.update(rounds=args.rounds, seconds=args.seconds, warnings=notes + warnings + differences)
    if args.json:
        print(json.dumps(report, indent=2))
    elif args.markdown:
        print_markdown(report)
        print_native(report, markdown=True)
    else:
        print_text(report, args.rounds, args.seconds)
        print_native(report, markdown=False)
    for warning in notes + warnings + differences:
        print(f"warning: {warning}", file=sys.stderr)
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
