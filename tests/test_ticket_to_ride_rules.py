"""One scenario test per numbered rule of Ticket to Ride (docs/games/ticket-to-ride.md,
TR-1..TR-16): hands and face-up cards arranged from the deck, routes given owners, moves played
by name, what each seat is shown checked in its view. The map's routes and the tickets are
checked against the tables of the rules document (the figures it states, counted). Then the
leak probes and properties over random games at every player count."""
from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.interpreter.engine import load_game
from referee.interpreter.play.bots import ISMCTSBot, RandomBot
from referee.interpreter.tools.leaks import exchange_twins
from referee.interpreter.runtime import random_source
from referee.interpreter.tools.verify import verify

try:
    from scenario import Scenario, leaks_along_random_games, planted, play_out
except ImportError:  # tests/ imported as a package
    from tests.scenario import Scenario, leaks_along_random_games, planted, play_out

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "games" / "ticket-to-ride.rules"
SPEC = ROOT / "docs" / "games" / "ticket-to-ride.md"
COLOURS = ["purple", "white", "blue", "yellow", "orange", "black", "red", "green"]
ROUTE_POINTS = {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15}


def new(players=2, seed=0) -> Scenario:
    """A game past the first choice of tickets (every player keeps the three dealt)."""
    sc = Scenario.new(RULES, players=players, seed=seed)
    for _ in range(players):
        sc.play(max(sc.moves(), key=lambda m: m.count(",")))
    return sc


def me(sc) -> int:
    return sc.s.current_player()


def route(sc, label: str) -> int:
    return sc.one("Route", label=label)


def attribute(sc, eid, name):
    return sc.s.entities[eid][name]


def cards(sc, *colours) -> list:
    """Train cards of these colours, taken from the discards or the draw pile (not moved yet)."""
    out = []
    for colour in colours:
        pool = [x for x in sc.find("TrainCard", "deck", colour=colour) + sc.find("TrainCard", "discards", colour=colour)
                if x not in out]
        assert pool, f"no {colour} card left outside the hands"
        out.append(pool[-1])
    return out


def hand(sc, p, *colours) -> list:
    """Make p's hand exactly these colours; the old hand goes to the discards."""
    ids = cards(sc, *colours)
    sc.fill(("hand", p), ids, spill="discards")
    return ids


def face_up(sc, *colours) -> list:
    ids = cards(sc, *colours)
    sc.fill("face_up", ids, spill="discards")
    return ids


def deck_top(sc, *colours) -> list:
    """Put cards of these colours on top of the draw pile, the last named on top."""
    ids = cards(sc, *colours)
    sc.put(ids, "deck")
    return ids


def give(sc, p, *labels):
    """Routes claimed by p: their trains laid, their points scored."""
    for label in labels:
        r = route(sc, label)
        sc.set_var(("owner", r), p)
        sc.set_var(("trains", p), sc.var(("trains", p)) - attribute(sc, r, "length"))
        sc.set_var(("points", p), sc.var(("points", p)) + ROUTE_POINTS[attribute(sc, r, "length")])


def ticket(sc, origin: str, goal: str) -> int:
    return next(t for t in sc.find("Ticket") if sc.label(t).startswith(f"{origin}-{goal} "))


def hold_tickets(sc, p, *pairs) -> list:
    ids = [ticket(sc, a, b) for a, b in pairs]
    sc.fill(("tickets", p), ids, spill="ticket_deck")
    return ids


def end_game(sc):
    """Make the current turn the last one and play it: the final scoring runs."""
    sc.set_var("final_turns", 1)
    while not sc.s.is_terminal():
        sc.play(next(m for m in sc.moves() if m.startswith("draw from") or m.startswith("take ")
                     or m == "pass"))


def claims(sc, label: str) -> set:
    return {m for m in sc.moves() if m.startswith(f"claim {label} with")}


def spec_routes() -> list:
    """The routes of the rules document's table: (a, b, colour, length) rows."""
    rows = re.findall(r"^\| (\w+) \| (\w+) \| (\w+) \| (\d) \|$", SPEC.read_text(), re.M)
    return [(a, b, c, int(n)) for a, b, c, n in rows]


def spec_tickets() -> list:
    rows = re.findall(r"^\| (\w+) \| (\w+) \| (\d+) points \|$", SPEC.read_text(), re.M)
    return [(a, b, int(n)) for a, b, n in rows]


def ends(sc, r) -> tuple:
    return tuple(sc.label(c) for c in attribute(sc, r, "ends"))


# ---- the numbered rules ----
def test_TR01_a_coloured_route_takes_its_colour_a_grey_one_any_one_colour_locomotives_are_wild():
    sc = new()
    p = me(sc)
    hand(sc, p, "red", "red", "blue", "locomotive")
    assert claims(sc, "sault_st_marie-toronto") == {      # grey, 2 spaces
        "claim sault_st_marie-toronto with 2 red and 0 locomotives",
        "claim sault_st_marie-toronto with 1 red and 1 locomotives",
        "claim sault_st_marie-toronto with 1 blue and 1 locomotives"}
    assert claims(sc, "boston-new_york/2") == {           # red, 2 spaces
        "claim boston-new_york/2 with 2 red and 0 locomotives",
        "claim boston-new_york/2 with 1 red and 1 locomotives"}
    assert claims(sc, "boston-new_york") == {             # yellow: only with locomotives, and one is too few
        m for m in () }
    hand(sc, p, "locomotive", "locomotive")
    assert claims(sc, "boston-new_york") == {"claim boston-new_york with 0 yellow and 2 locomotives"}
    assert claims(sc, "sault_st_marie-toronto") == {"claim sault_st_marie-toronto with 0 grey and 2 locomotives"}


def test_TR02_the_map_has_36_cities_100_routes_22_double_routes_as_the_rules_document_lists():
    sc = new()
    routes = sc.find("Route")
    assert len(sc.find("City")) == 36 and len(routes) == 100
    table = spec_routes()
    assert len(table) == 100
    assert [ends(sc, r) + (str(attribute(sc, r, "colour")), attribute(sc, r, "length")) for r in routes] == \
        [(a, b, c, n) for a, b, c, n in table]
    pairs = Counter(frozenset(ends(sc, r)) for r in routes)
    assert len(pairs) == 78 and sum(1 for n in pairs.values() if n == 2) == 22 and max(pairs.values()) == 2
    assert sum(attribute(sc, r, "length") for r in routes) == 309
    for colour in COLOURS:                                # each colour: 7 routes, 27 spaces
        mine = [r for r in routes if str(attribute(sc, r, "colour")) == colour]
        assert len(mine) == 7 and sum(attribute(sc, r, "length") for r in mine) == 27
    grey = [r for r in routes if str(attribute(sc, r, "colour")) == "grey"]
    assert len(grey) == 44 and sum(attribute(sc, r, "length") for r in grey) == 93
    twin = route(sc, "montreal-boston/2")
    assert sc.call("twins", r=twin) == [route(sc, "montreal-boston")]
    assert sc.call("twins", r=route(sc, "montreal-new_york")) == []


def test_TR03_110_train_cards_and_the_30_tickets_of_the_rules_document():
    sc = Scenario.new(RULES, players=3, seed=1)
    colours = Counter(str(attribute(sc, c, "colour")) for c in sc.find("TrainCard"))
    assert colours == {**{c: 12 for c in COLOURS}, "locomotive": 14}
    tickets = sorted(sc.label(t) for t in sc.find("Ticket"))
    assert len(tickets) == 30
    assert tickets == sorted(f"{a}-{b} {n}" for a, b, n in spec_tickets())


def test_TR04_hands_are_private_the_deck_hidden_face_up_cards_and_discards_public():
    sc = new(players=3, seed=2)
    p = me(sc)
    other = p % 3 + 1
    assert sc.seen(p, f"hand[P{p}]") == sc.labels(("hand", p))
    assert sc.seen(other, f"hand[P{p}]") is None
    for seat in (1, 2, 3):
        assert sc.seen(seat, "deck") is None
        assert sc.seen(seat, "face_up") == sc.labels("face_up")
    hand(sc, p, "red", "red")
    sc.play("claim boston-new_york/2 with 2 red and 0 locomotives")
    assert sc.seen(other, "discards")[-2:] == ["red", "red"]
    # an empty draw pile: the discards are shuffled into a new one
    q = me(sc)
    sc.empty("deck", "discards")
    before = len(sc.zone("discards"))
    sc.play("draw from the deck")
    assert len(sc.zone(("hand", q))) == 5 and len(sc.zone("deck")) == before - 1
    assert sc.zone("discards") == []


def test_TR05_45_trains_4_cards_5_face_up_3_tickets_dealt():
    for players in (2, 5):
        sc = Scenario.new(RULES, players=players, seed=players)
        for p in range(1, players + 1):
            assert sc.var(("trains", p)) == 45
            assert len(sc.zone(("hand", p))) == 4
            assert len(sc.zone(("offered", p))) == 3 and sc.zone(("tickets", p)) == []
        assert len(sc.zone("face_up")) == 5
        assert len(sc.zone("deck")) + len(sc.zone("discards")) == 110 - 4 * players - 5
        assert len(sc.zone("ticket_deck")) == 30 - 3 * players


def test_TR06_two_cards_a_face_up_locomotive_is_the_whole_draw_and_never_the_second():
    sc = new()
    p = me(sc)
    face_up(sc, "red", "blue", "locomotive", "green", "white")
    deck_top(sc, "orange", "black")
    sc.play("take red")
    assert me(sc) == p and sorted(sc.labels("face_up")) == ["black", "blue", "green", "locomotive", "white"]
    assert not sc.can("take locomotive") and not any(m.startswith("claim") for m in sc.moves())
    assert not sc.can("draw destination tickets")
    sc.play("take black")
    assert me(sc) != p                                   # two cards: the turn is over
    q = me(sc)
    sc.play("take locomotive")                           # a face-up locomotive first: the whole draw
    assert me(sc) == p and "locomotive" in sc.labels(("hand", q))
    # a locomotive drawn blind counts as one card
    deck_top(sc, "locomotive")
    sc.play("draw from the deck")
    assert me(sc) == p and "locomotive" in sc.labels(("hand", p))


def test_TR06_three_face_up_locomotives_are_all_discarded_and_five_new_cards_turned_up():
    sc = new()
    face_up(sc, "red", "locomotive", "locomotive", "green", "white")
    deck_top(sc, "purple", "purple", "yellow", "blue", "black", "locomotive")
    sc.play("take red")                                  # the replacement is a third locomotive
    assert sorted(sc.labels("face_up")) == ["black", "blue", "purple", "purple", "yellow"]
    assert sorted(sc.labels("discards")[-5:]) == ["green", "locomotive", "locomotive", "locomotive", "white"]
    assert "three locomotives face up" in " ".join(sc.s.log)


def test_TR06_no_redeal_when_the_cards_left_could_not_show_fewer_locomotives():
    sc = new()
    face_up(sc, "red", "locomotive", "locomotive", "green", "white")
    deck_top(sc, "locomotive")
    for x in sc.zone("deck")[:-1] + sc.zone("discards"):   # every other card into a hand
        sc.put([x], ("hand", 3 - me(sc)))
    sc.play("take red")
    assert sorted(sc.labels("face_up")) == ["green", "locomotive", "locomotive", "locomotive", "white"]
    assert sc.s.broken_invariants() == []


def test_TR06_face_up_places_left_empty_are_filled_again_once_a_claim_discards_cards():
    sc = new()
    p = me(sc)
    hand(sc, p, "red", "red")
    face_up(sc, "blue", "green", "white")
    for x in sc.zone("deck") + sc.zone("discards"):      # no card left to draw
        sc.put([x], ("hand", 3 - p))
    assert not sc.can("draw from the deck")
    sc.play("claim boston-new_york/2 with 2 red and 0 locomotives")
    assert sorted(sc.labels("face_up")) == ["blue", "green", "red", "red", "white"]


def test_TR07_a_random_first_player_then_clockwise_one_action_a_turn():
    starters = {Scenario.new(RULES, players=3, seed=s).var("starter") for s in range(12)}
    assert starters == {1, 2, 3}
    sc = new(players=3, seed=4)
    first = me(sc)
    hand(sc, first, "red", "red", "red")
    sc.play("claim boston-new_york/2 with 2 red and 0 locomotives")
    assert me(sc) == first % 3 + 1                       # a claim is the whole turn
    sc.play("draw destination tickets")
    sc.play(sc.moves()[0])
    assert me(sc) == (first + 1) % 3 + 1                 # so is drawing tickets


def test_TR08_claiming_pays_the_cards_to_the_discards_and_lays_trains():
    sc = new()
    p = me(sc)
    hand(sc, p, "white", "white", "white", "locomotive", "locomotive", "red")
    sc.play("claim denver-phoenix with 3 white and 2 locomotives")       # anywhere on the map
    assert sc.labels(("hand", p)) == ["red"]
    assert sorted(sc.labels("discards")[-5:]) == ["locomotive", "locomotive", "white", "white", "white"]
    assert sc.var(("owner", route(sc, "denver-phoenix"))) == p and sc.var(("trains", p)) == 40
    q = me(sc)
    hand(sc, q, "white", "white", "white", "white", "white")
    assert not claims(sc, "denver-phoenix")                               # taken
    sc.set_var(("trains", q), 4)
    assert not claims(sc, "calgary-winnipeg") and claims(sc, "toronto-chicago")   # 6 spaces, 4 trains
    sc.refuse("claim toronto-chicago with 3 white and 1 locomotives")      # no locomotive in hand


def test_TR09_a_route_scores_by_its_length():
    sc = new()
    for label, length in (("vancouver-seattle", 1), ("boston-new_york", 2), ("vancouver-calgary", 3),
                          ("calgary-helena", 4), ("atlanta-miami", 5), ("calgary-winnipeg", 6)):
        p = me(sc)
        before = sc.var(("points", p))
        hand(sc, p, *["locomotive"] * length)
        colour = str(attribute(sc, route(sc, label), "colour"))
        sc.play(f"claim {label} with 0 {colour} and {length} locomotives")
        assert sc.var(("points", p)) - before == ROUTE_POINTS[length]
        assert sc.s.view(3 - p)["vars"][f"points[P{p}]"] == str(before + ROUTE_POINTS[length])


def test_TR10_double_routes_with_two_or_three_players_one_is_closed():
    for players in (2, 3):
        sc = new(players=players)
        p = me(sc)
        give(sc, p, "boston-new_york")
        hand(sc, p, "red", "red")
        assert not claims(sc, "boston-new_york/2")
        q = p % players + 1
        sc.set_var(("owner", route(sc, "boston-new_york")), q)
        assert not claims(sc, "boston-new_york/2")


def test_TR10_double_routes_with_four_or_five_players_never_both_to_one_player():
    for players in (4, 5):
        sc = new(players=players)
        p = me(sc)
        hand(sc, p, "red", "red")
        give(sc, p, "boston-new_york")
        assert not claims(sc, "boston-new_york/2")       # one player may not hold both
        q = p % players + 1
        sc.set_var(("owner", route(sc, "boston-new_york")), q)
        sc.play("claim boston-new_york/2 with 2 red and 0 locomotives")
        assert sc.var(("owner", route(sc, "boston-new_york/2"))) == p


def test_TR11_at_least_two_of_the_first_three_tickets_then_at_least_one_of_three():
    sc = Scenario.new(RULES, players=3, seed=5)
    starter = sc.var("starter")
    for k in range(3):                                   # one after the other, from the first player
        seat = (starter + k - 1) % 3 + 1
        assert me(sc) == seat
        first = sc.moves()
        assert len(first) == 4 and all(m.count(",") >= 1 for m in first)     # 3 pairs and all three
        sc.play(first[0] if k == 0 else first[-1])
        assert sc.zone(("offered", seat)) == [] and len(sc.zone(("tickets", seat))) == (2 if k == 0 else 3)
    p = me(sc)
    assert p == starter
    bottom = sc.zone("ticket_deck")[0]
    sc.play("draw destination tickets")
    offered = sc.labels(("offered", p))
    assert len(offered) == 3 and len(sc.moves()) == 7 and "keep " + offered[1] in sc.moves()
    returned = [x for x in sc.zone(("offered", p)) if sc.label(x) != offered[1]]
    sc.play("keep " + offered[1])
    assert sc.zone("ticket_deck")[:3] == returned + [bottom]          # returned under the pile
    assert offered[1] in sc.labels(("tickets", p)) and me(sc) != p


def test_TR11_fewer_than_three_tickets_left_are_all_drawn():
    sc = new()
    p = me(sc)
    keep = sc.zone("ticket_deck")[-2:]
    sc.fill("ticket_deck", keep, spill=("tickets", 3 - p))
    sc.play("draw destination tickets")
    assert len(sc.zone(("offered", p))) == 2 and len(sc.moves()) == 3
    sc.play(sc.moves()[-1])
    assert sc.zone("ticket_deck") == []
    assert not sc.can("draw destination tickets")


def test_TR11_tickets_are_secret_and_a_kept_choice_shows_the_others_no_ticket():
    sc = new(players=3, seed=6)
    p = me(sc)
    other = p % 3 + 1
    assert sc.seen(p, f"tickets[P{p}]") == sc.labels(("tickets", p))
    assert sc.seen(other, f"tickets[P{p}]") is None and sc.seen(other, "ticket_deck") is None
    sc.play("draw destination tickets")
    assert sc.seen(other, f"offered[P{p}]") is None and sc.seen(p, f"offered[P{p}]") is not None
    sc.play(sc.moves()[0])
    assert sc.s.public_history[-1] == (p, "keeps some of the tickets drawn")


def test_TR12_a_ticket_scores_its_points_when_joined_and_loses_them_when_not():
    sc = new()
    p = me(sc)
    q = 3 - p
    hold_tickets(sc, p, ("denver", "el_paso"), ("boston", "miami"))
    hold_tickets(sc, q, ("kansas_city", "houston"))
    give(sc, p, "denver-santa_fe", "santa_fe-el_paso")
    give(sc, q, "omaha-kansas_city", "oklahoma_city-dallas")          # not joined
    give(sc, p, "kansas_city-oklahoma_city", "dallas-houston")         # another's routes do not count
    end_game(sc)
    assert sc.var(("completed", p)) == 1 and sc.var(("completed", q)) == 0
    routes = {p: 2 + 2 + 2 + 1, q: 1 + 2}
    assert sc.var(("points", q)) == routes[q] - 5 + 10 * 0
    assert sc.var(("points", p)) == routes[p] + 4 - 12 + 10               # and the longest path
    for seat in (1, 2):                                                   # the tickets are revealed
        assert sorted(sc.seen(seat, f"tickets[P{p}]")) == ["boston-miami 12", "denver-el_paso 4"]


def test_TR13_two_trains_or_fewer_give_every_player_one_last_turn():
    sc = new(players=3, seed=7)
    p = me(sc)
    sc.set_var(("trains", p), 3)
    hand(sc, p, "red")
    sc.play("claim vancouver-seattle with 1 red and 0 locomotives")
    assert sc.var(("trains", p)) == 2 and "one last turn" in sc.s.log[-1]
    for _ in range(2):
        assert not sc.s.is_terminal() and me(sc) != p
        sc.play("draw from the deck", "draw from the deck")
    assert me(sc) == p and not sc.s.is_terminal()        # the player who ended it plays once more
    sc.play("draw from the deck", "draw from the deck")
    assert sc.s.is_terminal()


def test_TR14_a_player_who_can_do_nothing_passes_and_a_round_of_passes_ends_the_game():
    sc = new()
    p = me(sc)
    loose = sc.zone("deck") + sc.zone("discards") + sc.zone("face_up")
    for x in loose:
        sc.put([x], ("hand", 3 - p))
    sc.fill(("hand", p), [], spill=("hand", 3 - p))
    sc.empty("ticket_deck", ("tickets", 3 - p))
    assert sc.moves() == ["pass"]
    sc.play("pass")
    assert me(sc) == 3 - p and "pass" not in sc.moves()   # the other can still claim
    sc.set_var(("trains", 3 - p), 0)
    sc.play("pass")
    assert sc.s.is_terminal()


def test_TR15_the_longest_continuous_path_scores_ten_loops_and_revisits_allowed():
    sc = new()
    p = me(sc)
    q = 3 - p
    # a loop Omaha-Kansas City-Denver-Omaha (1 + 4 + 4) and a spur Denver-Santa Fe (2): 11
    give(sc, p, "omaha-kansas_city", "denver-kansas_city", "omaha-denver", "denver-santa_fe")
    give(sc, q, "calgary-winnipeg", "calgary-helena")                     # 10
    assert sc.call("path_length", p=p) == 11 and sc.call("path_length", p=q) == 10
    end_game(sc)
    assert sc.var(("longest", p)) == 11
    assert sc.var(("points", p)) == 1 + 7 + 7 + 2 + 10 - sum(
        attribute(sc, t, "points") for t in sc.zone(("tickets", p)))
    sc = new()
    give(sc, 1, "calgary-winnipeg")
    give(sc, 2, "helena-duluth")                                          # a tie: both score it
    end_game(sc)
    for p in (1, 2):
        assert sc.var(("points", p)) == 15 + 10 - sum(attribute(sc, t, "points") for t in sc.zone(("tickets", p)))


def test_TR16_most_points_then_most_tickets_then_the_longest_path():
    sc = new()
    hold_tickets(sc, 1, ("denver", "el_paso"))
    hold_tickets(sc, 2, ("kansas_city", "houston"))
    give(sc, 1, "denver-santa_fe", "santa_fe-el_paso", "vancouver-seattle")   # 2+2+1 +4 = 9, path 5
    give(sc, 2, "calgary-helena", "vancouver-calgary")                        # 7+4 -5 +10 = 16, path 7
    end_game(sc)
    assert sc.s.winners == [2]
    sc = new()                                                                # tied points: the tickets
    hold_tickets(sc, 1, ("denver", "el_paso"))
    hold_tickets(sc, 2, ("new_york", "atlanta"))
    give(sc, 1, "denver-santa_fe", "santa_fe-el_paso")                        # 4 + 4, path 4
    give(sc, 2, "boston-new_york", "montreal-boston")                         # 4 - 6 ..
    sc.set_var(("points", 2), 2 + 2 + 10)                                     # .. + 10 more on the track
    end_game(sc)
    assert [sc.var(("points", p)) for p in (1, 2)] == [18, 18] and sc.s.winners == [1]


# ---- hidden information ----
@pytest.mark.slow
def test_TR04_no_view_or_move_tells_a_seat_another_hand_the_deck_or_the_tickets():
    game = load_game(str(RULES), (), 3)[0]
    assert leaks_along_random_games(game, seeds=range(2), moves=240, every=20) == []


@pytest.mark.slow
def test_TR11_a_score_that_counted_the_tickets_during_the_game_would_be_found(tmp_path):
    """Why the tickets are scored only at the end: a score that counted them as they are
    completed would tell the others which tickets a player holds."""
    leaky = planted(RULES, tmp_path, "score p: points[p]", "score p: points[p] + ticket_score(p)")
    game, diagnostics, _ = load_game(str(leaky), (), 2)
    assert diagnostics == []
    assert any(f.kind == "leak" for f in verify(game, games=2, shrink_failures=False).failures)


# ---- properties over whole games ----
def finished_game(players, seed) -> Scenario:
    """A game of uniformly random moves, played to its end."""
    game = load_game(str(RULES), (), players)[0]
    return Scenario(play_out(game.new_initial_state(seed), random.Random(seed)))


@pytest.mark.slow
@given(players=st.integers(2, 5), seed=st.integers(0, 10_000))
@settings(max_examples=6, deadline=None)
def test_TR13_random_games_end_on_the_rule_and_the_winners_follow_the_tie_breaks(players, seed):
    sc = finished_game(players, seed)
    seats = range(1, players + 1)
    assert min(sc.var(("trains", p)) for p in seats) <= 2 or sc.var("passes") >= players
    ranks = {p: (sc.var(("points", p)), sc.var(("completed", p)), sc.var(("longest", p)) == max(
        sc.var(("longest", q)) for q in seats)) for p in seats}
    assert sc.s.winners == [p for p in seats if ranks[p] == max(ranks.values())]


# ---- bots ----
@pytest.mark.slow
def test_TR11_ismcts_decides_the_same_whatever_the_others_hold_and_the_decks_hide():
    """The search player's choice depends only on what its seat sees: the same on twin states
    whose other hands, tickets and hidden piles are dealt again."""
    game = load_game(str(RULES), (), 2)[0]
    state, bot = game.new_initial_state(3), RandomBot(3)
    compared = 0
    for step in range(14):
        if step in (2, 9, 13):
            seat = state.current_player()
            searched = ISMCTSBot(5, iterations=8).search(state)
            for twin, _, _ in exchange_twins(state, seat, random_source.seed_state(step), 2):
                assert ISMCTSBot(5, iterations=8).search(twin) == searched
                compared += 1
        state.apply(bot.choose(state))
    assert compared >= 3


@pytest.mark.slow
def test_TR16_ismcts_and_random_bots_play_a_whole_game():
    game = load_game(str(RULES), (), 2)[0]
    state = game.new_initial_state(11)
    search, rand = ISMCTSBot(11, iterations=4), RandomBot(11)
    searched = 0
    while not state.is_terminal():                     # the search player's first 12 decisions
        if state.current_player() == 1 and searched < 12:
            searched += 1
            move = search.choose(state)
            assert move.name in state.legal_move_names()
        else:
            move = rand.choose(state)
        state.apply(move)
        assert state.broken_invariants() == []
    assert state.winners and searched == 12


# ---- a simple strategy beats random play ----
def greedy(state) -> str:
    """Claim the longest route it can (with the fewest locomotives), else draw blind; keep as
    few tickets as allowed and never draw more. Reads only the mover's own legal moves."""
    moves = state.legal_move_names()
    claims = [m for m in moves if m.startswith("claim ")]
    if claims:
        def spent(move):
            coloured, locomotives = re.search(r"with (\d+) \w+ and (\d+) locomotives", move).groups()
            return int(coloured) + int(locomotives), -int(locomotives)
        return max(claims, key=spent)
    for wanted in ("draw from the deck", "pass"):
        if wanted in moves:
            return wanted
    return next((m for m in moves if m != "draw destination tickets"), moves[0])


@pytest.mark.slow
def test_TR09_claiming_long_routes_and_few_tickets_beats_random_play():
    game = load_game(str(RULES), (), 2)[0]
    wins = 0
    games = 30
    for seed in range(games):
        state, rng = game.new_initial_state(seed), random.Random(seed)
        seat = 1 + seed % 2                              # the strategy plays each seat
        while not state.is_terminal():
            state.apply(greedy(state) if state.current_player() == seat else rng.choice(state.legal_moves()))
        wins += state.winners == [seat]
    assert wins >= 0.8 * games, wins
