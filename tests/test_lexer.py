"""dsl/lexer.py's RootFirstLexer tokenises exactly as Lark's ContextualLexer: the same tokens
(types, texts, positions), so the same trees, and the same errors (their expected and allowed
terminals, which the diagnostics show), on every file of games/ and tests/bad, on their cut-off
prefixes, on mutated files, and on small grammars built to meet each case of its argument
(keywords folded or not, keyword-only states, case-insensitive keywords, priorities)."""
from __future__ import annotations

import random
from pathlib import Path

import lark
import pytest
from hypothesis import given
from hypothesis import strategies as st
from lark.lexer import ContextualLexer

from referee.dsl import parser as dsl_parser
from referee.dsl.lexer import PLUGINS, RootFirstLexer
from referee.dsl.parser import GRAMMAR_PATH, LARK_OPTIONS, TABLES_PATH, TABLES_MAGIC, lark_parser

from .test_fuzz import mutate
from .test_parser_cache import FILES, outcome, prefixes


@pytest.fixture(scope="module")
def larks():
    """The saved tables loaded with Lark's own ContextualLexer."""
    with open(TABLES_PATH, "rb") as file:
        assert file.readline() == TABLES_MAGIC
        file.readline()
        parser = lark.Lark.load(file)
    assert type(parser.parser.lexer) is ContextualLexer
    return parser


@pytest.fixture(scope="module")
def ours():
    parser = lark_parser()
    assert isinstance(parser.parser.lexer, RootFirstLexer)
    return parser


@pytest.mark.slow
def test_the_parsers_of_the_language_use_it_but_the_strict_one(ours):
    assert isinstance(dsl_parser.build_parser(GRAMMAR_PATH.read_text(encoding="utf-8")).parser.lexer, RootFirstLexer)
    # the strict parser checks the grammar with Lark's own lexer (collisions state by state)
    assert type(lark_parser(strict=True).parser.lexer) is ContextualLexer


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
@pytest.mark.slow
def test_every_file_and_its_prefixes_lex_as_with_lark(path, ours, larks):
    source = path.read_text(encoding="utf-8")
    for text in [source, *prefixes(source)]:
        assert outcome(ours, text) == outcome(larks, text)


def test_a_valid_game_builds_hardly_any_scanner(larks):
    # the point of the lexer: Lark builds a scanner for each state a file meets (~70 for
    # Continents); this one scans with one scanner and builds a state's own rarely
    parser = dsl_parser.load_tables(GRAMMAR_PATH.read_text(encoding="utf-8"))
    lexer = parser.parser.lexer
    source = (Path(__file__).resolve().parent.parent / "games" / "continents.rules").read_text(encoding="utf-8")
    assert outcome(parser, source) == outcome(larks, source)
    met = {state for state, _, _ in lexer.plans}
    assert len(met) > 100
    assert len(lexer.lexers_by_accepts) <= 2, sorted(lexer.lexers)


def test_an_error_gives_the_state_lexers_own_message(ours, larks):
    # a character no terminal starts (UnexpectedCharacters, with the state's allowed terminals),
    # and one that starts a terminal of another state (UnexpectedToken, with the expected ones)
    for text in ['game "x" { players: 2 ! }', 'game "x" { players: 2 }\nvar a: int = 1 ]', "game game"]:
        theirs = outcome(larks, text)
        assert theirs[0] in ("UnexpectedCharacters", "UnexpectedToken")
        assert outcome(ours, text) == theirs


@given(st.sampled_from(FILES), st.integers(0, 2**32 - 1))
def test_mutated_files_lex_as_with_lark(ours, larks, path, seed):
    text = mutate(path.read_bytes(), random.Random(seed)).decode("utf-8", errors="replace")
    assert outcome(ours, text) == outcome(larks, text)


# ---- small grammars, for the cases the games' grammar may not have ----------------------------

GRAMMARS = {
    # keywords folded into NAME, and states that accept a keyword but no NAME ('else', 'in')
    "keywords": r"""
        start: item*
        item: "if" NAME block ("else" block)? | "for" NAME "in" NAME block | NAME "=" INT ";"
        block: "{" item* "}"
        NAME: /[a-z_]+/
        INT: /[0-9]+/
        %ignore /\s+/
    """,
    # a case-insensitive keyword (not folded into NAME: its flags are not NAME's), a keyword
    # that is a prefix of names, and an operator that is a prefix of another
    "flags": r"""
        start: stmt*
        stmt: "SELECT"i NAME ("," NAME)* ";" | NAME ("<" | "<=" | "<<") NAME ";"
        NAME: /[A-Za-z]+/
        %ignore " "
    """,
    # priorities: a terminal of higher priority that the names' pattern also matches
    "priorities": r"""
        start: (pair | WORD)*
        pair: KEY ":" WORD
        KEY.2: /[a-z]+(?=:)/
        WORD: /[a-z]+/
        %ignore " "
    """,
}


@pytest.fixture(scope="module", params=sorted(GRAMMARS))
def grammar_pair(request):
    grammar = GRAMMARS[request.param]
    options = dict(LARK_OPTIONS)
    return (request.param, lark.Lark(grammar, _plugins=PLUGINS, **options), lark.Lark(grammar, **options))


PIECES = ["if", "else", "for", "in", "inx", "i", "x", "fo", "SELECT", "select", "SeLeCt", "a", "b", ",", ";",
          "<", "<=", "<<", "=", "{", "}", "1", "23", "key", ":", " ", "\n", "!", "ifelse"]


@given(st.lists(st.sampled_from(PIECES), max_size=14))
def test_small_grammars_lex_as_with_lark(grammar_pair, pieces):
    name, mine, lark_own = grammar_pair
    assert isinstance(mine.parser.lexer, RootFirstLexer)
    for text in ("".join(pieces), " ".join(pieces)):
        assert outcome(mine, text) == outcome(lark_own, text), (name, text)


@pytest.mark.parametrize("name, text", [
    ("keywords", "for i in x { if y { a = 1; } else { } }"),      # 'in' and 'else' where no NAME may come
    ("keywords", "for i inx x { }"),                              # a name where only 'in' may come
    ("flags", "SeLeCt a, b; a <= b; a << b; a < b;"),
    ("priorities", "key: value word key:word"),
])
def test_small_grammars_cases(name, text):
    grammar = GRAMMARS[name]
    mine = lark.Lark(grammar, _plugins=PLUGINS, **LARK_OPTIONS)
    assert outcome(mine, text) == outcome(lark.Lark(grammar, **LARK_OPTIONS), text)
