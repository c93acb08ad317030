"""The native renderer's writes and stops (render_native.py): the runtime's located errors as
sites of the `err` array (`native_error(err, SITE, value)` writes the site and the value, then
raises NativeStop: Numba carries it out of every caller to the kernel, which asks
Layout.runtime_error for the error Python would have raised), the step's budgets in `step`,
finish (the winners' arrays; the flow's `try: ... except Finished` a NativeStop caught), the
zones' moves over `loc` (where each component is: its zone family's position in
Places.zone_order, and its cell as a flat index), shuffle over the random stream `rng`, reveal
into `shown`, a component's attribute written into its `attr_` array, a call of another
generated function rendered natively (its state arrays passed on: Places.signatures), and the
cached functions' bookkeeping left out (natively a value is computed again).

The helpers the rendered source calls are in native/write_helpers.py (HELPERS names them)."""
from __future__ import annotations

from . import ir
from .render_native_places import NotNative, Renderer
from .render_python import ATOM

# the helpers a native function calls (native/write_helpers.py): the kernel binds them njit-ed
HELPERS = ("native_error", "finish_winners", "zone_remove", "zone_insert", "shuffle_zone", "NativeStop")
# the runtime's error functions -> the position of the argument that varies (written to err[1]), or None
ERRORS: dict[str, int | None] = {"outside_indexes": 2, "not_a_player": 2, "number_too_large": 0, "none_error": None,
                                 "stored_none": None, "outside_range": 1, "step_runs_on": None, "work_runs_on": None}
FINISHED = "Finished"       # the exception the flow catches around an end (lower_flow)
# statements of a cached function's bookkeeping (lower_functions.cached_body): their locals and globals
CACHE_LOCALS = frozenset({"stamp", "entry"})
CACHE_GLOBALS = frozenset({"MEMO_STAMPS", "MEMO_PARTS", "MEMO_OWNER", "MEMO_LIMIT"})


def error_site(renderer: Renderer, node: ir.Call) -> tuple[str, int]:
    """A located error of the runtime: its site (1 + its place in Places.errors, the call kept
    there for Layout.runtime_error) and the value that varies, as `native_error(...)`."""
    varying = ERRORS[node.function]
    for k, arg in enumerate(node.args):
        if k != varying and not isinstance(arg, (ir.Constant, ir.Global, ir.TheState)):
            raise NotNative(arg, f"an argument of {node.function} that only Python has")
    errors = renderer.places.errors
    # (the code of none in the value, when its storage says it: a none shown as none again)
    site = (node, renderer.none_code(node.args[varying]) if varying is not None else None)
    if site not in errors:
        errors.append(site)
    value = renderer.expression(node.args[varying]) if varying is not None else "0"
    renderer.uses.add("err")
    return f"native_error(err, {errors.index(site) + 1}, {value})", ATOM


def generated_call(renderer: Renderer, node: ir.Call) -> tuple[str, int]:
    """A call of another generated function that renders natively: the state (its first
    argument) becomes the arrays its header names."""
    state, *rest = node.args
    if not isinstance(state, ir.TheState):
        raise NotNative(node, f"{node.function} called on other than the state")
    arrays = renderer.places.signatures[node.function]
    renderer.uses.update(arrays)
    return f"{node.function}({', '.join(list(arrays) + [renderer.expression(a) for a in rest])})", ATOM


def charged(renderer: Renderer, node: ir.Call) -> tuple[str, int]:
    """charged(STEP, items, units, span): the items, their cost taken from the work budget
    first (past it, work_runs_on's site), computed before the statement. Where Python would not
    have computed it (a branch of an `and`), natively the budget may be charged more: at worst
    a stop at the limit that Python would not make, which the kernel replays in Python."""
    budget, items, units, span = node.args
    if budget != ir.Global("STEP"):
        raise NotNative(node, "a budget other than the step's")
    name = f"_ch{renderer.temps}"
    renderer.temps += 1
    text = renderer.expression(items)
    stop, _ = error_site(renderer, ir.Call("work_runs_on", (span,), span=node.span))
    renderer.uses.add("step")
    renderer.pending.extend([(0, f"{name} = {text}"), (0, f"step[1] -= len({name}) * {renderer.expression(units)}"),
                             (0, "if step[1] < 0:"), (1, stop)])
    return name, ATOM


def spend(renderer: Renderer, node: ir.Spend, indent: int) -> None:
    renderer.uses.add("step")
    renderer.add(indent, f"step[{node.budget}] -= {renderer.expression(node.units)}", node.span)


def budget(renderer: Renderer, node: ir.Budget) -> tuple[str, int]:
    renderer.uses.add("step")
    return f"step[{node.budget}]", ATOM


def finish(renderer: Renderer, node: ir.Call, indent: int) -> None:
    """finish(s, winners): the winners (seats, sorted, each once) in `winners`, then a NativeStop
    whose site is -1 (the flow's `except Finished` takes it; else the kernel): finish_winners."""
    if len(node.args) != 2:
        raise NotNative(node, "finish by a team, or lost by all: not natively yet")
    winners = node.args[1]
    renderer.uses.update(("winners", "winners_len", "err"))
    if winners == ir.Tuple(()):
        given = "np.empty(0, np.int64)"
    elif isinstance(winners, ir.Tuple):      # (a tuple: Numba refuses the bytecode of a list of constants)
        given = f"np.array({renderer.expression(winners)}, np.int64)"
    else:
        given = f"np.array([_p for _p in {renderer.expression(winners)}], np.int64)"
    renderer.add(indent, f"finish_winners(winners, winners_len, err, {given})", node.span)


def try_(renderer: Renderer, node: ir.Try, indent: int) -> None:
    """The flow's end: `try: ... except Finished:` natively a NativeStop whose site is -1; any
    other goes on out (raised again after the except: Numba cannot raise inside one)."""
    if node.exception != FINISHED:
        raise NotNative(node, f"the runtime's {node.exception} is not caught natively")
    renderer.uses.add("err")
    renderer.add(indent, "_stopped = False", node.span)
    renderer.header(indent, "try:", node, node.body)
    renderer.add(indent, "except Exception:", node.span)
    renderer.add(indent + 1, "_stopped = True", node.span)
    renderer.add(indent, "if _stopped:", node.span)
    renderer.add(indent + 1, "if err[0] != -1:", node.span)
    renderer.add(indent + 2, "native_error(err, err[0], err[1])", node.span)
    renderer.add(indent + 1, "err[0] = 0", node.span)
    renderer.block(node.handler, indent + 1)


def set_attribute(renderer: Renderer, node: ir.Call, indent: int) -> None:
    """set_attribute(s, x, NAME, value, span): the attribute's attr_ array (none: an error)."""
    _, entity, name, value, span = node.args
    if not isinstance(name, ir.Constant):
        raise NotNative(node, "an attribute named by a value")
    column = next((c for c, (attribute, _) in renderer.places.columns.items() if attribute == name.value), None)
    if column is None:
        raise NotNative(node, f"the attribute {name.value} has no array (of cells, or boxed)")
    array, place = renderer.column(ir.ReadColumn(column, entity, node.span))
    renderer.uses.add(f"attr_{name.value}")
    stored = place.encode(node, value.value) if isinstance(value, ir.Constant) and (
        value.value is None or isinstance(value.value, str)) else renderer.expression(value)
    renderer.add(indent, f"{array} = {stored}", node.span)


def zone_target(renderer: Renderer, node: ir.Node, key: ir.Expression) -> tuple[int, str, str]:
    """A zone a component goes to: its family's position in zone_order, its array's name and
    its cell as a flat index (an expression)."""
    from .render_native_zones import zone_key
    if isinstance(key, ir.Local) and key.name in renderer.keys:
        key = renderer.keys[key.name]
    key = zone_key(node, key)
    order = renderer.places.zone_order
    if key.family not in order or key.family not in renderer.places.zones:
        raise NotNative(node, f"the zone {key.family} has no array (its layout says why)")
    array = f"zone_{key.family}"
    flat = "0"
    for k, position in enumerate(renderer.positions(key, renderer.places.zones[key.family])):
        flat = position if k == 0 else f"({flat}) * {array}_len.shape[{k}] + {position}"
    return order.index(key.family), array, flat


def moves(renderer: Renderer, node: ir.Node) -> None:
    """The arrays any move reads: every zone family (a component may be in any), and loc."""
    places = renderer.places
    missing = [name for name in places.zone_order if name not in places.zones]
    if missing:
        raise NotNative(node, f"a move, and the zone {missing[0]} has no array: loc cannot hold it")
    renderer.uses.add("loc")
    for name in places.zone_order:
        renderer.uses.update((f"zone_{name}", f"zone_{name}_len"))


def removal(renderer: Renderer, item: str) -> list[str]:
    """The lines that take component `item` out of the zone it is in (loc), as State.move does."""
    lines = [f"_f, _c = loc[{item}, 0], loc[{item}, 1]"]
    for k, name in enumerate(renderer.places.zone_order):
        array = f"zone_{name}"
        lines += [f"{'if' if k == 0 else 'elif'} _f == {k}:",
                  f"    zone_remove({array}.reshape(-1, {array}.shape[-1]), {array}_len.reshape(-1), _c, {item})"]
    return lines


def move(renderer: Renderer, node: ir.StateCall, indent: int) -> None:
    """s.move(x, key, under): out of its zone (loc), onto the top of the target or under it."""
    item, key, under = node.args
    moves(renderer, node)
    text = renderer.expression(item)
    family, array, flat = zone_target(renderer, node, key)
    placed = renderer.expression(under)
    renderer.add(indent, f"_x = {text}", node.span)
    for line in removal(renderer, "_x"):
        renderer.add(indent, line, node.span)
    renderer.add(indent, f"_c = {flat}", node.span)
    renderer.add(indent, f"zone_insert({array}.reshape(-1, {array}.shape[-1]), {array}_len.reshape(-1), _c, _x, "
                         f"{placed})", node.span)
    renderer.add(indent, f"loc[_x, 0], loc[_x, 1] = {family}, _c", node.span)
    forget_shown(renderer, "_x", indent, node)


def forget_shown(renderer: Renderer, item: str, indent: int, node: ir.Node) -> None:
    """A component that moves is no longer shown to anyone (State.move)."""
    renderer.uses.add("shown")
    renderer.add(indent, f"shown[{item}, :] = False", node.span)


def deal(renderer: Renderer, node: ir.StateCall, indent: int) -> None:
    """s.deal(n, source, key, under): the source's top, one by one, as n moves would."""
    count, source, key, under = node.args
    moves(renderer, node)
    _, source_array, source_flat = zone_target(renderer, node, source)
    family, array, flat = zone_target(renderer, node, key)
    renderer.add(indent, f"_c = {source_flat}", node.span)
    renderer.add(indent, f"_t = {flat}", node.span)
    renderer.add(indent, f"for _ in range({renderer.expression(count)}):", node.span)
    length = f"{source_array}_len.reshape(-1)[_c]"
    renderer.add(indent + 1, f"if {length} == 0:", node.span)
    renderer.add(indent + 2, "break", node.span)
    renderer.add(indent + 1, f"_x = {source_array}.reshape(-1, {source_array}.shape[-1])[_c, {length} - 1]",
                 node.span)
    renderer.add(indent + 1, f"{length} -= 1", node.span)
    renderer.add(indent + 1, f"zone_insert({array}.reshape(-1, {array}.shape[-1]), {array}_len.reshape(-1), _t, _x, "
                             f"{renderer.expression(under)})", node.span)
    renderer.add(indent + 1, f"loc[_x, 0], loc[_x, 1] = {family}, _t", node.span)
    forget_shown(renderer, "_x", indent + 1, node)


def move_all(renderer: Renderer, node: ir.Call, indent: int) -> None:
    """move_all(s, items, target, under): each item moved, in reverse order when under."""
    _, items, key, under = node.args
    moves(renderer, node)
    family, array, flat = zone_target(renderer, node, key)
    renderer.add(indent, f"_moving = np.array([_y for _y in {renderer.expression(items)}], np.int64)", node.span)
    renderer.add(indent, f"if {renderer.expression(under)}:", node.span)
    renderer.add(indent + 1, "_moving = _moving[::-1].copy()", node.span)
    renderer.add(indent, f"_t = {flat}", node.span)
    renderer.add(indent, "for _x in _moving:", node.span)
    for line in removal(renderer, "_x"):
        renderer.add(indent + 1, line, node.span)
    renderer.add(indent + 1, f"zone_insert({array}.reshape(-1, {array}.shape[-1]), {array}_len.reshape(-1), _t, _x, "
                             f"{renderer.expression(under)})", node.span)
    renderer.add(indent + 1, f"loc[_x, 0], loc[_x, 1] = {family}, _t", node.span)
    forget_shown(renderer, "_x", indent + 1, node)


def shuffle(renderer: Renderer, node: ir.Call, indent: int) -> None:
    """shuffle(s, zone): the random stream's Fisher-Yates over its items; shown to none after."""
    _, key = node.args
    _, array, flat = zone_target(renderer, node, key)
    renderer.uses.update(("rng", "shown", array, f"{array}_len"))
    renderer.add(indent, f"_c = {flat}", node.span)
    renderer.add(indent, f"_items = {array}.reshape(-1, {array}.shape[-1])[_c, :{array}_len.reshape(-1)[_c]]",
                 node.span)
    renderer.add(indent, "shuffle_zone(rng, _items)", node.span)
    renderer.add(indent, "for _x in _items:", node.span)
    renderer.add(indent + 1, "shown[_x, :] = False", node.span)


def reveal_to(renderer: Renderer, node: ir.Call, indent: int) -> None:
    """reveal_to(s, items, players): each seat (not none) sees each component (not none)."""
    if len(node.args) != 3:
        raise NotNative(node, "an attribute told (its facts are Python values)")
    _, items, players = node.args
    renderer.uses.add("shown")
    renderer.add(indent, f"for _p in {renderer.expression(players)}:", node.span)
    renderer.add(indent + 1, "if _p >= 0:", node.span)
    renderer.add(indent + 2, f"for _x in {renderer.expression(items)}:", node.span)
    renderer.add(indent + 3, "if _x >= 0:", node.span)
    renderer.add(indent + 4, "shown[_x, _p] = True", node.span)


# the runtime's writes called as statements -> how each renders
CALLED_WRITES = {"finish": finish, "set_attribute": set_attribute, "move_all": move_all, "shuffle": shuffle,
                 "reveal_to": reveal_to}
STATE_WRITES = {"move": move, "deal": deal}


def expression_statement(renderer: Renderer, node: ir.ExpressionStatement, indent: int) -> None:
    value = node.value
    if isinstance(value, ir.Call) and value.function in CALLED_WRITES:
        CALLED_WRITES[value.function](renderer, value, indent)
    elif isinstance(value, ir.StateCall) and value.operation in STATE_WRITES:
        STATE_WRITES[value.operation](renderer, value, indent)
    else:
        renderer.add(indent, renderer.expression(value), node.span)


def is_cache_bookkeeping(statement: ir.Statement) -> bool:
    """A statement of a cached function's bookkeeping (its stamp, its entry, its table)."""
    for node in ir.walk(statement):
        if isinstance(node, (ir.CacheKey, ir.SetItem)) or (isinstance(node, ir.Global) and
                                                           node.name in CACHE_GLOBALS):
            return True
        if isinstance(node, ir.Local) and node.name in CACHE_LOCALS:
            return True
        if isinstance(node, ir.Assign) and node.target in CACHE_LOCALS:
            return True
    return False


def uncached(body: tuple[ir.Statement, ...]) -> tuple[ir.Statement, ...]:
    """A cached function's body without its bookkeeping: natively its value is computed again."""
    if not any(isinstance(node, ir.CacheKey) for statement in body for node in ir.walk(statement)):
        return body
    return tuple(ir.Rule(uncached(statement.body), statement.span) if isinstance(statement, ir.Rule) else statement
                 for statement in body if isinstance(statement, ir.Rule) or not is_cache_bookkeeping(statement))
