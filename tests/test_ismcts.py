"""ISMCTS (interpreter/bots.py ISMCTSBot) and its determinizations (interpreter/determinize.py):
the bot searches states drawn from what its seat may see, so that its choices never depend on
what the seat cannot see, and it still plays games of hidden information well."""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from referee.interpreter.runtime import random_source
from referee.interpreter.play.bots import ISMCTSBot, RandomBot, make_bot
from referee.interpreter.play.determinize import determinization
from referee.interpreter.engine import load_game
from referee.interpreter.engine.views import make_view
from referee.interpreter.tools.leaks import exchange_twins, random_source_twin, sealed_twins

from .conftest import GAMES


def game_of(name, players=None):
    return load_game(str(GAMES / f"{name}.rules"), (), players)[0]


def states_along(game, seed, count):
    """Up to `count` non-terminal states of one random game (the first included)."""
    state, bot, states = game.new_initial_state(seed), RandomBot(seed), []
    while not state.is_terminal() and len(states) < count:
        states.append(state.clone())
        state.apply(bot.choose(state))
    return states


def view_of(state, seat):
    return json.dumps(make_view(state, seat), sort_keys=True, default=str)


def test_a_determinization_keeps_what_the_seat_sees_and_deals_again_what_it_does_not():
    state = game_of("kuhn-poker").new_initial_state(3)
    rng, other_cards = random.Random(0), set()
    for _ in range(30):
        sample = determinization(state, 1, rng)
        assert view_of(sample, 1) == view_of(state, 1)
        assert sample.zones[("hand", 1)] == state.zones[("hand", 1)]
        assert {k: len(v) for k, v in sample.zones.items()} == {k: len(v) for k, v in state.zones.items()}
        assert all(sample.loc[x] == key for key, items in sample.zones.items() for x in items)
        other_cards.add(sample.entities[sample.zones[("hand", 2)][0]]["face"])
    # P2's card is either card P1 does not hold
    assert len(other_cards) == 2 and state.entities[state.zones[("hand", 1)][0]]["face"] not in other_cards
    assert state.zones == state.clone().zones and state.legal_move_names()   # the state itself is untouched


def test_a_determinization_draws_other_seats_sealed_moves_again():
    game = game_of("goofspiel")
    state = game.new_initial_state(1)
    while not (state.sealed() and state.current_player() == 2):
        state.apply(state.legal_moves()[0])
    real = state.history[-1]
    drawn = {determinization(state, 2, random.Random(seed)).history[-1] for seed in range(20)}
    assert len(drawn) > 1 and real in drawn
    assert all(view_of(determinization(state, 2, random.Random(seed)), 2) == view_of(state, 2) for seed in range(5))


def twins_of(state, seat, seed):
    rng = random_source.seed_state(seed)
    return ([t for t, _, _ in exchange_twins(state, seat, rng, 2)] + [t for t, _, _ in sealed_twins(state, seat, rng, 2)]
            + [random_source_twin(state, rng)[0]])


@pytest.mark.parametrize("name, players, seeds", [("kuhn-poker", None, 4), ("leduc-poker", None, 2),
                                                  ("goofspiel", None, 2), ("continents", 2, 1), ("titicaca", 3, 1),
                                                  ("skull", 3, 1)])
@pytest.mark.slow
def test_the_search_is_the_same_on_twins_that_differ_only_in_what_the_seat_cannot_see(name, players, seeds):
    game = game_of(name, players)
    compared = 0
    for seed in range(seeds):
        for state in states_along(game, seed, 6):
            if state.is_chance_node() or len(state.legal_moves()) < 2:
                continue
            seat = state.current_player()
            searched = ISMCTSBot(seed, iterations=25).search(state)
            for twin in twins_of(state, seat, seed):
                assert ISMCTSBot(seed, iterations=25).search(twin) == searched, (name, seed, state.history)
                compared += 1
    assert compared >= 3


def test_a_search_that_read_the_real_state_would_be_caught(monkeypatch):
    """The twins test has teeth: searching the real state (its hidden cards, its random source)
    instead of determinizations gives different searches on twins."""
    from referee.interpreter.play import bots
    monkeypatch.setattr(bots, "determinization", lambda state, seat, rng: state.clone())
    game = game_of("kuhn-poker")
    differ = 0
    for seed in range(4):
        state = game.new_initial_state(seed)
        searched = ISMCTSBot(seed, iterations=25).search(state)
        differ += any(ISMCTSBot(seed, iterations=25).search(twin) != searched for twin in twins_of(state, 1, seed))
    assert differ >= 2


def test_the_search_is_the_same_whatever_another_seat_has_sealed():
    game = game_of("titicaca", 3)
    state = game.new_initial_state(4)
    state.apply(state.legal_moves()[3])           # P1 seals a bid; P2 to bid
    twins = [t for t, _, _ in sealed_twins(state, 2, random_source.seed_state(1), 2)]
    assert twins and all(twin.history[-1] != state.history[-1] for twin in twins)
    searched = ISMCTSBot(5, iterations=30).search(state)
    assert all(ISMCTSBot(5, iterations=30).search(twin) == searched for twin in twins)
    assert ISMCTSBot(5, iterations=30).choose(twins[0]).name == ISMCTSBot(5, iterations=30).choose(state).name


@pytest.mark.slow
def test_ismcts_beats_random_at_kuhn_poker_in_either_seat():
    game = game_of("kuhn-poker")
    chips = 0.0
    for seed in range(120):
        seat = 1 + seed % 2
        bots = {seat: ISMCTSBot(seed, iterations=150), 3 - seat: RandomBot(seed)}
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            state.apply(bots[state.current_player()].choose(state))
        chips += state.returns()[seat - 1]
    # a random player loses about 0.3 chips a game to a good one; the bot must win clearly
    assert chips / 120 > 0.15, chips / 120


def test_ismcts_plays_perfect_information_games_too():
    game = game_of("tic-tac-toe")
    state = game.new_initial_state(0)
    for move in ("a1", "b1", "a2", "b2"):          # P1 to move: a3 wins
        state.apply(move)
    assert ISMCTSBot(1, iterations=300).choose(state).name == "a3"


def test_ismcts_is_reproducible_by_seed_and_leaves_the_state_alone():
    state = game_of("leduc-poker").new_initial_state(2)
    before = list(state.history), state.legal_move_names(), dict(state.zones)
    picks = {ISMCTSBot(7, iterations=40).choose(state).name for _ in range(3)}
    assert len(picks) == 1 and (list(state.history), state.legal_move_names(), dict(state.zones)) == before


@pytest.mark.parametrize("spec, message", [("ismcts:depth=3", "ismcts takes iterations=..., exploration=..."),
                                           ("ismcts:iterations=0", "must be a positive number")])
def test_ismcts_specs_are_checked(spec, message):
    with pytest.raises(ValueError, match=message):
        make_bot(spec, 0)
    bot = make_bot("ismcts:iterations=20,exploration=0.5", 3)
    assert isinstance(bot, ISMCTSBot) and (bot.iterations, bot.exploration) == (20, 0.5)


def test_referee_play_seats_ismcts_where_mcts_is_refused(capsys):
    from referee.interpreter.cli.main import main
    rules = str(GAMES / "kuhn-poker.rules")
    assert main(["play", rules, "--bot", "all=ismcts:iterations=20", "--seed", "1", "--brief"]) == 0
    out, err = capsys.readouterr()
    assert "P1: ismcts bot · P2: ismcts bot" in out and "note:" not in err
    assert main(["play", rules, "--bot", "all=mcts", "--seed", "1", "--brief"]) == 2
    assert "ismcts searches what its seat may see" in capsys.readouterr().err


def liars_dice_state(seed, dice=2):
    """P1 to bid in a game of liar's dice, two players of `dice` dice each."""
    return load_game(str(GAMES / "liars-dice.rules"), params={"dice": dice})[0].new_initial_state(seed)


def dice_of(state, seat):
    return [state.vars[("roll", seat, i)] for i in range(1, state.game.params["dice"] + 1)]


def with_dice(state, seat, faces):
    """A twin of the state in which the seat's dice show `faces` (what the others cannot see)."""
    twin = state.clone()
    for i, face in enumerate(faces, 1):
        twin.vars[("roll", seat, i)] = face
    twin.changed()
    return twin


def test_a_determinization_draws_the_other_seats_dice_again_and_never_the_seats_own():
    state = liars_dice_state(2)
    rng, drawn = random.Random(0), set()
    for _ in range(40):
        sample = determinization(state, 1, rng)
        assert dice_of(sample, 1) == dice_of(state, 1)
        assert view_of(sample, 1) == view_of(state, 1)
        assert all(1 <= face <= 6 for face in dice_of(sample, 2))
        drawn.add(tuple(dice_of(sample, 2)))
    faces = {face for dice in drawn for face in dice}
    assert len(drawn) > 15 and faces == set(range(1, 7))        # uniform over 36 pairs: all faces come up
    assert dice_of(state, 2) == dice_of(state.clone(), 2)        # the state itself is untouched


def test_a_determinization_is_the_same_on_states_that_differ_only_in_another_seats_dice():
    state = liars_dice_state(5)
    for faces in ([1, 1], [6, 2], [3, 5]):
        twin = with_dice(state, 2, faces)
        assert determinization(twin, 1, random.Random(7)).vars == determinization(state, 1, random.Random(7)).vars
    # the seat's own dice are what it sees: another roll of them gives another determinization
    mine = with_dice(state, 1, [7 - face for face in dice_of(state, 1)])
    assert determinization(mine, 1, random.Random(7)).vars != determinization(state, 1, random.Random(7)).vars


def test_ismcts_decides_the_same_whatever_dice_the_other_seat_holds():
    """Issue 11's twin test for a secret kept in variables: the same seed, the same search and
    the same move on states that differ only in the other seat's dice."""
    compared = 0
    for seed in range(3):
        state = liars_dice_state(seed)
        searched = ISMCTSBot(seed, iterations=50).search(state)
        for faces in ([1, 1], [6, 6], [2, 5]):
            twin = with_dice(state, 2, faces)
            assert ISMCTSBot(seed, iterations=50).search(twin) == searched, (seed, faces)
            assert ISMCTSBot(seed, iterations=50).choose(twin).name == ISMCTSBot(seed, iterations=50).choose(state).name
            compared += 1
    assert compared == 9


def test_a_search_that_kept_the_dice_would_be_caught(monkeypatch):
    """The dice twins have teeth: determinizations that keep the variables' values (the old
    behaviour) search differently on twins."""
    from referee.interpreter.play import bots
    from referee.interpreter.play import determinize
    monkeypatch.setattr(determinize, "hidden_var_keys", lambda state, seat: [])
    monkeypatch.setattr(bots, "determinization", determinize.determinization)
    differ = 0
    for seed in range(3):
        state = liars_dice_state(seed)
        searched = ISMCTSBot(seed, iterations=50).search(state)
        differ += any(ISMCTSBot(seed, iterations=50).search(with_dice(state, 2, faces)) != searched
                      for faces in ([1, 1], [6, 6]))
    assert differ >= 2


SECRETS = """game "Secrets" { players 3 }
enum Colour { red, blue }
var flag[Player]: bool owner
var colour[Player]: Colour? owner = none
var chosen: Player? hidden = none
var face[Player]: int in 1..3 owner = 1
var points[Player]: int owner = 0
var seen: int = 0
setup { flag[2] = true  colour[2] = blue  chosen = 3  face[2] = 3  points[2] = 41 }
action pass "pass" {
  seen += 1
  if seen == 4 { finish winners [current] }
}
flow { turns from 1 { play pass } }
"""


def test_every_unseen_entry_with_a_finite_domain_is_drawn_from_all_of_it(tmp_path):
    (tmp_path / "secrets.rules").write_text(SECRETS)
    game, diagnostics, _ = load_game(str(tmp_path / "secrets.rules"))
    assert not diagnostics
    state = game.new_initial_state(0)
    rng, drawn = random.Random(1), {}
    for _ in range(200):
        sample = determinization(state, 1, rng)
        assert view_of(sample, 1) == view_of(state, 1)
        for key in (("flag", 2), ("colour", 3), ("chosen"), ("face", 2), ("points", 2), ("flag", 1), ("face", 1)):
            drawn.setdefault(key, set()).add(sample.vars.get(key, game.var_defaults[key[0] if key.__class__ is tuple else key]))
    assert drawn[("flag", 2)] == {False, True}
    assert drawn[("colour", 3)] == {"red", "blue", None}             # optional: none is drawn too
    assert drawn["chosen"] == {1, 2, 3, None}
    assert drawn[("face", 2)] == {1, 2, 3}
    assert drawn[("points", 2)] == {41}                                # no finite domain: kept
    assert drawn[("flag", 1)] == {False} and drawn[("face", 1)] == {1}  # the seat's own: seen, kept


def test_the_variables_a_determinization_keeps_are_named_in_a_note(tmp_path, capsys):
    from referee.interpreter.cli.main import main
    from referee.interpreter.play.determinize import undrawn_secrets
    (tmp_path / "secrets.rules").write_text(SECRETS)
    game = load_game(str(tmp_path / "secrets.rules"))[0]
    assert undrawn_secrets(game) == ["points"]
    assert undrawn_secrets(game_of("liars-dice")) == [] and undrawn_secrets(game_of("kuhn-poker")) == []
    assert main(["play", str(tmp_path / "secrets.rules"), "--bot", "all=ismcts:iterations=5", "--seed", "1", "--brief"]) == 0
    assert "note: ismcts does not draw the hidden variables again ('points')" in capsys.readouterr().err
    assert main(["play", str(GAMES / "liars-dice.rules"), "--bot", "all=ismcts:iterations=5", "--seed", "1", "--brief"]) == 0
    assert "note:" not in capsys.readouterr().err


def test_ismcts_samples_explicit_chance_nodes():
    """With explicit chance every shuffle and deal is a chance node, in the game and in the
    search: the bot samples them by their odds (bots.sample_chance) and plays on."""
    game = load_game(str(GAMES / "leduc-poker.rules"), chance="explicit")[0]
    state, chance_nodes = game.new_initial_state(3), 0
    bots = {1: ISMCTSBot(1, iterations=30), 2: RandomBot(2)}
    while not state.is_terminal():
        if state.is_chance_node():
            chance_nodes += 1
            move = bots[1].choose(state)          # a chance node asked of the bot: sampled
            assert move in [m for m, _ in state.chance_outcomes()]
        else:
            move = bots[state.current_player()].choose(state)
        state.apply(move)
    assert chance_nodes >= 3 and state.outcome() is not None


def test_ismcts_plays_its_own_card_at_kuhn_poker():
    """Facing a bet (pass, then bet), P1 calls with the king, which always wins the showdown,
    and folds the jack, which always loses it: it uses what it holds, whatever P2 holds."""
    game = game_of("kuhn-poker")
    answers = {}
    for seed in range(16):
        state = game.new_initial_state(seed)
        face = state.entities[state.zones[("hand", 1)][0]]["face"]
        state.apply("pass")
        state.apply("bet")
        answers.setdefault(face, set()).add(ISMCTSBot(seed, iterations=200).choose(state).name)
    assert answers["king"] == {"bet"} and answers["jack"] == {"pass"}


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), draw=st.integers(0, 2**32),
       faces=st.lists(st.integers(1, 6), min_size=2, max_size=2))
@pytest.mark.slow
def test_a_determinization_never_depends_on_the_other_seats_dice(seed, draw, faces):
    state = liars_dice_state(seed)
    twin = with_dice(state, 2, faces)
    sample, twin_sample = determinization(state, 1, random.Random(draw)), determinization(twin, 1, random.Random(draw))
    assert sample.vars == twin_sample.vars and sample.rng == twin_sample.rng
    assert dice_of(sample, 1) == dice_of(state, 1)
