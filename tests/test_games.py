"""Every rules file of games/ and games/variants/: it loads clean for every player count (and
every option) it allows, and random games reach their end; plus scripted games of connect-four
and tic-tac-toe, and what each variant of Continents changes."""
from __future__ import annotations

import math
import random

import pytest

from referee.interpreter.engine import load_game
from referee.interpreter.runtime.errors import IllegalMove

from . import scenario
from .conftest import GAMES, ROOT, game_files, header

MOVE_BOUND = 20_000          # a random game longer than this counts as endless
SEEDS = (0, 1)


def load(path, options=(), players=None):
    """The game compiled once per process (scenario.load: shared with the other modules that
    play the same games); a file that does not load fails with its diagnostics rendered."""
    return scenario.load(path, options, players)


def configurations():
    """(file, player count, options) for every file, every count in its range, with no option
    and with each declared option on its own."""
    out = []
    for path in game_files():
        declared = header(path)
        if declared is None:       # reported by the test, not as an error of the collection
            out.append(pytest.param(path, None, (), id=f"{path.relative_to(GAMES)}-does-not-load"))
            continue
        options = [()] + [(name,) for name in declared.options]
        for players in declared.players:
            for chosen in options:
                out.append(pytest.param(path, players, chosen,
                                        id=f"{path.relative_to(GAMES)}-{players}p-{'+'.join(chosen) or 'plain'}"))
    return out


def play_random(game, seed, bound=MOVE_BOUND):
    """Play uniformly random legal moves (seeded) until the end; return the final state."""
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    moves = 0
    while not state.is_terminal():
        legal = state.legal_moves()
        assert legal, f"P{state.current_player()} has no legal move in a running game (seed {seed})"
        assert 1 <= state.current_player() <= game.num_players
        state.apply(rng.choice(legal))
        moves += 1
        assert moves <= bound, f"no end after {bound} random moves (seed {seed})"
    return state


def test_there_are_games_and_variants():
    names = {str(p.relative_to(ROOT)) for p in game_files()}
    assert {"games/tic-tac-toe.rules", "games/connect-four.rules", "games/continents.rules"} <= names
    assert len([n for n in names if n.startswith("games/variants/")]) >= 2


@pytest.mark.parametrize("path, players, options", configurations())
@pytest.mark.slow
def test_loads_and_plays_to_the_end(path, players, options):
    game = load(path, options, players)
    assert game.num_players == players
    assert game.options == frozenset(options)
    for seed in SEEDS:
        state = play_random(game, seed)
        assert state.is_terminal() and state.current_player() == 0
        assert state.legal_moves() == []
        assert set(state.winners) <= set(range(1, players + 1))
        returns = state.returns()
        assert len(returns) == players
        if game.declared_returns is None:      # the default: 1 for a winner, 0 for the others
            assert all(r in (0.0, 1.0) for r in returns)
            assert sum(returns) == len(state.winners)
        else:                                  # the header's `returns p: EXPR`: numbers, fractions too, as floats
            assert all(r.__class__ is float and math.isfinite(r) for r in returns)
        assert len(state.history) > 0


@pytest.mark.parametrize("path", game_files(), ids=lambda p: str(p.relative_to(GAMES)))
@pytest.mark.slow
def test_player_counts_outside_the_range_are_refused(path):
    counts = header(path).players
    for players in (counts.start - 1, counts.stop):
        if players < 1:
            continue
        game, diagnostics, _ = load_game(str(path), players=players)
        assert game is None and [d.code for d in diagnostics] == ["E602"]


@pytest.mark.slow
def test_random_games_are_reproducible_from_their_seed():
    for path in game_files():
        game = load(path)
        assert play_random(game, 5).history == play_random(game, 5).history, path


# ---- connect four ----------------------------------------------------------------------

CONNECT_FOUR = GAMES / "connect-four.rules"


def marks(state):
    """Cell label -> the marks shown on it (['P1'] or ['P2'] for a piece)."""
    board = state.view(1)["boards"]["Cell"]
    return {cell["label"]: cell["marks"] for cell in board["cells"]}


def play(path, moves):
    state = load(path).new_initial_state(seed=0)
    for move in moves:
        assert not state.is_terminal(), f"the game ended before {move!r}"
        state.apply(move)
    return state


def test_connect_four_board_and_move_names():
    game = load(CONNECT_FOUR)
    assert game.player_range == (2, 2)
    state = game.new_initial_state()
    board = state.view(1)["boards"]["Cell"]
    assert (board["rows"], board["cols"]) == (6, 7)
    assert state.legal_move_names() == ["1", "2", "3", "4", "5", "6", "7"]


def test_connect_four_a_piece_falls_to_the_lowest_empty_cell():
    state = play(CONNECT_FOUR, ["4", "4", "4"])
    board = marks(state)
    # row 1 is the bottom row; column 4 is d
    assert board["d1"] == ["P1"] and board["d2"] == ["P2"] and board["d3"] == ["P1"]
    assert board["d4"] == [] and all(board[f"{c}1"] == [] for c in "abcefg")


def test_connect_four_vertical_four_wins_for_player_one():
    state = play(CONNECT_FOUR, ["3", "4", "3", "4", "3", "4", "3"])
    assert state.is_terminal()
    assert state.winners == [1] and state.returns() == [1.0, 0.0]
    assert [marks(state)[f"c{row}"] for row in range(1, 5)] == [["P1"]] * 4


def test_connect_four_vertical_four_wins_for_player_two():
    state = play(CONNECT_FOUR, ["1", "6", "2", "6", "1", "6", "7", "6"])
    assert state.is_terminal()
    assert state.winners == [2] and state.returns() == [0.0, 1.0]


def test_connect_four_three_in_a_column_does_not_win():
    state = play(CONNECT_FOUR, ["3", "4", "3", "4", "3", "4"])
    assert not state.is_terminal() and state.current_player() == 1


def test_connect_four_horizontal_and_diagonal_fours_win():
    across = play(CONNECT_FOUR, ["1", "1", "2", "2", "3", "3", "4"])
    assert across.is_terminal() and across.winners == [1]
    # P1 builds the diagonal a1 b2 c3 d4
    diagonal = play(CONNECT_FOUR, ["1", "2", "2", "3", "3", "4", "3", "4", "4", "7", "4"])
    assert diagonal.is_terminal() and diagonal.winners == [1]
    assert [marks(diagonal)[c] for c in ("a1", "b2", "c3", "d4")] == [["P1"]] * 4


def test_connect_four_a_full_column_is_refused():
    state = play(CONNECT_FOUR, ["1"] * 6)          # P1 and P2 alternate: no four
    assert not state.is_terminal()
    assert "1" not in state.legal_move_names()
    assert state.legal_move_names() == ["2", "3", "4", "5", "6", "7"]
    before = (dict(state.vars), list(state.history), state.current_player())
    with pytest.raises(IllegalMove) as refused:
        state.apply("1")
    assert "full" in refused.value.reason
    assert (dict(state.vars), list(state.history), state.current_player()) == before
    state.apply("2")                                # the game goes on
    assert marks(state)["b1"] == ["P1"]


def test_connect_four_unknown_column_is_refused():
    state = load(CONNECT_FOUR).new_initial_state()
    with pytest.raises(IllegalMove) as refused:
        state.apply("8")
    assert "unknown move" in refused.value.reason


DRAWN_CONNECT_FOUR = ("2 5 7 7 7 1 3 1 4 7 4 4 6 4 7 2 1 4 1 5 4 6 1 7 6 3 3 6 2 3 3 1 3 6 5 6 "
                      "5 5 5 2 2 2").split()


def test_connect_four_full_board_is_a_draw():
    state = play(CONNECT_FOUR, DRAWN_CONNECT_FOUR)
    assert len(DRAWN_CONNECT_FOUR) == 42
    assert state.is_terminal()
    assert state.winners == [] and state.returns() == [0.0, 0.0]
    assert all(m for m in marks(state).values())


# ---- tic-tac-toe --------------------------------------------------------------------------

TIC_TAC_TOE = GAMES / "tic-tac-toe.rules"


def test_tic_tac_toe_scripted_win():
    # P1: a1 b2 c3 (a diagonal); P2: a2 a3
    state = play(TIC_TAC_TOE, ["a1", "a2", "b2", "a3", "c3"])
    assert state.is_terminal()
    assert state.winners == [1] and state.returns() == [1.0, 0.0]


def test_tic_tac_toe_scripted_win_for_player_two():
    state = play(TIC_TAC_TOE, ["a1", "b1", "a2", "b2", "c3", "b3"])
    assert state.is_terminal() and state.winners == [2]


def test_tic_tac_toe_scripted_draw():
    #  row 3:  x o x
    #  row 2:  x o o
    #  row 1:  o x x
    moves = ["b1", "a1", "c1", "b2", "a2", "c2", "a3", "b3", "c3"]
    state = play(TIC_TAC_TOE, moves)
    assert state.is_terminal()
    assert state.winners == [] and state.returns() == [0.0, 0.0]
    assert len(state.history) == 9


def test_tic_tac_toe_a_taken_cell_is_refused():
    state = play(TIC_TAC_TOE, ["b2"])
    assert "b2" not in state.legal_move_names() and len(state.legal_move_names()) == 8
    with pytest.raises(IllegalMove):
        state.apply("b2")


# ---- the variants of Continents -------------------------------------------------------------

VARIANTS = GAMES / "variants"


@pytest.mark.parametrize("path", sorted(VARIANTS.glob("*.rules")), ids=lambda p: p.name)
def test_a_variant_starts_with_a_comment_and_extends_a_game(path):
    text = path.read_text(encoding="utf-8")
    assert text.startswith("#"), "a variant file starts with a comment saying what it changes"
    code = [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    assert code[0].startswith("extends ")
    game = load(path)
    assert len(game.program.files) >= 2 and game.program.files[-1] == str(path)


def test_six_places_variant_has_six_places_around_each_continent():
    base, variant = load(GAMES / "continents.rules"), load(VARIANTS / "continents-six-places.rules")
    assert base.params["places"] == 8 and variant.params["places"] == 6
    assert {k: v for k, v in variant.params.items() if k != "places"} == \
        {k: v for k, v in base.params.items() if k != "places"}
    state = variant.new_initial_state(seed=0)
    places = {move.args[1] for move in state.legal_moves() if move.kind == "action"
              and variant.actions[move.action].name == "build"}
    assert places == set(range(1, 7))


def test_four_cards_variant_deals_and_refills_four_cards():
    base, variant = load(GAMES / "continents.rules"), load(VARIANTS / "continents-four-cards.rules")
    assert base.params["hand_size"] == 5 and variant.params["hand_size"] == 4
    state = variant.new_initial_state(seed=3)
    for player in (1, 2):
        assert len(state.zones[("hand", player)]) == 4
    state = play_random(variant, 3, bound=MOVE_BOUND)
    assert state.is_terminal()
    # after any single turn, the hand of the player who moved is back to at most 4 cards
    state = variant.new_initial_state(seed=3)
    rng = random.Random(3)
    for _ in range(30):
        if state.is_terminal():
            break
        mover = state.current_player()
        state.apply(rng.choice(state.legal_moves()))
        assert len(state.zones.get(("hand", mover), [])) <= 4
