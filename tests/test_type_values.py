"""Types are values: no module of the checker (dsl/) or past it (interpreter/) takes a type's text
apart (`t.startswith("list[")`, `t.endswith("?")`, `t == "int"`, `"list[" + t + "]"`, `"list[Player]"`) or
imports helpers that work on texts; it asks a `Type` value (ListOf, OptionalOf, INT, named_type,
`t.is_number()`...) instead. An ast walk, like the layering tests. A type's text is written only
by dsl/types.py, where it is shown (the `text` of each kind of type) and read back (`type_of`).

And the values' operations answer as the checker's operations on texts did (tests/type_texts.py),
text for text, for every type hypothesis makes up."""
import ast
from pathlib import Path

from hypothesis import given, strategies as st

from referee.dsl import types
from referee.dsl.types import element_type, type_of
from tests import type_texts

ROOT = Path(__file__).resolve().parent.parent
# where a type's text may be written: its spelling (each type's `text`) and its reading (`type_of`)
SPELLING = {"dsl/types.py": frozenset({"text", "type_of"})}

TYPE_WORDS = frozenset({"int", "bool", "text", "Player", "real"})
COLLECTION_TEXTS = ("list[", "set[", "zone[")
# the helpers of dsl/types.py over texts (the checker's working spelling)
TEXT_HELPERS = frozenset({"ANY", "REAL", "WHOLE", "NUMBERS", "list_of", "set_of", "is_set", "element_of",
                          "strip_optional", "optional", "describe", "written", "may_be_none", "compatible"})


def is_type_text(value) -> bool:
    return isinstance(value, str) and (value in TYPE_WORDS or value.startswith(COLLECTION_TEXTS)
                                       or (len(value) > 1 and value.endswith("?") and value[:-1].isidentifier()))


def constants(node, held=True) -> list:
    """The constants an expression is, or (held) holds as a tuple, list or set's items."""
    if isinstance(node, ast.Constant):
        return [node.value]
    if held and isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [e.value for e in node.elts if isinstance(e, ast.Constant)]
    return []


def compared_texts(node: ast.Compare) -> list:
    """The constants a comparison compares with: each side's (x == "int"), a collection's
    items after `in` (x in ("int", "real"))."""
    found = []
    for left, op, right in zip([node.left, *node.comparators], node.ops, node.comparators):
        found += constants(left, held=False) + constants(right, held=isinstance(op, (ast.In, ast.NotIn)))
    return found


def is_not_a_type(node) -> bool:
    """A name as the rules write it (`for p in Player`: the domain's `.id`), or a kind (an
    aggregate's, a native coding's: `coding.kind == "int"`), not a type."""
    return isinstance(node, ast.Attribute) and node.attr in ("id", "kind")


def is_a_text(node) -> bool:
    """A type's text as a constant ("int"), or a type value's spelling (`t.text`)."""
    return (isinstance(node, ast.Constant) and is_type_text(node.value)) or \
        (isinstance(node, ast.Attribute) and node.attr == "text")


def scoped_values(call: ast.Call) -> list:
    """What `scope.child(...)` puts in: its keywords' values, a `**{name: value}`'s values."""
    found = []
    for keyword in call.keywords:
        if keyword.arg is not None:
            found.append(keyword.value)
        elif isinstance(keyword.value, ast.Dict):
            found += keyword.value.values
        elif isinstance(keyword.value, ast.DictComp):
            found.append(keyword.value.value)
    return found


def is_scope_entry(target) -> bool:
    """`scope.names[x]` as an assignment's target."""
    return isinstance(target, ast.Subscript) and isinstance(target.value, ast.Attribute) and target.value.attr == "names"


def type_texts_taken_apart(tree) -> list:
    """(line, what) of each place the tree takes a type's text apart."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if not any(is_not_a_type(side) for side in sides) and any(is_type_text(c) for c in compared_texts(node)):
                found.append((node.lineno, "compares with a type's text"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("startswith", "endswith") and node.args:
            if any(c in COLLECTION_TEXTS or c == "?" for c in constants(node.args[0])):
                found.append((node.lineno, f"{node.func.attr} of a type's text"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "child" \
                and any(is_a_text(value) for value in scoped_values(node)):
            found.append((node.lineno, "puts a type's text into a scope"))
        elif isinstance(node, ast.Assign) and any(is_scope_entry(target) for target in node.targets) \
                and is_a_text(node.value):
            found.append((node.lineno, "puts a type's text into a scope"))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith(COLLECTION_TEXTS):
            found.append((node.lineno, "writes a type's text"))
        elif isinstance(node, ast.JoinedStr) and node.values and \
                any(isinstance(v, ast.Constant) and str(v.value).endswith(COLLECTION_TEXTS) for v in node.values):
            found.append((node.lineno, "builds a type's text"))
        elif isinstance(node, ast.ImportFrom) and (node.module or "").endswith("dsl.types"):
            names = {alias.name for alias in node.names} & TEXT_HELPERS
            if names:
                found.append((node.lineno, f"imports {', '.join(sorted(names))} (texts) from dsl/types.py"))
        elif isinstance(node, ast.ImportFrom) and (node.module or "").endswith("dsl.checker"):
            names = {alias.name for alias in node.names} & TEXT_HELPERS
            if names:
                found.append((node.lineno, f"imports {', '.join(sorted(names))} (texts) from dsl/checker.py"))
    return sorted(found)


def spelling_lines(tree, names) -> set:
    """The lines of the functions (and properties) of those names."""
    return {line for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) and node.name in names
            for line in range(node.lineno, node.end_lineno + 1)}


def places(top: str) -> list:
    found = []
    for path in sorted((ROOT / top).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        allowed = spelling_lines(tree, SPELLING.get(path.relative_to(ROOT).as_posix(), ()))
        found += [f"{path.relative_to(ROOT)}:{line}: {what}" for line, what in type_texts_taken_apart(tree)
                  if line not in allowed]
    return found


def test_no_module_of_the_interpreter_takes_a_type_text_apart():
    assert places("interpreter") == []


def test_no_module_of_the_checker_takes_a_type_text_apart():
    """Scopes, the symbol table, the builtins' signatures and the checks hold and compare Type
    values; dsl/types.py alone spells a type (and reads a spelling back)."""
    assert places("dsl") == []


def test_the_spelling_of_types_is_where_the_walk_allows_it():
    tree = ast.parse((ROOT / "dsl" / "types.py").read_text(encoding="utf-8"))
    assert type_texts_taken_apart(tree)            # (the walk sees the spelling it allows)
    assert {line for line, _ in type_texts_taken_apart(tree)} <= spelling_lines(tree, SPELLING["dsl/types.py"])


# ---- the values answer as the texts did -------------------------------------------------------

NAMES = st.sampled_from(["int", "real", "bool", "text", "Player", "Card", "Cell", "Direction", "none", "any"])


def kinds(inner):
    return st.one_of(inner.map(lambda t: f"list[{t}]"), inner.map(lambda t: f"set[{t}]"),
                     inner.map(lambda t: f"zone[{t}]"), inner.filter(lambda t: not t.endswith("?")).map(lambda t: t + "?"))


TYPE_TEXTS = st.recursive(NAMES, kinds, max_leaves=4)


@given(TYPE_TEXTS)
def test_a_type_value_answers_each_question_as_its_text_did(text):
    t = type_of(text)
    assert t.text == str(t) == text
    assert t.describe() == type_texts.describe(text)
    assert t.written() == type_texts.written(text)
    assert t.may_be_none() == type_texts.may_be_none(text)
    assert t.without_none().text == type_texts.strip_optional(text)
    assert t.or_none().text == type_texts.optional(text)
    assert element_type(t).text == type_texts.element_of(text)
    assert t.is_number() == (type_texts.strip_optional(text) in type_texts.NUMBERS)
    assert t.is_whole() == (type_texts.strip_optional(text) in type_texts.WHOLE)
    assert t.is_fraction() == (type_texts.strip_optional(text) == type_texts.REAL)
    assert t.is_list() == text.startswith("list[") and t.is_zone() == text.startswith("zone[")
    assert t.is_set() == type_texts.is_set(text)
    assert t.is_collection() == text.startswith(("list[", "zone[", "set["))


@given(TYPE_TEXTS, TYPE_TEXTS)
def test_a_type_value_fits_another_where_its_text_did(a, b):
    assert type_of(a).fits(type_of(b)) == type_texts.compatible(a, b)
    assert (type_of(a) == type_of(b)) == (a == b)


def test_the_text_helpers_are_gone_from_the_types_module():
    """(The texts of the unknown type and of fractions, ANY and REAL, are the spelling's.)"""
    assert (TEXT_HELPERS - {"ANY", "REAL"}).isdisjoint(vars(types))


def test_the_walk_finds_each_way_of_taking_a_type_text_apart():
    source = '''
from referee.dsl.types import strip_optional, ListOf
if t.startswith("list["): pass
if t.endswith("?"): pass
if t == "int" or t in ("real", "bool"): pass
labeler("list[" + e + "]")
f"set[{e}]"
expr(node, scope, "list[Player]")
inner = scope.child(row="int", col=INT)
inner = scope.child(**{binder.name: element.text})
inner = scope.child(**{b.name: b.type.text for b in binders})
scope.names[node.name] = self.type_value(node.value, scope).text
guard_scope.names[name] = "Player"
'''
    assert sorted({line for line, _ in type_texts_taken_apart(ast.parse(source))}) == [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]


def test_the_walk_leaves_alone_what_is_not_a_type_text():
    source = '''
from referee.dsl.types import ListOf, named_type
if node.kind == "any" or domain.id in ("players", "Player"): pass
if key in ("?", "h"): pass
if list(value) == ["text"]: pass
if coding.kind == "int": pass
if isinstance(t, ListOf) and t == INT: pass
inner = scope.child(row=INT, **{binder.name: element}, **{p.name: type_name(p.type) for p in parameters})
scope.names[node.name] = self.type_value(node.value, scope)
cell = scope.child(row=("builtin", "row"))
'''
    assert type_texts_taken_apart(ast.parse(source)) == []


# ---- the standard functions' signatures ---------------------------------------------------------

def test_a_signature_is_made_of_types_and_kinds_of_argument_built_once():
    from referee.dsl.builtins import ANY_VALUE, CELL, ENUM, LIST, MAP, MAP_KEY, MAP_VALUE, STDLIB_SIGNATURES, ZONE
    kinds = {LIST, ZONE, CELL, ENUM, ANY_VALUE, MAP, MAP_KEY, MAP_VALUE}
    for name, (parameters, result) in STDLIB_SIGNATURES.items():
        assert all(isinstance(p, types.Type) or p in kinds for p in parameters), name
        assert isinstance(result, types.Type), name
    assert STDLIB_SIGNATURES["top"][1] is STDLIB_SIGNATURES["pick"][1]       # (one value, not a text parsed per call)


def test_the_element_type_stands_for_t_in_a_result():
    from referee.dsl.builtins import STDLIB_SIGNATURES
    from referee.dsl.standard_calls import instantiated
    card, token = type_of("Card"), type_of("Token")    # (a value put in whole: no T inside a name is replaced)
    top, subsets, size = (STDLIB_SIGNATURES[n][1] for n in ("top", "subsets", "size"))
    assert instantiated(top, card) == type_of("Card?") and instantiated(top, type_of("Card?")) == type_of("Card?")
    assert instantiated(top, types.UNKNOWN) is types.UNKNOWN             # (unknown stays unknown, with or without none)
    assert instantiated(subsets, token) == type_of("list[list[Token]]") and instantiated(size, card) == types.INT
    assert str(instantiated(STDLIB_SIGNATURES["reversed"][1], type_of("list[Card]"))) == "list[list[Card]]"


def test_a_scope_holds_type_values_and_refuses_a_type_text():
    """Past the parser a type is a value: a text put into a scope (as the compiler once wrote a
    binder's or a let's type) is the caller's fault, told at once."""
    import pytest
    from referee.dsl.symbols import Scope
    scope = Scope({"n": types.INT}).child(row=types.INT, cell=type_of("Cell?"))
    assert scope.lookup("row") is types.INT and scope.lookup("n") is types.INT
    assert scope.lookup("cell") == types.OptionalOf(types.Named("Cell")) and scope.lookup("nothing") is None
    with pytest.raises(TypeError, match="'int'"):
        scope.child(row="int")
    scope.names["hand"] = "list[Card]"
    with pytest.raises(TypeError, match="list"):
        scope.lookup("hand")


def test_reading_a_type_text_takes_only_a_text():
    """`type_of` reads a spelling; a Type value is not passed through it (no wrapper that does nothing)."""
    import pytest
    with pytest.raises(AttributeError):
        type_of(types.INT)
    assert type_of("list[Card?]") == types.ListOf(types.OptionalOf(types.Named("Card")))
