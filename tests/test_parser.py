"""The parser: text -> syntax tree with spans, rule tags and unescaped strings; errors as diagnostics."""
from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from referee.dsl import ast
from referee.dsl.parser import parse

GAMES = Path(__file__).resolve().parent.parent / "games"
GAME = 'game "G" { players 2 }\n'


def parse_ok(source: str) -> ast.Module:
    module, diagnostics = parse(source, "test.rules")
    assert diagnostics == [], diagnostics
    assert isinstance(module, ast.Module)
    return module


def parse_error(source: str):
    module, diagnostics = parse(source, "test.rules")
    assert module is None
    assert len(diagnostics) == 1
    return diagnostics[0]


def walk(value):
    """Every node of a tree, depth first."""
    if attrs.has(type(value)) and not isinstance(value, ast.Span):
        yield value
        for field in attrs.fields(type(value)):
            yield from walk(getattr(value, field.name))
    elif isinstance(value, tuple):
        for item in value:
            yield from walk(item)


# ---- spans ---------------------------------------------------------------------------------

def test_spans_are_one_based_lines_and_columns():
    module = parse_ok('game "G" {\n  players 2..4\n}\nparam places = 8\n')
    game, param = module.items
    assert (game.span.line, game.span.column) == (1, 1)
    assert game.span.end_line == 3
    players = game.fields[0]
    assert (players.span.line, players.span.column) == (2, 3)
    # end columns are exclusive: 'players 2..4' is 12 characters from column 3
    assert (players.span.end_line, players.span.end_column) == (2, 15)
    assert (param.span.line, param.span.column) == (4, 1)
    value = param.value
    assert isinstance(value, ast.Integer) and value.value == 8
    assert (value.span.line, value.span.column, value.span.end_column) == (4, 16, 17)


def test_expression_spans_cover_their_text():
    source = "fn f(x: int): bool = x + 10 >= 3 and not false\n"
    module = parse_ok(source)
    fn = module.items[0]
    line = source.splitlines()[0]
    for node in walk(fn.body):
        span = node.span
        assert span.file == "test.rules"
        assert span.line == span.end_line == 1
        assert 1 <= span.column < span.end_column <= len(line) + 1
    compare = fn.body.left
    assert isinstance(compare, ast.Compare) and compare.op == ">="
    assert line[compare.span.column - 1:compare.span.end_column - 1] == "x + 10 >= 3"
    assert line[fn.body.span.column - 1:fn.body.span.end_column - 1] == "x + 10 >= 3 and not false"


def test_every_node_of_a_real_game_has_a_located_span():
    path = GAMES / "continents.rules"
    text = path.read_text()
    module, diagnostics = parse(text, str(path))
    assert diagnostics == []
    lines = text.splitlines()
    count = 0
    for node in walk(module):
        span = node.span
        assert isinstance(span, ast.Span) and span.file == str(path)
        if isinstance(node, ast.Module):
            continue
        count += 1
        assert 1 <= span.line <= span.end_line <= len(lines)
        assert 1 <= span.column <= len(lines[span.line - 1]) + 1
    assert count > 500


def test_the_file_name_is_in_every_span():
    module, _ = parse(GAME, "somewhere/x.rules")
    assert all(node.span.file == "somewhere/x.rules" for node in walk(module.items))


# ---- rule tags -----------------------------------------------------------------------------

def test_rule_tag_and_its_text_are_kept_on_declarations_and_statements():
    module = parse_ok(GAME + '@C-4 "Each continent has 8 places."\nparam places = 8\n'
                      'var n: int = 0\nflow {\n  @C-7b\n  n += 1\n}\n')
    tagged = module.items[1]
    assert isinstance(tagged, ast.Tagged)
    assert tagged.rule_id == "@C-4"
    assert tagged.text == "Each continent has 8 places."
    assert isinstance(tagged.node, ast.Param) and tagged.node.name == "places"
    assert (tagged.span.line, tagged.span.column) == (2, 1)
    flow = module.items[-1]
    statement = flow.body[0]
    assert isinstance(statement, ast.Tagged)
    assert statement.rule_id == "@C-7b" and statement.text is None
    assert isinstance(statement.node, ast.Augment)
    inner, tag = ast.untag(statement)
    assert inner is statement.node and tag is statement


def test_tags_of_a_real_game_are_collected_in_order():
    from referee.dsl.program import load_program
    program, diagnostics, _ = load_program(str(GAMES / "continents.rules"))
    assert diagnostics == []
    tags = program.tags()
    ids = {rule_id for rule_id, _, _ in tags}
    assert {"C-1", "C-4", "C-8", "C-25"} <= ids
    assert all(text is None or isinstance(text, str) for _, text, _ in tags)


def test_a_tag_before_override_annotates_the_override():
    module = parse_ok('@V-1 "variant rule" override param a = 1\n')
    (tagged,) = module.items
    assert isinstance(tagged, ast.Tagged) and tagged.rule_id == "@V-1"
    assert isinstance(tagged.node, ast.Override)
    assert isinstance(tagged.node.declaration, ast.Param)


# ---- values --------------------------------------------------------------------------------

@pytest.mark.parametrize("literal, value", [
    (r'"plain"', "plain"),
    (r'"a \"quoted\" word"', 'a "quoted" word'),
    (r'"line\nbreak"', "line\nbreak"),
    (r'"tab\there"', "tab\there"),
    (r'"back\\slash"', "back\\slash"),
    (r'"{name} wins"', "{name} wins"),
    (r'""', ""),
])
def test_strings_are_unescaped(literal, value):
    module = parse_ok(f"param p = {literal}\n")
    text = module.items[0].value
    assert isinstance(text, ast.Text) and text.value == value


def test_numbers_booleans_none_and_optional_fields():
    module = parse_ok("param a = 42\nparam b = true\nparam c = false\nparam d = none\n"
                      'zone z: pile of Card\nvar v: int\nflow { play optional x, y\n play x }\n')
    a, b, c, d, zone, var, flow = module.items
    assert a.value.value == 42 and type(a.value.value) is int
    assert b.value.value is True and c.value.value is False
    assert isinstance(d.value, ast.Nothing)
    assert zone.visibility == "hidden" and zone.index == ()     # defaults
    assert var.visibility == "public" and var.initial is None
    first, second = flow.body
    assert first.optional is True and first.actions == ("x", "y")
    assert second.optional is False


def test_long_string_keeps_the_drawing_of_a_hexmap():
    module = parse_ok('board Hex: hexmap """\n. a .\n a a\n""" { "a": { number: 1 } }\n')
    board = module.items[0]
    assert isinstance(board.shape, ast.HexShape)
    assert board.shape.drawing == "\n. a .\n a a\n"
    (entry,) = board.shape.legend
    assert entry.symbol == "a" and entry.inits[0].name == "number"


def test_operator_precedence():
    module = parse_ok("param p = 1 + 2 * 3 > 4 or not 5 in [1] and true\n")
    expr = module.items[0].value
    assert isinstance(expr, ast.Or)
    assert isinstance(expr.left, ast.Compare)
    sum_ = expr.left.left
    assert isinstance(sum_, ast.Binary) and sum_.op == "+"
    assert isinstance(sum_.right, ast.Binary) and sum_.right.op == "*"
    assert isinstance(expr.right, ast.And) and isinstance(expr.right.left, ast.Not)
    assert isinstance(expr.right.left.operand, ast.Member)


def test_slash_is_a_division_of_its_own_beside_double_slash():
    expr = parse_ok("param p = 1 + 7 / 2 // 3 % 4\n").items[0].value
    assert isinstance(expr, ast.Binary) and expr.op == "+"
    # '/', '//' and '%' bind alike, from the left: ((7 / 2) // 3) % 4
    remainder = expr.right
    assert remainder.op == "%" and remainder.left.op == "//" and remainder.left.left.op == "/"
    assert (remainder.left.left.left.value, remainder.left.left.right.value) == (7, 2)


def test_comments_and_layout_do_not_matter():
    compact = parse_ok('game "G" { players 2 } var x: int = 0 flow { x += 1 }')
    spread = parse_ok('# a comment\ngame "G" {\n  players 2  # two\n}\n\nvar x: int = 0\n'
                      'flow {\n  x += 1\n}\n')

    def shape(value):
        if isinstance(value, ast.Span):
            return None
        if attrs.has(type(value)):
            return (type(value).__name__,) + tuple(shape(getattr(value, f.name)) for f in attrs.fields(type(value)))
        if isinstance(value, tuple):
            return tuple(shape(v) for v in value)
        return value

    assert shape(compact) == shape(spread)


def test_empty_file_is_an_empty_module():
    module = parse_ok("")
    assert module.items == ()
    module = parse_ok("# only a comment\n")
    assert module.items == ()


# ---- syntax errors -------------------------------------------------------------------------

def test_unexpected_end_of_file():
    d = parse_error(GAME + "flow {\n  turns from 1 {\n    play x\n")
    assert d.code == "E102"
    assert "end of file" in d.message
    assert (d.span.line, d.span.column) == (4, 11)   # just after the last character
    assert "'{'" in d.hint and "'}'" in d.hint


def test_unexpected_end_of_file_in_an_expression_says_what_is_missing():
    d = parse_error("param a = 1 +")
    assert d.code == "E102" and (d.span.line, d.span.column) == (1, 14)
    assert "expected" in d.hint and "a number" in d.hint


@pytest.mark.parametrize("source, char, fragment", [
    ("param a = true & false\n", "&", "'and'"),
    ("param a = true | false\n", "|", "'or'"),
    ("param a = 'x'\n", "'", "double quotes"),
    ("param a = !true\n", "!", "'not'"),
    ('param a = "open\n', '"', "not closed"),
])
def test_unexpected_character(source, char, fragment):
    d = parse_error(source)
    assert d.code == "E101"
    assert d.message == f"unexpected character '{char}'"
    column = source.index(char) + 1
    assert (d.span.line, d.span.column, d.span.end_column) == (1, column, column + 1)
    assert fragment in d.hint


def test_invalid_escape_is_a_located_error_not_a_crash():
    d = parse_error('param a = "x\\N"\n')
    assert d.code == "E101"
    assert "escape" in d.message and "'\\N'" in d.message
    assert (d.span.line, d.span.column, d.span.end_column) == (1, 13, 15)   # the escape itself
    assert "backslash" in d.hint


def test_stray_token():
    d = parse_error(GAME + "param a = 1 )\n")
    assert d.code == "E100"
    assert d.message == "unexpected ')'"
    assert (d.span.line, d.span.column, d.span.end_column) == (2, 13, 14)
    assert d.hint.startswith("expected ")
    assert "'param'" in d.hint or "'action'" in d.hint


def test_stray_token_spans_the_whole_token():
    d = parse_error("param a = 1 param b = 2 flow flow\n")
    assert d.code == "E100" and d.message == "unexpected 'flow'"
    assert (d.span.column, d.span.end_column) == (30, 34)


def test_single_equals_in_a_condition_suggests_comparison():
    d = parse_error(GAME + "var x: int = 0\nflow { if x = 2 { } }\n")
    assert d.code == "E100" and d.message == "unexpected '='"
    assert (d.span.line, d.span.column) == (3, 13)
    assert d.hint == "to compare, write '=='"


def test_doubled_equals_sign_does_not_suggest_comparison():
    d = parse_error(GAME + "var x: int = 0\nflow { x = = 2 }\n")
    assert d.code == "E100" and (d.span.line, d.span.column) == (3, 12)
    assert "compare" not in d.hint
    assert d.hint.startswith("expected ") and "a name" in d.hint and "a number" in d.hint


def test_expected_punctuation_is_shown_as_written():
    d = parse_error("flow { x 2 }")
    assert d.code == "E100"
    assert "'+=' or '-='" in d.hint and "'='" in d.hint
    assert "augment" not in d.hint.lower()


def test_else_without_if():
    d = parse_error(GAME + "flow {\n  x = 1\n  else { }\n}\n")
    assert d.code == "E100" and (d.span.line, d.span.column) == (4, 3)
    assert "'if'" in d.hint


def test_a_word_of_the_language_used_as_a_name():
    d = parse_error("var count: int = 0\nparam p = count + 1\n")
    assert d.code == "E100" and (d.span.line, d.span.column) == (2, 17)
    assert "'count' is a word of the language" in d.hint


def test_parse_never_raises_on_garbage():
    for source in ["{", "}", "game", '"', '"""', "@", "@C-1", "param = =", "\x00", "ü", "0" * 50,
                   "(" * 50, "flow { " * 30, "param a = " + "-" * 100 + "1"]:
        module, diagnostics = parse(source, "g.rules")
        if module is None:
            assert len(diagnostics) == 1 and diagnostics[0].code in ("E100", "E101", "E102", "E103", "E104")
            assert diagnostics[0].span.line >= 1 and diagnostics[0].span.column >= 1
        else:
            assert diagnostics == []


def test_header_and_visibility_words_may_start_a_statement_after_an_expression():
    # LALR shares the states after an expression: no keyword may follow one anywhere, or it
    # could not be a name after one everywhere (the game header and var syntax see to it)
    source = '''
action a "a" {
  let x = 1
  score = x
  let y = 2
  owner = y
}
'''
    module, diagnostics = parse(source, "words.rules")
    assert diagnostics == []
    statements = module.items[0].body
    assert [type(st).__name__ for st in statements] == ["Let", "Assign", "Let", "Assign"]
    assert statements[3].target.name == "owner"
