"""Decisions inside a step in native playouts (issue 24): `choose`, `play ... by` and `respond`
drawn as the Python engine's RandomBot draws them, each a move (counted, stopped at max_moves, in
analyze's trail as "(choice)"), and what they need besides: a list of cards as a move's argument
(`subsets`), who saw what (`reveal`: a choice among identical cards is asked unless every seat
sees them), `pick` of a zone, `index`, list params and `players` as a list.
tests/native/decisions.rules, tests/native/respond.rules, tests/interactive/ambush.rules (`respond
every`), Skull and Dominion play the Python games, move for move. Seven kernels are compiled here
at most once per run (Numba's cache keeps them between runs)."""
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.interpreter.engine import load_game

numba = pytest.importorskip("numba", reason="the native extra (numba) is not installed")
from referee.interpreter.native.rules_source import NotNative, render  # noqa: E402
from tests.native_support import compiled, game_of, kernel_of, natively, same_games  # noqa: E402

DECISIONS = "tests/native/decisions.rules"


@pytest.fixture(scope="module")
def decisions():
    return kernel_of(DECISIONS, 3)


@pytest.fixture(scope="module", params=[("skull", 4), ("dominion", 2)], ids=lambda p: f"{p[0]}-{p[1]}p")
def game_with_decisions(request):
    name, players = request.param
    return kernel_of(f"games/{name}.rules", players)


def test_decisions_play_the_python_games(decisions):
    natively(decisions, range(1, 61))


def test_each_decision_is_a_move_of_its_chooser(decisions):
    """The branching of every move, decisions included, and each seat's moves by action, where
    a decision inside a step is "(choice)": analyze's details, as the engine gives them."""
    python = same_games(decisions, range(1, 21), details=True).records
    assert all("(choice)" in per_seat for record in python for per_seat in record["actions"].values())


@settings(max_examples=10, deadline=None)
@given(st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=4), st.integers(1, 90))
def test_a_game_stopped_inside_a_step_is_the_python_game(decisions, seeds, max_moves):
    """max_moves reached at a decision inside a move's effect stops the game there, as Python's
    simulate stops before asking it."""
    same_games(decisions, seeds, max_moves)


def test_response_windows_play_the_python_games():
    """tests/native/respond.rules: windows nested in a response's effect, the `else` when nobody
    responded, players with no legal response passed over."""
    kernel = kernel_of("tests/native/respond.rules", 3)
    natively(kernel, range(1, 41))
    same_games(kernel, range(1, 11), details=True)


def test_a_window_that_asks_everyone_plays_the_python_games():
    """tests/interactive/ambush.rules: `respond every` asks a victim without a guard too, who
    may only skip (a draw among one option, as the RandomBot draws it)."""
    kernel = kernel_of("tests/interactive/ambush.rules", 3)
    natively(kernel, range(1, 41))
    same_games(kernel, range(1, 11), details=True)


def test_search_bots_playouts_with_decisions_are_the_python_playouts():
    """A rollout kernel (rollout_source.py) draws the decisions inside its moves from the bot's
    generator as bots.playout does: the same returns, the generator left where Python leaves it
    (max_moves reached inside a step too), from a state stopped at a decision inside a step too
    (paused_state.py: the step played again from the copy before it, its draws so far forced)."""
    from referee.interpreter.native.rollouts import rollouts_of
    from referee.interpreter.play.bots import RandomBot, playout
    game = game_of("tests/native/respond.rules", 3)
    rollouts = compiled(rollouts_of(game))
    played = paused = 0
    for seed in range(20):
        s, bot = game.new_initial_state(seed), RandomBot(seed)
        for _ in range(seed % 5):
            s.apply(bot.choose(s))
        for max_moves in (3, 1_000):
            native_rng, python_rng = random.Random(seed), random.Random(seed)
            native = rollouts.returns(s.clone(), native_rng, max_moves)
            assert native is not None and native == playout(s.clone(), python_rng, max_moves)
            assert native_rng.getstate() == python_rng.getstate()
            played += 1
            paused += s.pending is not None
    assert played == 40 and paused > 0


def test_skull_and_dominion_play_the_python_games(game_with_decisions):
    natively(game_with_decisions, range(1, 16))


RECURSIVE = '''game "Again and again" {
  players 2
}

var n: int = 0

action echo "echo" {
  n += 1
  play echo by current
}

flow {
  turns from 1 until n > 3 {
    play echo
  }
}
'''


def test_an_action_played_inside_its_own_effect_is_refused_with_its_line(tmp_path):
    rules = tmp_path / "echo.rules"
    rules.write_text(RECURSIVE)
    game, diagnostics, _ = load_game(str(rules), players=2)
    assert game is not None, diagnostics
    with pytest.raises(NotNative) as refused:
        render(game)
    assert refused.value.note() == f"{rules}:7: the action echo is played inside its own effect"


def test_subsets_of_other_than_components_are_refused(tmp_path):
    rules = tmp_path / "dice.rules"
    rules.write_text(RECURSIVE.replace('action echo "echo" {\n  n += 1\n  play echo by current\n}',
                                       'action echo(k in subsets([1, 2, 3])) "echo {k}" {\n  n += size(k)\n}'))
    game, diagnostics, _ = load_game(str(rules), players=2)
    assert game is not None, diagnostics
    with pytest.raises(NotNative) as refused:
        render(game)
    assert refused.value.note() == f"{rules}:7: subsets of ints as a move's argument have no native form yet"
