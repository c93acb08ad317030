"""Texts coded in their order, for the kernels that hold texts in a set or as a map's keys
(value_sets_source.py): a set is its codes sorted, so the codes must follow the language's order
of texts (runtime/sets.value_key: an enum member's name by its position first, then by the text
itself). Such a kernel codes every text the game can hold before it renders anything: the rules'
literals, the params, the variables' first values and the setup's attributes, sorted. A game that
makes texts in play (a text function: texts_source.py) cannot be ordered so and is refused, as is
a kernel that met a text none of those hold (checked when its rendering ends). The other kernels
code texts as met, as before (their sources stay as they were).
"""
from __future__ import annotations

from referee.dsl import ast
from referee.dsl.types import TEXT, ListOf, MapOf, SetOf

from .not_native import NotNative
from .texts_source import calls_text_functions


def holds_text_keys(t) -> bool:
    """Whether a type holds texts in a set or as a map's keys (lists of texts too)."""
    if t is None:
        return False
    t = t.without_none()
    if isinstance(t, (SetOf, MapOf)):
        held = (t.key if isinstance(t, MapOf) else t.element).without_none()
        while isinstance(held, ListOf):
            held = held.element.without_none()
        if held == TEXT:
            return True
        return holds_text_keys(t.key if isinstance(t, MapOf) else t.element) or \
            (isinstance(t, MapOf) and holds_text_keys(t.value))
    return isinstance(t, ListOf) and holds_text_keys(t.element)


def texts_in(value, out: set) -> None:
    """Every text inside a value (lists, sets, maps, tuples)."""
    if value.__class__ is str:
        out.add(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            texts_in(k, out)
            texts_in(v, out)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for v in value:
            texts_in(v, out)


def text_order(game):
    """The language's order of texts (runtime/sets.value_key's key for a text)."""
    positions = game.member_positions
    return lambda text: (positions.get(text, 0), text)


def order_texts(source) -> None:
    """Codes the game's texts in their order when it holds texts in a set or as a map's keys."""
    game, checked = source.game, source.checked
    nodes = list(ast.walk(source.program.parts()))
    typed = [(t, source.program.get(name).span) for name, (_, _, _, t) in game.var_meta.items()] + \
        [(checked.type_of(n), n.span) for n in nodes if hasattr(n, "span")]
    span = next((where for t, where in typed if holds_text_keys(t)), None)
    if span is None:
        return
    if calls_text_functions(source.program, checked):
        raise NotNative("a set or a map of texts in a game that makes texts in play (their codes do not "
                        "follow the order of texts)", span)
    texts: set = {n.value for n in nodes if isinstance(n, ast.Text)}
    texts_in(list(game.params.values()), texts)
    texts_in(list(game.var_defaults.values()), texts)
    for entity in game.new_initial_state(0).entities:
        texts_in([v for k, v in entity.items() if not k.startswith("__")], texts)
    for text in sorted(texts, key=text_order(game)):
        source.text_code(text)
    source.ordered_texts = span         # (where the first set of texts is: a refusal's line)


def check_text_order(source) -> None:
    """At the rendering's end: every text coded is in order (else one was met that the game's
    values did not hold, and the sets' order would be wrong)."""
    if getattr(source, "ordered_texts", False) is False:
        return
    coded = list(getattr(source, "text_codes", {}))
    if coded != sorted(coded, key=text_order(source.game)):
        raise NotNative("a set or a map of texts, with a text coded out of their order", source.ordered_texts)


__all__ = ["check_text_order", "holds_text_keys", "order_texts"]
