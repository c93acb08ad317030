"""Types are values past the checker: no module under interpreter/ takes a type's text apart
(`t.startswith("list[")`, `t.endswith("?")`, `t == "int"`, `"list[" + t + "]"`, `"list[Player]"`) or imports the
helpers of dsl/types.py that work on texts; it asks a `Type` value (ListOf, OptionalOf, INT,
named_type...) instead. An ast walk, like the layering tests."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

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


def places(top: str) -> list:
    return [f"{path.relative_to(ROOT)}:{line}: {what}"
            for path in sorted((ROOT / top).rglob("*.py"))
            for line, what in type_texts_taken_apart(ast.parse(path.read_text(encoding="utf-8")))]


def test_no_module_of_the_interpreter_takes_a_type_text_apart():
    assert places("interpreter") == []


def test_the_walk_finds_each_way_of_taking_a_type_text_apart():
    source = '''
from referee.dsl.types import strip_optional, ListOf
if t.startswith("list["): pass
if t.endswith("?"): pass
if t == "int" or t in ("real", "bool"): pass
labeler("list[" + e + "]")
f"set[{e}]"
expr(node, scope, "list[Player]")
'''
    assert sorted({line for line, _ in type_texts_taken_apart(ast.parse(source))}) == [2, 3, 4, 5, 6, 7, 8]


def test_the_walk_leaves_alone_what_is_not_a_type_text():
    source = '''
from referee.dsl.types import ListOf, named_type
if node.kind == "any" or domain.id in ("players", "Player"): pass
if key in ("?", "h"): pass
if list(value) == ["text"]: pass
if coding.kind == "int": pass
if isinstance(t, ListOf) and t == INT: pass
'''
    assert type_texts_taken_apart(ast.parse(source)) == []
