"""`referee lsp`: the language server for editors, on standard input and output."""
from __future__ import annotations

import sys

from ..common import version
from ..errors import UNAVAILABLE, CliError


def cmd_lsp(args) -> int:
    from ...lsp import server as lsp
    try:
        server = lsp.make_server(version())
    except lsp.MissingServerLibrary as error:
        raise CliError(f"referee lsp: the language server needs pygls ({error}): "
                       "pip install 'referee[lsp]'", UNAVAILABLE)
    if sys.stdin.isatty():
        args.errors.line("referee lsp: a language server, for an editor to start and talk to in JSON-RPC on "
            "standard input and output (see docs/editor.md); Ctrl-D stops it")
    return lsp.serve(server)
