"""`referee replay`: a log replayed (every move checked) and shown from one seat's view, or a
spectator's: where it ends, the position after move N (--at), or step by step (--step)."""
from __future__ import annotations

import sys

from referee.dsl.limits import MAX_PROMPT_LINE

from ...engine import PUBLIC
from ...engine.moves import public_moves
from ...engine.render import at_the_table, symbol_legends, view_defaults, with_flow_state
from ...tools.gamelog import Positions, read_log, replay
from ..common import describe, out, print_json, result_lines, shortened
from ..errors import OK, UsageError
from ..session import numbered_moves

STEP_KEYS = ("Enter or n: the next move · b: back one · a number: the position after that move · "
             "0: the start · e: the end · q: quit")


def cmd_replay(args) -> int:
    """Replay a log, then print one perspective of a position: a spectator's (the default:
    what every seat may see, and the seed) or, with --player N, seat N's (its view, and its
    legal moves when it is to move; never the seed). No output mixes two seats' secrets."""
    log, error = read_log(args.log)
    if error is None and args.player is not None and args.player > log["players"]:
        raise UsageError(f"argument --player: the game of this log has {log['players']} players, not {args.player} "
                         f"(choose 1..{log['players']}, or leave --player out for a spectator's view)")
    if error is None and args.at is not None and args.at > len(log["moves"]):
        raise UsageError(f"argument --at: the log has {len(log['moves'])} moves: choose 0..{len(log['moves'])}")
    if args.step and args.json:
        raise UsageError("argument --step: not with --json (--at N --json prints one position)")
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
    positions = Positions(state.game, log)
    if args.at is not None:
        state = positions.at(args.at)
    if args.step:
        return Stepper(args, log, positions, seat).run(args.at or 0)
    if args.json:
        print_json(position_json(state, seat, len(log["moves"]) if args.at is None else args.at))
        return OK
    game = state.game
    if args.at is None:
        out(f"replayed {len(log['moves'])} moves of {args.log} · {describe(game, log['seed'] if seat is None else None)}")
    else:
        out(f"replayed {len(log['moves'])} moves of {args.log}, shown after move {args.at} · "
            f"{describe(game, log['seed'] if seat is None else None)}")
    out("")
    show_position(args, state, seat)
    return OK


def position_json(state, seat, moves) -> dict:
    """The JSON of a position: what --json prints (`moves`: how many were played to it)."""
    to_move = None if state.is_terminal() else state.current_player()
    legal = state.legal_move_names() if seat is not None and seat == to_move else []
    return {
        "player": seat,
        "final_view": state.view(PUBLIC if seat is None else seat),
        "moves": moves,
        "scores": list(state.scores()), "winners": list(state.winners),
        "outcome": state.outcome(), "returns": list(state.returns()),
        "to_move": to_move, "legal_moves": legal, "terminal": state.is_terminal(),
    }


def show_position(args, state, seat):
    """A position from one perspective: the view, the seat's legal moves when it is to move,
    and the result so far."""
    game = state.game
    to_move = None if state.is_terminal() else state.current_player()
    legal = state.legal_move_names() if seat is not None and seat == to_move else []
    view = state.view(PUBLIC if seat is None else seat)
    if getattr(args, "all", False):         # --all: the flow state listed too
        view = with_flow_state(view)
    args.console.view(at_the_table(view, symbol_legends(game, state)), view_defaults(game))
    if legal:
        out("legal moves:")
        for line in numbered_moves(legal):
            out(line)
    out("")
    args.console.report(result_lines(state))


class Stepper:
    """replay --step: the positions of a log one by one, forwards and back, from one seat's
    view (or a spectator's): each shows the move that led to it as that seat saw it."""

    def __init__(self, args, log, positions, seat):
        self.args, self.log, self.positions, self.seat = args, log, positions, seat
        self.last = len(log["moves"])

    def show(self, number):
        state = self.positions.at(number)
        viewer = PUBLIC if self.seat is None else self.seat
        if number == 0:
            head = "the start"
        else:
            (seen,) = public_moves(state, viewer, last=1) or ["(a move)"]
            head = f"move {number} of {self.last}: {seen}"
        out("")
        out(f"── {head} " + "─" * max(3, 60 - len(head)))
        show_position(self.args, state, self.seat)

    def read(self):
        """A line of standard input (echoed when it is not a terminal), or None at its end."""
        prompt = "step (Enter, b, q; ? for keys)> "
        if sys.stdin.isatty() and sys.stdout.isatty():
            try:
                return input(prompt)
            except EOFError:
                return None
        sys.stdout.write(prompt)
        line = sys.stdin.readline(MAX_PROMPT_LINE)
        if line == "":
            out("")
            return None
        out(shortened(line.strip(), 40))
        return line

    def run(self, start) -> int:
        seed = self.log["seed"] if self.seat is None else None
        out(f"stepping through {self.last} moves of {self.args.log} · {describe(self.positions.kept[0].game, seed)}")
        out(STEP_KEYS)
        number = start
        self.show(number)
        while True:
            line = self.read()
            if line is None:
                return OK
            key = line.strip().lower()
            if key in ("q", "quit", "exit"):
                return OK
            if key in ("", "n", "next"):
                target = number + 1
            elif key in ("b", "back", "p"):
                target = number - 1
            elif key in ("e", "end"):
                target = self.last
            elif key.isascii() and key.isdigit() and len(key) <= len(str(self.last)):
                target = int(key)
            elif key in ("?", "h", "help"):
                out(STEP_KEYS)
                continue
            else:
                out(f"not a key of --step: {shortened(line.strip(), 20)!r} ({STEP_KEYS})")
                continue
            if not 0 <= target <= self.last:
                out("at the end of the log (b: back, q: quit)" if target > self.last
                    else "at the start (Enter: the first move)")
                continue
            number = target
            self.show(number)
