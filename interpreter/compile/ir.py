"""The compiler's intermediate representation: typed, frozen nodes for what a generated
function is made of (statements, expressions, state reads and writes as named operations).

Lowering builds it (lower_flow.py, codegen.py, ...), passes rewrite it (passes/), one renderer
writes it out (render_python.py). State is reached through operations (ReadState, WriteEnv,
ReadZone, ...), never through Python syntax, so that another renderer can target typed arrays.
Every generated function is built of these nodes: no node carries source text.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar, cast

import attrs
from referee.dsl.ast import Span

if TYPE_CHECKING:      # (the type checker knows attrs' classes, not the syntax tree's helper)
    from attrs import frozen as node_class
else:                  # frozen attrs classes sharing one repr: cheaper to make at each start-up
    from referee.dsl.ast import node as node_class

Value = None | bool | int | str


if TYPE_CHECKING:      # (to the type checker, an attrs class like its subclasses)
    @attrs.frozen
    class Node:
        if TYPE_CHECKING:   # (attributes, not fields: each subclass declares its span)
            span: Span | None
            facts: Any
else:
    class Node:
        """A node of the IR; `span` is the rules text it comes from (None: made by the compiler).
        `facts`: what expression_facts.facts_of found inside the node, kept on first use (a node
        never changes, and passes share what they leave unchanged: each node is looked into
        once); a slot, no field, so no part of equality, hashing or printing."""
        __slots__ = ("facts", "__weakref__")


@node_class
class Expression(Node):
    """A node that has a value."""


@node_class
class Statement(Node):
    """A node that runs."""


# ---- expressions --------------------------------------------------------------------------

@node_class
class Constant(Expression):
    """A literal: none, a truth value, a whole number or a text."""
    value: Value
    span: Span | None = None


@node_class
class Local(Expression):
    """A local variable of the function (its parameters included)."""
    name: str
    span: Span | None = None


@node_class
class Global(Expression):
    """A name of the generated module: a runtime function or constant, or a value the compiler
    bound there (an instruction, a compiled function)."""
    name: str
    span: Span | None = None


@node_class
class TheState(Expression):
    """The state the function runs on (its first parameter)."""
    span: Span | None = None


@node_class
class ReadState(Expression):
    """A field of the state: pc, current, turn, extra, terminal, pending."""
    field: str
    span: Span | None = None


@node_class
class ReadEnv(Expression):
    """The flow environment's entry `key` (a loop's progress, a loop variable)."""
    key: str
    span: Span | None = None


@node_class
class HasEnv(Expression):
    """Whether the flow environment has an entry `key`."""
    key: str
    span: Span | None = None


@node_class
class Field(Expression):
    """A field of a value the compiler bound (an instruction's `fn` or `span`)."""
    value: Expression
    name: str
    span: Span | None = None


@node_class
class Item(Expression):
    """The item at `index` of a sequence."""
    sequence: Expression
    index: Expression
    span: Span | None = None


@node_class
class Tuple(Expression):
    """A tuple of values."""
    items: tuple[Expression, ...]
    span: Span | None = None


@node_class
class Call(Expression):
    """A call of a runtime function (or a builtin) by its name."""
    function: str
    args: tuple[Expression, ...] = ()
    spread: bool = False        # the arguments one a line when long together (the state's stays first)
    span: Span | None = None


@node_class
class StateCall(Expression):
    """An operation of the state, by name: `listed` (list the legal moves, True if any)."""
    operation: str
    args: tuple[Expression, ...] = ()
    span: Span | None = None


@node_class
class Not(Expression):
    """Logical negation."""
    operand: Expression
    span: Span | None = None


@node_class
class Arithmetic(Expression):
    """+ - * // % of two numbers."""
    op: str
    left: Expression
    right: Expression
    spread: bool = False        # the operands one a line when long together (a chain of one op too)
    span: Span | None = None


@node_class
class Compare(Expression):
    """== != < <= > >= is, is not, in, not in."""
    op: str
    left: Expression
    right: Expression
    spread: bool = False        # the operands one a line when long together
    span: Span | None = None


@node_class
class BoolOp(Expression):
    """`and` or `or` of two or more operands, evaluated in order until one decides."""
    op: str
    operands: tuple[Expression, ...]
    spread: bool = False        # the operands one a line when long together
    span: Span | None = None


@node_class
class Conditional(Expression):
    """`then` if `test` holds, else `orelse`."""
    test: Expression
    then: Expression
    orelse: Expression
    layout: str = ""            # long: "spread" breaks before `if` and `else`, "chain" before `else`
    span: Span | None = None


# ---- expressions of the rules (codegen.py) -------------------------------------------------
# What codegen.py lowers the rules' expressions to besides the nodes above and the statements'
# (Key, ReadVar, Between, Method, NewList) and listings' (Arguments) sections below; `_Z`, `_V`,
# `_E` and `_A<k>` are the state's tables a function binds once at its top.

@node_class
class Grouped(Expression):
    """An expression in parentheses of its own (the generated text keeps the ones the rules'
    expressions have always been written with; a pass or another renderer may drop them)."""
    value: Expression
    over_lines: bool = False    # only when the value is written over lines (a long sum)
    span: Span | None = None


@node_class
class Named(Expression):
    """`value`, kept in the local `target` too (for a later part of the expression)."""
    target: str
    value: Expression
    span: Span | None = None


@node_class
class FirstUse(Expression):
    """The local `target` once it holds a value (it starts UNSET), else `value`, kept in it: a
    read computed at most once per loop round, and only where the rules ask for it."""
    target: str
    value: Expression
    span: Span | None = None


@node_class
class Negative(Expression):
    """Unary minus."""
    operand: Expression
    span: Span | None = None


@node_class
class RowKey(Expression):
    """The values that a comprehension's rows of zone keys are made for, as the key of their
    table: `(a, b,)`."""
    items: tuple[Expression, ...]
    span: Span | None = None


@node_class
class Comprehension(Expression):
    """`element` for each item of `iterable` (bound to `targets`, a row's values when several)
    that passes `condition`: a new list, or (`generator`) the values one by one for the call
    it is the argument of. `spread`: a long one breaks before `for` and `if`, measured on
    `measure` (the element unless given)."""
    element: Expression
    targets: tuple[str, ...]
    iterable: Expression
    condition: Expression | None = None
    generator: bool = False
    spread: bool = True
    measure: Expression | None = None
    span: Span | None = None


@node_class
class Ranked(Expression):
    """The items `target` of `domain` passing `condition` ranked by `keys` (kind: sorted, the
    largest, the smallest...); with `ties`, the keys after the first, computed for tied items
    only."""
    kind: str
    keys: tuple[Expression, ...]
    target: str
    domain: Expression
    condition: Expression | None = None
    ties: tuple[Expression, ...] = ()
    span: Span | None = None


@node_class
class Lambda(Expression):
    """A function of `params` whose value is `body`."""
    params: tuple[str, ...]
    body: Expression
    span: Span | None = None


@node_class
class Apply(Expression):
    """A call of a computed function (a lambda)."""
    function: Expression
    args: tuple[Expression, ...] = ()
    span: Span | None = None


@node_class
class Keyword(Expression):
    """An argument given by name."""
    name: str
    value: Expression
    span: Span | None = None


@node_class
class ReadZone(Expression):
    """The content of the zone of key `key` (missing: None, or the empty zone when `empty`)."""
    key: Expression
    empty: bool = False
    span: Span | None = None


@node_class
class ReadAttribute(Expression):
    """An attribute of an entity of the state, by name (none when it has no such attribute)."""
    entity: Expression
    name: str
    span: Span | None = None


@node_class
class ReadColumn(Expression):
    """An attribute that never changes, from its column `column` (a module name): the
    component's or the board cell's entry."""
    column: str
    entity: Expression
    span: Span | None = None


@node_class
class ComponentsOf(Expression):
    """The components of a type, in the order made."""
    type_name: str
    span: Span | None = None


@node_class
class Entities(Expression):
    """The entities of the state (for a helper that reads an attribute)."""
    span: Span | None = None


LOWERED_EXPRESSIONS = (Grouped, Named, FirstUse, Negative, RowKey, Comprehension, Ranked, Lambda, Apply,
                       Keyword, ReadZone, ReadAttribute, ReadColumn, ComponentsOf, Entities)


# ---- statements ---------------------------------------------------------------------------

@node_class
class Assign(Statement):
    """A local gets a value."""
    target: str
    value: Expression
    span: Span | None = None


@node_class
class Unpack(Statement):
    """Locals get the items of a sequence of as many."""
    targets: tuple[str, ...]
    value: Expression
    span: Span | None = None


@node_class
class WriteState(Statement):
    """A field of the state gets a value (see ReadState)."""
    field: str
    value: Expression
    span: Span | None = None


@node_class
class WriteEnv(Statement):
    """The flow environment's entry `key` gets a value."""
    key: str
    value: Expression
    span: Span | None = None


@node_class
class DeleteEnv(Statement):
    """The flow environment's entry `key` goes."""
    key: str
    span: Span | None = None


@node_class
class CountCoverage(Statement):
    """With coverage: one more for the counter `counter` (COV, see coverage.py)."""
    counter: int
    span: Span | None = None


@node_class
class ExpressionStatement(Statement):
    """An expression run for its effect (a call)."""
    value: Expression
    span: Span | None = None


@node_class
class If(Statement):
    """`body` if `test` holds, else `orelse` (an elif is an If alone in `orelse`)."""
    test: Expression
    body: tuple[Statement, ...]
    orelse: tuple[Statement, ...] = ()
    span: Span | None = None


@node_class
class While(Statement):
    """`body` as long as `test` holds."""
    test: Expression
    body: tuple[Statement, ...]
    span: Span | None = None


@node_class
class ForRange(Statement):
    """`body` for each whole number `name` from `start` up to `stop` (not included)."""
    name: str
    start: Expression
    stop: Expression
    body: tuple[Statement, ...]
    span: Span | None = None


@node_class
class ForEach(Statement):
    """`body` for each item `name` of a sequence."""
    name: str
    sequence: Expression
    body: tuple[Statement, ...]
    span: Span | None = None


@node_class
class Return(Statement):
    """The function ends (with a value, or none)."""
    value: Expression | None = None
    span: Span | None = None


@node_class
class Yield(Statement):
    """A decision: the function stops with `value` and goes on when the engine sends the
    answer back, which `target` (a local) gets, unless it is empty."""
    value: Expression
    target: str = ""
    span: Span | None = None


@node_class
class Break(Statement):
    """The innermost loop ends."""
    span: Span | None = None


@node_class
class Continue(Statement):
    """The innermost loop goes round again."""
    span: Span | None = None


@node_class
class Try(Statement):
    """`body`; if it raises the runtime's exception `exception`, `handler` instead of the rest."""
    body: tuple[Statement, ...]
    exception: str
    handler: tuple[Statement, ...]
    span: Span | None = None


@node_class
class Function(Node):
    """A generated function: its name, its parameters, its body."""
    name: str
    params: tuple[str, ...]
    body: tuple[Statement, ...]
    span: Span | None = None


# ---- statements of the rules ----------------------------------------------------------------
# What the rules' statements, functions and procedures are lowered to (lower_statements.py,
# lower_functions.py) besides the nodes above. `_V` is the state's variables, bound once at the
# top of a function that reads them (its prologue, decided from what the IR reads).

@node_class
class Rule(Statement):
    """The statements one statement of the rules became, said first by a `# file:line` comment
    (again where a statement of the same line is nested in another)."""
    body: tuple[Statement, ...]
    span: Span | None = None


@node_class
class Guard(Statement):
    """`then`, one simple statement, if `test` holds, written on the test's line (a located
    error raised, a loop left); `orelse` as an If's."""
    test: Expression
    then: tuple[Statement, ...]
    orelse: tuple[Statement, ...] = ()
    span: Span | None = None


@node_class
class Unless(Statement):
    """A refusal: `then`, one simple statement (a reason returned, a located error raised),
    unless `test` holds; `if not (test): then`, on two lines when long (an action's guard)."""
    test: Expression
    then: tuple[Statement, ...]
    span: Span | None = None


@node_class
class ForClause(Node):
    """`for target in iterable`, then `if test` for each of `tests`: a clause of Loops."""
    target: str
    iterable: Expression
    tests: tuple[Expression, ...] = ()
    span: Span | None = None


@node_class
class Loops(Expression):
    """A comprehension over clauses one inside the other: `[element for a in A if t for b in
    B]`, a set in `braces` (a cached function's index: caching.py)."""
    element: Expression
    clauses: tuple[ForClause, ...]
    braces: bool = False
    span: Span | None = None


@node_class
class ShortLoop(Statement):
    """`for target in iterable: body` on one line, a `remark` after it (a loop over a few
    values: no frame of its own)."""
    target: str
    iterable: Expression
    body: tuple[Statement, ...]
    remark: str = ""
    span: Span | None = None


@node_class
class Rounds(Statement):
    """`body` at most `count` times, `name` counting the rounds from 0 (a Break leaves early);
    `exhausted` runs when every round ran."""
    name: str
    count: Expression
    body: tuple[Statement, ...]
    exhausted: tuple[Statement, ...] = ()
    span: Span | None = None


@node_class
class Raise(Statement):
    """The exception `value` is raised (a located error, or a choice asked from outside a step)."""
    value: Expression
    span: Span | None = None


@node_class
class YieldFrom(Statement):
    """A step run inside this one (a chance node, a procedure that may choose): its decisions
    are this function's; `target` (a local), unless empty, gets what it returns."""
    value: Expression
    target: str = ""
    span: Span | None = None


@node_class
class Key(Expression):
    """The key of an entry of a variable or zone family: the family's name alone, or with its
    indexes."""
    family: str
    indexes: tuple[Expression, ...] = ()
    span: Span | None = None


@node_class
class ReadVar(Expression):
    """The state's variable entry `key`, `default` where it was never written."""
    key: Expression
    default: Expression
    span: Span | None = None


@node_class
class WriteVar(Statement):
    """The state's variable entry `key` gets a value."""
    key: Expression
    value: Expression
    span: Span | None = None


@node_class
class Budget(Expression):
    """What is left of the step's budget `budget` (0: loop rounds, 1: units of work)."""
    budget: int
    span: Span | None = None


@node_class
class Spend(Statement):
    """The step's budget `budget` loses `units`."""
    budget: int
    units: Expression
    span: Span | None = None


@node_class
class Invalidate(Statement):
    """The cached values of functions that read what stamp `stamp` counts are stale."""
    stamp: int
    span: Span | None = None


@node_class
class AppendLog(Statement):
    """A line goes to the game's log."""
    value: Expression
    span: Span | None = None


@node_class
class Between(Expression):
    """Whether `low <= value <= high`."""
    low: Expression
    value: Expression
    high: Expression
    span: Span | None = None


@node_class
class Method(Expression):
    """A method of a value the function made (a dict of a component's attributes)."""
    value: Expression
    name: str
    args: tuple[Expression, ...] = ()
    span: Span | None = None


@node_class
class CacheKey(Expression):
    """What a cached function keeps a value under: its one argument, or all of them together."""
    values: tuple[Expression, ...]
    span: Span | None = None


@node_class
class SetItem(Statement):
    """The entry `key` of a table the function keeps (a cache) gets a value."""
    table: Expression
    key: Expression
    value: Expression
    span: Span | None = None


@node_class
class NewList(Expression):
    """A new list of values."""
    items: tuple[Expression, ...] = ()
    spread: bool = False        # the items one a line when long together
    span: Span | None = None


@node_class
class NewDict(Expression):
    """A new dict of keys and their values."""
    keys: tuple[Expression, ...]
    values: tuple[Expression, ...]
    spread: bool = True         # the entries one a line when long together
    span: Span | None = None


@node_class
class Remark(Statement):
    """A comment in the generated code that says why the code around it is so."""
    text: str
    span: Span | None = None


@node_class
class JoinedText(Expression):
    """A text made of texts, in order (a move's name from its label's pieces)."""
    pieces: tuple[Expression, ...]
    span: Span | None = None


@node_class
class ArgumentText(Expression):
    """A move's argument as its name shows it: a seat's "P<n>" (`of` "seat"), a component's or a
    cell's label (`of` "label", read from the state's entities), an enum member's name (`of`
    "name": the value itself); "none" for none. `bound`: the value kept in that local first
    (an expression read once)."""
    value: Expression
    of: str
    bound: str = ""
    span: Span | None = None


# ---- listings (the legal moves' enumerators: lower_listing.py, lower_fused.py) ----------

@node_class
class EmptyList(Expression):
    """A new empty list (of moves, of a domain's values)."""
    span: Span | None = None


@node_class
class Arguments(Expression):
    """A move's argument tuple, as the listings write it: `(a, b, )`."""
    items: tuple[Expression, ...]
    span: Span | None = None


@node_class
class SingleMoves(Expression):
    """The moves of one binder, one per value of a list: `[(v,) for v in values]`."""
    values: Expression
    span: Span | None = None


@node_class
class LabelSet(Expression):
    """The labels of a list's components (a column of labels read for each)."""
    column: str
    values: Expression
    span: Span | None = None


@node_class
class ChargedDomain(Expression):
    """A domain gone through while its values are charged to the step's work budget, `per_value`
    each; `where` names the span an overrun is reported at."""
    domain: Expression
    per_value: Expression
    where: str
    span: Span | None = None


@node_class
class TopOfZone(Expression):
    """The top (last) item of a zone's list, or none when it is empty."""
    zone: Expression
    span: Span | None = None


@node_class
class Results(Expression):
    """Several values returned together: `a, b`."""
    items: tuple[Expression, ...]
    span: Span | None = None


@node_class
class ByAction(Expression):
    """The listings of several actions by their indexes (`keys`, constants)."""
    keys: tuple[Expression, ...]
    values: tuple[Expression, ...]
    span: Span | None = None


@node_class
class Cached(Expression):
    """A value computed where it is first asked for and kept in the local `name` (set to UNSET
    before) for the other places that ask for it."""
    name: str
    value: Expression
    span: Span | None = None


# what a HostTest compares: a name, then each index of an item of it in turn (a name or a
# whole number): `t[x][0]` is ("t", "x", 0), a column `_A0[x]` ("_A0", "x")
SubjectKey = tuple[str | int, ...]


@node_class
class HostTest(Expression):
    """A test (`source`) that its maker knows to be `subject == constant` (negated: `not
    subject == constant`), or to begin with that comparison (not whole: `... and ...`), the
    subject a name or an item of one (its SubjectKey): what drop_implied_tests reads."""
    source: Expression
    subject: SubjectKey
    constant: Value
    negated: bool = False
    whole: bool = True
    span: Span | None = None


@node_class
class Append(Statement):
    """A value added at the end of the list in the local `collection`."""
    collection: str
    value: Expression
    span: Span | None = None


@node_class
class AddToSet(Statement):
    """A value added to the set in the local `collection`."""
    collection: str
    value: Expression
    span: Span | None = None


@node_class
class ChargeWork(Statement):
    """`units` taken from the step's work budget; past it, an error located at `where`."""
    units: Expression
    where: str
    span: Span | None = None


@node_class
class ShortIf(Statement):
    """An if whose body (a statement or two without blocks) is written on the if's own line."""
    test: Expression
    body: tuple[Statement, ...]
    span: Span | None = None


LISTING_EXPRESSIONS = (EmptyList, Arguments, SingleMoves, LabelSet, ChargedDomain, TopOfZone, Results, ByAction,
                       Cached, HostTest)
LISTING_STATEMENTS = (Append, AddToSet, ChargeWork, ShortIf)
RULE_EXPRESSIONS = (Key, ReadVar, Budget, Between, Method, CacheKey, NewList, NewDict, JoinedText, ArgumentText,
                    Loops)
RULE_STATEMENTS = (Rule, Guard, Rounds, Raise, YieldFrom, WriteVar, Spend, Invalidate, AppendLog, SetItem, Remark,
                   Unless, ShortLoop)


EXPRESSIONS = (Constant, Local, Global, TheState, ReadState, ReadEnv, HasEnv, Field, Item, Tuple, Call,
               StateCall, Not, Arithmetic, Compare, BoolOp, Conditional) + RULE_EXPRESSIONS + LISTING_EXPRESSIONS \
    + LOWERED_EXPRESSIONS
STATEMENTS = (Assign, Unpack, WriteState, WriteEnv, DeleteEnv, CountCoverage, ExpressionStatement, If, While,
              ForRange, ForEach, Return, Yield, Break, Continue, Try) + RULE_STATEMENTS + LISTING_STATEMENTS
NODES = tuple(dict.fromkeys(EXPRESSIONS + STATEMENTS + (Function, ForClause)))

# statements after which the rest of their block never runs
ENDS_BLOCK = (Return, Break, Continue, Raise)


# ---- walking and rebuilding ---------------------------------------------------------------

N = TypeVar("N", bound=Node)

FIELD_NAMES: dict[type, tuple[str, ...]] = {}     # a node class -> its fields' names (asked often: kept)


def field_names(cls: type) -> tuple[str, ...]:
    names = FIELD_NAMES.get(cls)
    if names is None:
        names = FIELD_NAMES[cls] = tuple(field.name for field in attrs.fields(cls))
    return names


def children(node: Node) -> Iterator[Node]:
    """The nodes directly inside a node, in field order."""
    for name in field_names(node.__class__):
        value = getattr(node, name)
        if isinstance(value, Node):
            yield value
        elif value.__class__ is tuple:
            for item in value:
                if isinstance(item, Node):
                    yield item


def walk(node: Node) -> Iterator[Node]:
    """A node and every node inside it, parents first, in field order (a stack, not recursive
    generators: the compiler walks every function several times)."""
    stack = [node]
    pop, push = stack.pop, stack.extend
    while stack:
        current = pop()
        yield current
        inside = []
        for name in field_names(current.__class__):
            value = getattr(current, name)
            if isinstance(value, Node):
                inside.append(value)
            elif value.__class__ is tuple:
                inside.extend(item for item in value if isinstance(item, Node))
        if inside:
            inside.reverse()
            push(inside)


def rebuilt(node: Node, change: Callable[[Node], Node]) -> Node:
    """The node with `change` applied to each node directly inside it (the same object when
    nothing changed). A pass's `change` handles the classes it rewrites and calls rebuilt for
    the others: the one convention for going through the IR."""
    updates: dict[str, object] = {}
    for name in field_names(node.__class__):
        value = getattr(node, name)
        if isinstance(value, Node):
            changed = change(value)
            if changed is not value:
                updates[name] = changed
        elif value.__class__ is tuple and any(isinstance(item, Node) for item in value):
            items = tuple(change(item) if isinstance(item, Node) else item for item in value)
            if any(a is not b for a, b in zip(items, value)):
                updates[name] = items
    return evolved(node, updates) if updates else node


def evolved(node: N, updates: dict[str, object]) -> N:
    """attrs.evolve(node, **updates) for a node of the IR, whose fields all go to __init__ in
    their order and by their own names: without evolve's look-ups (the passes rebuild thousands)."""
    get = updates.get
    make = cast(Callable[..., N], node.__class__)
    return make(*[get(name, getattr(node, name)) for name in field_names(node.__class__)])


def block_of(statements: tuple[Statement, ...], change: Callable[[Statement], Statement | tuple[Statement, ...]]
             ) -> tuple[Statement, ...]:
    """A block with `change` applied to each statement, which may give one statement or
    several (an empty tuple: the statement goes); the same tuple when each stays itself."""
    out: list[Statement] = []
    same = True
    for statement in statements:
        new = change(statement)
        if isinstance(new, tuple):
            out.extend(new)
            same = False
        else:
            out.append(new)
            same = same and new is statement
    return statements if same else tuple(out)


def with_fields(node: N, **fields: object) -> N:
    """The node with these fields' values, itself when each is the value it has (a pass that
    changes nothing gives back what it was given: what is inside keeps what was found there)."""
    for name, value in fields.items():
        if getattr(node, name) is not value:
            return evolved(node, fields)
    return node


# ---- listings: going through blocks -------------------------------------------------------

BLOCK_FIELDS = ("body", "orelse", "handler")


def each_block(node: Node, change: Callable[[tuple[Statement, ...]], tuple[Statement, ...]]) -> Node:
    """The node with `change` applied to each block (a statement's body, orelse, handler),
    innermost first: a pass that rewrites statements with those next to them."""
    updates: dict[str, object] = {}
    for field in attrs.fields(type(node)):
        value = getattr(node, field.name)
        if field.name in BLOCK_FIELDS and isinstance(value, tuple):
            inner = tuple(each_block(statement, change) for statement in value)
            updates[field.name] = change(inner)      # type: ignore[arg-type]
    return attrs.evolve(node, **updates) if updates else node


def locals_in(node: Node) -> frozenset[str]:
    """The locals a node and what is inside it may read."""
    read: set[str] = set()
    for inner in walk(node):
        if isinstance(inner, Local):
            read.add(inner.name)
        elif isinstance(inner, Cached):
            read.add(inner.name)
    return frozenset(read)
