"""A table of the web server, without HTTP: one game, its seats, their tokens, its bots, its log.

    table = Table.new("my-game", game, "my-game.rules", seed, {2: "random"})
    seat = table.seat_of(token)           # None for a wrong token
    table.observation(seat)               # what the seat is shown: its view and its legal moves
    table.play(seat, "b2", after=3)       # a typed move, read as the terminal reads it
    table.undo(seat)                      # back to the seat's previous decision, as at the terminal
    table.play_bot_move()                 # one bot move, when a bot is to move

Everything a seat is shown comes from `State.view(seat)` and the seat's legal moves, never from
the state itself: what the views and the leak finder decide a seat may see is all it gets. The
log is written as `referee play --log` writes it (so `referee play --resume LOG` goes on with a
web table's game); the seats' tokens go to a file beside it, readable by its owner only, so that
a table resumed after a restart keeps its URLs.
"""
from __future__ import annotations

import copy
import json
import os
import re
import secrets
import threading
from pathlib import Path
from typing import Callable, Optional

from referee.dsl.limits import MAX_PROMPT_LINE

from ..engine import PUBLIC
from ..runtime.errors import IllegalMove, RulesRuntimeError
from ..tools.gamelog import game_result, write_log
from ..engine.render import index_order, winners_text
# the terminal's own reading of typed moves and its notes on them (docs/cli.md, "Human seats")
from ..cli.common import shortened
from ..cli.session import holding_words, named_by_numbers, skip_notes
from ..play.simulate import seat_bots

TOKEN_BYTES = 24        # 192 bits from `secrets`: out of reach of guessing
SEATS_FORMAT = "referee-seats/1"
UNDO_WORDS = ("undo", "u")


class Refused(Exception):
    """A request the table turns down, with the text the player is shown (nothing changed)."""

    def __init__(self, text: str):
        super().__init__(text)
        self.text = text


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def seats_path(log_path) -> Path:
    """Where the tokens of a table logged to `log_path` are kept: game.json -> game.seats.json."""
    path = Path(log_path)
    return path.with_name(path.name.removesuffix(".json") + ".seats.json")


def squeezed(text: str) -> str:
    return "".join(text.lower().split())


def typed_move(names: list, text: str) -> str:
    """The legal move a typed text names, read as `referee play` reads it (docs/cli.md, "Human
    seats"): the name (case and extra spaces aside; all spaces aside if that names one move), a
    few of its words when one move only holds them all, or its number in the list (`#3` always
    a place in the list; a bare number is a name where moves are named by numbers). Anything
    else is handed to the engine, whose refusal says why it is not legal. Refused raises
    for a text that names several moves or a number that is no move's."""
    text = text.strip()
    wanted = " ".join(text.lower().split())
    exact = [n for n in names if " ".join(n.lower().split()) == wanted]
    if exact:
        return exact[0]
    spaced = [n for n in names if squeezed(n) == squeezed(text)]
    if len(spaced) == 1:
        return spaced[0]
    holding = holding_words(names, text)
    if len(holding) == 1:
        return holding[0]
    if len(holding) > 1:
        raise Refused(f"{shortened(text, 40)!r} is in {len(holding)} moves: "
                      + "; ".join(f"{names.index(n) + 1}. {n}" for n in holding[:6])
                      + (" ..." if len(holding) > 6 else "") + " (type more of the name, or its number)")
    number = text[1:] if text.startswith("#") else text
    if not text.startswith("#") and text.isdigit() and named_by_numbers(names):
        raise Refused(f"no move is named {shortened(text, 16)} now (moves are named by numbers here: "
                      f"'#{shortened(text, 16)}' is the move at that place in the list)")
    if number.isascii() and number.isdigit():
        digits = number.lstrip("0") or "0"
        index = int(digits) if len(digits) <= len(str(len(names))) else None
        if index is None or not 1 <= index <= len(names):
            raise Refused(f"there is no move number {shortened(number, 16)} (choose 1..{len(names)})")
        return names[index - 1]
    return text


class Table:
    """One game being played by its seats: humans through their tokens, bots by themselves.
    Every method may be called from any thread: one lock guards the state."""

    def __init__(self, name, game, rules_path, seed, kinds, tokens=None, moves=(), log_path=None, watch_token=None):
        self.name = name
        self.game = game
        self.rules_path = str(rules_path)
        self.seed = seed
        self.kinds = {p: kinds.get(p, "human") for p in game.seats}     # seat -> 'human' or a bot's kind
        self.bots = seat_bots({p: k for p, k in self.kinds.items() if k != "human"}, seed)
        self.tokens = dict(tokens or {})
        for p in self.humans:
            self.tokens.setdefault(p, new_token())
        # a spectator's token: its pages show what every seat may see (State.view(PUBLIC)), no moves
        self.watch_token = watch_token or new_token()
        self.log_path = log_path
        self.stopped = None          # why the game stopped before its end (a rules runtime error)
        self.problems = []           # for the server's standard error: runtime errors, unwritable logs
        self.lock = threading.RLock()
        # counts the changes every seat sees (moves, undos); a resumed table starts at its
        # moves' count, so that a page open before a restart does not meet its old versions again
        self.version = len(moves)
        self.listeners: list[Callable[[], None]] = []
        # each human decision so far: (seat, moves played before it, the bots as they were),
        # so that undo goes back to it and the bots play on as they did (as at the terminal)
        self.decisions = []
        self.moves = list(moves)
        self.state = self.replayed(self.moves, record_decisions=True)

    # ---- seats -----------------------------------------------------------------------------

    @property
    def humans(self) -> list:
        return [p for p, kind in self.kinds.items() if kind == "human"]

    def seat_of(self, token) -> Optional[int]:
        """The human seat whose token this is, or None (compared in constant time)."""
        if not isinstance(token, str):
            return None
        found = None
        for seat, mine in self.tokens.items():
            if secrets.compare_digest(token.encode(), mine.encode()):
                found = seat
        return found

    def watching(self, token) -> bool:
        """Whether this is the table's spectator token (compared in constant time)."""
        return isinstance(token, str) and secrets.compare_digest(token.encode(), self.watch_token.encode())

    # ---- what a seat is shown --------------------------------------------------------------

    def observation(self, seat: int) -> dict:
        """The seat's view (`State.view(seat)`) with what a player at the table needs: `legal`
        (the names of its legal moves when it is to move, else empty), `to_move`, `finished`,
        `result` (at the end), `version` (to ask for later changes) and `can_undo`."""
        with self.lock:
            state = self.state
            view = state.view(seat)
            finished = state.is_terminal()
            to_move = None if finished else state.current_player()
            legal = state.legal_move_names() if to_move == seat else []
            observed = dict(view)
            observed.update({
                "seat": seat,
                "legal": legal,
                "legal_groups": self.move_groups() if legal else [],
                "number_mark": "#" if named_by_numbers(legal) else "",
                "notes": skip_notes(state) if legal else {},
                "stopped": self.stopped,
                "to_move": to_move,
                "finished": finished,
                "result": self.result() if finished else None,
                "version": self.version,
                "can_undo": self.undo_refusal(seat) is None,
            })
            return observed

    def move_groups(self) -> list:
        """The legal moves numbered from 1 in the terminal's order, in runs of one action
        each (or of the options of a choice): [{"title": ..., "moves": [[number, name]]}]."""
        state = self.state
        groups = []
        for number, move in enumerate(state.legal_moves(), start=1):
            if move.kind == "action":
                title = self.game.actions[move.action].name
            elif move.kind == "choice" and state.pending is not None:
                title = state.pending.prompt or "choose"
            else:
                title = move.kind
            if not groups or groups[-1]["title"] != title:
                groups.append({"title": title, "moves": []})
            groups[-1]["moves"].append([number, move.name])
        return groups

    def result(self) -> dict:
        result = game_result(self.state)
        del result["terminal"]
        result["text"] = winners_text(self.state.winners, self.state.outcome())
        return result

    def spectator_view(self) -> dict:
        with self.lock:
            return self.state.view(PUBLIC)

    # ---- moves -----------------------------------------------------------------------------

    def play(self, seat: int, text, after: Optional[int] = None) -> str:
        """Play the move `text` names for the human seat, as typed at the terminal (a typed
        'undo' that is no move's name takes back as there). `after`: the version the player
        saw; a request made on an older one is refused (a replayed or crossed request plays
        nothing). Returns the name played ('undo' for an undo); Refused leaves all as it was."""
        if not isinstance(text, str) or not text.strip():
            raise Refused("no move given")
        if len(text) > MAX_PROMPT_LINE:
            raise Refused(f"a move is at most {MAX_PROMPT_LINE} characters")
        with self.lock:
            self.check_fresh(after)
            state = self.state
            if state.is_terminal():
                raise Refused("the game is over")
            if self.stopped:
                raise Refused(self.stopped)
            if state.current_player() != seat:
                raise Refused(f"it is not your turn (P{state.current_player()} is to move)")
            names = state.legal_move_names()
            if text.strip().lower() in UNDO_WORDS and not any(n.lower() == text.strip().lower() for n in names):
                self.undo(seat)
                return "undo"
            name = typed_move(names, text)
            kept, bots = len(self.moves), copy.deepcopy(self.bots)
            try:
                move = state.find_move(name)
                state.apply(move)
            except IllegalMove as refusal:
                raise Refused(refusal.reason) from None
            except RulesRuntimeError as error:
                self.stop(error)
                raise Refused(self.stopped) from None
            self.decisions.append((seat, kept, bots))
            self.moves.append(move.name)
            self.changed()
            return move.name

    def check_fresh(self, after):
        if after is not None and after != self.version:
            raise Refused("the table has changed since you looked: look again")

    def bot_to_move(self) -> Optional[int]:
        with self.lock:
            if self.state.is_terminal() or self.stopped:
                return None
            seat = self.state.current_player()
            return seat if seat in self.bots else None

    def play_bot_move(self) -> bool:
        """Let the bot to move choose (on a copy of the state, without the lock: a search
        takes time) and play its move, unless the table changed meanwhile (an undo). Returns
        whether a move was played (a rules runtime error stops the table)."""
        with self.lock:
            seat = self.bot_to_move()
            if seat is None:
                return False
            bot, state, version = self.bots[seat], self.state.clone(), self.version
        move = bot.choose(state)
        with self.lock:
            if self.version != version:
                return False
            try:
                self.state.apply(move.name)
            except RulesRuntimeError as error:
                self.stop(error)
                return False
            self.moves.append(move.name)
            self.changed()
            return True

    def undo_refusal(self, seat) -> Optional[str]:
        """Why the seat may not undo now, or None: as at the terminal, a seat takes back its
        last move, and the bots' moves after it, at its own turn; not at its first decision,
        nor over another human's move."""
        if self.state.is_terminal() or self.stopped:
            return "the game is over"
        if self.state.current_player() != seat:
            return "undo at your turn"
        earlier = [i for i, decision in enumerate(self.decisions) if decision[0] == seat]
        if not earlier:
            return "nothing to undo (this is your first move)"
        others = sorted({p for p, _, _ in self.decisions[earlier[-1] + 1:] if p != seat})
        if others:
            return f"undo would take back the move of another human ({', '.join(f'P{p}' for p in others)})"
        return None

    def undo(self, seat: int, after: Optional[int] = None) -> int:
        """Take back the seat's last move and the bots' moves after it; returns how many."""
        with self.lock:
            self.check_fresh(after)
            refusal = self.undo_refusal(seat)
            if refusal is not None:
                raise Refused(refusal)
            back = max(i for i, decision in enumerate(self.decisions) if decision[0] == seat)
            _, kept, bots = self.decisions[back]
            del self.decisions[back:]
            taken = len(self.moves) - kept
            self.moves = self.moves[:kept]
            self.bots = bots
            self.state = self.replayed(self.moves)
            self.changed()
            return taken

    def replayed(self, moves, record_decisions=False):
        """The state from the seed and `moves` (the engine is deterministic); with
        record_decisions, the human decisions among them are noted for undo."""
        state = self.game.new_initial_state(seed=self.seed)
        for played, name in enumerate(moves):
            seat = state.current_player()
            if record_decisions and seat in self.humans:
                self.decisions.append((seat, played, copy.deepcopy(self.bots)))
            state.apply(name)
        return state

    # ---- changes: the log and who listens --------------------------------------------------

    def stop(self, error):
        """A rules runtime error: the game stops where it was (the move is not played). The
        seats are told that much; the server's output says where in the rules file."""
        self.stopped = f"the game stopped: a runtime error in the rules after {len(self.moves)} moves"
        self.problems.append(str(error))
        self.version += 1
        self.save_log()
        self.notify()

    def changed(self):
        self.version += 1
        self.save_log()
        self.notify()

    def notify(self):
        for listener in list(self.listeners):
            listener()

    def save_log(self):
        """The log, whole, after every change (as `play --log` writes it after every move)."""
        if self.log_path is None:
            return
        try:
            write_log(self.log_path, self.game, self.state, self.rules_path, moves=self.moves, seed=self.seed)
        except OSError as error:        # the game goes on; the server says so on its standard error
            self.problems.append(f"cannot write the log {self.log_path}: {error.strerror or error}")

    def save_seats(self):
        """The tokens and who plays which seat, beside the log, readable by its owner only."""
        if self.log_path is None:
            return
        path = seats_path(self.log_path)
        record = {"format": SEATS_FORMAT, "table": self.name,
                  "tokens": {str(p): t for p, t in self.tokens.items()},
                  "watch": self.watch_token,
                  "kinds": {str(p): k for p, k in self.kinds.items()}}
        partial = path.with_name(f".{path.name}.partial")
        descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            file.write(json.dumps(record, indent=1) + "\n")
        os.replace(partial, path)


def read_seats(log_path) -> Optional[dict]:
    """The seats file beside a log (table name, tokens, kinds), or None when there is none or
    it is not one."""
    try:
        record = json.loads(seats_path(log_path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or record.get("format") != SEATS_FORMAT:
        return None
    try:
        return {"table": str(record["table"]),
                "tokens": {int(p): str(t) for p, t in record["tokens"].items()},
                "watch": str(record["watch"]) if record.get("watch") else None,
                "kinds": {int(p): str(k) for p, k in record["kinds"].items()}}
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def table_name(path, taken) -> str:
    """A table's name in its URLs: the rules file's stem, numbered when several share it."""
    stem = re.sub(r"[^a-z0-9-]+", "-", Path(path).stem.lower()).strip("-") or "game"
    number = 1
    while f"{stem}-{number}" in taken:
        number += 1
    return f"{stem}-{number}"


def rule_texts(game) -> list:
    """The game's rules as its rule tags say them: [(rule id, [sentences])], in rule order
    ('LL-2' before 'LL-10')."""
    rules = {}
    for rule_id, text, _ in game.program.tags():
        texts = rules.setdefault(rule_id, [])
        if text and text not in texts:
            texts.append(text)
    return sorted(rules.items(), key=lambda item: index_order(item[0]))

