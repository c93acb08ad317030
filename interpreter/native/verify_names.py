"""Whether no two moves a game could ever list share a name: verify checks it at every decision,
and a verify kernel (verify_source.py), which does not name moves, stands in for verify only
once it is proved for the game (`names_distinct`, else NotNative).

Each action's binders range over values known before the game (constants), or over a superset
of them: a binder of a board's cells, over all its cells; of an enum, over its members; of seats,
over every seat (none too where the type allows it); of a component type, over one
component per label (components are made in the setup only and their attributes never change,
so their labels are those of the initial state; two moves of components of one label are one
move, as the engine merges them, or the engine's error). The names of every combination must
be different, one combination of labels one name. An action of one int binder over a range the
state gives (`bid(n in 1..most[current]) "bid {n}"`) names its moves by the int
alone between a fixed beginning and end: distinct ints, distinct names; no other move's name may
be that beginning, an int and that end. So for an action of one binder of a component type whose
values the state gives (components created in play, a zone's): named by the component's label
alone between a fixed beginning and end, one label one move (the engine merges the others, or
stops at two different ones of one name), and no other move's name may be that beginning, any
text and that end.
"""
from __future__ import annotations

import itertools

from referee.dsl import ast
from referee.dsl.types import INT, PLAYER, ListOf, Named, named_type

from .not_native import NotNative

MOST_NAMES = 100_000            # the moves names_distinct lists at most


def names_distinct(game) -> None:
    """NotNative unless no two moves the game could ever list share a name (the module's
    docstring says how it is proved)."""
    s = game.new_initial_state(0)
    seen: dict = {}
    numbered: list = []         # (beginning, end, action) of an action named by one int
    for index, action in enumerate(game.actions):
        parts, tail = game.templates[index]
        if any(position is not None and not isinstance(position, int) for _, position in parts):
            raise NotNative(f"the name of {action.name} computes a value: its moves are not proved to have "
                            "distinct names", action.span)
        binders = ast.untag(game.program.get(action.name))[0].binders
        domains = [values_of(game, s, binder, element) for binder, (_, _, _, element) in zip(binders, action.binders)]
        if None in domains:
            k = domains.index(None)
            by_int = named_by_one_int(game, s, index, binders, parts, tail)
            if not by_int and not named_by_one_label(game, index, binders, parts):
                raise NotNative(f"{binders[k].name} of {action.name} ranges over values the state gives: its "
                                "moves are not proved to have distinct names", binders[k].span)
            numbered.append((parts[0][0], tail, action, is_int_text if by_int else is_some_text))
            continue
        for args in itertools.product(*domains):
            if len(seen) >= MOST_NAMES:
                raise NotNative(f"more than {MOST_NAMES} moves to name", action.span)
            try:
                name = game.namers[index](s, *args)
            except Exception as error:      # (a value of the superset the name cannot take)
                raise NotNative(f"the names of {action.name} are not proved distinct ({error})", action.span) from None
            move = (index, tuple(label_of(s, game, value, element) for value, (_, _, _, element)
                                 in zip(args, action.binders)))
            if seen.setdefault(name, move) != move:
                raise NotNative(f"two moves may be named '{name}'", action.span)
    for k, (beginning, end, action, shown) in enumerate(numbered):
        for name in seen:
            if shown(name, beginning, end):
                raise NotNative(f"two moves may be named '{name}'", action.span)
        for other_beginning, _, other, _ in numbered[:k]:
            ours, theirs = beginning.strip(), other_beginning.strip()     # (an empty label: no space after)
            if theirs.startswith(ours) or ours.startswith(theirs):
                raise NotNative(f"{other.name} and {action.name} may name two moves alike", action.span)


def values_of(game, s, binder, element):
    """A binder's values, or a superset of them (see the module's docstring); None if not known."""
    try:
        values = game.compiler.constant(binder.domain)
    except Exception:
        values = None
    if isinstance(values, (list, tuple, range)):        # (a zone's name is no list of values)
        return list(values)
    kind = named_type(element)
    none = [None] if element != element.without_none() else []
    if kind in game.geometries:
        return list(game.geometries[kind].cells)
    if kind in game.enum_members:          # (a set's, a list's, a function's members: some of these)
        return list(game.enum_members[kind]) + none
    if element.without_none() == PLAYER:
        return list(range(1, game.num_players + 1)) + none
    if kind in game.types.components and created_in_setup_only(game):
        first_of_label: dict = {}
        for eid, entity in enumerate(s.entities):
            if entity.get("__type__") == kind:
                first_of_label.setdefault(entity.get("__label__"), eid)
        return list(first_of_label.values())
    return None


def label_of(s, game, value, element):
    """What tells two moves' values apart: a component's label (components of one label make
    one move), any other value itself."""
    if named_type(element) in game.types.components:
        return s.entities[value].get("__label__")
    return value


def created_in_setup_only(game) -> bool:
    program = game.program
    creates = [n for n in ast.walk(program.parts()) if isinstance(n, ast.Create)]
    return len(creates) == len([n for n in ast.walk(program.setup) if isinstance(n, ast.Create)])


def named_by_one_int(game, s, index, binders, parts, tail) -> bool:
    """Whether the action has one binder, an int range, and names each move by its int alone
    between a fixed beginning and end (tried on two ints)."""
    if len(binders) != 1 or not isinstance(ast.untag(binders[0].domain)[0], ast.Range):
        return False
    if game.actions[index].binders[0][3] not in (INT, Named("int")) or len(parts) != 1 or parts[0][1] != 0:
        return False
    beginning = parts[0][0]
    return all(game.namers[index](s, n) == f"{beginning}{n}{tail}" for n in (7, -12))


def named_by_one_label(game, index, binders, parts) -> bool:
    """Whether the action has one binder, of a component type, and names each move by that
    component's label alone between a fixed beginning and end."""
    if len(binders) != 1 or len(parts) != 1 or parts[0][1] != 0:
        return False
    element = game.actions[index].binders[0][3]
    return not isinstance(element, ListOf) and named_type(element) in game.types.components


def is_some_text(name: str, beginning: str, end: str) -> bool:
    """Whether a name may be the beginning, a label (any text, none's empty one too) and the end,
    its spaces run together as a name's are ("take " and an empty label: "take")."""
    beginning, end = " ".join(beginning.split()), " ".join(end.split())
    return name.startswith(beginning) and name.endswith(end) and len(name) >= len(beginning) + len(end)


def is_int_text(name: str, beginning: str, end: str) -> bool:
    """Whether a name is the beginning, an int's text and the end."""
    if not (name.startswith(beginning) and name.endswith(end) and len(name) > len(beginning) + len(end)):
        return False
    middle = name[len(beginning):len(name) - len(end)]
    digits = middle[1:] if middle.startswith("-") else middle
    return digits.isdigit() and str(int(middle)) == middle
