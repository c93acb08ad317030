"""Mutations of real rules files that keep them close to a game: a line deleted, doubled or
moved, a token dropped, a name swapped for another name of the same file (a zone where a
variable is expected, a type where a value is), a number made 0, -1 or huge, a range turned
round, an operator changed, a `?` added to a type or taken away, `list of X` for X, an
expression nested deeply, `extends` and `override` where they do not belong.

Unlike the byte-level mutations of tests/test_fuzz.py, most of these mutants still parse, so
they reach the checker, the compiler and the engine. `examine(path, seed)` runs one through
the whole pipeline and says what came of it, or raises `Unacceptable` with what went wrong.

tests/test_fuzz_rules.py runs a few under hypothesis; a long run, by hand, one process per
mutant (a hang or a memory blowup is caught too), failures written to a folder:

    PYTHONPATH=$PWD python -m tests.rules_mutations --count 5000 --out /tmp/fuzz-failures
"""
from __future__ import annotations

import argparse
import contextlib
import random
import re
import shutil
import signal
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path

from referee.dsl import ast
from referee.dsl.diagnostics import Diagnostic, RulesError
from referee.dsl.types import BOOL, FRACTION, INT, PLAYER
from referee.interpreter.engine import load_game
from referee.interpreter.engine.params import player_range
from referee.interpreter.tools import verify
from referee.interpreter.runtime.errors import IllegalMove, RulesRuntimeError

TOKEN = re.compile(r'"""(?:.|\n)*?"""|"(?:[^"\\\n]|\\.)*"|#[^\n]*|\w+|==|!=|<=|>=|\+=|-=|//|\.\.|\s+|\S')
WORD = re.compile(r"[A-Za-z_]\w*")
# a declaration's keyword and the name it declares
DECLARATION = re.compile(r"^\s*(?:override\s+)?(zone|var|component|board|enum|fn|proc|action|param|option)\s+(\w+)", re.M)
TYPE_AFTER_COLON = re.compile(r"(:\s*)((?:list of )?[A-Z]\w*|int|bool|text|real)(\??)")
# operators by kind: most changes keep the kind (the file still checks), some do not
OPERATOR_KINDS = (["+", "-", "*", "//", "%", "/"], ["==", "!=", "<", "<=", ">", ">="], ["and", "or"])
OPERATORS = [op for kind in OPERATOR_KINDS for op in kind]
NUMBERS = ["0", "-1", "1", "2", "100", "1000000", "999999999999999999", "1000000000 * 1000000000",
           "num_players", "(0 - 5)", "size(players)"]
RANGES = ["1..0", "0..0", "5..1", "-3..-1", "1..1000000", "0..999999999999999999"]
BUILTIN_TYPES = ["int", "bool", "text", "Player", "real"]
KEYWORDS = ["let", "if", "else", "for", "while", "repeat", "move", "deal", "shuffle", "reveal", "require",
            "finish", "play", "turns", "turn", "again", "choose", "none", "true", "false", "current",
            "extends", "override", "simultaneous", "create", "in", "of", "to", "where", "by", "until"]
NESTINGS = [("(", ")"), ("not ", ""), ("- ", ""), ("if true { ", " }"), ("[", "]"), ("size(", ")")]
MOVES = 40            # moves of one random game at most
GAMES_PER_COUNT = 2   # random games per player count
# A step may do MAX_STEP_WORK units of work, some seconds of Python (a range of a million
# numbers in a listing): a mutant plays until PLAY_SECONDS have gone by, and only one that
# runs past SECONDS (several steps' budgets) is a hang.
PLAY_SECONDS = 5
SECONDS = 90
MEMORY = 2 << 30      # address space of the process running one mutant (the long run)


class Unacceptable(Exception):
    """A mutant led to something other than diagnostics, a located runtime error or a game."""


def declared_names(text: str) -> dict:
    """{kind: [names]} of a rules file's declarations, enum members as 'member'."""
    names = {}
    for kind, name in DECLARATION.findall(text):
        names.setdefault(kind, []).append(name)
    for members in re.findall(r"\benum\s+\w+\s*\{([^}]*)\}", text):
        names.setdefault("member", []).extend(WORD.findall(members))
    return names


def spots(tokens, test):
    return [i for i, token in enumerate(tokens) if test(token)]


# ---- the mutations: each (text, rng) -> text ------------------------------------------

def delete_line(text, rng):
    lines = text.split("\n")
    del lines[rng.randrange(len(lines))]
    return "\n".join(lines)


def duplicate_line(text, rng):
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    lines.insert(i, lines[i])
    return "\n".join(lines)


def swap_lines(text, rng):
    lines = text.split("\n")
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def on_tokens(change):
    """A mutation of one solid token (not space), given the tokens and its index."""
    def mutation(text, rng):
        tokens = TOKEN.findall(text)
        solid = spots(tokens, lambda t: not t.isspace() and not t.startswith("#"))
        if solid:
            change(tokens, rng.choice(solid), rng, text)
        return "".join(tokens)
    mutation.__name__ = change.__name__
    return mutation


@on_tokens
def drop_token(tokens, i, rng, text):
    tokens[i] = ""


@on_tokens
def duplicate_token(tokens, i, rng, text):
    tokens[i] = tokens[i] + " " + tokens[i]


@on_tokens
def swap_tokens(tokens, i, rng, text):
    j = rng.randrange(len(tokens))
    if not tokens[j].isspace():
        tokens[i], tokens[j] = tokens[j], tokens[i]


def one_of(tokens, test, rng):
    found = spots(tokens, test)
    return rng.choice(found) if found else None


def swap_identifier(text, rng):
    """A declared name used where another name of the file stands (of any kind: a zone for a
    variable, a component type for a value, an action for a function)."""
    names = declared_names(text)
    everything = [name for group in names.values() for name in group]
    if not everything:
        return text
    tokens = TOKEN.findall(text)
    i = one_of(tokens, lambda t: t in everything, rng)
    if i is not None:
        tokens[i] = rng.choice(everything + BUILTIN_TYPES + ["current", "none", "players", "num_players"])
    return "".join(tokens)


def swap_same_kind(text, rng):
    """A name for another of its kind (a zone for a zone, a variable for a variable): the file
    often still checks, and the game does what it was not written for."""
    names = declared_names(text)
    tokens = TOKEN.findall(text)
    kinds = {name: kind for kind, group in names.items() for name in group}
    i = one_of(tokens, lambda t: t in kinds and len(names[kinds[t]]) > 1, rng)
    if i is not None:
        tokens[i] = rng.choice(names[kinds[tokens[i]]])
    return "".join(tokens)


def copy_line(text, rng):
    """A line copied elsewhere: a statement into another block, section or declaration."""
    lines = text.split("\n")
    line = rng.choice(lines)
    lines.insert(rng.randrange(len(lines) + 1), line)
    return "\n".join(lines)


# statements put into a block of the file, their names drawn from the file's declarations
STATEMENTS = ["{var} = {value}", "{var} += {value}", "{var} = none", "move top({zone}) to {zone}[{value}]",
              "move all of {zone} to {zone}", "deal {value} from {zone} to {zone}", "shuffle {zone}",
              "turn {value} {{ play {action} }}", "choose c in players by {value} {{ {var} = c }}",
              "finish winners [{value}]", 'log "{{{var}}} {{{value}}}"', "reveal top({zone}) to {value}",
              "{proc}()", "if {var} == {value} {{ again }}", "for i in 1..{value} {{ {var} += i }}",
              "let c = top({zone}) c.owner = {value}", "let c = first(x in {zone}) move c to {zone}",
              "for i in 1..60 {{ {var} = {var} + {var} }}", 'for i in 1..100000 {{ log "{{{zone}}}" }}']
VALUES = ["0", "1", "2", "3", "5", "-1", "none", "current", "next(current)", "num_players + 1", "size(players)"]


def insert_statement(text, rng):
    """A statement that the file does not have, in one of its blocks: a write, a move, a turn,
    a choice, an end, with the file's own names."""
    names = declared_names(text)
    opening = [i for i, line in enumerate(text.split("\n")) if line.rstrip().endswith("{")]
    if not opening:
        return text
    fill = {kind: rng.choice(names.get(kind) or ["x"]) for kind in ("var", "zone", "action", "proc")}
    statement = rng.choice(STATEMENTS).format(value=rng.choice(VALUES), **fill)
    lines = text.split("\n")
    lines.insert(rng.choice(opening) + 1, "  " + statement)
    return "\n".join(lines)


def type_for_value(text, rng):
    """A type name (or a number, a text) where a value or a name stands."""
    tokens = TOKEN.findall(text)
    i = one_of(tokens, lambda t: WORD.fullmatch(t) is not None or t.isdigit(), rng)
    if i is not None:
        names = declared_names(text)
        types = BUILTIN_TYPES + names.get("component", []) + names.get("board", []) + names.get("enum", [])
        tokens[i] = rng.choice(types + ['"text"', "0", "true", "none"])
    return "".join(tokens)


def change_number(text, rng):
    tokens = TOKEN.findall(text)
    i = one_of(tokens, str.isdigit, rng)
    if i is not None:
        tokens[i] = rng.choice(NUMBERS)
    return "".join(tokens)


def change_range(text, rng):
    """A range a..b made empty, turned round, huge; or a number made a range."""
    found = list(re.finditer(r"[\w()]+\s*\.\.\s*[\w()]+", text))
    if found:
        match = rng.choice(found)
        return text[:match.start()] + rng.choice(RANGES) + text[match.end():]
    return change_number(text, rng)


def change_operator(text, rng):
    tokens = TOKEN.findall(text)
    i = one_of(tokens, lambda t: t in OPERATORS, rng)
    if i is not None:
        same = next(kind for kind in OPERATOR_KINDS if tokens[i] in kind)
        tokens[i] = rng.choice(same if rng.random() < 0.7 else OPERATORS)
    return "".join(tokens)


def toggle_optional(text, rng):
    """`: T` becomes `: T?` and `: T?` becomes `: T`."""
    found = list(TYPE_AFTER_COLON.finditer(text))
    if not found:
        return text
    match = rng.choice(found)
    mark = "" if match.group(3) else "?"
    return text[:match.start()] + match.group(1) + match.group(2) + mark + text[match.end():]


def toggle_list(text, rng):
    """`list of X` becomes X, and X `list of X`."""
    found = list(TYPE_AFTER_COLON.finditer(text))
    if not found:
        return text
    match = rng.choice(found)
    kind = match.group(2)
    kind = kind[len("list of "):] if kind.startswith("list of ") else "list of " + kind
    return text[:match.start()] + match.group(1) + kind + match.group(3) + text[match.end():]


def nest_deeply(text, rng):
    """A token wrapped in many brackets, `not`s, minus signs, ifs."""
    tokens = TOKEN.findall(text)
    i = one_of(tokens, lambda t: WORD.fullmatch(t) is not None or t.isdigit(), rng)
    if i is not None:
        opening, closing = rng.choice(NESTINGS)
        n = rng.choice([2, 10, 40, 99, 150])
        tokens[i] = opening * n + tokens[i] + closing * n
    return "".join(tokens)


def swap_keyword(text, rng):
    tokens = TOKEN.findall(text)
    i = one_of(tokens, lambda t: t in KEYWORDS, rng)
    if i is not None:
        tokens[i] = rng.choice(KEYWORDS)
    return "".join(tokens)


def extends_oddity(text, rng):
    """`extends` or `override` where they do not belong: a second extends, extends of itself or
    of a missing file, an override of a name that is not in the base, an override on a line."""
    lines = text.split("\n")
    i = rng.randrange(len(lines) + 1)
    names = declared_names(text)
    everything = [name for group in names.values() for name in group] or ["x"]
    choices = ['extends "../continents.rules"', 'extends "continents.rules"', 'extends "mutant.rules"',
               'extends "missing.rules"', 'extends ""', 'extends "."', 'override',
               f"override var {rng.choice(everything)}: int = 0", f"override param {rng.choice(everything)} = 1",
               f"override zone {rng.choice(everything)}: pile of {rng.choice(everything)}"]
    extra = rng.choice(choices)
    if extra == "override" and i < len(lines):
        lines[i] = "override " + lines[i]
    else:
        lines.insert(i, extra)
    return "\n".join(lines)


MUTATIONS = (delete_line, duplicate_line, swap_lines, copy_line, drop_token, duplicate_token, swap_tokens,
             swap_identifier, swap_same_kind, swap_same_kind, type_for_value, change_number, change_number, change_range, change_operator,
             toggle_optional, toggle_list, nest_deeply, swap_keyword, extends_oddity,
             insert_statement, insert_statement, insert_statement)


def mutate(text: str, rng: random.Random) -> tuple:
    """(mutant, names of the mutations applied): one to three mutations."""
    applied = []
    for _ in range(rng.choice([1, 1, 2, 3])):
        mutation = rng.choice(MUTATIONS)
        text = mutation(text, rng)
        applied.append(mutation.__name__)
    return text, applied


# ---- running a mutant through the pipeline --------------------------------------------

@contextlib.contextmanager
def time_limit(seconds):
    """A hang becomes a TimeoutError that fails the one example instead of the whole run
    (where SIGALRM exists)."""
    if not hasattr(signal, "SIGALRM"):
        yield
        return

    def stop(signum, frame):
        raise TimeoutError(f"a hang: more than {seconds} s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def located_diagnostics(diagnostics, sources, path):
    for d in diagnostics:
        if not isinstance(d, Diagnostic) or not re.fullmatch(r"E\d{3}", d.code):
            raise Unacceptable(f"not a diagnostic: {d!r}")
        whole_file = d.code.startswith("E5") and d.span.line == 0     # a file that cannot be read
        if not d.span.file or (not whole_file and (d.span.line < 1 or d.span.column < 1)):
            raise Unacceptable(f"a diagnostic without a place: {d!r}")
        if re.search(r"\b(?:list|zone)\[|'[\w?]+\]'|\bof any\b|is 'any'|\?\?", f"{d.message} {d.hint or ''}"):
            raise Unacceptable(f"a message shows a type as the checker spells it, not as a rules file does: {d!r}")
        text = sources.get(d.span.file)
        if text is not None and d.span.line > text.count("\n") + 1:
            raise Unacceptable(f"a diagnostic past the end of its file: {d!r}")
    RulesError(diagnostics, sources).render()


def located_runtime_error(error):
    if error.span is None or not re.search(r":\d+:\d+: runtime error", str(error)):
        raise Unacceptable(f"a runtime error without a place: {error}")
    # a Python error the engine caught on a rules line: located, but the rules deserved a
    # message of their own (a 'none' stored, a wrong kind of value): reported as a weak one
    kind = "python error" if re.search(r"runtime error: \w+Error while ", str(error)) else "runtime error"
    return kind, str(error)


def broken_promise(state):
    """What the engine promises of every state, whatever the rules: the player to move is a
    seat, and so is a component's owner; components lie in declared zones, within their
    indexes; a variable of a type without
    '?' holds a value (None for a number, a bool or a seat is a none stored where none may go)."""
    seats = range(1, state.game.num_players + 1)
    if not state.is_terminal() and state.current_player() not in seats:
        return f"the player to move is {state.current_player()!r}, not a seat"

    def outside(kind, key, index_types):
        indexes = key[1:] if isinstance(key, tuple) else ()
        if len(indexes) != len(index_types):
            return f"{kind} {key!r} has {len(indexes)} indexes, not {len(index_types)}"
        for value, index_type in zip(indexes, index_types):
            if value is None or (index_type == PLAYER and value not in seats):
                return f"{kind} {key!r} is outside its declared indexes"
        return None

    for key, items in state.zones.items():
        name = key[0] if isinstance(key, tuple) else key
        meta = state.game.zone_meta.get(name)
        if meta is None:
            if items:
                return f"components lie in {key!r}, which is no zone"
            continue
        problem = items and outside("zone", key, meta[3])
        if problem:
            return problem
    for entity in state.entities:
        if entity.get("owner") is not None and entity["owner"] not in seats:
            return f"component {entity['__label__']!r} is owned by {entity['owner']!r}, not a seat"
    for key, value in state.vars.items():
        name = key[0] if isinstance(key, tuple) else key
        meta = state.game.var_meta.get(name)
        if meta is None:
            continue                    # the engine's own bookkeeping
        problem = outside("variable", key, meta[2])
        if problem:
            return problem
        if value is None and meta[3] in (INT, FRACTION, BOOL, PLAYER):
            return f"variable {key!r} of type {meta[3].text} holds none"
        if meta[3] == "Player" and value not in seats:
            return f"variable {key!r} of type Player holds {value!r}"
    return None


def play(game, seed, until) -> tuple:
    """A random game of at most MOVES moves, stopped early (played) once the clock passes `until`."""
    rng = random.Random(seed)
    try:
        state = game.new_initial_state(seed=seed)
        for _ in range(MOVES):
            if time.monotonic() > until:
                return "played", ""
            problem = broken_promise(state)
            if problem:
                raise Unacceptable(f"a broken promise: {problem}")
            if state.is_terminal():
                state.returns()
                state.outcome()
                return "played", ""
            moves = state.legal_moves()
            if not moves:
                raise Unacceptable("a state that is not terminal lists no move (no DeadEnd)")
            move = rng.choice(list(moves))
            if rng.random() < 0.2:          # what the tools read besides the moves
                for seat in range(1, game.num_players + 1):
                    state.view(seat)
                state.clone()
                state.scores()
                state.broken_invariants()
            try:
                state.apply(move.name if rng.random() < 0.3 else move)
            except IllegalMove as refused:
                raise Unacceptable(f"a listed move refused: {move.name!r}: {refused.reason}") from refused
        return "played", ""
    except RulesRuntimeError as error:
        return located_runtime_error(error)


def examine(path: Path, seed: int, play_seconds: float = PLAY_SECONDS, verifying: bool = False) -> tuple:
    """What a rules file leads to: ("diagnostics", ""), ("played", ""), ("runtime error",
    its message) or ("python error", its message), the worst over its player counts and
    options; anything else raises Unacceptable. It loads and plays no more once `play_seconds`
    are gone; `verifying` runs what `referee verify` runs on one game (its leak probes are
    slow: the long run's)."""
    try:
        game, diagnostics, sources = load_game(str(path))
    except (Unacceptable, TimeoutError):
        raise
    except Exception as error:                      # noqa: BLE001 (what the fuzzer is for)
        raise Unacceptable(f"load_game raised {type(error).__name__}: {error}") from error
    if game is None:
        if not diagnostics:
            raise Unacceptable("no game and no diagnostic")
        located_diagnostics(diagnostics, sources, path)
        return "diagnostics", ""
    low, high = player_range(game.program)
    outcomes = []
    until = time.monotonic() + play_seconds
    # each player count the game allows at its ends, and each of its options alone (at the fewest players)
    options = [d.node.name for d in game.program.declarations.values() if isinstance(d.node, ast.Option)]
    loads = [(players, ()) for players in sorted({low, high, min(low + 1, high)})] + [(low, (o,)) for o in options]
    for players, chosen in loads:
        if outcomes and time.monotonic() > until:
            break                                   # (its time is up: the loads it made are enough)
        try:
            game, diagnostics, sources = load_game(str(path), players=players, options=chosen)
        except Exception as error:                  # noqa: BLE001
            raise Unacceptable(f"load_game(players={players}, options={chosen}) raised {type(error).__name__}: {error}") from error
        if game is None:
            located_diagnostics(diagnostics, sources, path)
            outcomes.append(("diagnostics", ""))
            continue
        for k in range(GAMES_PER_COUNT):
            try:
                outcomes.append(play(game, seed + k, until))
                if verifying and k == 0 and outcomes[-1][0] == "played" and time.monotonic() < until:
                    # what `referee verify` does: invariants, conservation, leak probes of hidden state
                    verify.run(game, seed, max_moves=MOVES, leaks="flows")
            except (Unacceptable, TimeoutError, MemoryError, RecursionError):
                raise
            except Exception as error:              # noqa: BLE001
                raise Unacceptable(f"{players} players: {type(error).__name__}: {error}") from error
    order = ["python error", "runtime error", "diagnostics", "played"]
    return min(outcomes, key=lambda outcome: order.index(outcome[0]))


def game_files(root: Path):
    return sorted(root.glob("*.rules")) + sorted((root / "variants").glob("*.rules"))


def write_mutant(games: Path, original: Path, seed: int) -> tuple:
    """Write a mutant of `original` (a file of the copy `games`) beside it: (its path, mutations)."""
    rng = random.Random(seed)
    text, applied = mutate(original.read_text(encoding="utf-8"), rng)
    mutant = original.parent / "mutant.rules"
    mutant.write_text(text, encoding="utf-8")
    return mutant, applied


# ---- the long run ----------------------------------------------------------------------

def run_one(job):
    """In a child process: one mutant, its outcome or its failure's text."""
    games, name, seed = job
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 1000))
    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / "games"
        shutil.copytree(games, copy)
        mutant, applied = write_mutant(copy, copy / name, seed)
        text = mutant.read_text(encoding="utf-8")
        try:
            with time_limit(SECONDS):
                outcome, detail = examine(mutant, seed, verifying=True)
                return name, seed, applied, outcome, detail if outcome == "python error" else None, text
        except MemoryError:
            return name, seed, applied, "unacceptable", "memory blowup", text
        except Unacceptable as problem:
            return name, seed, applied, "unacceptable", f"{problem}\n{traceback.format_exc()}", text
        except BaseException as error:              # noqa: BLE001
            return name, seed, applied, "unacceptable", f"{type(error).__name__}: {error}\n{traceback.format_exc()}", text


def main(argv=None):
    import multiprocessing
    parser = argparse.ArgumentParser(description="a long fuzz run over mutated games")
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--start", type=int, default=0, help="first seed")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("fuzz-failures"))
    args = parser.parse_args(argv)
    games = Path(__file__).resolve().parent.parent / "games"
    names = [str(p.relative_to(games)) for p in game_files(games)]
    jobs = [(games, names[seed % len(names)], seed) for seed in range(args.start, args.start + args.count)]
    args.out.mkdir(parents=True, exist_ok=True)
    tally = Counter()
    with multiprocessing.get_context("fork").Pool(args.jobs, maxtasksperchild=1) as pool:
        for done, (name, seed, applied, outcome, problem, text) in enumerate(pool.imap_unordered(run_one, jobs), 1):
            tally[outcome] += 1
            if problem is not None:
                kind = "failure" if outcome == "unacceptable" else "weak"
                stem = f"{kind}-{seed}-{Path(name).stem}"
                (args.out / f"{stem}.rules").write_text(text, encoding="utf-8")
                (args.out / f"{stem}.txt").write_text(f"{name} {applied}\n{problem or ''}", encoding="utf-8")
                if kind == "failure":
                    print(f"seed {seed} ({name}, {applied}): {problem.splitlines()[0]}", flush=True)
            if done % 100 == 0:
                print(f"{done} mutants: {dict(tally)}", flush=True)
    print(f"{args.count} mutants: {dict(tally)}")
    return 1 if tally["unacceptable"] else 0


if __name__ == "__main__":
    sys.exit(main())
