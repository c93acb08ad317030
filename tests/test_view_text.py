"""The text of a view in the game's own order and words: an enum's entries as the enum declares
them, a move's name without the gap an empty value would leave."""
from __future__ import annotations

from referee.interpreter.engine import load_game
from referee.interpreter.engine.render import render_view, view_defaults

GAME = '''game "Colours" { players 2 }
enum Colour { red, green, blue, amber }
var heat[Colour]: int = 1
var spent: int = 0
action take(n in [1, 2]) "take {[]} now {n}" { spent += n }
action fan(c in Colour) "{[]} fan {c}" { heat[c] += 1 }
flow { turns from 1 until spent > 3 { play take, fan } }
'''


def loaded(write_rules):
    game, diagnostics, _ = load_game(str(write_rules(GAME)))
    assert not diagnostics
    return game


def test_variables_indexed_by_an_enum_are_listed_in_declared_order(write_rules):
    game = loaded(write_rules)
    state = game.new_initial_state(seed=1)
    state.apply("fan blue")
    text = render_view(state.view(1), view_defaults(game))
    assert "heat: red=1 · green=1 · blue=2 · amber=1" in text


def test_a_label_with_an_empty_list_leaves_no_double_space(write_rules):
    game = loaded(write_rules)
    state = game.new_initial_state(seed=1)
    names = state.legal_move_names()
    assert names[:3] == ["take now 1", "take now 2", "fan red"]
    assert not any("  " in name or name != name.strip() for name in names)
    state.apply("take now 2")
    assert state.history == ["take now 2"]
