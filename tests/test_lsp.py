"""`referee lsp`: the language logic (diagnostics; in dsl/names.py, names and what they name,
hover, definition, references, rename, completion, symbols) on the games, and the server itself
as an editor drives it: a subprocess spoken to in JSON-RPC over stdio."""
from __future__ import annotations

import functools
import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from referee.dsl import names
from referee.dsl.parser import parse
from referee.dsl.diagnostics import source_lines
from referee.dsl.parser import GRAMMAR_PATH
from referee.interpreter.lsp import server as lsp
from referee.interpreter.cli.common import version

from .conftest import GAMES, ROOT, game_files
from .test_bad_files import BAD
from .test_cli import run

TTT = str(GAMES / "tic-tac-toe.rules")
CONNECT = str(GAMES / "connect-four.rules")
CONTINENTS = str(GAMES / "continents.rules")
FOUR_CARDS = str(GAMES / "variants" / "continents-four-cards.rules")


@functools.lru_cache(maxsize=None)
def analysed(path) -> lsp.Analysis:
    """A file on disk, analysed once for the tests that only read the analysis."""
    return lsp.analyse(str(path))


def text_of(path) -> str:
    return Path(path).read_text(encoding="utf-8")


def at(path, line_text, word, nth=0):
    """(line, column) of the nth `word` (whole word) on the first line holding `line_text`."""
    lines = source_lines(text_of(path))
    line = next(i for i, l in enumerate(lines, 1) if line_text in l)
    match = list(re.finditer(rf"\b{re.escape(word)}\b", lines[line - 1]))[nth]
    return line, match.start() + 1


def word_of(span) -> str:
    lines = source_lines(text_of(span.file))
    assert span.line == span.end_line
    return lines[span.line - 1][span.column - 1:span.end_column - 1]


def words_in_code(path, word) -> list:
    """(line, column) of each `word` of a file outside its comments (the games put none in strings)."""
    code = [line.split("#")[0] for line in source_lines(text_of(path))]
    return [(i, m.start() + 1) for i, line in enumerate(code, 1) for m in re.finditer(rf"\b{word}\b", line)]


def apply(text: str, spans, new: str) -> str:
    """The text with every span (of this text) replaced by `new`."""
    tokens = names.Tokens("x", text)
    for span in sorted(spans, key=lambda s: (s.line, s.column), reverse=True):
        start, end = tokens.offset(span.line, span.column), tokens.offset(span.end_line, span.end_column)
        text = text[:start] + new + text[end:]
    return text


# ---- the words of the language -----------------------------------------------------------

def test_keywords_are_every_word_of_the_grammar():
    grammar = GRAMMAR_PATH.read_text(encoding="utf-8")
    literal = set(re.findall(r'"([a-z_]+)"', grammar.split("%import")[0]))
    assert set(names.keywords()) == literal
    assert {"action", "extends", "simultaneous", "flow", "override"} <= set(names.keywords())


def test_the_textmate_grammar_highlights_every_keyword():
    grammar = json.loads((ROOT / "editors" / "referee.tmLanguage.json").read_text(encoding="utf-8"))
    assert grammar["scopeName"] == "source.referee" and grammar["fileTypes"] == ["rules"]
    patterns = [p["match"] for p in grammar["repository"]["keywords"]["patterns"]]
    for word in names.keywords():
        assert any(re.fullmatch(pattern, word) for pattern in patterns), word
    line = '@C-3 "2 to {n} players."  # a comment'
    tag = re.compile(grammar["repository"]["rule-tag"]["match"])
    assert tag.match(line).group() == "@C-3"
    assert re.search(grammar["repository"]["comment"]["match"], line).group() == "# a comment"


def test_the_vscode_extension_uses_the_grammar_and_the_command():
    package = json.loads((ROOT / "editors" / "vscode" / "package.json").read_text(encoding="utf-8"))
    (language,) = package["contributes"]["languages"]
    (grammar,) = package["contributes"]["grammars"]
    assert language["extensions"] == [".rules"] and grammar["language"] == language["id"] == "referee"
    assert grammar["scopeName"] == "source.referee" and "../referee.tmLanguage.json" in package["scripts"]["postinstall"]
    command = package["contributes"]["configuration"]["properties"]["referee.server.command"]["default"]
    assert command == ["referee", "lsp"]
    extension = (ROOT / "editors" / "vscode" / "extension.js").read_text(encoding="utf-8")
    assert 'get("server.command")' in extension and '{ language: "referee" }' in extension


# ---- diagnostics: those of `referee check` -----------------------------------------------

BAD_FILES = sorted(BAD.glob("*.rules"))


@pytest.mark.parametrize("path", BAD_FILES, ids=[p.name for p in BAD_FILES])
@pytest.mark.slow
def test_diagnostics_are_those_of_check(path, capsys):
    code, out, _ = run(capsys, "check", "--json", str(path))
    (checked,) = json.loads(out)["files"]
    analysis = lsp.analyse(str(path))
    # (a few files are wrong only for some --players or --option: check finds them clean too)
    assert code == (1 if checked["diagnostics"] else 0)
    assert [d.to_json() for d in analysis.diagnostics] == checked["diagnostics"]


def test_an_unsaved_buffer_is_checked_instead_of_the_file():
    broken = text_of(TTT).replace("mark[c] = current", "mrak[c] = current")
    analysis = lsp.analyse(TTT, {names.real(TTT): broken})
    (shown,) = lsp.editor_diagnostics(analysis)
    line, column = at(TTT, "mark[c] = current", "mark")
    assert (shown.span.line, shown.span.column, shown.span.end_column) == (line, column, column + 7)
    assert shown.code == "E202" and shown.severity == "error"
    assert shown.message == "unknown variable 'mrak'\nhelp: did you mean 'mark'?"
    assert analysed(TTT).diagnostics == []                 # the file on disk is untouched


def test_an_error_in_the_base_file_is_shown_at_extends():
    base = text_of(CONTINENTS).replace("zone hand[Player]", "zone hnd[Player]")
    analysis = lsp.analyse(FOUR_CARDS, {names.real(CONTINENTS): base})
    found = lsp.editor_diagnostics(analysis)
    assert found and "E202" in {d.code for d in found}
    extends = at(FOUR_CARDS, 'extends "../continents.rules"', "extends")
    first = next(d for d in found if d.code == "E202")
    assert (first.span.line, first.span.column) == extends
    assert names.real(first.elsewhere.file) == names.real(CONTINENTS)
    assert first.message.startswith(f"in ../continents.rules:{first.elsewhere.line}:{first.elsewhere.column}: "
                                    "unknown name 'hand'\nhelp: did you mean 'hnd'?")


def test_a_diagnostic_about_the_whole_file_stands_on_its_first_line(tmp_path):
    path = tmp_path / "variant.rules"
    path.write_text('extends "missing.rules"\n# a place\noverride param places = 9\n', encoding="utf-8")
    analysis = lsp.analyse(str(path))
    (shown,) = lsp.editor_diagnostics(analysis)
    assert shown.code == "E501" and (shown.span.line, shown.span.column) == (1, 1)
    # without its base, the file is indexed alone: its own names still answer
    assert [s.name for s in names.document_symbols(analysis.index, str(path))] == ["places"]
    assert names.hover_text(analysis.index, str(path), 3, 17).endswith("*param* · `int`\n\na place")


# ---- every name, and what it names --------------------------------------------------------

@pytest.mark.parametrize("path", game_files(), ids=[p.name for p in game_files()])
@pytest.mark.slow
def test_every_name_of_a_game_is_resolved_to_what_it_names(path):
    analysis = analysed(str(path))
    assert analysis.diagnostics == []
    index = analysis.index
    for file, tokens in index.tokens.items():
        unresolved = [t.text for t in tokens.tokens if t.kind == "name" and t.text not in names.keywords()
                      and names.place(t.span) not in index.at]
        assert unresolved == [], file
    for occurrence in index.occurrences:                    # each occurrence is the word it names
        symbol = names.symbol_of(index, occurrence.key)
        assert word_of(occurrence.span) == symbol.name, occurrence
    declared = [o for o in index.occurrences if o.declares and o.key[0] == "global"]
    assert {o.key[1] for o in declared} == set(index.program.declarations)


def test_hover_says_what_a_name_is_and_its_type():
    index = analysed(CONTINENTS).index
    hover = names.hover_text(index, CONTINENTS, *at(CONTINENTS, "fn houses(p: Player", "houses"))
    assert hover.startswith("```rules\nfn houses(p: Player, c: Continent): int\n```")
    assert "*fn* · `int`" in hover
    assert "**rule C-15**: The player with the most of their own houses as top cards" in hover
    hover = names.hover_text(index, CONTINENTS, *at(CONTINENTS, "fn is_house", "kind"))
    assert hover.startswith("```rules\nCard.kind: Kind\n```") and "*attribute* · `Kind`" in hover
    hover = names.hover_text(index, CONTINENTS, *at(CONTINENTS, "fn is_house", "x", 1))
    assert hover.startswith("```rules\nx: Card?\n```") and "*parameter*" in hover
    hover = names.hover_text(index, CONTINENTS, *at(CONTINENTS, "fn is_house", "house", 0))
    assert "enum Kind { house, fire, lightning }" in hover and "*member of enum Kind*" in hover
    hover = names.hover_text(index, CONTINENTS, *at(CONTINENTS, "zone hand[Player]", "hand"))
    assert "zone hand[Player]: row of Card owner" in hover and "`zone of Card`" in hover
    hover = names.hover_text(index, CONTINENTS, *at(CONTINENTS, "param places = 8", "places"))
    assert "*param* · `int`" in hover and "**rule C-4**: Each revealed continent has 8 building places" in hover
    hover = names.hover_text(index, CONTINENTS, *at(CONTINENTS, "fn top_card", "top"))
    assert hover.startswith("```rules\ntop(zone): T?\n```") and "*built-in function*" in hover


def test_hover_on_a_rule_tag_gives_its_sentence():
    index = analysed(CONTINENTS).index
    line, column = at(CONTINENTS, '@C-3 "2 to 6 players."', "C")
    assert names.hover_text(index, CONTINENTS, line, column - 1) == "**rule C-3**: 2 to 6 players.\n\n(tags this game)"


def test_hover_shows_the_comment_above_a_declaration():
    index = analysed(CONNECT).index
    hover = names.hover_text(index, CONNECT, *at(CONNECT, "free_row(k: int)", "free_row"))
    assert hover.endswith("The lowest empty row of column k, or none when the column is full.")
    hover = names.hover_text(index, CONNECT, *at(CONNECT, "fn owned", "owned"))
    assert "column is full" not in hover                    # the comment is its neighbour's


def test_hover_on_a_local_of_a_binder_and_outside_names():
    index = analysed(TTT).index
    hover = names.hover_text(index, TTT, *at(TTT, "mark[c] = current", "c"))
    assert hover.startswith("```rules\nc: Cell\n```") and "*local*" in hover
    assert names.hover_text(index, TTT, *at(TTT, "mark[c] = current", "current")).startswith("```rules\ncurrent: Player\n```")
    assert names.hover_text(index, TTT, 1, 1) is None                       # a keyword
    assert names.hover_text(index, TTT, *at(TTT, 'game "Tic-tac-toe"', "Tic")) is None     # inside a string


def test_definition_of_globals_locals_attributes_and_members():
    index = analysed(CONTINENTS).index

    def definition(line_text, word, nth=0):
        (span,) = names.definitions(index, CONTINENTS, *at(CONTINENTS, line_text, word, nth))
        return span.line, span.column, word_of(span)

    assert definition("fn burned", "top_card") == (*at(CONTINENTS, "fn top_card", "top_card"), "top_card")
    assert definition("fn is_house", "kind") == (*at(CONTINENTS, "component Card", "kind"), "kind")
    assert definition("fn is_house", "house") == (*at(CONTINENTS, "enum Kind", "house"), "house")
    assert definition("fn is_house", "x", 2) == (*at(CONTINENTS, "fn is_house", "x"), "x")
    assert definition("fn full(c: Continent)", "i", 1) == (*at(CONTINENTS, "fn full(c: Continent)", "i"), "i")
    assert names.definitions(index, CONTINENTS, *at(CONTINENTS, "fn top_card", "top")) == []     # built in


def test_the_procedure_of_an_after_is_a_use_of_it():
    """`after step(i, d): ...` names the procedure `step`: its definition, and the procedure's
    references include it (it was left unresolved)."""
    backgammon = str(GAMES / "backgammon.rules")
    index = analysed(backgammon).index
    (span,) = names.definitions(index, backgammon, *at(backgammon, "after step(i, d)", "step"))
    assert (span.line, span.column) == at(backgammon, "proc step", "step")


def test_definition_of_the_local_and_the_attribute_of_an_attribute_assignment():
    checkers = str(GAMES / "checkers.rules")
    index = analysed(checkers).index

    def definition(word):
        (span,) = names.definitions(index, checkers, *at(checkers, "x.rank = king", word))
        return span.line, span.column, word_of(span)

    assert definition("x") == (*at(checkers, "proc arrive", "x"), "x")
    assert definition("rank") == (*at(checkers, "component Piece", "rank"), "rank")


def test_definition_and_references_across_extends():
    index = analysed(FOUR_CARDS).index
    base_use = at(CONTINENTS, "deal hand_size", "hand_size")
    line, column = at(FOUR_CARDS, "override param hand_size", "hand_size")
    # a use in the base file goes to the override in force, in the variant
    (span,) = names.definitions(index, CONTINENTS, *base_use)
    assert names.real(span.file) == names.real(FOUR_CARDS) and (span.line, span.column) == (line, column)
    # a name the variant does not override goes to the base file
    (span,) = names.definitions(index, FOUR_CARDS, line, column)
    assert (span.line, span.column) == (line, column)
    found = names.references(index, FOUR_CARDS, line, column)
    assert {names.real(s.file) for s in found} == {names.real(CONTINENTS), names.real(FOUR_CARDS)}
    assert all(word_of(s) == "hand_size" for s in found)
    in_base = [s for s in found if names.real(s.file) == names.real(CONTINENTS)]
    assert len(in_base) == len(words_in_code(CONTINENTS, "hand_size")) > 1
    assert len(names.references(index, FOUR_CARDS, line, column, with_declarations=False)) == len(found) - 2


def test_definition_of_the_path_of_extends_is_the_base_file():
    index = analysed(FOUR_CARDS).index
    line, column = at(FOUR_CARDS, 'extends "../continents.rules"', "continents")
    (span,) = names.definitions(index, FOUR_CARDS, line, column)
    assert names.real(span.file) == names.real(CONTINENTS) and (span.line, span.column) == (1, 1)


def test_references_of_a_variable():
    index = analysed(TTT).index
    found = names.references(index, TTT, *at(TTT, "var mark", "mark"))
    assert sorted((s.line, s.column) for s in found) == words_in_code(TTT, "mark")
    assert len(found) == 5


def test_rename_changes_every_occurrence_and_the_game_still_checks():
    index = analysed(TTT).index
    spans, problem = names.rename_edits(index, TTT, *at(TTT, "mark[c] = current", "c"), "cell")
    assert problem is None and len(spans) == 4            # the binder, its two uses and the label's {c}
    renamed = apply(text_of(TTT), spans, "cell")
    assert 'action put(cell in Cell where mark[cell] == none) "{cell}" {' in renamed
    assert lsp.analyse(TTT, {names.real(TTT): renamed}).diagnostics == []
    spans, problem = names.rename_edits(index, TTT, *at(TTT, "var mark", "mark"), "owner_of")
    renamed = apply(text_of(TTT), spans, "owner_of")
    assert problem is None and len(spans) == len(words_in_code(TTT, "mark"))
    assert "var owner_of[Cell]: Player? = none" in renamed
    analysis = lsp.analyse(TTT, {names.real(TTT): renamed})
    assert analysis.diagnostics == [] and "owner_of" in analysis.index.program.declarations


def test_rename_across_extends_edits_both_files():
    index = analysed(FOUR_CARDS).index
    spans, problem = names.rename_edits(index, FOUR_CARDS, *at(FOUR_CARDS, "override param hand_size", "hand_size"),
                                      "hand_cards")
    assert problem is None
    texts = {}
    for file in (CONTINENTS, FOUR_CARDS):
        texts[names.real(file)] = apply(text_of(file), [s for s in spans if names.real(s.file) == names.real(file)],
                                      "hand_cards")
    assert lsp.analyse(FOUR_CARDS, texts).diagnostics == []
    assert "override param hand_cards = 4" in texts[names.real(FOUR_CARDS)]


def renamed_texts(index, path, occurrence, new) -> dict:
    spans, problem = names.rename_edits(index, path, occurrence.span.line, occurrence.span.column, new)
    assert problem is None, (occurrence, problem)
    files = {s.file for s in spans}
    return {names.real(f): apply(text_of(f), [s for s in spans if s.file == f], new) for f in files}


@pytest.mark.parametrize("path", [TTT, CONNECT], ids=["tic-tac-toe", "connect-four"])
def test_every_declared_name_can_be_renamed_and_the_game_still_checks(path):
    index = lsp.analyse(path).index
    declared = {o.key: o for o in reversed(index.occurrences) if o.declares}
    assert len(declared) >= 8
    for occurrence in declared.values():
        texts = renamed_texts(index, path, occurrence, "renamed_name")
        analysis = lsp.analyse(path, texts)
        assert analysis.diagnostics == [], occurrence
        assert len(analysis.index.program.declarations) == len(index.program.declarations)


def test_renaming_an_attribute_renames_it_in_labels_creations_and_uses():
    index = analysed(CONTINENTS).index
    line, column = at(CONTINENTS, "component Card", "material")
    texts = renamed_texts(index, CONTINENTS, index.occurrence_at(CONTINENTS, line, column), "stuff")
    text = texts[names.real(CONTINENTS)]
    assert 'component Card { kind: Kind, stuff: Material?, strength: int } label "{stuff} {kind}"' in text
    assert "create 6 Card { kind: house, stuff: straw, strength: 1, owner: p } in draw[p]" in text
    assert "top_card(c, i).stuff == m" in text
    module, errors = parse(text, "x")
    assert not errors
    words = {t.text for t in names.Tokens("x", text, module.tokens).tokens if t.kind == "name"}
    assert "stuff" in words and "material" not in words
    assert lsp.analyse(CONTINENTS, texts).diagnostics == []


def test_renaming_a_local_renames_it_in_log_lines():
    index = analysed(CONTINENTS).index
    line, column = at(CONTINENTS, "let winner = first(p in tied)", "winner")
    texts = renamed_texts(index, CONTINENTS, index.occurrence_at(CONTINENTS, line, column), "champion")
    text = texts[names.real(CONTINENTS)]
    assert 'log "{champion} wins {c}"' in text and "finish winners [champion]" in text
    assert lsp.analyse(CONTINENTS, texts).diagnostics == []


def test_rename_refuses_keywords_names_taken_and_built_ins():
    index = analysed(TTT).index
    mark = at(TTT, "var mark", "mark")
    assert names.rename_edits(index, TTT, *mark, "if") == ([], "'if' is a word of the language")
    assert names.rename_edits(index, TTT, *mark, "owned") == ([], "'owned' is already a name of this game")
    assert names.rename_edits(index, TTT, *mark, "2x")[1].startswith("'2x' is not a name")
    assert names.rename_edits(index, TTT, *mark, "p") == ([], "'p' is already a name of this game")   # a local
    continents = analysed(CONTINENTS).index
    binder = at(CONTINENTS, "fn full(c: Continent)", "i")
    assert names.rename_edits(continents, CONTINENTS, *binder, "c") == ([], "'c' is already a name of this game")
    assert names.rename_edits(continents, CONTINENTS, *binder, "x")[1] is None      # x: elsewhere only
    assert names.rename_edits(index, TTT, *at(TTT, "mark[c] = current", "current"), "now") == \
        ([], "there is no declared name here")


def test_completion_offers_locals_declared_names_built_ins_and_keywords():
    index = analysed(CONTINENTS).index
    line, column = at(CONTINENTS, "fn houses(p: Player, c: Continent)", "Continent")
    offered = {c.label: c for c in names.completions(index, CONTINENTS, line + 1, 10)}
    assert offered["p"].kind == "parameter" and offered["p"].detail == "Player"
    assert offered["top_card"].kind == "fn" and offered["top_card"].detail.startswith("fn top_card(")
    assert offered["hand"].kind == "zone" and offered["straw"].kind == "enum member"
    assert offered["current"].kind == "built-in" and offered["size"].kind == "built-in function"
    assert set(names.keywords()) <= set(offered) and offered["action"].kind == "keyword"
    far = {c.label for c in names.completions(index, CONTINENTS, 1, 1)}
    assert "p" not in far and "top_card" in far                 # a local only where it is in scope


def test_completion_after_a_dot_offers_the_attributes():
    index = analysed(CONTINENTS).index
    line, column = at(CONTINENTS, "fn is_house", "kind")          # x != none and x.kind == house
    written = source_lines(text_of(CONTINENTS))[line - 1][:column - 1]
    card = [("kind", "Kind"), ("material", "Material?"), ("owner", "Player?"), ("strength", "int")]
    offered = names.completions(index, CONTINENTS, line, column, written)
    assert [(c.label, c.detail) for c in offered] == card
    # a word begun after the dot, the expression found in the index: the attributes still
    line, column = at(CONTINENTS, "top_card(c, i).kind == fire", "kind")
    written = source_lines(text_of(CONTINENTS))[line - 1][:column + 1]
    assert [c.label for c in names.completions(index, CONTINENTS, line, column + 2, written)] == [n for n, _ in card]
    # text the index was not made from (a new line, typed since): by the names, local then global
    assert names.completions(index, CONTINENTS, line + 1, 6, "  zz.") == []        # no such name
    line, column = at(CONTINENTS, "fn houses_of(p: Player, c: Continent, m: Material)", "m")
    assert [c.label for c in names.completions(index, CONTINENTS, line + 1, 8, "  c.")] == ["name", "owner"]
    assert [c.label for c in names.completions(index, CONTINENTS, line + 1, 12, "  top(x.owner.")] == []


def test_document_symbols_are_the_declarations_of_the_file():
    index = analysed(CONTINENTS).index
    symbols = names.document_symbols(index, CONTINENTS)
    declared = [s.name for s in symbols]
    assert declared[:4] == ["Continents", "normal", "places", "hand_size"]
    assert "setup" in declared and "flow" in declared and declared.count("build") == 1
    material = next(s for s in symbols if s.name == "Material")
    assert material.kind == "enum" and [c.name for c in material.children] == ["straw", "wood", "stone"]
    card = next(s for s in symbols if s.name == "Card")
    assert [(c.name, c.kind, c.detail) for c in card.children] == [
        ("kind", "attribute", "Kind"), ("material", "attribute", "Material?"), ("strength", "attribute", "int")]
    assert word_of(card.name_span) == "Card" and card.span.line == card.name_span.line
    variant = analysed(FOUR_CARDS).index
    assert [s.name for s in names.document_symbols(variant, FOUR_CARDS)] == ["hand_size"]


def test_open_documents_are_checked_together():
    documents = lsp.Documents()
    assert documents.update("variant", FOUR_CARDS, text_of(FOUR_CARDS)) == ["variant"]
    broken = text_of(CONTINENTS).replace("zone hand[Player]", "zone hnd[Player]")
    assert documents.update("base", CONTINENTS, broken) == ["base", "variant"]     # the variant reads it
    assert documents.analyses["variant"].diagnostics and documents.analyses["base"].diagnostics
    # the base's names are found from the variant too
    line, column = at(CONTINENTS, "param hand_size", "hand_size")
    assert len(documents.references("base", line, column)) == len(
        names.references(documents.index("variant"), CONTINENTS, line, column))
    assert documents.close("base") == ["variant"]                                   # back to the file on disk
    assert documents.analyses["variant"].diagnostics == []
    # while a document does not parse, its last index still answers
    documents.update("ttt", TTT, text_of(TTT))
    documents.update("ttt", TTT, text_of(TTT).replace("flow {", "flow {{"))
    assert documents.analyses["ttt"].index is None and documents.index("ttt") is not None


def test_a_text_being_typed_never_makes_a_request_fail():
    """Each prefix of a game, as it is typed: analysed, then every request at its end."""
    text = text_of(CONNECT)
    for end in range(0, len(text), 19):
        typed = text[:end]
        analysis = lsp.analyse(CONNECT, {names.real(CONNECT): typed})
        assert analysis.diagnostics or end == 0 or typed.strip() == ""  # unfinished: never clean
        lsp.editor_diagnostics(analysis)
        index = analysis.index or analysed(CONNECT).index                # as the server keeps it
        line = typed.count("\n") + 1
        written = typed.rsplit("\n", 1)[-1]
        column = len(written) + 1
        names.hover_text(index, CONNECT, line, column)
        names.definitions(index, CONNECT, line, column)
        names.references(index, CONNECT, line, column)
        names.rename_edits(index, CONNECT, line, column, "renamed")
        assert names.completions(index, CONNECT, line, column, written) is not None
        names.document_symbols(index, CONNECT)


# ---- the command -------------------------------------------------------------------------

def test_without_pygls_the_command_says_what_to_install(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "pygls.server", None)       # as if it were not installed
    code, out, err = run(capsys, "lsp")
    assert code == 69 and out == ""
    assert err.startswith("referee lsp: the language server needs pygls") and "pip install 'referee[lsp]'" in err
    assert "Traceback" not in err


class Editor:
    """An editor's side of the protocol: JSON-RPC messages framed by Content-Length headers."""

    def __init__(self):
        self.process = subprocess.Popen([sys.executable, "-m", "referee", "lsp", "--stdio"], cwd=ROOT,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.last_id = 0
        self.notifications = []

    def send(self, message):
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def receive(self):
        length = None
        while True:
            line = self.process.stdout.readline()
            assert line, "the server closed its output"
            if line == b"\r\n":
                break
            name, value = line.decode("ascii").split(":", 1)
            if name.lower() == "content-length":
                length = int(value)
        return json.loads(self.process.stdout.read(length))

    def request(self, method, params):
        self.last_id += 1
        self.send({"id": self.last_id, "method": method, "params": params})
        while True:
            message = self.receive()
            if message.get("id") == self.last_id and "method" not in message:
                return message
            self.notifications.append(message)

    def notify(self, method, params):
        self.send({"method": method, "params": params})

    def notification(self, method):
        for message in self.notifications:
            if message.get("method") == method:
                self.notifications.remove(message)
                return message
        while True:
            message = self.receive()
            if message.get("method") == method:
                return message
            self.notifications.append(message)

    def open(self, uri, text):
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "referee",
                                                               "version": 1, "text": text}})

    def change(self, uri, version, text):
        self.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                               "contentChanges": [{"text": text}]})

    def diagnostics(self):
        return self.notification("textDocument/publishDiagnostics")["params"]


def asking(uri, line, column, **more):
    """The parameters of a request about the word that starts at (line, column), 1-based."""
    return {"textDocument": {"uri": uri}, "position": {"line": line - 1, "character": column}, **more}


@pytest.fixture
def editor():
    """A server started as an editor starts it, initialized; shut down and exited after the test
    (its log without a traceback), all within a minute: a guard against a server that hangs, not
    a measure of speed (the machine may be loaded)."""
    started = time.monotonic()
    editor = Editor()
    try:
        answer = editor.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})["result"]
        assert answer["serverInfo"]["name"] == "referee"
        assert answer["serverInfo"]["version"] == version()
        capabilities = answer["capabilities"]
        for provider in ("hoverProvider", "definitionProvider", "referencesProvider", "documentSymbolProvider"):
            assert capabilities[provider] is True
        assert capabilities["completionProvider"]["triggerCharacters"] == ["."]
        assert capabilities["renameProvider"] == {"prepareProvider": True}
        editor.notify("initialized", {})
        yield editor
        editor.process.stdin.write(b"Content-Length: 9\r\n\r\n{not json")     # said in its log, and on it goes
        assert editor.request("shutdown", None)["result"] is None
        editor.notify("exit", None)
        assert editor.process.wait(timeout=10) == 0
        log = editor.process.stderr.read().decode("utf-8")
        assert "referee lsp: Error receiving data (JSONDecodeError: " in log and "Traceback" not in log
    finally:
        if editor.process.poll() is None:
            editor.process.kill()
        editor.process.wait()
    assert time.monotonic() - started < 60


@pytest.mark.slow
def test_the_server_answers_an_editor_over_stdio(editor, tmp_path):
    uri = (tmp_path / "broken.rules").as_uri()
    # '😀' is one character but two UTF-16 units, the editor's unit for columns
    broken = text_of(TTT).replace("mark[c] = current", 'log "😀" mrak[c] = current')
    editor.open(uri, broken)
    published = editor.diagnostics()
    line, column = at(TTT, "mark[c] = current", "mark")
    character = column - 1 + len('log "😀" ') + 1
    assert published["uri"] == uri
    assert published["diagnostics"] == [{
        "range": {"start": {"line": line - 1, "character": character},
                  "end": {"line": line - 1, "character": character + 7}},
        "message": "unknown variable 'mrak'\nhelp: did you mean 'mark'?",
        "severity": 1, "code": "E202", "source": "referee"}]

    owned = at(TTT, "fn owned", "owned")
    hover = editor.request("textDocument/hover", asking(uri, *owned))
    assert hover["result"]["contents"]["value"].startswith("```rules\nfn owned(p: Player): list of Cell")

    found = editor.request("textDocument/definition", asking(uri, *at(TTT, "has_line(owned(current)", "owned")))
    assert found["result"] == [{"uri": uri, "range": {"start": {"line": owned[0] - 1, "character": owned[1] - 1},
                                                      "end": {"line": owned[0] - 1, "character": owned[1] + 4}}}]

    items = editor.request("textDocument/completion", asking(uri, line, 2))["result"]["items"]
    labels = {item["label"]: item for item in items}
    assert labels["c"]["detail"] == "Cell" and "mark" in labels and "finish" in labels

    # typing 'c.' on a line of its own: the text no longer parses, the attributes are offered
    typing = text_of(TTT).replace("mark[c] = current", "mark[c] = current\n  c.")
    editor.change(uri, 2, typing)
    (syntax,) = editor.diagnostics()["diagnostics"]
    # (0-based: the line after the new one, where `c.` — the start of an `x.a = ...` — lacks its name)
    assert syntax["code"] == "E100" and syntax["range"]["start"]["line"] == line + 1
    items = editor.request("textDocument/completion",
                           asking(uri, line + 1, 4, context={"triggerKind": 2, "triggerCharacter": "."}))
    assert [(item["label"], item["detail"]) for item in items["result"]["items"]] == [("col", "int"), ("row", "int")]

    # keystrokes in a row are analysed once the typing pauses: here the last one mends the file
    for number, text in enumerate([broken, typing, broken, typing, text_of(TTT)], start=3):
        editor.change(uri, number, text)
    published = [editor.diagnostics()["diagnostics"]]
    while published[-1]:
        published.append(editor.diagnostics()["diagnostics"])
    assert len(published) <= 2          # (1 but on a machine slow enough to pause between them)

    assert editor.request("textDocument/prepareRename", asking(uri, *owned))["result"] == {
        "start": {"line": owned[0] - 1, "character": owned[1] - 1}, "end": {"line": owned[0] - 1, "character": owned[1] + 4}}
    current = at(TTT, "has_line(owned(current)", "current")
    assert editor.request("textDocument/prepareRename", asking(uri, *current))["result"] is None   # built in
    refused = editor.request("textDocument/rename", asking(uri, *owned, newName="if"))
    assert refused["error"]["message"] == "'if' is a word of the language"


@pytest.mark.slow
def test_the_server_checks_a_variant_with_its_open_base(editor):
    variant, base = Path(FOUR_CARDS).as_uri(), Path(CONTINENTS).as_uri()
    editor.open(variant, text_of(FOUR_CARDS))
    assert editor.diagnostics() == {"uri": variant, "diagnostics": []}
    # a mistake in the base, not saved: it shows in both
    editor.open(base, text_of(CONTINENTS).replace("zone hand[Player]", "zone hnd[Player]"))
    shown = {}
    for _ in range(2):
        params = editor.diagnostics()
        shown[params["uri"]] = params["diagnostics"]
    extends = at(FOUR_CARDS, 'extends "../continents.rules"', "extends")
    assert shown[base][0]["message"] == "unknown name 'hand'\nhelp: did you mean 'hnd'?"
    assert shown[variant][0]["range"]["start"] == {"line": extends[0] - 1, "character": 0}
    assert shown[variant][0]["message"].startswith("in ../continents.rules:")
    assert shown[variant][0]["relatedInformation"][0]["location"]["uri"] == base
    every = {"context": {"includeDeclaration": True}}
    found = editor.request("textDocument/references", asking(base, *at(CONTINENTS, "param places = 8", "places"), **every))
    assert {location["uri"] for location in found["result"]} == {base}
    found = editor.request("textDocument/references", asking(base, *at(CONTINENTS, "param hand_size", "hand_size"), **every))
    assert {location["uri"] for location in found["result"]} == {base, variant}    # the override too
    symbols = editor.request("textDocument/documentSymbol", {"textDocument": {"uri": variant}})["result"]
    assert [(s["name"], s["kind"]) for s in symbols] == [("hand_size", 14)]          # a Constant


def test_renaming_a_binder_renames_it_inside_a_computed_label(tmp_path):
    path = tmp_path / "hop.rules"
    path.write_text('game "Hop" { players 2 }\nboard Cell: grid 3 by 3\nvar mark[Cell]: Player? = none\n'
                    'action hop(a in Cell, b in Cell where mark[b] == none and b.row == a.row and b.col == a.col + 2)\n'
                    '  "hop {a}-{b} ({b.col - a.col} columns, row {a.row})" {\n  mark[b] = current\n}\n'
                    'flow { turns from 1 until count(c in Cell where mark[c] == none) < 4 { play hop } }\n',
                    encoding="utf-8")
    index = analysed(path).index
    spans, problem = names.rename_edits(index, str(path), *at(path, "action hop", "a"), "start")
    assert problem is None
    renamed = apply(text_of(path), spans, "start")
    assert '"hop {start}-{b} ({b.col - start.col} columns, row {start.row})"' in renamed
    assert "b.col == start.col + 2" in renamed
    assert lsp.analyse(str(path), {names.real(str(path)): renamed}).diagnostics == []


def test_a_header_drops_its_comment_but_not_a_hash_inside_a_text():
    text = ('game "G" { players 2 }\n'
            'component Token { n: int } label "#{n}"   # numbered # tokens\n'
            'flow { finish }\n')
    module, errors = parse(text, "x")
    assert not errors
    tokens = names.Tokens("x", text, module.tokens)
    component = next(item for item in module.items if type(item).__name__ == "Component")
    assert names.header(tokens, component.span) == 'component Token { n: int } label "#{n}"'
