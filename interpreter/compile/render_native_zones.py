"""The native renderer's zones and components (render_native.py): a zone read as a slice of its
family's array (`zone_NAME[cell..., :zone_NAME_len[cell...]]`), its size, top and members, a
component's attribute from its `attr_NAME` column, the components of a type as a range of ids,
and the aggregates codegen emits (count, sum, any, all: a function of a comprehension) as a
loop written before the statement that holds them (their value in a temporary), a filtered
list as an array so filled (the module of native functions binds numpy as `np`)."""
from __future__ import annotations

from . import ir
from .render_native_places import NotNative, Places, Renderer
from .render_python import ATOM

# an aggregate of a comprehension: its start value, and its update for an item (`{}`: the element)
AGGREGATES = {"len": ("0", "{name} += 1"), "sum": ("0", "{name} += {element}"),
              "any": ("False", "if {element}:\n{name} = True\nbreak"),
              "all": ("True", "if not ({element}):\n{name} = False\nbreak")}


def zone_key(node: ir.Node, key: ir.Expression) -> ir.Key:
    """A zone's key as an ir.Key: a family's name alone is a Constant."""
    if isinstance(key, ir.Constant) and isinstance(key.value, str):
        return ir.Key(key.value)
    if isinstance(key, ir.Key):
        return key
    raise NotNative(node, "a zone named by a key made elsewhere")


def zone_cell(renderer: Renderer, node: ir.Node, key: ir.Expression) -> tuple[str, str]:
    """The family's array name and the cell of a zone (its positions, `()` for a family alone)."""
    key = zone_key(node, key)
    place = renderer.places.zones.get(key.family)
    if place is None:
        raise NotNative(node, f"the zone {key.family} has no array (its layout says why)")
    positions = renderer.positions(key, place)
    return f"zone_{key.family}", ", ".join(positions)


def read_zone(renderer: Renderer, node: ir.ReadZone) -> tuple[str, int]:
    """A zone's items (a missing zone is empty: its length is 0), as a view of its array."""
    array, cell = zone_cell(renderer, node, node.key)
    length = f"{array}_len[{cell or '()'}]"
    return f"{array}[{cell + ', ' if cell else ''}:{length}]", ATOM


def top_of_zone(renderer: Renderer, node: ir.TopOfZone) -> tuple[str, int]:
    zone = renderer.expression(node.zone, ATOM)
    return f"({zone}[-1] if len({zone}) else -1)", ATOM


def components_of(renderer: Renderer, node: ir.ComponentsOf) -> tuple[str, int]:
    found = renderer.places.components.get(node.type_name)
    if found is None:
        raise NotNative(node, f"the components of {node.type_name} are not a run of ids the setup made")
    first, count = found
    return f"range({first}, {first + count})", ATOM


def read_column(renderer: Renderer, node: ir.ReadColumn) -> tuple[str, int]:
    return renderer.column(node)[0], ATOM


def read_attribute(renderer: Renderer, node: ir.ReadAttribute) -> tuple[str, int]:
    """An attribute by name: from its attr_ array, when a column of the layout holds it."""
    column = next((k for k, (name, _) in renderer.places.columns.items() if name == node.name), None)
    if column is None:
        raise NotNative(node, f"the attribute {node.name} has no array (of cells, or boxed)")
    return renderer.column(ir.ReadColumn(column, node.entity, node.span))[0], ATOM


def filtered(renderer: Renderer, node: ir.Comprehension) -> tuple[str, int]:
    """A new list of the items that pass: an array filled by a loop before the statement (of
    at most as many items as the iterable), then cut to its length."""
    if node.generator:
        raise NotNative(node, "values one by one for a call with no native version")
    name, count = f"_l{renderer.temps}", f"_n{renderer.temps}"
    iterable, target, depth, body = loop(renderer, node, True)
    renderer.pending.extend([(0, f"{name}_all = np.empty(len({iterable}), np.int64)"), (0, f"{count} = 0"),
                             (0, f"for {target} in {iterable}:"), *body[:-1],
                             (depth, f"{name}_all[{count}] = {body[-1][1]}"), (depth, f"{count} += 1"),
                             (0, f"{name} = {name}_all[:{count}]")])
    return name, ATOM


def loop(renderer: Renderer, node: ir.Comprehension, with_element: bool
         ) -> tuple[str, str, int, list[tuple[int, str]]]:
    """A comprehension's loop: (its iterable, its target, the depth of its body, the lines of
    its body: its test and what it needs, what the element needs, then (depth, the element)).
    Python's comprehension has its own scope: natively its target is a temporary of its own."""
    if len(node.targets) != 1:
        raise NotNative(node, "a comprehension over rows of several values")
    iterable = renderer.expression(node.iterable, ATOM)
    target = f"_t{renderer.temps}"
    renderer.temps += 1
    node = renamed(node, node.targets[0], target)      # type: ignore[assignment]
    outer, renderer.pending = renderer.pending, []
    try:
        condition = renderer.expression(node.condition) if node.condition is not None else None
        before_condition, renderer.pending = renderer.pending, []
        element = renderer.expression(node.element) if with_element else ""
        before_element = renderer.pending
    finally:
        renderer.pending = outer
    depth, body = 1, []
    if condition is not None:
        body += [(depth + inner, text) for inner, text in before_condition]
        body.append((depth, f"if {condition}:"))
        depth += 1
    body += [(depth + inner, text) for inner, text in before_element]
    return iterable, target, depth, body + [(depth, element)]


def call(renderer: Renderer, node: ir.Call) -> tuple[str, int]:
    """A call; of an aggregate of a comprehension, its loop (before the statement)."""
    if len(node.args) == 1 and isinstance(node.args[0], ir.Comprehension) and node.function in AGGREGATES:
        return aggregate(renderer, node.function, node.args[0]), ATOM
    if node.function == "list" and len(node.args) == 1 and isinstance(node.args[0], (ir.ReadZone, ir.Comprehension)):
        return f"{renderer.expression(node.args[0], ATOM)}.copy()", ATOM     # (a zone's items kept as they are now)
    return renderer.call(node)


def grouped(renderer: Renderer, node: ir.Grouped) -> tuple[str, int]:
    return f"({renderer.expression(node.value)})", ATOM


def aggregate(renderer: Renderer, function: str, node: ir.Comprehension) -> str:
    """The loop of count/sum/any/all over a comprehension, as lines pending for its statement;
    its value a temporary. (Natively it is computed before the statement, even where an `and`
    or an `if` of the statement would not have needed it: it only reads the state.)"""
    if not node.generator and function not in ("len", "sum"):
        # (any/all of a list: Python computes every item, natively the loop stops at the first)
        raise NotNative(node, f"{function} of a list")
    name = f"_a{renderer.temps}"
    iterable, target, depth, body = loop(renderer, node, function != "len")
    start, update = AGGREGATES[function]
    lines = [(0, f"{name} = {start}"), (0, f"for {target} in {iterable}:"), *body[:-1]]
    for k, text in enumerate(update.format(name=name, element=body[-1][1]).split("\n")):
        lines.append((depth + (k > 0), text))
    renderer.pending.extend(lines)
    return name


def renamed(node: ir.Node, old: str, new: str) -> ir.Node:
    """A comprehension's element and condition with its target `old` read as `new` (not inside
    a comprehension of its own that binds `old` again)."""
    def change(inner: ir.Node) -> ir.Node:
        if isinstance(inner, ir.Local) and inner.name == old:
            return ir.Local(new, inner.span)
        if isinstance(inner, ir.Comprehension) and old in inner.targets:
            return ir.rebuilt(inner, lambda n: n if n is inner.element or n is inner.condition else change(n))
        return ir.rebuilt(inner, change)
    if isinstance(node, ir.Comprehension):
        targets = tuple(new if t == old else t for t in node.targets)
        return ir.Comprehension(change(node.element), targets, node.iterable,  # type: ignore[arg-type]
                                None if node.condition is None else change(node.condition),  # type: ignore[arg-type]
                                node.generator, node.spread, node.measure, node.span)
    return change(node)


def zones_used(function: ir.Function) -> tuple[str, ...]:
    used = set()
    for node in ir.walk(function):
        if isinstance(node, ir.ReadZone):
            key = node.key
            if isinstance(key, ir.Constant) and isinstance(key.value, str):
                used.add(key.value)
            elif isinstance(key, ir.Key):
                used.add(key.family)
    return tuple(sorted(used))


def columns_used(function: ir.Function, places: Places) -> tuple[str, ...]:
    names = {name for name, _ in places.columns.values()}
    used = {places.columns[node.column][0] for node in ir.walk(function)
            if isinstance(node, ir.ReadColumn) and node.column in places.columns}
    return tuple(sorted(used | {node.name for node in ir.walk(function)
                                if isinstance(node, ir.ReadAttribute) and node.name in names}))


def state_parameters(function: ir.Function, places: Places) -> tuple[str, ...]:
    """The zone and attribute arrays a function reads, after its var_ arrays: `zone_NAME,
    zone_NAME_len` for each family, then `attr_NAME`, each in name order."""
    zones = tuple(p for name in zones_used(function) for p in (f"zone_{name}", f"zone_{name}_len"))
    return zones + tuple(f"attr_{name}" for name in columns_used(function, places))
