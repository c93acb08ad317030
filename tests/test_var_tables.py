"""Tables of variables by value (Compiler.var_indexes): `filter(c in Cell where mark[c] == p)`
and its kin read a table the state keeps of `mark`; after any write, clone, failed move or
change by hand it must say what a scan of the variable says."""
import random

import pytest

from referee.interpreter.play.bots import RandomBot
from referee.interpreter.engine import load_game
from referee.interpreter.runtime.errors import RulesRuntimeError
from tests.conftest import GAMES

TABLES = """
game "Tables" {
  players 2
}
board Cell: grid 2 by 3
var mark[Cell]: Player? = none
var spent: int = 0
fn owned(p: Player): list of Cell = filter(c in Cell where mark[c] == p)
fn owned_high(p: Player): list of Cell = filter(c in Cell where mark[c] == p and c.row == 2)
action put(c in Cell where mark[c] == none) "{c}" {
  mark[c] = current
  @X-1 "A third cell of one's own breaks the game: a division by zero."
  spent = spent + 6 // (3 - size(owned(current)))
}
flow {
  turns from 1 {
    play put
    if count(c in Cell where mark[c] == none) == 0 {
      finish
    }
  }
}
"""


def load(path, players=None):
    game, diagnostics, _ = load_game(str(path), (), players)
    assert diagnostics == [], diagnostics
    return game


def scanned(state, family) -> dict:
    """The table of a variable made afresh from the state's variables."""
    game = state.game
    table = {}
    for x in game.var_positions[family]:
        table.setdefault(state.vars.get((family, x), game.var_defaults[family]), []).append(x)
    return table


def assert_tables_exact(state):
    for family, table in state.var_index.items():
        kept = {value: keys for value, keys in table.items() if keys}
        assert kept == scanned(state, family), family


@pytest.mark.parametrize("name, players", [("tic-tac-toe", 2), ("connect-four", 2), ("othello", 2), ("titicaca", 3)])
def test_the_tables_follow_every_write_of_a_game(name, players):
    game = load(GAMES / f"{name}.rules", players)
    assert game.var_positions, "the game has no variable read by value"
    for seed in range(3):
        state, bot = game.new_initial_state(seed), RandomBot(seed)
        while not state.is_terminal():
            state.apply(bot.choose(state))
            assert_tables_exact(state)
        assert state.var_index


def test_a_clone_and_its_original_keep_their_own_tables():
    game = load(GAMES / "connect-four.rules")
    state = game.new_initial_state(0)
    for name in ("4", "4", "3"):
        state.apply(name)
    before = {family: {v: list(k) for v, k in t.items()} for family, t in state.var_index.items()}
    other = state.clone()
    rng = random.Random(1)
    for _ in range(6):
        other.apply(rng.choice(other.legal_moves()))
        assert_tables_exact(other)
    assert state.var_index == before          # the original is as it was
    assert_tables_exact(state)
    state.apply("1")
    assert_tables_exact(state)
    assert_tables_exact(other)


def test_a_failed_move_leaves_the_table_as_it_was(write_rules):
    game = load(write_rules(TABLES))
    owned = game.functions["owned"]
    for by_hand in (False, True):
        state = game.new_initial_state(0)
        for name in ("a1", "a2", "b1", "b2"):
            state.apply(name)
        if by_hand:
            state.changed()       # not rebuilt from its moves: the move keeps a copy of the state instead
        with pytest.raises(RulesRuntimeError, match="division by zero"):
            state.apply("c1")
        assert state.history == ["a1", "a2", "b1", "b2"]
        assert_tables_exact(state)
        assert len(owned(state, {"p": 1})) == 2


def test_a_change_by_hand_is_seen_after_changed(write_rules):
    game = load(write_rules(TABLES))
    state = game.new_initial_state(0)
    state.apply("a1")
    owned, high = game.functions["owned"], game.functions["owned_high"]
    assert len(owned(state, {"p": 1})) == 1
    cell = game.geometries["Cell"].at[(2, 3)]
    state.vars[("mark", cell)] = 1
    state.changed()
    assert cell in owned(state, {"p": 1}) and high(state, {"p": 1}) == [cell]
    assert "c2" not in state.legal_move_names()


FIXED_POINTS = """
game "Fixed points" {
  players 3
}
board Cell: grid 3 by 3
enum Colour { red, green, blue }
var leader[Cell]: Cell? = none
var swap[Colour]: Colour? = none
var pointer[Player]: Player? = none
var rounds: int = 0
fn roots(): list of Cell = filter(c in Cell where leader[c] == c)
fn roots_plain(): list of Cell = filter(c in Cell where leader[c] == c or false)
fn low_roots(): int = count(c in Cell where c == leader[c] and c.row > 1 and rounds > 2)
fn low_roots_plain(): int = count(c in Cell where (c == leader[c] or false) and c.row > 1 and rounds > 2)
fn some_root(): bool = any(c in Cell where leader[c] == c)
fn some_root_plain(): bool = any(c in Cell where leader[c] == c or false)
fn rootless(): bool = all(c in Cell: leader[c] != c)
fn rootless_plain(): bool = all(c in Cell: leader[c] != c and true)
fn kept_colours(): list of Colour = filter(k in Colour where swap[k] == k)
fn kept_colours_plain(): list of Colour = filter(k in Colour where swap[k] == k or false)
fn self_aimed(): list of Player = filter(p in Player where pointer[p] == p)
fn self_aimed_plain(): list of Player = filter(p in Player where pointer[p] == p or false)
action link(c in Cell, d in Cell) "link {c} {d}" {
  leader[c] = d
  rounds += 1
}
action tint(k in Colour, j in Colour) "tint {k} {j}" {
  swap[k] = j
  rounds += 1
}
action aim(p in players) "aim {p}" {
  pointer[current] = p
  rounds += 1
}
flow {
  turns from 1 until rounds >= 40 {
    play link, tint, aim
  }
}
"""


def test_the_indexes_that_hold_themselves_are_read_from_the_table(write_rules):
    """filter(c in Cell where leader[c] == c) and its kin: the values of the table that are
    among the indexes holding them, in domain order (a board, an enum, the players)."""
    game = load(write_rules(FIXED_POINTS))
    module = game.compiler.module_source()
    names = ("roots", "low_roots", "some_root", "rootless", "kept_colours", "self_aimed")
    for name in names:
        start = module.index(f"def fn_{name}(")
        assert "in holding" in module[start:module.index("\n\n", start)], name
    functions = game.functions
    seen = set()
    for seed in range(6):
        state, bot = game.new_initial_state(seed), RandomBot(seed)
        while not state.is_terminal():
            state.apply(bot.choose(state))
            for name in names:
                value = functions[name](state, {})
                assert value == functions[f"{name}_plain"](state, {}), name
                seen.add((name, repr(value)))
            assert_tables_exact(state)
    # every kind of answer came up: several roots in order, none, colours kept, seats
    assert {name for name, value in seen} == set(names)
    assert len({value for name, value in seen if name == "roots"}) > 5
    assert ("rootless", "True") in seen and ("rootless", "False") in seen
    assert any(name == "kept_colours" and value.count(",") >= 1 for name, value in seen)
