"""Game logs: a JSON record of one game, enough to replay it move by move.

    {"format": "referee-log/1",
     "rules": "games/x.rules",          # the path as it was given
     "rules_absolute": "/home/me/games/x.rules",   # where it was (not in older logs)
     "builtin": "x",                    # a built-in game's name (only for one; not in older logs)
     "rules_sha256": "ab12...",         # of the file's bytes (base files first, for `extends`)
     "options": ["normal"], "players": 3, "seed": 7,
     "params": {"rounds": 5}   ,        # the typed params' values (not in older logs)
     "moves": ["put X on b2", ...],
     "result": {"winners": [1], "scores": [2, 0, 1], "terminal": true,
                "outcome": "win", "returns": [1.0, 0.0, 0.0]}}
                                        # (outcome and returns: not in logs written before them)

    write_log(path, game, state, rules_path)   # after (or during) a game
    log, error = read_log(path)                # error: a LogError (message and exit code)
    state, error = replay(log)                 # every move checked; never a half replay
    Positions(state.game, log).at(12)          # the position after 12 moves (replay --at, --step)
"""
from __future__ import annotations

import hashlib
import json
import os
import re
from fractions import Fraction
from pathlib import Path
from typing import Optional

from referee.dsl.diagnostics import RulesError
from referee.dsl.limits import MAX_LOG_BYTES
from referee.dsl.program import Unreadable, load_program, read_regular_file

from ..engine.load import load_game
from .builtin_games import builtin_name, builtin_path, looks_like_a_name
from ..runtime.errors import IllegalMove, RulesRuntimeError

FORMAT = "referee-log/1"

# exit codes (see docs/cli.md)
BAD_INPUT = 65
MISSING_FILE = 66
RUNTIME = 70


class LogError(Exception):
    """Why a log cannot be read or replayed; `code` is the command's exit code."""

    def __init__(self, message: str, code: int = BAD_INPUT):
        super().__init__(message)
        self.message = message
        self.code = code

    def __str__(self):
        return self.message


def files_sha256(paths) -> str:
    digest = hashlib.sha256()
    for path in paths:
        with open(path, "rb") as file:          # in pieces: memory does not grow with the file
            for piece in iter(lambda: file.read(1 << 20), b""):
                digest.update(piece)
    return digest.hexdigest()


# a real param's value that is no whole number, as a log keeps it exactly: 13/2
FRACTION_TEXT = re.compile(r"-?[0-9]{1,18}(\.[0-9]{1,18}|/[0-9]{1,18})")


def rules_sha256(game) -> str:
    """Hash of the rules: every file of the program (base files first) concatenated."""
    return files_sha256(game.program.files or [game.path])


def json_scores(state) -> list:
    """The scores as JSON numbers: a score that is a fraction (15/2) as a float (7.5), as the returns are."""
    return [float(v) if v.__class__ is Fraction else v for v in state.scores()]


def game_result(state) -> dict:
    return {"winners": list(state.winners), "scores": json_scores(state),
            "terminal": bool(state.is_terminal()), "outcome": state.outcome(), "returns": list(state.returns())}


def make_log(game, state, rules_path, moves=None, seed=None) -> dict:
    """The log of `state`'s game. Besides the path as given, it holds the file's absolute path
    and, for a built-in game, its name: a log replays from any folder (its hash still checks
    that the rules are the same)."""
    absolute = str(Path(game.path).resolve())
    named = builtin_name(absolute)
    return {
        "format": FORMAT,
        "rules": str(rules_path),
        "rules_absolute": absolute,
        **({"builtin": named} if named is not None else {}),
        "rules_sha256": rules_sha256(game),
        "options": sorted(game.options),
        "params": logged_params(game.typed_param_values()),
        "players": game.num_players,
        "seed": state.seed if seed is None else seed,
        "moves": list(state.history if moves is None else moves),
        "result": game_result(state),
    }


def write_log(path, game, state, rules_path, moves=None, seed=None) -> dict:
    """Write the log of `state`'s game to `path` (moves default to state.history).
    Raises OSError when the file cannot be written."""
    log = make_log(game, state, rules_path, moves, seed)
    # written whole or not at all: a reader (or a crash) never sees half a log
    target = Path(path)
    partial = target.with_name(f".{target.name}.partial")
    partial.write_text(json.dumps(log, indent=1) + "\n", encoding="utf-8")
    os.replace(partial, target)
    return log


FIELDS = {"format": str, "rules": str, "rules_sha256": str, "options": list, "players": int,
          "seed": int, "moves": list}


def logged_params(values) -> dict:
    """Typed params' values as a log records them: a real as its text (13/2, which --param and
    a replay read back exactly), a text as {"text": ...} (so that a number written as a text,
    "6", stays a mistake of the log, not a value of a text param)."""
    return {name: str(v) if v.__class__ is Fraction else {"text": v} if isinstance(v, str) else v
            for name, v in values.items()}


def logged_text(value) -> Optional[str]:
    """The text of a logged {"text": ...}, or None."""
    if isinstance(value, dict) and list(value) == ["text"] and isinstance(value["text"], str):
        return value["text"]
    return None


def given_params(logged) -> dict:
    """A log's params as load_game takes them (logged_params undone)."""
    return {name: v if logged_text(v) is None else logged_text(v) for name, v in logged.items()}


def check_log(log) -> Optional[str]:
    """What is wrong with a decoded log, or None."""
    if not isinstance(log, dict):
        return "a game log must be a JSON object"
    for name, kind in FIELDS.items():
        if name not in log:
            return f"the log lacks the field '{name}'"
        value = log[name]
        if not isinstance(value, kind) or isinstance(value, bool):
            return f"the log's field '{name}' must be {'a list' if kind is list else 'an integer' if kind is int else 'a text'}"
    if log["format"] != FORMAT:
        return f"unknown log format '{log['format']}' (expected '{FORMAT}')"
    if not log["rules"].endswith(".rules"):
        # a log is data: it may name a rules file, not any file to be read and shown
        return "the log's field 'rules' must name a .rules file"
    for name in ("options", "moves"):
        if not all(isinstance(x, str) for x in log[name]):
            return f"the log's field '{name}' must be a list of texts"
    absolute = log.get("rules_absolute", "x.rules")
    if not isinstance(absolute, str) or not absolute.endswith(".rules"):
        return "the log's field 'rules_absolute' must name a .rules file"
    if not looks_like_a_name(log.get("builtin", "x")):
        return "the log's field 'builtin' must be a built-in game's name"
    params = log.get("params", {})
    if not isinstance(params, dict) or not all(
            isinstance(name, str) and (isinstance(v, (bool, int)) or isinstance(v, str) and FRACTION_TEXT.fullmatch(v)
                                       or logged_text(v) is not None)
            for name, v in params.items()):
        return "the log's field 'params' must map names to whole numbers or true/false (a text: {\"text\": ...})"
    result = log.get("result")
    if result is not None:
        if not isinstance(result, dict):
            return "the log's field 'result' must be an object"
        if not isinstance(result.get("winners", []), list) or not isinstance(result.get("scores", []), list):
            return "the log's result must have lists 'winners' and 'scores'"
    return None


def runtime_message(error, where="") -> str:
    """'runtime error at move 9 'x': <message>' and the place in the rules file."""
    message = error.message
    span = getattr(error, "span", None)
    return f"runtime error{where}: {message}" + (f"\n  at {span}" if span is not None else "")


def read_log(path):
    """(log dict, None) or (None, LogError)."""
    try:
        data = read_regular_file(path, MAX_LOG_BYTES)
    except Unreadable as error:
        if error.kind == "missing":
            return None, LogError(f"{path}: no such log file", MISSING_FILE)
        if error.kind == "unreadable":
            return None, LogError(f"{path}: cannot read the log: {error.reason}", MISSING_FILE)
        return None, LogError(f"{path}: not a valid game log: {error.reason}")
    try:
        log = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as error:
        return None, LogError(f"{path}: not a valid game log: not UTF-8 text (byte {error.start})")
    except json.JSONDecodeError as error:
        return None, LogError(f"{path}: not a valid game log: not JSON ({error.msg} at line {error.lineno}, column {error.colno})")
    except RecursionError:
        return None, LogError(f"{path}: not a valid game log: its JSON is nested too deeply")
    problem = check_log(log)
    if problem:
        return None, LogError(f"{path}: not a valid game log: {problem}")
    return log, None


def rules_places(log, log_path=None) -> list:
    """Where the rules file named by a log is looked for, in order: as given, then (a
    relative path) from the log file's folder, then where it was when the log was written,
    then the built-in game of that name. (An absolute 'rules' that is not where the log says
    the file was has been edited: it is taken at its word, without the last two.)"""
    given = Path(log["rules"])
    places = [given]
    if log_path is not None and not given.is_absolute():
        places.append(Path(log_path).parent / given)
    if given.is_absolute() and log["rules"] != log.get("rules_absolute"):
        return places
    if "rules_absolute" in log and Path(log["rules_absolute"]) not in places:
        places.append(Path(log["rules_absolute"]))
    builtin = builtin_path(log["builtin"]) if "builtin" in log else None
    if builtin is not None and builtin not in places:
        places.append(builtin)
    return places


def find_rules(log, log_path=None) -> Optional[Path]:
    """The rules file named by a log: as given, else next to the log file."""
    return next((place for place in rules_places(log, log_path) if place.is_file()), None)


# what load_game refuses in what the log asks for (its options, players, params), not in the file
LOG_FIELDS = {"E601": "options", "E602": "players", "E603": "params", "E604": "params"}


def log_mistake(diagnostics, log_path=None) -> Optional[str]:
    """A refusal of the log's own game settings, said of the log, not of the rules file's
    header it points at; None for the file's own diagnostics."""
    if len(diagnostics) != 1 or diagnostics[0].code not in LOG_FIELDS:
        return None
    (diagnostic,) = diagnostics
    hint = f" ({diagnostic.hint})" if diagnostic.hint else ""
    return (f"{log_path or 'the log'}: not a game of these rules: its \"{LOG_FIELDS[diagnostic.code]}\": "
            f"{diagnostic.message}{hint}")


def same_result(recorded: dict, state) -> bool:
    replayed = game_result(state)
    for name in ("winners", "scores", "terminal", "outcome", "returns"):
        if name in recorded and recorded[name] != replayed[name]:
            return False
    return True


def replay(log, ignore_hash=False, log_path=None, rules_path=None):
    """Replay a log from the start (with the rules file rules_path, else the one the log
    names). Returns (final state, None) or (None, LogError): the rules file is missing or has
    changed, a move is not legal, or the result differs."""
    problem = check_log(log)
    if problem:
        return None, LogError(f"not a valid game log: {problem}")
    if rules_path is not None:
        rules = Path(rules_path)
        if not rules.is_file():
            return None, LogError(f"{rules_path}: no such rules file", MISSING_FILE)
    else:
        rules = find_rules(log, log_path)
    if rules is None:
        looked = " and at ".join(str(place) for place in rules_places(log, log_path))
        return None, LogError(f"the rules file '{log['rules']}' named by the log does not exist "
                              f"(looked for it at {looked}); give its place with --rules FILE", MISSING_FILE)
    if not ignore_hash:
        program, _, _ = load_program(str(rules))
        files = (program.files if program is not None else None) or [str(rules)]
        try:
            digest = files_sha256(files)
        except OSError as error:
            return None, LogError(f"cannot read the rules file: {error}", MISSING_FILE)
        if digest != log["rules_sha256"]:
            return None, LogError(f"the rules file has changed since the log was written ({rules}); "
                                  "use --ignore-hash to replay it anyway")
    game, diagnostics, sources = load_game(str(rules), tuple(log["options"]), log["players"],
                                           params=given_params(log.get("params", {})))
    if game is None:
        return None, LogError(log_mistake(diagnostics, log_path) or RulesError(diagnostics, sources).render())
    try:
        state = game.new_initial_state(seed=log["seed"])
    except RulesRuntimeError as error:
        return None, LogError(runtime_message(error, " while setting up"), RUNTIME)
    for number, name in enumerate(log["moves"], start=1):
        try:
            state.apply(name)
        except IllegalMove as refusal:
            reason = refusal.reason
            # "'a1' is not possible now: REASON" or "... now (by the rules, RULE)": the reason alone
            prefix = f"'{name}' is not possible now"
            if reason.startswith(prefix):
                reason = reason[len(prefix):]
                reason = reason[2:] if reason.startswith(": ") else reason.strip().removeprefix("(").removesuffix(")")
            hint = "; type 'moves' to list the legal ones"
            if reason.endswith(hint):
                legal = state.legal_move_names()
                reason = reason[:-len(hint)] + (f" (legal then: {', '.join(legal[:8])}{', ...' if len(legal) > 8 else ''})"
                                                if legal else " (no move was legal then)")
            return None, LogError(f"move {number} '{name}' is not legal: {reason}")
        except RulesRuntimeError as error:
            return None, LogError(runtime_message(error, f" at move {number} '{name}'"), RUNTIME)
    recorded = log.get("result")
    if isinstance(recorded, dict) and not same_result(recorded, state):
        return None, LogError(f"the replay does not reach the recorded result: recorded {recorded}, "
                              f"replayed {game_result(state)}")
    return state, None


class Positions:
    """The positions of a replayed log, by how many of its moves were played (0: the start),
    for stepping through it both ways: every CHECKPOINT-th position is kept (a clone), the
    others played again from the one before."""

    CHECKPOINT = 32

    def __init__(self, game, log):
        self.moves = list(log["moves"])
        self.kept = {0: game.new_initial_state(seed=log["seed"])}

    def __len__(self):
        return len(self.moves) + 1

    def at(self, number):
        """The state after the first `number` moves (a state of its own: the caller may keep it)."""
        start = max(k for k in self.kept if k <= number)
        state = self.kept[start].clone()
        for played in range(start, number):
            state.apply(self.moves[played])
            if (played + 1) % self.CHECKPOINT == 0 and played + 1 not in self.kept:
                self.kept[played + 1] = state.clone()
        return state
