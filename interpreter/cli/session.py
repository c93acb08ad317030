"""The interactive play session: one game played in the terminal, humans typing their moves
(what they type resolved to a move, a command or a refusal by the pure function resolve_input),
bots playing theirs, with undo, hot seat and the log written as the game goes."""
from __future__ import annotations

import copy
import re
import sys

import attrs

from referee.dsl.limits import MAX_PROMPT_LINE

from ..engine import PUBLIC
from ..engine.moves import public_text
from ..engine.render import at_the_table, scores_text, symbol_legends, view_defaults, with_flow_state
from ..engine.render import width as terminal_width
from ..play.simulate import runtime_text
from ..runtime.errors import IllegalMove, RulesRuntimeError
from ..tools.gamelog import write_log
from . import rules_at_hand
from .common import describe, new_state, out, printable, result_lines, shortened
from .errors import CANNOT_WRITE, OK, RUNTIME, UNFINISHED, CliError

HUMAN_HELP = """\
Type a move by its number or its name (case and spaces do not matter); '#3' is always move 3.
Where moves are named by numbers, a bare number is a name, never a place in the list.
A few words of a name will do when only one legal move holds them all ('F@6.5' for
'place on F@6.5'). On a hex map, (3) on an empty hex: move 3 of the list plays there.
Where many moves begin alike, the list shows one line per first part: type that first part
('tall tower') to see its moves numbered, then the rest ('Upland 3') or its number.
Commands: moves (list the legal moves), view (show the game again), undo (take back your last
move, and the bots' moves after it), view all (the view with the flow state the rules mark
bookkeeping), help, quit.
The rules at hand: rules (every rule of the game), rules ID (one: 'rules C-8'), help MOVE (what
a move does, in the rules' words, and what the parts of its name stand for)."""


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

# ---- what a human typed ------------------------------------------------------------------

@attrs.frozen
class Play:
    """A move to play: a legal move's name, or the text as typed (for the game to find a move
    by it, or refuse it with its reason)."""
    move: str


@attrs.frozen
class Command:
    """A command of the prompt: 'quit', 'help', 'moves', 'view' or 'undo'."""
    name: str


@attrs.frozen
class Refusal:
    """What was typed names no move, or several: `text` says why."""
    text: str


# what may be typed for each command (a move's name comes first: a move named 'q' is a move)
COMMAND_WORDS = {"quit": "quit", "exit": "quit", "q": "quit", "help": "help", "?": "help", "h": "help",
                 "moves": "moves", "m": "moves", "view": "view", "v": "view", "undo": "undo", "u": "undo"}


def resolve_input(text: str, names: list) -> Play | Command | Refusal:
    """What a line typed at the prompt (stripped, not empty) means where the legal moves are
    `names`: a move's name (case and spaces aside), a command, a few words of one name, '#N'
    or N for the move at place N (N is a name where moves are named by numbers)."""
    word = text.lower()
    by_name = [n for n in names if " ".join(n.lower().split()) == " ".join(word.split())]
    if not by_name:     # 'c 3' for 'c3': spaces ignored, when that names one move only
        squeezed = [n for n in names if "".join(n.lower().split()) == "".join(word.split())]
        by_name = squeezed if len(squeezed) == 1 else []
    if not by_name and word in COMMAND_WORDS:
        return Command(COMMAND_WORDS[word])
    if not by_name:     # a few words of one name: 'F@6.5' for 'place on F@6.5'
        holding = holding_words(names, text)
        if len(holding) > 1:
            return Refusal(f"refused: {shortened(text, 40)!r} is in {len(holding)} moves: "
                           + "; ".join(f"{names.index(n) + 1}. {n}" for n in holding[:6])
                           + (" ..." if len(holding) > 6 else "") + " (type more of the name, or its number)")
        by_name = holding
    if by_name:
        return Play(by_name[0])
    if not text.startswith("#") and text.isdigit() and named_by_numbers(names):
        return Refusal(f"refused: no move is named {shortened(text, 16)} now (moves are named by numbers here: "
                       f"'#{shortened(text, 16)}' is the move at that place in the list)")
    number = text[1:] if text.startswith("#") else text
    if number.isascii() and number.isdigit():
        # compared as digits: a number of any length is refused like any other
        digits = number.lstrip("0") or "0"
        index = int(digits) if len(digits) <= len(str(len(names))) else None
        if index is None or not 1 <= index <= len(names):
            return Refusal(f"refused: there is no move number {shortened(number, 16)} (choose 1..{len(names)}, or type 'moves')")
        return Play(names[index - 1])
    return Play(text)


# ---- the session ---------------------------------------------------------------------------

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
        self.group = None           # the moves of the first part a human typed (move_groups)
        if self.interactive:
            try:
                import readline  # noqa: F401  (line editing and history for input())
            except ImportError:
                pass

    def refuse(self, text):
        """A refusal, whose words may hold what was typed: its control characters escaped."""
        self.console.refusal(printable(text))

    def show(self, text):
        if not self.args.quiet:
            self.console.line(text)

    def show_view(self, seat, names=None, everything=False):
        """The view of `seat`, with the legends of its hex maps and, while it chooses among
        the moves `names`, their numbers on the hexes they name (`everything`: with the flow
        state, the variables the rules mark `bookkeeping`)."""
        if self.legends is None:
            self.legends = symbol_legends(self.game, self.state)
        mark = "#" if names and named_by_numbers(names) else ""
        view = self.state.view(seat)
        if everything:
            view = with_flow_state(view)
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
        self.list_moves(state.legal_move_names())
        while True:
            line = self.read_line(self.move_prompt(seat))
            if line is None:
                out("")
                return "eof"
            text = line.strip()
            if not text:
                continue
            names = state.legal_move_names()
            request = rules_at_hand.asked(text, names)
            if request is not None:
                out(rules_at_hand.answer(state, request))
                continue
            typed = self.typed_move(text, names)
            if typed is None:
                continue
            if isinstance(typed, Refusal):
                self.refuse(typed.text)
                continue
            if isinstance(typed, Command):
                if typed.name == "quit":
                    return "quit"
                if typed.name == "help":
                    out(HUMAN_HELP)
                    out("\n".join(rules_at_hand.moves_legend(state)))
                elif typed.name == "moves":
                    self.list_moves(names)
                elif typed.name in ("view", "view all"):
                    self.show_view(seat, names, everything=typed.name == "view all")
                elif self.undo(seat):
                    return "undone"
                continue
            try:
                self.play_move(seat, typed.move)
            except IllegalMove as refusal:
                unknown = refusal.reason.startswith("unknown move")
                self.refuse(f"refused: {refusal.reason}{self.unplayed_cells(text, names) if unknown else ''}")
                continue
            return None

    # ---- moves grouped by their first part (move_groups) ----

    def list_moves(self, names):
        """The legal moves, grouped by first part when many begin alike."""
        self.group = None
        for line in listed_moves(self.state, names, skip_notes(self.state)):
            out(line)

    def move_prompt(self, seat) -> str:
        return f"P{seat} {self.group.head}> " if self.group is not None else f"P{seat}> "

    def typed_move(self, text, names):
        """What a typed line means (resolve_input), where a first part typed ('tall tower')
        lists its moves and the next line is read as the rest of one: None then."""
        if " ".join(words(text)) in ("view all", "v all") and not any(n.lower() == "view all" for n in names):
            return Command("view all")      # the flow state too (with_flow_state)
        if self.group is not None:
            typed = resolve_in_group(text, self.group, names)
            if not isinstance(typed, Refusal) and not (isinstance(typed, Play) and typed.move not in names):
                self.group = None       # a move, a command: the group is left (not after a slip)
            return typed
        typed = resolve_input(text, names)
        if isinstance(typed, Refusal) or (isinstance(typed, Play) and typed.move not in names):
            group = group_of(self.state, names, text)
            if group is not None:
                self.group = group
                for line in group_lines(group):
                    out(line)
                return None
        return typed

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
            self.refuse("refused: nothing to undo (this is your first move)")
            return False
        back = earlier[-1]
        others = sorted({p for p, _, _ in self.decisions[back + 1:current] if p != seat})
        if others:
            self.refuse(f"refused: undo would take back the move of another human ({', '.join(f'P{p}' for p in others)})")
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
        self.first_log()
        if self.resumed:
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

    def first_log(self):
        """The log as the game starts: one that cannot be written stops the command before
        the first move (73), not after a whole game played for nothing."""
        if self.args.log:
            try:
                write_log(self.args.log, self.game, self.state, self.args.file, moves=self.moves, seed=self.seed)
            except OSError as error:
                raise CliError(f"referee: cannot write the log {self.args.log}: {error.strerror or error}",
                               CANNOT_WRITE) from None

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


# ---- moves grouped by their first part -------------------------------------------------------
# A long list of legal moves ('build tall tower on Upland 6', 55 of them) is shown as one line
# per first part (the action's words and its first argument: 'build tall tower'); a player types
# a first part, then the rest.

GROUPED_FROM = 13       # moves listed one per line up to 12 (numbered_moves' columns start there)


@attrs.frozen
class Group:
    """Legal moves that begin alike: `head` ('build tall tower'), then each move's full name
    and what follows the head in it ('on Upland 6')."""
    head: str
    names: tuple
    rests: tuple


def move_head(game, move, state):
    """The first part of a legal move's name: its template's words up to its first argument
    and that argument's label ('build {card} on {c} {i}' -> 'build tall tower'), when more
    words follow it; None for a move of another kind, or one named by its argument alone."""
    if move.kind != "action":
        return None
    parts, tail = game.templates[move.action]
    first = next((k for k, (_, position) in enumerate(parts) if position is not None), None)
    if first is None or not isinstance(parts[first][1], int):
        return None
    position = parts[first][1]
    head = "".join(literal for literal, _ in parts[:first + 1])
    head += game.binder_labelers[move.action][position](state, move.args[position])
    name = move.name
    if not head.strip() or not name.startswith(head) or not name[len(head):].startswith(" "):
        return None
    return head


def move_groups(state, names) -> list:
    """The legal moves `names` (in the state's order) as Groups, in the order of their first
    moves; a move without a first part is a group of its own (its name its head)."""
    game = state.game
    heads = {}
    for move in state.legal_moves():
        head = move_head(game, move, state)
        heads.setdefault(head if head is not None else move.name, []).append(move.name)
    groups = []
    for head, members in heads.items():
        if len(members) == 1 and members[0] == head:
            groups.append(Group(head, (head,), ("",)))
        else:
            groups.append(Group(head, tuple(members), tuple(name[len(head):].strip() for name in members)))
    known = set(names)
    return [group for group in groups if set(group.names) <= known]


def rests_text(rests) -> list:
    """What follows a first part, neighbours that differ only in their last word together:
    'on Upland 1', 'on Upland 6' -> 'on Upland 1, 6'."""
    runs = []
    for rest in rests:
        stem, _, last = rest.rpartition(" ")
        if runs and stem and runs[-1][0] == stem:
            runs[-1][1].append(last)
        else:
            runs.append([stem, [last]] if stem else ["", [rest]])
    return [f"{stem} {', '.join(lasts)}" if stem else lasts[0] for stem, lasts in runs]


def listed_moves(state, names, notes=None) -> list:
    """The legal moves as a human reads them: numbered (numbered_moves) or, when they are many
    and some begin alike, one line per first part with what may follow it; a move alone in
    its group keeps its number, and the last line says how to type the others."""
    if len(names) < GROUPED_FROM:
        return numbered_moves(names, notes)
    groups = move_groups(state, names)
    if len(groups) == len(names) or len(groups) != len({g.head for g in groups}):
        return numbered_moves(names, notes)
    notes = notes or {}
    mark = "#" if named_by_numbers(names) else ""
    digits = len(str(len(names)))
    heads = [g.head for g in groups if len(g.names) > 1]
    head_width = max(len(head) for head in heads)
    lines = []
    for group in groups:
        if len(group.names) == 1:
            name = group.names[0]
            lines.append(f"  {mark}{names.index(name) + 1:>{digits}}. {name}" + (f"  ({notes[name]})" if name in notes else ""))
            continue
        head = f"  {group.head.ljust(head_width)}  {len(group.names):>{digits}} moves: "
        runs = rests_text(group.rests)
        one_line = head + " · ".join(runs)
        if len(one_line) <= terminal_width():
            lines.append(one_line)
        else:       # a line for each run, under the first
            lines.extend(head + run if k == 0 else " " * len(head) + run for k, run in enumerate(runs))
    lines.append(f"  (type a first part, '{heads[0]}', to list its moves and choose one; or a whole move)")
    return lines


def group_of(state, names, text):
    """The group a typed text picks: its first part as written, or words that only the moves
    of one group of several moves hold ('tall tower'); None otherwise."""
    wanted = " ".join(words(text))
    if not wanted:
        return None
    groups = [g for g in move_groups(state, names) if len(g.names) > 1]
    for group in groups:
        if " ".join(words(group.head)) == wanted:
            return group
    holding = set(holding_words(names, text))
    if len(holding) < 2:
        return None
    found = [g for g in groups if holding <= set(g.names)]
    return found[0] if len(found) == 1 else None


def group_lines(group) -> list:
    """A group's moves, numbered in the group, for a player to choose the rest of."""
    return [f"{group.head}: type the rest of the move, or its number here (another move, or 'moves', leaves it)",
            *numbered_moves(list(group.rests))]


def resolve_in_group(text, group, names):
    """What a line typed after a first part means: the rest of one of the group's moves (its
    words, or its number in the group), else whatever it means among all the legal moves."""
    rests = list(group.rests)
    typed = resolve_input(text, rests)
    if isinstance(typed, Play) and typed.move in rests:
        return Play(group.names[rests.index(typed.move)])
    whole = resolve_input(text, names)
    if isinstance(typed, Refusal) and not (isinstance(whole, Play) and whole.move in names):
        return typed
    return whole
