"""The state of a game as fixed-size typed numpy arrays, what a native kernel plays on: each
variable an int64 array over its index domains, each zone family an array of component ids with
its lengths, the components' attributes as columns, the flow's fields (pc, current, turn...),
its environment, the winners, reveals and the random state.

`Layout.of(game)` reads the sizes from the program (the declarations' types and index domains,
the components the setup makes); `to_arrays(state)` and `from_arrays(game, arrays)` go there
and back. What has no fixed size (a list, a text, a fraction, a simultaneous step's sealed
moves) is listed in `layout.unfit` with the rules line that declares it, and travels boxed, as
Python values, beside the arrays: that list is what a native renderer must handle or refuse.
"""
from __future__ import annotations

from typing import Any

import attrs
import numpy as np
from referee.dsl import ast
from referee.dsl.types import BOOL, INT, OWNER, PLAYER, OptionalOf, Type, named_type, type_of

from ..compile import ir
from ..compile.render_native import FLOW_FIELDS, Places, VarPlace
from ..compile.render_native_writes import ERRORS
from ..engine.views import index_values
from ..runtime import LOOP_CAP, MAX_STEP_ROUNDS, MAX_STEP_WORK
from ..runtime.errors import RulesRuntimeError, UnlocatedRulesError
from ..runtime.writes import set_attribute

NONE = -1                                # none, for values stored as a seat, a member or a component
INT_NONE = int(np.iinfo(np.int64).min)   # none, for an optional int
TRAILS = "trails"                        # boxed: the move names, what the others saw, the log


class LayoutError(Exception):
    """A state the layout cannot hold: a value beyond its type's coding, a step stopped at a
    choice, components other than those of the game's setup."""


@attrs.frozen
class Unfit:
    """A value with no fixed-size layout: its name in the boxed values, why, and where the rules
    declare it (or a step that may stop at a choice, which no array holds)."""
    name: str
    why: str
    span: Any

    def note(self) -> str:
        where = f"{self.span.file}:{self.span.line}: " if self.span is not None else ""
        return f"{where}{self.name}: {self.why}"


@attrs.frozen
class Coding:
    """How the values of one type are stored in an int64: ints as they are (INT_NONE: none),
    bools as 0/1, seats as numbers, an enum's members by position, components and cells by
    id (NONE: none)."""
    type: Type
    kind: str                     # int, bool, seat, member, entity
    members: tuple = ()

    def encode(self, value) -> int:
        if value is None:
            if not isinstance(self.type, OptionalOf):
                raise LayoutError(f"none where a {self.type.text} is stored")
            return INT_NONE if self.kind == "int" else NONE
        if self.kind == "member":
            return self.members.index(value)
        if value.__class__ not in (int, bool) or not INT_NONE < value <= np.iinfo(np.int64).max:
            raise LayoutError(f"{value!r} does not fit the int64 of a {self.type.text}")
        return int(value)

    def decode(self, number: int):
        number = int(number)
        if number == (INT_NONE if self.kind == "int" else NONE) and isinstance(self.type, OptionalOf):
            return None
        if self.kind == "bool":
            return bool(number)
        if self.kind == "member":
            return self.members[number]
        return number


def coding_of(game, t: Type) -> Coding | None:
    """The coding of the rules type t, or None when it has no fixed size (list, text, real)."""
    base, named = t.without_none(), named_type(t)
    if base == INT:
        return Coding(t, "int")
    if base == BOOL:
        return Coding(t, "bool")
    if base == PLAYER:
        return Coding(t, "seat")
    if named in game.types.components or named in game.geometries:
        return Coding(t, "entity")
    if named in game.enum_members:
        return Coding(t, "member", tuple(game.enum_members[named]))
    return None


@attrs.frozen
class Family:
    """A variable or a zone family: its index domains (each a tuple of values, in order)."""
    name: str
    axes: tuple
    positions: tuple            # per axis, value -> position

    @property
    def shape(self) -> tuple:
        return tuple(len(axis) for axis in self.axes)

    def where(self, key) -> tuple:
        indexes = () if key.__class__ is str else key[1:]
        try:
            return tuple(positions[value] for positions, value in zip(self.positions, indexes))
        except KeyError:
            raise LayoutError(f"{key!r} is outside the declared indexes of {self.name}") from None

    def keys(self):
        """Every key of the family, in the order of its array's cells."""
        if not self.axes:
            yield self.name
            return
        for cell in np.ndindex(*self.shape):
            yield (self.name, *(axis[k] for axis, k in zip(self.axes, cell)))


def family(game, reference, name: str, index_types: list) -> Family | None:
    axes = tuple(tuple(index_values(reference, name, k, t)) for k, t in enumerate(index_types))
    if any(not axis for axis in axes):
        return None
    return Family(name, axes, tuple({value: k for k, value in enumerate(axis)} for axis in axes))


@attrs.frozen
class EnvSlot:
    """An entry of the flow's environment: a seat of `turns`, a loop's progress (its values, at
    most `capacity`, and the next position), a loop variable or a `let` of the flow."""
    key: str
    kind: str                   # value, loop, simultaneous
    coding: Coding
    capacity: int = 0
    arguments: int = 0          # simultaneous: the most arguments of a sealed move


@attrs.define
class Layout:
    game: Any
    reference: Any                                  # the state of seed 0 after the setup
    components: int = 0
    vars: dict = attrs.Factory(dict)                # name -> (Family, Coding, default)
    zones: dict = attrs.Factory(dict)               # name -> (Family, capacity)
    columns: dict = attrs.Factory(dict)             # (type, attribute) -> Coding
    env: dict = attrs.Factory(dict)                 # key -> EnvSlot
    scalars: list = attrs.Factory(list)             # the env keys stored in the array "env", in order
    loops: list = attrs.Factory(list)               # the env keys of loops' progress, rows of "loops"
    unfit: list = attrs.Factory(list)               # Unfit, in the order of the rules
    static_text: list = attrs.Factory(list)         # (type, attribute) of texts no statement changes
    boxed_attributes: dict = attrs.Factory(dict)    # the unfit's name -> the attribute it boxes

    @classmethod
    def of(cls, game) -> "Layout":
        layout = cls(game, game.new_initial_state(0))
        layout.components = len(layout.reference.entities)
        layout.read_vars()
        layout.read_zones()
        layout.read_columns()
        layout.read_env()
        layout.read_steps()
        return layout

    def unfit_value(self, name: str, why: str, span) -> None:
        self.unfit.append(Unfit(name, why, span))

    def read_vars(self) -> None:
        game = self.game
        for name, (_, _, index_types, t) in game.var_meta.items():
            declared = game.types.vars[name]
            coding, where = coding_of(game, t), family(game, self.reference, name, index_types)
            if coding is None or where is None:
                why = f"a {t.text}" if coding is None else "an index with no finite domain"
                self.unfit_value(f"var {name}", f"{why}: no fixed size", declared.span)
                continue
            self.vars[name] = (where, coding, game.var_defaults[name])

    def read_zones(self) -> None:
        game, by_type = self.game, self.reference.by_type
        for name, (_, _, _, index_types) in game.zone_meta.items():
            declared = game.types.zones[name]
            where = family(game, self.reference, name, index_types)
            if where is None:
                self.unfit_value(f"zone {name}", "an index with no finite domain: no fixed size", declared.span)
                continue
            element = named_type(type_of(declared.element_type))
            capacity = len(by_type[element]) if element in game.types.components else self.components
            self.zones[name] = (where, capacity)

    def read_columns(self) -> None:
        game = self.game
        changed = game.types.changed_attributes
        for type_name, component in game.types.components.items():
            fields = [(f.name, game.compiler.declared_type(f.type), f.span) for f in component.fields]
            for attribute, t, span in fields + [("owner", OWNER, component.span)]:
                coding = coding_of(game, t)
                if coding is not None:
                    self.columns[(type_name, attribute)] = coding
                elif attribute in changed:
                    self.box_attribute(f"attribute {type_name}.{attribute}", attribute, f"a {t.text} that statements change",
                                       span)
                else:
                    self.static_text.append((type_name, attribute))
        fields = {f.name for c in game.types.components.values() for f in c.fields} | {"owner"}
        for attribute in sorted(changed - fields):
            self.box_attribute(f"attribute {attribute}", attribute, "changed on board cells: no column", None)

    def box_attribute(self, name: str, attribute: str, why: str, span) -> None:
        self.unfit_value(name, why, span)
        self.boxed_attributes[name] = attribute

    def read_env(self) -> None:
        game, checked = self.game, game_checked(self.game)
        binders = {node.span: node.binder for node in ast.walk(game.program.flow)
                   if isinstance(node, (ast.For, ast.Simultaneous))} if game.program.flow is not None else {}
        for ins in game.flow:
            if ins.op == "turns_init":
                self.add_env(EnvSlot(ins.key, "value", Coding(PLAYER, "seat")))
            elif ins.op in ("for_init", "simultaneous"):
                binder = binders.get(ins.span)
                t = checked.local_types.get(binder.span) if binder is not None else None
                coding = coding_of(game, t) if t is not None else None
                capacity = self.domain_size(coding, binder)
                if coding is None or capacity is None:
                    what = f"a loop over {t.text if t is not None else 'values'} with no finite domain"
                    self.unfit_value(f"env {ins.key}", what, ins.span)
                    self.unfit_value(f"env {ins.name}", what, ins.span)
                    continue
                if ins.op == "simultaneous":
                    most = max(len(game.actions[i].binders) for i in ins.actions)
                    arguments = [coding_of(game, game.actions[i].binders[k][3]) for i in ins.actions
                                 for k in range(len(game.actions[i].binders))]
                    if any(a is None for a in arguments):
                        self.unfit_value(f"env {ins.key}", "sealed moves with arguments of no fixed size", ins.span)
                        continue
                    self.add_env(EnvSlot(ins.key, "simultaneous", coding, capacity, most))
                else:
                    self.add_env(EnvSlot(ins.key, "loop", coding, capacity))
                self.add_env(EnvSlot(ins.name, "value", coding), binder.span)
        if game.program.flow is not None:
            for node in ast.walk(game.program.flow):
                if isinstance(node, ast.Let):
                    t = checked.local_types.get(node.span)
                    coding = coding_of(game, t) if t is not None else None
                    if coding is None:
                        self.unfit_value(f"env {node.name}", f"a {t.text if t else 'value'} of no fixed size",
                                         node.span)
                    else:
                        self.add_env(EnvSlot(node.name, "value", coding), node.span)

    def read_steps(self) -> None:
        """The steps that may stop at a choice (`choose`): stopped, the rest of the step is a
        Python generator's; to_arrays refuses a state stopped in one."""
        game, why = self.game, "may stop at a choice: the rest of the step is a Python generator"
        for action in game.actions:
            if action.may_choose:
                self.unfit_value(f"action {action.name}", why, action.span)
        for ins in game.flow:
            if ins.op == "effect" and ins.may_choose:
                self.unfit_value("flow step", why, ins.span)
        if game.triggers_may_choose:
            self.unfit_value("triggers", why, game.trigger_span)

    def add_env(self, slot: EnvSlot, span=None) -> None:
        known = self.env.get(slot.key)
        if known is not None and (known.coding.kind, known.coding.members) != (slot.coding.kind, slot.coding.members):
            del self.env[slot.key]
            self.scalars.remove(slot.key)
            self.unfit_value(f"env {slot.key}", "a flow local bound with values of two types", span)
        elif known is not None and isinstance(slot.coding.type, OptionalOf):
            self.env[slot.key] = slot       # (the same coding, none allowed)
        elif known is None and not any(u.name == f"env {slot.key}" for u in self.unfit):
            self.env[slot.key] = slot
            if slot.kind == "value":
                self.scalars.append(slot.key)
            elif slot.kind == "loop":
                self.loops.append(slot.key)

    def domain_size(self, coding: Coding | None, binder) -> int | None:
        if coding is None or binder is None:
            return None
        game, base = self.game, named_type(coding.type)
        if coding.kind == "seat":
            return game.num_players
        if coding.kind == "member":
            return len(coding.members)
        if base in game.geometries:
            return len(game.geometries[base].cells)
        if base in game.types.components:
            return len(self.reference.by_type.get(base, ()))
        try:
            return len(game.compiler.constant(binder.domain))
        except Exception:       # a domain that depends on the state: no size known before
            return None

    def places(self, calls: frozenset[str] = frozenset()) -> Places:
        """Where the native renderer finds the environment's entries and the variables (with
        the calls it may make, and the runtime's constants)."""
        return Places({key: k for k, key in enumerate(self.scalars)}, calls, {"LOOP_CAP": LOOP_CAP, **self.constants()},
                      {key: k for k, key in enumerate(self.loops)},
                      {name: place for name, place in ((name, self.var_place(name)) for name in self.vars) if place},
                      {name: place for name, place in ((name, self.axes_place(self.zones[name][0])) for name in self.zones)
                       if place},
                      {f"_A{k}": (name, self.attribute_place(name)) for name, k in self.game.column_index.items()
                       if self.attribute_codings(name)},
                      {t: (ids[0], len(ids)) for t, ids in self.reference.by_type.items()
                       if ids and list(ids) == list(range(ids[0], ids[0] + len(ids)))},
                      tuple(self.zones), parameters=self.parameter_nones())

    def parameter_nones(self) -> dict:
        """The generated functions' parameters (L_NAME) whose type codes none: that code. The
        rules' functions and procedures (fn_, proc_), and the actions' arguments (act_, guard_,
        act_legal_)."""
        game, out = self.game, {}
        for prefix, table in (("fn_", game.types.functions), ("proc_", game.types.procedures)):
            for name, declared in table.items():
                out[f"{prefix}{name}"] = self.nones_of((p.name, game.compiler.declared_type(p.type))
                                                       for p in declared.parameters)
        for action in game.actions:
            nones = self.nones_of((b[0], b[3]) for b in action.binders)
            for prefix in ("act_", "guard_", "act_legal_"):
                out[f"{prefix}{action.name}"] = nones
        return out

    def nones_of(self, typed) -> dict:
        out = {}
        for name, t in typed:
            coding = coding_of(self.game, t)
            if coding is not None and coding.kind != "bool":
                out[f"L_{name}"] = INT_NONE if coding.kind == "int" else NONE
        return out

    def constants(self) -> dict:
        """The values the compiler bound in the module that are whole numbers, or sequences or
        sets of them (seats, a range's values): written in place natively (a set sorted)."""
        out: dict = {}
        for name, value in self.game.compiler.codegen.namespace.items():
            if value.__class__ in (tuple, list, frozenset, set):
                items = list(value)
                if items and all(v.__class__ is int and INT_NONE < v <= np.iinfo(np.int64).max for v in items):
                    out[name] = tuple(sorted(items) if value.__class__ in (frozenset, set) else items)
            elif value.__class__ is int and name.startswith("_"):
                out[name] = value
        return out

    def attribute_codings(self, name: str) -> list:
        """The codings of attribute `name` in the columns of the types that have it, if they
        agree (one array, attr_NAME, holds it for every component), else []."""
        codings = [coding for (_, attribute), coding in self.columns.items() if attribute == name]
        if not codings or len({(c.kind, c.members) for c in codings}) > 1:
            return []
        return codings

    def attribute_place(self, name: str) -> VarPlace:
        coding = self.attribute_codings(name)[0]
        return VarPlace(none=INT_NONE if coding.kind == "int" else NONE, members=coding.members)

    def attribute_arrays(self, fixed: dict) -> dict:
        """attr_NAME for each attribute of one coding: its columns merged over every component
        (none's code for those without it)."""
        out = {}
        for name in dict.fromkeys(attribute for _, attribute in self.columns):
            if not self.attribute_codings(name):
                continue
            merged = np.full(self.components, self.attribute_place(name).none, dtype=np.int64)
            for (type_name, attribute) in self.columns:
                if attribute == name:
                    ids = self.reference.by_type.get(type_name, ())
                    merged[list(ids)] = fixed[f"column.{type_name}.{attribute}"][list(ids)]
            out[f"attr_{name}"] = merged
        return out

    def arguments(self, fixed: dict, parameters, cov=None) -> list:
        """The arrays of `fixed` (to_arrays) for a native function's state parameters, by name
        (render_native's header): the flow's, var_NAME, zone_NAME(_len), attr_NAME."""
        attributes = self.attribute_arrays(fixed) if any(p.startswith("attr_") for p in parameters) else {}
        named = {"flow": "flow", "env": "env", "env_has": "env.has", "loops": "loops", "loop_values": "loop.values",
                 "loc": "loc", "winners": "winners", "winners_len": "winners.len", "rng": "rng", "shown": "shown"}
        out = []
        for p in parameters:
            if p == "err":
                out.append(np.zeros(3, dtype=np.int64))
            elif p == "step":       # (a step's budgets, as the engine sets them before each step)
                out.append(np.array([MAX_STEP_ROUNDS, MAX_STEP_WORK], dtype=np.int64))
            elif p == "cov":
                out.append(np.zeros(1, dtype=np.int64) if cov is None else cov)
            elif p in named:
                out.append(fixed[named[p]])
            elif p.startswith("attr_"):
                out.append(attributes[p])
            elif p.startswith("zone_") and p.endswith("_len") and p[len("zone_"):-len("_len")] in self.zones:
                out.append(fixed[f"zone.{p[len('zone_'):-len('_len')]}.len"])
            elif p.startswith(("zone_", "var_")):
                out.append(fixed[p.replace("_", ".", 1)])
            else:
                raise KeyError(p)
        return out

    def columns_from_attributes(self, fixed: dict, attributes: dict) -> None:
        """The attr_NAME arrays a native function wrote, back into the columns of `fixed`."""
        for (type_name, attribute) in self.columns:
            merged = attributes.get(f"attr_{attribute}")
            if merged is not None:
                ids = list(self.reference.by_type.get(type_name, ()))
                fixed[f"column.{type_name}.{attribute}"][ids] = merged[ids]

    def runtime_error(self, places: Places, err, s) -> Exception:
        """The error Python raises where a native function stopped with err (its site, its
        value): the runtime's error function called with the site's arguments, on state s."""
        site, value = int(err[0]), int(err[1])
        if site == -2:
            return UnlocatedRulesError(f"the winners must be players of this game (1..{self.game.num_players}), "
                                       f"not {'none' if value == NONE else value}")
        if not 1 <= site <= len(places.errors):
            return RulesRuntimeError(f"a native function stopped with err {site}")
        call, none = places.errors[site - 1]
        namespace = self.game.compiler.codegen.namespace
        args = []
        for k, arg in enumerate(call.args):
            if k == ERRORS[call.function]:
                args.append(None if value == none else value)
            elif isinstance(arg, ir.Constant):
                args.append(arg.value)
            elif isinstance(arg, ir.Global):
                args.append(namespace[arg.name])
            else:
                args.append(s)
        try:
            namespace[call.function](*args)
        except RulesRuntimeError as error:
            return error
        return RulesRuntimeError(f"{call.function} did not stop as the native function did")

    def var_place(self, name: str) -> VarPlace | None:
        """Where a variable's entries are, when each index is a run of whole numbers (seats, a
        range, cells or components of consecutive ids) or an enum's members, else None."""
        where, coding, _ = self.vars[name]
        place = self.axes_place(where)
        if place is None:
            return None
        none = INT_NONE if coding.kind == "int" else NONE
        return VarPlace(place.offsets, place.axis_members, none, coding.members)

    def axes_place(self, where: Family) -> VarPlace | None:
        """How a family's keys are placed in its array (see var_place), or None."""
        offsets, members = [], []
        for axis in where.axes:
            if all(v.__class__ is int for v in axis) and list(axis) == list(range(axis[0], axis[0] + len(axis))):
                offsets.append(axis[0])
                members.append(None)
            elif any(list(axis) == values for values in self.game.enum_members.values()):
                offsets.append(0)
                members.append(tuple(axis))
            else:
                return None
        return VarPlace(tuple(offsets), tuple(members))

    # ---- the arrays ---------------------------------------------------------------------------
    def shapes(self) -> dict:
        """Each array's name -> (shape, dtype)."""
        n, players = self.components, self.game.num_players
        widest = max((self.env[key].capacity for key in self.loops), default=0)
        out: dict = {"flow": ((len(FLOW_FIELDS),), np.int64), "rng": ((1,), np.uint64),
                     "winners": ((players,), np.int64), "winners.len": ((1,), np.int64),
                     "shown": ((n, players + 1), np.bool_),
                     # where each component is: its zone family (a position in self.zones, -1: none), its cell (flat)
                     "loc": ((n, 2), np.int64),
                     "env": ((len(self.scalars),), np.int64), "env.has": ((len(self.scalars),), np.bool_),
                     # per loop of the flow: (present, length, next position), and its values
                     "loops": ((len(self.loops), 3), np.int64), "loop.values": ((len(self.loops), widest), np.int64)}
        for name, (where, _, _) in self.vars.items():
            out[f"var.{name}"] = (where.shape, np.int64)
        for name, (where, capacity) in self.zones.items():
            out[f"zone.{name}"] = (where.shape + (capacity,), np.int64)
            out[f"zone.{name}.len"] = (where.shape, np.int64)
            out[f"zone.{name}.made"] = (where.shape, np.bool_)
        for type_name, attribute in self.columns:
            out[f"column.{type_name}.{attribute}"] = ((n,), np.int64)
        for key, slot in self.env.items():
            if slot.kind == "simultaneous":
                out[f"env.{key}.remaining"] = ((slot.capacity + 2,), np.int64)   # present, length, seats
                out[f"env.{key}.sealed"] = ((slot.capacity, 2 + slot.arguments), np.int64)
                out[f"env.{key}.sealed.len"] = ((1,), np.int64)
        return out

    def empty(self) -> dict:
        return {name: np.zeros(shape, dtype) for name, (shape, dtype) in self.shapes().items()}


def game_checked(game):
    return game.compiler.checked


@attrs.frozen
class Arrays:
    """A state as arrays (`fixed`, named as Layout.shapes names them) and the values the layout
    cannot hold (`boxed`: by the names of Layout.unfit, and the trails)."""
    fixed: dict
    boxed: dict


def to_arrays(layout: Layout, s) -> Arrays:
    """The state as arrays; LayoutError if it holds what they cannot."""
    if s.pending is not None:
        raise LayoutError("a step stopped at a choice (its continuation is Python's)")
    if len(s.entities) != layout.components:
        raise LayoutError(f"{len(s.entities)} components, not the {layout.components} of the setup")
    a, boxed = layout.empty(), {}
    a["flow"][:] = [s.pc, s.current, s.turn, int(s.extra), int(s.terminal)]
    a["rng"][0] = np.uint64(s.rng)
    a["loc"][:] = NONE
    families = {name: k for k, name in enumerate(layout.zones)}
    for x, key in enumerate(s.loc):
        name = None if key is None else key if key.__class__ is str else key[0]
        if name in layout.zones:
            where = layout.zones[name][0]
            a["loc"][x] = (families[name], np.ravel_multi_index(where.where(key), where.shape) if where.shape else 0)
    a["winners.len"][0] = len(s.winners)
    a["winners"][:len(s.winners)] = s.winners
    for x, seats in s.shown_to.items():
        a["shown"][x, list(seats)] = True
    for name, (where, coding, default) in layout.vars.items():
        array = a[f"var.{name}"]
        array[...] = coding.encode(default)
    for key, value in s.vars.items():
        name = key if key.__class__ is str else key[0]
        if name in layout.vars:
            where, coding, _ = layout.vars[name]
            a[f"var.{name}"][where.where(key)] = coding.encode(value)
        else:
            boxed.setdefault(f"var {name}", {})[key] = value
    for key, items in s.zones.items():
        name = key if key.__class__ is str else key[0]
        if name not in layout.zones:
            boxed.setdefault(f"zone {name}", {})[key] = list(items)
            continue
        where, capacity = layout.zones[name]
        cell = where.where(key)
        a[f"zone.{name}"][cell][:len(items)] = items
        a[f"zone.{name}.len"][cell] = len(items)
        a[f"zone.{name}.made"][cell] = True
    reference = layout.reference.entities
    for x, entity in enumerate(s.entities):
        if entity["__type__"] != reference[x]["__type__"]:
            raise LayoutError(f"component {x} is a {entity['__type__']}, not the setup's {reference[x]['__type__']}")
        for attribute in (a_ for t, a_ in layout.static_text if t == entity["__type__"]):
            if entity.get(attribute) != reference[x].get(attribute):
                raise LayoutError(f"component {x}'s {attribute} is not the setup's")
    for (type_name, attribute), coding in layout.columns.items():
        column = a[f"column.{type_name}.{attribute}"]
        for x in s.by_type.get(type_name, ()):
            column[x] = coding.encode(s.entities[x].get(attribute))
    for name, attribute in layout.boxed_attributes.items():
        boxed[name] = {x: e.get(attribute) for x, e in enumerate(s.entities) if attribute in e}
    env_to_arrays(layout, s.env, a, boxed)
    boxed[TRAILS] = (list(s.history), list(s.public_history), list(s.log))
    return Arrays(a, boxed)


def env_to_arrays(layout: Layout, env: dict, a: dict, boxed: dict) -> None:
    for key, value in env.items():
        slot = layout.env.get(key)
        if slot is None:
            boxed[f"env {key}"] = value
        elif slot.kind == "value":
            k = layout.scalars.index(key)
            a["env"][k], a["env.has"][k] = slot.coding.encode(value), True
        elif slot.kind == "loop":
            values, position = value
            if len(values) > slot.capacity:
                raise LayoutError(f"a loop over {len(values)} values, more than its domain's {slot.capacity}")
            row = layout.loops.index(key)
            a["loop.values"][row, :len(values)] = [slot.coding.encode(v) for v in values]
            a["loops"][row] = (1, len(values), position)
        else:
            remaining, sealed = value
            a[f"env.{key}.remaining"][:2 + len(remaining)] = (1, len(remaining), *remaining)
            moves = a[f"env.{key}.sealed"]
            for row, (player, index, args) in enumerate(sealed):
                codings = [coding_of(layout.game, b[3]) for b in layout.game.actions[index].binders]
                moves[row, :2 + len(args)] = (player, index, *(c.encode(v) for c, v in zip(codings, args)))
            a[f"env.{key}.sealed.len"][0] = len(sealed)


def from_arrays(layout: Layout, arrays: Arrays):
    """The state the arrays hold: a new State of the layout's game, its caches made anew."""
    game, a, boxed = layout.game, arrays.fixed, arrays.boxed
    reference = layout.reference
    s = game.empty_state(0)
    s.entities = list(reference.entities)
    s.columns = [column[:] for column in reference.columns]
    s.by_type = {k: list(v) for k, v in reference.by_type.items()}
    s.pc, s.current, s.turn, extra, terminal = (int(v) for v in a["flow"])
    s.extra, s.terminal = bool(extra), bool(terminal)
    s.rng = int(a["rng"][0])
    s.winners = [int(p) for p in a["winners"][:int(a["winners.len"][0])]]
    s.shown_to = {int(x): frozenset(int(p) for p in np.flatnonzero(row)) for x, row in enumerate(a["shown"])
                  if row.any()}
    for (type_name, attribute), coding in layout.columns.items():
        column = a[f"column.{type_name}.{attribute}"]
        for x in reference.by_type.get(type_name, ()):
            value = coding.decode(column[x])
            if s.entities[x].get(attribute) != value:
                set_attribute(s, x, attribute, value, None)
    for name, attribute in layout.boxed_attributes.items():
        if name in boxed:
            for x, value in boxed[name].items():
                if s.entities[x].get(attribute) != value:
                    set_attribute(s, x, attribute, value, None)
    s.vars = {}
    for name, (where, coding, default) in layout.vars.items():
        array = a[f"var.{name}"]
        for key, number in zip(where.keys(), array.reshape(-1)):
            value = coding.decode(number)
            if value != default or value.__class__ is not default.__class__:
                s.vars[key] = value
    s.zones = {}
    for name, (where, _) in layout.zones.items():
        items, lengths, made = a[f"zone.{name}"], a[f"zone.{name}.len"], a[f"zone.{name}.made"]
        for key, cell in zip(where.keys(), np.ndindex(*where.shape)):
            if made[cell]:
                s.zones[key] = [int(x) for x in items[cell][:lengths[cell]]]
    for name, value in boxed.items():
        if name.startswith("var "):
            s.vars.update(value)
        elif name.startswith("zone "):
            s.zones.update({key: list(items) for key, items in value.items()})
    s.loc = [None] * len(s.entities)
    for key, items in s.zones.items():
        for x in items:
            s.loc[x] = key
    s.owned = s.zones           # every list is this state's own
    s.env = env_from_arrays(layout, a, boxed)
    history, public_history, log = boxed[TRAILS]
    s.history, s.public_history, s.log = list(history), list(public_history), list(log)
    s.changed()                 # the caches (memo, names, value indexes) made from this state
    return s


def env_from_arrays(layout: Layout, a: dict, boxed: dict) -> dict:
    env: dict = {}
    for key, slot in layout.env.items():
        if slot.kind == "value":
            k = layout.scalars.index(key)
            if a["env.has"][k]:
                env[key] = slot.coding.decode(a["env"][k])
        elif slot.kind == "loop":
            row = layout.loops.index(key)
            present, length, position = (int(v) for v in a["loops"][row])
            if present:
                values = tuple(slot.coding.decode(v) for v in a["loop.values"][row, :length])
                env[key] = (values, position)
        else:
            remaining = a[f"env.{key}.remaining"]
            if remaining[0]:
                seats = tuple(int(p) for p in remaining[2:2 + int(remaining[1])])
                sealed = []
                for row in a[f"env.{key}.sealed"][:int(a[f"env.{key}.sealed.len"][0])]:
                    player, index = int(row[0]), int(row[1])
                    codings = [coding_of(layout.game, b[3]) for b in layout.game.actions[index].binders]
                    sealed.append((player, index, tuple(c.decode(v) for c, v in zip(codings, row[2:]))))
                env[key] = (seats, tuple(sealed))
    for name, value in boxed.items():
        if name.startswith("env "):
            env[name[4:]] = value
    return env
