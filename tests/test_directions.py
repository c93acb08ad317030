"""Directions on boards: the built-in enum Direction and surrounding, directions, toward, ray,
between and distance, on a square grid and on a hex map; and what the checker says of them."""
from __future__ import annotations

import pytest

from referee.interpreter.engine import load_game
from referee.interpreter.runtime.errors import RulesRuntimeError

GRID = '''
game "Lines" { players 2 }
board Square: grid 4 by 5
board Holed: grid 3 by 3 where not (row == 2 and col == 2)
var mark[Square]: Player? = none

fn around(c: Square): list of Square = surrounding(c)
fn ways(c: Square): list of Direction = directions(c)
fn next_cell(c: Square?, d: Direction): Square? = toward(c, d)
fn jump(c: Square, d: Direction): Square? = toward(toward(c, d), d)
fn line(c: Square, d: Direction): list of Square = ray(c, d)
fn inside(a: Square, b: Square): list of Square = between(a, b)
fn apart(a: Square, b: Square): int = distance(a, b)
fn owner(c: Square): Player? = mark[c]
fn can_jump(c: Square, d: Direction): bool =
  landing(c, d) != none and mark[toward(c, d)] == next(current) and mark[landing(c, d)] == none
fn landing(c: Square, d: Direction): Square? = toward(toward(c, d), d)
fn rook_ways(c: Square): list of Direction = filter(d in directions(c) where d in [north, east, south, west])
fn holed_line(a: Holed, b: Holed): list of Holed = between(a, b)
fn holed_ray(c: Holed, d: Direction): list of Holed = ray(c, d)
fn slide(c: Square, d: Direction): list of Square =
  filter(x in ray(c, d) where count(y in between(c, x) where mark[y] != none) == 0)

action place(c in Square where mark[c] == none) "place {c}" {
  mark[c] = current
  for d in directions(c) {
    let end = first(x in ray(c, d) where mark[x] != next(current))
    if end != none and mark[end] == current {
      for x in between(c, end) {
        mark[x] = current
      }
    }
  }
}
action turn_to(d in Direction where toward(Square(1, 1), d) != none) "face {d}" {
}
flow { turns from 1 until count(c in Square where mark[c] == none) == 0 { play place, turn_to } }
'''

HEX = '''
game "Hexes" { players 2 }
board Map: hexmap """
  01  02  03
    04  05  06
  07  08  09
""" {}

fn around(c: Map): list of Map = surrounding(c)
fn ways(c: Map): list of Direction = directions(c)
fn next_cell(c: Map?, d: Direction): Map? = toward(c, d)
fn line(c: Map, d: Direction): list of Map = ray(c, d)
fn inside(a: Map, b: Map): list of Map = between(a, b)
fn apart(a: Map, b: Map): int = distance(a, b)

board Gapped: hexmap """
  01  02  03
    04  XX  06
  07      09
""" { "XX": { number: 5 } }
fn gapped_line(a: Gapped, b: Gapped): list of Gapped = between(a, b)
fn gapped_ray(c: Gapped, d: Direction): list of Gapped = ray(c, d)
fn gapped_apart(a: Gapped, b: Gapped): int = distance(a, b)
fn across(a: Map, b: Gapped): list of Map = between(a, b)
fn across_apart(a: Map, b: Gapped): int = distance(a, b)
fn apart_none(a: Map): int = distance(a, none)

action pass "pass" { }
flow { turns from 1 until true { play pass } }
'''


def grid_game(write_rules):
    game, diagnostics, _ = load_game(str(write_rules(GRID)))
    assert game is not None, diagnostics
    return game, game.new_initial_state(seed=1)


def labels(s, cells):
    return [s.entities[c]["__label__"] if c is not None else None for c in cells]


def ask(game, s, name, **arguments):
    return game.functions[name](s, arguments)


def test_grid_directions_steps_and_surrounding(write_rules):
    game, s = grid_game(write_rules)
    at = game.geometries["Square"].at
    b2, a1 = at[(2, 2)], at[(1, 1)]
    assert ask(game, s, "ways", c=a1) == ["north", "north_east", "east", "south_east", "south",
                                          "south_west", "west", "north_west"]
    assert labels(s, ask(game, s, "around", c=b2)) == ["b3", "c3", "c2", "c1", "b1", "a1", "a2", "a3"]
    assert labels(s, ask(game, s, "around", c=a1)) == ["a2", "b2", "b1"]
    assert labels(s, [ask(game, s, "next_cell", c=b2, d=d) for d in ("north", "south_west", "east")]) == ["b3", "a1", "c2"]
    assert ask(game, s, "next_cell", c=a1, d="south") is None
    assert ask(game, s, "next_cell", c=None, d="north") is None
    assert labels(s, [ask(game, s, "jump", c=a1, d="north_east")]) == ["c3"]
    assert ask(game, s, "jump", c=b2, d="west") is None       # a jump off the board


def test_grid_rays_between_and_distance(write_rules):
    game, s = grid_game(write_rules)
    at = game.geometries["Square"].at
    a1, b2 = at[(1, 1)], at[(2, 2)]
    assert labels(s, ask(game, s, "line", c=a1, d="east")) == ["b1", "c1", "d1", "e1"]
    assert labels(s, ask(game, s, "line", c=a1, d="north_east")) == ["b2", "c3", "d4"]
    assert ask(game, s, "line", c=a1, d="west") == []
    assert labels(s, ask(game, s, "inside", a=a1, b=at[(4, 4)])) == ["b2", "c3"]
    assert labels(s, ask(game, s, "inside", a=at[(4, 4)], b=a1)) == ["c3", "b2"]   # from a toward b
    assert labels(s, ask(game, s, "inside", a=a1, b=at[(1, 5)])) == ["b1", "c1", "d1"]
    assert ask(game, s, "inside", a=a1, b=b2) == []           # neighbours: nothing between
    assert ask(game, s, "inside", a=a1, b=a1) == []
    assert ask(game, s, "inside", a=a1, b=at[(2, 3)]) == []   # not on a line
    assert ask(game, s, "apart", a=a1, b=at[(4, 2)]) == 3     # king moves
    assert ask(game, s, "apart", a=a1, b=at[(3, 5)]) == 4
    assert ask(game, s, "apart", a=b2, b=b2) == 0


def test_a_hole_breaks_rays_and_lines(write_rules):
    game, s = grid_game(write_rules)
    at = game.geometries["Holed"].at
    assert (2, 2) not in at
    assert ask(game, s, "holed_ray", c=at[(1, 1)], d="north_east") == []
    assert ask(game, s, "holed_line", a=at[(1, 1)], b=at[(3, 3)]) == []
    assert labels(s, ask(game, s, "holed_line", a=at[(1, 1)], b=at[(1, 3)])) == ["b1"]


def test_sliding_stops_at_the_first_piece(write_rules):
    game, s = grid_game(write_rules)
    at = game.geometries["Square"].at
    s.apply("place c1")
    assert labels(s, ask(game, s, "slide", c=at[(1, 1)], d="east")) == ["b1", "c1"]


def test_a_draughts_jump_and_a_subset_of_directions(write_rules):
    game, s = grid_game(write_rules)
    at = game.geometries["Square"].at
    s.apply("place b2")                # P1's; P2 to move
    assert ask(game, s, "can_jump", c=at[(1, 1)], d="north_east") is True
    assert ask(game, s, "can_jump", c=at[(1, 1)], d="north") is False
    assert ask(game, s, "can_jump", c=at[(1, 1)], d="south") is False     # off the board
    assert ask(game, s, "rook_ways", c=at[(1, 1)]) == ["north", "east", "south", "west"]


def test_an_othello_flip(write_rules):
    game, s = grid_game(write_rules)
    at = game.geometries["Square"].at
    for move in ("place a1", "place b1", "place a3", "place a2", "place c1"):
        s.apply(move)
    owners = {label: ask(game, s, "owner", c=at[rc]) for label, rc in
              (("a1", (1, 1)), ("b1", (1, 2)), ("c1", (1, 3)), ("a2", (2, 1)), ("a3", (3, 1)))}
    # P2's a2 between P1's a1 and a3 stays P2's (only the mover's own lines flip); P1's c1
    # flanks P2's b1 with a1: b1 turns P1's
    assert owners == {"a1": 1, "b1": 1, "c1": 1, "a2": 2, "a3": 1}


def test_hex_map_directions(write_rules):
    game, diagnostics, _ = load_game(str(write_rules(HEX)))
    assert game is not None, diagnostics
    s = game.new_initial_state(seed=1)
    at = {s.entities[e]["number"]: e for e in game.geometries["Map"].cells}
    number = lambda cells: [s.entities[c]["number"] if c is not None else None for c in cells]
    assert ask(game, s, "ways", c=at[5]) == ["north_east", "east", "south_east", "south_west", "west", "north_west"]
    assert number(ask(game, s, "around", c=at[5])) == [3, 6, 9, 8, 4, 2]
    assert sorted(number(ask(game, s, "around", c=at[5]))) == sorted(number(game.geometries["Map"].neighbors[at[5]]))
    assert number([ask(game, s, "next_cell", c=at[5], d=d) for d in ("north_east", "west", "north", "south")]) == [3, 4, None, None]
    assert number(ask(game, s, "line", c=at[7], d="north_east")) == [4, 2]
    assert number(ask(game, s, "line", c=at[1], d="east")) == [2, 3]
    assert ask(game, s, "line", c=at[1], d="north") == []
    assert number(ask(game, s, "inside", a=at[7], b=at[2])) == [4]
    assert number(ask(game, s, "inside", a=at[1], b=at[3])) == [2]
    assert ask(game, s, "inside", a=at[1], b=at[9]) == []     # not on one of the three axes
    assert ask(game, s, "apart", a=at[7], b=at[2]) == 2
    assert ask(game, s, "apart", a=at[1], b=at[3]) == 2
    assert ask(game, s, "apart", a=at[1], b=at[9]) == 3
    assert ask(game, s, "apart", a=at[4], b=at[6]) == 2
    assert ask(game, s, "apart", a=at[1], b=at[5]) == 2


def test_hex_map_holes_and_two_boards(write_rules):
    game, diagnostics, _ = load_game(str(write_rules(HEX)))
    assert game is not None, diagnostics
    s = game.new_initial_state(seed=1)
    gapped = {s.entities[e]["number"]: e for e in game.geometries["Gapped"].cells}
    mapped = {s.entities[e]["number"]: e for e in game.geometries["Map"].cells}
    number = lambda cells: [s.entities[c]["number"] for c in cells]
    assert 8 not in gapped
    assert number(ask(game, s, "gapped_ray", c=gapped[1], d="south_east")) == [4]   # stops at the gap
    assert number(ask(game, s, "gapped_line", a=gapped[2], b=gapped[9])) == [5]   # through XX
    assert ask(game, s, "gapped_line", a=gapped[7], b=gapped[9]) == []   # the gap breaks the line
    assert number(ask(game, s, "gapped_line", a=gapped[4], b=gapped[6])) == [5]
    assert ask(game, s, "gapped_line", a=gapped[1], b=gapped[9]) == []   # not on a line
    assert ask(game, s, "gapped_apart", a=gapped[7], b=gapped[9]) == 2   # counted across the gap
    assert ask(game, s, "across", a=mapped[1], b=gapped[3]) == []
    with pytest.raises(RulesRuntimeError, match="two boards"):
        ask(game, s, "across_apart", a=mapped[1], b=gapped[3])
    with pytest.raises(RulesRuntimeError, match="distance of none"):
        ask(game, s, "apart_none", a=mapped[1])


def test_a_direction_is_an_action_argument_and_a_move_name(write_rules):
    game, s = grid_game(write_rules)
    names = [m.name if hasattr(m, "name") else m for m in s.legal_moves()]
    assert "face north" in names and "face east" in names and "face north_east" in names
    assert "face south" not in names and "face west" not in names


def diagnostics(write_rules, extra):
    text = 'game "G" { players 2 }\nboard Square: grid 3 by 3\n' + extra + \
        '\naction pass "pass" { }\nflow { turns from 1 until true { play pass } }\n'
    _, found, _ = load_game(str(write_rules(text)))
    return " ".join(f"{d.code} {d.message}" for d in found)


@pytest.mark.parametrize("extra, code", [
    ("fn f(): list of Square = ray(3, north)", "E303"),
    ("fn f(): Square? = toward(Square(1, 1), 2)", "E303"),
    ("fn f(): int = distance(Square(1, 1), true)", "E303"),
    ("fn f(): list of int = directions(Square(1, 1))", "E303"),
    ("enum Wind { north, gale }", "E201"),
    ("var east: int = 0", "E211"),
])
def test_the_checker_types_directions(write_rules, extra, code):
    assert code in diagnostics(write_rules, extra)


def test_directions_are_values_of_their_own(write_rules):
    assert diagnostics(write_rules, "fn f(d: Direction): bool = d == north or d in directions(Square(1, 1))\n"
                                    "var facing: Direction = south_west") == ""


def test_a_direction_variable_and_a_direction_index_in_views(write_rules):
    from referee.interpreter.engine.render import render_view
    game, diagnostics, _ = load_game(str(write_rules('''
game "V" { players 2 }
board Square: grid 3 by 3
var facing: Direction = south_west
var seen[Direction]: int = 0
action turn(d in Direction) "face {d}" {
  facing = d
  seen[d] += 1
}
flow { turns from 1 until seen[north] > 0 { play turn } }
''')))
    assert game is not None, diagnostics
    s = game.new_initial_state(seed=1)
    assert "facing: south_west" in render_view(s.view(1))
    s.apply("face east")
    text = render_view(s.view(1))
    assert "facing: east" in text and "east=1" in text
