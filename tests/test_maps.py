"""Maps of named places joined by routes (issue 25, gap 8): `board X: places { ... }` and
`board R: routes of X { a - b { attribute: value, ... } ... }`, their values, labels and
attributes, and the library functions on them (neighbors, adjacent, reachable, groups),
played in small games and in the example of docs/language.md."""
from __future__ import annotations

import pytest

from .test_enum_order import load

MAP = '''enum Colour { red, blue, green, grey }
board City: places { vancouver, seattle, portland, calgary, helena }
board Route: routes of City {
  vancouver - seattle { colour: grey, length: 1 }
  vancouver - seattle { colour: grey, length: 1 }
  seattle - portland { colour: red, length: 1 }
  vancouver - calgary { colour: grey, length: 3 }
  seattle - calgary { colour: blue, length: 4 }
}
'''
HEAD = 'game "Map" { players 2 }\n'
TAIL = 'action pass "pass" { }\nflow { turns from 1 { play pass finish } }\n'


def value_of(write_rules, expression, result, declarations=""):
    """An expression's value as the game's log shows it, by a function logged in the setup."""
    text = HEAD + MAP + declarations + f"fn probe(): {result} = {expression}\nsetup {{\n  log \"{{probe()}}\"\n}}\n" + TAIL
    return load(write_rules, text).new_initial_state(0).log[0]


@pytest.mark.parametrize("expression, result, expected", [
    ("City", "list of City", "vancouver, seattle, portland, calgary, helena"),
    ("Route", "list of Route", "vancouver-seattle, vancouver-seattle/2, seattle-portland, vancouver-calgary, "
                               "seattle-calgary"),
    ("first(r in Route where r.length == 4)", "Route?", "seattle-calgary"),
    ("first(r in Route where r.length == 4).ends", "list of City", "seattle, calgary"),
    ("map(r in Route where r.colour == grey: r.length)", "list of int", "1, 1, 3"),
    ("neighbors(seattle)", "list of City", "vancouver, portland, calgary"),
    ("neighbors(helena)", "list of City", ""),
    ("adjacent(calgary, seattle) and not adjacent(portland, calgary)", "bool", "yes"),
    ("neighbors(first(r in Route where r.length == 3))", "list of Route",
     "vancouver-seattle, vancouver-seattle/2, seattle-calgary"),
    ("reachable([portland], [portland, seattle, calgary, helena])", "list of City", "portland, seattle, calgary"),
    ("groups([helena, calgary, portland, vancouver])", "list of list of City", "helena, vancouver, calgary, portland"),
    ("map(g in groups([helena, calgary, portland, vancouver]): size(g))", "list of int", "1, 2, 1"),
    ('label(portland) == "portland" and portland != seattle', "bool", "yes"),
    ("count(c in City where size(neighbors(c)) >= 2)", "int", "3"),
])
def test_places_and_routes_are_values_with_labels_and_neighbours(write_rules, expression, result, expected):
    assert value_of(write_rules, expression, result) == expected


CLAIM = HEAD + MAP + '''var owner[Route]: Player?
var visits[City]: int
action claim(r in Route where owner[r] == none) "claim {r}" {
  owner[r] = current
  for c in r.ends { visits[c] += 1 }
}
flow { turns from 1 until all(r in Route: owner[r] != none) { play claim } }
'''


def test_moves_name_routes_by_their_labels_and_a_double_route_once_claimed(write_rules):
    state = load(write_rules, CLAIM).new_initial_state(0)
    assert state.legal_move_names() == ["claim vancouver-seattle", "claim vancouver-seattle/2", "claim seattle-portland",
                                        "claim vancouver-calgary", "claim seattle-calgary"]
    state.apply(state.find_move("claim vancouver-seattle/2"))
    assert "claim vancouver-seattle/2" not in state.legal_move_names()
    view = state.view(1)
    assert view["vars"]["owner[vancouver-seattle/2]"] == "P1" and view["vars"]["visits[seattle]"] == "1"
    assert view["boards"] == {}         # a map is listed by its variables, not drawn
