"""Regenerate dsl/grammar.tables, the parser tables saved from grammar.lark.

    python -m referee.dsl.parser_tables          # after changing grammar.lark (or the Lark version)
    python -m referee.dsl.parser_tables --check  # exit 1 if the saved tables do not match

The tables are written only when they are missing or do not match (their bytes vary from one
build to the next, so an unneeded rewrite would only make a diff); --force rewrites them anyway.
"""
from __future__ import annotations

import argparse
import sys

from .parser import GRAMMAR_PATH, TABLES_PATH, load_tables, save_tables


def main(argv=None) -> int:
    options = argparse.ArgumentParser(prog="python -m referee.dsl.parser_tables", description=__doc__.split("\n")[0])
    options.add_argument("--check", action="store_true", help="only tell whether the tables match")
    options.add_argument("--force", action="store_true", help="rewrite the tables even if they match")
    args = options.parse_args(argv)
    grammar = GRAMMAR_PATH.read_text(encoding="utf-8")
    current = load_tables(grammar) is not None
    if args.check:
        print(f"{TABLES_PATH}: {'up to date' if current else 'stale: run python -m referee.dsl.parser_tables'}")
        return 0 if current else 1
    if current and not args.force:
        print(f"{TABLES_PATH}: up to date")
        return 0
    save_tables(grammar)
    if load_tables(grammar) is None:
        print(f"{TABLES_PATH}: written but cannot be loaded back", file=sys.stderr)
        return 1
    print(f"{TABLES_PATH}: written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
