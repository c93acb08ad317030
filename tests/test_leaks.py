"""Non-interference: nothing a seat may not see reaches it, by any channel. Twin states that
differ only in what a seat may not see must show it the same view, moves seen, legal moves
and answers to typed moves (interpreter/leaks.py; `referee verify` probes it by default)."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.interpreter import random_source
from referee.interpreter.bots import RandomBot
from referee.interpreter.engine import load_game
from referee.interpreter.leaks import find_leak
from referee.interpreter.verify import leak_seats, replay_names, verify

from .conftest import GAMES

DECK = """
game "Peek" {{ players 2 }}
component Card {{ rank: int }} label "card {{rank}}"
zone deck: pile of Card hidden
zone hand[Player]: row of Card owner
var drawn: int = 0
{extra}
setup {{
  for r in 1..8 {{ create 1 Card {{ rank: r }} in deck }}
  shuffle deck
}}
{action}
flow {{ turns from 1 until drawn >= 6 {{ play draw }} }}
"""

FAIR = 'action draw "draw" { deal 1 from deck to hand[current]\n drawn += 1 }'
PLANTED = {
    # the move names the card on top of the hidden deck
    "legal moves": ('', 'action draw(c in deck where c == top(deck)) "draw {c}" { move c to hand[current]\n drawn += 1 }'),
    # a public variable copies a hidden value
    "view": ('var last: int = 0', 'action draw "draw" { last = top(deck).rank\n deal 1 from deck to hand[current]\n drawn += 1 }'),
    # the log tells what was drawn to everybody
    "view ": ('', 'action draw "draw" { let c = top(deck)\n log "{c} was drawn"\n deal 1 from deck to hand[current]\n drawn += 1 }'),
}


def load(write_rules, extra, action):
    game, diagnostics, _ = load_game(str(write_rules(DECK.format(extra=extra, action=action))))
    assert not diagnostics, diagnostics
    return game


def test_a_fair_game_has_no_leak(write_rules):
    report = verify(load(write_rules, "", FAIR), games=20)
    assert report.failures == [] and report.finished == 20


@pytest.mark.parametrize("channel", sorted(PLANTED))
def test_a_planted_leak_is_found_shrunk_and_replayable(write_rules, channel):
    game = load(write_rules, *PLANTED[channel])
    flows = channel.startswith("view")          # hidden values copied into what is shown
    if flows:
        assert verify(game, games=20).failures == []      # found only by following the moves
    report = verify(game, games=20, leaks="flows" if flows else True)
    assert report.failures and {f.kind for f in report.failures} == {"leak"}
    assert any(f"'s {channel.strip()} depend on what P" in f.message for f in report.failures)
    for failure in report.failures:
        again = replay_names(game, failure.seed, failure.moves, leaks=leak_seats(failure), flows=flows)
        assert again is not None and again.key() == failure.key()
    assert verify(game, games=20, leaks=False).failures == []


def test_masked_components_carry_no_id_that_would_tell_them_apart():
    """Titicaca's temples are created worth 1, then worth 2: an id would give the value away."""
    game, _, _ = load_game(str(GAMES / "titicaca.rules"), (), 3)
    state = game.new_initial_state(0)
    mine = state.view(1)["zones"]["reserve[P1]"]["items"]
    theirs = state.view(2)["zones"]["reserve[P1]"]["items"]
    assert [item["label"] for item in mine] == ["T1", "T2"] and all("id" in item for item in mine)
    assert [item["label"] for item in theirs] == ["T?", "T?"] and not any("id" in item for item in theirs)


@pytest.mark.parametrize("name, players", [("continents", 3), ("titicaca", 4), ("solstis", 2)])
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 60))
def test_seed_games_show_no_seat_what_it_may_not_see(name, players, seed, moves):
    game = seed_game(name, players)
    state, bot = game.new_initial_state(seed), RandomBot(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply(bot.choose(state))
    for seat in range(1, players + 1):
        assert find_leak(state, seat, random_source.seed_state(seed + seat)) is None


LOADED = {}


def seed_game(name, players):
    if (name, players) not in LOADED:
        LOADED[name, players] = load_game(str(GAMES / f"{name}.rules"), (), players)[0]
    return LOADED[name, players]


def test_leak_probes_and_undone_moves_are_not_counted_in_the_rule_coverage():
    game = load_game(str(GAMES / "titicaca.rules"), (), 3, coverage=True)[0]
    plain = verify(game, games=4, leaks=False).coverage
    assert sum(plain) > 0
    assert verify(game, games=4, leaks="flows").coverage == plain


def titicaca_during_bids():
    """A Titicaca 3p state in which P1 has sealed a bid and P2 is to bid."""
    game = seed_game("titicaca", 3)
    state = game.new_initial_state(4)
    state.apply(state.legal_moves()[3])
    assert state.sealed() and state.current_player() == 2
    return state


def test_a_sealed_move_is_perturbed_and_does_not_leak():
    from referee.interpreter.leaks import sealed_twins
    state = titicaca_during_bids()
    twins = sealed_twins(state, 2, random_source.seed_state(1), 2)
    assert twins and all("P1's sealed move" in how for _, how, _ in twins)
    assert all(twin.history[-1] != state.history[-1] for twin, _, _ in twins)
    for seat in (2, 3):
        assert find_leak(state, seat, random_source.seed_state(seat)) is None


def test_a_view_that_showed_sealed_moves_would_be_caught(monkeypatch):
    from referee.interpreter import leaks
    real = leaks.make_view
    monkeypatch.setattr(leaks, "make_view", lambda s, p: {**real(s, p), "env": repr(sorted(map(str, s.env.items())))})
    message = find_leak(titicaca_during_bids(), 2, random_source.seed_state(1))
    assert message and "P1's sealed move" in message and "view depend" in message


PASSING = """
game "Pass" { players 3 }
component Card { rank: int } label "card {rank}"
zone hand[Player]: row of Card owner
var passed: int = 0
setup {
  for p in players {
    create 1 Card { rank: p } in hand[p]
    create 1 Card { rank: p + 10 } in hand[p]
  }
}
action give(c in hand[current], p in players where p != current) "pass {c} to {p}"PUBLIC {
  move c to hand[p]
  passed += 1
}
flow { turns from 1 until passed >= 3 { play give } }
"""


def test_a_move_whose_name_shows_a_card_that_stays_hidden_is_a_leak(write_rules):
    """Passing a card from hand to hand: naming it tells the third player which card moved."""
    game, diagnostics, _ = load_game(str(write_rules(PASSING.replace("PUBLIC", ""))))
    assert diagnostics == []
    report = verify(game, games=20)
    assert report.failures and {f.kind for f in report.failures} == {"leak"}
    failure = report.failures[0]
    assert "'s moves seen depend on what P" in failure.message and "give the action a public text" in failure.message
    again = replay_names(game, failure.seed, failure.moves, leaks=leak_seats(failure))
    assert again is not None and again.key() == failure.key()


def test_a_public_text_is_what_the_others_see_of_a_move(write_rules):
    game, diagnostics, _ = load_game(str(write_rules(PASSING.replace("PUBLIC", ' public "passes a card to {p}"'))))
    assert diagnostics == []
    state = game.new_initial_state(0)
    state.apply("pass card 1 to P2")
    assert state.view(1)["moves"] == ["P1: pass card 1 to P2"]          # its author sees it whole
    assert state.view(2)["moves"] == state.view(3)["moves"] == ["P1: passes a card to P2"]
    assert verify(game, games=20).failures == []


def test_a_public_text_shows_only_arguments(write_rules):
    _, diagnostics, _ = load_game(str(write_rules(PASSING.replace("PUBLIC", ' public "passes {card}"'))))
    assert [d.code for d in diagnostics] == ["E410"] and "public text" in diagnostics[0].message


def test_a_card_played_face_up_then_gathered_by_the_flow_is_no_leak(write_rules):
    """What a move shows is judged once its action is done: a card put on the table was seen,
    even if the next round gathers and shuffles it in the same step."""
    text = """
game "Same step" { players 2 }
component Card { value: int } label "card {value}"
zone deck: pile of Card hidden
zone hand[Player]: set of Card owner
zone table: row of Card public
var rounds: int = 0
setup { for v in 1..4 { create 1 Card { value: v } in deck } }
proc deal_round() {
  move all of Card to deck
  shuffle deck
  for p in players { deal 2 from deck to hand[p] }
}
action put(c in hand[current]) "put {c}" { move c to table }
flow { repeat { rounds += 1  deal_round()  turns from 1 until size(table) == 2 { play put } } until rounds == 3 }
"""
    game, diagnostics, _ = load_game(str(write_rules(text)))
    assert diagnostics == []
    assert verify(game, games=30).failures == []


def test_probing_a_domain_that_fails_where_the_rules_never_go_is_no_crash(write_rules):
    """The leak probe (and a refusal's explanation) tries binder values the earlier binders'
    filters exclude: `next(mark[c])` of an empty cell failed there with a Python error."""
    from referee.interpreter.errors import IllegalMove
    text = """
game "Probe" { players 2 }
board Sq: grid 1 by 3
var mark[Sq]: Player? = none
fn rivals(c: Sq): list of Sq = filter(x in Sq where mark[x] == next(mark[c]))
action claim(c in Sq where mark[c] == none) "claim {c}" { mark[c] = current }
action strike(c in Sq where mark[c] == current, x in rivals(c)) "{c} strikes {x}" { mark[x] = none }
flow { turns from 1 until count(c in Sq where mark[c] == none) == 0 { play claim, strike } }
"""
    game, diagnostics, _ = load_game(str(write_rules(text)))
    assert diagnostics == []
    report = verify(game, games=20)
    assert report.failures == [] and report.finished == 20
    state = game.new_initial_state(1)
    with pytest.raises(IllegalMove, match="unknown move 'a1 strikes b1'"):
        state.apply("a1 strikes b1")
