"""What statements change in a state beyond zones and variables: component attributes (and
their columns), moves of several components, the tables of variables indexed by value."""
from __future__ import annotations

from bisect import insort

from .errors import RulesRuntimeError


def set_attribute(s, x, name, value, span):
    """A component's attribute changes in this state: its entity and columns are copied first
    if shared (with a clone, or with the other games of this compiled game), its labels are
    made again, and the move names cached for this state are forgotten (they show labels)."""
    if x is None:
        raise RulesRuntimeError(f"cannot change '{name}' of none", span)
    game = s.game
    if not s.entities_mine:
        s.entities = list(s.entities)
        s.columns = [column[:] for column in s.columns]
        s.entities_mine = True
    entity = dict(s.entities[x])
    entity[name] = value
    type_name = entity["__type__"]
    values = {k: v for k, v in entity.items() if not k.startswith("__")}
    template = game.label_templates.get(type_name)
    entity["__label__"] = s.component_label(type_name, values, template)
    entity["__same__"] = (type_name, *sorted((k, repr(v)) for k, v in values.items()))
    private = game.private_fields.get(type_name)
    if private:
        entity["__public_label__"] = s.component_label(type_name, values, template, private)
    s.entities[x] = entity
    for column, column_name in zip(s.columns, game.column_names):
        if column_name == name or column_name.startswith("__"):
            column[x] = entity_column_value(game, entity, x, column_name)
    s.names = {}


MAX_SIGNATURE_NUMBERS = 100_000     # signatures numbered at most (then kept whole)


def entity_column_value(game, entity, eid, name):
    """What a component's column holds: its attribute, or, for the signature of identical
    components, the signature's number (Game.signature_numbers), or the component itself
    when it has none (board cells)."""
    if name == "__same__":
        signature = entity.get(name)
        if signature is None:
            return eid
        numbers = game.signature_numbers
        number = numbers.get(signature)
        if number is None:
            if len(numbers) >= MAX_SIGNATURE_NUMBERS:
                return signature        # (components whose values differ from game to game)
            number = numbers[signature] = -2 - len(numbers)     # (-1 hashes as -2 does)
        return number
    return entity.get(name)


def move_all(s, items, target, under):
    moving = list(items)
    if under:
        moving.reverse()
    for x in moving:
        s.move(x, target, under)


def var_table(s, family, domain, default) -> dict:
    """value -> the indexes of `family` that hold it, in the order of its domain: built from
    the state's variables when first asked, then kept exact by var_index_write."""
    tables = s.var_index
    table = tables.get(family)
    if table is None:
        table = {}
        values = s.vars
        for x in domain:
            table.setdefault(values.get((family, x), default), []).append(x)
        if not s.var_index_mine:
            s.var_index = tables = own_var_tables(tables)
            s.var_index_mine = True
        tables[family] = table
    return table


def own_var_tables(tables) -> dict:
    """A copy of a state's tables to change: a clone shares them until one of the two writes."""
    return {family: {value: keys[:] for value, keys in table.items()} for family, table in tables.items()}


def var_index_write(s, family, x, old, new):
    """family[x] goes from old to new: its table, if built, follows."""
    if old == new:
        return
    if not s.var_index_mine:
        s.var_index = own_var_tables(s.var_index)
        s.var_index_mine = True
    table = s.var_index[family]
    table[old].remove(x)
    insort(table.setdefault(new, []), x, key=s.game.var_positions[family].__getitem__)
