"""What a player sees of a state: its zones, variables and boards, and the last moves."""
from __future__ import annotations

import itertools

import attrs

from referee.dsl import ast
from referee.dsl.types import OWNER, PLAYER, Named, named_type, names_in

from .moves import public_moves


def make_view(s, player: int) -> dict:
    game = s.game
    zones = {}
    for key, items in s.zones.items():
        if not items and not isinstance(key, str):
            continue
        name = key if isinstance(key, str) else key[0]
        kind, visibility, owner, index_types = game.zone_meta[name]
        shown = key_label(s, key, index_types)
        visible = entry_seen(visibility, owner, key, player)
        entry = {"count": len(items), "kind": kind}
        if visible:
            entry["items"] = [item_view(s.entities[x], x, player, shown_to(s, x, player)) for x in items]
        elif visibility == "top" and items:
            # only the top item is face up: the ones under it stay hidden
            entry["items"] = [item_view(s.entities[items[-1]], items[-1], player, shown_to(s, items[-1], player))]
        if not visible and s.shown_to:
            # what a `reveal` showed this player, where it lies (1: the bottom)
            revealed = [dict(item_view(s.entities[x], x, player, True), position=k)
                        for k, x in enumerate(items, start=1) if shown_to(s, x, player)
                        and not (visibility == "top" and k == len(items))]
            if revealed:
                entry["shown"] = revealed
            known = [{"position": k, "type": s.entities[x]["__type__"], "known": known_labels(s, x, player)}
                     for k, x in enumerate(items, start=1) if told(s, x, player) and not shown_to(s, x, player)
                     and not (visibility == "top" and k == len(items))]
            if known:
                entry["known"] = known
        zones[shown] = entry
    values = {}
    for key in var_keys(s):
        name = key if isinstance(key, str) else key[0]
        if not var_entry_seen(game, key, player):
            continue
        _, _, index_types, t = game.var_meta[name]
        value = s.vars.get(key, game.var_defaults[name])
        values[key_label(s, key, index_types)] = game.labeler(t, player)(s, value)
    view = {
        "game": game.title, "player": player, "turn": s.turn,
        "current": None if s.terminal else s.current,
        "terminal": s.terminal, "winners": list(s.winners), "outcome": s.outcome(),
        "zones": zones, "vars": values,
        "boards": board_views(s, player),
        "log": s.log[-10:],
        "moves": public_moves(s, player),
    }
    columns = table_columns(s)
    if columns:
        view["table_columns"] = columns
    if s.pending is not None:
        view["choice"] = {"chooser": s.pending.chooser, "prompt": s.pending.prompt}
    waiting = [(ins.key) for ins in game.flow if ins.op == "simultaneous" and ins.key in s.env]
    if waiting:
        view["sealed"] = [p for p, _, _ in s.env[waiting[0]][1]]
    if not s.terminal and s.current == player:
        view["legal_moves"] = s.legal_move_names()
    if game.score is not None:
        view["scores"] = s.scores()
    # how the table shows variables (`bookkeeping`, `status`): their values stay in "vars"
    display = {name: var.display for name, var in game.types.vars.items() if var.display}
    if display:
        view["display"] = display
    return view


TABLE_COLUMNS = 26         # a zone indexed twice is drawn as a table across at most this many columns


def table_columns(s) -> dict:
    """{zone: the labels of its second index, every one}, for each zone indexed twice whose
    second index has a small finite domain (the places 1..8 of a region): a table of the
    zone shows its empty columns too (a view lists only the zones that hold something)."""
    game = s.game
    out = game.__dict__.get("_table_columns")
    if out is not None:         # the same in every state: enums and ranges (once per game)
        return {name: list(labels) for name, labels in out.items()}
    out = game._table_columns = {}
    for name, (_, _, _, index_types) in game.zone_meta.items():
        if len(index_types) != 2:
            continue
        t = index_types[1]
        index = named_type(t)
        if index in game.enum_members:
            values = list(game.enum_members[index])
        elif index in game.types.components or index in game.geometries:
            continue
        else:
            values = game.compiler.index_domains(name)[1][1]
            values = sorted(values) if values is not None else None
        if values is not None and len(values) <= TABLE_COLUMNS:
            out[name] = tuple(s.label(v, t) for v in values)
    return {name: list(labels) for name, labels in out.items()}


def var_entry_seen(game, key, player) -> bool:
    """Whether a seat sees an entry of a variable (its name, or (name, *indexes)): a public
    variable's, an owner-only one's entries of its own seat, a hidden one's by nobody."""
    visibility, owner, _, _ = game.var_meta[key if key.__class__ is str else key[0]]
    return visibility == "top" or entry_seen(visibility, owner, key, player)


def entry_seen(visibility, owner, key, player) -> bool:
    """Whether a seat sees an entry (key: its name, or (name, *indexes)) of a zone or a
    variable by its visibility: a public one's, an `owner` one's of its own seat, an `others`
    one's of every seat but its own (its owner sees it face down), a hidden one's by nobody
    (`top` zones: the caller shows their top)."""
    if visibility == "public":
        return True
    if visibility == "owner":
        return owner is not None and key[owner + 1] == player
    if visibility == "others":
        return owner is not None and key[owner + 1] != player
    return False


VIEW_ENTRIES = 2_000       # entries of one indexed variable listed in a view, at most


def var_keys(s) -> list:
    """The key of every variable's every entry, at its starting value or not, in the order of
    declaration: a view shows every value it may (a variable with more than VIEW_ENTRIES
    entries, only those that were set)."""
    game = s.game
    keys, listed = [], set()
    for name, (_, _, index_types, _) in game.var_meta.items():
        if not index_types:
            keys.append(name)
            continue
        domains = [index_values(s, name, position, t) for position, t in enumerate(index_types)]
        total = 1
        for domain in domains:
            total *= len(domain)
        if total <= VIEW_ENTRIES:
            for combination in itertools.product(*domains):
                keys.append((name, *combination))
    listed = set(keys)
    keys += [key for key in s.vars if key not in listed]     # set outside the declared indexes (by hand)
    return keys


def index_values(s, name, position, t) -> list:
    """The values of an index of type t (a Type): a board's cells, an enum's members, the
    components of a type, else those its domain holds (`name`'s index at `position`)."""
    game = s.game
    named = named_type(t)
    if named in game.geometries:
        return list(game.geometries[named].cells)
    if named in game.enum_members:
        return list(game.enum_members[named])
    if named in game.types.components:
        return list(s.by_type.get(named, ()))
    element, allowed, _ = game.compiler.index_domains(name)[position]
    return sorted(allowed) if allowed is not None else []


def shown_to(s, x, player) -> bool:
    """Whether a `reveal` showed component x to the player (and it has not moved since)."""
    seats = s.shown_to.get(x)
    return seats is not None and player in seats


def told(s, x, player) -> tuple:
    """((attribute, value), ...): what `reveal x.attribute to ...` told the player of component
    x (until it moves), by attribute."""
    facts = s.shown_to.get(x)
    if not facts:
        return ()
    return tuple(sorted((fact[1], fact[2]) for fact in facts if fact.__class__ is tuple and fact[0] == player))


def known_labels(s, x, player) -> dict:
    """{attribute: its value's label}, of what the player was told of component x."""
    game = s.game
    fields = {f.name: f for f in game.types.components[s.entities[x]["__type__"]].fields}
    return {name: game.labeler(game.compiler.declared_type(fields[name].type) if name in fields else OWNER, player)(s, value)
            for name, value in told(s, x, player)}


def item_view(entity, eid, player=None, shown=False):
    """A visible entity: its id and label, and its owner when it has one (every component
    type has an `owner` attribute; a player sees whose piece it is). Attributes that only the
    owner may see are masked in the label others get (unless a `reveal` showed it to them)."""
    if "__public_label__" in entity and entity.get("owner") != player and not shown:
        # seen masked: its id would tell which one it is (ids follow the order of creation)
        item = {"label": entity["__public_label__"]}
    else:
        item = {"id": eid, "label": entity["__label__"]}
    if entity.get("owner") is not None:
        item["owner"] = entity["owner"]
    return item


def key_label(s, key, index_types):
    if isinstance(key, str):
        return key
    parts = [s.label(v, t) for v, t in zip(key[1:], index_types)]
    return f"{key[0]}[{', '.join(parts)}]"


def board_views(s, player):
    """Each board as a grid of marks: the values of the vars and the top items of the zones
    indexed by its cells, where the viewer may see them. Those indexed by [Board] make one
    drawing named after the board; those indexed by [Player, Board] make one per seat, named
    'Board[P1]'... (a board with neither is drawn empty, once)."""
    game = s.game
    out = {}
    indexed = layer_types(game)
    typed = named_boards(game)
    for name, geometry in game.geometries.items():
        if geometry.kind not in ("grid", "hex"):
            continue        # a map of places and routes is no drawing: its variables are listed
        cells = Named(name)
        per_seat = [PLAYER, cells] in indexed
        plain = [cells] in indexed
        layers = [([cells], (), name)] if plain or not per_seat else []
        if per_seat:
            layers += [([PLAYER, cells], (p,), f"{name}[P{p}]") for p in range(1, game.num_players + 1)]
        for index_types, prefix, shown in layers:
            marks = cell_marks(s, player, geometry, index_types, prefix)
            out[shown] = {
                "kind": geometry.kind, "rows": geometry.rows, "cols": geometry.cols,
                "cells": [{"label": s.entities[c]["__label__"], "row": s.entities[c]["row"],
                           "col": s.entities[c]["col"], "marks": marks.get(c, [])} for c in geometry.cells],
            }
            if prefix:
                out[shown]["player"] = prefix[0]
            if geometry.kind != "hex" and name not in typed:
                # no move, choice or value names a cell: the columns by number, as moves that
                # name a column do ('drop 4'), not by the letters of cell labels nobody types
                out[shown]["columns"] = "numbers"
            # the zones and partitions drawn here (a text view need not list them again)
            out[shown]["zones"] = [z for z, meta in game.zone_meta.items() if meta[3] == index_types]
            out[shown]["parts"] = [v for v, meta in game.var_meta.items()
                                   if meta[2] == index_types and meta[3].without_none() == cells]
            out[shown]["vars"] = [v for v, meta in game.var_meta.items() if meta[2] == index_types]
    return out


def layer_types(game):
    """The index types of every var and zone."""
    return [meta[2] for meta in game.var_meta.values()] + [meta[3] for meta in game.zone_meta.values()]


def cell_marks(s, player, geometry, index_types, prefix):
    """cell -> the marks the viewer sees on it, from the vars and zones indexed by
    `index_types` (prefix: the values of the indexes before the cell)."""
    game = s.game
    marks = {}

    def allowed(visibility, owner):
        if visibility in ("owner", "others"):
            return owner is not None and owner < len(prefix) and (prefix[owner] == player) == (visibility == "owner")
        return visibility in ("public", "top")

    for var, (visibility, owner, types, t) in game.var_meta.items():
        # a var that maps each cell to a cell of the same board splits the board into parts:
        # a drawing shows their borders (from the view's vars), not a mark per cell
        if types == index_types and allowed(visibility, owner) and t.without_none() != Named(geometry.name):
            for cell in geometry.cells:
                value = s.vars.get((var, *prefix, cell), game.var_defaults[var])
                # a value is drawn, at its starting value too (pits of 4 are not empty); none
                # and false leave the cell empty
                if value is not None and value is not False:
                    marks.setdefault(cell, []).append(game.labeler(t, player)(s, value))
    for zone, (kind, visibility, owner, types) in game.zone_meta.items():
        if types == index_types and allowed(visibility, owner):
            for cell in geometry.cells:
                items = s.zones.get((zone, *prefix, cell))
                if items:
                    marks.setdefault(cell, []).append(item_view(s.entities[items[-1]], items[-1], player)["label"])
    return marks


def named_boards(game) -> frozenset:
    """The boards whose cells a player reads or types by their labels ('c3'): those an action's
    argument, a choice or a variable's value is a cell of (once per game)."""
    found = game.__dict__.get("_named_boards")
    if found is None:
        written = [b[3] for a in game.actions for b in a.binders] + [meta[3] for meta in game.var_meta.values()]
        types = game.compiler.checked.types
        written += [types[id(node.binder.domain)] for node in syntax_nodes(game.program)
                    if isinstance(node, ast.Choose) and id(node.binder.domain) in types]
        found = game._named_boards = frozenset(
            name for name in game.geometries if any(name in names_in(t) for t in written))
    return found


def syntax_nodes(program):
    """Every syntax node of a program: its declarations, setup and flow, depth first."""
    stack = [program.declarations, program.setup, program.flow]
    while stack:
        node = stack.pop()
        if isinstance(node, (list, tuple)):
            stack.extend(node)
        elif isinstance(node, dict):
            stack.extend(node.values())
        elif attrs.has(type(node)):
            yield node
            stack.extend(getattr(node, field.name) for field in attrs.fields(type(node)))
