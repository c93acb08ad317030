"""No decision of the back end reads a generated name's spelling: the compile stages
(interpreter/compile/) and the native coverage ask a name's kind (compile/generated_names.py),
a stamp's kind (caching.Stamp) or a refusal's construct (render_native.Refusal), never
`name.startswith("_h")`, `d.startswith("zone:")` or a regular expression over a note. An ast
walk, like tests/test_type_values.py (at 15592e0 it found 14 places; none now); and every name of those kinds that a game's functions
hold is made of its kind (none is a plain text spelled alike)."""
import ast
import re
from pathlib import Path

import pytest

from referee.interpreter.compile import ir, lower_functions
from referee.interpreter.compile.generated_names import (BoundConstant, ComponentColumn, ComprehensionVariable,
                                                         Hoisted, RowKey, RulesFunction, RulesLocal, Temporary)
from referee.interpreter.engine import load_game

ROOT = Path(__file__).resolve().parent.parent
WALKED = sorted((ROOT / "interpreter" / "compile").rglob("*.py")) + [ROOT / "interpreter" / "native" / "coverage.py"]
# a text that can begin or end a Python name (or a key spelled like one: "zone:")
NAME_PART = re.compile(r"[#A-Za-z_][\w:]*")
# Python's own names in a namespace (`__builtins__`), not ones the compiler makes
NOT_GENERATED = frozenset({"__"})


def module_texts(tree) -> dict:
    """The module's names bound to a text or a tuple of texts (`PREFIXES = ("L_",)`, `T, H = "_t", "_h"`)."""
    found = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
            pairs = zip(target.elts, value.elts) if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) \
                else [(target, value)]
            for name, bound in pairs:
                texts = texts_of(bound, {})
                if texts and isinstance(name, ast.Name):
                    found[name.id] = texts
    return found


def parameters_tested(tree) -> list:
    """(line, what) of each function that tests a name's start or end against its parameter (a
    helper such as `numbered(name, prefix)`: its callers decide from a spelling)."""
    found = []
    for function in ast.walk(tree):
        if isinstance(function, (ast.FunctionDef, ast.Lambda)):
            params = {a.arg for a in function.args.args}
            for node in ast.walk(function):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args and \
                        node.func.attr in ("startswith", "endswith") and \
                        isinstance(node.args[0], ast.Name) and node.args[0].id in params:
                    found.append((node.lineno, f"{node.func.attr} of a name against a parameter"))
    return found


def texts_of(node, names) -> list:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [t for e in node.elts for t in texts_of(e, names)]
    if isinstance(node, ast.Name):
        return names.get(node.id, [])
    return []


def is_name_part(text: str) -> bool:
    return bool(NAME_PART.fullmatch(text)) and text not in NOT_GENERATED


def spellings_read(tree, known=None) -> list:
    """(line, what) of each place the tree decides from a name's spelling (`known`: the texts
    other modules bind, which it may import)."""
    names = {**(known or {}), **module_texts(tree)}
    found = parameters_tested(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("startswith", "endswith") and node.args:
            if any(is_name_part(t) for t in texts_of(node.args[0], names)):
                found.append((node.lineno, f"{node.func.attr} of a name's spelling"))
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            texts = [t for side in sides for t in texts_of(side, {}) if is_name_part(t)]
            # a slice of a name against a spelling; a character of one against `_` (a prefix's)
            if any(isinstance(side, ast.Subscript) and isinstance(side.slice, ast.Slice) for side in sides) and texts \
                    or any(isinstance(side, ast.Subscript) for side in sides) and any("_" in t for t in texts):
                found.append((node.lineno, "compares a character or a slice of a name with a spelling"))
        elif isinstance(node, ast.Import) and any(alias.name == "re" for alias in node.names) or \
                isinstance(node, ast.ImportFrom) and node.module == "re":
            found.append((node.lineno, "imports re (a regular expression over names or notes)"))
    return sorted(found)


def places(sources: dict) -> list:
    """`file:line: what` of every place the sources (file -> text) read a spelling."""
    trees = {path: ast.parse(text) for path, text in sources.items()}
    known = {name: texts for tree in trees.values() for name, texts in module_texts(tree).items()}
    return [f"{path}:{line}: {what}" for path, tree in trees.items() for line, what in spellings_read(tree, known)]


def test_no_decision_of_the_back_end_reads_a_generated_names_spelling():
    assert places({path.relative_to(ROOT): path.read_text(encoding="utf-8") for path in WALKED}) == []


def test_the_walk_finds_each_way_of_reading_a_spelling():
    source = '''
import re
if temp.startswith("_h"): pass
if key.name.endswith("_key"): pass
PREFIXES = ("L_", "_A")
if name.startswith(PREFIXES): pass
if d.startswith("zone:"): pass
if name[:2] == "_t": pass
if node.function.startswith(("fn_",)): pass
if head[0] == "_" and head[1:] == "k": pass
TEMPORARY, HOISTED = "_t", "_h"
if name.startswith(HOISTED): pass
def numbered(name, prefix): return name.startswith(prefix)
'''
    assert sorted({line for line, _ in spellings_read(ast.parse(source))}) == [2, 3, 4, 6, 7, 8, 9, 10, 12, 13]


def test_the_walk_leaves_alone_what_is_no_generated_name():
    source = '''
MARK = "# Generated by referee"
if str(path).endswith(".py"): pass
if name.startswith("__"): pass
if text.startswith(MARK): pass
if isinstance(temp, Hoisted) and name in ("s", "e"): pass
if sources[k][0] == "require" and meta[name][1] != "public": pass
'''
    assert spellings_read(ast.parse(source)) == []


# ---- the names a game's functions hold are of their kind ----

# a spelling -> the kind a name so spelled must be (the test may read spellings: the compiler may not)
KINDS = ((re.compile(r"_t\d+"), Temporary), (re.compile(r"_h\d+"), Hoisted), (re.compile(r"L_\w+"), RulesLocal),
         (re.compile(r"a\d+_key"), RowKey), (re.compile(r"a\d+_\w+"), ComprehensionVariable))


def names_held(node):
    """(text, field) of the names a node holds where a kind is asked."""
    for n in ir.walk(node):
        if isinstance(n, ir.Local):
            yield n.name, "local"
        elif isinstance(n, (ir.Named, ir.FirstUse)):
            yield n.target, "local"
        elif isinstance(n, ir.Global):
            yield n.name, "global"
        elif isinstance(n, ir.ReadColumn):
            yield n.column, "column"
        elif isinstance(n, ir.Call):
            yield n.function, "call"


def wrong_kinds(node) -> set:
    wrong = set()
    for name, field in names_held(node):
        if field == "local":
            kind = next((kind for spelling, kind in KINDS if spelling.fullmatch(name)), None)
        else:
            kind = {"global": BoundConstant if re.fullmatch(r"_k\d+", name) else None,
                    "column": ComponentColumn if re.fullmatch(r"_A\d+", name) else None,
                    "call": RulesFunction if name.startswith("fn_") else None}[field]
        if kind is not None and not isinstance(name, kind):
            wrong.add((name, kind.__name__))
    return wrong


@pytest.mark.parametrize("game", ["tic-tac-toe", "continents", "ticket-to-ride"])
def test_every_name_a_game_holds_is_made_of_its_kind(game, monkeypatch):
    functions = []
    define = lower_functions.FunctionLowering.define

    def recording_define(self, function, *args, **kwargs):
        functions.append(function)
        return define(self, function, *args, **kwargs)
    monkeypatch.setattr(lower_functions.FunctionLowering, "define", recording_define)
    loaded, diagnostics, _ = load_game(str(ROOT / "games" / f"{game}.rules"))
    assert loaded is not None, diagnostics
    assert len(functions) > 10
    assert set().union(*(wrong_kinds(function) for function in functions)) == set()


def test_a_plain_text_spelled_like_a_kind_is_found():
    plain = ir.Call("fn_f", (ir.Local("_h1"), ir.ReadColumn("_A0", ir.Local(RulesLocal("L_x")))))
    assert wrong_kinds(plain) == {("fn_f", "RulesFunction"), ("_h1", "Hoisted"), ("_A0", "ComponentColumn")}
    made = ir.Call(RulesFunction.of("f"), (ir.Local(Hoisted("_h1")), ir.ReadColumn(ComponentColumn("_A0"), ir.Local("y"))))
    assert wrong_kinds(made) == set()


def test_the_namespace_the_functions_run_in_has_plain_text_keys(monkeypatch):
    """A name of a kind is a str subclass: as a key of the functions' globals it would cost every
    global read its speed (a dict whose keys are all exact str is looked up on a faster path)."""
    from referee.interpreter.compile import codegen
    made = []
    init = codegen.SourceGenerator.__init__

    def recording_init(self, *args, **kwargs):
        init(self, *args, **kwargs)
        made.append(self)
    monkeypatch.setattr(codegen.SourceGenerator, "__init__", recording_init)
    loaded, diagnostics, _ = load_game(str(ROOT / "games" / "continents.rules"))
    assert loaded is not None, diagnostics
    assert made and {type(name) for generator in made for name in generator.namespace} == {str}
