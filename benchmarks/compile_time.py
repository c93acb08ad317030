"""Compile time and start-up of the referee, compared with other checkouts in one interleaved run.

    python benchmarks/compile_time.py --against /work/main          this checkout and another one
    python benchmarks/compile_time.py --against 53052eb             ... a commit (a temporary worktree)
    python benchmarks/compile_time.py --rounds 9 --only continents  fewer games, more rounds
    python benchmarks/compile_time.py --against /tmp/old --json
    python benchmarks/compile_time.py --no-bytecode        Python compiles every module each time

Three figures per game and checkout, each measured in a new Python process run from the
checkout's root (so it imports that checkout's `referee`):
- "import": CPU time of `from referee import load_game` and of the modules load_game needs;
- "load_game": CPU time of load_game(rules) once imported (read, check, compile: a cold start);
- "check": CPU time of the whole `python -m referee check RULES` process (the command's start-up
  and its work, as a user waits for it), from the child's resource usage.
And one per checkout, "check all": the CPU time of one `python -m referee check` process given
every rules file of games/ and games/variants/ that all the checkouts have.
The children read and write bytecode (.pyc) as an installed package has it, each checkout in
its own cache (PYTHONPYCACHEPREFIX, a temporary folder) filled by a first unmeasured run; with
--no-bytecode they run as the environment says (PYTHONDONTWRITEBYTECODE=1: every module
compiled from its source in every process).
A round measures every checkout on every game, one after the other, the order of the checkouts
rotating from round to round, so all of them see the same machine; the report gives the median
(and min-max) per figure, and the ratio this / other taken round by round, then its median.
Only figures from the same run are compared; nothing here is a timed test.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent          # the checkout this script belongs to
GAMES = ("continents", "titicaca", "solstis", "tic-tac-toe", "connect-four")

# run in the child, from a checkout's root: the import's and load_game's CPU time, as JSON
CHILD = """
import json, sys, time
sys.setrecursionlimit(10000)
start = time.process_time()
from referee import load_game
import referee.interpreter.engine
imported = time.process_time()
game, diagnostics, _ = load_game(sys.argv[1])
loaded = time.process_time()
if game is None:
    sys.exit(f"{sys.argv[1]}: {diagnostics}")
print(json.dumps({"import": imported - start, "load_game": loaded - imported}))
"""


BYTECODE = {}      # checkout -> its bytecode cache (PYTHONPYCACHEPREFIX), when .pyc files are used


def run(command, cwd):
    """(stdout, CPU seconds) of a child process, its resource usage read with wait4."""
    env = dict(os.environ, PYTHONPATH=str(cwd))
    if cwd in BYTECODE:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(BYTECODE[cwd])
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        process = subprocess.Popen(command, cwd=cwd, env=env, stdout=out, stderr=err)
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if process.returncode != 0:
            raise RuntimeError(f"{' '.join(map(str, command))} in {cwd} failed: {err.read()[-2000:]}")
        return out.read(), usage.ru_utime + usage.ru_stime


def measure(checkout, game):
    """{figure: CPU seconds} of one game in one checkout (see the module's docstring)."""
    rules = f"games/{game}.rules"
    out, _ = run([sys.executable, "-c", CHILD, rules], checkout)
    figures = json.loads(out.strip().splitlines()[-1])
    _, figures["check"] = run([sys.executable, "-m", "referee", "check", rules], checkout)
    return figures


def common_rules_files(checkouts):
    """The rules files of games/ and games/variants/ that every checkout has (relative paths)."""
    found = [{str(p.relative_to(c)) for folder in ("games", "games/variants") for p in (c / folder).glob("*.rules")}
             for c in checkouts]
    return sorted(set.intersection(*found))


def check_all(checkout, files):
    """{"check all": CPU seconds} of one `referee check` process given every file."""
    _, seconds = run([sys.executable, "-m", "referee", "check", *files], checkout)
    return {"check all": seconds}


def checkout_of(name, made):
    """The directory of a checkout given as a directory or as a commit (then a temporary worktree,
    appended to `made` for removal)."""
    if Path(name).is_dir():
        return Path(name).resolve()
    where = Path(tempfile.mkdtemp(prefix="compile-time-")) / "checkout"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(where), name], check=True,
                   capture_output=True)
    made.append(where)
    return where


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", action="append", default=[], help="another checkout: a directory or a commit")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", action="append", default=[], help="a game (repeatable; default: the five)")
    parser.add_argument("--json", action="store_true", help="every figure of every round")
    parser.add_argument("--no-bytecode", action="store_true",
                        help="no .pyc cache of the children's own (as the environment says)")
    args = parser.parse_args(argv)
    games = args.only or list(GAMES)
    made: list = []
    caches = None if args.no_bytecode else tempfile.TemporaryDirectory(prefix="compile-time-pyc-")
    try:
        contestants = {"now": ROOT}
        for name in args.against:
            contestants[name] = checkout_of(name, made)
        names = list(contestants)
        files = common_rules_files(contestants.values())
        for k, checkout in enumerate(contestants.values()):
            if caches is not None:
                BYTECODE[checkout] = Path(caches.name) / str(k)
                check_all(checkout, files)          # fills the cache (and the disk's)
        rounds = []     # [{contestant: {game: {figure: seconds}}}]
        for k in range(args.rounds):
            order = names[k % len(names):] + names[:k % len(names)]
            results = {name: {} for name in names}
            for game in games:
                for name in order:
                    results[name][game] = measure(contestants[name], game)
            for name in order:
                results[name]["all files"] = check_all(contestants[name], files)
            rounds.append(results)
            print(f"round {k + 1}/{args.rounds} done", file=sys.stderr)
    finally:
        if caches is not None:
            caches.cleanup()
        for where in made:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(where)], capture_output=True)
    if args.json:
        print(json.dumps({"contestants": {n: str(p) for n, p in contestants.items()}, "rounds": rounds}, indent=1))
        return
    report(rounds, names, games)


def totals(results, name, games):
    """A contestant's figures of one round, and their sums over the games."""
    figures = {game: results[name][game] for game in games}
    figures["all"] = {f: sum(results[name][g][f] for g in games) for f in ("import", "load_game", "check")}
    figures["all"].update(results[name]["all files"])
    return figures


def report(rounds, names, games):
    print(f"CPU seconds, median (min-max) of {len(rounds)} rounds; ratio now / other per round, then the median")
    for game in [*games, "all"]:
        print(f"\n{game}")
        figures = ("import", "load_game", "check") + (("check all",) if game == "all" else ())
        for figure in figures:
            cells = []
            for name in names:
                values = [totals(r, name, games)[game][figure] for r in rounds]
                cells.append(f"{name} {statistics.median(values):.3f} ({min(values):.3f}-{max(values):.3f})")
            for name in names[1:]:
                ratios = [totals(r, "now", games)[game][figure] / totals(r, name, games)[game][figure] for r in rounds]
                cells.append(f"now / {name} {statistics.median(ratios):.2f}x")
            print(f"  {figure:<10} " + "   ".join(cells))


if __name__ == "__main__":
    main()
