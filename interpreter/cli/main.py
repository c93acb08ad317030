"""The `referee` command line: check, play, simulate and replay any rules file.

Exit codes: 0 ok, 1 `check` found errors, 2 bad command line, 3 game unfinished (end of
input or quit), 65 bad rules file or bad log, 66 missing file, 69 a package a command or a flag
needs is missing, 70 runtime rules error, 73 cannot write a log (errors.py). See docs/cli.md.
The commands are in commands/, their arguments in arguments.py; this module runs one and
turns what stops it into its exit code.
"""
from __future__ import annotations

import argparse
import contextlib
import gc
import os
import sys

from ..runtime.errors import RulesRuntimeError
from . import console
from .arguments import build_parser
from .common import print_json
from .errors import RUNTIME, USAGE, CliError, UsageError
from .workers import Resources


def words_before_the_end_of_flags(argv) -> list:
    return list(argv)[:list(argv).index("--")] if "--" in argv else list(argv)


def named_command(argv):
    """The command the words name (its first word that is no flag; `referee` itself takes no
    value after a flag), read before they are parsed, or None."""
    return next((word for word in words_before_the_end_of_flags(argv) if not word.startswith("-")), None)


def wants_json(argv, parser) -> bool:
    """Whether the command line asks a command that takes --json for it (read from the words
    themselves when they could not be parsed)."""
    sub = parser.commands.get(named_command(argv))
    return sub is not None and "--json" in words_before_the_end_of_flags(argv) and "--json" in sub._option_string_actions


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


BROKEN_PIPE = 128 + 13       # what a shell reports of a process that SIGPIPE ended


def silenced(stream):
    """What is written to `stream` from now on goes nowhere: its reader has gone (and the
    interpreter's last flush does not complain)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
    except (OSError, ValueError, AttributeError):   # not a file (a test's capture)
        pass


class Unbroken:
    """Standard output whose reader may go away (`referee check x | head -1`): once the pipe
    is broken, what the command writes is dropped, so that it runs to its end and exits with
    its own code (1 for a check that found errors), not 0, and without a traceback."""

    def __init__(self, stream):
        self.stream = stream
        self.broken = False

    def write(self, text):
        if not self.broken:
            try:
                return self.stream.write(text)
            except BrokenPipeError:
                self.gone()
        return len(text)

    def flush(self):
        if not self.broken:
            try:
                self.stream.flush()
            except BrokenPipeError:
                self.gone()

    def gone(self):
        self.broken = True
        silenced(self.stream)

    def __getattr__(self, name):         # isatty, fileno, encoding...: the stream's own
        return getattr(self.stream, name)


@contextlib.contextmanager
def reader_may_leave():
    """sys.stdout an Unbroken one while a command runs."""
    stream = sys.stdout
    sys.stdout = Unbroken(stream)
    try:
        yield
    finally:
        sys.stdout = stream


def parsed(parser, argv):
    """parser.parse_args(argv), but words it does not know are refused under the usage of the
    command they were given to (argparse says them under the top level's)."""
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        raise UsageError(f"unrecognized arguments: {' '.join(unknown)}", parser.commands.get(args.command))
    return args


def main(argv=None) -> int:
    argv = [str(word) for word in (sys.argv[1:] if argv is None else argv)]
    parser = build_parser(only=named_command(argv))       # (the other commands' arguments: not needed)
    as_json = wants_json(argv, parser)
    # until the command line is read, its --plain is found among its words
    errors = console.for_errors(argparse.Namespace(json=as_json, plain="--plain" in argv))
    try:
        args = parsed(parser, argv)
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
        with Resources() as args.resources, reader_may_leave():
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
    except BrokenPipeError:                  # written past the guard of reader_may_leave
        silenced(sys.stdout)
        return BROKEN_PIPE
    except RulesRuntimeError as error:
        from ..play.simulate import runtime_text
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


if __name__ == "__main__":
    sys.exit(run())
