"""The check of `respond every` windows: who is asked must follow from what everybody sees.

`respond every p in ORDER where C` asks each player of ORDER that passes C, even one with no
legal response, so that the window shows nothing of what a player holds. ORDER and C decide who
is asked, and everybody sees who is: they may read only what everybody may see (E421), else
the window shows it again. A zone's size is seen by all (views show how many cards a hand
holds), so `size(hand[p])` may be read; what a zone holds, and a variable that is not
`public`, may not, directly or through a function called.
"""
from __future__ import annotations

from typing import Optional

from .. import ast
from ..checker import Checker


def check_open_windows(c: Checker):
    for part in c.program.parts():
        for node in ast.walk(part):
            if isinstance(node, ast.Respond) and node.everyone:
                for expr in (node.binder.domain, node.binder.condition):
                    found = hidden_read(c, expr, set()) if expr is not None else None
                    if found is not None:
                        what, span = found
                        c.error("E421", f"who 'respond every' asks depends on {what}, which not every player may "
                                        f"see: the window would show it", span,
                                "decide who is asked from what everybody sees, and let the response's own "
                                "'where' test the rest (a player who cannot respond is asked, and may only skip)")
                        break


def hidden_read(c: Checker, expr, called: set) -> Optional[tuple]:
    """(what, span) of the first thing an expression reads that not every player may see, or
    None: a variable that is not public, a zone that is not (but for its size), either through
    the functions it calls (each followed once)."""
    sized = {id(n.arguments[0]) for n in ast.walk(expr)
             if isinstance(n, ast.Call) and n.name == "size" and len(n.arguments) == 1}
    for n in ast.walk(expr):
        if isinstance(n, ast.Subscript) and id(n) in sized:
            sized.add(id(n.obj))
        if isinstance(n, ast.Name):
            var, zone = c.vars.get(n.id), c.zones.get(n.id)
            if var is not None and var.visibility != "public":
                return f"the {var.visibility} variable '{n.id}'", n.span
            if zone is not None and zone.visibility != "public" and id(n) not in sized:
                return f"what the {zone.visibility} zone '{n.id}' holds", n.span
        if isinstance(n, ast.Call) and n.name in c.functions and n.name not in called:
            called.add(n.name)
            found = hidden_read(c, c.functions[n.name].body, called)
            if found is not None:
                return f"{found[0]} (read by '{n.name}')", n.span
    return None
