"""A Python state written into a kernel's state array S (the search bots' playouts start there:
rollouts.py). Driven by where the rendered kernel (rules_source.KernelSource) placed each part of
its state, not by a game: the variables, the list variables' rows, each component's zone cell,
the next id `create` gives, the zones' lengths and items, the attribute columns, who saw what,
and the kernel's slots. Every cell of S is accounted for when the writer is made: a kernel that
keeps a part it does not know is refused (NotNative) rather than resumed from a partial state.
A state holding what the kernel's coding cannot (a value outside it, components the setup did
not make) writes as None: that playout stays in Python.
"""
from __future__ import annotations

import numpy as np
from referee.dsl.types import OWNER, TEXT, element_type

from .not_native import NotNative
from .paused_source import FORCED_ROOM
from .state_cells import StateCells, Unwritable, cells_of

# the slots the writer sets: from the state (CURRENT, RNG, EXTRA) or as a game under way has them
# before a playout (0: not over, no winners, no error, no moves yet, no trail work spent)
ZERO_SLOTS = ("TERMINAL", "WINNERS", "ERROR", "STOPPED", "MOVES", "TRAIL_WORK")
STATE_SLOTS = ("CURRENT", "RNG", "EXTRA")


class StateWriter:
    """Writes states of one game into its kernel's array (see the module's docstring)."""

    def __init__(self, source):
        self.source = source
        self.size = source.size
        self.codes: dict = {}               # (a value, its type) -> its code (`code`)
        covered = np.zeros(source.size, dtype=bool)
        self.template = np.zeros(source.size, dtype=np.int64)
        unknown = set(source.slots) - set(ZERO_SLOTS) - set(STATE_SLOTS)
        if unknown:
            raise NotNative(f"the kernel keeps slots a rollout does not write from a Python state yet ({sorted(unknown)})",
                            source.program.game.span)
        covered[list(source.slots.values())] = True
        self.vars: dict = {}                # a key of State.vars -> (its cell, its type)
        for name, slot in source.vars.items():
            cells = self.cells_of(slot.axes)
            covered[slot.offset:slot.offset + len(cells)] = True
            self.template[slot.offset:slot.offset + len(cells)] = slot.default
            for k, indexes in enumerate(cells):
                self.vars[(name, *indexes) if indexes else name] = (slot.offset + k, slot.type)
        self.lists: dict = {}               # a key of a list variable -> (its row, its room, its type)
        for name, slot in getattr(source, "list_vars", {}).items():
            cells = self.cells_of(slot.axes)
            covered[slot.offset:slot.offset + len(cells) * (1 + slot.room)] = True
            for k, indexes in enumerate(cells):
                self.lists[(name, *indexes) if indexes else name] = (slot.offset + k * (1 + slot.room), slot.room, slot.type)
        self.components = source.components
        self.zone_cells: dict = {}          # a key of State.zones -> its cell id
        for name, family in source.zone_families.items():
            for k, indexes in enumerate(self.cells_of(family.axes)):
                self.zone_cells[(name, *indexes) if indexes else name] = family.first_cell + k
        covered[source.loc_at:source.next_id_at + 1] = True
        covered[source.lengths_at:source.lengths_at + source.zone_cells] = True
        self.room = [family.capacity for family in self.families_by_cell()]     # (each zone cell's)
        for at, room in zip(source.items_at, self.room):
            covered[at:at + room] = True
        self.columns = []                   # (offset, component type, attribute, its type) of the columns written
        written = {(t, a) for t, a in source.columns if t in source.game.types.components}
        for (type_name, attribute), offset in source.columns.items():
            covered[offset:offset + self.components] = True
            if (type_name, attribute) in written:
                self.columns.append((offset, type_name, attribute, self.attribute_type(type_name, attribute)))
        for k in source.cell_columns:       # (a board's cells: as the setup made them, never changed)
            offset = list(source.columns.values())[k]
            self.template[offset:offset + self.components] = source.column_values[k]
        self.shown = source.shown_at
        if self.shown is not None:
            covered[self.shown:self.shown + self.components] = True
        if source.depth_cell is not None:   # (the recursion's depth: 0 between moves)
            covered[source.depth_cell] = True
        forced = getattr(source, "forced_at", None)
        if forced is not None:              # (a paused step's forced draws: none, paused_state.py writes them)
            covered[forced:forced + 2 + FORCED_ROOM] = True
        self.cells = StateCells(source, covered, self.code)     # (sets, maps, reals, texts, created)
        self.cells.write_defaults(self.template)
        for key in self.lists:              # (a list variable's first value: State.vars leaves it out)
            self.write_list(key, source.game.var_defaults[key if key.__class__ is str else key[0]], self.template)
        if not covered.all():
            missing = np.flatnonzero(~covered)
            raise NotNative(f"the kernel keeps state that a rollout does not write from a Python state yet "
                            f"({len(missing)} cells from {int(missing[0])})", source.program.game.span)
        self.template[source.loc_at:source.loc_at + self.components] = -1
        self.reference = [e["__type__"] for e in source.game.new_initial_state(0).entities]

    cells_of = staticmethod(cells_of)

    def families_by_cell(self) -> list:
        """Each zone cell's family, by cell id."""
        out = []
        for family in self.source.zone_families.values():
            out += [family] * len(self.cells_of(family.axes))
        return out

    def attribute_type(self, type_name: str, attribute: str):
        if attribute == "owner":
            return OWNER
        component = self.source.game.types.components[type_name]
        field = next(f for f in component.fields if f.name == attribute)
        return self.source.game.compiler.declared_type(field.type)

    def code(self, value, t) -> int:
        """A value coded as the kernel codes a value of type t (each value coded once: a
        search writes the same attribute values at every playout)."""
        if value.__class__ is int and -2 ** 63 < value < 2 ** 63:
            return value
        if value.__class__ is str and t.without_none() == TEXT:
            return self.cells.text_code(value)
        try:
            return self.codes[value, t]
        except (KeyError, TypeError):       # (not coded yet, or a value that is no key: a list)
            pass
        try:
            coded = self.source.code_of(value, t, None)
        except NotNative:
            raise Unwritable(f"{value!r}") from None
        try:
            self.codes[value, t] = coded
        except TypeError:
            pass
        return coded

    def write(self, s) -> np.ndarray | None:
        """The kernel's array of the state s, or None when s holds what the kernel cannot."""
        if not self.cells.fits_components(s.entities, self.reference):
            return None
        S = self.template.copy()
        self.cells.begin()
        try:
            self.write_vars(s, S)
            self.write_zones(s, S)
            self.write_columns(s, S)
            self.cells.write_created(s, S)
            self.cells.end(S)
        except Unwritable:
            return None
        slots = self.source.slots
        S[slots["CURRENT"]] = s.current
        S[slots["RNG"]] = np.uint64(s.rng).astype(np.int64)
        S[slots["EXTRA"]] = int(s.extra)
        S[self.source.next_id_at] = len(s.entities)
        if self.shown is not None:
            for x, seats in s.shown_to.items():
                S[self.shown + x] = sum(1 << p for p in seats)
        return S

    def write_vars(self, s, S) -> None:
        for key, value in s.vars.items():
            cell = self.vars.get(key)
            if cell is not None:
                S[cell[0]] = self.code(value, cell[1])
                continue
            if self.cells.write_var(key, value, S):
                continue
            if key not in self.lists:
                raise Unwritable(f"{key!r}")
            self.write_list(key, value, S)

    def write_list(self, key, value, S) -> None:
        at, room, t = self.lists[key]
        if value is None or len(value) > room:
            raise Unwritable(f"{key!r}: {value!r}")
        element = element_type(t)
        S[at] = len(value)
        S[at + 1:at + 1 + len(value)] = [self.code(v, element) for v in value]

    def write_zones(self, s, S) -> None:
        source = self.source
        for key, items in s.zones.items():
            cell = self.zone_cells.get(key)
            if cell is None or len(items) > self.room[cell]:
                raise Unwritable(f"{key!r}")
            at = source.items_at[cell]
            S[at:at + len(items)] = items
            S[source.lengths_at + cell] = len(items)
            S[source.loc_at + np.asarray(items, dtype=np.int64)] = cell

    def write_columns(self, s, S) -> None:
        entities = s.entities
        for offset, type_name, attribute, t in self.columns:
            for x in self.cells.ids_of(s, type_name):
                value = entities[x].get(attribute)
                S[offset + x] = self.code(value, t)


__all__ = ["StateWriter"]
