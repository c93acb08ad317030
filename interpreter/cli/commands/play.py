"""`referee play` (and --resume): a game played in the terminal (`referee replay` is in
replay.py)."""
from __future__ import annotations

import secrets

from ...engine.render import winners_text
from ...play.bots import RandomBot
from ...play.simulate import seat_bots
from ...tools.gamelog import read_log, replay
from ..common import load
from ..errors import BAD_INPUT, UsageError
from ..seats import note_ismcts_secrets, parse_bots, refuse_mcts_on_hidden_information
from ..session import Session


def new_seed() -> int:
    """A default seed that nobody can guess: 64 bits from the operating system (the game's
    generator uses 64 bits of a seed)."""
    return secrets.randbits(64)


def cmd_play(args) -> int:
    if args.resume is not None:
        return resume_play(args)
    for flag, given in (("--ignore-hash", args.ignore_hash), ("--rules", args.rules)):
        if given:
            raise UsageError(f"argument {flag}: only with --resume LOG")
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
    if args.rules is not None and args.file is not None and args.rules != args.file:
        raise UsageError(f"argument --rules: two rules files, {args.file} and {args.rules}: give one")
    args.file = args.file or args.rules
    log, error = read_log(args.resume)
    if error is None:
        state, error = replay(log, ignore_hash=args.ignore_hash, log_path=args.resume, rules_path=args.file)
    if error is not None:
        message = str(error).removeprefix(f"{args.resume}: ")
        args.errors.error(f"referee: cannot resume {args.resume}: {message}")
        return error.code
    if state.is_terminal():
        args.errors.error(f"referee: cannot resume {args.resume}: its game is over ({winners_text(state.winners, state.outcome())}); "
            f"referee replay {args.resume} shows it")
        return BAD_INPUT
    game = state.game
    args.file = args.file or log["rules"]       # the log goes on naming the rules as it did
    args.log = args.log or args.resume
    bots, unnamed = table_bots(game, args, log["seed"])
    return Session(game, args, bots, log["seed"], unnamed_humans=unnamed, resumed=log["moves"]).run()
