"""Moves grouped by their first part at the table: a long list of legal moves ('build wood
house on Oceania 6', 55 of them) shown as one line per first part (the action's words and its
first argument: 'build wood house'), and a player typing a first part, then the rest."""
from __future__ import annotations

import attrs

from .session import Play, Refusal, holding_words, named_by_numbers, numbered_moves, resolve_input, words
from ..engine.render import width as terminal_width

GROUPED_FROM = 13       # moves listed one per line up to 12 (numbered_moves' columns start there)


@attrs.frozen
class Group:
    """Legal moves that begin alike: `head` ('build wood house'), then each move's full name
    and what follows the head in it ('on Oceania 6')."""
    head: str
    names: tuple
    rests: tuple


def move_head(game, move, state):
    """The first part of a legal move's name: its template's words up to its first argument
    and that argument's label ('build {card} on {c} {i}' -> 'build wood house'), when more
    words follow it; None for a move of another kind, or one named by its argument alone."""
    if move.kind != "action":
        return None
    parts, tail = game.templates[move.action]
    first = next((k for k, (_, position) in enumerate(parts) if position is not None), None)
    if first is None or not isinstance(parts[first][1], int):
        return None
    position = parts[first][1]
    head = "".join(literal for literal, _ in parts[:first + 1])
    head += game.binder_labelers[move.action][position](state, move.args[position])
    name = move.name
    if not head.strip() or not name.startswith(head) or not name[len(head):].startswith(" "):
        return None
    return head


def move_groups(state, names) -> list:
    """The legal moves `names` (in the state's order) as Groups, in the order of their first
    moves; a move without a first part is a group of its own (its name its head)."""
    game = state.game
    heads = {}
    for move in state.legal_moves():
        head = move_head(game, move, state)
        heads.setdefault(head if head is not None else move.name, []).append(move.name)
    groups = []
    for head, members in heads.items():
        if len(members) == 1 and members[0] == head:
            groups.append(Group(head, (head,), ("",)))
        else:
            groups.append(Group(head, tuple(members), tuple(name[len(head):].strip() for name in members)))
    known = set(names)
    return [group for group in groups if set(group.names) <= known]


def rests_text(rests) -> list:
    """What follows a first part, neighbours that differ only in their last word together:
    'on Oceania 1', 'on Oceania 6' -> 'on Oceania 1, 6'."""
    runs = []
    for rest in rests:
        stem, _, last = rest.rpartition(" ")
        if runs and stem and runs[-1][0] == stem:
            runs[-1][1].append(last)
        else:
            runs.append([stem, [last]] if stem else ["", [rest]])
    return [f"{stem} {', '.join(lasts)}" if stem else lasts[0] for stem, lasts in runs]


def listed_moves(state, names, notes=None) -> list:
    """The legal moves as a human reads them: numbered (numbered_moves) or, when they are many
    and some begin alike, one line per first part with what may follow it; a move alone in
    its group keeps its number, and the last line says how to type the others."""
    if len(names) < GROUPED_FROM:
        return numbered_moves(names, notes)
    groups = move_groups(state, names)
    if len(groups) == len(names) or len(groups) != len({g.head for g in groups}):
        return numbered_moves(names, notes)
    notes = notes or {}
    mark = "#" if named_by_numbers(names) else ""
    digits = len(str(len(names)))
    heads = [g.head for g in groups if len(g.names) > 1]
    head_width = max(len(head) for head in heads)
    lines = []
    for group in groups:
        if len(group.names) == 1:
            name = group.names[0]
            lines.append(f"  {mark}{names.index(name) + 1:>{digits}}. {name}" + (f"  ({notes[name]})" if name in notes else ""))
            continue
        head = f"  {group.head.ljust(head_width)}  {len(group.names):>{digits}} moves: "
        runs = rests_text(group.rests)
        one_line = head + " · ".join(runs)
        if len(one_line) <= terminal_width():
            lines.append(one_line)
        else:       # a line for each run, under the first
            lines.extend(head + run if k == 0 else " " * len(head) + run for k, run in enumerate(runs))
    lines.append(f"  (type a first part, '{heads[0]}', to list its moves and choose one; or a whole move)")
    return lines


def group_of(state, names, text):
    """The group a typed text picks: its first part as written, or words that only the moves
    of one group of several moves hold ('wood house'); None otherwise."""
    wanted = " ".join(words(text))
    if not wanted:
        return None
    groups = [g for g in move_groups(state, names) if len(g.names) > 1]
    for group in groups:
        if " ".join(words(group.head)) == wanted:
            return group
    holding = set(holding_words(names, text))
    if len(holding) < 2:
        return None
    found = [g for g in groups if holding <= set(g.names)]
    return found[0] if len(found) == 1 else None


def group_lines(group) -> list:
    """A group's moves, numbered in the group, for a player to choose the rest of."""
    return [f"{group.head}: type the rest of the move, or its number here (another move, or 'moves', leaves it)",
            *numbered_moves(list(group.rests))]


def resolve_in_group(text, group, names):
    """What a line typed after a first part means: the rest of one of the group's moves (its
    words, or its number in the group), else whatever it means among all the legal moves."""
    rests = list(group.rests)
    typed = resolve_input(text, rests)
    if isinstance(typed, Play) and typed.move in rests:
        return Play(group.names[rests.index(typed.move)])
    whole = resolve_input(text, names)
    if isinstance(typed, Refusal) and not (isinstance(whole, Play) and whole.move in names):
        return typed
    return whole
