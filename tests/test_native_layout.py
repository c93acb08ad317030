"""The state as arrays (interpreter/native/layout.py): along random playouts of the games in
games/ and games/variants/, a state taken to arrays and back shows every seat the same view and
lists the same legal moves, plays the next move the same, and gives the same arrays again; what
has no fixed size is listed with its rules line.

The suite plays SAMPLE: every rules file once and every player count once (2 to 10). Every file
at every player count is `python -m tests.sweeps.native_layout` (before a release)."""
import random
from pathlib import Path

import pytest

from referee.interpreter.engine import PUBLIC, load_game

np = pytest.importorskip("numpy", reason="the native extra (numba, and numpy with it) is not installed")
from referee.interpreter.native.layout import Layout, LayoutError, from_arrays, to_arrays  # noqa: E402

from .conftest import header  # noqa: E402
from .sweeps import sweeping  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(ROOT.glob("games/*.rules")) + sorted(ROOT.glob("games/variants/*.rules"))
MOVES = 120             # moves of each playout looked at


# (rules file, players): each file once and each player count from 2 to 10 once, at the count
# that costs least where another file meets the others (ticket-to-ride at 5 takes twice 2's time)
SAMPLE = {"backgammon": 2, "checkers": 2, "connect-four": 2, "continents": 5, "dominion": 3, "goofspiel": 4,
          "hearts": 4, "kuhn-poker": 2, "leduc-poker": 2, "liars-dice": 3, "love-letter": 4, "othello": 2,
          "skull": 6, "solstis": 2, "the-resistance": (7, 8, 9, 10), "tic-tac-toe": 2, "ticket-to-ride": 2,
          "titicaca": 2, "continents-four-cards": 2, "continents-six-places": 4, "titicaca-wide": 2}


def players_sampled(path) -> tuple:
    """The player counts the suite plays a file at (a file not in SAMPLE: its smallest)."""
    declared = header(path)
    assert declared is not None, f"{path} does not parse"
    if sweeping():
        return tuple(declared.players)
    chosen = SAMPLE.get(path.stem, declared.players[0])
    return chosen if isinstance(chosen, tuple) else (chosen,)


def configurations():
    for path in GAMES:
        for players in players_sampled(path):
            yield pytest.param(path, players, id=f"{path.stem}-{players}p")


def test_the_sample_plays_every_file_and_every_player_count_at_least_once():
    sampled = {path: players_sampled(path) for path in GAMES}
    assert all(set(players) <= set(header(path).players) for path, players in sampled.items()), sampled
    every_count = {n for path in GAMES for n in header(path).players}
    assert {n for players in sampled.values() for n in players} == every_count


def same_arrays(a, b):
    assert a.fixed.keys() == b.fixed.keys()
    for name in a.fixed:
        assert np.array_equal(a.fixed[name], b.fixed[name]), name
    assert a.boxed == b.boxed


def assert_round_trip(layout, s):
    arrays = to_arrays(layout, s)
    back = from_arrays(layout, arrays)
    for seat in [PUBLIC, *layout.game.seats]:
        assert back.view(seat) == s.view(seat), seat
    if not s.terminal:
        assert back.legal_move_names() == s.legal_move_names()
    same_arrays(to_arrays(layout, back), arrays)
    return back


@pytest.mark.slow
@pytest.mark.parametrize("path, players", configurations())
def test_states_go_to_arrays_and_back_along_random_playouts(path, players):
    game, _, _ = load_game(str(path), players=players)
    layout = Layout.of(game)
    rng = random.Random(players)
    looked_at = stopped = 0
    for seed in range(2):
        s = game.new_initial_state(seed)
        for _ in range(MOVES):
            if s.pending is not None:       # a step stopped at a choice: its continuation is Python's
                with pytest.raises(LayoutError):
                    to_arrays(layout, s)
                stopped += 1
            else:
                back = assert_round_trip(layout, s)
                looked_at += 1
            if s.terminal:
                break
            moves = s.legal_moves()
            name = moves[rng.randrange(len(moves))].name
            replayed = s.pending is None    # the state made again plays the move the same
            if replayed:
                back.apply(name)
            s.apply(name)
            if replayed:
                assert back.view(PUBLIC) == s.view(PUBLIC)
    assert looked_at > stopped
    if stopped:         # the layout said so beforehand
        assert any("may stop at a choice" in unfit.why for unfit in layout.unfit)


def test_a_small_game_round_trips_and_its_layout_is_all_arrays():
    game, _, _ = load_game(str(ROOT / "games/tic-tac-toe.rules"))
    layout = Layout.of(game)
    assert layout.unfit == []
    assert layout.shapes()["var.mark"] == ((9,), np.int64)
    s = game.new_initial_state(3)
    for name in ("b2", "a1", "c3"):
        s.apply(name)
        assert_round_trip(layout, s)


def test_what_has_no_fixed_size_is_listed_with_its_rules_line():
    game, _, _ = load_game(str(ROOT / "games/titicaca.rules"), players=3)
    notes = [u.note() for u in Layout.of(game).unfit]
    assert any(note.endswith("titicaca.rules:74: var order: a list[Player]: no fixed size") for note in notes), notes


def test_a_value_beyond_its_coding_is_refused():
    game, _, _ = load_game(str(ROOT / "games/backgammon.rules"))
    layout = Layout.of(game)
    s = game.new_initial_state(0)
    s.vars["stake"] = 2**70
    with pytest.raises(LayoutError, match="does not fit the int64"):
        to_arrays(layout, s)


CHANGED_TEXT = """game "Named" {
  players 2
}

component Token { name: text, points: int } label "{name} {points}"
zone pool: set of Token public
zone kept[Player]: set of Token public

setup {
  create 1 Token { name: "plain", points: 1 } in pool
  create 1 Token { name: "plain", points: 2 } in pool
}

action take(x in pool) "take {x}" {
  x.name = "taken"
  x.points = x.points + 10
  move x to kept[current]
}

flow {
  turns from 1 {
    play take
    if size(pool) == 0 {
      finish
    }
  }
}
"""


def test_a_text_attribute_that_changes_travels_boxed_and_comes_back(tmp_path):
    path = tmp_path / "named.rules"
    path.write_text(CHANGED_TEXT, encoding="utf-8")
    game, diagnostics, _ = load_game(str(path))
    assert game is not None, diagnostics
    layout = Layout.of(game)
    assert [u.note() for u in layout.unfit] == [f"{path}:5: attribute Token.name: a text that statements change"]
    s = game.new_initial_state(0)
    s.apply("take plain 1")
    arrays = to_arrays(layout, s)
    assert arrays.boxed["attribute Token.name"] == {0: "taken", 1: "plain"}
    assert arrays.fixed["column.Token.points"].tolist() == [11, 2]
    back = assert_round_trip(layout, s)
    assert back.legal_move_names() == ["take plain 2"]
