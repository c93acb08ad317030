"""The syntax tree of the rules language: one frozen attrs class per named grammar rule.

Every node's first field is its span. Columns are 1-based characters, end columns exclusive.
"""
from __future__ import annotations

import operator
from typing import Any, Optional

import attrs

try:
    from typing import dataclass_transform       # (Python 3.11): tells mypy and pyright what @node makes
except ImportError:                               # pragma: no cover
    def dataclass_transform(**_):
        return lambda decorator: decorator


def attrs_repr(self) -> str:
    """The repr attrs writes, `Name(field=value, ...)`, as one function for every class: attrs
    compiles a __repr__ for each class it makes, a third of the ~20 ms that this module's ~85
    classes cost to make, every time the referee starts. (Nodes hold no cycles: attrs' guard
    against a repr of itself is not needed.)"""
    fields = ", ".join(f"{field.name}={getattr(self, field.name)!r}" for field in self.__attrs_attrs__)
    return f"{self.__class__.__qualname__.rsplit('>.', 1)[-1]}({fields})"


@dataclass_transform(frozen_default=True, field_specifiers=(attrs.field,))
def node(cls):
    """A frozen attrs class (slots), with attrs' repr, equality and hash without compiling them:
    one shared repr, and an equality and a hash reading the compared fields with one attrgetter."""
    cls = attrs.frozen(repr=False, eq=False)(cls)
    cls.__repr__ = attrs_repr
    compared = [field.name for field in cls.__attrs_attrs__ if field.eq]
    values = operator.attrgetter(*compared) if compared else (lambda _: ())
    salt = hash(cls.__qualname__)

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return values(self) == values(other)

    def __ne__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return values(self) != values(other)

    def __hash__(self):
        return hash((salt, values(self)))

    cls.__eq__, cls.__ne__, cls.__hash__ = __eq__, __ne__, __hash__
    return cls


@node
class Span:
    file: str
    line: int
    column: int
    end_line: int
    end_column: int

    def __str__(self) -> str:
        if self.line < 1:        # the file as a whole (missing, too large, ...): no place in it
            return self.file
        return f"{self.file}:{self.line}:{self.column}"


NOWHERE = Span("<builtin>", 0, 0, 0, 0)


# ---- declarations -----------------------------------------------------------------------

@node
class Tagged:
    """A declaration or statement annotated with the id (and text) of the rule it encodes."""
    span: Span
    rule_id: str
    text: Optional[str]
    node: Any


@node
class Extends:
    span: Span
    path: str


@node
class Game:
    span: Span
    title: str
    fields: tuple


@node
class PlayersField:
    span: Span
    low: int
    high: Optional[int]


@node
class ScoreField:
    span: Span
    player_name: str
    expr: Any


@node
class ReturnsField:
    span: Span
    player_name: str
    expr: Any


@node
class TeamsField:
    span: Span
    player_name: str
    expr: Any


@node
class Option:
    span: Span
    name: str
    description: Optional[str]
    settings: tuple


@node
class ParamSet:
    span: Span
    name: str
    value: Any


@node
class Param:
    span: Span
    name: str
    type: Any = None        # a typed param (`param n: int in 4..13 = 13`) may be set when loading
    low: Any = None         # its range, for an int
    high: Any = None
    value: Any = None


@node
class Enum:
    span: Span
    name: str
    members: tuple


@node
class Component:
    span: Span
    name: str
    fields: tuple
    label: Optional[str]
    maximum: Any = None         # `max N`: how many of the type there may be; a type with one may be created in play


@node
class Field:
    span: Span
    name: str
    type: Any
    visibility: Optional[str]   # "owner": only the component's owner sees this attribute


@node
class Zone:
    span: Span
    name: str
    index: tuple
    kind: str
    element_type: str
    visibility: str


@node
class Var:
    span: Span
    name: str
    index: tuple
    type: Any
    low: Any             # the range of an int's values (`int in 1..6`), when declared
    high: Any
    visibility: str      # before the initial value: no keyword may follow an expression
    display: Optional[str]   # 'bookkeeping', 'status' or none: how the table shows it, not who sees it
    initial: Any


@node
class Board:
    span: Span
    name: str
    shape: Any


@node
class GridShape:
    span: Span
    rows: Any
    cols: Any
    condition: Any              # which (row, col) exist; none: all of them


@node
class HexShape:
    span: Span
    drawing: str
    legend: tuple


@node
class LegendEntry:
    span: Span
    symbol: str
    inits: tuple


@node
class PlacesShape:
    span: Span
    places: tuple               # of Place, in the written order (the board's order)


@node
class Place:
    span: Span
    name: str


@node
class RoutesShape:
    span: Span
    places: str                 # the places board the routes join
    routes: tuple               # of Route, in the written order


@node
class Route:
    span: Span
    start: Place
    end: Place
    inits: tuple                # its attributes (each route gives the same ones)


@node
class Function:
    span: Span
    name: str
    parameters: tuple
    result_type: Any
    body: Any


@node
class Procedure:
    span: Span
    name: str
    parameters: tuple
    body: tuple


@node
class Parameter:
    span: Span
    name: str
    type: Any


@node
class Action:
    span: Span
    name: str
    binders: tuple
    template: Optional[str]
    public_template: Optional[str]     # what the other players see of the move, when given
    body: tuple


@node
class Binder:
    span: Span
    name: str
    domain: Any
    outside: Any               # an action binder's `in D else "TEXT"`: why a value not in D is refused
    condition: Any
    reason: Any = None         # an action binder's `where ... else "TEXT"`: why a value is refused


@node
class Trigger:
    span: Span
    name: str
    binder: Optional[Binder]
    condition: Any
    body: tuple


@node
class Invariant:
    """A condition that must hold whenever a player is to move (checked by `referee verify`
    and the property tests)."""
    span: Span
    name: str
    condition: Any


@node
class Setup:
    span: Span
    body: tuple


@node
class Flow:
    span: Span
    body: tuple


@node
class Override:
    span: Span
    declaration: Any


# ---- types ------------------------------------------------------------------------------

@node
class NamedType:
    span: Span
    name: str


@node
class OptionalType:
    span: Span
    name: str


@node
class ListType:
    span: Span
    element: Any


@node
class SetType:
    span: Span
    element: Any


@node
class MapType:
    span: Span
    key: Any
    value: Any


# ---- statements -------------------------------------------------------------------------

@node
class Let:
    span: Span
    name: str
    value: Any


@node
class Target:
    span: Span
    name: str
    indexes: tuple


@node
class AttributeTarget:
    """x.name = ..., an attribute of the component a local names."""
    span: Span
    name: str              # the local that holds the component
    attribute: str
    indexes: tuple = ()


@node
class Assign:
    span: Span
    target: Target
    value: Any


@node
class Augment:
    span: Span
    target: Target
    op: str
    value: Any


@node
class If:
    span: Span
    condition: Any
    body: tuple
    elifs: tuple
    orelse: tuple


@node
class ElifClause:
    span: Span
    condition: Any
    body: tuple


@node
class For:
    span: Span
    binder: Binder
    body: tuple


@node
class While:
    span: Span
    condition: Any
    body: tuple


@node
class Repeat:
    span: Span
    body: tuple
    until: Any


@node
class Move:
    span: Span
    item: Any
    destination: Any


@node
class MoveAll:
    span: Span
    source: Any
    destination: Any


@node
class Deal:
    span: Span
    count: Any
    source: Any
    destination: Any


@node
class ToTop:
    span: Span
    zone: Any


@node
class ToBottom:
    span: Span
    zone: Any


@node
class Shuffle:
    span: Span
    zone: Any


@node
class LetIn:
    """let NAME = VALUE in BODY: a local name inside an expression (a function's body)."""
    span: Span
    name: str
    value: Any
    body: Any


@node
class After:
    """after PROC(args): EXPR, the value of EXPR on a copy of the state once the procedure
    has run there (the state itself does not change)."""
    span: Span
    procedure: str
    arguments: tuple
    value: Any


@node
class Reveal:
    """Show components (one, a list, or what a zone holds now) to chosen players: they see
    them whole for as long as each stays where it is."""
    span: Span
    what: Any
    players: Any


@node
class Create:
    span: Span
    count: Any
    type_name: str
    inits: tuple
    zone: Any


@node
class Destroy:
    """`destroy x`: a component of a type created in play leaves play (docs/language.md, "destroy")."""
    span: Span
    item: Any


def destroyed_variable(item, variables) -> Optional["Target"]:
    """The variable entry a `destroy` names (`destroy kept`, `destroy held[p]`), which it sets
    to none, as the target of that write; None when it names something else."""
    if isinstance(item, Name) and item.id in variables:
        return Target(item.span, item.id, ())
    if isinstance(item, Subscript) and isinstance(item.obj, Name) and item.obj.id in variables:
        return Target(item.span, item.obj.id, item.indexes)
    return None


@node
class Init:
    span: Span
    name: str
    value: Any


@node
class Choose:
    span: Span
    binder: Binder
    chooser: Any
    prompt: Optional[str]
    public: Optional[str]      # what the other players see of the option chosen, when given
    body: tuple


@node
class Require:
    span: Span
    condition: Any
    reason: Optional[str]


@node
class Again:
    span: Span


@node
class Finish:
    span: Span
    winners: Any


@node
class FinishTeam:
    span: Span
    team: Any


@node
class FinishLost:
    span: Span


@node
class Log:
    span: Span
    message: str


@node
class Play:
    span: Span
    optional: bool
    actions: tuple


@node
class PlayBy:
    """`play [optional] A, B by P`: P plays a move of those actions inside a step."""
    span: Span
    optional: bool
    actions: tuple
    player: Any


@node
class Respond:
    """`respond [every] p in ORDER { play A, B } else { ... }`: each player of ORDER in turn may
    play a move of the actions; the first who does closes the window; `else` runs when nobody
    did. A player with no legal move is passed over, unless `every` (`everyone`): then asked all
    the same, with only the skip, so that who is asked shows nothing of what they hold."""
    span: Span
    everyone: bool
    binder: Binder
    body: tuple
    orelse: tuple


@node
class Turns:
    span: Span
    start: Any
    until: Any
    body: tuple


@node
class Turn:
    span: Span
    player: Any
    body: tuple


@node
class Simultaneous:
    span: Span
    binder: Binder
    body: tuple


@node
class CallStatement:
    span: Span
    name: str
    arguments: tuple


# ---- expressions ------------------------------------------------------------------------

@node
class Conditional:
    span: Span
    condition: Any
    then: Any
    otherwise: Any


@node
class Or:
    span: Span
    left: Any
    right: Any


@node
class And:
    span: Span
    left: Any
    right: Any


@node
class Not:
    span: Span
    operand: Any


@node
class Compare:
    span: Span
    left: Any
    op: str
    right: Any


@node
class Member:
    span: Span
    item: Any
    collection: Any


@node
class NotMember:
    span: Span
    item: Any
    collection: Any


@node
class Range:
    span: Span
    low: Any
    high: Any


@node
class Binary:
    span: Span
    left: Any
    op: str
    right: Any


@node
class Negate:
    span: Span
    operand: Any


@node
class Attribute:
    span: Span
    obj: Any
    name: str


@node
class Subscript:
    span: Span
    obj: Any
    indexes: tuple


@node
class Call:
    span: Span
    name: str
    arguments: tuple


@node
class Aggregate:
    span: Span
    kind: str
    binder: Binder
    value: Any


@node
class Ranking:
    span: Span
    kind: str
    binder: Binder
    keys: tuple


@node
class Integer:
    span: Span
    value: int


@node
class Text:
    span: Span
    value: str


@node
class Boolean:
    span: Span
    value: bool


@node
class Nothing:
    span: Span


@node
class Name:
    span: Span
    id: str


@node
class ListLiteral:
    span: Span
    items: tuple


@node
class SetLiteral:
    span: Span
    items: tuple


@node
class MapEntry:
    span: Span
    key: Any
    value: Any


@node
class MapLiteral:
    """{k: v, ...}; `{:}` (no entries) is the empty map."""
    span: Span
    entries: tuple = ()


@node
class Module:
    """One parsed file: its declarations in order, and the parser's tokens in the order of the
    text (names, texts, numbers, rule tags, kept words; comments and punctuation aside), for
    the editor's index: they are not children of the tree, nor part of its equality."""
    span: Span
    items: tuple
    tokens: tuple = attrs.field(default=(), eq=False, metadata={"child": False})


def walk(value):
    """Every node (and tuple of nodes) under a value, parents before children, in order."""
    stack = [value]
    pop, push = stack.pop, stack.extend
    children_of = CHILDREN.get
    while stack:
        item = pop()
        if isinstance(item, tuple):
            push(reversed(item))
            continue
        cls = item.__class__
        if cls in ATOMS:
            continue
        children = children_of(cls)
        if children is None:
            children = children_getter(cls)
        if children is not False:
            yield item
            push(children(item))


ATOMS = {str, int, bool, float, type(None)}     # the values under no node
# class -> a function giving the values of its child fields, last first (for the stack of walk),
# or False when it is not a node: one attrgetter call per node, the values that are no nodes
# (names, numbers) skipped when popped
CHILDREN: dict = {}


def children_getter(cls):
    if not attrs.has(cls):
        CHILDREN[cls] = False
        return False
    names = tuple(f.name for f in attrs.fields(cls) if f.metadata.get("child", True))[::-1]
    if len(names) > 1:
        getter = operator.attrgetter(*names)
    elif names:
        one = operator.attrgetter(names[0])
        getter = lambda node: (one(node),)
    else:
        getter = lambda node: ()
    CHILDREN[cls] = getter
    return getter


def untag(item):
    """The declaration or statement under any rule tags, and the innermost tag (or None)."""
    tag = None
    while isinstance(item, Tagged):
        tag = item
        item = item.node
    return item, tag
