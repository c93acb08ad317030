"""Bots for any game: random, first, and Monte Carlo tree search for perfect information."""
import pytest

from referee.interpreter.play.bots import MCTSBot, RandomBot, hidden_information, make_bot
from referee.interpreter.engine import load_game

from .conftest import GAMES


def game_of(name, players=None):
    return load_game(str(GAMES / f"{name}.rules"), (), players)[0]


def play(game, bots, seed):
    state = game.new_initial_state(seed)
    while not state.is_terminal():
        state.apply(bots[state.current_player()].choose(state))
    return state


@pytest.mark.slow
def test_mcts_never_loses_tic_tac_toe_against_random_in_either_seat():
    game = game_of("tic-tac-toe")
    for seed in range(6):
        seat = 1 + seed % 2
        state = play(game, {seat: MCTSBot(seed, iterations=1000), 3 - seat: RandomBot(seed)}, seed)
        assert state.winners in ([seat], []), (seed, state.history)


def test_mcts_takes_a_win_and_blocks_a_loss():
    game = game_of("tic-tac-toe")
    state = game.new_initial_state(0)
    for move in ("a1", "b1", "a2"):          # P2 to move: P1 threatens a3
        state.apply(move)
    assert MCTSBot(1, iterations=400).choose(state).name == "a3"
    state.apply("b2")                        # P2 did not block: P1 wins at a3
    assert MCTSBot(2, iterations=400).choose(state).name == "a3"


def test_mcts_is_reproducible_by_seed_and_leaves_the_state_alone():
    game = game_of("connect-four")
    state = game.new_initial_state(0)
    before = list(state.history), state.legal_move_names()
    picks = {MCTSBot(7, iterations=60).choose(state).name for _ in range(3)}
    assert len(picks) == 1 and (list(state.history), state.legal_move_names()) == before


def test_mcts_refuses_games_with_hidden_information():
    for name in ("continents", "titicaca", "solstis"):
        assert hidden_information(game_of(name)) is not None
    assert hidden_information(game_of("tic-tac-toe")) is None
    with pytest.raises(ValueError, match="it would cheat"):
        MCTSBot(0, iterations=10).choose(game_of("continents").new_initial_state(0))


@pytest.mark.parametrize("spec, message", [("mcts:depth=3", "mcts takes iterations=..., exploration=..."),
                                           ("mcts:iterations=0", "must be a positive number"),
                                           ("mcts:iterations=x", "not a number"), ("alpha", "unknown bot 'alpha'"),
                                           ("first:iterations=3", "first takes no settings")])
def test_bot_specs_are_checked(spec, message):
    with pytest.raises(ValueError, match=message):
        make_bot(spec, 0)
    assert make_bot("mcts:iterations=20,exploration=0.5", 0).iterations == 20
