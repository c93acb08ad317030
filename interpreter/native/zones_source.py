"""Components and zones in a native kernel (a mixin of rules_source.KernelSource): components
as ids with attribute columns, zones as slices of the state array with their lengths, and the
statements and functions the card games use on them (create, shuffle, deal, move, move all,
top, bottom, size, membership, a component's attributes, loops over a zone).

Where they lie in S (after the variables): each component's zone cell (its `loc`, -1: in none),
the next id `create` gives, each zone cell's length, each zone cell's items (bottom first, room
for every component of its element type: a component is in one zone at most), and one column
per (component type, attribute) indexed by component id. The components and their types are
those of the reference state (seed 0 after the setup): a game whose setup makes others sets the
error slot and is played in Python. A zone's value in an expression is the view of its items
(a copy where the loop's body may change the zone); its cell id where a statement or a function
needs the zone itself.
"""
from __future__ import annotations

import attrs
from referee.dsl import ast
from referee.dsl.types import BOOL, INT, OWNER, PLAYER, TEXT, Type, named_type, type_of

from .board_graph import cell_column
from .not_native import NotNative



@attrs.frozen
class ZoneFamily:
    first_cell: int             # the id of its first cell (cells are numbered over all zones)
    axes: tuple                 # per index: (first code, size, enum members or ())
    capacity: int               # the room of each cell
    element: str


def untag(node):
    return ast.untag(node)[0]


class ZonesSource:
    """The components' and zones' part of KernelSource (its `expr`, `define`, `vars`, `size`...)."""

    def lay_out_zones(self) -> None:
        game = self.game
        reference = game.new_initial_state(0)
        self.component_types = list(game.types.components)      # (then the boards' cells, ids too)
        self.component_types += sorted({e["__type__"] for e in reference.entities} - set(self.component_types))
        self.components = len(reference.entities)
        self.type_of_id = [self.component_types.index(e["__type__"]) for e in reference.entities]
        self.ids_of_type = {t: list(reference.by_type.get(t, ())) for t in self.component_types}
        self.lay_out_created(reference)         # (created_source.py: the ids created in play)
        self.loc_at = self.size
        self.next_id_at = self.size + self.components
        self.size += self.components + 1
        self.zone_families: dict[str, ZoneFamily] = {}
        cells = 0
        from ..engine.views import index_values
        for name, (_, _, _, index_types) in game.zone_meta.items():
            declared = self.program.get(name)
            items = type_of(declared.element_type).without_none()
            element = named_type(items)
            if element not in self.ids_of_type:
                raise NotNative(f"a zone of {items.text}", declared.span)
            axes = tuple(self.axis(t, index_values(reference, name, k, t), declared.span)
                         for k, t in enumerate(index_types))
            family = ZoneFamily(cells, axes, self.zone_room(element), element)
            self.zone_families[name] = family
            cells += self.cells_of(family)
        self.zone_cells = cells
        self.lengths_at = self.size
        self.size += cells
        self.items_at = []
        for family in self.zone_families.values():
            for _ in range(self.cells_of(family)):
                self.items_at.append(self.size)
                self.size += family.capacity
        self.columns: dict[tuple, int] = {}
        self.column_values = []     # per column, the reference's value of each component (coded)
        for type_name, component in game.types.components.items():
            for field in list(component.fields) + ["owner"]:
                attribute = field if field == "owner" else field.name
                t = OWNER if field == "owner" else game.compiler.declared_type(field.type)
                if self.column_coding(t):
                    self.columns[(type_name, attribute)] = self.size
                    self.size += self.components
                    self.column_values.append([self.code_of(e.get(attribute), t, component.span)
                                               if e["__type__"] == type_name else 0 for e in reference.entities])
        self.cell_columns = []      # (a board's cells: their attributes as the engine made them, never changed)
        for type_name in game.geometries:
            cells = [e for e in reference.entities if e["__type__"] == type_name]
            for attribute in (cells[0] if cells else {}):
                coded = cell_column(game, [e.get(attribute) for e in cells])
                if attribute.startswith("__") or attribute in game.types.changed_attributes or coded is None:
                    continue
                self.columns[(type_name, attribute)] = self.size
                self.cell_columns.append(len(self.column_values))
                self.size += self.components
                by_id = dict(zip((x for x, e in enumerate(reference.entities) if e["__type__"] == type_name), coded))
                self.column_values.append([by_id.get(x, 0) for x in range(len(reference.entities))])
        entities = list(enumerate(reference.entities))      # (a cell: like no other)
        self.label_class = self.classes([e.get("__label__", ("cell", x)) for x, e in entities])
        self.same_class = self.classes([e.get("__same__", ("cell", x)) for x, e in entities])
        self.pad_created()

    @staticmethod
    def classes(keys: list) -> list:
        """Each component's class: the first id with the same key."""
        first: dict = {}
        return [first.setdefault(key, x) for x, key in enumerate(keys)]

    @staticmethod
    def cells_of(family: ZoneFamily) -> int:
        cells = 1
        for _, size, _ in family.axes:
            cells *= size
        return cells

    def column_coding(self, t: Type) -> bool:
        named = named_type(t)
        return t.without_none() in (INT, BOOL, PLAYER, TEXT) or named in self.game.enum_members or named in self.ids_of_type

    def zones_constants(self) -> list:
        at = ", ".join(map(str, self.items_at)) or ""
        return [f"LOC = {self.loc_at}", f"NEXT_ID = {self.next_id_at}", f"COMPONENTS = {self.components}",
                f"SHOWN = {self.shown_offset()}",
                f"LENGTHS = {self.lengths_at}", f"ITEMS_AT = np.array([{at}], dtype=np.int64)",
                f"TYPE_OF_ID = np.array([{', '.join(map(str, self.type_of_id))}], dtype=np.int64)",
                *(f"IDS_{t} = np.array([{', '.join(map(str, ids))}], dtype=np.int64)"
                  for t, ids in self.ids_of_type.items()),
                f"LABEL_CLASS = np.array([{', '.join(map(str, self.label_class))}], dtype=np.int64)",
                f"SAME_CLASS = np.array([{', '.join(map(str, self.same_class))}], dtype=np.int64)",
                f"COLUMN_VALUES = np.array({self.column_values or [[0] * self.components]!r}, dtype=np.int64)",
                *self.created_constants()]

    def zones_setup(self) -> list:
        """The empty zones, no component yet (the board's cells are the first ids: the next one
        `create` gives comes after them) and the cells' attributes (S is all zeros before)."""
        offsets = list(self.columns.values())
        return ([f"S[LOC:LOC + {self.components}] = -1"] if self.components else []) + \
            [f"S[NEXT_ID] = {self.boards.ids}"] + \
            [f"S[{offsets[k]}:{offsets[k] + self.components}] = COLUMN_VALUES[{k}]" for k in self.cell_columns] + \
            self.created_setup()

    # ---- zones as values ----------------------------------------------------------------------
    def is_zone(self, node, scope) -> bool:
        node = untag(node)
        if isinstance(node, ast.Subscript):
            node = untag(node.obj)
        return isinstance(node, ast.Name) and node.id in self.zone_families and node.id not in scope.names

    def zone_cell(self, node, scope) -> str:
        """The cell id of a zone (-1: an index outside its declared domains)."""
        node = untag(node)
        if isinstance(node, (ast.ToTop, ast.ToBottom)):
            node = untag(node.zone)
        if not self.is_zone(node, scope):
            raise NotNative("a zone given by other than its name", node.span)
        if isinstance(node, ast.Name):
            family, indexes = self.zone_families[node.id], ()
        else:
            family, indexes = self.zone_families[untag(node.obj).id], node.indexes
        if len(indexes) != len(family.axes):
            raise NotNative("a zone with other indexes than declared", node.span)
        if not indexes:
            return str(family.first_cell)
        parts = [self.expr(i, scope, self.type_of(i)) for i in indexes]
        positions = [f"({p}) - {first}" for p, (first, _, _) in zip(parts, family.axes)]
        sizes = [str(size) for _, size, _ in family.axes]
        if len(parts) == 1:
            return f"cell_of({family.first_cell}, {positions[0]}, {sizes[0]})"
        if len(parts) == 2:         # (no arrays made: a cell of two indexes is read in every listing)
            return f"cell_of2({family.first_cell}, {positions[0]}, {sizes[0]}, {positions[1]}, {sizes[1]})"
        return f"cell_at({family.first_cell}, np.array([{', '.join(positions)}]), np.array([{', '.join(sizes)}]))"

    def zone_items(self, node, scope, copy: bool = False) -> str:
        return f"zone_items{'_copy' if copy else ''}(S, {self.zone_cell(node, scope)})"

    def sequence(self, node, scope, copy: bool = False) -> str:
        """The ids of a zone, a component type or a list, as an int64 array."""
        node = untag(node)
        if self.is_zone(node, scope):
            return self.zone_items(node, scope, copy)
        if isinstance(node, ast.Name) and node.id in self.ids_of_type and node.id not in scope.names:
            return self.created_items(node.id, copy) or f"IDS_{node.id}"
        t = self.type_of(node)
        value = self.expr(node, scope, t)
        return f"{value}.copy()" if copy else value

    def zone_domain(self, domain, scope, var: str, copy: bool):
        """A binder's loop over a zone or the components of a type, else None: over the zone's
        items as they lie in S, or over a copy where the loop's body may change the zone."""
        if self.is_zone(domain, scope) or (isinstance(domain, ast.Name) and domain.id in self.ids_of_type
                                          and domain.id not in scope.names):
            items = self.sequence(domain, scope, copy=copy)
            return [f"items_{var} = {items}", f"for {var} in items_{var}:"], f"len(items_{var})"
        return None

    def zone_name(self, node, scope):
        """A Name that is a zone or a component type, as its items; else None."""
        if node.id in self.zone_families or node.id in self.ids_of_type:
            return self.sequence(node, scope)
        return None

    def zone_call(self, node, scope):
        """size, top and bottom of a zone or a list; None for other functions."""
        name, args = node.name, node.arguments
        if name not in ("size", "top", "bottom") or len(args) != 1:
            return None
        if self.is_zone(args[0], scope):
            cell = self.zone_cell(args[0], scope)
            return f"zone_{name}(S, {cell})"
        items = self.sequence(args[0], scope)
        return {"size": f"len({items})", "top": f"last_of({items})", "bottom": f"first_of({items})"}[name]

    def visit_Attribute(self, node, scope, want):
        t = self.type_of(node.obj).without_none()
        column = self.columns.get((named_type(t), node.name))
        if column is None:
            raise NotNative(f"the attribute {node.name} of a {t.text} has no native form yet", node.span)
        none = self.none_of(self.type_of(node))         # (an attribute of none is none)
        return f"attribute_of(S, {column}, {self.expr(node.obj, scope, self.type_of(node.obj))}, {none})"

    def components_compared(self, node, scope):
        """`a == b` or `a != b` of components (by id, none -1), else None."""
        left, right = untag(node.left), untag(node.right)
        if node.op not in ("==", "!=") or isinstance(left, ast.Nothing) or isinstance(right, ast.Nothing):
            return None
        if named_type(self.type_of(left)) not in self.ids_of_type:
            return None
        return f"({self.expr(left, scope, self.type_of(left))} {node.op} {self.expr(right, scope, self.type_of(right))})"

    def zone_member(self, node, scope):
        """`x in zone`: where x lies, not a scan (None if the collection is not a zone)."""
        if not self.is_zone(node.collection, scope):
            return None
        item = self.expr(node.item, scope, self.type_of(node.item))
        return f"zone_has(S, {item}, {self.zone_cell(node.collection, scope)})"

    # ---- statements -------------------------------------------------------------------------
    def zone_statement(self, node, scope):
        """The lines of a statement on components or zones, or None for other statements."""
        kind = type(node)
        if kind is ast.Move:
            item = self.expr(node.item, scope, self.type_of(node.item))
            return [f"zone_move(S, {item}, {self.zone_cell(node.destination, scope)}, {self.under(node)})"]
        if kind is ast.MoveAll:
            items = self.sequence(node.source, scope, copy=True)
            return [f"zone_move_all(S, {items}, {self.zone_cell(node.destination, scope)}, {self.under(node)})"]
        if kind is ast.Deal:
            count = self.expr(node.count, scope, INT)
            return [f"zone_deal(S, {count}, {self.zone_cell(node.source, scope)}, "
                    f"{self.zone_cell(node.destination, scope)}, {self.under(node)})"]
        if kind is ast.Shuffle:
            return [f"zone_shuffle(S, {self.zone_cell(node.zone, scope)})"]
        if kind is ast.Let and self.is_zone(node.value, scope):
            raise NotNative("a local holding a zone (the engine's list, changed by the moves after)", node.span)
        if kind is ast.Reveal:              # (who sees what: kept only where a choice asks it)
            return self.reveal(node, scope)
        if kind is ast.Create:
            return self.create(node, scope)
        if kind is ast.Destroy:
            return self.destroy(node, scope)
        if kind is ast.Assign and isinstance(node.target, ast.AttributeTarget):
            return self.attribute_write(node, scope)
        return None

    @staticmethod
    def under(node) -> str:
        return "True" if isinstance(untag(node.destination), ast.ToBottom) else "False"

    def create(self, node, scope) -> list:
        type_name = node.type_name
        if type_name not in self.ids_of_type:
            raise NotNative(f"components of {type_name}", node.span)
        fields = {f.name: self.game.compiler.declared_type(f.type) for f in self.game.types.components[type_name].fields}
        created = self.create_in_play(node, scope, fields)      # (a type created in play: created_source.py)
        if created is not None:
            return created
        values, lines = {}, []
        for init in node.inits:          # (the values first, once: the engine makes one dict)
            if (type_name, init.name) not in self.columns:
                raise NotNative(f"the attribute {init.name} of a {type_name} has no native form yet", init.span)
            var = self.fresh("init")
            lines.append(f"{var} = {self.expr(init.value, scope, fields.get(init.name, OWNER))}")
            values[init.name] = var
        count = self.fresh("count")
        x = self.fresh("x")
        lines += [f"{count} = {self.expr(node.count, scope, INT)}",
                  f"for _ in range({count}):", f"    {x} = S[NEXT_ID]",
                  f"    if {x} >= COMPONENTS or TYPE_OF_ID[{x}] != {self.component_types.index(type_name)}:",
                  "        S[ERROR] = 1", "        return", f"    S[NEXT_ID] = {x} + 1"]
        for k, ((t, attribute), offset) in enumerate(self.columns.items()):
            if t == type_name:       # (the reference's values: those the move names were made from)
                default = self.none_of(fields.get(attribute, OWNER))   # (not given: none)
                lines += [f"    S[{offset} + {x}] = {values.get(attribute, default)}",
                          f"    if S[{offset} + {x}] != COLUMN_VALUES[{k}, {x}]:", "        S[ERROR] = 1", "        return"]
        lines.append(f"    zone_move(S, {x}, {self.zone_cell(node.zone, scope)}, False)")
        return lines

    def attribute_write(self, node, scope) -> list:
        """`x.attribute = value` of a component (none: the engine's error). Refused where the
        component's type is an action's argument: its label, and so which moves look alike,
        would change."""
        target = node.target
        owners = [t for t in self.game.types.components if (t, target.attribute) in self.columns]
        if target.indexes or target.name not in scope.names or len(owners) != 1:
            raise NotNative(f"a write to the attribute {target.attribute} has no native form yet", target.span)
        type_name = owners[0]
        if type_name in self.created_types:      # (its classes made again: created_writes.py)
            return self.created_attribute_write(node, scope, type_name)
        if any(named_type(b[3]) == type_name for a in self.game.actions for b in a.binders):
            raise NotNative(f"a write to the attribute {target.attribute} of a {type_name}, an action's argument",
                            target.span)
        fields = {f.name: self.game.compiler.declared_type(f.type) for f in self.game.types.components[type_name].fields}
        value = self.expr(node.value, scope, fields.get(target.attribute, OWNER))
        return [f"set_attribute(S, {self.columns[(type_name, target.attribute)]}, {scope.names[target.name]}, {value})"]


ZONE_FUNCTIONS = '''
@njit
def zone_items(S, cell):
    if cell < 0:
        S[ERROR] = 1
        return S[:0]
    at = ITEMS_AT[cell]
    return S[at:at + S[LENGTHS + cell]]


@njit
def zone_items_copy(S, cell):
    return zone_items(S, cell).copy()


@njit
def zone_size(S, cell):
    if cell < 0:
        S[ERROR] = 1
        return 0
    return S[LENGTHS + cell]


@njit
def zone_top(S, cell):
    n = zone_size(S, cell)
    return S[ITEMS_AT[cell] + n - 1] if n > 0 else -1


@njit
def zone_bottom(S, cell):
    n = zone_size(S, cell)
    return S[ITEMS_AT[cell]] if n > 0 else -1


@njit
def last_of(items):
    return items[len(items) - 1] if len(items) else -1


@njit
def first_of(items):
    return items[0] if len(items) else -1


@njit
def zone_has(S, x, cell):
    if cell < 0:
        S[ERROR] = 1
        return False
    return 0 <= x < COMPONENTS and S[LOC + x] == cell


@njit
def attribute_of(S, column, x, none):
    """A component's attribute; of none, none (another value: an error, played in Python)."""
    if x == -1:
        return none
    if x < 0 or x >= COMPONENTS:
        S[ERROR] = 1
        return 0
    return S[column + x]


@njit
def set_attribute(S, column, x, value):
    if x < 0 or x >= COMPONENTS:
        S[ERROR] = 1
        return
    S[column + x] = value


@njit
def zone_move(S, x, cell, under):
    """The engine's State.move: out of its zone (wherever it lies in it), onto (or under) the cell."""
    if x < 0:
        return
    if cell < 0 or x >= COMPONENTS:
        S[ERROR] = 1
        return
    here = S[LOC + x]
    if here >= 0:
        at, n = ITEMS_AT[here], S[LENGTHS + here]
        k = n - 1
        while S[at + k] != x:
            k -= 1
        for j in range(k, n - 1):
            S[at + j] = S[at + j + 1]
        S[LENGTHS + here] = n - 1
    at, n = ITEMS_AT[cell], S[LENGTHS + cell]
    if under:
        for j in range(n, 0, -1):
            S[at + j] = S[at + j - 1]
        S[at] = x
    else:
        S[at + n] = x
    S[LENGTHS + cell] = n + 1
    S[LOC + x] = cell
    if SHOWN >= 0:          # (who saw it: forgotten once it moves)
        S[SHOWN + x] = 0


@njit
def zone_move_all(S, items, cell, under):
    n = len(items)
    for k in range(n):
        zone_move(S, items[n - 1 - k] if under else items[k], cell, under)


@njit
def zone_deal(S, count, source, cell, under):
    """The engine's State.deal: the top of the source, moved one at a time, count times."""
    for _ in range(count):
        if zone_size(S, source) == 0:
            return
        zone_move(S, zone_top(S, source), cell, under)


@njit
def zone_shuffle(S, cell):
    items = zone_items(S, cell)
    if SHOWN >= 0:          # (a shuffled component is no longer where it was shown)
        for x in items:
            S[SHOWN + x] = 0
    if len(items) > 1:
        S[RNG] = np.int64(shuffle_items(np.uint64(S[RNG]), items))
'''
