"""The command line's parser, built from a table of commands (COMMANDS: each one's name, help,
argument groups and function), with the argument groups the commands share and the checks of
their values."""
from __future__ import annotations

import argparse
import importlib
import math
import os
import re
import textwrap

import attrs

from .common import rules_file, shortened, version
from .errors import UsageError


class Parser(argparse.ArgumentParser):
    """argparse's parser, whose errors are raised (for main to print them, as JSON with
    --json) instead of exiting."""

    def error(self, message):
        raise UsageError(message, self)


DEFAULT_MAX_MOVES = 10_000         # simulate, verify and bench: where a game is stopped

# The most a count or a duration may be: beyond, a run would never end or would exhaust the
# machine, so it is refused as a mistake (exit 2). docs/cli.md says them.
MOST_GAMES = 10**9                 # -n: about a week of the quickest game on one core
MOST_TOURNAMENT_GAMES = 10**6      # tournament -n: it keeps every game's result
MOST_MOVES = 10**9                 # --max-moves
MOST_SECONDS = 86_400.0            # bench --seconds: a day
MOST_TABLES = 1_000                # serve --tables, of each FILE
JOBS_PER_CORE, FEWEST_MOST_JOBS, MOST_JOBS = 4, 8, 256


def most_jobs() -> int:
    """The most worker processes of --jobs or --cluster local:N: 4 per core (at least 8, at
    most 256); more only share the same cores and each costs its memory."""
    counter = getattr(os, "process_cpu_count", None) or os.cpu_count     # (3.13 has the first)
    return min(MOST_JOBS, max(FEWEST_MOST_JOBS, JOBS_PER_CORE * (counter() or 1)))


# ---- values of arguments -----------------------------------------------------------------

def integer(text, refusal):
    """int(text), or ArgumentTypeError: `refusal` (with {text}) for what is not a whole number,
    and a number of more than 1000 digits is refused too (int() of a longer one raises)."""
    if re.fullmatch(r"\s*[-+]?[0-9]{1001,}\s*", text or ""):
        raise argparse.ArgumentTypeError(f"a number of more than 1000 digits: {shortened(text)!r}")
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(refusal.format(text=repr(shortened(text)))) from None


def whole_number(text, least, most=None, what=""):
    value = integer(text, "not a whole number: {text}")
    if value < least:
        raise argparse.ArgumentTypeError(f"must be at least {least}: {text}" if least else f"must not be negative: {text}")
    if most is not None and value > most:
        raise argparse.ArgumentTypeError(f"at most {most:,}{what}, not {shortened(text.strip())}")
    return value


def positive_int(text):
    return whole_number(text, 1)


def at_most(most, what=""):
    """A whole number from 1 to `most` (a callable: found when the command line is read)."""
    def value(text):
        return whole_number(text, 1, most() if callable(most) else most, what)
    value.__name__ = "whole number"          # argparse names the type in its errors
    return value


def seat_number(text):
    """A seat as a number or as a view names it: 2, P2, p2."""
    return positive_int(text[1:] if text[:1] in ("P", "p") and text[1:].strip().isdigit() else text)


def move_count(text):
    return whole_number(text, 0)


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


def table_count(text):
    """serve --tables: a whole number, at most MOST_TABLES (serve says what is too few)."""
    value = integer(text, "not a whole number: {text}")
    if value > MOST_TABLES:
        raise argparse.ArgumentTypeError(f"at most {MOST_TABLES:,} tables of each FILE, not {shortened(text.strip())}")
    return value


def port_number(text):
    value = integer(text, "not a whole number: {text}")
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0..65535 (0: any free one), not {shortened(text.strip())}")
    return value


def seconds(text):
    value = positive_float(text)
    if value > MOST_SECONDS:
        raise argparse.ArgumentTypeError(f"at most {MOST_SECONDS:.0f} seconds (a day), not {shortened(text.strip())}")
    return value


def cluster_setting(text):
    from ..play import cluster
    try:
        kind, value = cluster.parse_cluster(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error))
    if kind == "local" and value is not None and value > most_jobs():
        raise argparse.ArgumentTypeError(f"local:N: at most {most_jobs()} worker processes on this machine "
                                         f"(4 per core), not {shortened(str(value))}")
    return kind, value


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


# ---- argument groups: each returns a function that adds them to a command's parser -------

def option(*names, **settings):
    """One argument, as add_argument takes it."""
    def add(parser):
        parser.add_argument(*names, **settings)
    return add


def defaults(**values):
    """Values of the command's namespace that no argument sets (or before any does)."""
    return lambda parser: parser.set_defaults(**values)


def json_output(what):
    return option("--json", action="store_true", help=what)


FILE_HELP = "the rules file, or the name of a built-in game (referee games lists them)"

QUIET_PROGRESS = option("--quiet", action="store_true", help="no progress line on standard error")


def game(players_help="number of players (default: the game's minimum)", file_optional=False):
    """FILE, --players, --option and --param: which game."""
    def add(parser):
        if file_optional:
            parser.add_argument("file", metavar="FILE", nargs="?", type=rules_file,
                                help=f"{FILE_HELP} (with --resume: default, the one the log names)")
        else:
            parser.add_argument("file", metavar="FILE", type=rules_file, help=FILE_HELP)
        parser.add_argument("--players", type=positive_int, metavar="N", help=players_help)
        parser.add_argument("--option", action="append", metavar="NAME", default=[],
                            help="turn on a declared option (repeat for several)")
        params()(parser)
    return add


def params():
    return option("--param", action="append", type=param_setting, metavar="NAME=VALUE", default=[],
                  help="give a typed param a value, e.g. --param heap=8 or --param start=x.o/.x./..o "
                       "(an int, true or false, or a text; repeat for several)")


def games(default, games_help, seed_help, most=MOST_GAMES):
    """-n/--games and --seed, for the commands that play many games."""
    def add(parser):
        parser.add_argument("-n", "--games", dest="n", type=at_most(most, " games"), default=default, metavar="N",
                            help=games_help)
        parser.add_argument("--seed", type=seed_int, default=0, metavar="S", help=seed_help)
    return add


def max_moves(what):
    return option("--max-moves", type=at_most(MOST_MOVES, " moves"), default=DEFAULT_MAX_MOVES, metavar="M",
                  help=f"{what} (default {DEFAULT_MAX_MOVES})")


def coverage():
    return option("--coverage", action="store_true",
                  help="also report how often each rule tag's statements, conditions and actions ran, "
                       "and the rules never reached")


def engine(what):
    return option("--engine", choices=("python", "native", "auto"), default="python",
                  help=f"which engine {what}: python (the reference), native (the whole playout in one compiled "
                       "call, needs pip install 'referee[native]'), auto (native where the game compiles natively); "
                       "native and auto play in Python with a one-line note where they cannot (default python)")


def chance():
    return option("--chance", choices=("sampled", "explicit"), default="sampled",
                  help="how shuffles and picks draw: sampled (inside the effects, from the game's own "
                       "stream) or explicit (each a chance node the random seats' generator samples by its "
                       "odds, counted as a move: the adapters' and solvers' games); either engine (default sampled)")


def jobs(what):
    return option("-j", "--jobs", type=at_most(most_jobs, " worker processes (4 per core)"), metavar="N",
                  help=f"{what} in N worker processes (default: one per core; 1: in this process; "
                       "at most 4 per core)")


def workers(what):
    """--jobs and --cluster: where the games are played."""
    def add(parser):
        jobs(what)(parser)
        parser.add_argument("--cluster", type=cluster_setting, metavar="ADDRESS",
                            help=f"{what} on a Dask cluster: the scheduler at ADDRESS (tcp://host:8786), or "
                                 "local[:N], N worker processes started for the run (needs pip install "
                                 "'referee[cluster]')")
    return add


def plain(never_coloured=None):
    """--plain, for every command that prints (see console.py); never_coloured: what a command
    prints that is never coloured anyway (code), so that --plain is taken by all."""
    return option("--plain", action="store_true",
                  help=f"taken by every command: {never_coloured} is never coloured" if never_coloured else
                  "plain text, no colour (the default where standard output is not a terminal, "
                  "or NO_COLOR is set)")


# ---- the commands --------------------------------------------------------------------------

@attrs.frozen
class Command:
    """One command of `referee`: its name, its line in the list of commands, the function that
    runs it with the parsed arguments ('module.function' in this package: its module is
    imported only when the command runs, so that `check` starts without the others') and its
    arguments, in the order --help lists them."""
    name: str
    help: str
    function: str
    arguments: tuple = ()

    def run(self, args) -> int:
        module, _, function = self.function.rpartition(".")
        return getattr(importlib.import_module(f".{module}", __package__), function)(args)


COMMANDS = (
    Command("check", "check rules files and print their diagnostics", "commands.check.cmd_check", (
        option("files", nargs="+", metavar="FILE", type=rules_file,
               help="a rules file (or a built-in game's name), or a folder: every .rules file in it and "
                    "in its subfolders"),
        json_output("print the diagnostics as JSON"), params(), plain())),
    Command("games", "list the games that come with Referee, whose names stand for their files",
            "commands.games.cmd_games", (json_output("print the games as JSON"), plain())),
    Command("play", "play a game in the terminal, against bots or not", "commands.play.cmd_play", (
        game(file_optional=True),
        option("--resume", metavar="LOG",
               help="go on with the unfinished game of LOG (written by play --log), which is replayed "
                    "and checked first; the game is written on to LOG unless --log names another file"),
        option("--rules", metavar="FILE",
               help="with --resume: the rules file (default: the one the log names, looked for as written, "
                    "then from the log's folder), as replay --rules; FILE before --resume says the same"),
        option("--ignore-hash", action="store_true",
               help="with --resume: go on even if the rules file has changed since the log was written"),
        option("--seed", type=seed_int, metavar="S",
               help="random seed (default: 64 random bits from the OS); shown at the start only when "
                    "every seat is a bot, else once the game has stopped, and in the log"),
        option("--bot", action="append", metavar="SEAT=KIND",
               help="who plays a seat: SEAT is a number or 'all', KIND is 'random', 'first', 'mcts[:iterations=N]' or "
                    "'ismcts[:iterations=N]' (bots) or 'human'. With --bot, a seat that no --bot names is human; "
                    "without, seat 1 is human and the others are random bots"),
        option("--log", metavar="FILE",
               help="write the game log, one JSON file, to FILE (simulate and verify take a folder: --log-dir)"),
        option("--hot-seat", action=argparse.BooleanOptionalAction, default=None,
               help="with several human seats, clear the screen and wait for Enter before each "
                    "human's view when another human played last (default: when standard input "
                    "and output are a terminal)"),
        option("--quiet", action="store_true",
               help="show only what a human needs: who is who, each view with its legal moves and the "
                    "prompt, refusals, the result; no move lines (the bots' or the humans')"),
        option("--brief", action="store_true",
               help="show one line per move (turn, player, move) instead of the view before each bot move"),
        plain())),
    Command("simulate", "play many games of random bots and summarise them", "commands.simulate.cmd_simulate", (
        game(), games(100, "number of games (default 100)", "game i uses seed S+i (default 0)"),
        QUIET_PROGRESS, json_output("print the summary as JSON"),
        option("--log-dir", "--log", dest="log", metavar="DIR",
               help="write one log per game, DIR/game-SEED.json, into the folder DIR (made if need be)"),
        max_moves("stop a game after M moves and count it unfinished"), coverage(), workers("play the games"),
        engine("plays the games"), chance(), plain())),
    Command("analyze", "a balance report of many games between bots, or of a variant against its base",
            "commands.analyze.cmd_analyze", (
        game(), games(200, "number of games (default 200)", "game i uses seed S+i (default 0)"),
        option("--bot", action="append", metavar="SEAT=KIND",
               help="who plays a seat: SEAT is a number or 'all', KIND 'random', 'first', "
                    "'mcts[:iterations=N,...]' or 'ismcts[:iterations=N,...]'; a seat that no --bot names is a random bot"),
        option("--against", metavar="BASE",
               help="also play BASE (another rules file, e.g. the one a variant extends) with the same "
                    "players, options, params, bots and seeds, and report what changed, with p-values"),
        QUIET_PROGRESS, json_output("print every figure as JSON"),
        option("--html", metavar="PATH",
               help="also write the report with its plots to PATH, one self-contained HTML file "
                    "(needs matplotlib: pip install 'referee[report]')"),
        max_moves("stop a game after M moves and count it endless"), coverage(), workers("play the games"),
        engine("plays games of random bots"), chance(), plain())),
    Command("tournament", "bots against each other, seats rotated: win rates, ratings and a pairwise table",
            "commands.analyze.cmd_tournament", (
        game(),
        option("--bot", action="append", metavar="KIND",
               help="a bot of the tournament (at least two): 'random', 'first', "
                    "'mcts[:iterations=N,...]' or 'ismcts[:iterations=N,...]'; repeat for each"),
        games(100, "at least N games (default 100), rounded up to whole rounds of every seating",
              "round r uses seed S+r, in every seating (default 0); it seeds the bootstrap too",
              most=MOST_TOURNAMENT_GAMES),
        QUIET_PROGRESS, json_output("print the figures and every game's result as JSON"),
        max_moves("stop a game after M moves and count it a draw"), workers("play the games"),
        engine("plays the mcts and ismcts bots' playouts"), chance(), plain())),
    Command("replay", "replay a game log, checking every move; show where it ends, or step through it",
            "commands.replay.cmd_replay", (
        option("log", metavar="LOG",
               help="a game log (JSON) written by play --log, simulate --log-dir or verify --log-dir"),
        option("--rules", metavar="FILE",
               help="the rules file to replay it with (default: the one the log names, looked for as "
                    "written, then from the log's folder, then where it was, then the built-in game)"),
        option("--player", "--seat", type=seat_number, metavar="N",
               help="print what seat N (2 or P2) sees (its view, and its legal moves if it "
                    "is to move; default: a spectator's view, public information only)"),
        option("--at", type=move_count, metavar="N",
               help="show the position after move N (0: the start; default: where the log ends)"),
        option("--step", action="store_true",
               help="step through the game, a position at a time: Enter or n the next move, b back one, "
                    "a number the position after that move, q quit (from the start, or from --at N)"),
        json_output("print the final state (or the one of --at) as JSON"),
        option("--all", action="store_true",
               help="list the flow state too: the variables the rules mark 'bookkeeping' (--json always has them)"),
        option("--ignore-hash", action="store_true",
               help="replay even if the rules file changed since the log was written"),
        plain())),
    Command("bench", "measure random playouts per second", "commands.simulate.cmd_bench", (
        game(),
        option("--seconds", type=seconds, default=5.0, metavar="T", help="how long (default 5)"),
        option("--seed", type=seed_int, default=0, metavar="S", help="first seed (default 0)"),
        QUIET_PROGRESS, json_output("print the figures as JSON"),
        max_moves("stop a playout after M moves (it does not count as one finished)"),
        option("--coverage", action="store_true",
               help="play the game compiled to count rule coverage (what counting costs; no counts printed)"),
        jobs("run playouts"), engine("runs the playouts (the compile is timed apart)"), chance(), plain())),
    Command("rulebook", "the rules of a file by rule id, traced to the lines that encode them",
            "commands.compile.cmd_rulebook", (
        option("file", metavar="FILE", type=rules_file, help=FILE_HELP),
        option("--spec", metavar="RULES_TEXT",
               help="a numbered rules text (lines starting with ids like X-12): list its rule ids "
                    "that the file does not tag, and exit 1 if there are any"),
        json_output("print the rulebook as JSON"), plain())),
    Command("verify", "play random games looking for broken invariants, dead ends and endless games; "
                      "shrink what fails", "commands.verify.cmd_verify", (
        game("number of players (default: every count the game allows)"),
        games(50, "games per player count (default 50)", "first seed (default 0)"),
        max_moves("a game longer than M moves counts as endless"),
        defaults(leaks=True),
        option("--no-leaks", dest="leaks", action="store_false",
               help="do not probe for hidden information that reaches a seat (twin states, "
                    "every 6 moves; on by default)"),
        option("--flows", dest="leaks", action="store_const", const="flows",
               help="also report what a probed move carries from hidden to shown (a hidden value "
                    "copied into a public one; expected where the rules reveal it)"),
        option("--log-dir", "--log", dest="log", metavar="DIR",
               help="write a replayable log of each failure into the folder DIR (made if need be)"),
        QUIET_PROGRESS, json_output("print the report as JSON"), coverage(), workers("play the games"),
        engine("plays the games (the invariants checked natively)"), chance(), plain())),
    Command("compile", "write the Python module a game compiles to, for reading and debugging",
            "commands.compile.cmd_compile", (
        game(),
        option("-o", "--output", metavar="PATH", help="write it to PATH (default: standard output)"),
        option("--coverage", action="store_true",
               help="the module compiled to count rule coverage (its COV[k] += 1 lines)"),
        option("--no-pass", action="append", default=[], metavar="NAME",
               help="compile without the optimisation pass NAME (repeatable; the passes: docs/architecture.md)"),
        plain("the Python module"))),
    Command("lsp", "a language server for editors, on standard input and output", "commands.lsp.cmd_lsp", (
        option("--stdio", action="store_true",
               help="talk over standard input and output (the only way; editors that pass it may)"),)),
    Command("serve", "serve games in the browser, a page per seat", "commands.serve.cmd_serve", (
        option("files", nargs="*", metavar="FILE", type=rules_file,
               help="a rules file (or a built-in game's name): a table of it (or --tables N of them)"),
        option("--players", type=int, metavar="N", help="number of players at each table (default: the game's minimum)"),
        option("--option", action="append", metavar="NAME", help="turn on a declared option of the games; repeatable"),
        option("--param", action="append", type=param_setting, metavar="NAME=VALUE",
               help="give a typed param of the games a value (an int, true or false, or a text); repeatable"),
        option("--seed", type=seed_int, metavar="S",
               help="the first table's seed (table i: S+i; default: 64 random bits each); never shown on a page"),
        option("--bot", action="append", metavar="SEAT=KIND",
               help="who plays a seat at every table: KIND as for play (random, first, mcts, ismcts); a seat "
                    "that no --bot names is human and gets an address"),
        option("--tables", type=table_count, default=1, metavar="N",
               help="tables of each FILE (default 1; 0 with --lobby: only those the lobby starts)"),
        option("--lobby", action="store_true",
               help="also a lobby page (its address printed as 'lobby: URL') that starts tables of the FILEs"),
        option("--log-dir", metavar="DIR",
               help="write each table's log to DIR/TABLE.json, after every move, as play --log writes it "
                    "(and its seats' tokens to DIR/TABLE.seats.json), so that --resume brings it back"),
        option("--resume", action="append", metavar="LOG",
               help="serve again the table of LOG (written with --log-dir, or by play --log), with the "
                    "same addresses when its .seats.json is beside it; repeatable"),
        option("--port", type=port_number, default=8000, metavar="P", help="the port to listen on (default 8000; 0: any free one)"),
        option("--host", default="127.0.0.1", metavar="H",
               help="the address to listen on (default 127.0.0.1: this machine only; 0.0.0.0 for the network)"),
        plain())),
    Command("completion", "print a shell completion script (bash, or zsh through bashcompinit)",
            "completion.print_completion", (
        option("shell", choices=["bash", "zsh"], help="the shell to complete in"), plain("the script"))),
)


# what `referee COMMAND --help` says besides the options: (description, examples, exit codes)
COMMAND_HELP = {
    "check": ("Check rules files (parse, check, compile) and print their diagnostics, file:line:col with "
              "the source line and a caret. A folder stands for every .rules file in it and in its subfolders.",
              ["referee check my-game.rules", "referee check games/", "referee check --json games/"],
              "0 every file is clean, 1 a file has errors (or a folder has no .rules file), 2 bad command line"),
    "games": ("List the games that come with Referee (installed with the package): each one's name, "
              "player counts and what it is, in a line. A name stands for the game's file wherever a "
              "command takes FILE; a path, when there is a file there, wins over a name.",
              ["referee games", "referee games --json"],
              "0 ok, 2 bad command line"),
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
    "replay": ("Replay a game log from its start, checking every move, and print where it ends (or, "
               "with --at N, the position after move N): a spectator's view, or with --player N "
               "(--seat P2) what seat N sees. --step goes through the game a move at a time, "
               "forwards and back.",
               ["referee replay game.json", "referee replay game.json --player 2",
                "referee replay game.json --at 12 --seat P2", "referee replay game.json --step",
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
    "serve": ("Serve games in the browser: each human seat gets its own address with a secret "
              "token, its page shows exactly what the seat may see (its view) and takes its moves, "
              "live; bots play their seats; a lobby starts more tables. See docs/web.md.",
              ["referee serve my-game.rules",
               "referee serve my-cards.rules --players 3 --bot 3=random --log-dir tables/",
               "referee serve my-cards.rules my-game.rules --tables 2 --lobby",
               "referee serve --resume tables/my-cards-1.json --port 8001"],
              "0 the server was stopped with Ctrl-C (SIGTERM ends it as it ends any process), 2 bad command line, "
              "65 bad rules file or log, 66 missing file, 69 Starlette or uvicorn is not installed "
              "(pip install 'referee[web]'), or the port cannot be had, 70 a runtime rules error while setting up "
              "a table, 73 cannot write a log"),
    "completion": ("Print a completion script for the shell, built from this command line: the commands, "
                   "their flags, and rules files (or logs) for their file arguments.",
                   ["referee completion bash", "referee completion zsh"],
                   "0 printed, 2 bad command line"),
}


def describe_commands(commands, only=None):
    """Each command's description, examples and exit codes, for its --help (`only`: of that one)."""
    for name, (description, examples, codes) in COMMAND_HELP.items():
        if only is not None and name != only:
            continue
        sub = commands[name]
        sub.description = textwrap.fill(description, 78)
        sub.formatter_class = argparse.RawDescriptionHelpFormatter
        lines = ["examples:", *(f"  {example}" for example in examples), "", "exit codes (see docs/cli.md):"]
        for code in [*re.split(r", (?=\d)", codes), "130 interrupted (Ctrl-C)"]:
            number, text = code.split(" ", 1)
            lines.append(textwrap.fill(text, 78, initial_indent=f"  {number:<4}", subsequent_indent=" " * 6))
        sub.epilog = "\n".join(lines)


def build_parser(only=None):
    """The command line's parser. only: the name of the one command to be parsed (main() knows it
    from the words): the others are listed, with their help line, but get no arguments, which
    takes most of the time of building the parser, at every start-up."""
    parser = Parser(
        prog="referee", description="Check, play, simulate and replay games written in the Referee rules language.",
        epilog="exit codes: 0 ok, 1 check found errors, 2 bad command line, 3 game unfinished, "
               "65 bad rules file or log, 66 missing file, 69 a package a command or a flag needs is missing, "
               "70 runtime rules error, 73 cannot write a log")
    parser.add_argument("--version", action=VersionAction)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        sub = commands.add_parser(command.name, help=command.help)
        if only is None or command.name == only:
            for add in command.arguments:
                add(sub)
        sub.set_defaults(run=command.run)
    parser.commands = commands.choices
    describe_commands(parser.commands, only)
    return parser
