"""Components created and destroyed in play in a native kernel (a mixin of
rules_source.KernelSource, beside zones_source.py): the types declared `max N` that an action,
a procedure, a trigger or the flow creates or destroys ("created types").

Ids are the engine's (State.create: the next id, never given again; a destroyed component
keeps its id and its attributes, out of its zone and of its type): the id tables hold the
setup's components (the reference state's) then ROOM more, the ids creations in play may
take in one game: a created type that is never destroyed makes at most its N components, one
destroyed makes at most N + CREATIONS_ROOM (a documented default: the rules do not bound how
often it is made anew). A game that creates past its room sets the error slot and is played
in Python, as a game past its maximum (the engine's error) is.

What the engine keeps per component and a created one must have in S, not in constant tables:
its type (KIND), its label class and identity class (LABEL, SAME: the first id of its type
with the same label, or the same attributes, as zones_source.classes gives the setup's), its
shape (SHAPE: which attributes its `create` gave, in order: the label of a type without a
template lists those, and two components given other attributes are not identical) and, per
created type, the list of its components in play in the order they were made (by_type). A
label is told by its attributes' values (a component's by that one's label class), not by its
text: two values whose texts are alike (a none leaving a template's placeholder empty beside
another) are told apart, where the engine would merge them.
"""
from __future__ import annotations

from referee.dsl import ast
from referee.dsl.templates import parse_template
from referee.dsl.types import INT, OWNER, named_type

from .created_writes import CreatedWritesSource
from .not_native import NotNative

CREATIONS_ROOM = 256        # the ids a destroyed-and-created type may take in one game beyond its N


def untag(node):
    return ast.untag(node)[0]


class CreatedSource(CreatedWritesSource):
    """Created types for KernelSource (its game, program, components, columns, expr...)."""

    # ---- the layout -------------------------------------------------------------------------
    def lay_out_created(self, reference) -> None:
        """Called where the setup's components are counted: the created types, the room for
        their ids (after the setup's), and their places in S."""
        self.static_components = self.components
        self.created_types = self.types_created_in_play()
        self.classes_made: set = set()
        if not self.created_types:
            return
        maximum = self.game.component_maximum
        destroyed = {self.destroyed_type(n) for n in ast.walk(self.program.parts()) if isinstance(n, ast.Destroy)}
        room = sum(maximum[t] + (CREATIONS_ROOM if t in destroyed else 0) for t in self.created_types)
        self.components += room
        first = self.component_types.index(self.created_types[0])     # (never read: kind_read reads S)
        self.type_of_id = self.type_of_id + [first] * room
        shapes: dict = {}
        self.static_shapes = [shapes.setdefault(self.shape_of(e), len(shapes)) if e["__type__"] in self.created_types
                              else -1 for e in reference.entities]
        for node in ast.walk(self.program.parts()):
            if isinstance(node, ast.Create) and node.type_name in self.created_types:
                shapes.setdefault(tuple(i.name for i in node.inits if i.name != "owner"), len(shapes))
        self.shapes = shapes
        sets: dict = {}
        self.shape_sets = [sets.setdefault(frozenset(shape), len(sets)) for shape in shapes]
        self.reclassed: set = set()         # (the types written in play: created_writes.py)
        self.created_at = {}
        for region in ("KIND", "LABEL", "SAME", "SHAPE"):
            self.created_at[region] = self.size
            self.size += self.components
        for type_name in self.created_types:      # (its components in play: how many, then their ids)
            self.created_at[f"ITEMS_{type_name}"] = self.size
            self.size += 1 + maximum[type_name]

    def types_created_in_play(self) -> list:
        """The types declared `max N` that a statement outside the setup creates, or any destroys."""
        setup = set(map(id, ast.walk(self.program.setup))) if self.program.setup is not None else set()
        found = set()
        for node in ast.walk(self.program.parts()):
            if isinstance(node, ast.Create) and node.type_name in self.game.component_maximum and id(node) not in setup:
                found.add(node.type_name)
            if isinstance(node, ast.Destroy):
                found.add(self.destroyed_type(node))
        return [t for t in self.game.types.components if t in found]

    def destroyed_type(self, node) -> str:
        return named_type(self.type_of(node.item).without_none())

    @staticmethod
    def shape_of(entity: dict) -> tuple:
        """The attributes a create gave, in order (the engine's dict: the given ones, then owner)."""
        return tuple(k for k in entity if not k.startswith("__") and k != "owner")

    def zone_room(self, element: str) -> int:
        """The room of a zone cell of this element type: every component of it there may be."""
        if element in getattr(self, "created_types", ()):
            return self.game.component_maximum[element]
        return len(self.ids_of_type[element])

    def pad_created(self) -> None:
        """The constant tables, as long as the ids with the room (a created id's own are in S)."""
        room = self.components - self.static_components
        if not room:
            return
        self.column_values = [values + [0] * room for values in self.column_values]
        self.label_class = self.label_class + [0] * room      # (0: they may look alike, listings merge them)
        self.same_class = self.same_class + [0] * room

    def created_constants(self) -> list:
        if not self.created_types:
            return []
        return [f"STATIC_COMPONENTS = {self.static_components}",
                *(f"{region}_AT = {at}" for region, at in self.created_at.items()),
                *(f"MOST_{t} = {self.game.component_maximum[t]}" for t in self.created_types),
                f"STATIC_SHAPES = np.array({self.static_shapes or [0]!r}, dtype=np.int64)",
                f"SHAPE_SETS = np.array({self.shape_sets or [0]!r}, dtype=np.int64)"]

    def created_setup(self) -> list:
        """The setup's components' type and classes in S (a created one's are written when made)."""
        if not self.created_types:
            return []
        n = self.static_components
        return [f"S[KIND_AT:KIND_AT + {n}] = TYPE_OF_ID[:{n}]", f"S[LABEL_AT:LABEL_AT + {n}] = LABEL_CLASS[:{n}]",
                f"S[SAME_AT:SAME_AT + {n}] = SAME_CLASS[:{n}]", f"S[SHAPE_AT:SHAPE_AT + {n}] = STATIC_SHAPES[:{n}]"]

    # ---- what other mixins read ----------------------------------------------------------------
    def label_read(self, x: str) -> str:
        """A component's label class: the constant table's, or S's where components are created."""
        return f"S[LABEL_AT + {x}]" if self.created_types else f"LABEL_CLASS[{x}]"

    def kind_read(self, x: str) -> str:
        """A component's type: the constant table's, or S's where components are created."""
        return f"S[KIND_AT + {x}]" if self.created_types else f"TYPE_OF_ID[{x}]"

    def same_read(self, x: str) -> str:
        return f"S[SAME_AT + {x}]" if self.created_types else f"SAME_CLASS[{x}]"

    def class_arguments(self) -> str:
        """What a helper that reads classes takes before its own arguments (S, where they are in it)."""
        return "S, " if self.created_types else ""

    def created_items(self, type_name: str, copy: bool):
        """The ids of a created type in play (a copy where the loop's body may change them), else None."""
        if type_name not in getattr(self, "created_types", ()):
            return None
        self.created_helpers()
        return f"type_items{'_copy' if copy else ''}(S, {self.created_at['ITEMS_' + type_name]})"

    # ---- statements ---------------------------------------------------------------------------
    def create_in_play(self, node, scope, fields: dict):
        """`create N T { ... } in Z` of a created type (in the setup too), else None: the engine's
        order (the values, the count, the zone, then each component made and moved there)."""
        type_name = node.type_name
        if type_name not in self.created_types:
            return None
        self.created_helpers()
        values, lines = {}, []
        for init in node.inits:
            if (type_name, init.name) not in self.columns:
                raise NotNative(f"the attribute {init.name} of a {type_name} has no native form yet", init.span)
            var = self.fresh("init")
            lines.append(f"{var} = {self.expr(init.value, scope, fields.get(init.name, OWNER))}")
            values[init.name] = var
        count, x, cell = self.fresh("count"), self.fresh("x"), self.fresh("cell")
        items = self.created_at[f"ITEMS_{type_name}"]
        shape = self.shapes[tuple(i.name for i in node.inits if i.name != "owner")]
        lines += [f"{count} = {self.expr(node.count, scope, INT)}", f"{cell} = {self.zone_cell(node.zone, scope)}",
                  f"for _ in range({count}):", f"    {x} = S[NEXT_ID]",
                  f"    if {x} >= COMPONENTS or S[{items}] >= MOST_{type_name}:     # (past the room, or the maximum)",
                  "        S[ERROR] = 1", "        return", f"    S[NEXT_ID] = {x} + 1",
                  f"    S[KIND_AT + {x}] = {self.component_types.index(type_name)}", f"    S[SHAPE_AT + {x}] = {shape}"]
        for (t, attribute), offset in self.columns.items():
            if t == type_name:
                value = values.get(attribute, self.none_of(fields.get(attribute, OWNER)))
                lines.append(f"    S[{offset} + {x}] = {value}")
        lines += [f"    classes_{type_name}(S, {x})", f"    S[{items} + 1 + S[{items}]] = {x}", f"    S[{items}] += 1",
                  f"    zone_move(S, {x}, {cell}, False)"]
        self.classes_function(type_name, fields)
        return lines

    def classes_function(self, type_name: str, fields: dict) -> None:
        """classes_T(S, x): a new component's label and identity classes, from the components
        of its type made before it (State.create's __label__ and __same__)."""
        if type_name in self.classes_made:
            return
        self.classes_made.add(type_name)
        template = self.game.label_templates.get(type_name)
        columns = [(attribute, offset) for (t, attribute), offset in self.columns.items() if t == type_name]
        if template:
            shown = {part.inside for part in parse_template(template).parts if not isinstance(part, str) and part.named}
            labelled = [(a, o) for a, o in columns if a in shown]
            label_test = []
        else:
            labelled = [(a, o) for a, o in columns if a != "owner"]
            label_test = ["S[SHAPE_AT + y] == S[SHAPE_AT + x]"]
        for attribute, offset in labelled:
            if named_type(fields.get(attribute, OWNER)) in self.ids_of_type:     # (a component: by its label)
                label_test.append(f"label_of_id(S, S[{offset} + y]) == label_of_id(S, S[{offset} + x])")
            else:
                label_test.append(f"S[{offset} + y] == S[{offset} + x]")
        same_test = ["SHAPE_SETS[S[SHAPE_AT + y]] == SHAPE_SETS[S[SHAPE_AT + x]]",
                     *(f"S[{offset} + y] == S[{offset} + x]" for _, offset in columns)]
        kind = self.component_types.index(type_name)
        self.define(f"def classes_{type_name}(S, x):",
                    ["label = x", "same = x", "for y in range(x):", f"    if S[KIND_AT + y] != {kind}:", "        continue",
                     f"    if label == x and {' and '.join(label_test) or 'True'}:", "        label = S[LABEL_AT + y]",
                     f"    if same == x and {' and '.join(same_test)}:", "        same = S[SAME_AT + y]",
                     "    if label != x and same != x:", "        break",
                     "S[LABEL_AT + x] = label", "S[SAME_AT + x] = same"])

    def destroy(self, node, scope) -> list:
        """`destroy x` (State.destroy): none, a component destroyed already or one a variable
        still holds is the engine's error (played in Python); else out of its zone and of its type."""
        type_name = self.destroyed_type(node)
        self.created_helpers()
        x = self.fresh("gone")
        lines = [f"{x} = {self.expr(node.item, scope, self.type_of(node.item))}"]
        held = ast.destroyed_variable(untag(node.item), self.game.var_meta)
        if held is not None:            # (`destroy kept`: kept = none first)
            lines += self.statement(ast.Assign(node.span, held, ast.Nothing(node.span)), scope, False)
        items = self.created_at[f"ITEMS_{type_name}"]
        lines += [f"if {x} < 0 or {x} >= COMPONENTS or type_position(S, {items}, {x}) < 0:", "    S[ERROR] = 1",
                  "    return"]
        for name in self.game.component_holders(type_name):
            slot = self.vars.get(name) or getattr(self, "list_vars", {}).get(name)
            if slot is None:
                raise NotNative(f"destroy of a {type_name}, which {name} (not a plain variable nor a list) may hold",
                                node.span)
            cells = 1
            for _, size, _ in slot.axes:
                cells *= size
            held = f"holds_id(S, {slot.offset}, {cells}, {x})" if name in self.vars \
                else f"list_holds_id(S, {slot.offset}, {cells}, {1 + slot.room}, {x})"     # (a list: in its items)
            lines += [f"if {held}:", "    S[ERROR] = 1", "    return"]
        return lines + [f"zone_take_out(S, {x})", f"type_remove(S, {items}, {x})"]

    def created_helpers(self) -> None:
        if getattr(self, "has_created_helpers", False):
            return
        self.has_created_helpers = True
        self.defs.append(CREATED_FUNCTIONS.strip())


CREATED_FUNCTIONS = '''
@njit
def type_items(S, at):
    return S[at + 1:at + 1 + S[at]]


@njit
def type_items_copy(S, at):
    return type_items(S, at).copy()


@njit
def type_position(S, at, x):
    for k in range(S[at]):
        if S[at + 1 + k] == x:
            return k
    return -1


@njit
def type_remove(S, at, x):
    k = type_position(S, at, x)
    n = S[at]
    for j in range(k, n - 1):
        S[at + 1 + j] = S[at + 2 + j]
    S[at] = n - 1


@njit
def holds_id(S, offset, cells, x):
    for k in range(offset, offset + cells):
        if S[k] == x:
            return True
    return False


@njit
def list_holds_id(S, offset, cells, row, x):
    for at in range(offset, offset + cells * row, row):
        for k in range(at + 1, at + 1 + S[at]):
            if S[k] == x:
                return True
    return False


@njit
def label_of_id(S, x):
    return S[LABEL_AT + x] if x >= 0 else -1


@njit
def zone_take_out(S, x):
    """A destroyed component out of its zone (wherever it lies in it), in none."""
    here = S[LOC + x]
    if here >= 0:
        items = zone_items(S, here)
        k = len(items) - 1
        while items[k] != x:
            k -= 1
        items[k:len(items) - 1] = items[k + 1:].copy()
        S[LENGTHS + here] -= 1
        S[LOC + x] = -1
    if SHOWN >= 0:
        S[SHOWN + x] = 0
'''
