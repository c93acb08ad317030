"""The `referee` command line: check, play, simulate and replay any rules file.

Exit codes: 0 ok, 1 `check` found errors, 2 bad command line, 3 game unfinished (end of
input or quit), 65 bad rules file or bad log, 66 missing file, 69 a package a command or a flag
needs is missing, 70 runtime rules error, 73 cannot write a log (errors.py). See docs/cli.md.
The commands are in commands/, their arguments in arguments.py; this module runs one and
turns what stops it into its exit code.
"""
from __future__ import annotations

import argparse
import gc
import os
import sys

from ..runtime.errors import RulesRuntimeError
from . import console
from .arguments import build_parser
from .common import print_json
from .errors import OK, RUNTIME, USAGE, CliError, UsageError
from .workers import Resources


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
