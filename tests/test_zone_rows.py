"""Zone keys made once (interpreter/zone_rows.py): a comprehension over a fixed domain that reads
zones by keys naming its variable goes over rows of ready keys, and answers as the plain loop
that builds each key (the same comprehensions over a list argument are not given rows)."""
import random

from referee.interpreter.engine import load_game
from tests.conftest import GAMES
from tests.compiled_support import function_source

ROWS = """
game "Rows" { players 2 }
board Cell: grid 4 by 4
component Stone { } label "stone"
zone supply: pile of Stone public
zone stone[Player, Cell]: set of Stone public
zone ring[Cell, Player]: set of Stone public
setup { create 20 Stone { } in supply }

fn mine(p: Player): list of Cell = filter(c in Cell where size(stone[p, c]) > 0)
fn mine_in(p: Player, cells: list of Cell): list of Cell = filter(c in cells where size(stone[p, c]) > 0)
fn first_seat(): list of Cell = filter(c in Cell where size(stone[1, c]) > 0 or size(ring[c, 1]) > 0)
fn first_seat_in(cells: list of Cell): list of Cell =
  filter(c in cells where size(stone[1, c]) > 0 or size(ring[c, 1]) > 0)
fn counts(): list of int = map(p in players: count(c in Cell where size(stone[p, c]) + size(ring[c, p]) > 0))
fn counts_in(cells: list of Cell): list of int =
  map(p in players: count(c in cells where size(stone[p, c]) + size(ring[c, p]) > 0))
fn edge(p: Player): list of Cell =
  filter(c in Cell where size(stone[p, c]) == 0 and any(n in neighbors(c) where size(stone[p, n]) > 0))
fn edge_in(p: Player, cells: list of Cell): list of Cell =
  filter(c in cells where size(stone[p, c]) == 0 and any(n in neighbors(c) where size(stone[p, n]) > 0))
fn every_stone_alone(p: Player): bool = all(c in Cell where size(stone[p, c]) <= 1)

action place(c in Cell) "place {c}" {
  move top(supply) to stone[current, c]
}
action ring_it(c in Cell) "ring {c}" {
  move top(supply) to ring[c, current]
}
flow { turns from 1 until size(supply) == 0 { play place, ring_it } }
"""


def test_loops_over_a_board_go_over_ready_keys_and_answer_as_the_plain_loops(write_rules):
    game, diagnostics, _ = load_game(str(write_rules(ROWS)))
    assert diagnostics == []
    module = game.compiler.module_source()
    for name in ("mine", "first_seat", "counts", "edge", "every_stone_alone"):
        assert "_key in (_rows" in function_source(module, f"fn_{name}"), name
    for name in ("mine_in", "first_seat_in", "counts_in"):
        assert "_rows" not in function_source(module, f"fn_{name}"), name
    # the neighbours of a cell are no fixed domain: their keys are built as they are read
    assert "('stone', L_p, a" in function_source(module, "fn_edge")
    compiled = game.compiler.codegen.namespace
    cells = list(game.geometries["Cell"].cells)
    rng = random.Random(5)
    for seed in range(4):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            for p in (1, 2):
                assert compiled["fn_mine"](state, p) == compiled["fn_mine_in"](state, p, cells)
                assert compiled["fn_edge"](state, p) == compiled["fn_edge_in"](state, p, cells)
                assert compiled["fn_every_stone_alone"](state, p) == \
                    all(len(state.zones.get(("stone", p, c), ())) <= 1 for c in cells)
            assert compiled["fn_first_seat"](state) == compiled["fn_first_seat_in"](state, cells)
            assert compiled["fn_counts"](state) == compiled["fn_counts_in"](state, cells)
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
        assert compiled["fn_mine"](state, 1) and compiled["fn_counts"](state) != [0, 0]


def test_the_rows_of_an_index_outside_its_domain_read_as_empty_zones(write_rules):
    game, diagnostics, _ = load_game(str(write_rules(ROWS)))
    assert diagnostics == []
    compiled = game.compiler.codegen.namespace
    state = game.new_initial_state(0)
    state.apply("place a1")
    assert compiled["fn_mine"](state, 1) != []
    assert compiled["fn_mine"](state, None) == [] and compiled["fn_mine"](state, 7) == []


def test_a_zone_made_in_play_holds_the_key_object_of_the_rows_that_read_it():
    """A zone is made (State.move, State.deal) under the one object kept for its key, the
    object the rows of keys hold: a read by a row's key finds the zone by identity, without
    comparing two tuples. The moves are the same either way."""
    from referee.interpreter.runtime import zone_rows
    game, diagnostics, _ = load_game(str(GAMES / "continents.rules"), (), 2)
    state, rng = game.new_initial_state(4), random.Random(4)
    for _ in range(30):
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
    places = [key for key in state.zones if isinstance(key, tuple) and key[0] == "place"]
    assert places
    assert all(zone_rows.ZONE_KEYS.get(key) is key for key in places)
    # the listing's rows hold those very objects
    rows = [row for name, value in game.compiler.codegen.namespace.items() if name.startswith("_rows")
            and isinstance(value, dict) for made in value.values() for row in made]
    held = {id(key) for row in rows for key in row[1:] if isinstance(key, tuple)}
    assert all(id(key) in held for key in places)


def test_past_its_bound_the_key_table_gives_each_key_back_as_it_came(monkeypatch):
    from referee.interpreter.runtime import zone_rows
    monkeypatch.setattr(zone_rows, "ZONE_KEYS", {})
    monkeypatch.setattr(zone_rows, "MAX_ZONE_KEYS", 2)
    first = ("pile", 1)
    assert zone_rows.canonical_key(first) is first
    assert zone_rows.canonical_key(("pile", int("1"))) is first      # an equal key: the kept object
    zone_rows.canonical_key(("pile", 2))
    third = ("pile", 3)
    assert zone_rows.canonical_key(third) is third and len(zone_rows.ZONE_KEYS) == 2
