"""Text -> syntax tree. Returns (module, diagnostics); never raises on bad input."""
from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import tempfile
from pathlib import Path
from typing import Optional

import attrs
from . import lark_loaded  # (first: Lark without the modules it would import for nothing)
import lark
from lark import Transformer, Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from . import ast
from .lexer import PLUGINS as LEXER_PLUGINS
from .diagnostics import Diagnostic, source_lines
from .limits import MAX_INT_DIGITS, MAX_NESTING, MAX_TOKENS

GRAMMAR_PATH = Path(__file__).with_name("grammar.lark")
# The analysed grammar (terminals, rules, LALR tables), built ahead of time from grammar.lark by
# `python -m referee.dsl.parser_tables` and shipped with the package: building it takes ~0.5 s, loading it
# ~15 ms. Its header names the grammar (sha256), the Lark version and the options it was built
# from; when any of them differs from what is running, it is not used (see load_tables).
TABLES_PATH = Path(__file__).with_name("grammar.tables")
TABLES_MAGIC = b"referee parser tables 1\n"
LARK_OPTIONS = {"parser": "lalr", "propagate_positions": True, "maybe_placeholders": True}

# Rules that are lists or plain words, not nodes.
LIST_RULES = {"game_fields", "option_body", "names", "fields", "index", "parameters", "binders",
              "legend", "places", "routes", "block", "elifs", "inits", "arguments", "map_entries"}
WORD_RULES = {"aggregate_kind", "ranking_kind", "zone_kind", "visibility", "display"}


def class_name(rule: str) -> str:
    return "".join(part.capitalize() for part in rule.strip("_").split("_"))


@functools.lru_cache(maxsize=None)
def lark_parser(strict: bool = False) -> lark.Lark:
    """The parser of grammar.lark: the saved tables when they match it, else built here.
    strict=True (conflicts and terminal collisions are errors) is always built from the grammar."""
    grammar = GRAMMAR_PATH.read_text(encoding="utf-8")
    if not strict:
        saved = load_tables(grammar)
        if saved is not None:
            return saved
    return build_parser(grammar, strict=strict)


def build_parser(grammar: str, strict: bool = False) -> lark.Lark:
    # The strict parser keeps Lark's own lexer, which checks each state's terminals for collisions
    # (dsl/lexer.py's lexer tokenises the same, with fewer scanners built).
    lark_loaded.collision_checks()
    return lark.Lark(grammar, strict=strict, _plugins={} if strict else LEXER_PLUGINS, **LARK_OPTIONS)


def tables_key(grammar: str) -> dict:
    """What saved tables must have been built from to be used with this grammar."""
    return {"grammar_sha256": hashlib.sha256(grammar.encode("utf-8")).hexdigest(),
            "lark": lark.__version__, "options": LARK_OPTIONS}


def load_tables(grammar: str, path: Optional[Path] = None) -> Optional[lark.Lark]:
    """The parser saved at `path` (default TABLES_PATH) if it was built from this very grammar,
    with these options and this version of Lark; None otherwise (missing, stale or unreadable).
    Only reads: works in a read-only installation, and nothing is ever written at run time."""
    try:
        with open(path or TABLES_PATH, "rb") as file:
            if file.readline() != TABLES_MAGIC:
                return None
            if json.loads(file.readline()) != tables_key(grammar):
                return None
            # Lark.load, with this lexer (Lark's own cache loads the same way)
            parser = lark.Lark.__new__(lark.Lark)._load(file, _plugins=LEXER_PLUGINS)
    except Exception:   # a damaged or foreign file: build the parser instead
        return None
    for terminal in parser.terminals:
        # Lark gives back the flags of a pattern as a list: make them the frozenset of a built
        # parser again, so that the patterns compare and hash the same (the lexer is built already)
        terminal.pattern.flags = frozenset(terminal.pattern.flags)
    return parser


def save_tables(grammar: str, path: Optional[Path] = None) -> None:
    """Build the parser of `grammar` and save it at `path` (default TABLES_PATH), atomically."""
    path = Path(path or TABLES_PATH)
    parser = build_parser(grammar)
    # Keep the unanalysed grammar too (as Lark's own cache_grammar option does): hypothesis'
    # from_lark reads parser.grammar.
    parser.__serialize_fields__ = [*parser.__serialize_fields__, "grammar"]
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(TABLES_MAGIC)
            file.write(json.dumps(tables_key(grammar), sort_keys=True).encode("ascii") + b"\n")
            parser.save(file, exclude_options=("_plugins",))      # a lexer is chosen at load time
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def span_of(file: str, meta_or_token) -> ast.Span:
    m = meta_or_token
    if getattr(m, "empty", False) or getattr(m, "line", None) is None:
        return ast.Span(file, 0, 0, 0, 0)
    return ast.Span(file, m.line, m.column, m.end_line, m.end_column)


class BadToken(Exception):
    """A token the grammar matches but the language refuses: a string escape that means
    nothing, a number too long, a tab in a hex map. `offset` is where in the token."""

    def __init__(self, token: Token, message: str, hint: str, offset: int = 0, width: int = 0):
        super().__init__(message)
        self.token, self.message, self.hint, self.offset = token, message, hint, offset
        self.width = width or len(str(token))


ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", '"': '"'}
ESCAPE_HINT = "a backslash in a string must start \\n, \\t, \\\\ or \\\""


def string_value(token: Token) -> str:
    """The text of a "string": exactly the escapes \\n, \\t, \\\\ and \\" (docs/language.md)."""
    text = str(token)[1:-1]
    if "\\" not in text:
        return text
    parts, i = [], 0
    while True:
        j = text.find("\\", i)
        if j < 0:
            parts.append(text[i:])
            return "".join(parts)
        parts.append(text[i:j])
        escaped = text[j + 1:j + 2]
        if escaped not in ESCAPES:
            raise BadToken(token, f"invalid escape in a string: '\\{escaped}'", ESCAPE_HINT, j + 1, 2)
        parts.append(ESCAPES[escaped])
        i = j + 2


def drawing_value(token: Token) -> str:
    """The text of a \"\"\"long string\"\"\" (a hex map), as it is written: no escapes, no tabs."""
    text = str(token)[3:-3]
    tab = text.find("\t")
    if tab >= 0:
        raise BadToken(token, "a tab in a hex map", "draw the map with spaces: where a tab puts the "
                       "hexes depends on the editor", tab + 3, 1)
    return text


def token_value(token: Token):
    if token.type in ("INT", "DECIMAL"):
        if len(token.replace(".", "")) > MAX_INT_DIGITS:
            raise BadToken(token, f"this number has {len(token.replace('.', ''))} digits, more than the "
                           f"{MAX_INT_DIGITS} a rules file may write", "see the limits in docs/language.md")
        return int(token) if token.type == "INT" else str(token)
    if token.type == "STRING":
        return string_value(token)
    if token.type == "LONG_STRING":
        return drawing_value(token)
    if token.type in ("OPTIONAL", "EVERY"):
        return True
    return str(token)


class ToAst(Transformer):
    def __init__(self, file: str):
        super().__init__(visit_tokens=True)
        self.file = file
        self.tokens: list[Token] = []     # every token of the tree, for Module.tokens

    def __default_token__(self, token):
        self.tokens.append(token)
        return token_value(token)

    def __default__(self, data, children, meta):
        rule = str(data)
        if rule in LIST_RULES:
            return tuple(child for child in children if child is not None)
        if rule in WORD_RULES:
            return children[0]
        span = span_of(self.file, meta)
        if rule == "start":
            return ast.Module(span, tuple(children), tuple(sorted(self.tokens, key=token_offset)))
        if rule == "boolean":
            return ast.Boolean(span, children[0] == "true")
        if rule == "binary" and len(children) == 1:      # a decimal number
            return decimal_quotient(span, children[0])
        cls = RULE_CLASSES.get(rule) or rule_class(rule)
        return cls(span, *self._normalise(cls, children))

    @staticmethod
    def _normalise(cls, children):
        out = list(children)
        # Optional list parts come as None: make them empty tuples so that stages can iterate.
        positions = LIST_POSITIONS.get(cls)
        if positions is None:
            positions = LIST_POSITIONS[cls] = tuple(
                i for i, field in enumerate(attrs_fields(cls)[1:]) if field in LIST_FIELDS)
        for i in positions:
            if i < len(out) and out[i] is None:
                out[i] = ()
        if cls is ast.Play or cls is ast.PlayBy or cls is ast.Respond:
            out[0] = bool(out[0])
        if cls is ast.Zone:
            out[-1] = out[-1] or "hidden"
        if cls is ast.Var:
            out[-3] = out[-3] or "public"        # visibility, before display and the initial value
        return out


# fields that hold a list of parts, given as None by the parser when the list is empty
LIST_FIELDS = frozenset({"fields", "index", "parameters", "binders", "body", "elifs", "orelse",
                         "inits", "arguments", "settings", "items", "indexes", "legend", "routes",
                         "entries"})
LIST_POSITIONS: dict = {}      # node class -> the positions of its LIST_FIELDS among the parser's children
RULE_CLASSES: dict = {}        # grammar rule -> its node class


def rule_class(rule: str):
    cls = RULE_CLASSES[rule] = getattr(ast, class_name(rule))
    return cls


def decimal_quotient(span: ast.Span, text: str) -> ast.Binary:
    """A decimal number as the exact fraction it is, so that the stages after the parser know
    fractions only: 7.5 is the Binary 75 / 10, a `real`."""
    whole, decimals = text.split(".")
    return ast.Binary(span, ast.Integer(span, int(whole + decimals)), "/", ast.Integer(span, 10 ** len(decimals)))


def token_offset(token: Token) -> int:
    return token.start_pos or 0


def attrs_fields(cls):
    import attrs
    return [f.name for f in attrs.fields(cls)]


EXPECTED_NAMES = {
    "NAME": "a name", "INT": "a number", "DECIMAL": "a number", "STRING": "a string", "LBRACE": "'{'", "RBRACE": "'}'",
    "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'", "COLON": "':'", "EQUAL": "'='",
    "COMMA": "','", "DOT": "'.'", "RULE_TAG": "a rule tag like @C-8",
}


# Terminals matched by a pattern rather than one fixed text.
PATTERN_NAMES = {
    "COMPARE": "a comparison", "ADD_OP": "'+' or '-'", "MUL_OP": "'*', '/', '//' or '%'",
    "AUGMENT": "'+=' or '-='", "LONG_STRING": "a long string", "$END": "the end of the file",
}


# Words of expressions that look like names but are read as the start of a call.
BUILTIN_WORDS = {"count", "sum", "max", "min", "any", "all", "filter", "map", "first", "best", "worst", "sorted"}


def describe_expected(expected) -> str:
    terminals = {t.name: t for t in lark_parser().terminals}
    words = []
    for name in sorted(expected):
        terminal = terminals.get(name)
        if name in EXPECTED_NAMES:
            words.append(EXPECTED_NAMES[name])
        elif name in PATTERN_NAMES:
            words.append(PATTERN_NAMES[name])
        elif terminal is not None and terminal.pattern.type == "str":
            # keywords and punctuation: show the text itself ('game', '?', '..')
            words.append(f"'{terminal.pattern.value}'")
    words = sorted(set(words), key=lambda w: (w.startswith("'"), w))   # names, numbers... first
    if len(words) > 8:
        words = words[:8] + ["..."]
    return ", ".join(words)


def parse_error(file: str, source: str, error: UnexpectedInput) -> Diagnostic:
    line = getattr(error, "line", 1) or 1
    column = getattr(error, "column", 1) or 1
    if isinstance(error, UnexpectedEOF) or (isinstance(error, UnexpectedToken) and error.token.type == "$END"):
        lines = source_lines(source) or [""]
        line = len(lines)
        column = len(lines[-1]) + 1
        span = ast.Span(file, line, column, line, column + 1)
        expected = set(getattr(error, "expected", None) or ())
        hint = "a block or a declaration is not closed: check that every '{' has its '}'"
        if expected and "RBRACE" not in expected:
            hint = f"the file ends in the middle of a line: expected {describe_expected(expected)}"
        return Diagnostic("E102", "unexpected end of file", span, hint=hint)
    if isinstance(error, UnexpectedCharacters):
        char = source[error.pos_in_stream] if error.pos_in_stream < len(source) else "?"
        shown = char if char.isprintable() else f"U+{ord(char):04X}"
        span = ast.Span(file, line, column, line, column + 1)
        hint = None
        if char == "'":
            hint = "strings use double quotes"
        elif char == "&" or char == "|":
            hint = "write 'and' / 'or'"
        elif char == '"':
            hint = "this string is not closed: a string ends with '\"' on the same line"
        elif char == "!":
            hint = "write 'not', or '!=' for 'differs from'"
        return Diagnostic("E101", f"unexpected character '{shown}'", span, hint=hint)
    token = error.token
    width = max(1, len(str(token)))
    span = ast.Span(file, line, column, line, column + width)
    expected = describe_expected(getattr(error, "expected", set()) or set())
    hint = f"expected {expected}" if expected else None
    text = str(token)
    if text == "=" and "COMPARE" in (error.expected or set()):
        hint = "to compare, write '=='"
    elif text in ("else", "elif") :
        hint = "'else' and 'elif' follow the '}' of an 'if' block"
    elif text == "if" and re.search(r"\belse\s*$", source[:getattr(token, "start_pos", None) or 0]):
        hint = "write 'elif CONDITION { ... }' for another case (the language has no 'else if')"
    elif text == "every":
        hint = "'every' follows 'respond' only: write 'respond every p in ORDER { play A }' (asks each player of ORDER)"
    elif set(error.expected or ()) == {"IN"}:
        # an aggregate opened on something that is not a binder: max(hand[p]), first(best(...))
        opened = re.search(r"\b([a-z_]+)\s*\(\s*$", source[:getattr(token, "start_pos", None) or 0]) or \
            re.search(r"\b([a-z_]+)\s*\(\s*[A-Za-z_]\w*\s*$", source[:getattr(token, "start_pos", None) or 0])
        word = opened.group(1) if opened else "count"
        example = {"best": "best(p in players by points[p])", "worst": "worst(p in players by points[p])",
                   "sorted": "sorted(c in hand[p] by c.rank)", "first": "first(p in best(p in players by points[p]))",
                   "filter": "filter(c in hand[p] where c.rank > 2)", "map": "map(c in hand[p]: c.rank)",
                   "any": "any(c in hand[p] where c.rank > 2)", "all": "all(c in hand[p]: c.rank > 2)",
                   "count": "count(c in hand[p] where c.rank > 2)"}.get(word, f"{word}(c in hand[p]: c.rank)")
        hint = f"{word}(...) names the items it goes over with a binder, e.g. {example}"
    elif token.type == "NAME" and "LBRACE" in (error.expected or set()):
        hint = "a '{' is missing before this name"
    elif set(error.expected or ()) == {"LPAR"}:
        # a word like 'best' or 'count' used as a name: the language reads it as best(...)
        before = re.search(r"([A-Za-z_]\w*)\s*$", source[:getattr(token, "start_pos", None) or 0])
        if before and before.group(1) in BUILTIN_WORDS:
            hint = f"'{before.group(1)}' is a word of the language, used as {before.group(1)}(...): it cannot be a name"
    return Diagnostic("E100", f"unexpected '{text}'", span, hint=hint)


def position_in(token: Token, offset: int) -> tuple[int, int]:
    """(line, column) of the character `offset` of a token (which may span lines)."""
    before = str(token)[:offset]
    newlines = before.count("\n")
    if not newlines:
        return token.line, token.column + offset
    return token.line + newlines, offset - before.rfind("\n")


def too_deep(file: str, tree: lark.Tree) -> Optional[Diagnostic]:
    """The first place where the tree nests deeper than MAX_NESTING, if any. Every later stage
    walks the tree recursively: this keeps them within Python's limits (and the generated code
    within Python's own), with the place to point at instead of a RecursionError."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_NESTING:
            span = span_of(file, node.meta)
            span = attrs.evolve(span, end_line=span.line, end_column=span.column + 1)
            return Diagnostic("E103", f"this is nested too deeply (more than {MAX_NESTING} levels of blocks, "
                              "brackets, operators and terms)", span,
                              hint="split it: give its parts names with 'fn', 'proc' or 'let'")
        stack.extend((child, depth + 1) for child in reversed(node.children) if isinstance(child, lark.Tree))
    return None


# What counts as one word or symbol for MAX_TOKENS: a string, a name or number, a sign
# (a long string counts as a few: its quotes and the symbols inside them)
WORD = re.compile(r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"|#[^\n]*|\w+|[^\s\w]')


def too_long(file: str, source: str) -> Optional[Diagnostic]:
    """A diagnostic at the first word beyond MAX_TOKENS, if the source has more: parsing costs
    time and memory by the word (about 20 us and 1 kB each), whatever the file's size."""
    if len(WORD.findall(source)) <= MAX_TOKENS:     # (comments among them: fewer words still)
        return None
    count = 0
    for match in WORD.finditer(source):
        if match.group().startswith("#"):
            continue
        count += 1
        if count > MAX_TOKENS:
            line = source.count("\n", 0, match.start()) + 1
            column = match.start() - source.rfind("\n", 0, match.start())
            return Diagnostic("E105", f"the file has more than {MAX_TOKENS} words and symbols", ast.Span(
                file, line, column, line, column + 1), hint="see the limits in docs/language.md")
    return None


def parse(source: str, file: str = "<string>") -> tuple[Optional[ast.Module], list[Diagnostic]]:
    module, diagnostics = parsed(lark_parser(), source, file)
    return module, list(diagnostics)


# A game is often loaded again (each player count, each option, a variant's base file, an
# editor's unchanged files), a label's expression in every load: the same text, read by the
# same parser, gives the same frozen tree.
@functools.lru_cache(maxsize=256)
def parsed(parser: lark.Lark, source: str, file: str) -> tuple[Optional[ast.Module], tuple[Diagnostic, ...]]:
    module, diagnostics = parsed_afresh(parser, source, file)
    return module, tuple(diagnostics)


def parsed_afresh(parser: lark.Lark, source: str, file: str) -> tuple[Optional[ast.Module], list[Diagnostic]]:
    long = too_long(file, source)
    if long is not None:
        return None, [long]
    try:
        tree = parser.parse(source)
    except UnexpectedInput as error:
        return None, [parse_error(file, source, error)]
    deep = too_deep(file, tree)
    if deep is not None:
        return None, [deep]
    try:
        return ToAst(file).transform(tree), []
    except (BadToken, lark.exceptions.VisitError) as error:
        bad = error if isinstance(error, BadToken) else error.orig_exc
        if not isinstance(bad, BadToken):
            raise
        line, column = position_in(bad.token, bad.offset)
        span = ast.Span(file, line, column, line, column + bad.width)
        return None, [Diagnostic("E101" if bad.token.type not in ("INT", "DECIMAL") else "E104", bad.message, span, hint=bad.hint)]


def parse_expression(text: str, span: ast.Span):
    """An expression written inside a text (a label's `{...}`), every node of it spanned at
    `span` (where the text stands in the file), or None when it is not one expression."""
    if "\n" in text or not text.strip():
        return None
    module, diagnostics = parse(f"fn __placeholder(): int = {text}\n", span.file)
    if diagnostics or module is None or len(module.items) != 1 or not isinstance(module.items[0], ast.Function):
        return None
    return respanned(module.items[0].body, span)


def respanned(value, span):
    if isinstance(value, tuple):
        return tuple(respanned(item, span) for item in value)
    if not attrs.has(type(value)) or isinstance(value, ast.Span):
        return value
    changes = {f.name: respanned(getattr(value, f.name), span) for f in attrs.fields(type(value)) if f.name != "span"}
    if any(f.name == "span" for f in attrs.fields(type(value))):
        changes["span"] = span
    return attrs.evolve(value, **changes)
