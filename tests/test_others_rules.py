"""The zone visibility `others`: every seat but the zone's owner sees its components; the owner
sees them face down, and learns nothing of them through any channel (view, moves' names, log,
answers, the web page); the search bots draw the owner's own cards again."""
from __future__ import annotations

import json
import random

import pytest

from referee.interpreter.engine import load_game
from referee.interpreter.engine.render import render_view, view_defaults
from referee.interpreter.play.determinize import determinization
from referee.interpreter.tools.leaks import hidden_places
from referee.interpreter.tools.verify import verify

HATS = """
game "Hats" { players 2..3 }
component Card { rank: int } label "card {rank}"
zone deck: pile of Card hidden
zone hat[Player]: row of Card others
zone guessed: row of Card public
var right[Player]: int = 0
var rounds: int = 0
setup {
  for r in 1..9 { create 1 Card { rank: r } in deck }
  shuffle deck
  for p in players { deal 1 from deck to hat[p] }
}
ACTION
flow { turns from 1 until rounds >= 4 { play guess } }
"""

FAIR = """action guess(n in 1..9) "guess {n}" {
  let c = top(hat[current])
  if c.rank == n { right[current] += 1 }
  move c to guessed
  deal 1 from deck to hat[current]
  rounds += 1
}"""


def load(write_rules, action=FAIR, players=None):
    game, diagnostics, _ = load_game(str(write_rules(HATS.replace("ACTION", action))), players=players)
    assert not diagnostics, diagnostics
    return game


def hat_label(state, seat):
    return state.entities[state.zones[("hat", seat)][-1]]["__label__"]


def test_everybody_but_the_owner_sees_the_cards_of_an_others_zone(write_rules):
    game = load(write_rules, players=3)
    state = game.new_initial_state(seed=3)
    for seat in game.seats:
        zones = state.view(seat)["zones"]
        for owner in game.seats:
            entry = zones[f"hat[P{owner}]"]
            assert entry["count"] == 1
            if owner == seat:
                assert "items" not in entry           # face down to its owner
            else:
                assert [item["label"] for item in entry["items"]] == [hat_label(state, owner)]
        text = render_view(state.view(seat), view_defaults(game))
        assert f"P{seat}'s hat: 1 hidden" in text
        assert hat_label(state, seat) not in text


def test_the_owner_learns_nothing_of_its_own_cards_and_a_planted_leak_is_found(write_rules):
    assert verify(load(write_rules), games=15).failures == []
    # the move names the card its owner cannot see
    leaky = """action guess(n in 1..9 where n == top(hat[current]).rank) "guess {n}" {
  move top(hat[current]) to guessed
  deal 1 from deck to hat[current]
  rounds += 1
}"""
    report = verify(load(write_rules, leaky), games=15)
    assert report.failures and {f.kind for f in report.failures} == {"leak"}
    # a log line that names the owner's card to everybody
    logged = FAIR.replace("rounds += 1", 'log "{current} wore {top(hat[current])}"\n  rounds += 1')
    logged = logged.replace("let c = top(hat[current])", 'log "{current} wears {top(hat[current])}"\n  let c = top(hat[current])')
    assert verify(load(write_rules, logged), games=15, leaks="flows").failures


def test_the_leak_finder_and_the_search_bots_treat_the_owner_as_unable_to_see(write_rules):
    game = load(write_rules, players=3)
    state = game.new_initial_state(seed=5)
    for seat in game.seats:
        places = {(key, how) for key, _, _, how in hidden_places(state, seat)}
        assert (("hat", seat), ("hidden",)) in places
        assert not any(key == ("hat", other) for other in game.seats if other != seat for key, _ in places)
    drawn = set()
    for k in range(40):
        sample = determinization(state, 1, random.Random(k))
        for other in (2, 3):            # what seat 1 sees stays
            assert sample.zones[("hat", other)] == state.zones[("hat", other)]
        drawn.add(sample.zones[("hat", 1)][-1])
    assert len(drawn) > 1               # its own card is drawn again among those it cannot see
    assert not drawn & {state.zones[("hat", p)][-1] for p in (2, 3)}


def test_the_web_page_shows_the_owner_its_cards_face_down_and_the_others_their_labels(write_rules, tmp_path):
    from referee.interpreter.web.app import table_info
    from referee.interpreter.web.html import page
    from referee.interpreter.web.table import Table
    path = write_rules(HATS.replace("ACTION", FAIR))
    game = load(write_rules)
    t = Table("hats-1", game, str(path), 4, {})
    info = table_info(game)
    assert info["facing"] == {"hat"} and "hat" not in info["private"]
    mine, theirs = hat_label(t.state, 1), hat_label(t.state, 2)
    html = page(t.observation(1), info, "/static")
    assert "the others see them, not you" in html
    assert theirs in html and (mine == theirs or mine not in html)
    assert mine not in json.dumps(t.observation(1), default=str)
    assert mine in page(t.observation(2), info, "/static")


HINTS = """
game "Hints" { players 2 }
enum Colour { red, blue }
component Card { colour: Colour, rank: int } label "{colour} {rank}"
zone deck: pile of Card hidden
zone hand[Player]: row of Card others
zone played: row of Card public
var turns_left: int = 8
EXTRA
setup {
  for c in Colour { for r in 1..5 { create 1 Card { colour: c, rank: r } in deck } }
  shuffle deck
  for p in players { deal 3 from deck to hand[p] }
}
action hint(c in Colour) "hint {c}" {
  for x in hand[next(current)] {
    if x.colour == c {
      reveal x.colour to next(current)
      TOLD
    }
  }
  turns_left -= 1
}
action play_newest "play your newest card" {
  move top(hand[current]) to played
  deal 1 from deck to hand[current]
  turns_left -= 1
}
flow { turns from 1 until turns_left <= 0 { play hint, play_newest } }
"""


def hints(write_rules, extra="", told=""):
    game, diagnostics, _ = load_game(str(write_rules(HINTS.replace("EXTRA", extra).replace("TOLD", told))))
    assert not diagnostics, diagnostics
    return game


def dealt_a_red_card(game):
    """A start in which P2 holds a red card and a blue one."""
    for seed in range(50):
        state = game.new_initial_state(seed=seed)
        if {state.entities[x]["colour"] for x in state.zones[("hand", 2)]} == {"red", "blue"}:
            return state
    raise AssertionError("no such deal")


def play(state, name):
    (move,) = [m for m in state.legal_moves() if m.name == name]
    state.apply(move)


def test_a_told_attribute_is_shown_to_those_told_on_their_face_down_cards_until_it_moves(write_rules):
    game = hints(write_rules)
    state = dealt_a_red_card(game)
    hand = state.zones[("hand", 2)]
    red = [k for k, x in enumerate(hand, start=1) if state.entities[x]["colour"] == "red"]
    play(state, "hint red")
    entry = state.view(2)["zones"]["hand[P2]"]
    assert "items" not in entry
    assert entry["known"] == [{"position": k, "type": "Card", "known": {"colour": "red"}} for k in red]
    text = render_view(state.view(2), view_defaults(game))
    assert "known to you: " + ", ".join(f"Card colour red (#{k})" for k in red) in text
    assert "known" not in state.view(1)["zones"]["hand[P2]"]       # P1 sees the cards whole
    x = hand[red[0] - 1]
    state.move(x, ("hand", 2))                   # it moved (to the top of the same hand): forgotten, as a `reveal`
    assert state.shown_to.get(x) is None
    assert len(state.view(2)["zones"]["hand[P2]"].get("known", [])) == len(red) - 1


def test_what_was_told_counts_as_seen_and_nothing_more(write_rules):
    mine = "var noted[Player]: Colour? owner = none\nvar rank_noted[Player]: int owner = 0"
    assert verify(hints(write_rules, mine, "noted[next(current)] = x.colour"), games=15, leaks="flows").failures == []
    leaky = verify(hints(write_rules, mine, "rank_noted[next(current)] = x.rank"), games=15, leaks="flows")
    assert leaky.failures and {f.kind for f in leaky.failures} == {"leak"}


def test_the_search_bots_keep_what_the_owner_was_told(write_rules):
    game = hints(write_rules)
    state = dealt_a_red_card(game)
    play(state, "hint red")
    colours = [state.entities[x]["colour"] for x in state.zones[("hand", 2)]]
    ranks = set()
    for k in range(30):
        sample = determinization(state, 2, random.Random(k))
        hand = sample.zones[("hand", 2)]
        for x, colour in zip(hand, colours):
            if colour == "red":
                assert sample.entities[x]["colour"] == "red"
        ranks.add(tuple(sample.entities[x]["rank"] for x in hand))
        assert sample.zones[("hand", 1)] == state.zones[("hand", 1)]
    assert len(ranks) > 1


def test_a_told_attribute_reaches_the_web_page_of_those_told_only(write_rules):
    from referee.interpreter.web.app import table_info
    from referee.interpreter.web.html import page
    from referee.interpreter.web.table import Table
    game = hints(write_rules)
    seed = dealt_a_red_card(game).seed
    t = Table("hints-1", game, str(write_rules(HINTS.replace("EXTRA", "").replace("TOLD", ""))), seed, {})
    t.play(1, "hint red")
    info = table_info(game)
    assert "known to you: Card colour red" in page(t.observation(2), info, "/static")
    assert "known to you" not in page(t.observation(1), info, "/static")


def test_an_others_variable_is_seen_by_every_seat_but_its_own_and_drawn_again_for_it(write_rules):
    rules = HATS.replace("ACTION", FAIR).replace("var rounds: int = 0",
                                                 "var rounds: int = 0\nvar mark[Player]: int in 1..9 others = 5")
    game, diagnostics, _ = load_game(str(write_rules(rules)), players=3)
    assert not diagnostics, diagnostics
    state = game.new_initial_state(seed=1)
    for seat in game.seats:
        shown = state.view(seat)["vars"]
        assert f"mark[P{seat}]" not in shown
        assert all(shown[f"mark[P{other}]"] == "5" for other in game.seats if other != seat)
    drawn = {determinization(state, 2, random.Random(k)).vars.get(("mark", 2), 5) for k in range(30)}
    assert len(drawn) > 1
    assert {determinization(state, 2, random.Random(k)).vars.get(("mark", 1), 5) for k in range(10)} == {5}


def test_the_search_bots_play_a_game_with_others_zones_and_told_attributes(write_rules):
    from referee.interpreter.play.bots import ISMCTSBot
    game = hints(write_rules)
    state = game.new_initial_state(seed=2)
    bot = ISMCTSBot(seed=1, iterations=30)
    while not state.is_terminal():
        state.apply(bot.choose(state))
    assert state.is_terminal()


def test_no_seat_gets_through_the_web_table_what_it_may_not_see(write_rules, monkeypatch):
    """The web leak check of test_web_leaks (every seat and a spectator against the leak
    finder's twins, over HTTP: page, state.json, events, answers) on a game of `others` hands
    and told attributes."""
    from . import test_web_leaks as web_leaks
    from referee.interpreter.web.table import Table
    path = write_rules(HINTS.replace("EXTRA", "").replace("TOLD", ""))
    game = hints(write_rules)
    original = web_leaks.table

    def table(name, seed=1, players=None, **options):
        if name != "hints":
            return original(name, seed=seed, players=players, **options)
        return Table("hints-1", game, str(path), seed, {})
    monkeypatch.setattr(web_leaks, "table", table)
    counts = web_leaks.check_game("hints", 2, 8, dealt_a_red_card(game).seed)
    assert counts["steps"] == 8 and counts["exchanges"] > 0

    def leaky(self, seat):          # a page that also says what the seat wears: caught
        observed = Table.observation(self, seat)
        observed["worn"] = [self.state.entities[x]["__label__"] for x in self.state.zones.get(("hand", seat), ())]
        return observed
    with pytest.raises(AssertionError, match="exchanged"):
        web_leaks.check_game("hints", 2, 2, 1, leaky_observation=leaky)
