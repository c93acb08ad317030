"""The parts of a kernel's state array S that state_writer.py writes beyond the plain variables,
zones and columns, each from where the rendered kernel placed it (never from a game):
- sets and maps held by variables (value_sets_source.py): a row of sorted codes (a map's
  values after its keys), a word of bits, or a table hashed by lists (hashed_values.py), each
  list put as hashed_put puts it (the table's lookups and its count do not depend on the order
  the lists were put in);
- reals held by variables (reals_source.py): numerators, then denominators;
- the texts made in play (texts_source.py): a text of the state that is not among the kernel's
  own is added to S's table as text_found adds it (texts are only equal or not, so a code
  given in another order than the game's makes the same game);
- components created in play (created_source.py): each id's type, label and identity
  classes (computed over the ids before it, as classes_T computes them when it is made), its
  shape, and each created type's components in play in the order they were made.
A value the kernel cannot hold (past a row's room, a real past the limit of numbers, a text
past the table's room) raises Unwritable: that playout stays in Python.
"""
from __future__ import annotations

import itertools

from referee.dsl.templates import parse_template
from referee.dsl.types import OWNER, named_type

from .hashed_values import HASHED_ENTRIES, HASHED_WIDTH
from .texts_source import PLAYED_CHARS, PLAYED_TEXTS
from .value_sets_source import held_type

REAL_LIMIT = 10 ** 18           # (reals_source.REAL_LIMIT: what the kernel's reals hold)
WORD = (1 << 64) - 1
HASHED_STRIDE = HASHED_WIDTH + 2


class Unwritable(Exception):
    """A value of the state that the kernel's coding cannot hold."""


def cells_of(axes) -> list:
    """The index tuples of a family's cells, in the order of its array (row-major)."""
    values = [members or range(first, first + size) for first, size, members in axes]
    return list(itertools.product(*values))


def keyed(name: str, indexes: tuple):
    return (name, *indexes) if indexes else name


def hashed_put(S, base: int, key: list, value: int) -> None:
    """hashed_values.hashed_put in Python: the same hash, the same probing, the same room."""
    if len(key) > HASHED_WIDTH or S[base] >= HASHED_ENTRIES * 3 // 4:
        raise Unwritable(f"a list of {len(key)} items, or past the table's room")
    h = len(key) * 0x9E3779B97F4A7C15 & WORD
    for v in key:
        h = (h ^ (v & WORD)) * 0x100000001B3 & WORD
    i = (h >> 40) & (HASHED_ENTRIES - 1)
    while True:
        at = base + 1 + i * HASHED_STRIDE
        if S[at] == 0:
            break
        i = (i + 1) & (HASHED_ENTRIES - 1)
    S[at] = len(key) + 1
    S[at + 1:at + 1 + len(key)] = key
    S[at + 1 + HASHED_WIDTH] = value
    S[base] += 1


class StateCells:
    """What StateWriter writes of one kernel beyond its plain parts (see the module's docstring).
    `code(value, t)` is the writer's coding of one value (texts through `text_code`)."""

    def __init__(self, source, covered, code):
        self.source, self.code = source, code
        self.values: dict = {}              # a key of State.vars -> (its ValueSlot, its first cell)
        for name, slot in getattr(source, "value_vars", {}).items():
            size = source.hashed_size() if slot.hashed else len(cells_of(slot.axes)) * slot.cell_size
            covered[slot.offset:slot.offset + size] = True
            for k, indexes in enumerate(cells_of(slot.axes)):
                self.values[keyed(name, indexes)] = (slot, slot.offset + k * slot.cell_size)
        self.reals: dict = {}               # a key of State.vars -> (its numerator's cell, its denominator's)
        for name, (slot, cells, _) in getattr(source, "real_vars", {}).items():
            covered[slot.offset:slot.offset + 2 * cells] = True
            for k, indexes in enumerate(cells_of(slot.axes)):
                self.reals[keyed(name, indexes)] = (slot.offset + k, slot.offset + cells + k)
        self.text_base = getattr(source, "text_base", None)
        self.static_texts = dict(getattr(source, "text_codes", {}))
        if self.text_base is not None:
            covered[self.text_base:self.text_base + 2 + 2 * PLAYED_TEXTS + PLAYED_CHARS] = True
        self.created = list(getattr(source, "created_types", ()))
        if self.created:
            for region, at in source.created_at.items():
                size = 1 + source.game.component_maximum[region[6:]] if region.startswith("ITEMS_") else source.components
                covered[at:at + size] = True
        self.played: dict = {}              # the texts made in play of the state being written -> their codes

    def write_defaults(self, template) -> None:
        """The variables' first values (State.vars leaves out a variable at its first value)."""
        defaults = self.source.game.var_defaults
        for key, (slot, at) in self.values.items():
            self.write_value(key, slot, at, defaults[key if key.__class__ is str else key[0]], template)
        for key, (numerator, denominator) in self.reals.items():
            default = defaults[key if key.__class__ is str else key[0]]
            template[numerator], template[denominator] = default.numerator, default.denominator

    # ---- variables -------------------------------------------------------------------------
    def write_var(self, key, value, S) -> bool:
        """A set, a map or a real variable's value into S: whether the key is one of those."""
        found = self.values.get(key)
        if found is not None:
            self.write_value(key, found[0], found[1], value, S)
            return True
        cells = self.reals.get(key)
        if cells is None:
            return False
        if value is None or abs(value.numerator) > REAL_LIMIT or value.denominator > REAL_LIMIT:
            raise Unwritable(f"{key!r}: {value!r}")
        S[cells[0]], S[cells[1]] = value.numerator, value.denominator
        return True

    def write_value(self, key, slot, at: int, value, S) -> None:
        if value is None:
            raise Unwritable(f"{key!r}: none")
        t, held = slot.type, held_type(slot.type)
        if slot.hashed:
            S[at:at + self.source.hashed_size()] = 0
            for k in value:
                coded = self.code(value[k], t.value) if slot.is_map else 0
                hashed_put(S, at, [self.code(v, held.element) for v in k], coded)
            return
        codes = {self.code(k, held): k for k in value}
        keys = sorted(codes)
        if slot.bits:
            first, size = slot.bits
            if any(not 0 <= k - first < size for k in keys):
                raise Unwritable(f"{key!r}: {value!r}")
            S[at] = sum(1 << (k - first) for k in keys)
            return
        if len(keys) > slot.room:
            raise Unwritable(f"{key!r}: {len(keys)} values")
        S[at:at + slot.cell_size] = 0
        S[at] = len(keys)
        S[at + 1:at + 1 + len(keys)] = keys
        if slot.is_map:
            S[at + 1 + slot.room:at + 1 + slot.room + len(keys)] = [self.code(value[codes[k]], t.value) for k in keys]

    # ---- texts -----------------------------------------------------------------------------
    def text_code(self, text: str) -> int:
        """A text's code: the kernel's own, or one made in play (put in S's table by `end`)."""
        code = self.static_texts.get(text)
        if code is None:
            code = self.played.get(text)
        if code is None:
            if self.text_base is None or len(self.played) == PLAYED_TEXTS:
                raise Unwritable(f"the text {text!r}")
            code = self.played[text] = len(self.static_texts) + len(self.played)
        return code

    def begin(self) -> None:
        self.played = {}

    def end(self, S) -> None:
        """The texts made in play that the state holds, into S's table (text_found's form)."""
        if not self.played:
            return
        base, used = self.text_base, 0
        for k, text in enumerate(self.played):
            chars = [ord(c) for c in text]
            if used + len(chars) > PLAYED_CHARS:
                raise Unwritable("texts past the table's room")
            S[base + 2 + k] = used
            S[base + 2 + PLAYED_TEXTS + k] = len(chars)
            start = base + 2 + 2 * PLAYED_TEXTS + used
            S[start:start + len(chars)] = chars
            used += len(chars)
        S[base], S[base + 1] = len(self.played), used

    # ---- components created in play ------------------------------------------------------------
    def fits_components(self, entities, reference) -> bool:
        """Whether the kernel holds these components: the setup's, then ids of created types."""
        source = self.source
        if len(entities) > source.components:
            return False
        static = getattr(source, "static_components", len(reference))
        if any(e["__type__"] != reference[x] for x, e in enumerate(entities[:static])):
            return False
        return all(e["__type__"] in self.created for e in entities[static:])

    def ids_of(self, s, type_name: str):
        """The ids whose columns are written: a created type's destroyed ones too (the kernel
        keeps their attributes, which later creations' classes read)."""
        if type_name in self.created:
            return [x for x, e in enumerate(s.entities) if e["__type__"] == type_name]
        return s.by_type.get(type_name, ())

    def write_created(self, s, S) -> None:
        """Each id's type, classes and shape, and each created type's components in play."""
        if not self.created:
            return
        source, entities = self.source, s.entities
        at = source.created_at
        static = source.static_components
        for x, e in enumerate(entities):
            S[at["KIND"] + x] = source.component_types.index(e["__type__"])
            S[at["LABEL"] + x] = source.label_class[x]
            S[at["SAME"] + x] = source.same_class[x]
            if e["__type__"] in self.created:
                shape = source.shapes.get(source.shape_of(e)) if x >= static else source.static_shapes[x]
                if shape is None:
                    raise Unwritable(f"component {x}'s attributes")
                S[at["SHAPE"] + x] = shape
        for type_name in self.created:
            items = list(s.by_type.get(type_name, ()))
            if len(items) > source.game.component_maximum[type_name]:
                raise Unwritable(f"{len(items)} of {type_name}")
            first = at[f"ITEMS_{type_name}"]
            S[first] = len(items)
            S[first + 1:first + 1 + len(items)] = items
            self.write_classes(type_name, entities, S)

    def write_classes(self, type_name: str, entities, S) -> None:
        """classes_T of created_source.py, over the ids of a created type in the order they were made."""
        source, at = self.source, self.source.created_at
        kind = source.component_types.index(type_name)
        fields = {f.name: source.game.compiler.declared_type(f.type) for f in source.game.types.components[type_name].fields}
        columns = [(attribute, offset) for (t, attribute), offset in source.columns.items() if t == type_name]
        template = source.game.label_templates.get(type_name)
        if template:
            shown = {part.inside for part in parse_template(template).parts if not isinstance(part, str) and part.named}
            labelled = [(a, o) for a, o in columns if a in shown]
        else:
            labelled = [(a, o) for a, o in columns if a != "owner"]
        by_label = [named_type(fields.get(a, OWNER)) in source.ids_of_type for a, _ in labelled]

        def label_of(v):
            return S[at["LABEL"] + v] if v >= 0 else -1

        def alike(y, x) -> bool:
            if not template and S[at["SHAPE"] + y] != S[at["SHAPE"] + x]:
                return False
            return all(label_of(S[o + y]) == label_of(S[o + x]) if component else S[o + y] == S[o + x]
                       for (_, o), component in zip(labelled, by_label))

        def same(y, x) -> bool:
            shapes = source.shape_sets
            return shapes[S[at["SHAPE"] + y]] == shapes[S[at["SHAPE"] + x]] and all(S[o + y] == S[o + x] for _, o in columns)

        for x, e in enumerate(entities):
            if e["__type__"] != type_name:
                continue
            label, identity = x, x
            for y in range(x):
                if S[at["KIND"] + y] != kind:
                    continue
                if label == x and alike(y, x):
                    label = S[at["LABEL"] + y]
                if identity == x and same(y, x):
                    identity = S[at["SAME"] + y]
                if label != x and identity != x:
                    break
            S[at["LABEL"] + x], S[at["SAME"] + x] = label, identity


__all__ = ["StateCells", "Unwritable", "cells_of", "hashed_put"]
