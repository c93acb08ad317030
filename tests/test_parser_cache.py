"""The saved parser tables (dsl/grammar.tables): they match grammar.lark, they parse every file
exactly as a parser freshly built from the grammar (trees, positions, errors, diagnostics), and
tables that do not match the grammar, the options or the Lark version are never used."""
from __future__ import annotations

import shutil
from pathlib import Path

import lark
import pytest
from lark import Token, Tree
from lark.exceptions import UnexpectedInput

from referee.dsl import parser as dsl_parser
from referee.dsl.parser import GRAMMAR_PATH, TABLES_MAGIC, TABLES_PATH, build_parser, lark_parser, load_tables, save_tables

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted(path for folder in ("games", "tests/bad") for path in (ROOT / folder).rglob("*.rules"))
GRAMMAR = GRAMMAR_PATH.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def fresh():
    return build_parser(GRAMMAR)


@pytest.fixture(scope="module")
def saved():
    parser = load_tables(GRAMMAR)
    assert parser is not None, f"{TABLES_PATH.name} does not match grammar.lark: run python -m referee.dsl.parser_tables"
    return parser


@pytest.fixture
def clean_cache():
    """lark_parser() remembers its parser: forget it before and after a test that changes the files."""
    lark_parser.cache_clear()
    yield
    lark_parser.cache_clear()


def dump(node):
    """A tree with everything a stage may read: rule names, token types and values, positions."""
    if isinstance(node, Tree):
        meta = node.meta
        where = None if meta.empty else (meta.line, meta.column, meta.end_line, meta.end_column,
                                         meta.start_pos, meta.end_pos)
        return (str(node.data), where, tuple(dump(child) for child in node.children))
    if isinstance(node, Token):
        return ("token", node.type, str(node), node.line, node.column, node.end_line, node.end_column,
                node.start_pos, node.end_pos)
    return node   # None for a missing optional part


def outcome(parser, source: str):
    try:
        return dump(parser.parse(source))
    except UnexpectedInput as error:
        token = getattr(error, "token", None)
        return (type(error).__name__, error.line, error.column, getattr(error, "pos_in_stream", None),
                None if token is None else (token.type, str(token), token.start_pos),
                sorted(getattr(error, "expected", None) or ()), sorted(getattr(error, "allowed", None) or ()))


def dsl_parse(parser, source: str, file: str, monkeypatch):
    """dsl.parser.parse (syntax tree and diagnostics) with lark_parser() giving `parser`."""
    with monkeypatch.context() as patch:
        patch.setattr(dsl_parser, "lark_parser", lambda strict=False: parser)
        module, diagnostics = dsl_parser.parse(source, file)
    return repr(module), [(repr(d), d.render(source)) for d in diagnostics]


def prefixes(source: str, count: int = 12):
    """Cuts of the source at spread-out places (in the middle of words too): they end in errors."""
    step = max(1, len(source) // count)
    return [source[:end] for end in range(step // 2, len(source), step)]


# ---- the saved tables are those of grammar.lark ----------------------------------------------

def test_saved_tables_match_the_grammar_and_lark(saved):
    assert saved.options.parser == "lalr"
    assert saved.options.propagate_positions and saved.options.maybe_placeholders
    # what it was built from is what runs now (the grammar, the options and the Lark version)
    with open(TABLES_PATH, "rb") as file:
        assert file.readline() == TABLES_MAGIC
        header = file.readline().decode()
    assert dsl_parser.tables_key(GRAMMAR)["grammar_sha256"] in header
    assert f'"lark": "{lark.__version__}"' in header


@pytest.mark.slow
def test_the_parser_in_use_is_the_saved_one(clean_cache):
    # a parser built from the grammar has its source; one loaded from the tables has none
    assert lark_parser().source_path == "<deserialized>"
    assert lark_parser(strict=True).options.strict      # the strict parser is always built


def test_saved_parser_keeps_the_grammar_and_terminals(saved, fresh):
    # hypothesis' from_lark reads .grammar; describe_expected reads .terminals
    def terminals(defs):
        return [(t.name, t.pattern, t.priority) for t in defs]

    def compiled(parser):
        defs, rules, ignore = parser.grammar.compile(["start"], ())
        return terminals(defs), [str(rule) for rule in rules], ignore

    assert compiled(saved) == compiled(fresh)
    assert terminals(saved.terminals) == terminals(fresh.terminals)
    assert {terminal.pattern for terminal in saved.terminals} == {terminal.pattern for terminal in fresh.terminals}
    assert [str(rule) for rule in saved.rules] == [str(rule) for rule in fresh.rules]


# ---- the same results as a fresh parser ------------------------------------------------------

@pytest.mark.parametrize("path", FILES, ids=lambda path: str(path.relative_to(ROOT)))
@pytest.mark.slow
def test_same_trees_and_errors_as_a_fresh_parser(path, saved, fresh, monkeypatch):
    source = path.read_text(encoding="utf-8")
    assert outcome(saved, source) == outcome(fresh, source)
    file = str(path.relative_to(ROOT))
    assert dsl_parse(saved, source, file, monkeypatch) == dsl_parse(fresh, source, file, monkeypatch)


@pytest.mark.parametrize("path", sorted((ROOT / "games").glob("*.rules")), ids=lambda path: path.name)
@pytest.mark.slow
def test_same_errors_on_cut_files(path, saved, fresh, monkeypatch):
    for source in prefixes(path.read_text(encoding="utf-8")):
        assert outcome(saved, source) == outcome(fresh, source)
        assert dsl_parse(saved, source, "cut.rules", monkeypatch) == dsl_parse(fresh, source, "cut.rules", monkeypatch)


# ---- tables that do not match are never used -------------------------------------------------

def changed(grammar: str) -> str:
    changed_grammar = grammar.replace('"enum" NAME', '"enumeration" NAME')
    assert changed_grammar != grammar
    return changed_grammar


@pytest.mark.slow
def test_tables_of_another_grammar_are_not_used(tmp_path):
    path = tmp_path / "grammar.tables"
    save_tables(GRAMMAR, path)
    assert load_tables(GRAMMAR, path) is not None
    assert load_tables(changed(GRAMMAR), path) is None
    assert load_tables(GRAMMAR + "\n", path) is None     # any change counts, even a blank line
    assert list(tmp_path.iterdir()) == [path]             # no temporary file left behind


def test_tables_of_another_lark_version_or_options_are_not_used(tmp_path, monkeypatch):
    path = tmp_path / "grammar.tables"
    save_tables(GRAMMAR, path)
    with monkeypatch.context() as patch:
        patch.setattr(lark, "__version__", lark.__version__ + ".dev0")
        assert load_tables(GRAMMAR, path) is None
    with monkeypatch.context() as patch:
        patch.setattr(dsl_parser, "LARK_OPTIONS", {**dsl_parser.LARK_OPTIONS, "propagate_positions": False})
        assert load_tables(GRAMMAR, path) is None
    assert load_tables(GRAMMAR, path) is not None


@pytest.mark.slow
def test_missing_or_damaged_tables_are_not_used(tmp_path):
    path = tmp_path / "grammar.tables"
    assert load_tables(GRAMMAR, path) is None
    save_tables(GRAMMAR, path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])              # cut short
    assert load_tables(GRAMMAR, path) is None
    path.write_bytes(b"something else\n" + data)          # not our header
    assert load_tables(GRAMMAR, path) is None
    path.write_bytes(b"")
    assert load_tables(GRAMMAR, path) is None


def test_changed_grammar_is_parsed_with_the_change_not_the_stale_tables(tmp_path, monkeypatch, clean_cache):
    # the package as a developer leaves it after editing grammar.lark without regenerating the tables
    grammar_path = tmp_path / "grammar.lark"
    grammar_path.write_text(changed(GRAMMAR), encoding="utf-8")
    tables_path = tmp_path / "grammar.tables"
    shutil.copyfile(TABLES_PATH, tables_path)
    monkeypatch.setattr(dsl_parser, "GRAMMAR_PATH", grammar_path)
    monkeypatch.setattr(dsl_parser, "TABLES_PATH", tables_path)
    source = "enumeration Color { red, blue }"
    parser = lark_parser()
    assert parser.source_path != "<deserialized>"
    assert parser.parse(source).children[0].data == "enum"
    module, diagnostics = dsl_parser.parse("enum Color { red, blue }")
    assert module is None and diagnostics[0].code == "E100"
    assert tables_path.read_bytes() == TABLES_PATH.read_bytes()   # nothing is written at run time


def test_a_text_parsed_again_gives_the_same_tree_and_its_own_list_of_diagnostics():
    """parse() remembers what the same parser made of the same text (a game loaded again):
    the same frozen tree, and a list of diagnostics the caller may extend without changing the
    next answer; another text, another file name or another parser is parsed afresh."""
    source = "enum Colour { red, blue }\n"
    first, diagnostics = dsl_parser.parse(source, "a.rules")
    again, _ = dsl_parser.parse(source, "a.rules")
    assert first is again and diagnostics == []
    other, _ = dsl_parser.parse(source, "b.rules")
    assert other is not first and other.span.file == "b.rules"
    broken = "enum Colour { red,, blue }\n"
    errors, told = dsl_parser.parse(broken, "a.rules")[1], dsl_parser.parse(broken, "a.rules")[1]
    assert errors == told and errors is not told and errors[0].code.startswith("E1")
    errors.clear()
    assert dsl_parser.parse(broken, "a.rules")[1] == told
    fresh = build_parser(GRAMMAR)
    assert dsl_parser.parsed(fresh, source, "a.rules")[0] is not first
    assert dsl_parser.parsed(fresh, source, "a.rules")[0] == first
