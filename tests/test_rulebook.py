"""`referee rulebook`: every rule id traced to the lines that encode it; missing ids reported."""
import json
from pathlib import Path

import pytest

from referee.interpreter.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
SPECS = ROOT.parent / "shared" / "games"


def test_the_rulebook_traces_each_rule_to_its_lines(capsys):
    assert main(["rulebook", str(ROOT / "games" / "continents.rules"), "--json"]) == 0
    book = json.loads(capsys.readouterr().out)
    places = book["rules"]["C-9"]["places"]
    assert any("trigger last_place_filled" in p["code"] for p in places)
    assert list(book["rules"])[:3] == ["C-1", "C-2", "C-3"]       # in rule order, not file order
    assert book["missing"] == []


@pytest.mark.parametrize("game", ["continents", "solstis", "titicaca"])
def test_every_rule_of_the_rules_text_is_tagged(game, capsys):
    spec = SPECS / f"{game}.md"
    if not spec.exists():
        pytest.skip(f"{spec} is not here")
    assert main(["rulebook", str(ROOT / "games" / f"{game}.rules"), "--spec", str(spec), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["missing"] == []


@pytest.mark.parametrize("game", ["kuhn-poker", "leduc-poker", "goofspiel", "liars-dice", "othello", "love-letter", "hearts", "backgammon", "checkers", "the-resistance", "dominion", "skull", "ticket-to-ride"])
@pytest.mark.slow
def test_every_rule_of_a_classic_game_is_tagged(game, capsys):
    """The classic games keep their numbered rules in the repository, docs/games/GAME.md."""
    spec = ROOT / "docs" / "games" / f"{game}.md"
    assert main(["rulebook", str(ROOT / "games" / f"{game}.rules"), "--spec", str(spec), "--json"]) == 0
    book = json.loads(capsys.readouterr().out)
    assert book["missing"] == [] and len(book["rules"]) >= 7


def test_an_untagged_rule_is_reported(write_rules, tmp_path, capsys):
    spec = tmp_path / "spec.md"
    spec.write_text("- X-1 [seed] one thing.\n- X-2 [seed] another thing.\n")
    rules = write_rules('''
@X-1 "one thing"
game "Tiny" {
  players 2
}
action pass "pass" {
}
flow {
  turns from 1 {
    play pass
    finish
  }
}
''')
    assert main(["rulebook", str(rules), "--spec", str(spec)]) == 1
    text = capsys.readouterr().out
    assert "## X-1" in text and "> one thing" in text
    assert "Not encoded" in text and "X-2" in text


def test_a_declaration_and_a_statement_under_several_tags_encode_each_rule(write_rules):
    from referee.interpreter.engine import load_game
    text = """
game "Tags" { players 2 }
var heap: int = 5
@R-1 "Take one or two."
@R-2 "The heap never goes below zero."
action take(n in 1..2 where n <= heap) "take {n}" {
  @R-3 "Taking lowers the heap."
  @R-4 "Whoever takes changes nothing else."
  heap -= n
}
flow {
  turns from 1 until heap == 0 { play take }
  finish winners [previous(current)]
}
"""
    path = write_rules(text)
    game, diagnostics, sources = load_game(str(path), coverage=True)
    assert diagnostics == []
    assert [rule for rule, _, _ in game.program.tags()] == ["R-1", "R-2", "R-3", "R-4"]
    state = game.new_initial_state(0)
    state.apply("take 2")
    by_rule = {site.rule: (site.line, game.coverage.counts[site.first]) for site in game.coverage.sites}
    assert by_rule["R-1"] == by_rule["R-2"] == (6, 1) and by_rule["R-3"] == by_rule["R-4"] == (9, 1)


def test_a_tag_followed_by_comments_maps_to_its_code_not_a_comment(capsys):
    assert main(["rulebook", str(ROOT / "games" / "continents.rules"), "--json"]) == 0
    places = json.loads(capsys.readouterr().out)["rules"]["C-3"]["places"]
    assert [(p["line"], p["code"]) for p in places] == [(8, 'game "Continents" {')]
