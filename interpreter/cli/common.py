"""What the commands share: their output, a FILE argument (a path, or a built-in game's name),
loading a game as a command does (its errors as exit codes), the one-line description of a
game and of its result, the version."""
from __future__ import annotations

from fractions import Fraction

import contextlib
import gc
import json
import os
import re
import sys
from pathlib import Path

from referee.dsl.diagnostics import RulesError

from ..engine import load_game
from ..runtime.errors import RulesRuntimeError
from ..tools.builtin_games import builtin_games, builtin_path, looks_like_a_name
from .errors import BAD_INPUT, CANNOT_WRITE, MISSING_FILE, RUNTIME, CliError, UsageError


def out(text=""):
    sys.stdout.write(f"{text}\n")


def print_json(value):
    out(json.dumps(value, indent=2, default=json_default))


def json_default(value):
    """A value JSON has no type for: a fraction (a score of 15/2) as the number it is, else its text."""
    return float(value) if isinstance(value, Fraction) else str(value)


def print_summary(args, value, lines):
    """A command's result: `value` as JSON with --json, else its text lines and tables."""
    if args.json:
        print_json(value)
    else:
        args.console.report(lines)


def shortened(text, most=40) -> str:
    """A text given on the command line or the prompt, shown whole or cut in the middle, its
    control characters escaped (printable)."""
    return printable(text if len(text) <= most else f"{text[:most // 2]}...{text[-8:]}")


def printable(text) -> str:
    """`text` with its control characters (an escape sequence that would recolour or move the
    terminal) written as U+001B, as the parser's diagnostics name a character; a tab or other
    space is one space, as under a diagnostic's source line."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else " " if c.isspace() else f"U+{ord(c):04X}" for c in text)


@contextlib.contextmanager
def collection_paused():
    """No garbage collection inside (as Mercurial's util.nogc): reading, checking and compiling
    a game makes objects that live as long as the command, and the collections their making
    sets off (full ones among them, over every object of the process) free nothing."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def loaded(path, *args, **kwargs):
    """load_game's (game, diagnostics, sources), without garbage collection while it runs."""
    with collection_paused():
        return load_game(path, *args, **kwargs)


def rules_file(text: str) -> str:
    """A FILE of the command line: the path as given when there is something there (a path
    always wins), else the file of the built-in game named so (`referee play NAME`),
    else the text as given (load says that it is neither)."""
    if os.path.exists(text):
        return text
    found = builtin_path(text)
    return str(found) if found is not None else text


def no_such_file(path) -> CliError:
    """The missing FILE (66); for a bare word, that no built-in game is named so either."""
    if not looks_like_a_name(str(path)):
        return CliError(f"referee: {path}: no such file", MISSING_FILE)
    names = ", ".join(builtin_games()) or "none here"
    return CliError(f"referee: {shortened(str(path))}: no such file, nor a built-in game "
                    f"(the built-in games: {names}; `referee games` lists them)", MISSING_FILE)


def load(path, options=None, players=None, coverage=False, params=(), passes_off=(), chance="sampled"):
    """The compiled game (with coverage: counting its rule tags; params: the (name, text) pairs
    of --param; chance: --chance, as load_game takes it), or CliError: missing file (66), diagnostics (65), a --param the game refuses (2)."""
    if not os.path.exists(path):
        raise no_such_file(path)
    if os.path.isdir(path):
        raise CliError(f"referee: {path}: is a directory, not a rules file", MISSING_FILE)
    game, diagnostics, sources = loaded(path, tuple(options or ()), players, coverage, dict(params or ()),
                                        passes_off=passes_off, chance=chance)
    if game is None:
        raise flag_mistake(diagnostics) or CliError(RulesError(diagnostics, sources).render(), BAD_INPUT)
    return game


def flag_mistake(diagnostics):
    """load_game's E601 (an option the game does not declare) and E602 (a player count out
    of its range) as what they are at the command line: a mistake of --option or --players."""
    if len(diagnostics) == 1 and diagnostics[0].code in ("E601", "E602", "E603", "E604"):
        (diagnostic,) = diagnostics
        flag = {"E601": "--option", "E602": "--players"}.get(diagnostic.code, "--param")
        hint = f" ({diagnostic.hint})" if diagnostic.hint else ""
        return UsageError(f"argument {flag}: {diagnostic.message}{hint}")
    return None


def new_state(game, seed):
    try:
        return game.new_initial_state(seed=seed)
    except RulesRuntimeError as error:
        from ..play.simulate import runtime_text      # (it brings the bots: start-up)
        raise CliError(runtime_text(error, game), RUNTIME)


def describe(game, seed=None) -> str:
    parts = [game.title or "game", f"{game.num_players} player{'' if game.num_players == 1 else 's'}"]
    if seed is not None:
        parts.append(f"seed {seed}")
    parts.append("options: " + (", ".join(sorted(game.options)) or "none"))
    values = game.typed_param_values()
    if values:
        parts.append("params: " + ", ".join(f"{name}={param_text(v)}" for name, v in values.items()))
    return " · ".join(parts)


def param_text(value) -> str:
    """A param's value as --param takes it: 8, true, false, a text as it is."""
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def result_lines(state) -> list:
    from ..engine.render import scores_text, winners_text   # (here: `check` shows no result, and starts without it)
    lines = []
    if state.is_terminal():
        lines.append("result: " + winners_text(state.winners, state.outcome()))
    else:
        lines.append("result: the game is unfinished")
    lines.append("scores: " + scores_text(state.scores()))
    if state.game.declared_returns is not None and state.is_terminal():
        lines.append("returns: " + scores_text(state.returns()))
    return lines


def write_text(path, text):
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as error:
        raise CliError(f"referee: cannot write {path}: {error.strerror or error}", CANNOT_WRITE)


def log_folder(path) -> Path:
    """The directory of --log DIR, made if need be, or CliError (73)."""
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as error:
        raise CliError(f"referee: cannot create the log directory {path}: {error.strerror or error}", CANNOT_WRITE)
    return Path(path)


def version() -> str:
    """The version of the installed package (its metadata, from pyproject.toml), else that of
    the pyproject.toml of this source tree."""
    try:
        from importlib.metadata import PackageNotFoundError
        from importlib.metadata import version as installed
        return installed("referee")
    except PackageNotFoundError:
        text = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text(encoding="utf-8")
        found = re.search(r'^version\s*=\s*"([^"]+)"', text, re.M)
        return found.group(1) if found else "unknown"
