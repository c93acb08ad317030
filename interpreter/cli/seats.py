"""Who plays which seat: the --bot of play, analyze and tournament, read and checked."""
from __future__ import annotations

from ..play.bots import KINDS, hidden_information, make_bot
from ..play.determinize import undrawn_secrets
from .errors import UsageError

SEAT_KINDS = (*KINDS, "human")     # what --bot SEAT=KIND may say
MOST_ITERATIONS = 10**6            # of a search bot's move: beyond, a move of hours


def checked_bot(spec, kind):
    """make_bot(kind)'s settings checked (ValueError of make_bot, or iterations beyond the
    bound) as a UsageError of --bot."""
    try:
        bot = make_bot(kind, 0)
    except ValueError as error:
        raise UsageError(f"argument --bot: {spec!r}: {error}") from None
    if getattr(bot, "iterations", 0) > MOST_ITERATIONS:
        raise UsageError(f"argument --bot: {spec!r}: at most {MOST_ITERATIONS:,} iterations a move")


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
            checked_bot(spec, kind)        # its settings (mcts:iterations=...)
        if seat == "all":
            for p in range(1, players + 1):
                chosen[p] = kind
            continue
        if not seat.lstrip("p").isdigit() or not 1 <= int(seat.lstrip("p")) <= players:
            raise UsageError(f"argument --bot: {spec!r}: the seat must be 1..{players} or 'all'")
        chosen[int(seat.lstrip("p"))] = kind
    return chosen


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
        args.errors.error(f"note: ismcts does not draw the hidden variables again ({names}): it knows their values, "
            f"which its seat may not see, so it may play with more than a player knows (only a variable of a "
            f"finite type is drawn: give an int a range, int in LOW..HIGH; flow state read from what every seat "
            f"sees is no secret: declare it public bookkeeping)")


def tournament_bots(specs) -> list:
    """The --bot KIND[:settings] of a tournament, checked: at least two, none human."""
    chosen = [spec.strip().lower() for spec in specs or []]
    for spec in chosen:
        if spec == "human" or spec.startswith("human:"):
            raise UsageError(f"argument --bot: {spec!r}: a tournament plays bots only (known: {', '.join(KINDS)})")
        checked_bot(spec, spec)
    if len(chosen) < 2:
        raise UsageError("argument --bot: a tournament needs at least two bots, e.g. --bot mcts --bot random")
    return chosen
