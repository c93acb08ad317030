"""Lark, imported without the optional modules it takes when they are installed and the parser
never uses at run time: `regex` (for `Lark(regex=True)` and `\\p{...}` classes) and `interegular`
(the checks of terminal collisions when a grammar is built). Together they are a third of Lark's
import, ~20 ms of every start-up; loading the saved tables needs neither. Building a grammar
(`build_parser`, strict or not) turns the collision checks back on first (`collision_checks`),
so a build checks as Lark's own does.

Import this module before anything of Lark (dsl/parser.py and dsl/lexer.py do): when Lark is
imported already, it changes nothing.
"""
from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator

NOT_NEEDED = ("regex", "interegular")


@contextlib.contextmanager
def not_installed(names: tuple[str, ...]) -> Iterator[None]:
    """Inside, importing one of these modules fails as if it were not installed (a None in
    sys.modules, as the import system documents), unless it is imported already; after, they
    import as usual."""
    hidden = [name for name in names if name not in sys.modules]
    for name in hidden:
        sys.modules[name] = None        # type: ignore[assignment]
    try:
        yield
    finally:
        for name in hidden:
            if name in sys.modules and sys.modules[name] is None:
                del sys.modules[name]


with not_installed(NOT_NEEDED):
    import lark
    import lark.lexer


def collision_checks() -> None:
    """Lark's lexer checks terminals for collisions again (when interegular is installed), as
    when it is imported with interegular: before building a grammar, never on loading tables."""
    if lark.lexer.has_interegular:
        return
    try:
        import interegular
    except ImportError:          # not installed: Lark then checks nothing (and strict=True refuses)
        return
    lark.lexer.interegular = interegular
    lark.lexer.has_interegular = True
