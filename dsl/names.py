"""The names of a rules program, for editors: where each is declared and used, what it is.

`index_of(path, texts)` reads a file and the files it extends (texts: an editor's unsaved
buffers in place of files) and returns an `Index`: every name of those files, found as a token
inside its node's span (the syntax tree keeps names as strings), mapped to a key (a declaration,
an enum member, an attribute, a local by the place it is declared, a built-in), with the checker's
own scopes and the types it infers (a subclass of it keeps them). The queries an editor makes
(hover, definition, references, rename, completion, outline) are pure functions of an index.

Positions here are those of the parser: 1-based lines and columns counted in characters, lines
split at '\\n' only.
"""
from __future__ import annotations

import bisect
import functools
import os
import re
from typing import Optional

import attrs

from . import ast
from .builtins import BUILTIN_ENUMS, BUILTIN_VALUES, STDLIB_SIGNATURES
from .checked import Checked
from .checks import check
from .symbols import Scope
from .templates import parse_template
from .types import BOOL, INT, PLAYER, ListOf, Named, Type, ZoneOf, named_type
from .diagnostics import source_lines
from .parser import lark_parser, parse
from .program import DECLARATION_KINDS, build_program, load_program
from .visitor import Visitor


NAME = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")
# the parser's token types as the index sees them (any other kept token is a word of the language)
TOKEN_KINDS = {"NAME": "name", "STRING": "text", "LONG_STRING": "long", "INT": "number", "DECIMAL": "number",
               "RULE_TAG": "tag"}
BUILTIN_TYPES = ("int", "real", "bool", "text")
PLACEHOLDER_NAME = re.compile(r"(?<![.\w])[A-Za-z_]\w*")      # a name in it (not an attribute)


@functools.lru_cache(maxsize=None)
def keywords() -> tuple:
    """The words of grammar.lark (its literal strings that look like names), sorted."""
    words = {t.pattern.value for t in lark_parser().terminals
             if t.pattern.type == "str" and NAME.fullmatch(t.pattern.value)}
    return tuple(sorted(words))


# ---- tokens and positions ----------------------------------------------------------------

@attrs.frozen
class Token:
    kind: str        # name, number, text, long, tag, word
    text: str
    offset: int
    span: ast.Span


class Tokens:
    """The tokens of one file as its parser found them (`parsed`: ast.Module.tokens; none for a
    text that does not parse, where only positions are asked), with the offsets of its lines
    (positions <-> offsets)."""

    def __init__(self, file: str, text: str, parsed: tuple = ()):
        self.file, self.text = file, text
        self.line_starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
        self.tokens = [Token(TOKEN_KINDS.get(t.type, "word"), str(t), t.start_pos, self.span(t.start_pos, len(t)))
                       for t in parsed]
        self.offsets = [t.offset for t in self.tokens]

    def offset(self, line: int, column: int) -> int:
        line = min(max(line, 1), len(self.line_starts))
        return self.line_starts[line - 1] + max(column, 1) - 1

    def position(self, offset: int):
        line = bisect.bisect_right(self.line_starts, offset)
        return line, offset - self.line_starts[line - 1] + 1

    def span(self, offset: int, length: int) -> ast.Span:
        line, column = self.position(offset)
        end_line, end_column = self.position(offset + length)
        return ast.Span(self.file, line, column, end_line, end_column)

    def within(self, span: ast.Span, after: Optional[ast.Span] = None):
        """The tokens inside a node's span (after the end of `after`, if given)."""
        start = self.offset(span.line, span.column)
        if after is not None:
            start = max(start, self.offset(after.end_line, after.end_column))
        end = self.offset(span.end_line, span.end_column)
        first = bisect.bisect_left(self.offsets, start)
        return self.tokens[first:bisect.bisect_left(self.offsets, end)]

    def name_span(self, span: ast.Span, name: str, after=None, last=False) -> Optional[ast.Span]:
        """Where the word `name` stands in a node (its first, or last, occurrence)."""
        found = [t.span for t in self.within(span, after) if t.kind == "name" and t.text == name]
        return (found[-1] if last else found[0]) if found else None

    def at(self, line: int, column: int) -> Optional[Token]:
        """The token under a position, or just before it (a cursor at the end of a word)."""
        offset = self.offset(line, column)
        index = bisect.bisect_right(self.offsets, offset) - 1
        if index < 0:
            return None
        token = self.tokens[index]
        return token if token.offset <= offset <= token.offset + len(token.text) else None


@functools.lru_cache(maxsize=1024)
def real(file: str) -> str:
    """A file's real path: the same file however its path is written (asked at every name, so
    kept: a path stays the same file while an editor runs)."""
    return os.path.realpath(file)


def place(span: ast.Span):
    """A span's start, as a key across files however their paths are written."""
    return real(span.file), span.line, span.column


def inside(span: ast.Span, line: int, column: int) -> bool:
    return (span.line, span.column) <= (line, column) <= (span.end_line, span.end_column)


# ---- types and what a name is ------------------------------------------------------------

def type_text(t: Optional[Type]) -> str:
    """A checker's type as the rules write it: list of X, zone of X, X? (X a type)."""
    return t.written() if t is not None else "any"


@attrs.define
class Symbol:
    """A named thing. key: ("global", name) a declaration, ("member", name) an enum member,
    ("attribute", owner type, name), ("local", file, line, column) a local, ("builtin", name)."""
    key: tuple
    name: str
    kind: str                          # fn, var, zone, ..., enum member, attribute, local, parameter, built-in
    type: Optional[Type] = None        # (of an enum member its enum, of a place its board)
    header: Optional[str] = None       # the declaration's first line
    doc: Optional[str] = None          # its comment lines
    tag: Optional[ast.Tagged] = None
    declaration: Optional[ast.Span] = None     # the whole declaring node (its extent)


@attrs.frozen
class Occurrence:
    span: ast.Span        # the name itself
    key: tuple
    declares: bool = False


@attrs.define
class Local:
    key: tuple
    name: str
    extent: ast.Span      # where the name can be used


@attrs.define
class Index:
    """Every name of a program's files: occurrences by place, symbols by key."""
    program: object
    sources: dict
    checked: Checked
    # (span, node class name) -> the type of the expression there, as the checker found it
    types: dict = attrs.Factory(dict)
    tokens: dict = attrs.Factory(dict)          # real path -> Tokens
    occurrences: list = attrs.Factory(list)
    at: dict = attrs.Factory(dict)              # place of a name -> Occurrence
    symbols: dict = attrs.Factory(dict)         # key -> Symbol
    locals: list = attrs.Factory(list)          # Local
    tags: dict = attrs.Factory(dict)            # place of a rule tag -> ast.Tagged
    bases: dict = attrs.Factory(dict)           # place of the path of an `extends` -> the base file
    modules: dict = attrs.Factory(dict)         # real path -> ast.Module
    # the program is the file with its bases, read without a diagnostic (checked is load_game's)
    complete: bool = False

    def add(self, occurrence: Occurrence):
        if place(occurrence.span) not in self.at:       # one name per place: renames never overlap
            self.occurrences.append(occurrence)
            self.at[place(occurrence.span)] = occurrence

    def occurrence_at(self, file: str, line: int, column: int) -> Optional[Occurrence]:
        tokens = self.tokens.get(real(file))
        token = tokens.at(line, column) if tokens else None
        if token is None or token.kind != "name":
            return None
        return self.at.get(place(token.span))

    def token_at(self, file: str, line: int, column: int, kinds) -> Optional[Token]:
        tokens = self.tokens.get(real(file))
        token = tokens.at(line, column) if tokens else None
        return token if token is not None and token.kind in kinds else None

    def tag_at(self, file: str, line: int, column: int) -> Optional[ast.Tagged]:
        token = self.token_at(file, line, column, ("tag",))
        return self.tags.get(place(token.span)) if token else None

    def base_at(self, file: str, line: int, column: int) -> Optional[str]:
        """The base file whose path (in an `extends`) stands at a position."""
        token = self.token_at(file, line, column, ("text",))
        return self.bases.get(place(token.span)) if token else None

    def uses(self, key) -> list:
        return [o for o in self.occurrences if o.key == key]


def doc_comment(text: str, line: int) -> Optional[str]:
    """The comment lines right above line `line` (no blank line between), without their '#';
    a ruler ('# ---- ... ----') heads a section, not the declaration under it."""
    lines = source_lines(text)
    found = []
    at = line - 2
    while at >= 0 and lines[at].strip().startswith("#") and not lines[at].strip().startswith("# --"):
        found.append(lines[at].strip()[1:].strip())
        at -= 1
    return "\n".join(reversed(found)) or None


def header(tokens: Tokens, span: ast.Span) -> str:
    """A declaration's first line, without the '{' or '=' that opens its body, nor a comment."""
    lines = source_lines(tokens.text)
    if not 1 <= span.line <= len(lines):
        return ""
    line = lines[span.line - 1][span.column - 1:]
    if span.end_line == span.line:
        line = line[:span.end_column - span.column]
    start = tokens.offset(span.line, span.column)
    texts = [(t.offset - start, t.offset - start + len(t.text)) for t in tokens.within(span) if t.kind in ("text", "long")]
    comment = next((k for k, ch in enumerate(line) if ch == "#" and not any(a <= k < b for a, b in texts)), None)
    line = line[:comment] if comment is not None else line
    line = line.rstrip().removesuffix("{").removesuffix("=").rstrip()
    return line if len(line) <= 200 else line[:199] + "…"


# ---- the walk: each name to what it names --------------------------------------------------

class Resolver(Visitor):
    """Walks one file's syntax tree with the scopes of the checker, adding each name it meets
    to the index (locals get symbols here; declarations are added by build_index)."""

    def __init__(self, index: Index, tokens: Tokens):
        self.index, self.tokens = index, tokens
        self.program = index.program
        self.checker = index.checked.typer      # (its type_name, for the parameters' types)
        self.symbols = index.checked.symbols
        self.members = {m: e.name for e in self.symbols.enums.values() for m in e.members
                        if e.name not in BUILTIN_ENUMS}
        self.extent = None        # the node whose block a `let` here is visible in

    # ---- names ----
    def key_of(self, name: str, scope: Scope):
        local = scope.lookup(name)
        if local is not None:
            return local
        if name in self.program.declarations:
            return ("global", name)
        if name in self.members:
            return ("member", name)
        if name in self.symbols.places:
            return ("place", name)
        if name in BUILTIN_VALUES or name in STDLIB_SIGNATURES or name in BUILTIN_TYPES or name == "can_play":
            return ("builtin", name)
        return None

    def use(self, span: Optional[ast.Span], key):
        if span is not None and key is not None:
            self.index.add(Occurrence(span, key))

    def use_name(self, node_span, name, scope, after=None, last=False):
        self.use(self.tokens.name_span(node_span, name, after, last), self.key_of(name, scope))

    def declare_local(self, node, name, scope: Scope, extent, kind="local", type_=None) -> Scope:
        span = self.tokens.name_span(node.span, name)
        if span is None:
            return scope
        key = ("local", *place(span))
        if type_ is None and node.span in self.index.checked.local_types:
            type_ = self.index.checked.local_types[node.span]
        self.index.symbols[key] = Symbol(key, name, kind, type_, f"{name}: {type_text(type_)}",
                                         declaration=node.span)
        self.index.add(Occurrence(span, key, declares=True))
        self.index.locals.append(Local(key, name, ast.Span(extent.file, span.line, span.column,
                                                           extent.end_line, extent.end_column)))
        scope.names[name] = key
        return scope

    def placeholders(self, token, key_of, expressions=False):
        """{name} in a label or a log line, and (expressions) the names of an action label's
        {expression}: a use of what each shows (key_of(name), or None). An attribute (`.row`)
        is not a name."""
        for placeholder in parse_template(token.text).placeholders:
            if "\n" in placeholder.inside or (not expressions and not re.fullmatch(r"[A-Za-z_]\w*", placeholder.inside)):
                continue
            for name in PLACEHOLDER_NAME.finditer(placeholder.inside):
                start = token.offset + placeholder.start + 1 + name.start()
                self.use(self.tokens.span(start, len(name.group())), key_of(name.group()))

    # ---- the walk ----
    def visit(self, node, scope: Scope):
        if isinstance(node, tuple):
            for item in node:
                self.visit(item, scope)
            return
        if not attrs.has(type(node)) or isinstance(node, ast.Span):
            return
        handler = self.handler(type(node))
        if handler is not None:
            handler(self, node, scope)
        else:
            for field in attrs.fields(type(node))[1:]:
                self.visit(getattr(node, field.name), scope)

    def block(self, statements, scope: Scope, extent) -> Scope:
        inner = scope.child()
        saved, self.extent = self.extent, extent
        for statement in statements:
            self.visit(statement, inner)
        self.extent = saved
        return inner

    def binder(self, binder: ast.Binder, scope: Scope, extent) -> Scope:
        self.visit(binder.domain, scope)
        inner = self.declare_local(binder, binder.name, scope.child(), extent)
        self.visit(binder.condition, inner)
        return inner

    def visit_Tagged(self, node, scope):
        self.index.tags[place(node.span)] = node
        self.visit(node.node, scope)

    def visit_Override(self, node, scope):
        self.visit(node.declaration, scope)

    def visit_Extends(self, node, scope):
        texts = [t for t in self.tokens.within(node.span) if t.kind == "text"]
        if texts:
            self.index.bases[place(texts[0].span)] = os.path.join(os.path.dirname(node.span.file), node.path)

    def visit_Game(self, node, scope):
        for field in node.fields:
            if isinstance(field, (ast.ScoreField, ast.ReturnsField, ast.TeamsField)):
                inner = self.declare_local(field, field.player_name, scope.child(), field.span, "player", PLAYER)
                self.visit(field.expr, inner)

    def visit_Option(self, node, scope):
        for setting in node.settings:
            self.use_name(setting.span, setting.name, scope)
            self.visit(setting.value, scope)

    def visit_Enum(self, node, scope):
        pass           # its members are declared by build_index

    def visit_Component(self, node, scope):
        for field in node.fields:
            self.visit(field.type, scope)
        texts = [t for t in self.tokens.within(node.span) if t.kind == "text"]
        if node.label and texts:
            names = [f.name for f in node.fields] + ["owner"]
            self.placeholders(texts[-1], lambda name: ("attribute", node.name, name) if name in names else None)

    def visit_Zone(self, node, scope):
        self.visit(node.index, scope)
        self.use_name(node.span, node.element_type, scope, last=True)

    def visit_Board(self, node, scope):
        shape = node.shape
        if isinstance(shape, ast.GridShape):
            self.visit((shape.rows, shape.cols), scope)
            cell = scope.child(row=("builtin", "row"), col=("builtin", "col"))
            self.visit(shape.condition, cell)
        elif isinstance(shape, ast.PlacesShape):
            return          # (its places are declared by build_index)
        elif isinstance(shape, ast.RoutesShape):
            self.use_name(shape.span, shape.places, scope)
            for route in shape.routes:
                for end in (route.start, route.end):
                    self.use(end.span, self.key_of(end.name, scope))
                for init in route.inits:
                    self.visit(init.value, scope)
        else:
            for entry in shape.legend:
                for init in entry.inits:
                    self.visit(init.value, scope)

    def parameters(self, node, scope):
        inner = scope.child()
        for parameter in node.parameters:
            self.visit(parameter.type, scope)
            self.declare_local(parameter, parameter.name, inner, node.span, "parameter",
                               self.checker.type_name(parameter.type))
        return inner

    def visit_Function(self, node, scope):
        inner = self.parameters(node, scope)
        self.visit(node.result_type, scope)
        saved, self.extent = self.extent, node.span
        self.visit(node.body, inner)
        self.extent = saved

    def visit_Procedure(self, node, scope):
        self.block(node.body, self.parameters(node, scope), node.span)

    def visit_Action(self, node, scope):
        inner = scope
        for binder in node.binders:
            inner = self.binder(binder, inner, node.span)
        after = node.binders[-1].span if node.binders else self.tokens.name_span(node.span, node.name)
        following = self.tokens.within(node.span, after)
        if node.template is not None and following and following[0].kind == "text":
            arguments = {b.name for b in node.binders}
            self.placeholders(following[0], lambda name: inner.lookup(name) if name in arguments else None,
                              expressions=True)
        self.block(node.body, inner, node.span)

    def visit_Trigger(self, node, scope):
        inner = self.binder(node.binder, scope, node.span) if node.binder else scope
        self.visit(node.condition, inner)
        self.block(node.body, inner, node.span)

    def visit_Invariant(self, node, scope):
        self.visit(node.condition, scope)

    def visit_Setup(self, node, scope):
        self.block(node.body, scope, node.span)

    visit_Flow = visit_Setup

    def visit_NamedType(self, node, scope):
        self.use_name(node.span, node.name, scope)

    visit_OptionalType = visit_NamedType

    # ---- statements ----
    def visit_Let(self, node, scope):
        self.visit(node.value, scope)
        self.declare_local(node, node.name, scope, self.extent or node.span)

    def visit_LetIn(self, node, scope):
        self.visit(node.value, scope)
        inner = self.declare_local(node, node.name, scope.child(), node.span)
        self.visit(node.body, inner)

    def visit_Target(self, node, scope):
        self.use_name(node.span, node.name, scope)
        self.visit(node.indexes, scope)

    def visit_AttributeTarget(self, node, scope):
        """`x.rank = king`: the local, then the attribute of its component type."""
        key = self.key_of(node.name, scope)
        self.use(self.tokens.name_span(node.span, node.name), key)
        symbol = self.index.symbols.get(key)
        owner = named_type(symbol.type) if symbol is not None and symbol.type is not None else None
        if owner in self.symbols.components:
            self.use(self.tokens.name_span(node.span, node.attribute, last=True), ("attribute", owner, node.attribute))
        self.visit(node.indexes, scope)

    def visit_If(self, node, scope):
        self.visit(node.condition, scope)
        self.block(node.body, scope, node.span)
        for clause in node.elifs:
            self.visit(clause.condition, scope)
            self.block(clause.body, scope, clause.span)
        self.block(node.orelse, scope, node.span)

    def visit_For(self, node, scope):
        self.block(node.body, self.binder(node.binder, scope, node.span), node.span)

    visit_Simultaneous = visit_For

    def visit_Repeat(self, node, scope):
        self.visit(node.until, self.block(node.body, scope, node.span))

    def visit_Choose(self, node, scope):
        self.visit(node.chooser, scope)
        self.block(node.body, self.binder(node.binder, scope, node.span), node.span)

    def visit_Create(self, node, scope):
        self.visit(node.count, scope)
        self.use_name(node.span, node.type_name, scope, after=node.count.span)
        for init in node.inits:
            self.use(self.tokens.name_span(init.span, init.name), ("attribute", node.type_name, init.name))
            self.visit(init.value, scope)
        self.visit(node.zone, scope)

    def visit_Log(self, node, scope):
        texts = [t for t in self.tokens.within(node.span) if t.kind == "text"]
        if texts:
            self.placeholders(texts[0], lambda name: self.key_of(name, scope))

    def visit_Play(self, node, scope):
        after = None
        for name in node.actions:
            span = self.tokens.name_span(node.span, name, after)
            self.use(span, self.key_of(name, scope))
            after = span or after

    def visit_PlayBy(self, node, scope):
        self.visit_Play(node, scope)
        self.visit(node.player, scope)

    def visit_Respond(self, node, scope):
        self.block(node.body, self.binder(node.binder, scope, node.span), node.span)
        self.block(node.orelse, scope, node.span)

    def visit_CallStatement(self, node, scope):
        self.use_name(node.span, node.name, scope)
        self.visit(node.arguments, scope)

    # ---- expressions ----
    def visit_Name(self, node, scope):
        self.use(node.span, self.key_of(node.id, scope))

    def visit_Call(self, node, scope):
        self.use_name(node.span, node.name, Scope({}))       # a call names a function, never a local
        self.visit(node.arguments, scope)

    def visit_After(self, node, scope):
        self.use_name(node.span, node.procedure, Scope({}))  # `after PROC(...)` names a procedure
        self.visit(node.arguments, scope)
        self.visit(node.value, scope)

    def visit_Attribute(self, node, scope):
        self.visit(node.obj, scope)
        t = self.index.types.get((node.obj.span, type(node.obj).__name__))
        owner = named_type(t) if t is not None else None
        if owner in self.symbols.components or owner in self.symbols.boards:
            self.use(self.tokens.name_span(node.span, node.name, last=True), ("attribute", owner, node.name))

    def visit_Aggregate(self, node, scope):
        self.visit(node.value, self.binder(node.binder, scope, node.span))

    def visit_Ranking(self, node, scope):
        self.visit(node.keys, self.binder(node.binder, scope, node.span))


def global_type(checker, node) -> Optional[Type]:
    """The type of a declared name used as a value."""
    if isinstance(node, ast.Var):
        return checker.type_name(node.type)
    if isinstance(node, ast.Zone):
        return ZoneOf(Named(node.element_type))
    if isinstance(node, ast.Param):
        return checker.globals.names.get(node.name)
    if isinstance(node, ast.Option):
        return BOOL
    if isinstance(node, ast.Function):
        return checker.type_name(node.result_type)
    if isinstance(node, (ast.Enum, ast.Component, ast.Board)):
        return ListOf(Named(node.name))
    return None


def declare_globals(index: Index, file: str, module: ast.Module, tokens: Tokens):
    """The declarations of one file: their names, their enum members and attributes."""
    text = index.sources[file]
    for item in module.items:
        inner, tag = ast.untag(item)
        if isinstance(inner, ast.Override):
            inner, inner_tag = ast.untag(inner.declaration)
            tag = inner_tag or tag
        kind = DECLARATION_KINDS.get(type(inner))
        span = tokens.name_span(inner.span, inner.name) if kind and hasattr(inner, "name") else None
        if span is None:
            continue
        key = ("global", inner.name)
        declared = index.program.declarations.get(inner.name)
        # the symbol is the declaration in force (an override), or the first one read
        if (declared is not None and declared.node.span == inner.span) or key not in index.symbols:
            index.symbols[key] = Symbol(
                key, inner.name, kind, global_type(index.checked.typer, inner), header(tokens, inner.span),
                doc_comment(text, inner.span.line) or (tag and doc_comment(text, tag.span.line)),
                declared.tag if declared else tag, inner.span)
        index.add(Occurrence(span, key, declares=True))
        if isinstance(inner, ast.Enum):
            declare_members(index, text, inner, tokens, after=span)
        if isinstance(inner, ast.Board) and isinstance(inner.shape, ast.PlacesShape):
            declare_places(index, inner, tokens)
        declare_attributes(index, inner, tokens)


def declare_members(index: Index, text: str, enum: ast.Enum, tokens: Tokens, after: ast.Span):
    for member in enum.members:
        at = tokens.name_span(enum.span, member, after)
        if at is not None:
            key = ("member", member)
            index.symbols[key] = Symbol(key, member, "enum member", Named(enum.name), header(tokens, enum.span),
                                        declaration=enum.span)
            index.add(Occurrence(at, key, declares=True))
            after = at


def declare_places(index: Index, board: ast.Board, tokens: Tokens):
    for place in board.shape.places:
        key = ("place", place.name)
        index.symbols.setdefault(key, Symbol(key, place.name, "place", Named(board.name), header(tokens, board.span),
                                             declaration=place.span))
        index.add(Occurrence(place.span, key, declares=True))


def declare_attributes(index: Index, declaration, tokens: Tokens):
    """The attributes a component declares, or the legend of a hex map gives its cells."""
    checker = index.checked.typer
    if isinstance(declaration, ast.Component):
        fields = [(f, f.type and checker.type_name(f.type)) for f in declaration.fields]
    elif isinstance(declaration, ast.Board) and isinstance(declaration.shape, ast.HexShape):
        attributes = checker.board_fields(declaration.name)
        fields = [(i, attributes.get(i.name)) for entry in declaration.shape.legend for i in entry.inits]
    elif isinstance(declaration, ast.Board) and isinstance(declaration.shape, ast.RoutesShape):
        attributes = checker.board_fields(declaration.name)
        fields = [(i, attributes.get(i.name)) for route in declaration.shape.routes for i in route.inits]
    else:
        return
    for field, field_type in fields:
        at = tokens.name_span(field.span, field.name)
        if at is not None:
            key = ("attribute", declaration.name, field.name)
            index.symbols.setdefault(key, Symbol(key, field.name, "attribute", field_type,
                                                 f"{declaration.name}.{field.name}: {type_text(field_type)}",
                                                 declaration=field.span))
            index.add(Occurrence(at, key, declares=True))


def build_index(program, sources: dict) -> Index:
    """The index of a program (as load_program gives it, diagnostics or not)."""
    checked = check(program, sources)
    index = Index(program, sources, checked)
    for key, node in checked.expressions.items():
        index.types[node.span, type(node).__name__] = checked.types[key]
    for file in program.files:
        text, module = sources.get(file), program.modules.get(file)
        if text is None or module is None:
            continue
        tokens = Tokens(file, text, module.tokens)
        index.tokens[real(file)] = tokens
        index.modules[real(file)] = module
        declare_globals(index, file, module, tokens)
    for file in program.files:
        if real(file) in index.modules:
            resolver = Resolver(index, index.tokens[real(file)])
            resolver.visit(index.modules[real(file)].items, Scope({}))
    return index


def own_declaration(item):
    """An item of a file read without its base: an override is a declaration of the file's own."""
    if isinstance(item, ast.Override):
        return item.declaration
    if isinstance(item, ast.Tagged):
        return attrs.evolve(item, node=own_declaration(item.node))
    return item


def index_of(path: str, texts: Optional[dict] = None):
    """(the index of a rules file, or None if it does not parse, and the sources read). A file
    whose base cannot be read (missing, in a cycle) is indexed alone, as if it extended nothing."""
    try:
        program, diagnostics, sources = load_program(path, texts=texts)
        complete = program is not None and not diagnostics
        if program is None and path in sources:
            module, errors = parse(sources[path], path)
            if not errors:
                alone = tuple(own_declaration(i) for i in module.items if not isinstance(ast.untag(i)[0], ast.Extends))
                program, _, sources = build_program(attrs.evolve(module, items=alone), path, sources)
                if program is not None:
                    program.modules[path] = module       # (indexed with its `extends`)
        index = build_index(program, sources) if program is not None else None
        if index is not None:
            index.complete = complete
        return index, sources
    except RecursionError:            # load_game says so (E701)
        return None, {}


# ---- what the editor asks ----------------------------------------------------------------

def hover_text(index: Index, file: str, line: int, column: int) -> Optional[str]:
    """Markdown about the name (or rule tag) at a position: what it is, its type, its
    declaration's first line, rule tag and doc comment."""
    tag = index.tag_at(file, line, column)
    if tag is not None:
        inner, _ = ast.untag(tag.node)
        what = DECLARATION_KINDS.get(type(inner)) or type(inner).__name__.lower()
        return f"**rule {tag.rule_id[1:]}**" + (f": {tag.text}" if tag.text else "") + f"\n\n(tags this {what})"
    occurrence = index.occurrence_at(file, line, column)
    if occurrence is None:
        return None
    symbol = symbol_of(index, occurrence.key)
    if symbol is None:
        return None
    lines = [f"```rules\n{symbol.header or symbol.name}\n```"]
    kind = symbol.kind if symbol.kind != "enum member" else f"member of enum {symbol.type}"
    lines.append(f"*{kind}*" + (f" · `{type_text(symbol.type)}`" if symbol.type and symbol.kind != "enum member" else ""))
    if symbol.tag is not None:
        lines.append(f"**rule {symbol.tag.rule_id[1:]}**" + (f": {symbol.tag.text}" if symbol.tag.text else ""))
    if symbol.doc:
        lines.append(symbol.doc)
    return "\n\n".join(lines)


def symbol_of(index: Index, key) -> Optional[Symbol]:
    """The symbol of a key; built-in names and attributes without a declaration get one here."""
    if key in index.symbols:
        return index.symbols[key]
    if key[0] == "builtin":
        name = key[1]
        if name in STDLIB_SIGNATURES:
            parameters, result = STDLIB_SIGNATURES[name]
            return Symbol(key, name, "built-in function", result, f"{name}({', '.join(map(str, parameters))}): {result}")
        if name == "can_play":
            return Symbol(key, name, "built-in function", BOOL, "can_play(action, player?): bool")
        if name in BUILTIN_TYPES:
            return Symbol(key, name, "built-in type", None, name)
        t = BUILTIN_VALUES.get(name) or (INT if name in ("row", "col") else None)
        return Symbol(key, name, "built-in", t, f"{name}: {type_text(t)}")
    if key[0] == "attribute":
        fields = index.checked.typer.fields_of(key[1]) or {}
        t = fields.get(key[2])
        return Symbol(key, key[2], "attribute", t, f"{key[1]}.{key[2]}: {type_text(t)}")
    return None


def definitions(index: Index, file: str, line: int, column: int) -> list:
    """Where the name at a position is declared: the declaration in force (an override rather
    than the base file's), else every declaration of it. Spans of the declared names; on the
    path of an `extends`, the start of the base file."""
    base = index.base_at(file, line, column)
    if base is not None:
        return [ast.Span(base, 1, 1, 1, 1)]
    occurrence = index.occurrence_at(file, line, column)
    if occurrence is None:
        return []
    declared = [o.span for o in index.uses(occurrence.key) if o.declares]
    symbol = index.symbols.get(occurrence.key)
    if symbol is not None and symbol.declaration is not None:
        in_force = [s for s in declared if place(s)[0] == real(symbol.declaration.file)
                    and inside(symbol.declaration, s.line, s.column)]
        return in_force or declared
    return declared


def references(index: Index, file: str, line: int, column: int, with_declarations=True) -> list:
    """Every occurrence (span) of the name at a position, in every file of the program."""
    occurrence = index.occurrence_at(file, line, column)
    if occurrence is None:
        return []
    return [o.span for o in index.uses(occurrence.key) if with_declarations or not o.declares]


def rename_problem(index: Index, key, new_name: str) -> Optional[str]:
    """Why a name cannot take `new_name` (None: it can)."""
    if key[0] == "builtin":
        return "a built-in name cannot be renamed"
    if not NAME.fullmatch(new_name):
        return f"'{new_name}' is not a name: a letter or '_', then letters, digits or '_'"
    if new_name in keywords():
        return f"'{new_name}' is a word of the language"
    taken = set(index.program.declarations) | set(index.checked.symbols.members) | set(BUILTIN_VALUES) \
        | set(STDLIB_SIGNATURES)
    if key[0] == "attribute":
        taken = set(index.checked.typer.fields_of(key[1]) or ())
    elif key[0] == "local":
        # another local where this one is visible would hide it, or be hidden
        (extent,) = [local.extent for local in index.locals if local.key == key]
        taken |= {local.name for local in index.locals if local.key != key and overlap(local.extent, extent)}
    else:
        taken |= {local.name for local in index.locals}      # a local may not hide a declaration
    if new_name in taken:
        return f"'{new_name}' is already a name of this game"
    return None


def overlap(a: ast.Span, b: ast.Span) -> bool:
    return real(a.file) == real(b.file) and (a.line, a.column) < (b.end_line, b.end_column) \
        and (b.line, b.column) < (a.end_line, a.end_column)


def rename_edits(index: Index, file: str, line: int, column: int, new_name: str):
    """(spans to replace with new_name, None) or ([], why not): every occurrence of the
    declared name at a position, in every file of the program."""
    occurrence = index.occurrence_at(file, line, column)
    if occurrence is None or not any(o.declares for o in index.uses(occurrence.key)):
        return [], "there is no declared name here"
    problem = rename_problem(index, occurrence.key, new_name)
    if problem is not None:
        return [], problem
    return references(index, file, line, column), None


@attrs.frozen
class Completion:
    label: str
    kind: str            # a Symbol's kind, or "keyword"
    detail: str = ""


def attribute_completions(index: Index, owner: Optional[Type]) -> list:
    fields = (index.checked.typer.fields_of(owner) if owner is not None else None) or {}
    return [Completion(name, "attribute", type_text(t)) for name, t in sorted(fields.items())]


def type_before(index: Index, file: str, line: int, column: int) -> Optional[Type]:
    """The type of the expression that ends at a position (what stands before a '.')."""
    found = [(span, t) for (span, _), t in index.types.items()
             if real(span.file) == real(file) and (span.end_line, span.end_column) == (line, column)]
    if not found:
        return None
    return min(found, key=lambda pair: (pair[0].line, pair[0].column))[1]


def chain_type(index: Index, file: str, line: int, column: int, written: str) -> Optional[Type]:
    """The type of `name.attribute...` written at the end of `written`, the text before a
    position, found by name: the local of that name in scope there (else the nearest declared
    before it: the text may have grown since the index was made), else the declared name."""
    found = re.search(r"([A-Za-z_][A-Za-z_0-9]*)((?:\s*\.\s*[A-Za-z_][A-Za-z_0-9]*)*)\s*$", written)
    if found is None:
        return None
    first, attributes = found.group(1), re.findall(r"[A-Za-z_][A-Za-z_0-9]*", found.group(2))
    named = [local for local in index.locals if local.name == first and real(local.extent.file) == real(file)]
    before = [local for local in named if inside(local.extent, line, column)] or \
        [local for local in named if (local.extent.line, local.extent.column) <= (line, column)]
    if before:
        t = index.symbols[max(before, key=lambda local: (local.extent.line, local.extent.column)).key].type
    else:
        symbol = index.symbols.get(("global", first))
        t = symbol.type if symbol is not None else BUILTIN_VALUES.get(first)
    for attribute in attributes:
        t = ((index.checked.typer.fields_of(t) if t is not None else None) or {}).get(attribute)
    return t


def completions(index: Index, file: str, line: int, column: int, written: str = "") -> list:
    """What may be written at a position, `written` being the text of its line before it: after
    a '.' (and the start of a word), the attributes of what stands before the '.'; else the
    locals in scope there, the declared names, enum members, built-in names and functions,
    and the keywords (the editor keeps those that start with the word begun)."""
    dot = re.search(r"\.\s*[A-Za-z_0-9]*$", written)
    if dot:
        before = written[:dot.start()].rstrip()
        owner = type_before(index, file, line, len(before) + 1) or chain_type(index, file, line, column, before)
        return attribute_completions(index, owner)
    found = {}
    for local in index.locals:
        if real(local.extent.file) == real(file) and inside(local.extent, line, column):
            symbol = index.symbols[local.key]
            found.setdefault(local.name, Completion(local.name, symbol.kind, type_text(symbol.type)))
    for key, symbol in index.symbols.items():
        if key[0] in ("global", "member", "place"):
            detail = symbol.header if key[0] == "global" else f"{key[0]} of {symbol.type}"
            found.setdefault(symbol.name, Completion(symbol.name, symbol.kind, detail or ""))
    for name in [*BUILTIN_VALUES, *STDLIB_SIGNATURES, "can_play"]:
        symbol = symbol_of(index, ("builtin", name))
        found.setdefault(name, Completion(name, symbol.kind, symbol.header or ""))
    for word in keywords():
        found.setdefault(word, Completion(word, "keyword"))
    return list(found.values())


@attrs.frozen
class DocumentSymbol:
    name: str
    kind: str              # fn, var, ..., enum member, attribute, game, setup, flow
    span: ast.Span         # the whole declaration
    name_span: ast.Span
    detail: str = ""
    children: tuple = ()


def document_symbols(index: Index, file: str) -> list:
    """The declarations of one file, in order, with enum members and attributes under them."""
    module = index.modules.get(real(file))
    if module is None:
        return []
    tokens = index.tokens[real(file)]
    found = []
    for item in module.items:
        inner, _ = ast.untag(item)
        if isinstance(inner, ast.Override):
            inner, _ = ast.untag(inner.declaration)
        kind = DECLARATION_KINDS.get(type(inner))
        if kind is None:
            continue
        name = getattr(inner, "name", None) or (inner.title if isinstance(inner, ast.Game) else kind)
        name_span = (tokens.name_span(inner.span, inner.name) if hasattr(inner, "name") else None) or \
            ast.Span(inner.span.file, inner.span.line, inner.span.column, inner.span.line,
                     inner.span.column + len(kind))
        children = [DocumentSymbol(o.key[-1], index.symbols[o.key].kind, o.span, o.span,
                                   type_text(index.symbols[o.key].type))
                    for o in index.occurrences if o.declares and o.key[0] in ("member", "attribute")
                    and real(o.span.file) == real(file) and inside(inner.span, o.span.line, o.span.column)]
        found.append(DocumentSymbol(name, kind, inner.span, name_span, header(tokens, inner.span), tuple(children)))
    return found
