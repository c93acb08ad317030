"""What codegen.py decides about an expression it lowered, read from its IR (ir.py), never from
its text: the locals it reads, whether it is a number, a name, a literal; and the rewrites of
filters and loop bodies that reuse what a filter already computed."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import cast

import attrs

from . import ir
from .generated_names import (BoundConstant, ComponentColumn, ComprehensionVariable, Hoisted, RowKey,
                              RulesFunction, RulesLocal, Temporary)


def is_temporary(name: str) -> bool:
    return isinstance(name, Temporary)


def is_comprehension_variable(name: str) -> bool:
    """A comprehension's variable (or a row of its keys)."""
    return isinstance(name, ComprehensionVariable)


def ungrouped(node: ir.Expression) -> ir.Expression:
    while isinstance(node, ir.Grouped):
        node = node.value
    return node


def written(node: ir.Node) -> Iterator[ir.Node]:
    """The nodes directly inside a node in the order its text writes them (a comprehension's
    `measure` is no part of it)."""
    if isinstance(node, ir.Conditional):
        yield from (node.then, node.test, node.orelse)
    elif isinstance(node, ir.Comprehension):
        yield from (node.element, node.iterable) + ((node.condition,) if node.condition is not None else ())
    elif isinstance(node, ir.Ranked):
        condition = (node.condition,) if node.condition is not None else ()
        yield from (node.keys[:1] + (node.domain,) + condition + node.ties if node.ties
                    else node.keys + (node.domain,) + condition)
    else:
        yield from ir.children(node)


def walk_written(node: ir.Node) -> Iterator[ir.Node]:
    yield node
    for child in written(node):
        yield from walk_written(child)


def rewritten(node: ir.Expression, change: Callable[[ir.Expression], ir.Expression | None]) -> ir.Expression:
    """The expression with `change` applied where it gives a node (None: look inside),
    children replaced in the order they are written."""
    new = change(node)
    if new is not None:
        return new
    if isinstance(node, ir.Comprehension):      # (in written order, the measure left as it is)
        element, iterable = rewritten(node.element, change), rewritten(node.iterable, change)
        condition = None if node.condition is None else rewritten(node.condition, change)
        return attrs.evolve(node, element=element, iterable=iterable, condition=condition)
    if isinstance(node, ir.Conditional):
        then = rewritten(node.then, change)
        return attrs.evolve(node, then=then, test=rewritten(node.test, change), orelse=rewritten(node.orelse, change))
    return cast(ir.Expression, ir.rebuilt(node, lambda child: rewritten(cast(ir.Expression, child), change)))


def binders(node: ir.Node) -> set[str]:
    """The locals an expression binds itself (':=', a lambda's parameters, a loop's targets)."""
    bound: set[str] = set()
    for n in ir.walk(node):
        if isinstance(n, (ir.Named, ir.FirstUse)):
            bound.add(n.target)
        elif isinstance(n, ir.Lambda):
            bound.update(n.params)
        elif isinstance(n, ir.Comprehension):
            bound.update(n.targets)
        elif isinstance(n, (ir.Ranked, ir.ForClause)):
            bound.add(n.target)
    return bound


def mentioned_locals(node: ir.Node) -> set[str]:
    """Every local an expression names, read or bound; `e` for the flow's environment."""
    names = binders(node)
    for n in ir.walk(node):
        if isinstance(n, ir.Local):
            names.add(n.name)
        elif isinstance(n, (ir.ReadEnv, ir.HasEnv)):
            names.add("e")
    return names


def binds_locals(node: ir.Node) -> bool:
    """Whether an expression keeps a value in a local (':=', a value kept on first use)."""
    return any(isinstance(n, (ir.Named, ir.FirstUse)) for n in ir.walk(node))


def number_value(node: ir.Expression) -> int | None:
    """The whole number a number literal stands for (once compiled a param's value is one),
    in parentheses or not, negated or not; else None."""
    if isinstance(node, ir.Grouped):
        node = node.value
    if isinstance(node, ir.Negative) and isinstance(node.operand, ir.Constant):
        value = node.operand.value
        return -value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None
    if isinstance(node, ir.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value
    return None


def literal_of(node: ir.Expression) -> tuple[int | str] | None:
    """(value,) of a whole number or a text literal (in parentheses or not), else None."""
    node = ungrouped(node)
    if isinstance(node, ir.Negative):
        number = ungrouped(node.operand)
        if isinstance(number, ir.Constant) and type(number.value) is int:
            return (-number.value,)
    if isinstance(node, ir.Constant) and type(node.value) in (int, str):
        return (node.value,)    # type: ignore[return-value]
    return None


def name_of(node: ir.Expression) -> str | None:
    """The name an expression is, in parentheses or not: a local, a module name, True, False
    or None; else None."""
    if isinstance(node, ir.Grouped):
        node = node.value
    if isinstance(node, (ir.Local, ir.Global)):
        return node.name
    if isinstance(node, ir.Constant) and (node.value is None or isinstance(node.value, bool)):
        return repr(node.value)
    return None


def is_bare_name(node: ir.Expression) -> bool:
    """Whether an expression is a name as it stands (no parentheses)."""
    return not isinstance(node, ir.Grouped) and name_of(node) is not None


def is_text_literal(node: ir.Expression) -> bool:
    """A text written without an escape."""
    return isinstance(node, ir.Constant) and isinstance(node.value, str) and "\\" not in repr(node.value)


def is_constant(node: ir.Expression, value: object) -> bool:
    return isinstance(node, ir.Constant) and type(node.value) is type(value) and node.value == value


def none_test(node: ir.Expression, op: str) -> str | None:
    """The local that `(x is None)` (op "is") or `(x is not None)` tests, else None."""
    if not isinstance(node, ir.Grouped):
        return None
    test = node.value
    if isinstance(test, ir.Compare) and test.op == op and is_constant(test.right, None) and \
            isinstance(test.left, (ir.Local, ir.Global)):
        return test.left.name
    return None


# ---- a zone's truth ----

def simple_zone_key(key: ir.Expression) -> bool:
    """A zone key written without parentheses inside: literals and names, or a row's key."""
    if isinstance(key, ir.Local):
        return isinstance(key.name, RowKey)
    return isinstance(key, ir.Key) and bool(key.indexes) and all(
        isinstance(i, (ir.Local, ir.Global)) or (isinstance(i, ir.Constant) and not set(repr(i.value)) & set("()"))
        for i in key.indexes)


def truth(node: ir.Expression) -> ir.Expression:
    """A condition for where only its truth counts (an if, a filter): a zone's `not not` goes,
    the zone's content is as true."""
    def change(n: ir.Expression) -> ir.Expression | None:
        if isinstance(n, ir.Grouped) and isinstance(n.value, ir.Not) and isinstance(n.value.operand, ir.Not):
            zone = n.value.operand.operand
            if isinstance(zone, ir.ReadZone) and not zone.empty and simple_zone_key(zone.key):
                return zone
        return None
    return rewritten(node, change)


# ---- values a filter computed already ----

def canonical(node: ir.Expression) -> ir.Expression:
    """An expression without its parentheses and layout, its own temporaries renamed in order
    of appearance: two writings of one expression (an inlined function, twice) are equal."""
    names: dict[str, str] = {}

    def renamed(name: str) -> str:
        return names.setdefault(name, Temporary(f"_t{len(names)}")) if is_temporary(name) else name

    def change(n: ir.Expression) -> ir.Expression | None:
        if isinstance(n, ir.Grouped):
            return rewritten(n.value, change)
        if isinstance(n, ir.Local):
            return ir.Local(renamed(n.name))
        if isinstance(n, ir.Named):
            target = renamed(n.target)
            return ir.Named(target, rewritten(n.value, change))
        if isinstance(n, ir.Lambda):
            params = tuple(renamed(p) for p in n.params)
            return ir.Lambda(params, rewritten(n.body, change))
        return None

    def plain(n: ir.Node) -> ir.Node:
        layout = {f.name: f.default for f in attrs.fields(type(n)) if f.name in ("spread", "layout", "measure")}
        return ir.rebuilt(attrs.evolve(n, **layout) if layout else n, plain)
    return cast(ir.Expression, plain(rewritten(node, change)))


def filter_values(where: ir.Expression) -> dict[ir.Expression, str]:
    """The values a filter keeps in temporaries (`(_t1 := X)`) that are surely kept whenever the
    filter is true: X's canonical form -> the temporary. An item that passes the filter can
    read them instead of computing X again."""
    found: dict[ir.Expression, str] = {}

    def visit(node: ir.Expression) -> None:
        node = ungrouped(node)
        if isinstance(node, ir.BoolOp):
            # an `and` that is true evaluated all its operands; an `or`, surely its first
            for value in (node.operands if node.op == "and" else node.operands[:1]):
                visit(value)
        elif isinstance(node, ir.Compare):
            visit(node.left)
            visit(node.right)
        elif isinstance(node, ir.Between):
            for value in (node.low, node.value, node.high):
                visit(value)
        elif isinstance(node, (ir.Not, ir.Negative)):
            visit(node.operand)
        elif isinstance(node, ir.Named):
            found.setdefault(canonical(node.value), node.target)
            visit(node.value)
    visit(where)
    return found


def reusing(node: ir.Expression, values: dict[ir.Expression, str]) -> ir.Expression:
    """`node`, or the temporary that already holds its value (filter_values)."""
    if not values:
        return node
    temp = values.get(canonical(node))
    return node if temp is None else ir.Local(temp)


def top_of_tested(where: ir.Expression, body: ir.Expression) -> tuple[ir.Expression, ir.Expression]:
    """(where, body) of an aggregate that keeps the items whose zone is not empty and takes its
    top (`map(k in 1..n where size(pile[k]) > 0: top(pile[k]))`): the zone read once, by the
    filter, and its top taken without a test (the filter passed: it is not empty)."""
    top = body.value if isinstance(body, ir.Grouped) else None
    if not (isinstance(where, ir.ReadZone) and not where.empty and isinstance(top, ir.Conditional)
            and isinstance(top.test, ir.Named) and top.test.value == ir.ReadZone(where.key, True)
            and top.then == ir.Item(ir.Local(top.test.target), ir.Constant(-1)) and is_constant(top.orelse, None)):
        return where, body
    return ir.Named(top.test.target, where), top.then


def guarded_column_read(node: ir.Node) -> bool:
    """`_A[x]` of a rules local x, or `(_A[x] if x is not None else None)`: an attribute of a
    named value from a component's column."""
    if isinstance(node, ir.Grouped) and isinstance(node.value, ir.Conditional):
        test, then, orelse = node.value.test, node.value.then, node.value.orelse
        return (column_read(then) and is_constant(orelse, None) and isinstance(test, ir.Compare) and test.op == "is not"
                and is_constant(test.right, None) and test.left == then.entity)  # type: ignore[attr-defined]
    return column_read(node)


def column_read(node: ir.Node) -> bool:
    return isinstance(node, ir.ReadColumn) and isinstance(node.column, ComponentColumn) and \
        isinstance(node.entity, ir.Local) and isinstance(node.entity.name, RulesLocal)


def attributes_read_once(nodes: list[ir.Expression | None], temp: Callable[[], str]
                         ) -> tuple[list[tuple[str, ir.Expression]], list[ir.Expression | None]]:
    """([(temporary, read)], nodes) where each attribute of a named value (`x.colour` of a
    parameter x, its none test with it) that a loop's expressions read per item is read once
    before the loop: the columns never change, and no loop rebinds a rules local. Such a read
    cannot fail for a value the rules give (a component or none)."""
    reads: list[tuple[str, ir.Expression]] = []
    names: dict[ir.Expression, str] = {}

    def change(n: ir.Expression) -> ir.Expression | None:
        if not guarded_column_read(n):
            return None
        if n not in names:
            names[n] = temp()
            reads.append((names[n], n))
        return ir.Local(names[n])
    return reads, [None if node is None else rewritten(node, change) for node in nodes]


def temporaries_of_their_own(nodes: tuple[ir.Expression, ...], elsewhere: tuple[ir.Expression | None, ...]) -> bool:
    """Whether expressions may move into a lambda: every temporary they read they bind
    themselves, none that they bind is read elsewhere, and they read no value hoisted for a
    loop level (kept on first use, which a lambda would make its own)."""
    mentioned = set().union(*(mentioned_locals(n) for n in nodes))
    if any(isinstance(name, Hoisted) for name in mentioned):
        return False
    bound = {n.target for node in nodes for n in ir.walk(node) if isinstance(n, ir.Named) and is_temporary(n.target)}
    others = set().union(*(mentioned_locals(n) for n in elsewhere if n is not None))
    return {name for name in mentioned if is_temporary(name)} <= bound and not bound & others


def state_tables(node: ir.Node) -> frozenset[str]:
    """The state's tables an expression reads through the locals a function binds them to at
    its top (`_Z` zones, `_V` variables, `_E` entities, `_A<k>` a component column): the IR
    twin of source_text.host_reads."""
    return facts_of(node).tables


# ---- a listing's domains ----

def whole_number(node: ir.Expression) -> int | None:
    """A whole number written as such (`3`, `-3`; not in parentheses), else None."""
    if isinstance(node, ir.Negative):
        value = whole_number(node.operand)
        return None if value is None or isinstance(node.operand, ir.Negative) else -value
    return node.value if isinstance(node, ir.Constant) and type(node.value) is int else None


def constant_range(domain: ir.Expression) -> tuple[int, ...] | None:
    """The values of a domain `range(a, b)` with whole numbers, else None."""
    if not (isinstance(domain, ir.Call) and domain.function == "range" and len(domain.args) == 2):
        return None
    low, high = (whole_number(arg) for arg in domain.args)
    return tuple(range(low, high)) if low is not None and high is not None else None


def is_bound_constant(domain: ir.Expression) -> bool:
    """Whether a domain is a value the compiler bound in the module (`_k3`)."""
    return isinstance(domain, ir.Global) and isinstance(domain.name, BoundConstant)


def is_temporary_or_constant(domain: ir.Expression) -> bool:
    """Whether a domain is a value read once or a constant the compiler bound (its length can
    be read again, it needs no copy)."""
    return is_bound_constant(domain) or (isinstance(domain, ir.Local) and isinstance(domain.name, Hoisted))


def top_of(node: ir.Expression) -> str | None:
    """The local whose last item an expression is, none when it is empty (`(_h1[-1] if _h1
    else None)`), else None."""
    node = node.value if isinstance(node, ir.Grouped) else node
    if isinstance(node, ir.Conditional) and isinstance(node.test, ir.Local) and is_constant(node.orelse, None) \
            and node.then == ir.Item(node.test, ir.Constant(-1)):
        return node.test.name
    return None


def zone_under_top(values: dict[str, ir.Expression], temp: str) -> str | None:
    """The value read once that `temp` is the top card of, when it is a zone's list (values:
    temporary -> its value); else None."""
    top = top_of(values[temp]) if temp in values else None
    zone = values.get(top) if top is not None else None
    return top if isinstance(zone, ir.ReadZone) and zone.empty else None


def is_read_once(node: ir.Expression) -> bool:
    """Whether an expression is just a value read once per loop level (a hoisted temporary)."""
    return isinstance(node, ir.Local) and isinstance(node.name, Hoisted)


def one_call(node: ir.Expression, name: str) -> bool:
    """Whether an expression is one call of `name` as a whole, not a call with more after it."""
    return isinstance(node, ir.Call) and node.function == name


def called_function(node: ir.Expression) -> str | None:
    """The rules function an expression is one call of (made at once or on first use), or None."""
    if isinstance(node, ir.FirstUse):
        node = node.value
    if isinstance(node, ir.Call) and isinstance(node.function, RulesFunction):
        return node.function.rules_name
    return None


# ---- the Python names an expression's text mentions ----

STATE_NAMES: dict[type, str] = {ir.TheState: "s", ir.ReadState: "s", ir.StateCall: "s", ir.ComponentsOf: "s",
                                ir.ReadEnv: "e", ir.HasEnv: "e", ir.ReadZone: "_Z", ir.ReadVar: "_V",
                                ir.ReadAttribute: "_E", ir.Entities: "_E", ir.FirstUse: "UNSET"}


def names_written(node: ir.Node) -> Iterator[tuple[str, ir.Node]]:
    """(name, the node that writes it) for every Python name the expression's text reads or
    binds (a lambda's parameters and a keyword's name are no such name)."""
    for n in ir.walk(node):
        if isinstance(n, (ir.Local, ir.Global)):
            yield n.name, n
        elif isinstance(n, ir.Call):
            yield n.function, n
        elif isinstance(n, ir.ReadColumn):
            yield n.column, n
        elif isinstance(n, (ir.Named, ir.FirstUse)):
            yield n.target, n
        elif isinstance(n, ir.Comprehension):
            yield from ((t, n) for t in n.targets)
        elif isinstance(n, ir.Ranked):
            yield n.target, n
            yield ("ranked_ties" if n.ties else "ranked"), n
        if type(n) in STATE_NAMES:
            yield STATE_NAMES[type(n)], n


# ---- what is inside a node, found once (kept on the node: ir.Node.facts) ----

NO_NAMES: frozenset[str] = frozenset()


@attrs.frozen
class Facts:
    """What a node and every node inside it hold, for the questions asked of whole functions
    (the passes, the prologue): `names`, the locals read; `env`, whether the flow's
    environment is used; `more_names`, the Cached ones; `tables`, the state's tables read (state_tables); `bound`, those
    and the ones written (a variable, `_V`) or read for a label (`_E`, a LabelSet's column); `generator`, whether a
    decision (Yield, YieldFrom) is made; `folds`, whether fold_constants may change something
    (where it is false, it gives the node back as it is: see FOLDABLE); `negations`, the same
    for remove_double_negation (a `not` over a `not` or brackets, an any() or all())."""
    names: frozenset[str] = NO_NAMES
    env: bool = False
    more_names: frozenset[str] = NO_NAMES
    tables: frozenset[str] = NO_NAMES
    bound: frozenset[str] = NO_NAMES
    generator: bool = False
    folds: bool = False
    negations: bool = False


NOTHING = Facts()


def table_facts(table: str) -> Facts:
    return Facts(tables=frozenset((table,)), bound=frozenset((table,)))


ENVIRONMENT, GENERATOR, FOLDS = Facts(env=True), Facts(generator=True), Facts(folds=True)
NEGATIONS, FOLDS_AND_NEGATIONS = Facts(negations=True), Facts(folds=True, negations=True)

# where fold_constants may change a node whose children it leaves as they are (more is harmless):
# a constant operand or test, a double negation, parentheses around a constant, an `and` of one
FOLDABLE: dict[type, Callable[..., bool]] = {
    ir.Not: lambda node: isinstance(node.operand, (ir.Constant, ir.Not, ir.Grouped)),
    ir.Arithmetic: lambda node: isinstance(node.left, ir.Constant) and isinstance(node.right, ir.Constant),
    ir.Compare: lambda node: isinstance(node.left, ir.Constant) and isinstance(node.right, ir.Constant),
    ir.BoolOp: lambda node: len(node.operands) < 2 or any(isinstance(operand, ir.Constant) for operand in node.operands),
    ir.Conditional: lambda node: isinstance(node.test, ir.Constant),
    ir.Grouped: lambda node: isinstance(node.value, ir.Constant),
}
ZONES, VARIABLES, ENTITIES = table_facts("_Z"), table_facts("_V"), table_facts("_E")

# what a node holds itself, its children apart, by its class (the others: nothing)
OWN_FACTS: dict[type, Callable[..., Facts]] = {
    ir.ReadEnv: lambda node: ENVIRONMENT, ir.WriteEnv: lambda node: ENVIRONMENT,
    ir.DeleteEnv: lambda node: ENVIRONMENT, ir.HasEnv: lambda node: ENVIRONMENT,
    ir.ReadZone: lambda node: ZONES, ir.ReadVar: lambda node: VARIABLES,
    ir.ReadAttribute: lambda node: ENTITIES, ir.Entities: lambda node: ENTITIES,
    ir.ReadColumn: lambda node: table_facts(node.column) if isinstance(node.column, ComponentColumn) else NOTHING,
    ir.Cached: lambda node: Facts(more_names=frozenset((node.name,))),
    ir.WriteVar: lambda node: Facts(bound=frozenset(("_V",))),
    ir.ArgumentText: lambda node: Facts(bound=frozenset(("_E",))) if node.of == "label" else NOTHING,
    ir.LabelSet: lambda node: Facts(bound=frozenset((node.column,))),
    ir.Yield: lambda node: GENERATOR, ir.YieldFrom: lambda node: GENERATOR,
}
OWN_FACTS.update({cls: (lambda node, foldable=foldable: FOLDS if foldable(node) else NOTHING)
                  for cls, foldable in FOLDABLE.items()})
# where remove_double_negation may change a node (more is harmless): a `not` over a `not` or over
# brackets (that may hold one), any() and all() (whose items it reads as tests)
OWN_FACTS[ir.Not] = lambda node: FOLDS_AND_NEGATIONS if isinstance(node.operand, (ir.Not, ir.Grouped)) \
    else FOLDS if isinstance(node.operand, ir.Constant) else NOTHING
OWN_FACTS[ir.Call] = lambda node: NEGATIONS if node.function in ("any", "all") else NOTHING


def joined(parts: list[Facts]) -> Facts:
    if not parts:
        return NOTHING
    first = parts[0]
    names, env, more_names, tables, bound, generator, folds, negations = (
        first.names, first.env, first.more_names, first.tables, first.bound, first.generator, first.folds,
        first.negations)
    for part in parts[1:]:
        if part is first:
            continue
        names = names | part.names if part.names else names
        more_names = more_names | part.more_names if part.more_names else more_names
        tables = tables | part.tables if part.tables else tables
        bound = bound | part.bound if part.bound else bound
        env, generator, folds = env or part.env, generator or part.generator, folds or part.folds
        negations = negations or part.negations
    if names is first.names and more_names is first.more_names and bound is first.bound and \
            (env, generator, folds, negations) == (first.env, first.generator, first.folds, first.negations):
        return first    # (tables grow only with bound)
    return Facts(names, env, more_names, tables, bound, generator, folds, negations)


def local_facts(node: ir.Local) -> Facts:
    """A local's facts, one value per name (the same object: joined sees it is one)."""
    facts = LOCAL_FACTS.get(node.name)
    if facts is None:
        facts = LOCAL_FACTS[node.name] = Facts(names=frozenset((node.name,)))
    return facts


LOCAL_FACTS: dict[str, Facts] = {}
OWN_FACTS[ir.Local] = local_facts


def facts_of(node: ir.Node) -> Facts:
    """The Facts of a node and what is inside it, each node looked into once and its facts kept
    on it. (Recursive, one frame a level: the passes that run before go as deep with more.)"""
    known = getattr(node, "facts", None)     # (a miss: no exception raised in Python, ~2x cheaper)
    if known is not None:
        return known
    parts = []
    for name in ir.field_names(node.__class__):
        value = getattr(node, name)
        if isinstance(value, ir.Node):
            inner = facts_of(value)
            if inner is not NOTHING:
                parts.append(inner)
        elif value.__class__ is tuple:
            for item in value:
                if isinstance(item, ir.Node):
                    inner = facts_of(item)
                    if inner is not NOTHING:
                        parts.append(inner)
    own = OWN_FACTS.get(node.__class__)
    if own is not None:
        mine = own(node)
        if mine is not NOTHING:
            parts.append(mine)
    facts = joined(parts)
    object.__setattr__(node, "facts", facts)        # (not a field: see ir.Node)
    return facts
