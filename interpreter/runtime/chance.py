"""Random draws at run time: shuffles and picks from the state's seeded source, or as chance
nodes (explicit chance); components shown to players, or one attribute of them told; `after`,
on a copy."""
from __future__ import annotations

from . import random_source
from .errors import Finished, NeedChoice, RulesRuntimeError

CHANCE = -1             # the chance player (OpenSpiel's kChancePlayerId)


def shuffle(s, key):
    items = s.own(key)
    if items:
        s.rng = random_source.shuffle(s.rng, items)
        if s.shown_to:       # a shuffled component is no longer where it was shown
            s.shown_to = {x: seats for x, seats in s.shown_to.items() if x not in items}


def reveal_to(s, items, players, attribute=None):
    """The players see these components whole until each moves (State.move forgets it), or
    only the attribute named (`reveal c.colour to P`: tell_to)."""
    if attribute is not None:
        return tell_to(s, items, attribute, players)
    seats = frozenset(p for p in players if p is not None)
    if not seats:
        return
    shown = dict(s.shown_to)      # shared with clones: a new dict
    for x in items:
        if x is not None:
            shown[x] = shown.get(x, frozenset()) | seats
    s.shown_to = shown


def tell_to(s, items, attribute, players):
    """The players know one attribute of these components (its value now), until each moves
    or is shuffled: kept with what `reveal` showed them, as (seat, attribute, value) facts
    beside the seats that saw it whole (State.move and shuffles forget both)."""
    seats = {p for p in players if p is not None}
    if not seats:
        return
    shown = dict(s.shown_to)      # shared with clones: a new dict
    for x in items:
        if x is not None:
            value = s.entities[x].get(attribute)
            kept = {fact for fact in shown.get(x, ()) if fact.__class__ is int
                    or fact[0] not in seats or fact[1] != attribute}      # told again: the value now
            shown[x] = frozenset(kept | {(p, attribute, value) for p in seats})
    s.shown_to = shown


def chance_draw(s, options, labeler, prompt, hidden):
    """A generator: the index in `options` that chance draws, all equally likely; options that
    look the same (identical cards) are one outcome, as likely as they are many. A clone that
    replays the step finds the outcome among the choices already made."""
    names, kept, weights, first = [], [], [], {}
    for k, value in enumerate(options):
        name = labeler(s, value)
        j = first.get(name)
        if j is None:
            first[name] = len(kept)
            kept.append(k)
            names.append(name)
            weights.append(1)
        else:
            weights[j] += 1
    if len(kept) == 1:
        return kept[0]
    if s.cursor < len(s.choices):
        j = s.choices[s.cursor]
        s.cursor += 1
    else:
        public = ["?"] * len(kept) if hidden else None
        j = yield NeedChoice([options[k] for k in kept], names, CHANCE, prompt, public, weights)
    return kept[j]


def chance_shuffle(s, key, labeler, prompt):
    """shuffle, as chance nodes: which component comes on top, then under it, and so on
    (each of those left equally likely: every order is)."""
    items = s.zones.get(key)
    if not items:
        return
    for top in range(len(items) - 1, 0, -1):
        j = yield from chance_draw(s, s.zones[key][:top + 1], labeler, prompt, True)
        items = s.own(key)        # (own again: a clone taken while waiting shares the list)
        items[top], items[j] = items[j], items[top]
    if s.shown_to:
        s.shown_to = {x: seats for x, seats in s.shown_to.items() if x not in items}


def chance_pick(s, items, labeler, hidden):
    """pick, as a chance node: one of the items, each equally likely."""
    items = list(items)
    if not items:
        return None
    j = yield from chance_draw(s, items, labeler, "pick", hidden)
    return items[j]


def after_procedure(s, procedure, args, value, free):
    """`after`: run a procedure on a copy of the state, and read a value there. The copy's
    chance draws from its own seeded source, also with explicit chance."""
    copy = s.clone()
    copy.replayable = False
    try:
        steps = procedure(copy, *args)
        if steps is not None:           # a procedure that may stop at a chance node (explicit chance)
            answer = None
            while True:
                need = steps.send(answer)
                if need.chooser != CHANCE:
                    raise RulesRuntimeError("'after' reached a choice", None)
                answer, copy.rng = random_source.below(copy.rng, len(need.options))
    except (Finished, StopIteration):
        pass
    return value(copy, *free)
