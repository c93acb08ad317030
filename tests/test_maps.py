"""Maps of named places joined by routes (issue 25, gap 8): `board X: places { ... }` and
`board R: routes of X { a - b { attribute: value, ... } ... }`, their values, labels and
attributes, and the library functions on them (neighbors, adjacent, reachable, groups),
played in small games and in the example of docs/language.md."""
from __future__ import annotations

import types

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.interpreter.engine import load_game
from referee.interpreter.runtime import maps
from referee.interpreter.runtime.errors import UnlocatedRulesError

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
    # the fewest routes between two places, none when nothing joins them
    ("map(c in City: distance(portland, c))", "list of int?", "2, 1, 0, 2, none"),
    ("distance(helena, helena)", "int?", "0"),
    # whether some of the routes join two places
    ("connected(portland, calgary, filter(r in Route where r.colour != grey))", "bool", "yes"),
    ("connected(portland, vancouver, filter(r in Route where r.colour != grey))", "bool", "no"),
    ("connected(calgary, portland, Route) and connected(helena, helena, [])", "bool", "yes"),
    ("connected(vancouver, seattle, [])", "bool", "no"),
    # the longest trail: each route once, places again; double routes are two routes
    ("longest_trail(r in Route: r.length)", "int", "10"),
    ("longest_trail(r in Route)", "int", "5"),
    ("longest_trail(r in Route where r.colour == grey: r.length)", "int", "5"),
    ("longest_trail(r in filter(x in Route where x.length == 4): r.length)", "int", "4"),
    ("longest_trail(r in filter(x in Route where x.length > 9): r.length)", "int", "0"),
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


def test_a_players_longest_trail_and_tickets_follow_the_routes_claimed(write_rules):
    text = CLAIM.replace("  for c in r.ends { visits[c] += 1 }\n", """  for c in r.ends { visits[c] += 1 }
  longest[current] = longest_trail(x in Route where owner[x] == current: x.length)
  ticket[current] = connected(portland, calgary, filter(x in Route where owner[x] == current))
""").replace("var visits[City]: int\n", "var visits[City]: int\nvar longest[Player]: int\nvar ticket[Player]: bool\n")
    state = load(write_rules, text).new_initial_state(0)
    for move in ("seattle-portland", "vancouver-seattle", "seattle-calgary", "vancouver-seattle/2", "vancouver-calgary"):
        state.apply(state.find_move(f"claim {move}"))
    assert (state.vars[("longest", 1)], state.vars[("longest", 2)]) == (8, 2)      # 1 + 4 + 3; a double route twice
    assert (state.vars[("ticket", 1)], state.vars.get(("ticket", 2))) == (True, False)


def test_moves_name_routes_by_their_labels_and_a_double_route_once_claimed(write_rules):
    state = load(write_rules, CLAIM).new_initial_state(0)
    assert state.legal_move_names() == ["claim vancouver-seattle", "claim vancouver-seattle/2", "claim seattle-portland",
                                        "claim vancouver-calgary", "claim seattle-calgary"]
    state.apply(state.find_move("claim vancouver-seattle/2"))
    assert "claim vancouver-seattle/2" not in state.legal_move_names()
    view = state.view(1)
    assert view["vars"]["owner[vancouver-seattle/2]"] == "P1" and view["vars"]["visits[seattle]"] == "1"
    assert view["boards"] == {}         # a map is listed by its variables, not drawn


# ---- the functions of maps, as the runtime runs them ----

CHAIN = HEAD + '''board Stop: places { s1, s2, s3, s4, s5, s6, s7, s8 }
board Link: routes of Stop {
  s1 - s2 { } s2 - s3 { } s3 - s4 { } s4 - s5 { } s5 - s6 { } s6 - s7 { } s7 - s8 { }
  s1 - s3 { } s2 - s5 { } s4 - s8 { } s6 - s7 { } s3 - s1 { }
}
''' + TAIL


@pytest.fixture(scope="module")
def chain(tmp_path_factory):
    path = tmp_path_factory.mktemp("chain") / "chain.rules"
    path.write_text(CHAIN, encoding="utf-8")
    game, diagnostics, _ = load_game(str(path))
    assert not diagnostics
    return game


def state_of(game, work=10**8):
    """A stand-in for a state: what the map functions read (the boards, the step's work budget)."""
    return types.SimpleNamespace(game=types.SimpleNamespace(geometry_by_cell=game.geometry_by_cell,
                                                            step_budget=[1, work]))


def plain_longest_trail(game, weighted):
    """Every sequence of distinct routes, each sharing a place with the next, tried in turn."""
    ends = game.geometries["Link"].ends
    best = 0

    def extend(place, used, total):
        nonlocal best
        best = max(best, total)
        for k, (route, weight) in enumerate(weighted):
            if k not in used and place in ends[route]:
                a, b = ends[route]
                extend(b if a == place else a, used | {k}, total + weight)
    for route, _ in weighted:
        for place in ends[route]:
            extend(place, frozenset(), 0)
    return best


@settings(max_examples=100, deadline=None)
@given(data=st.data(), negative=st.booleans())
def test_longest_trail_is_the_best_of_every_trail(chain, data, negative):
    # (no negative weight: the search starts at the places of odd degree only; else everywhere)
    routes = data.draw(st.lists(st.sampled_from(chain.geometries["Link"].cells), max_size=7, unique=True))
    weighted = [(r, data.draw(st.integers(-2, 5) if negative else st.integers(0, 5))) for r in routes]
    assert maps.longest_trail(state_of(chain), weighted) == plain_longest_trail(chain, weighted)


@given(start=st.integers(0, 6), length=st.integers(0, 7), weights=st.lists(st.integers(1, 9), min_size=7, max_size=7))
def test_the_longest_trail_of_a_simple_path_is_its_total(chain, start, length, weights):
    path = chain.geometries["Link"].cells[start:min(start + length, 7)]
    weighted = list(zip(path, weights))
    assert maps.longest_trail(state_of(chain), weighted) == sum(w for _, w in weighted)


@given(data=st.data())
def test_connected_is_symmetric_and_transitive_and_what_reachable_says(chain, data):
    places, links = chain.geometries["Stop"].cells, chain.geometries["Link"].cells
    routes = data.draw(st.lists(st.sampled_from(links), max_size=12, unique=True))
    a, b, c = (data.draw(st.sampled_from(places)) for _ in range(3))
    s = state_of(chain)
    assert maps.connected(s, a, b, routes) == maps.connected(s, b, a, routes)
    if maps.connected(s, a, b, routes) and maps.connected(s, b, c, routes):
        assert maps.connected(s, a, c, routes)
    # joined by the routes: a place of one of the routes' groups (routes sharing places)
    ends = chain.geometries["Link"].ends
    touching = [g for g in chain.board_functions["groups"](routes) if a in {p for r in g for p in ends[r]}]
    expected = a == b or any(b in {p for r in g for p in ends[r]} for g in touching)
    assert maps.connected(s, a, b, routes) == expected


def test_longest_trail_goes_round_a_cycle_and_along_double_routes(chain):
    links = chain.geometries["Link"].cells
    s = state_of(chain)
    # s1-s2-s3 and back to s1 by s1-s3, then the second s3-s1: a trail of 4 with a cycle
    triangle = [links[0], links[1], links[7], links[11]]
    assert maps.longest_trail(s, [(r, 1) for r in triangle]) == 4
    # every place of even degree: the whole network, round and back (plus a separate route)
    assert maps.longest_trail(s, [(links[0], 1), (links[1], 2), (links[7], 3), (links[5], 4)]) == 6
    # a route named twice in the list is one route
    assert maps.longest_trail(s, [(links[0], 2), (links[0], 2)]) == 2
    assert maps.longest_trail(s, []) == 0


def test_longest_trail_charges_its_search_to_the_step_budget(chain):
    weighted = [(r, 1) for r in chain.geometries["Link"].cells]
    with pytest.raises(UnlocatedRulesError, match="units of work"):
        maps.longest_trail(state_of(chain, work=50), weighted)
    s = state_of(chain)
    assert maps.longest_trail(s, weighted) == plain_longest_trail(chain, weighted)
    assert s.game.step_budget[1] < 10**8           # charged, step by step


def test_a_value_that_is_no_route_is_an_error(chain):
    with pytest.raises(UnlocatedRulesError, match="is not a route"):
        maps.connected(state_of(chain), *chain.geometries["Stop"].cells[:2], [chain.geometries["Stop"].cells[1]])


# ---- the language server ----

def test_the_language_server_resolves_places_routes_and_their_attributes(write_rules):
    from referee.dsl import names
    from referee.interpreter.lsp import server as lsp

    from .test_lsp import at, word_of
    path = str(write_rules(CLAIM))
    index = lsp.analyse(path).index
    for tokens in index.tokens.values():
        unresolved = [t.text for t in tokens.tokens if t.kind == "name" and t.text not in names.keywords()
                      and names.place(t.span) not in index.at]
        assert unresolved == []
    (span,) = names.definitions(index, path, *at(path, "seattle - portland", "portland"))
    assert (span.line, span.column, word_of(span)) == (*at(path, "board City", "portland"), "portland")
    (span,) = names.definitions(index, path, *at(path, "seattle - calgary", "colour"))
    assert word_of(span) == "colour" and span.line == at(path, "vancouver - seattle", "colour")[0]
    hover = names.hover_text(index, path, *at(path, "board City", "helena"))
    assert "*place*" in hover and "`City`" in hover
    offered = {c.label: c for c in names.completions(index, path, *at(path, "owner[r] = current", "owner"))}
    assert offered["portland"].detail == "place of City"


# ---- the adapters ----

def test_openspiel_numbers_a_move_over_routes_by_the_routes_written_order(write_rules):
    pyspiel = pytest.importorskip("pyspiel")
    from referee.interpreter.adapters.openspiel_game import load_openspiel_game
    game = load_openspiel_game(write_rules(CLAIM))
    assert game.num_distinct_actions() == 5          # one id per route, double routes apart
    state = game.new_initial_state()
    assert [state.action_to_string(a) for a in state.legal_actions()] == [
        "claim vancouver-seattle", "claim vancouver-seattle/2", "claim seattle-portland", "claim vancouver-calgary",
        "claim seattle-calgary"]
    state.apply_action(1)
    assert state.legal_actions() == [0, 2, 3, 4]
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_pettingzoo_masks_the_claimed_routes(write_rules):
    pytest.importorskip("pettingzoo")
    from referee.interpreter.adapters.pettingzoo_env import load_pettingzoo_env
    env = load_pettingzoo_env(write_rules(CLAIM))
    env.reset(seed=3)
    env.step(3)
    assert list(env.observe("player_1")["action_mask"]) == [1, 1, 1, 0, 1]
    assert env.state.history == ["claim vancouver-calgary"]


def test_a_local_named_like_a_place_is_refused(write_rules):
    from .test_enum_order import diagnostics_of
    text = HEAD + MAP + 'action go(helena in City) "go {helena}" { }\nflow { turns from 1 { play go } }\n'
    assert diagnostics_of(write_rules, text) == [
        ("E210", 11, 11, "the local name 'helena' is already a place: it would hide it")]
