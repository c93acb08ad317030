"""Variables that hold lists, and texts, in a native kernel (a mixin of rules_source.KernelSource).

A list variable (`var visited: list of Place = []`, `var order[Player]: list of Player`,
`var dials: list of int = [0, 0, 0]`, its first value written by the setup) has, per cell of its
index domains, a row of S: its length, then room for as many items as its
element type has values (a board's cells, a type's components, the seats, an enum's members;
ints: INT_LIST_ROOM). A longer list written there sets the error slot: that game is played in
Python. Read, it is a copy of its items (the engine's list is a value: a later write does not
change a list read before).

A text is coded as a number, one per distinct literal of the rules: a text in an expression is a
literal (its braces are no placeholders there), so the kernel only compares texts by their codes.
A text attribute is a column like the others, its values coded the same way (the reference's
texts too, as met: zones_source.py), so `create 1 Site { name: n }` checks it as any column.
"""
from __future__ import annotations

import attrs
from referee.dsl import ast
from referee.dsl.types import BOOL, INT, PLAYER, TEXT, Type, element_type, named_type

from .not_native import NotNative

INT_LIST_ROOM = 64          # the room of a list of ints held by a variable


@attrs.frozen
class ListSlot:
    offset: int
    axes: tuple             # per index: (first code, size, enum members or ())
    room: int               # the items a cell holds at most (after its length)
    type: Type


def untag(node):
    return ast.untag(node)[0]


class ListVarsSource:
    """List variables and text codes for KernelSource (its `expr`, `axis`, `size`, `vars`...)."""

    def lay_out_list_var(self, name: str, t: Type, axes: tuple, span) -> None:
        """Room in S for a variable of type list[...] (its default must be the empty list)."""
        if not hasattr(self, "list_vars"):
            self.list_vars: dict[str, ListSlot] = {}
            self.list_defaults: list[str] = []
        room = self.list_room(element_type(t), span)
        cells = 1
        for _, size, _ in axes:
            cells *= size
        first = self.game.var_defaults[name]
        if first not in ([], ()):       # (written by the setup in each cell: S is all zeros before)
            if len(first) > room:
                raise NotNative(f"a list variable ({name}) whose first value is longer than its room", span)
            row = [len(first)] + [self.code_of(v, element_type(t), span) for v in first]
            self.list_defaults += [f"S[{self.size + k * (1 + room)}:{self.size + k * (1 + room) + len(row)}] = np.array({row})"
                                   for k in range(cells)]
        self.list_vars[name] = ListSlot(self.size, axes, room, t)
        self.size += cells * (1 + room)

    def zones_setup(self) -> list:
        return super().zones_setup() + list(getattr(self, "list_defaults", ()))

    def list_room(self, element: Type, span) -> int:
        element, named = element.without_none(), named_type(element)
        if element == PLAYER:
            return self.players
        if named in self.game.enum_members:
            return len(self.game.enum_members[named])
        if named in self.game.geometries:
            return len(self.game.geometries[named].cells)
        if named in self.types_created_in_play():        # (made in play: as many as its maximum)
            return self.game.component_maximum[named]
        if named in self.game.types.components:
            reference = self.game.new_initial_state(0)
            return max(1, len(reference.by_type.get(named, ())))
        if element in (INT, BOOL):
            return INT_LIST_ROOM
        raise NotNative(f"a variable holding a list of {element.text}", span)

    def is_list_var(self, name: str, scope) -> bool:
        return name in getattr(self, "list_vars", {}) and name not in scope.names

    def list_cell(self, name: str, indexes, scope, span) -> str:
        """Where a list variable's cell starts in S (-1: an index none or outside)."""
        slot = self.list_vars[name]
        return self.row_cell(slot.offset, 1 + slot.room, slot.axes, indexes, scope, span)

    def row_cell(self, offset: int, row: int, axes: tuple, indexes, scope, span) -> str:
        """Where the cell of these indexes starts in S, rows of `row` cells from offset (-1: an
        index none or outside): a list variable's, a set's or a map's (value_sets_source.py)."""
        if len(indexes) != len(axes):
            raise NotNative("a variable read with other indexes than declared", span)
        if not indexes:
            return str(offset)
        parts = [self.expr(i, scope, self.type_of(i)) for i in indexes]
        positions = ", ".join(f"({p}) - {first}" for p, (first, _, _) in zip(parts, axes))
        sizes = ", ".join(str(size) for _, size, _ in axes)
        return f"list_row({offset}, {row}, np.array([{positions}]), np.array([{sizes}]))"

    def list_var_value(self, node, scope):
        """A list variable read (a Name or a Subscript of one): a copy of its items; else None."""
        node = untag(node)
        if isinstance(node, ast.Name) and self.is_list_var(node.id, scope):
            return f"list_read(S, {self.list_cell(node.id, (), scope, node.span)})"
        if isinstance(node, ast.Subscript):
            obj = untag(node.obj)
            if isinstance(obj, ast.Name) and self.is_list_var(obj.id, scope):
                return f"list_read(S, {self.list_cell(obj.id, node.indexes, scope, node.span)})"
        return None

    def list_var_write(self, node, scope):
        """`name = LIST` or `name[i] = LIST` of a list variable: its lines; else None."""
        if not isinstance(node, (ast.Assign, ast.Augment)):
            return None
        target = node.target
        if not isinstance(target, ast.Target) or not self.is_list_var(target.name, scope):
            return None
        if isinstance(node, ast.Augment):
            raise NotNative(f"the update {node.op} of a list", node.span)
        slot = self.list_vars[target.name]
        value = self.expr(node.value, scope, slot.type)
        return [f"list_write(S, {self.list_cell(target.name, target.indexes, scope, target.span)}, {slot.room}, {value})"]

    # ---- texts ----------------------------------------------------------------------------
    def text_code(self, value: str) -> int:
        if not hasattr(self, "text_codes"):
            self.text_codes: dict[str, int] = {}
        return self.text_codes.setdefault(value, len(self.text_codes))

    def visit_Text(self, node, scope, want):
        """A text in an expression is a literal (placeholders belong to logs and labels)."""
        return str(self.text_code(node.value))

    def choice_kinds(self) -> set:
        """The types a kernel's `choose` codes (decisions_source.py), texts too."""
        return super().choice_kinds() | {"text"}

    def texts_compared(self, node, scope):
        """`a == b` or `a != b` of texts, by their codes; None for other comparisons."""
        left, right = untag(node.left), untag(node.right)
        if isinstance(left, ast.Nothing) or isinstance(right, ast.Nothing):
            return None
        if self.type_of(left).without_none() != TEXT or self.type_of(right).without_none() != TEXT:
            return None
        if node.op not in ("==", "!="):
            raise NotNative(f"the order {node.op} of texts", node.span)
        return f"({self.expr(left, scope, TEXT)} {node.op} {self.expr(right, scope, TEXT)})"


LIST_VAR_FUNCTIONS = '''
@njit
def list_row(offset, room, positions, sizes):
    at = 0
    for k in range(len(sizes)):
        if not 0 <= positions[k] < sizes[k]:
            return -1
        at = at * sizes[k] + positions[k]
    return offset + at * room


@njit
def list_read(S, at):
    if at < 0:
        S[ERROR] = 1
        return S[:0].copy()
    return S[at + 1:at + 1 + S[at]].copy()


@njit
def list_write(S, at, room, items):
    n = len(items)
    if at < 0 or n > room:
        S[ERROR] = 1
        return
    S[at] = n
    S[at + 1:at + 1 + n] = items
'''
