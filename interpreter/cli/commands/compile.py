"""`referee compile` and `referee rulebook`: the Python module a game compiles to, and the rules
of a file by rule id."""
from __future__ import annotations

from referee.dsl import rulebook
from referee.dsl.limits import MAX_FILE_BYTES
from referee.dsl.program import Unreadable, read_regular_file

from ..common import describe, load, out, print_json, write_text
from ..errors import ERRORS, MISSING_FILE, OK, USAGE, CliError


def cmd_compile(args) -> int:
    """The generated module of a game (options, player count): every fn, proc, action, trigger,
    the setup and the flow as Python functions, each under a comment naming its rules line
    (with --coverage, the module that counts rule coverage)."""
    from ...compile.passes import PASS_NAMES     # (here: the other commands start without the IR)
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
