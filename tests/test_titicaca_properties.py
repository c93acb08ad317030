"""Properties of Titicaca over random games (hypothesis): 2 to 5 players, any seed, any moves.

Checked at every position of each game, from the state itself (not from the rules' own
functions): the regions partition the land hexes that hold villages and each is connected;
weapons never go below 0 and points never decrease; another player's sealed bid and another player's temple values leave
no trace in a player's view (the view is the same whatever they are). And for whole games:
every game ends, the same seed and moves give the same game, and replaying the move names
reproduces it.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from referee.dsl.types import Named

from hypothesis import given
from hypothesis import strategies as st

try:
    from scenario import load
except ImportError:  # tests/ imported as a package
    from tests.scenario import load

RULES = Path(__file__).resolve().parents[1] / "games" / "titicaca.rules"
MOVE_BOUND = 1500          # a game of 5 players places at most 33 villages: far fewer moves

# (players, seed, move policy, thrifty): thrifty players mostly bid 1, so that their games last
# until the land is full and past round 15; the others bid anything and run out of weapons
games = st.tuples(st.integers(2, 5), st.integers(0, 10_000), st.integers(0, 2**32 - 1), st.booleans())


def game(players):
    return load(RULES, players=players)


def view_text(s, player) -> str:
    return json.dumps(s.view(player), sort_keys=True, default=str)


def regions_ok(s):
    """Every land hex with a village is in exactly one region, every region is connected and
    named by one of its own hexes; empty hexes are in none."""
    geometry = s.game.geometries["Map"]
    members = {}
    for h in geometry.cells:
        entity = s.entities[h]
        area = s.vars.get(("area", h))
        occupied = bool(s.zones.get(("site", h)))
        if entity["terrain"] == "lake" or not occupied:
            assert area is None, f"hex {entity['__label__']} without a village is in a region"
            continue
        assert area is not None, f"village on {entity['__label__']} outside every region"
        members.setdefault(area, set()).add(h)
    for name, cells in members.items():
        assert name in cells, "a region is named by a hex outside it"
        seen, frontier = {name}, [name]
        while frontier:
            for n in geometry.neighbors[frontier.pop()]:
                if n in cells and n not in seen:
                    seen.add(n)
                    frontier.append(n)
        assert seen == cells, f"region of {s.entities[name]['__label__']} is not connected"


def weapons_ok(s):
    for p in range(1, s.game.num_players + 1):
        assert s.vars.get(("weapons", p), 20) >= 0


def temple_values_unseen(s):
    """Swapping the values of one player's two temples changes nothing the others see."""
    for owner in range(1, s.game.num_players + 1):
        mine = [t for t in s.by_type.get("Temple", ()) if s.entities[t]["owner"] == owner]
        swapped = s.clone()
        swapped.entities = list(s.entities)
        a, b = mine
        for x, y in ((a, b), (b, a)):
            entity = dict(s.entities[x])
            entity["value"], entity["__label__"] = s.entities[y]["value"], s.entities[y]["__label__"]
            swapped.entities[x] = entity
        swapped.changed()       # (its labels changed by hand: its moves are named anew)
        for q in range(1, s.game.num_players + 1):
            if q != owner:
                assert view_text(swapped, q) == view_text(s, q), f"P{q} sees the values of P{owner}'s temples"
        assert view_text(swapped, owner) != view_text(s, owner), "the owner sees its own temples' values"


def bid_unseen(s, move, rng):
    """A sealed bid: the others' views are the same whatever was bid, until all have bid."""
    p = s.current_player()
    others = [m for m in s.legal_moves() if m.name != move.name]
    if not others:
        return
    one, two = s.clone(), s.clone()
    one.apply(move)
    two.apply(others[rng.randrange(len(others))])
    if not one.sealed():
        return          # p bid last: the bids are revealed together
    for q in range(1, s.game.num_players + 1):
        if q != p:
            assert view_text(one, q) == view_text(two, q), f"P{q} sees P{p}'s sealed bid"
    assert view_text(one, p) != view_text(two, p)


def play(players, seed, policy, thrifty, check=None):
    """A whole random game: the state at its end. `check(state, move, rng)` runs before each move."""
    s = game(players).new_initial_state(seed=seed)
    rng = random.Random(policy)
    for _ in range(MOVE_BOUND):
        if s.is_terminal():
            return s
        moves = s.legal_moves()
        assert moves, "a player must move but has no legal move"
        move = moves[rng.randrange(len(moves))]
        if thrifty and s.sealed() and rng.random() < 0.9:
            move = moves[0]
        if check is not None:
            check(s, move, rng)
        s.apply(move)
    raise AssertionError(f"the game did not end within {MOVE_BOUND} moves")


@given(games)
@pytest.mark.slow
def test_regions_weapons_and_secrets_hold_at_every_position(config):
    players, seed, policy, thrifty = config
    steps = {"sealed": 0, "temples": 0}
    last_points = [0] * players

    def check(s, move, rng):
        regions_ok(s)
        weapons_ok(s)
        now = [s.vars.get(("points", p), 0) for p in range(1, players + 1)]
        assert all(a >= b for a, b in zip(now, last_points)), "points never decrease"
        last_points[:] = now
        if s.sealed():
            steps["sealed"] += 1
            bid_unseen(s, move, rng)
        elif move.name.startswith("build temple") or rng.random() < 0.1:
            steps["temples"] += 1
            temple_values_unseen(s)

    end = play(players, seed, policy, thrifty, check)
    regions_ok(end)
    weapons_ok(end)
    temple_values_unseen(end)
    assert steps["sealed"] >= players          # at least round 1 was bid
    # the end is reached for a reason of T-26: the land is full, or nobody can bid
    empty = [h for h in end.game.geometries["Map"].cells
             if end.entities[h]["terrain"] != "lake" and not end.zones.get(("site", h))]
    can_bid = [p for p in range(1, players + 1)
               if end.vars.get(("weapons", p), 0) > 0 and end.zones.get(("supply", p))]
    assert not empty or not can_bid
    assert end.winners and set(end.winners) <= set(range(1, players + 1))


@given(games)
def test_same_seed_and_moves_same_game_and_the_history_replays(config):
    players, seed, policy, thrifty = config
    first = play(players, seed, policy, thrifty)
    second = play(players, seed, policy, thrifty)
    assert first.history == second.history and first.winners == second.winners
    assert [view_text(first, p) for p in range(1, players + 1)] == \
           [view_text(second, p) for p in range(1, players + 1)]
    # replaying the move names from the same seed reproduces the game
    replay = game(players).new_initial_state(seed=seed)
    for name in first.history:
        replay.apply(name)
    assert replay.is_terminal() and replay.history == first.history
    assert replay.scores() == first.scores() and replay.winners == first.winners
    assert replay.public_history == first.public_history
    assert [view_text(replay, p) for p in range(1, players + 1)] == \
           [view_text(first, p) for p in range(1, players + 1)]


@given(games)
def test_the_places_offered_are_the_spots_in_their_order_past_round_15_too(config):
    """`place` offers the spots, as they are listed: the round's empty shore, or after round 15
    every empty land hex."""
    players, seed, policy, thrifty = config
    seen = {"place": 0}

    def check(s, move, rng):
        places = [m.name for m in s.legal_moves() if m.name.startswith("place on ")]
        if places:
            seen["place"] += 1
            spots = s.game.functions["spots"](s, {})
            assert places == [f"place on {s.game.labeler(Named('Map'))(s, h)}" for h in spots]

    play(players, seed, policy, thrifty, check)
    assert seen["place"] > 0
