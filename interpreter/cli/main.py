"""The `referee` command line: check, play, simulate, replay and bench any rules file.

Exit codes: 0 ok, 1 `check` found errors, 2 bad command line, 3 game unfinished (end of
input or quit), 65 bad rules file or bad log, 66 missing file, 69 a package a command or a flag
needs is missing, 70 runtime rules error, 73 cannot write a log. See docs/cli.md.
"""
from __future__ import annotations

import argparse
import contextlib
import copy
import gc
import json
import math
import os
import re
import secrets
import sys
import textwrap
import time
from pathlib import Path

from referee.dsl.diagnostics import Diagnostic, RulesError
from referee.dsl.limits import MAX_FILE_BYTES, MAX_PROMPT_LINE
from referee.dsl.program import Unreadable, read_regular_file

from ..play.bots import KINDS, RandomBot, hidden_information, make_bot
from ..play.determinize import undrawn_secrets
from ..engine.game import PUBLIC, load_game, public_text
from ..runtime.errors import IllegalMove, RulesRuntimeError
from ..tools.gamelog import read_log, replay, write_log
from ..tools.verify import failure_kind, verify
from . import completion
from . import console
from ..tools import coverage
from referee.dsl import rulebook
# (parallel and cluster, which bring multiprocessing, and analyze and tournament, which bring html,
# are imported by the commands that use them: start-up)
from ..engine.render import at_the_table, scores_text, symbol_legends, view_defaults, winners_text
from ..engine.render import width as terminal_width
from .progress import Progress, Ticking, wanted

OK, ERRORS, USAGE, UNFINISHED = 0, 1, 2, 3
BAD_INPUT, MISSING_FILE, UNAVAILABLE, RUNTIME, CANNOT_WRITE = 65, 66, 69, 70, 73
DEFAULT_MAX_MOVES = 10_000         # simulate, verify and bench: where a game is stopped


class CliError(Exception):
    """Stops a command: `message` goes to stderr, `code` is the exit code."""

    def __init__(self, message, code):
        super().__init__(message)
        self.message = message
        self.code = code


class UsageError(CliError):
    """A mistake of the command line (exit 2), said in argparse's style by main:
    'referee play: error: argument --players: ...' under the command's usage line."""

    def __init__(self, message, parser=None):
        super().__init__(message, USAGE)
        self.parser = parser


class Parser(argparse.ArgumentParser):
    """argparse's parser, whose errors are raised (for main to print them, as JSON with
    --json) instead of exiting."""

    def error(self, message):
        raise UsageError(message, self)


# ---- output ------------------------------------------------------------------------------

def out(text=""):
    sys.stdout.write(f"{text}\n")


def runtime_text(error, game=None) -> str:
    """'runtime error: <message>' and where in the rules file, with the source line."""
    text = str(error)
    message = text.split("runtime error: ", 1)[-1]
    lines = [f"runtime error: {message}"]
    span = getattr(error, "span", None)
    if span is not None:
        source = game.sources.get(span.file) if game is not None else None
        rendered = Diagnostic("E700", message, span).render(source).splitlines()
        lines.append(f"  at {span}")
        lines.extend(line for line in rendered[1:] if not line.startswith("  help:"))
    return "\n".join(lines)


def print_json(value):
    out(json.dumps(value, indent=2, default=str))


def print_summary(args, value, lines):
    """A command's result: `value` as JSON with --json, else its text lines and tables."""
    if args.json:
        print_json(value)
    else:
        args.console.report(lines)


# ---- loading -----------------------------------------------------------------------------

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


def load(path, options=None, players=None, coverage=False, params=(), passes_off=()):
    """The compiled game (with coverage: counting its rule tags; params: the (name, text) pairs
    of --param), or CliError: missing file (66), diagnostics (65), a --param the game refuses (2)."""
    if not os.path.exists(path):
        raise CliError(f"referee: {path}: no such file", MISSING_FILE)
    if os.path.isdir(path):
        raise CliError(f"referee: {path}: is a directory, not a rules file", MISSING_FILE)
    with collection_paused():
        game, diagnostics, sources = load_game(path, tuple(options or ()), players, coverage, dict(params or ()),
                                               passes_off=passes_off)
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
        raise CliError(runtime_text(error, game), RUNTIME)


def describe(game, seed=None) -> str:
    parts = [game.title or "game", f"{game.num_players} players"]
    if seed is not None:
        parts.append(f"seed {seed}")
    parts.append("options: " + (", ".join(sorted(game.options)) or "none"))
    values = game.typed_param_values()
    if values:
        parts.append("params: " + ", ".join(f"{name}={param_text(v)}" for name, v in values.items()))
    return " · ".join(parts)


def param_text(value) -> str:
    """A param's value as --param takes it: 8, true, false."""
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def result_lines(state) -> list:
    lines = []
    if state.is_terminal():
        lines.append("result: " + winners_text(state.winners))
    else:
        lines.append("result: the game is unfinished")
    lines.append("scores: " + scores_text(state.scores()))
    if state.game.declared_returns is not None and state.is_terminal():
        lines.append("returns: " + scores_text(state.returns()))
    return lines


# ---- check -------------------------------------------------------------------------------

def checked_files(paths) -> list:
    """The files of `check FILE...`: each FILE, and for a folder every .rules file in it and
    in its subfolders (hidden ones aside), sorted; (folder, None) for a folder without any."""
    files = []
    for path in paths:
        if not os.path.isdir(path):
            files.append((path, path))
            continue
        found = sorted(p for p in Path(path).rglob("*.rules")
                       if p.is_file() and not any(part.startswith(".") for part in p.relative_to(path).parts))
        files.extend((path, str(p)) for p in found)
        if not found:
            files.append((path, None))
    return files


def cmd_check(args) -> int:
    report = []
    all_ok = True
    for folder, path in checked_files(args.files):
        if path is None:
            all_ok = False
            report.append({"file": folder, "ok": False, "diagnostics": [], "error": "no .rules file in this folder"})
            if not args.json:
                args.console.report([f"{folder}: no .rules file in this folder"])
            continue
        with collection_paused():
            game, diagnostics, sources = load_game(path, params=dict(args.param))
        ok = game is not None and not diagnostics
        all_ok = all_ok and ok
        report.append({"file": path, "ok": ok, "diagnostics": [d.to_json() for d in diagnostics]})
        if args.json:
            continue
        if ok:
            args.console.report([f"{path}: ok"])
        else:
            args.console.diagnostics(diagnostics, sources)
            count = len(diagnostics)
            args.console.report([f"{path}: {count} error{'s' if count != 1 else ''}"])
    if args.json:
        print_json({"files": report})
    return OK if all_ok else ERRORS


# ---- lsp ---------------------------------------------------------------------------------

def cmd_lsp(args) -> int:
    from ..lsp import server as lsp
    try:
        server = lsp.make_server(version())
    except lsp.MissingServerLibrary as error:
        raise CliError(f"referee lsp: the language server needs pygls ({error}): "
                       "pip install 'referee[lsp]'", UNAVAILABLE)
    if sys.stdin.isatty():
        args.errors.line("referee lsp: a language server, for an editor to start and talk to in JSON-RPC on "
            "standard input and output (see docs/editor.md); Ctrl-D stops it")
    return lsp.serve(server)


# ---- play --------------------------------------------------------------------------------

SEAT_KINDS = (*KINDS, "human")     # what --bot SEAT=KIND may say


def parse_bots(specs, players):
    """['all=random', '2=first', '3=human'] -> {seat: kind}; later specs win."""
    chosen = {}
    for spec in specs:
        seat, sep, kind = spec.partition("=")
        seat, kind = seat.strip().lower(), kind.strip().lower()
        if not sep or not seat or not kind:
            raise UsageError(f"argument --bot: {spec!r}: write SEAT=KIND, e.g. 2=random, all=first or 1=human")
        if kind.partition(":")[0] not in SEAT_KINDS:
            raise UsageError(f"argument --bot: {spec!r}: unknown kind '{kind}' (known: {', '.join(SEAT_KINDS)})")
        if kind != "human":
            try:
                make_bot(kind, 0)          # its settings (mcts:iterations=...)
            except ValueError as error:
                raise UsageError(f"argument --bot: {spec!r}: {error}") from None
        if seat == "all":
            for p in range(1, players + 1):
                chosen[p] = kind
            continue
        if not seat.lstrip("p").isdigit() or not 1 <= int(seat.lstrip("p")) <= players:
            raise UsageError(f"argument --bot: {spec!r}: the seat must be 1..{players} or 'all'")
        chosen[int(seat.lstrip("p"))] = kind
    return chosen


HUMAN_HELP = """\
Type a move by its number or its name (case and spaces do not matter); '#3' is always move 3.
Where moves are named by numbers, a bare number is a name, never a place in the list.
A few words of a name will do when only one legal move holds them all ('F@6.5' for
'place on F@6.5'). On a hex map, (3) on an empty hex: move 3 of the list plays there.
Commands: moves (list the legal moves), view (show the game again), undo (take back your last
move, and the bots' moves after it), help, quit."""


def named_by_numbers(names) -> bool:
    """Whether some legal move is named by a bare number (then a bare number typed is a name)."""
    return any(name.strip().isdigit() for name in names)


def numbered_moves(names, notes=None) -> list:
    """The legal moves numbered, in columns when there are many ('#1' where moves are named
    by numbers: a bare number is a name then); `notes` ({name: text}) are shown after names."""
    if not names:
        return ["  (no legal move)"]
    mark = "#" if named_by_numbers(names) else ""
    notes = notes or {}
    items = [f"{mark}{i:>{len(str(len(names)))}}. {name}" + (f"  ({notes[name]})" if name in notes else "")
             for i, name in enumerate(names, start=1)]
    if len(items) <= 12:
        return ["  " + item for item in items]
    width = max(len(item) for item in items) + 3
    columns = max(1, min(4, terminal_width() // width))
    rows = -(-len(items) // columns)
    lines = []
    for r in range(rows):
        cells = [items[r + c * rows] for c in range(columns) if r + c * rows < len(items)]
        lines.append("  " + "".join(cell.ljust(width) for cell in cells).rstrip())
    return lines


def skip_notes(state) -> dict:
    """{'skip': 'no merge'}: what a 'skip' among the legal moves passes up (the actions of the
    other moves listed), so that a player knows which step of the turn they are at."""
    moves = state.legal_moves()
    if not any(move.kind == "skip" for move in moves):
        return {}
    actions = []
    for move in moves:
        if move.kind == "action" and state.game.actions[move.action].name not in actions:
            actions.append(state.game.actions[move.action].name)
    return {"skip": "no " + " or ".join(actions)} if actions else {}


def words(text: str) -> list:
    return [word for word in re.split(r"[\s,]+", text.lower()) if word]


def holding_words(names, text) -> list:
    """The names that hold every word of `text` as a word, in that order ('c3' and 'king
    c3' are in 'move king to c3'); none for a bare number, which is a place in the list or a
    move's whole name."""
    wanted = words(text)
    if not wanted or text.strip().lstrip("#").isdigit():
        return []

    def holds(name):
        have, at = words(name), 0
        for word in wanted:
            while at < len(have) and have[at] != word:
                at += 1
            if at == len(have):
                return False
            at += 1
        return True
    return [name for name in names if holds(name)]


class Session:
    """One game being played in the terminal."""

    def __init__(self, game, args, bots, seed, unnamed_humans=False, resumed=()):
        self.game = game
        self.resumed = list(resumed)        # the moves of an unfinished game to go on from
        self.unnamed_humans = unnamed_humans
        self.args = args
        self.console = args.console
        self.bots = bots
        self.seed = seed
        # whose eyes the move lines are written for: the one human at the table, else nobody
        humans = [p for p in range(1, game.num_players + 1) if p not in bots]
        self.viewer = humans[0] if len(humans) == 1 else None
        self.sealed = []            # positions of sealed moves not yet revealed
        self.seed_shown = False
        self.defaults = view_defaults(game)
        self.legends = None         # what the symbols of each hex map stand for, once known
        self.unshown = 0            # the rules' log lines before this one were never shown
        self.state = None
        self.moves = []
        # each human decision so far: (seat, how many moves were played before it, the bots as
        # they were then), so that undo goes back to it and the bots play on as they did
        self.decisions = []
        self.log_seen = 0
        self.interactive = sys.stdin.isatty() and sys.stdout.isatty()
        # several humans at one terminal: hand it over between them (see hand_over)
        hot_seat = getattr(args, "hot_seat", None)
        self.hot_seat = len(humans) > 1 and (self.interactive if hot_seat is None else hot_seat)
        self.last_human = None      # the last human shown their view
        if self.interactive:
            try:
                import readline  # noqa: F401  (line editing and history for input())
            except ImportError:
                pass

    def show(self, text):
        if not self.args.quiet:
            self.console.line(text)

    def show_view(self, seat, names=None):
        """The view of `seat`, with the legends of its hex maps and, while it chooses among
        the moves `names`, their numbers on the hexes they name."""
        if self.legends is None:
            self.legends = symbol_legends(self.game, self.state)
        mark = "#" if names and named_by_numbers(names) else ""
        view = self.state.view(seat)
        if not self.args.quiet:
            # the events printed as '»' lines just above are not repeated under the map, so
            # that it stays near the prompt; those never printed (logged before the first move,
            # or replayed by --resume) are shown once
            log = self.state.log
            first = len(log) - len(view["log"])
            view["log"] = [line for k, line in enumerate(view["log"], start=first) if k < self.unshown]
            self.unshown = 0
        self.console.view(at_the_table(view, self.legends, names, mark), self.defaults)

    def events(self):
        """Lines the rules logged since last time."""
        log = self.state.log
        if len(log) < self.log_seen:
            self.log_seen = 0
        new = log[self.log_seen:]
        self.log_seen = len(log)
        return new

    def play_move(self, seat, move):
        """Play a Move or a typed name (IllegalMove, with its reason, leaves everything as it was)."""
        if isinstance(move, str):
            move = self.state.find_move(move)
        self.moves.append(move.name)
        turn = self.state.turn
        prompt = self.state.pending.prompt if move.kind == "choice" and self.state.pending is not None else None
        at = len(self.state.public_history)
        # the other players see a move's public text, and of a sealed move only that it was made
        said = move.name if seat == self.viewer else public_text(self.state, move)
        head = f"{turn:>4}  " if self.args.brief else ""
        line = f"{head}P{seat} has chosen" if said is None else \
            f"{head}P{seat}: {said}" + (f"  ({prompt})" if prompt else "")
        try:
            self.state.apply(move)
        except RulesRuntimeError:
            self.show(line)
            raise
        self.show(line)
        self.write_progress()
        if said is None:
            self.sealed.append(at)
        for k in [k for k in self.sealed if self.state.public_history[k][1] is not None]:
            self.sealed.remove(k)
            player, text = self.state.public_history[k]
            self.show(f"{'      ' if self.args.brief else '  '}» P{player} reveals: {text}")
        for line in self.events():
            self.show(f"{'      ' if self.args.brief else '  '}» {line}")

    def bot_turn(self, seat, bot, spectating):
        if spectating and not self.args.quiet and not self.args.brief:
            out("")
            self.show_view(seat)
        self.play_move(seat, bot.choose(self.state))
        if spectating and self.args.brief:
            scores = self.state.scores() if self.game.score is not None else None
            if scores is not None and scores != self.last_scores:
                self.show("     scores " + scores_text(scores))
            self.last_scores = scores

    def read_line(self, prompt):
        """One line of standard input, or None at its end. A terminal gets line editing;
        piped input is echoed after the prompt so that a scripted game reads like a dialogue."""
        if self.interactive:
            try:
                return input(prompt)
            except EOFError:
                return None
        sys.stdout.write(prompt)
        sys.stdout.flush()
        line = sys.stdin.readline(MAX_PROMPT_LINE + 1)
        if line == "":
            return None
        if len(line) > MAX_PROMPT_LINE and not line.endswith("\n"):
            rest = line
            while rest and not rest.endswith("\n"):       # skipped, never held whole
                rest = sys.stdin.readline(MAX_PROMPT_LINE)
            line = line[:MAX_PROMPT_LINE]
        out(shortened(line.strip(), 200))
        return line

    def hand_over(self, seat):
        """Before a human's view, when another human saw theirs last: clear the screen (a
        separator line where the output is not a terminal) and wait for Enter, so that the
        other's hand is off the screen. Returns None, or 'quit' / 'eof'."""
        if self.hot_seat and self.last_human not in (None, seat):
            if sys.stdout.isatty():
                sys.stdout.write("\033[H\033[2J\033[3J")      # the screen and its scrollback
            self.unshown = len(self.state.log)      # the '»' lines are off the screen: in the view
            out("═" * min(60, terminal_width()))
            line = self.read_line(f"pass the terminal to P{seat}, then press Enter ")
            if line is None:
                out("")
                return "eof"
            if line.strip().lower() in ("quit", "exit", "q"):
                return "quit"
        self.last_human = seat
        return None

    def human_turn(self, seat):
        """Returns None once a move is played, or 'quit' / 'eof'."""
        handed = self.hand_over(seat)
        if handed is not None:
            return handed
        state = self.state
        self.decisions.append((seat, len(self.moves), copy.deepcopy(self.bots)))
        out("")
        self.show_view(seat, state.legal_move_names())
        out("legal moves:")
        for line in numbered_moves(state.legal_move_names(), skip_notes(state)):
            out(line)
        while True:
            line = self.read_line(f"P{seat}> ")
            if line is None:
                out("")
                return "eof"
            text = line.strip()
            if not text:
                continue
            word = text.lower()
            names = state.legal_move_names()
            by_name = [n for n in names if " ".join(n.lower().split()) == " ".join(word.split())]
            if not by_name:     # 'c 3' for 'c3': spaces ignored, when that names one move only
                squeezed = [n for n in names if "".join(n.lower().split()) == "".join(word.split())]
                by_name = squeezed if len(squeezed) == 1 else []
            if not by_name:
                if word in ("quit", "exit", "q"):
                    return "quit"
                if word in ("help", "?", "h"):
                    out(HUMAN_HELP)
                    continue
                if word in ("moves", "m"):
                    for item in numbered_moves(names, skip_notes(state)):
                        out(item)
                    continue
                if word in ("view", "v"):
                    self.show_view(seat, names)
                    continue
                if word in ("undo", "u"):
                    if self.undo(seat):
                        return "undone"
                    continue
            if not by_name:     # a few words of one name: 'F@6.5' for 'place on F@6.5'
                holding = holding_words(names, text)
                if len(holding) == 1:
                    by_name = holding
                elif len(holding) > 1:
                    self.console.refusal(f"refused: {shortened(text, 40)!r} is in {len(holding)} moves: "
                                         + "; ".join(f"{names.index(n) + 1}. {n}" for n in holding[:6])
                                         + (" ..." if len(holding) > 6 else "") + " (type more of the name, or its number)")
                    continue
            move = by_name[0] if by_name else text
            number = text[1:] if text.startswith("#") else text
            if not by_name and not text.startswith("#") and text.isdigit() and named_by_numbers(names):
                self.console.refusal(f"refused: no move is named {shortened(text, 16)} now (moves are named by numbers here: "
                    f"'#{shortened(text, 16)}' is the move at that place in the list)")
                continue
            if not by_name and number.isascii() and number.isdigit():
                # compared as digits: a number of any length is refused like any other
                digits = number.lstrip("0") or "0"
                index = int(digits) if len(digits) <= len(str(len(names))) else None
                if index is None or not 1 <= index <= len(names):
                    self.console.refusal(f"refused: there is no move number {shortened(number, 16)} (choose 1..{len(names)}, or type 'moves')")
                    continue
                move = names[index - 1]
            try:
                self.play_move(seat, move)
            except IllegalMove as refusal:
                unknown = refusal.reason.startswith("unknown move")
                self.console.refusal(f"refused: {refusal.reason}{self.unplayed_cells(text, names) if unknown else ''}")
                continue
            return None

    def unplayed_cells(self, text, names) -> str:
        """For a move refused as unknown that names a board's cell which no legal move names
        ('put on c3' when no move of now plays on c3), the words that say so."""
        boards = self.state.view(PUBLIC)["boards"].values()
        labels = {cell["label"].lower(): cell["label"] for board in boards for cell in board.get("cells", [])}
        named = {word for name in names for word in words(name)}
        cells = [labels[word] for word in words(text) if word in labels and word not in named]
        if not cells:
            return ""
        numbered = any(board.get("kind") == "hex" for board in boards)
        return (f" ({', '.join(cells)}: no legal move plays there now"
                + ("; the hexes numbered on the map are where they do)" if numbered else ")"))

    def undo(self, seat) -> bool:
        """Go back to `seat`'s previous decision: the moves since (the bots' too) are taken back
        and the game is played again from its seed without them (the engine is deterministic).
        Refused, with a reason, at a seat's first decision or over another human's move."""
        current = len(self.decisions) - 1
        earlier = [i for i in range(current) if self.decisions[i][0] == seat]
        if not earlier:
            self.console.refusal("refused: nothing to undo (this is your first move)")
            return False
        back = earlier[-1]
        others = sorted({p for p, _, _ in self.decisions[back + 1:current] if p != seat})
        if others:
            self.console.refusal(f"refused: undo would take back the move of another human ({', '.join(f'P{p}' for p in others)})")
            return False
        _, kept, bots = self.decisions[back]
        del self.decisions[back:]       # the decision gone back to is recorded again when it is taken
        taken = len(self.moves) - kept
        self.moves = self.moves[:kept]
        self.bots = bots
        self.rebuild()
        out(f"undone: {taken} move{'s' if taken != 1 else ''} taken back, P{seat} to move again")
        self.write_progress()
        return True

    def rebuild(self, record_decisions=False):
        """The state of the game from its seed and self.moves, with what is shown of it;
        record_decisions: note the human decisions among them, for undo (a resumed game)."""
        state = new_state(self.game, self.seed)
        for played, name in enumerate(self.moves):
            seat = state.current_player()
            if record_decisions and 1 <= seat <= self.game.num_players and seat not in self.bots:
                self.decisions.append((seat, played, copy.deepcopy(self.bots)))
            state.apply(name)
        self.state = state
        self.log_seen = len(state.log)      # events already shown are not shown again
        self.sealed = [k for k, (p, text) in enumerate(state.public_history) if text is None and p != self.viewer]
        self.last_scores = state.scores() if self.game.score is not None else None

    def run(self):
        """Play to the end; returns the exit code."""
        game, args = self.game, self.args
        seats = range(1, game.num_players + 1)
        spectating = all(p in self.bots for p in seats)
        # the seed fixes every shuffle: a human at the table who knew it could work out every
        # hidden card. It is shown at the start only when no seat is human, else once the game
        # has stopped (and it is always in the log)
        self.seed_shown = spectating
        self.show(describe(game, self.seed if spectating else None))
        # who is who: a human needs it, so --quiet keeps it unless nobody at the table plays
        seating = " · ".join(f"P{p}: {self.bots[p].kind + ' bot' if p in self.bots else 'human'}" for p in seats)
        if self.unnamed_humans:
            seating += "  (a seat that no --bot names is human)"
        (self.show if spectating else self.console.line)(seating)
        try:
            self.state = new_state(game, self.seed)
        except CliError as error:       # a runtime error before the first move: the game stopped
            error.message += f"\n(while setting up; seed {self.seed})"
            raise
        self.log_seen = self.unshown = len(self.state.log)
        self.last_scores = self.state.scores() if game.score is not None else None
        if self.resumed:
            self.moves = self.resumed
            self.rebuild(record_decisions=True)
            self.unshown = len(self.state.log)          # replayed, not printed
            out(f"resumed from {self.args.resume} after {len(self.moves)} moves")
        outcome = None
        try:
            while not self.state.is_terminal():
                seat = self.state.current_player()
                bot = self.bots.get(seat)
                if bot is not None:
                    self.bot_turn(seat, bot, spectating)
                else:
                    outcome = self.human_turn(seat)
                    if outcome == "undone":
                        outcome = None
                    elif outcome is not None:
                        break
        except RulesRuntimeError as error:
            self.args.errors.error(f"{runtime_text(error, game)}\n(after {len(self.moves)} moves; seed {self.seed})")
            self.save_log()
            return RUNTIME
        except Exception:       # an interpreter bug (reported by main): the moves so far are kept
            self.save_log()
            raise
        code = self.save_log()
        if outcome == "eof":
            out(f"end of input: the game is unfinished after {len(self.moves)} moves")
            self.show_seed()
            return code or UNFINISHED
        if outcome == "quit":
            out(f"game abandoned after {len(self.moves)} moves")
            self.show_seed()
            return code or UNFINISHED
        if not args.quiet:
            out("")
            # the one human's view; else (no human, or several) a spectator's: nobody's secrets
            self.show_view(self.viewer if self.viewer is not None else PUBLIC)
            out("")
        self.console.report(result_lines(self.state))
        self.show_seed()
        return code or OK

    def show_seed(self):
        """The seed, once the game has stopped, if it was not shown at the start."""
        if not self.seed_shown:
            self.show(f"seed: {self.seed}")

    def write_progress(self):
        """The log so far, after every move, so that a crash or a killed terminal loses nothing
        (a failure to write it is reported once, by save_log at the end)."""
        if self.args.log:
            try:
                write_log(self.args.log, self.game, self.state, self.args.file, moves=self.moves, seed=self.seed)
            except OSError:
                pass

    def save_log(self):
        if not self.args.log:
            return OK
        try:
            write_log(self.args.log, self.game, self.state, self.args.file, moves=self.moves, seed=self.seed)
        except OSError as error:
            self.args.errors.error(f"referee: cannot write the log {self.args.log}: {error.strerror or error}")
            return CANNOT_WRITE
        self.show(f"log written to {self.args.log}")
        return OK


def new_seed() -> int:
    """A default seed that nobody can guess: 64 bits from the operating system (the game's
    generator uses 64 bits of a seed)."""
    return secrets.randbits(64)


def refuse_mcts_on_hidden_information(game, kinds):
    hidden = hidden_information(game)
    if hidden and any(kind.startswith("mcts") for kind in kinds.values()):
        raise UsageError(f"argument --bot: mcts reads the whole state, so it plays games of perfect information "
                         f"only, and in this one {hidden}; ismcts searches what its seat may see")


def note_ismcts_secrets(args, game, kinds):
    """ismcts draws again what components hide and the unseen values of variables of a finite
    type, not those of others (an int without a range, a list): say so where a game keeps
    such a secret (on stderr: a --json output stays one document)."""
    secrets_kept = undrawn_secrets(game)
    if secrets_kept and any(kind.startswith("ismcts") for kind in kinds.values()):
        names = ", ".join(f"'{name}'" for name in secrets_kept)
        args.errors.error(f"note: ismcts does not draw the hidden variables again ({names}): it knows their values "
            f"(only a variable of a finite type is drawn: give an int a range, int in LOW..HIGH)")


def seat_bots(kinds, seed, shared_random=None) -> dict:
    """{seat: bot} for {seat: kind} (human seats left out): every random seat shares one
    generator seeded with the game's seed, so that the same seed plays the same game."""
    shared_random = shared_random or RandomBot(seed)
    return {p: shared_random if kind == "random" else make_bot(kind, seed + p)
            for p, kind in kinds.items() if kind != "human"}


def cmd_play(args) -> int:
    if args.resume is not None:
        return resume_play(args)
    if args.ignore_hash:
        raise UsageError("argument --ignore-hash: only with --resume LOG")
    if args.file is None:
        raise UsageError("the following arguments are required: FILE (or --resume LOG)")
    game = load(args.file, args.option, args.players, params=args.param)
    seed = args.seed if args.seed is not None else new_seed()
    bots, unnamed = table_bots(game, args, seed)
    return Session(game, args, bots, seed, unnamed_humans=unnamed).run()


def table_bots(game, args, seed):
    """(bots, unnamed_humans): {seat: bot} from --bot, and whether --bot left a seat human."""
    kinds = parse_bots(args.bot or [], game.num_players)
    if not args.bot:
        kinds = {p: "random" for p in range(2, game.num_players + 1)}
    shared_random = RandomBot(seed)     # one generator for every random seat: reproducible by seed
    refuse_mcts_on_hidden_information(game, kinds)
    note_ismcts_secrets(args, game, kinds)
    bots = seat_bots(kinds, seed, shared_random)
    # with --bot, a seat that no --bot names is human: the seats line says so
    unnamed = bool(args.bot) and any(p not in kinds for p in range(1, game.num_players + 1))
    return bots, unnamed


def resume_play(args) -> int:
    """Go on with the unfinished game of a log written by `play --log`: the log is read and
    replayed whole (a log that is not valid, or whose rules changed, or whose moves are not
    legal, is refused before anything is played), then the game goes on, written to the same
    log unless --log says otherwise. The log fixes the game: players, options, params, seed."""
    fixed = [flag for flag, value in (("--players", args.players), ("--option", args.option),
                                      ("--param", args.param), ("--seed", args.seed)) if value not in (None, [])]
    if fixed:
        raise UsageError(f"argument --resume: the log fixes the game; leave out {', '.join(fixed)}")
    log, error = read_log(args.resume)
    if error is None:
        state, error = replay(log, ignore_hash=args.ignore_hash, log_path=args.resume, rules_path=args.file)
    if error is not None:
        message = str(error).removeprefix(f"{args.resume}: ")
        args.errors.error(f"referee: cannot resume {args.resume}: {message}")
        return error.code
    if state.is_terminal():
        args.errors.error(f"referee: cannot resume {args.resume}: its game is over ({winners_text(state.winners)}); "
            f"referee replay {args.resume} shows it")
        return BAD_INPUT
    game = state.game
    args.file = args.file or log["rules"]       # the log goes on naming the rules as it did
    args.log = args.log or args.resume
    bots, unnamed = table_bots(game, args, log["seed"])
    return Session(game, args, bots, log["seed"], unnamed_humans=unnamed, resumed=log["moves"]).run()


# ---- simulate ----------------------------------------------------------------------------

def play_out(game, seed, max_moves, before_move=None, bots=None):
    """One game of bots (`bots`: {seat: kind}, default all random): (state, moves, error text or
    None, error kind or None: verify's failure kinds). before_move(state, move) is called with
    each move chosen, before it is played."""
    kinds = bots or {p: "random" for p in range(1, game.num_players + 1)}
    players = seat_bots(kinds, seed)
    moves = []
    state = None
    try:
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal() and len(moves) < max_moves:
            move = players[state.current_player()].choose(state)
            if before_move is not None:
                before_move(state, move)
            moves.append(move.name)
            state.apply(move)
    except RulesRuntimeError as error:
        return state, moves, runtime_text(error, game), failure_kind(error)
    except IllegalMove as error:          # a listed move refused: an engine inconsistency
        return state, moves, f"runtime error: a legal move was refused: {error.reason}", "illegal-move"
    return state, moves, None, None


def simulate_game(game, seed, max_moves, log_dir=None, rules_path=None, bots=None, details=False) -> dict:
    """Play one game of `simulate` (and write its log into log_dir): what the summary needs of
    it, small and picklable, so that a worker process can play it as well as this one. With
    coverage, its counts of the game's play (not of the scores or the log read after it).
    bots: {seat: kind} (default all random). details (for `analyze`): also the number of legal
    moves at each move ("branching") and the moves played per seat and action ("actions")."""
    if game.coverage is not None:
        game.coverage.reset()
    branching, actions = [], {}

    def count_move(state, move):
        branching.append(len(state.legal_moves()))
        per_seat = actions.setdefault(state.current_player(), {})
        name = game.actions[move.action].name if move.kind == "action" else f"({move.kind})"
        per_seat[name] = per_seat.get(name, 0) + 1
    state, moves, error, error_kind = play_out(game, seed, max_moves, count_move if details else None, bots)
    record = {"seed": seed, "error": error, "error_kind": error_kind, "moves": moves if error is not None else None,
              "length": len(moves), "finished": False, "winners": [], "scores": [],
              "outcome": None, "returns": [],
              "log": None, "log_error": None,
              "coverage": game.coverage.take() if game.coverage is not None else None}
    if error is None and state.is_terminal():
        try:
            record.update(finished=True, winners=list(state.winners), scores=list(state.scores()),
                          outcome=state.outcome(), returns=list(state.returns()))
        except RulesRuntimeError as failed:       # a score or a return that cannot be computed
            record.update(finished=False, error=runtime_text(failed, game), error_kind=failure_kind(failed),
                          moves=moves)
    if details:
        record.update(branching=branching, actions=actions)
    if log_dir and state is not None:
        path = Path(log_dir) / f"game-{seed}.json"
        try:
            write_log(path, game, state, rules_path, moves=moves, seed=seed)
            record["log"] = str(path)
        except OSError as error_:
            record["log_error"] = f"referee: cannot write the log {path}: {error_.strerror or error_}"
    return record


def simulated_games(args, game, jobs, progress, bots=None, details=False):
    """The records of simulate_game for seeds base, base+1, ..., in seed order: played here
    with one job, else by worker processes (bots and details: as simulate_game takes them)."""
    from ..play import parallel
    seeds = range(args.seed, args.seed + args.n)
    log_dir = getattr(args, "log", None)
    if played_here(args, jobs):
        for i, seed in enumerate(seeds):
            yield simulate_game(game, seed, args.max_moves, log_dir, args.file, bots, details)
            progress.update(i + 1)
        return
    yield from pooled_records(args, game, jobs, progress, parallel.simulate_chunk,
                              [(part, args.max_moves, log_dir, args.file, bots, details)
                               for part in parallel.chunks(seeds, jobs)])


def pooled_records(args, game, jobs, progress, task, task_args):
    """The records of task(game, *a) for each a of task_args (each a list of records), played
    by `jobs` worker processes (or the workers of --cluster), in the order of task_args;
    progress counts them as they come."""
    done = 0

    def arrived(records):
        nonlocal done
        done += len(records)
        progress.update(done)
    with task_pool(jobs, args, game) as pool:
        for records in pool.map_ordered(task, game.num_players, task_args, on_result=arrived):
            yield from records


def log_folder(path) -> Path:
    """The directory of --log DIR, made if need be, or CliError (73)."""
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as error:
        raise CliError(f"referee: cannot create the log directory {path}: {error.strerror or error}", CANNOT_WRITE)
    return Path(path)


def cmd_simulate(args) -> int:
    game = load(args.file, args.option, args.players, args.coverage, args.param)
    n, base, players = args.n, args.seed, game.num_players
    if args.log:
        log_folder(args.log)
    wins = [0] * players
    score_sums = [0.0] * players
    return_sums = [0.0] * players
    lengths = []
    draws = shared = finished = unfinished = errors = 0
    first_error = None
    counted = None
    progress = Progress(n, "simulating", enabled=wanted(args))
    started = time.perf_counter()
    games = simulated_games(args, game, min(jobs_of(args), n), progress)
    try:
        for record in games:
            seed, error = record["seed"], record["error"]
            counted = coverage.add(counted, record["coverage"])
            if error is not None:
                errors += 1
                if first_error is None:
                    first_error = {"seed": seed, "message": error, "moves": record["moves"]}
            elif record["finished"]:
                finished += 1
                lengths.append(record["length"])
                if not record["winners"]:
                    draws += 1
                elif len(record["winners"]) > 1:
                    shared += 1
                for p, value in enumerate(record["returns"]):
                    return_sums[p] += value
                for p in record["winners"]:
                    wins[p - 1] += 1
                for p, value in enumerate(record["scores"]):
                    score_sums[p] += value
            else:
                unfinished += 1
            if record["log_error"]:
                raise CliError(record["log_error"], CANNOT_WRITE)
            if record["log"] and first_error is not None and first_error["seed"] == seed:
                first_error["log"] = record["log"]
    finally:
        games.close()                   # stops the workers, if any
        progress.close()
    seconds = time.perf_counter() - started
    summary = {
        "rules": args.file, "players": players, "options": sorted(game.options),
        "params": game.typed_param_values(), "seed": base,
        "games": n, "finished": finished, "unfinished": unfinished, "runtime_errors": errors,
        "max_moves": args.max_moves,
        "wins": {str(p): wins[p - 1] for p in range(1, players + 1)}, "draws": draws,
        "shared_wins": shared,
        "length": ({"mean": round(sum(lengths) / len(lengths), 2), "min": min(lengths), "max": max(lengths)}
                   if lengths else None),
        "mean_scores": ({str(p): round(score_sums[p - 1] / finished, 3) for p in range(1, players + 1)}
                        if finished else None),
        # with `returns` declared: each seat's mean payoff over the finished games
        "mean_returns": ({str(p): round(return_sums[p - 1] / finished, 3) for p in range(1, players + 1)}
                         if finished and game.declared_returns is not None else None),
        "first_error": first_error,
        "seconds": round(seconds, 3),
    }
    if first_error is not None:
        first_error["replay"] = replay_command(args, game, first_error["seed"])
    if args.coverage:
        summary["coverage"] = coverage.report(game.coverage, counted, n, invariants=False)
    lines = summary_lines(summary, game)
    if args.coverage:
        lines += ["", *coverage.render(summary["coverage"])]
    print_summary(args, summary, lines)
    return RUNTIME if errors else OK


# ---- analyze -------------------------------------------------------------------------------

def analysis_bots(args, game) -> dict:
    """{seat: kind} of --bot: every seat a bot, random where no --bot names it."""
    kinds = {p: "random" for p in range(1, game.num_players + 1)}
    kinds.update(parse_bots(args.bot or [], game.num_players))
    if "human" in kinds.values():
        raise UsageError("argument --bot: analyze plays bots only: a seat cannot be human here")
    refuse_mcts_on_hidden_information(game, kinds)
    note_ismcts_secrets(args, game, kinds)
    return kinds


def analysed(args, game, kinds, label):
    """The analyze.Tally of args.n games of `game` (loaded from args.file) between `kinds`."""
    from ..tools import analyze
    tally = analyze.Tally(game.num_players, args.max_moves)
    progress = Progress(args.n, label, enabled=wanted(args))
    games = simulated_games(args, game, min(jobs_of(args), args.n), progress, kinds, details=True)
    try:
        for record in games:
            tally.add(record)
    finally:
        games.close()                   # stops the workers, if any
        progress.close()
    return tally


def cmd_analyze(args) -> int:
    """A balance report of N games between bots: seats' win rates, draws, lengths, branching,
    actions, scores, endless games and errors; with --against, what changed from a base file."""
    from ..tools import analyze
    game = load(args.file, args.option, args.players, args.coverage, args.param)
    kinds = analysis_bots(args, game)
    base = load(args.against, args.option, game.num_players, params=args.param) if args.against else None
    if args.html:
        try:
            analyze.pyplot()             # before the games, not after them
        except analyze.NoMatplotlib as missing:
            raise CliError(f"referee: {missing}", UNAVAILABLE)
    started = time.perf_counter()
    tally = analysed(args, game, kinds, "analysing")
    bots = {str(p): kind for p, kind in kinds.items()}
    report = {"rules": args.file, "title": game.title or "game", "players": game.num_players,
              "options": sorted(game.options), "params": game.typed_param_values(), "bots": bots,
              "seed": args.seed, "games": args.n, "max_moves": args.max_moves,
              "description": f"{describe(game)} · {args.n} games (seeds {args.seed}..{args.seed + args.n - 1}) · "
                             + " · ".join(f"P{p}: {kind}" for p, kind in bots.items()),
              "figures": tally.figures()}
    base_tally = None
    if base is not None:
        base_args = argparse.Namespace(**{**vars(args), "file": args.against, "coverage": False})
        base_tally = analysed(base_args, base, kinds, "analysing the base")
        report["against"] = {"rules": args.against, "title": base.title or "game", "figures": base_tally.figures(),
                             "changes": analyze.compare(tally, base_tally)}
    if args.coverage:
        report["coverage"] = coverage.report(game.coverage, tally.coverage, args.n, invariants=False)
    report["seconds"] = round(time.perf_counter() - started, 3)
    if args.html:
        scores = {"this file": tally.scores, **({"base": base_tally.scores} if base_tally else {})}
        write_text(args.html, analyze.html_report(report, scores))
    lines = analysis_lines(report) + ([f"\nreport written to {args.html}"] if args.html else [])
    print_summary(args, report, lines)
    return RUNTIME if report["figures"]["errors"]["count"] else OK


def analysis_lines(report) -> list:
    from ..tools import analyze
    lines = [f"{report['description']} · {report['seconds']:.2f} s", *analyze.text_lines(report["figures"])]
    against = report.get("against")
    if against:
        lines += ["", f"base: {against['rules']} · the same bots, seeds and --max-moves",
                  *analyze.text_lines(against["figures"]),
                  "", f"changes from {against['rules']} to {report['rules']}:",
                  *analyze.comparison_lines(against["changes"])]
    if report.get("coverage"):
        lines += ["", *coverage.render(report["coverage"])]
    return lines


# ---- tournament ----------------------------------------------------------------------------

def tournament_bots(specs) -> list:
    """The --bot KIND[:settings] of a tournament, checked: at least two, none human."""
    chosen = [spec.strip().lower() for spec in specs or []]
    for spec in chosen:
        if spec == "human" or spec.startswith("human:"):
            raise UsageError(f"argument --bot: {spec!r}: a tournament plays bots only (known: {', '.join(KINDS)})")
        try:
            make_bot(spec, 0)
        except ValueError as error:
            raise UsageError(f"argument --bot: {spec!r}: {error}") from None
    if len(chosen) < 2:
        raise UsageError("argument --bot: a tournament needs at least two bots, e.g. --bot mcts --bot random")
    return chosen


def tournament_records(args, game, games, jobs, progress):
    """The records of simulate_game of `games` ((seed, {seat: kind}) pairs), in their order:
    played here with one job, else by worker processes."""
    from ..play import parallel
    if played_here(args, jobs):
        for i, (seed, kinds) in enumerate(games):
            yield simulate_game(game, seed, args.max_moves, bots=kinds)
            progress.update(i + 1)
        return
    yield from pooled_records(args, game, jobs, progress, parallel.tournament_chunk,
                              [(part, args.max_moves) for part in parallel.chunks(games, jobs)])


def cmd_tournament(args) -> int:
    """Bots against each other, seats rotated: per bot its results, win rate and rating, and
    a pairwise table."""
    from ..play import tournament
    game = load(args.file, args.option, args.players, params=args.param)
    specs = tournament_bots(args.bot)
    refuse_mcts_on_hidden_information(game, dict(enumerate(specs)))
    note_ismcts_secrets(args, game, dict(enumerate(specs)))
    labels = tournament.labels_of(specs)
    count = tournament.seating_count(len(specs), game.num_players)
    if count > tournament.MOST_SEATINGS:
        raise UsageError(f"argument --bot: {len(specs)} bots in {game.num_players} seats make {count} seatings, "
                         f"more than a tournament plays ({tournament.MOST_SEATINGS}): give fewer bots")
    seating_list = tournament.seatings(len(specs), game.num_players)
    plan = tournament.schedule(args.n, seating_list, args.seed)
    games = [(seed, {p: specs[bot] for p, bot in enumerate(seating, start=1)}) for seed, seating in plan]
    progress = Progress(len(games), "playing")
    started = time.perf_counter()
    records = tournament_records(args, game, games, min(jobs_of(args), len(games)), progress)
    try:
        played = [(seed, seating, record) for (seed, seating), record in zip(plan, records)]
    finally:
        records.close()                 # stops the workers, if any
        progress.close()
    rounds = len(plan) // len(seating_list)
    report = {"rules": args.file, "title": game.title or "game", "players": game.num_players,
              "options": sorted(game.options), "params": game.typed_param_values(), "bots": labels,
              "seed": args.seed, "games": len(plan), "rounds": rounds,
              "seatings": [[labels[bot] for bot in seating] for seating in seating_list],
              "max_moves": args.max_moves,
              "description": f"{describe(game)} · {len(plan)} games: {rounds} rounds × {len(seating_list)} seatings "
                             f"(round r: seed {args.seed}+r in every seating)",
              "figures": tournament.figures(labels, played, args.seed),
              "results": [{"seed": seed, "seats": [labels[bot] for bot in seating], "winners": record["winners"],
                           "returns": record["returns"], "finished": record["finished"],
                           "error": record["error"] is not None}
                          for seed, seating, record in played]}
    report["seconds"] = round(time.perf_counter() - started, 3)
    report["description"] += f" · {report['seconds']:.2f} s"
    print_summary(args, report, tournament.text_lines(report))
    return RUNTIME if report["figures"]["errors"]["count"] else OK


def write_text(path, text):
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as error:
        raise CliError(f"referee: cannot write {path}: {error.strerror or error}", CANNOT_WRITE)


# ---- worker processes (--jobs) -----------------------------------------------------------

def jobs_of(args, workers_write_logs=True) -> int:
    """--jobs, or all the cores; with --cluster, how many tasks its workers run at once
    (workers_write_logs: whether the workers write the logs of --log-dir, not this process)."""
    from ..play import cluster
    from ..play import parallel
    if getattr(args, "cluster", None):
        if args.jobs is not None:
            raise UsageError("argument --cluster: not with --jobs: the cluster's workers play the games")
        if workers_write_logs and getattr(args, "log", None) and remote_cluster(args):
            raise UsageError("argument --log-dir: the workers of a remote --cluster would write the logs on their "
                             "machines: use --cluster local[:N] or --jobs N")
        return cluster.worker_count(cluster_client(args))
    return args.jobs if args.jobs is not None else parallel.default_jobs()


def played_here(args, jobs) -> bool:
    """Whether the games are played in this process: one job and no --cluster."""
    return jobs <= 1 and not getattr(args, "cluster", None)


def remote_cluster(args) -> bool:
    """Whether --cluster names a scheduler, whose workers may be on other machines."""
    return bool(getattr(args, "cluster", None)) and args.cluster[0] == "address"


class Resources(contextlib.ExitStack):
    """What a command opens at most once and keeps for its whole run (the Dask client of
    --cluster: analyze --against plays on the same cluster twice), closed when main returns,
    a second Ctrl-C not stopping the closing."""
    client = None

    def __exit__(self, *raised):
        if self.client is None:             # nothing opened (no --cluster): no import of multiprocessing
            return super().__exit__(*raised)
        from ..play import parallel
        with parallel.ctrl_c_ignored():
            return super().__exit__(*raised)


def cluster_client(args):
    """The Dask client of --cluster, connected (a local cluster started) when first asked for."""
    from ..play import cluster
    from ..play import parallel
    resources = args.resources
    if resources.client is None:
        kind, value = args.cluster
        try:
            resources.client = resources.enter_context(cluster.connected(kind, value, parallel.default_jobs()))
        except cluster.ClusterUnavailable as error:
            raise CliError(f"referee: {error}", UNAVAILABLE)
    return resources.client


@contextlib.contextmanager
def task_pool(jobs, args, game, players=None):
    """What plays the chunks of a command: a worker_pool of `jobs` processes (their game of
    `players`, default the game's), or with --cluster a cluster.ClusterPool, the rules file
    sent to its workers as text."""
    from ..play import cluster
    if not getattr(args, "cluster", None):
        with worker_pool(jobs, args, game, players) as pool:
            yield pool
        return
    source = cluster.source_of(game, args.file, args.option, getattr(args, "coverage", False))
    with worker_errors(args, "on the --cluster"):
        yield cluster.ClusterPool(cluster_client(args), source)


@contextlib.contextmanager
def worker_pool(jobs, args, game, players=None):
    """A parallel.Pool for the rules file of `args`; a worker that dies or cannot start is a
    CliError (exit 70, or 65 when it cannot load the file). The pool is stopped on the way out,
    Ctrl-C included."""
    from ..play import parallel
    with worker_errors(args):
        with parallel.Pool(jobs, args.file, args.option, players or game.num_players,
                           getattr(args, "coverage", False), game.given_params) as pool:
            yield pool


@contextlib.contextmanager
def worker_errors(args, where=""):
    """A worker that died (70) or could not load the rules file (65), as a CliError."""
    from ..play import parallel
    where = f" {where}" if where else ""
    try:
        yield
    except parallel.WorkerDied as error:
        raise CliError(f"referee: {error}{where}; with --jobs 1 the games are played in this process", RUNTIME)
    except parallel.WorkerFailed as error:
        raise CliError(f"referee: a worker process{where} could not load {args.file}:\n{error}", BAD_INPUT)


def replay_command(args, game, seed) -> str:
    parts = ["referee", "play", args.file, "--players", str(game.num_players), "--seed", str(seed),
             "--bot", "all=random", "--brief"]
    for option in sorted(game.options):
        parts += ["--option", option]
    for name, value in game.given_params.items():
        parts += ["--param", f"{name}={param_text(value)}"]
    return " ".join(parts)


def summary_lines(s, game) -> list:
    lines = [f"{describe(game)} · {s['games']} games (seeds {s['seed']}..{s['seed'] + s['games'] - 1}) "
             f"in {s['seconds']:.2f} s"]
    parts = [f"finished {s['finished']}"]
    if s["unfinished"]:
        parts.append(f"unfinished {s['unfinished']} (stopped at --max-moves {s['max_moves']})")
    parts.append(f"runtime errors {s['runtime_errors']}")
    lines.append(" · ".join(parts))
    finished = s["finished"]

    def share(count):
        return f"{count} ({100 * count / finished:.0f}%)" if finished else str(count)
    lines.append("wins: " + " · ".join(f"P{p} {share(c)}" for p, c in s["wins"].items())
                 + f" · draws {share(s['draws'])} · shared wins {share(s['shared_wins'])}")
    if s["length"]:
        length = s["length"]
        lines.append(f"length in moves: mean {length['mean']:.1f} · min {length['min']} · max {length['max']}")
    if s["mean_scores"]:
        lines.append("mean scores: " + " · ".join(f"P{p} {v:g}" for p, v in s["mean_scores"].items()))
    if s["mean_returns"]:
        lines.append("mean returns: " + " · ".join(f"P{p} {v:g}" for p, v in s["mean_returns"].items()))
    error = s["first_error"]
    if error:
        lines.append(f"first runtime error: seed {error['seed']}, at move {len(error['moves'])}:")
        lines.extend("  " + line for line in error["message"].splitlines())
        lines.append(f"  moves: {json.dumps(error['moves'])}")
        if error.get("log"):
            lines.append(f"  log: {error['log']} (referee replay {error['log']})")
        lines.append(f"  to watch it: {error['replay']}")
    return lines


# ---- replay ------------------------------------------------------------------------------

def cmd_replay(args) -> int:
    """Replay a log, then print one perspective of where it ended: a spectator's (the default:
    what every seat may see, and the seed) or, with --player N, seat N's (its view, and its
    legal moves when it is to move; never the seed). No output mixes two seats' secrets."""
    log, error = read_log(args.log)
    if error is None and args.player is not None and args.player > log["players"]:
        raise UsageError(f"argument --player: the game of this log has {log['players']} players, not {args.player} "
                         f"(choose 1..{log['players']}, or leave --player out for a spectator's view)")
    if error is None:
        state, error = replay(log, ignore_hash=args.ignore_hash, log_path=args.log, rules_path=args.rules)
    if error is not None:
        message = str(error)
        if args.json:
            print_json({"error": message, "exit_code": error.code})
        else:
            args.errors.error(message if message.startswith(("referee", "runtime")) or "\n" in message
                else f"referee: {message}")
        return error.code
    seat = args.player
    viewer = PUBLIC if seat is None else seat
    to_move = None if state.is_terminal() else state.current_player()
    legal = state.legal_move_names() if seat is not None and seat == to_move else []
    if args.json:
        print_json({
            "player": seat,
            "final_view": state.view(viewer),
            "moves": len(log["moves"]),
            "scores": list(state.scores()), "winners": list(state.winners),
            "outcome": state.outcome(), "returns": list(state.returns()),
            "to_move": to_move, "legal_moves": legal, "terminal": state.is_terminal(),
        })
        return OK
    game = state.game
    out(f"replayed {len(log['moves'])} moves of {args.log} · {describe(game, log['seed'] if seat is None else None)}")
    out("")
    args.console.view(at_the_table(state.view(viewer), symbol_legends(game, state)), view_defaults(game))
    if legal:
        out("legal moves:")
        for line in numbered_moves(legal):
            out(line)
    out("")
    args.console.report(result_lines(state))
    return OK


# ---- bench -------------------------------------------------------------------------------

def bench_playouts(game, first_seed, stride, seconds, max_moves=DEFAULT_MAX_MOVES) -> dict:
    """Random playouts of seeds first_seed, first_seed + stride, ... for `seconds`: how many
    finished, how many moves were played, in how long, and the (seed, text) of a runtime
    error if one stopped them."""
    playouts = moves = 0
    seed = first_seed
    started = time.perf_counter()
    deadline = started + seconds
    while True:
        bot = RandomBot(seed)
        try:
            state = game.new_initial_state(seed=seed)
            count = 0
            while not state.is_terminal() and count < max_moves:
                state.apply(bot.choose(state))
                count += 1
                if not count & 63 and playouts and time.perf_counter() > deadline:
                    break           # (the first playout is played to its end: a figure needs one)
        except RulesRuntimeError as error:
            return {"playouts": playouts, "moves": moves, "seconds": time.perf_counter() - started,
                    "error": (seed, runtime_text(error, game))}
        moves += count
        if state.is_terminal():
            playouts += 1
        seed += stride
        if time.perf_counter() > deadline:
            break
    return {"playouts": playouts, "moves": moves, "seconds": time.perf_counter() - started, "error": None}


def cmd_bench(args) -> int:
    from ..play import parallel
    game = load(args.file, args.option, args.players, args.coverage, args.param)
    jobs = jobs_of(args)
    if jobs <= 1:
        with Ticking(args.seconds, "benchmarking", enabled=wanted(args)):
            parts = [bench_playouts(game, args.seed, 1, args.seconds, args.max_moves)]
    else:
        # N workers, each with its own seeds (S+j, S+j+N, ...), all started at once, once
        # every one has loaded the game; the figures are their sums over the time budget
        with worker_pool(jobs, args, game) as pool:
            pool.wait_ready()
            tasks = [pool.submit(parallel.bench_task, game.num_players, args.seed + j, jobs, args.seconds,
                                 args.max_moves) for j in range(jobs)]
            with Ticking(args.seconds, "benchmarking", enabled=wanted(args)):
                parts = [pool.take(task) for task in tasks]
    failed = [part["error"] for part in parts if part["error"] is not None]
    if failed:
        seed, text = min(failed)
        raise CliError(f"{text}\n(in the playout of seed {seed}; see 'referee simulate {args.file} -n 1 --seed {seed}')",
                       RUNTIME)
    playouts = sum(part["playouts"] for part in parts)
    moves = sum(part["moves"] for part in parts)
    elapsed = max(part["seconds"] for part in parts)
    result = {
        "rules": args.file, "players": game.num_players, "options": sorted(game.options),
        "params": game.typed_param_values(), "jobs": jobs, "max_moves": args.max_moves, "seconds": round(elapsed, 3), "playouts": playouts, "moves": moves,
        "playouts_per_second": round(playouts / elapsed, 2),
        "moves_per_second": round(moves / elapsed, 1),
        "mean_moves_per_game": round(moves / playouts, 2) if playouts else None,
        "coverage": args.coverage,
    }
    if args.json:
        print_json(result)
    else:
        workers = (f" · {jobs} worker processes" if jobs > 1 else "") + (" · counting rule coverage" if args.coverage else "")
        mean = result["mean_moves_per_game"]
        args.console.report([f"{describe(game)} · random playouts for {elapsed:.2f} s{workers}",
                             f"playouts: {playouts} ({result['playouts_per_second']:.1f}/s)",
                             f"moves: {moves} ({result['moves_per_second']:.0f}/s)",
                             f"mean moves per game: {mean:.1f}" if mean is not None else
                             "mean moves per game: n/a (no playout finished in time)"])
    return OK


# ---- rulebook ------------------------------------------------------------------------------

def cmd_rulebook(args) -> int:
    """Print the rules of a file by rule id, from its tags; with --spec, also the ids of the
    rules text that the file does not tag (exit 1 if any)."""
    game = load(args.file, [], None)
    rules = rulebook.build(game.program, game.sources)
    missing = []
    if args.spec:
        try:
            text = read_regular_file(args.spec, MAX_FILE_BYTES).decode("utf-8", errors="replace")
        except Unreadable as error:
            raise CliError(f"referee: cannot read {args.spec}: {error.reason}", MISSING_FILE)
        prefixes = {rulebook.rule_order(r)[0] for r in rules} or {""}
        for prefix in sorted(prefixes):
            missing += [r for r in rulebook.spec_ids(text, prefix) if r not in rules]
    if args.json:
        print_json({"rules": {r: {"texts": e["texts"], "places": [
            {"file": f, "line": line, "code": code} for f, line, code in e["places"]]} for r, e in rules.items()},
            "missing": missing})
    else:
        args.console.markdown(rulebook.render_markdown(game.title, rules, missing))
    return ERRORS if missing else OK


# ---- verify --------------------------------------------------------------------------------

def cmd_verify(args) -> int:
    """Play random games at every player count asked for; report broken invariants, dead ends,
    runtime errors and endless games, each shrunk to a short replayable list of moves."""
    from ..play import parallel
    probe = load(args.file, args.option, args.players, params=args.param)
    low, high = probe.player_range
    counts = [args.players] if args.players else list(range(low, high + 1))
    jobs = min(jobs_of(args, workers_write_logs=False), args.n * len(counts))     # this process writes them
    progress = Progress(args.n * len(counts), "verifying", enabled=wanted(args))
    played = 0

    def counted(more):
        nonlocal played
        played += more
        progress.update(played)
    loaded = {count: load(args.file, args.option, count, args.coverage, args.param) for count in counts}
    try:
        if not played_here(args, jobs):
            # the games of every count are played by the workers (or the cluster's); the reports are the same
            with task_pool(jobs, args, probe, counts[0]) as pool:
                reports = parallel.verify_reports(pool, jobs, counts, args.n, args.seed, args.max_moves,
                                                  leaks=args.leaks, on_games=counted)
        else:
            reports = {count: verify(loaded[count], games=args.n, seed=args.seed, max_moves=args.max_moves,
                                     leaks=args.leaks, on_game=lambda: counted(1)) for count in counts}
    finally:
        progress.close()
    results = []
    failed = False
    for count in counts:
        game, report = loaded[count], reports[count]
        results.append((game, report))
        for number, failure in enumerate(report.failures, start=1):
            failed = True
            if args.log:
                path = log_folder(args.log) / f"failure-{count}p-{failure.kind}-{number}.json"
                state = game.new_initial_state(failure.seed)
                try:
                    write_log(path, game, state, args.file, moves=failure.moves, seed=failure.seed)
                except OSError as error:
                    raise CliError(f"referee: cannot write the log {path}: {error.strerror or error}", CANNOT_WRITE)
                failure.log = str(path)
    covered = verify_coverage(results) if args.coverage else None
    if args.json:
        print_json({"rules": args.file, "options": sorted(args.option or []),
                    "params": probe.typed_param_values(), "results": [
            {"players": game.num_players, **report.to_json(),
             "logs": [f.log for f in report.failures]} for game, report in results],
            **({"coverage": covered} if covered is not None else {})})
        return ERRORS if failed else OK
    args.console.report(verify_lines(results, covered))
    return ERRORS if failed else OK


def verify_lines(results, covered) -> list:
    """verify's report: per player count, its games and each failure with its moves; the
    coverage after."""
    lines = []
    for game, report in results:
        status = "ok" if not report.failures else f"{len(report.failures)} problem(s)"
        lines.append(f"{describe(game)}: {report.games} games, {report.finished} finished, "
                     f"{report.moves} moves, invariants {len(game.invariants)}: {status}")
        for failure in report.failures:
            lines.append(f"  {failure.kind}: {failure.message}")
            lines.append(f"    seed {failure.seed}, {len(failure.moves)} move(s) after shrinking:")
            lines.extend(f"      {number:3d}. {name}" for number, name in enumerate(failure.moves[:40], start=1))
            if len(failure.moves) > 40:
                lines.append(f"      ... {len(failure.moves) - 40} more")
            if failure.log:
                lines.append(f"    replay it: referee replay {failure.log}")
    if covered is not None:
        lines += ["", *coverage.render(covered)]
    return lines


def verify_coverage(results) -> dict:
    """The coverage of verify's games, at every player count played, added up (each count's
    game has the same places: they come from the same rules)."""
    first = results[0][0].coverage
    total = None
    for game, report in results:
        if game.coverage.signature() != first.signature():
            raise AssertionError("the player counts of a game compiled to different coverage places")
        total = coverage.add(total, report.coverage)
    return coverage.report(first, total, sum(report.games for _, report in results))


# ---- compile -----------------------------------------------------------------------------

def cmd_compile(args) -> int:
    """The generated module of a game (options, player count): every fn, proc, action, trigger,
    the setup and the flow as Python functions, each under a comment naming its rules line
    (with --coverage, the module that counts rule coverage)."""
    from ..compile.passes import PASS_NAMES     # (here: the other commands start without the IR)
    unknown = [name for name in args.no_pass if name not in PASS_NAMES]
    if unknown:
        raise CliError(f"referee compile: no pass named {unknown[0]!r} (the passes: {', '.join(PASS_NAMES)})", USAGE)
    game = load(args.file, args.option, args.players, args.coverage, args.param, args.no_pass)
    source = game.compiler.module_source()
    if not args.output:
        out(source.rstrip("\n"))
        return OK
    write_text(args.output, source)
    args.errors.line(f"{describe(game)}: {source.count(chr(10))} lines written to {args.output}")
    return OK


# ---- the parser --------------------------------------------------------------------------

def shortened(text, most=40) -> str:
    """A text given on the command line or the prompt, shown whole or cut in the middle."""
    return text if len(text) <= most else f"{text[:most // 2]}...{text[-8:]}"


def integer(text, refusal):
    """int(text), or ArgumentTypeError: `refusal` (with {text}) for what is not a whole number,
    and a number of more than 1000 digits is refused too (int() of a longer one raises)."""
    if re.fullmatch(r"\s*[-+]?[0-9]{1001,}\s*", text or ""):
        raise argparse.ArgumentTypeError(f"a number of more than 1000 digits: {shortened(text)!r}")
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(refusal.format(text=repr(shortened(text)))) from None


def whole_number(text, least):
    value = integer(text, "not a whole number: {text}")
    if value < least:
        raise argparse.ArgumentTypeError(f"must be at least {least}: {text}" if least else f"must not be negative: {text}")
    return value


def positive_int(text):
    return whole_number(text, 1)


def seed_int(text):
    return integer(text, "a seed is a whole number, not {text}")


def positive_float(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}")
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0: {text}")
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"must be a finite number of seconds: {text}")
    return value


def jobs_argument(parser, what):
    parser.add_argument("-j", "--jobs", type=positive_int, metavar="N",
                        help=f"{what} in N worker processes (default: one per core; 1: in this process)")


def cluster_argument(parser, what):
    parser.add_argument("--cluster", type=cluster_setting, metavar="ADDRESS",
                        help=f"{what} on a Dask cluster: the scheduler at ADDRESS (tcp://host:8786), or local[:N], "
                             "N worker processes started for the run (needs pip install 'referee[cluster]')")


def cluster_setting(text):
    from ..play import cluster
    try:
        return cluster.parse_cluster(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error))


def coverage_argument(parser):
    parser.add_argument("--coverage", action="store_true",
                        help="also report how often each rule tag's statements, conditions and actions ran, "
                             "and the rules never reached")


def max_moves_argument(parser, what):
    parser.add_argument("--max-moves", type=positive_int, default=DEFAULT_MAX_MOVES, metavar="M",
                        help=f"{what} (default {DEFAULT_MAX_MOVES})")


def game_arguments(parser, players_help="number of players (default: the game's minimum)", file_optional=False):
    if file_optional:
        parser.add_argument("file", metavar="FILE", nargs="?",
                            help="the rules file (with --resume: default, the one the log names)")
    else:
        parser.add_argument("file", metavar="FILE", help="the rules file")
    parser.add_argument("--players", type=positive_int, metavar="N", help=players_help)
    parser.add_argument("--option", action="append", metavar="NAME", default=[],
                        help="turn on a declared option (repeat for several)")
    param_argument(parser)


def param_argument(parser):
    parser.add_argument("--param", action="append", type=param_setting, metavar="NAME=VALUE", default=[],
                        help="give a typed param a value, e.g. --param heap=8 (repeat for several)")


def param_setting(text):
    """'n=8' -> ('n', '8'): the game checks the value against the param's type and range."""
    name, sep, value = text.partition("=")
    if not sep or not re.fullmatch(r"\s*[A-Za-z_][A-Za-z_0-9]*\s*", name) or not value.strip():
        raise argparse.ArgumentTypeError(f"write NAME=VALUE, e.g. heap=8, not {shortened(text)!r}")
    return name.strip(), value.strip()


class VersionAction(argparse.Action):
    """--version, its text found only when asked (the package metadata costs start-up time)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest, nargs=0, default=default,
                         help=help or "show the program's version number and exit")

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"referee {version()}")
        parser.exit()


def version() -> str:
    """The version of the installed package (its metadata, from pyproject.toml), else that of
    the pyproject.toml of this source tree."""
    try:
        from importlib.metadata import PackageNotFoundError, version as installed
        return installed("referee")
    except PackageNotFoundError:
        text = (Path(__file__).resolve().parent.parent / "pyproject.toml").read_text(encoding="utf-8")
        found = re.search(r'^version\s*=\s*"([^"]+)"', text, re.M)
        return found.group(1) if found else "unknown"


# what `referee COMMAND --help` says besides the options: (description, examples, exit codes)
COMMAND_HELP = {
    "check": ("Check rules files (parse, check, compile) and print their diagnostics, file:line:col with "
              "the source line and a caret. A folder stands for every .rules file in it and in its subfolders.",
              ["referee check my-game.rules", "referee check games/", "referee check --json games/"],
              "0 every file is clean, 1 a file has errors (or a folder has no .rules file), 2 bad command line"),
    "play": ("Play a game in the terminal. Without --bot, seat 1 is human and the others are random bots; "
             "with --bot, a seat that no --bot names is human (--bot 2=human names one). "
             "Moves are read line by line from standard input (a number or a move's name; 'help' lists "
             "the commands, 'undo' takes back your last move). --resume LOG goes on with the unfinished "
             "game of a log written by --log.",
             ["referee play my-game.rules",
              "referee play my-game.rules --players 3 --bot all=random --seed 7 --brief",
              "printf 'b2\\n1\\n' | referee play my-game.rules --seed 1 --bot 2=first",
              "referee play my-game.rules --bot all=first --log game.json",
              "referee play --resume game.json"],
             "0 the game reached its end, 2 bad command line, 3 unfinished (end of input or quit), "
             "65 bad rules file, 66 missing file, 70 runtime rules error, 73 cannot write the log"),
    "simulate": ("Play N games between random bots (game i with seed S+i) and summarise them: wins, "
                 "lengths, mean scores, the first runtime error.",
                 ["referee simulate my-game.rules -n 200 --players 4",
                  "referee simulate my-game.rules -n 50 --json --log-dir logs/",
                  "referee simulate my-game.rules -n 10000 --cluster tcp://scheduler:8786"],
                 "0 ok, 2 bad command line, 65 bad rules file, 66 missing file, 69 --cluster without Dask or "
                 "its scheduler unreachable or without workers, 70 a game hit a runtime error, "
                 "73 cannot write a log"),
    "analyze": ("A balance report of N games between bots (game i with seed S+i): each seat's win rate "
                "with its 95% interval and a test of the first seat's advantage, draws and shared wins, game "
                "lengths, legal moves per decision over the game, moves per action and seat, scores, endless "
                "games and runtime errors; --against BASE tells what changed from another file, with "
                "p-values; --html writes it with plots.",
                ["referee analyze my-game.rules -n 500 --players 3",
                 "referee analyze my-game.rules --bot 1=mcts:iterations=200 -n 100 --json",
                 "referee analyze my-variant.rules --against my-game.rules -n 1000 --html report.html"],
                "0 ok, 2 bad command line, 65 bad rules file, 66 missing file, 69 --html without matplotlib, "
                "--cluster without Dask or its scheduler unreachable or without workers, "
                "70 a game hit a runtime error (the report counts it) or a worker process died, "
                "73 cannot write the report"),
    "tournament": ("Bots against each other, seats rotated (every bot in every seat equally often, round r "
                   "dealing seed S+r to every seating): per bot its games, wins, draws, losses, win rate with "
                   "its 95% interval and a Bradley-Terry rating (Elo scale) with its bootstrap interval, and a "
                   "pairwise table.",
                   ["referee tournament my-game.rules --bot mcts --bot random -n 100",
                    "referee tournament my-game.rules --bot ismcts:iterations=200 --bot ismcts:iterations=50 "
                    "--bot random --players 3 --json"],
                   "0 ok, 2 bad command line, 65 bad rules file, 66 missing file, 69 --cluster without Dask or "
                   "its scheduler unreachable or without workers, 70 a game hit a runtime error (the report "
                   "counts it) or a worker process died"),
    "replay": ("Replay a game log from its start, checking every move, and print where it ends: a "
               "spectator's view, or with --player N what seat N sees.",
               ["referee replay game.json", "referee replay game.json --player 2",
                "referee replay logs/game-7.json --rules my-game.rules"],
               "0 ok, 2 bad command line, 65 bad log (changed rules file, a move not legal, another "
               "result), 66 missing log or rules file, 70 runtime rules error"),
    "bench": ("Random playouts for --seconds T: playouts and moves per second.",
              ["referee bench my-game.rules --players 3 --seconds 2",
               "referee bench my-game.rules --jobs 1 --json"],
              "0 ok, 2 bad command line, 65 bad rules file, 66 missing file, 70 runtime rules error"),
    "rulebook": ("The rules of a file by rule id, made from its rule tags, each traced to the lines "
                 "that encode it (Markdown, or JSON).",
                 ["referee rulebook my-game.rules",
                  "referee rulebook my-game.rules --spec rules.md"],
                 "0 ok, 1 --spec found rule ids the file does not tag, 2 bad command line, "
                 "65 bad rules file, 66 missing file"),
    "verify": ("Play random games at every player count, looking for broken invariants, dead ends, "
               "runtime errors, endless games and hidden information that reaches a seat; each "
               "failure is shrunk to a short replayable list of moves.",
               ["referee verify my-game.rules -n 20",
                "referee verify my-game.rules --players 3 -n 200 --coverage",
                "referee verify my-game.rules --log-dir failures/ --json",
                "referee verify my-game.rules -n 5000 --cluster tcp://scheduler:8786"],
               "0 ok, 1 a problem was found, 2 bad command line, 65 bad rules file, 66 missing file, "
               "69 --cluster without Dask or its scheduler unreachable or without workers, "
               "70 a worker process died, 73 cannot write a log"),
    "compile": ("Write the Python module a game compiles to (for one player count and set of options), "
                "for reading and debugging.",
                ["referee compile my-game.rules",
                 "referee compile my-game.rules --players 3 -o my_game.py"],
                "0 ok, 2 bad command line, 65 bad rules file, 66 missing file, 73 cannot write the output"),
    "lsp": ("A language server for .rules files, for editors (VS Code, Neovim, any LSP client): the "
            "diagnostics of check as you type, hover, go to definition, references, completion, "
            "document symbols and rename. It speaks JSON-RPC on standard input and output; see docs/editor.md.",
            ["referee lsp", "referee lsp --stdio"],
            "0 the editor stopped the server, 1 the editor exited without asking it to shut down, "
            "2 bad command line, 69 pygls is not installed (pip install 'referee[lsp]')"),
    "completion": ("Print a completion script for the shell, built from this command line: the commands, "
                   "their flags, and rules files (or logs) for their file arguments.",
                   ["referee completion bash", "referee completion zsh"],
                   "0 printed, 2 bad command line"),
}


def describe_commands(commands):
    """Each command's description, examples and exit codes, for its --help."""
    for name, (description, examples, codes) in COMMAND_HELP.items():
        sub = commands[name]
        sub.description = textwrap.fill(description, 78)
        sub.formatter_class = argparse.RawDescriptionHelpFormatter
        lines = ["examples:", *(f"  {example}" for example in examples), "", "exit codes (see docs/cli.md):"]
        for code in [*re.split(r", (?=\d)", codes), "130 interrupted (Ctrl-C)"]:
            number, text = code.split(" ", 1)
            lines.append(textwrap.fill(text, 78, initial_indent=f"  {number:<4}", subsequent_indent=" " * 6))
        sub.epilog = "\n".join(lines)


def games_arguments(sub, default, games_help, seed_help):
    """-n/--games and --seed, for the commands that play many games."""
    sub.add_argument("-n", "--games", dest="n", type=positive_int, default=default, metavar="N", help=games_help)
    sub.add_argument("--seed", type=seed_int, default=0, metavar="S", help=seed_help)


def plain_argument(sub, never_coloured=None):
    """--plain, for every command that prints (see interpreter/console.py); never_coloured:
    what a command prints that is never coloured anyway (code), so that --plain is taken by all."""
    sub.add_argument("--plain", action="store_true",
                     help=f"taken by every command: {never_coloured} is never coloured" if never_coloured else
                     "plain text, no colour (the default where standard output is not a terminal, "
                     "or NO_COLOR is set)")


def workers_arguments(sub, what):
    """--jobs and --cluster: where the games are played."""
    jobs_argument(sub, what)
    cluster_argument(sub, what)


def build_parser():
    parser = Parser(
        prog="referee", description="Check, play, simulate and replay games written in the Referee rules language.",
        epilog="exit codes: 0 ok, 1 check found errors, 2 bad command line, 3 game unfinished, "
               "65 bad rules file or log, 66 missing file, 69 a package a command or a flag needs is missing, "
               "70 runtime rules error, 73 cannot write a log")
    parser.add_argument("--version", action=VersionAction)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    check = commands.add_parser("check", help="check rules files and print their diagnostics")
    check.add_argument("files", nargs="+", metavar="FILE",
                       help="a rules file, or a folder: every .rules file in it and in its subfolders")
    check.add_argument("--json", action="store_true", help="print the diagnostics as JSON")
    param_argument(check)
    plain_argument(check)
    check.set_defaults(run=cmd_check)

    play = commands.add_parser("play", help="play a game in the terminal, against bots or not",
                               description="Play a game. Without --bot, seat 1 is human and the others are "
                                           "random bots. Moves are read line by line from standard input.")
    game_arguments(play, file_optional=True)
    play.add_argument("--resume", metavar="LOG",
                      help="go on with the unfinished game of LOG (written by play --log), which is replayed "
                           "and checked first; the game is written on to LOG unless --log names another file")
    play.add_argument("--ignore-hash", action="store_true",
                      help="with --resume: go on even if the rules file has changed since the log was written")
    play.add_argument("--seed", type=seed_int, metavar="S",
                      help="random seed (default: 64 random bits from the OS); shown at the start only when "
                           "every seat is a bot, else once the game has stopped, and in the log")
    play.add_argument("--bot", action="append", metavar="SEAT=KIND",
                      help="who plays a seat: SEAT is a number or 'all', KIND is 'random', 'first', 'mcts[:iterations=N]' or "
                           "'ismcts[:iterations=N]' (bots) or 'human'. With --bot, a seat that no --bot names is human; without, seat 1 is human "
                           "and the others are random bots")
    play.add_argument("--log", metavar="FILE",
                      help="write the game log, one JSON file, to FILE (simulate and verify take a folder: --log-dir)")
    play.add_argument("--hot-seat", action=argparse.BooleanOptionalAction, default=None,
                      help="with several human seats, clear the screen and wait for Enter before each "
                           "human's view when another human played last (default: when standard input "
                           "and output are a terminal)")
    play.add_argument("--quiet", action="store_true", help="show only what a human needs: who is who, each view with its legal moves and the "
                           "prompt, refusals, the result; no move lines (the bots' or the humans')")
    play.add_argument("--brief", action="store_true",
                      help="show one line per move (turn, player, move) instead of the view before each bot move")
    plain_argument(play)
    play.set_defaults(run=cmd_play)

    simulate = commands.add_parser("simulate", help="play many games of random bots and summarise them")
    game_arguments(simulate)
    games_arguments(simulate, 100, "number of games (default 100)",
                    "game i uses seed S+i (default 0)")
    simulate.add_argument("--quiet", action="store_true", help="no progress line on standard error")
    simulate.add_argument("--json", action="store_true", help="print the summary as JSON")
    simulate.add_argument("--log-dir", "--log", dest="log", metavar="DIR",
                          help="write one log per game, DIR/game-SEED.json, into the folder DIR (made if need be)")
    max_moves_argument(simulate, "stop a game after M moves and count it unfinished")
    coverage_argument(simulate)
    workers_arguments(simulate, "play the games")
    plain_argument(simulate)
    simulate.set_defaults(run=cmd_simulate)

    analyze_ = commands.add_parser("analyze", help="a balance report of many games between bots, or of a "
                                                   "variant against its base")
    game_arguments(analyze_)
    games_arguments(analyze_, 200, "number of games (default 200)",
                    "game i uses seed S+i (default 0)")
    analyze_.add_argument("--bot", action="append", metavar="SEAT=KIND",
                          help="who plays a seat: SEAT is a number or 'all', KIND 'random', 'first', "
                               "'mcts[:iterations=N,...]' or 'ismcts[:iterations=N,...]'; a seat that no --bot names is a random bot")
    analyze_.add_argument("--against", metavar="BASE",
                          help="also play BASE (another rules file, e.g. the one a variant extends) with the same "
                               "players, options, params, bots and seeds, and report what changed, with p-values")
    analyze_.add_argument("--quiet", action="store_true", help="no progress line on standard error")
    analyze_.add_argument("--json", action="store_true", help="print every figure as JSON")
    analyze_.add_argument("--html", metavar="PATH",
                          help="also write the report with its plots to PATH, one self-contained HTML file "
                               "(needs matplotlib: pip install 'referee[report]')")
    max_moves_argument(analyze_, "stop a game after M moves and count it endless")
    coverage_argument(analyze_)
    workers_arguments(analyze_, "play the games")
    plain_argument(analyze_)
    analyze_.set_defaults(run=cmd_analyze)

    tournament_ = commands.add_parser("tournament", help="bots against each other, seats rotated: win rates, "
                                                        "ratings and a pairwise table")
    game_arguments(tournament_)
    tournament_.add_argument("--bot", action="append", metavar="KIND",
                             help="a bot of the tournament (at least two): 'random', 'first', "
                                  "'mcts[:iterations=N,...]' or 'ismcts[:iterations=N,...]'; repeat for each")
    games_arguments(tournament_, 100, "at least N games (default 100), rounded up to whole rounds of every seating",
                    "round r uses seed S+r, in every seating (default 0); it seeds the bootstrap too")
    tournament_.add_argument("--json", action="store_true", help="print the figures and every game's result as JSON")
    max_moves_argument(tournament_, "stop a game after M moves and count it a draw")
    workers_arguments(tournament_, "play the games")
    plain_argument(tournament_)
    tournament_.set_defaults(run=cmd_tournament)

    replay_ = commands.add_parser("replay", help="replay a game log, checking every move")
    replay_.add_argument("log", metavar="LOG", help="a game log (JSON) written by play --log, simulate --log-dir or verify --log-dir")
    replay_.add_argument("--rules", metavar="FILE",
                         help="the rules file to replay it with (default: the one the log names, looked for as "
                              "written, then from the log's folder)")
    replay_.add_argument("--player", type=positive_int, metavar="N",
                         help="print what seat N sees where the log ends (its view, and its legal moves if it "
                              "is to move; default: a spectator's view, public information only)")
    replay_.add_argument("--json", action="store_true", help="print the final state as JSON")
    replay_.add_argument("--ignore-hash", action="store_true",
                         help="replay even if the rules file changed since the log was written")
    plain_argument(replay_)
    replay_.set_defaults(run=cmd_replay)

    bench = commands.add_parser("bench", help="measure random playouts per second")
    game_arguments(bench)
    bench.add_argument("--seconds", type=positive_float, default=5.0, metavar="T", help="how long (default 5)")
    bench.add_argument("--seed", type=seed_int, default=0, metavar="S", help="first seed (default 0)")
    bench.add_argument("--quiet", action="store_true", help="no progress line on standard error")
    bench.add_argument("--json", action="store_true", help="print the figures as JSON")
    max_moves_argument(bench, "stop a playout after M moves (it does not count as one finished)")
    bench.add_argument("--coverage", action="store_true",
                       help="play the game compiled to count rule coverage (what counting costs; no counts printed)")
    jobs_argument(bench, "run playouts")
    plain_argument(bench)
    bench.set_defaults(run=cmd_bench)

    book = commands.add_parser("rulebook", help="the rules of a file by rule id, traced to the lines that encode them")
    book.add_argument("file", metavar="FILE", help="the rules file")
    book.add_argument("--spec", metavar="RULES_TEXT",
                      help="a numbered rules text (lines starting with ids like X-12): list its rule ids "
                           "that the file does not tag, and exit 1 if there are any")
    book.add_argument("--json", action="store_true", help="print the rulebook as JSON")
    plain_argument(book)
    book.set_defaults(run=cmd_rulebook)

    verify_ = commands.add_parser("verify", help="play random games looking for broken invariants, dead ends "
                                                 "and endless games; shrink what fails")
    game_arguments(verify_, "number of players (default: every count the game allows)")
    games_arguments(verify_, 50, "games per player count (default 50)",
                    "first seed (default 0)")
    max_moves_argument(verify_, "a game longer than M moves counts as endless")
    verify_.set_defaults(leaks=True)
    verify_.add_argument("--no-leaks", dest="leaks", action="store_false",
                         help="do not probe for hidden information that reaches a seat (twin states, "
                              "every 6 moves; on by default)")
    verify_.add_argument("--flows", dest="leaks", action="store_const", const="flows",
                         help="also report what a probed move carries from hidden to shown (a hidden value "
                              "copied into a public one; expected where the rules reveal it)")
    verify_.add_argument("--log-dir", "--log", dest="log", metavar="DIR",
                         help="write a replayable log of each failure into the folder DIR (made if need be)")
    verify_.add_argument("--quiet", action="store_true", help="no progress line on standard error")
    verify_.add_argument("--json", action="store_true", help="print the report as JSON")
    coverage_argument(verify_)
    workers_arguments(verify_, "play the games")
    plain_argument(verify_)
    verify_.set_defaults(run=cmd_verify)

    compile_ = commands.add_parser("compile", help="write the Python module a game compiles to, for reading and debugging")
    game_arguments(compile_)
    compile_.add_argument("-o", "--output", metavar="PATH", help="write it to PATH (default: standard output)")
    compile_.add_argument("--coverage", action="store_true",
                          help="the module compiled to count rule coverage (its COV[k] += 1 lines)")
    compile_.add_argument("--no-pass", action="append", default=[], metavar="NAME",
                          help="compile without the optimisation pass NAME (repeatable; the passes: docs/architecture.md)")
    plain_argument(compile_, "the Python module")
    compile_.set_defaults(run=cmd_compile)

    server = commands.add_parser("lsp", help="a language server for editors, on standard input and output")
    server.add_argument("--stdio", action="store_true",
                        help="talk over standard input and output (the only way; editors that pass it may)")
    server.set_defaults(run=cmd_lsp)
    plain_argument(completion.add_command(commands, lambda args: completion.print_script(args, parser)),
                   "the script")
    parser.commands = commands.choices
    describe_commands(parser.commands)
    return parser


def wants_json(argv, parser) -> bool:
    """Whether the command line asks a command that takes --json for it (read from the words
    themselves when they could not be parsed)."""
    words = list(argv)[:list(argv).index("--")] if "--" in argv else list(argv)
    command = next((word for word in words if not word.startswith("-")), None)
    sub = parser.commands.get(command)
    return sub is not None and "--json" in words and "--json" in sub._option_string_actions


def failed(error, parser, as_json, errors) -> int:
    """Report a CliError (a UsageError in argparse's style): on stderr (the console `errors`),
    or with --json as a JSON object on stdout. Returns its exit code."""
    message = error.message
    if isinstance(error, UsageError):
        usage = error.parser or parser
        message = f"{usage.prog}: error: {message}"
        if not as_json:
            message = usage.format_usage() + message
    if as_json:
        print_json({"error": message, "exit_code": error.code})
    else:
        errors.error(message)
    return error.code


def main(argv=None) -> int:
    parser = build_parser()
    argv = [str(word) for word in (sys.argv[1:] if argv is None else argv)]
    as_json = wants_json(argv, parser)
    # until the command line is read, its --plain is found among its words
    errors = console.for_errors(argparse.Namespace(json=as_json, plain="--plain" in argv))
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:               # --help, --version (0)
        return stop.code if isinstance(stop.code, int) else USAGE
    except UsageError as error:              # a bad command line (2)
        return failed(error, parser, as_json, errors)
    if not getattr(args, "run", None):
        parser.print_help(sys.stderr)
        return USAGE
    command = parser.commands.get(args.command)
    args.console = console.for_command(args)          # colour or plain, once for the command
    args.errors = errors = console.for_errors(args)    # ... and for its standard error
    try:
        with Resources() as args.resources:
            return args.run(args)
    except UsageError as error:
        error.parser = error.parser or command
        return failed(error, parser, as_json, errors)
    except CliError as error:
        return failed(error, parser, as_json, errors)
    except KeyboardInterrupt:
        if as_json:
            return failed(CliError("interrupted", 130), parser, as_json, errors)
        errors.error("\ninterrupted")
        return 130
    except BrokenPipeError:
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return OK
    except RulesRuntimeError as error:
        return failed(CliError(runtime_text(error), RUNTIME), parser, as_json, errors)
    except Exception as error:               # an interpreter bug: say so, without a traceback
        if os.environ.get("REFEREE_DEBUG"):
            raise
        return failed(CliError(f"referee: internal error: {type(error).__name__}: {error} "
                               "(set REFEREE_DEBUG=1 to see the traceback)", RUNTIME), parser, as_json, errors)


def run() -> int:
    """The `referee` program: main(), then the exit, without the interpreter's last garbage
    collection over every object the command left (~30 ms after a `check`): the process ends
    and frees them all. (A caller of main() in a process that goes on keeps its collections.)"""
    code = main()
    gc.freeze()
    return code


if __name__ == "__main__":
    sys.exit(run())
