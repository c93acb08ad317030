"""The located checks of generated code: writes the checker cannot decide (a none, a number that
is not a seat, an index outside the declared ones) and the limits of a step (rounds, work, log)."""
from __future__ import annotations

from referee.dsl.limits import MAX_LEGAL_MOVES, MAX_LOG_LINE, MAX_STEP_ROUNDS, MAX_STEP_WORK

from .errors import RulesRuntimeError


def step_runs_on(span):
    raise RulesRuntimeError(f"this step ran more than {MAX_STEP_ROUNDS:,} loop rounds: a loop that does not "
                            f"end? (see the limits in docs/language.md)", span)


def work_runs_on(span):
    raise RulesRuntimeError(f"this step did more than {MAX_STEP_WORK:,} units of work: aggregates, calls or "
                            f"moves tried that multiply beyond what a game needs? (see the limits in docs/language.md)", span)


def charged(budget, items, units, span):
    """The items of a domain about to be gone through, their cost (units each) taken from the
    step's work budget (budget[1]) first."""
    try:
        size = len(items)
    except TypeError:
        items = list(items)
        size = len(items)
    budget[1] -= size * units
    if budget[1] < 0:
        work_runs_on(span)
    return items


def logged(budget, line, span):
    """A line of the log: its length is work (a list of a million items logged in a loop would
    fill the memory), and it is cut at MAX_LOG_LINE characters. (A log statement does the
    same inline: Compiler.visit_Log.)"""
    budget[1] -= len(line)
    return line if budget[1] >= 0 and len(line) <= MAX_LOG_LINE else past_log_limits(budget, line, span)


def past_log_limits(budget, line, span):
    """A log line, already charged, that went past the work budget (an error) or is too long (cut)."""
    if budget[1] < 0:
        work_runs_on(span)
    return line[:MAX_LOG_LINE] + "..."


def too_many_moves(name, span):
    raise RulesRuntimeError(f"'{name}' has more than {MAX_LEGAL_MOVES:,} legal moves at once "
                            f"(see the limits in docs/language.md)", span)


def outside_indexes(s, name, value, shown, span):
    raise RulesRuntimeError(f"a write to {name}[{s.label(value)}], outside the indexes declared for {name} ({shown})", span)


def outside_range(name, value, low, high, span):
    raise RulesRuntimeError(f"{name} is given {value}, outside its range {low}..{high}", span)


def stored_none(message, span):
    """A none written where the declared type may not be none (the message, its type's words
    and the remedy, made by the compiler: no type is read back from a text here)."""
    raise RulesRuntimeError(message, span)


def seat(s, player, what, span):
    """A turn or a choice given to a value: it must be a seat of this game (else the game
    would ask a player who is not there)."""
    if player.__class__ is not int or not 1 <= player <= s.game.num_players:
        shown = "none" if player is None else repr(player)
        raise RulesRuntimeError(f"{what} is given to {shown}, which is not a player (players are 1..{s.game.num_players})", span)
    return player


def not_a_player(s, name, value, span):
    raise RulesRuntimeError(f"{name} is a player, but is given {s.label(value)} (players are 1..{s.game.num_players})", span)
