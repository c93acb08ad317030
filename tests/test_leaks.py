"""Non-interference: nothing a seat may not see reaches it, by any channel. Twin states that
differ only in what a seat may not see must show it the same view, moves seen, legal moves
and answers to typed moves (interpreter/leaks.py; `referee verify` probes it by default)."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.interpreter.runtime import random_source
from referee.interpreter.play.bots import RandomBot
from referee.interpreter.engine import load_game
from referee.interpreter.tools.leaks import (WATCHES, drawn_values, find_leak, play_watching, variable_twins,
                                              watching_class)
from referee.interpreter.tools.verify import leak_seats, replay_names, verify

from .conftest import GAMES, game_files

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
@pytest.mark.slow
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
    from referee.interpreter.tools.leaks import sealed_twins
    state = titicaca_during_bids()
    twins = sealed_twins(state, 2, random_source.seed_state(1), 2)
    assert twins and all("P1's sealed move" in how for _, how, _ in twins)
    assert all(twin.history[-1] != state.history[-1] for twin, _, _ in twins)
    for seat in (2, 3):
        assert find_leak(state, seat, random_source.seed_state(seat)) is None


def test_a_view_that_showed_sealed_moves_would_be_caught(monkeypatch):
    from referee.interpreter.tools import leaks
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


def test_watching_a_move_notes_the_cards_it_shows_with_a_class_made_once(write_rules):
    """play_watching gives the state a class made once per state class for the move, then takes
    it back: a card played to the public table is seen, one left in the hand is not."""
    text = """
game "Watched" { players 2 }
component Card { value: int } label "card {value}"
zone hand[Player]: set of Card owner
zone table: row of Card public
setup { for v in 1..4 { create 1 Card { value: v } in hand[1 + v % 2] } }
action put(c in hand[current]) "put {c}" { move c to table }
flow { turns from 1 until size(table) == 2 { play put } }
"""
    game, diagnostics, _ = load_game(str(write_rules(text)))
    assert diagnostics == []
    state = game.new_initial_state(1)
    plain = type(state)
    move = state.legal_moves()[0]
    hand = list(state.zones[("hand", 1)])
    played = next(x for x in hand if move.name.endswith(state.entities[x]["__label__"]))
    kept = next(x for x in hand if x != played)
    assert play_watching(state, move, 2, {played, kept}) == {played}
    assert type(state) is plain and WATCHES == {}
    assert watching_class(plain) is watching_class(plain)


def test_probing_a_domain_that_fails_where_the_rules_never_go_is_no_crash(write_rules):
    """The leak probe (and a refusal's explanation) tries binder values the earlier binders'
    filters exclude: `next(mark[c])` of an empty cell failed there with a Python error."""
    from referee.interpreter.runtime.errors import IllegalMove
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


# Hidden variables. tests/leaks/secret-number.rules keeps a secret number per seat (owner-only,
# int in 1..4), a hidden coin and hidden hits, and leaks none of them; each variant shows one
# to a seat that may not see it, by one channel.
SECRETS = Path(__file__).resolve().parent / "leaks"

# variant -> (channel in the message, found only by playing the move on (flows), a text of the values)
SECRET_LEAKS = {
    "move-name": ("legal moves", False, "(against "),
    "legal-moves": ("legal moves", False, "'guess "),
    "refusal": ("answers to typed moves", False, "no peeking: the coin says "),
    "log": ("view", True, "; the number was "),
    "label": ("view", True, '"label": "token '),
    "bookkeeping": ("legal moves", False, "moves_counted = "),
}


def secret_game(variant=None):
    path = SECRETS / (f"secret-number-{variant}.rules" if variant else "secret-number.rules")
    game, diagnostics, _ = load_game(str(path))
    assert not diagnostics, diagnostics
    return game


@pytest.mark.parametrize("variant", sorted(SECRET_LEAKS))
def test_a_hidden_variable_leaked_by_any_channel_is_found_shrunk_and_replayable(variant):
    channel, flows, values = SECRET_LEAKS[variant]
    game = secret_game(variant)
    if flows:
        assert verify(game, games=20).failures == []      # found only by following the moves
    report = verify(game, games=20, leaks="flows" if flows else True)
    assert report.failures and {f.kind for f in report.failures} == {"leak"}
    for failure in report.failures:
        assert f"'s {channel} depend on what P" in failure.message and values in failure.message
        assert " instead of " in failure.message and "is not shown to P" in failure.message
        again = replay_names(game, failure.seed, failure.moves, leaks=leak_seats(failure), flows=flows)
        assert again is not None and again.key() == failure.key()
    assert verify(game, games=20, leaks=False).failures == []


@pytest.mark.parametrize("variant", [None, "bookkeeping-stated"])
def test_hidden_variables_that_decide_nothing_shown_are_no_leak(variant):
    game = secret_game(variant)
    report = verify(game, games=30, leaks="flows")
    assert report.failures == [] and report.finished == 30


def twins_along_a_game(game, seed=3):
    """(state, seat, twins) at every state of a random game."""
    state, bot = game.new_initial_state(seed), RandomBot(seed)
    out = []
    while not state.is_terminal():
        for seat in game.seats:
            out.append((state, seat, variable_twins(state, seat, random_source.seed_state(len(out)), 4)))
        state = state.clone()
        state.apply(bot.choose(state))
    return out


def test_variable_twins_change_one_entry_the_seat_may_not_see_to_another_value_of_its_type():
    game = secret_game()
    changed = set()
    for state, seat, twins in twins_along_a_game(game):
        assert len(twins) == 4
        for twin, how, key in twins:
            differs = [k for k in set(state.vars) | set(twin.vars) if state.vars.get(k) != twin.vars.get(k)]
            assert differs == [key] and twin.vars[key] in drawn_values(game, key if isinstance(key, str) else key[0])
            assert key in ("coin", "hits") or key[0] == "hits" or key == ("secret", 3 - seat)
            assert how.startswith(f"{key if isinstance(key, str) else key[0]}")
            changed.add(key if isinstance(key, str) else key[:1] + ((key[1] == seat),))
    assert changed == {"coin", ("hits", True), ("hits", False), ("secret", False)}


def test_twins_that_break_a_declared_invariant_are_left_out():
    """The invariant says how the hidden count follows from public facts: no twin changes it."""
    counted = {game: sum(how.startswith("moves_counted ") for _, _, twins in twins_along_a_game(secret_game(game))
                         for _, how, _ in twins)
               for game in ("bookkeeping", "bookkeeping-stated")}
    assert counted["bookkeeping"] > 0 and counted["bookkeeping-stated"] == 0


def test_rules_that_fail_in_a_variable_twin_are_a_leak_not_a_crash(write_rules):
    """A divisor the setup never draws as 0: a twin with 0 cannot list the legal moves."""
    text = """
game "Divisor" { players 2 }
var divisor: int in 0..2 hidden = 1
var played: int = 0
setup { divisor = pick(1..2) }
action go(n in 1..2 where n // divisor >= 0) "go {n}" { played += 1 }
flow { turns from 1 until played >= 4 { play go } }
"""
    game, diagnostics, _ = load_game(str(write_rules(text)))
    assert diagnostics == []
    report = verify(game, games=10)
    assert [f.kind for f in report.failures] == ["leak"]
    assert "the rules fail there" in report.failures[0].message and "divisor = 0 instead of" in report.failures[0].message


@pytest.mark.slow
def test_the_games_hide_their_secret_values_at_every_player_count():
    """Every game of games/ whose hidden or owner-only variables get twins (Liar's dice's dice)
    is clean at every player count, the twins built."""
    with_secrets = []
    for path in game_files():
        probe = load_game(str(path))[0]
        if not any(visibility != "public" and drawn_values(probe, name)
                   for name, (visibility, _, _, _) in probe.var_meta.items()):
            continue
        with_secrets.append(path.stem)
        low, high = probe.player_range
        for players in range(low, high + 1):
            game = load_game(str(path), (), players)[0]
            assert any(twins for _, _, twins in twins_along_a_game(game))
            report = verify(game, games=10)
            assert report.failures == [], (path.stem, players, [f.to_json() for f in report.failures])
    assert with_secrets == ["liars-dice"]


SEALED_COINS = """
game "Sealed coins" { players 3 }
component Coin { face: int } label "coin {face}"
zone purse[Player]: set of Coin owner
zone spent[Player]: set of Coin owner
zone table[Player]: pile of Coin owner
var rounds: int = 0
setup {
  for p in players {
    create 1 Coin { face: 1, owner: p } in purse[p]
    create 1 Coin { face: 2, owner: p } in purse[p]
    create 1 Coin { face: 3, owner: p } in spent[p]
  }
}
action put(c in purse[current]) "put {c}" public "puts a coin" { move c to table[current] }
flow {
  repeat {
    rounds += 1
    simultaneous p in players { play put }
    for p in players { move all of table[p] to purse[p] }
  } until rounds == 4
}
"""


def test_a_component_exchanged_in_a_twin_is_exchanged_in_the_sealed_moves_too(write_rules):
    """A sealed move holds the component chosen; a twin that exchanges it with an unseen one
    elsewhere (the same owner's spent coin) gives the sealed move the component now in its place,
    or the move, once revealed, would take the coin from where the seat was not shown it."""
    from referee.interpreter.tools.leaks import exchange_twins
    game, diagnostics, _ = load_game(str(write_rules(SEALED_COINS)))
    assert diagnostics == []
    state = game.new_initial_state(0)
    state.apply("put coin 1")
    assert state.sealed() and state.current_player() == 2
    twins = exchange_twins(state, 2, random_source.seed_state(3), 40)
    moved = [(twin, a, b) for twin, _, (a, b) in twins if twin.loc[a] == ("spent", 1) or twin.loc[b] == ("spent", 1)]
    assert moved
    for twin, _, _ in moved:
        (key, sealed), = [(k, v[1]) for k, v in twin.env.items() if isinstance(v, tuple) and len(v) == 2 and v[1]]
        (_, _, (coin,)), = sealed
        assert twin.loc[coin] == ("purse", 1)                   # still a coin of P1's purse
        assert twin.history[-1] == f"put {twin.entities[coin]['__label__']}"
    assert verify(game, games=12, leaks="flows").failures == []


FLIP_BACK = """
game "Flip back" { players 2 }
enum Face { heads, tails }
component Coin { face: Face } label "coin"
zone hand[Player]: pile of Coin owner
zone table: row of Coin public
var score[Player]: int = 0
var shown: int = 0
setup {
  for p in players {
    create 1 Coin { face: heads } in hand[p]
    create 1 Coin { face: tails } in hand[p]
    shuffle hand[p]
  }
}
action show "show" {
  let x = top(hand[current])
  SHOW
  if x.face == heads { score[current] += 1 }
  shown += 1
}
flow { turns from 1 until shown >= 6 { play show } }
"""


def test_a_coin_shown_and_taken_back_in_one_move_carries_no_flow(write_rules):
    """verify --flows follows a move on in twins where two coins the seat cannot tell apart are
    exchanged: a coin turned face up on the table, then taken back into the hand by the same
    move, was seen, so what the move goes on to do with it may differ between the twins."""
    shown = FLIP_BACK.replace("SHOW", "move x to table\n  move x under hand[current]")
    game, diagnostics, _ = load_game(str(write_rules(shown)))
    assert diagnostics == []
    report = verify(game, games=30, leaks="flows")
    assert report.finished == 30 and report.failures == []


def test_a_hidden_coin_copied_into_a_public_score_is_a_flow(write_rules):
    game, diagnostics, _ = load_game(str(write_rules(FLIP_BACK.replace("SHOW", ""))))
    assert diagnostics == []
    assert verify(game, games=30).failures == []       # found only by following the move on
    failures = verify(game, games=30, leaks="flows").failures
    assert failures and failures[0].kind == "leak" and "then 'show' played" in failures[0].message


KEEPING = """
game "Keeping" { players 3 }
component Card { rank: int } label "card {rank}"
zone deck: pile of Card hidden
zone offered[Player]: row of Card owner
zone kept[Player]: row of Card owner
var done: int = 0
setup {
  for r in 1..9 { create 1 Card { rank: r } in deck }
  shuffle deck
  for p in players { deal 3 from deck to offered[p] }
}
action keep(chosen in subsets(offered[current]) where size(chosen) >= 1) "keep {chosen}"PUBLIC {
  move all of chosen to kept[current]
  move all of offered[current] to deck
  done += 1
}
flow { turns from 1 until done >= 3 { play keep } }
"""


def test_a_move_whose_list_argument_names_hidden_cards_is_a_leak(write_rules):
    """A move that takes a subset of a hidden hand shows the cards it names: the others learn
    which cards were kept unless the action has a public text."""
    game, diagnostics, _ = load_game(str(write_rules(KEEPING.replace("PUBLIC", ""))))
    assert diagnostics == []
    failures = verify(game, games=20).failures
    assert failures and "'s moves seen depend on what P" in failures[0].message
    assert "give the action a public text" in failures[0].message
    again = replay_names(game, failures[0].seed, failures[0].moves, leaks=leak_seats(failures[0]))
    assert again is not None and again.key() == failures[0].key()
    game, diagnostics, _ = load_game(str(write_rules(KEEPING.replace("PUBLIC", ' public "keeps some cards"'))))
    assert diagnostics == [] and verify(game, games=20).failures == []
