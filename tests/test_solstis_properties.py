"""Properties of Solstis over random games (hypothesis chooses the seed, the variant and every
move by its index, so a failure shrinks to a short list of move indexes).

Checked at every position: the 48 tiles, the 12 rainbows and the spirits are all accounted for;
a panorama holds a tile only at its home position and one thing per position; at most one
spirit is met per turn; what each player's view shows. Checked per game: it ends, and the same
seed with the same moves gives the same game.
"""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.scenario import load
from tests.test_properties import ids_in

RULES = Path(__file__).resolve().parents[1] / "games" / "solstis.rules"
MOVE_BOUND = 600
EXAMPLES = settings().max_examples      # of the hypothesis profile (tests/conftest.py)
TILE_ZONES = {"bag", "display", "hand", "panorama", "discard"}
SPIRIT_ZONES = {"spirit_pile", "spirit_display", "spirit_at", "drawn", "kept"}


def family(key) -> str:
    return key if isinstance(key, str) else key[0]


def zone_counts(s, type_name) -> Counter:
    """How many components of a type lie in each zone family."""
    counts = Counter()
    for key, items in s.zones.items():
        counts[family(key)] += sum(1 for x in items if s.entities[x]["__type__"] == type_name)
    return +counts


def check_accounted_for(s, discovery):
    tiles = zone_counts(s, "Tile")
    assert sum(tiles.values()) == 48 and set(tiles) <= TILE_ZONES, tiles
    assert sum(zone_counts(s, "Rainbow").values()) == 12
    spirits = zone_counts(s, "Spirit")
    assert sum(spirits.values()) == (14 if discovery else 15) and set(spirits) <= SPIRIT_ZONES, spirits
    evil = [x for x in s.by_type["Spirit"] if s.entities[x]["animal"] == "evil"]
    for x in evil:
        assert family(s.loc[x]) in ("spirit_pile", "kept", "drawn"), "the evil spirit is never placed or face up"


def check_panoramas(s):
    occupied = Counter()
    for key, items in s.zones.items():
        if family(key) in ("panorama", "rainbow_at") and items:
            _, player, cell = key
            occupied[(player, cell)] += len(items)
            for x in items:
                if s.entities[x]["__type__"] == "Tile":
                    assert s.entities[x]["home"] == cell, "a tile only at its home position"
    assert all(n == 1 for n in occupied.values()), "one tile or rainbow per position"


def placed_spirits(s) -> int:
    return sum(len(items) for key, items in s.zones.items() if family(key) == "spirit_at")


def hidden_ids(s, player) -> set:
    """Entities the player must not see: the opponent's hand and drawn spirits, the draw pile,
    the spirit pile and every display tile under the top one."""
    out = set()
    for key, items in s.zones.items():
        name = family(key)
        if name in ("bag", "spirit_pile"):
            out.update(items)
        elif name in ("hand", "drawn") and key[1] != player:
            out.update(items)
        elif name == "display":
            out.update(items[:-1])
    return out


def check_views(s):
    for player in (1, 2):
        view = s.view(player)
        hidden = hidden_ids(s, player)
        assert not ids_in(view) & hidden, f"P{player} sees hidden components"
        # tiles and spirits are all different: a hidden one's label appears nowhere in the view
        texts = [item["label"] for entry in view["zones"].values() for item in entry.get("items", ())]
        texts += [m for board in view["boards"].values() for cell in board["cells"] for m in cell["marks"]]
        texts += view.get("legal_moves", []) + view["log"]
        for x in hidden:
            label = re.compile(rf"\b{re.escape(s.entities[x]['__label__'])}\b")
            assert not any(label.search(t) for t in texts), f"P{player} sees {s.entities[x]['__label__']}"
        for name, entry in view["zones"].items():
            if name in ("bag", "spirit_pile", f"hand[P{3 - player}]", f"drawn[P{3 - player}]"):
                assert "items" not in entry
            if name.startswith("display["):
                assert len(entry.get("items", ())) <= 1, "only the top tile of a column is seen"


def play(data, seed, discovery, check=True):
    game = load(RULES, ("discovery",) if discovery else (), 2)
    s = game.new_initial_state(seed=seed)
    indexes = []
    met = Counter()
    while not s.is_terminal():
        assert len(indexes) < MOVE_BOUND, "the game does not end"
        moves = s.legal_moves()
        assert moves, "a player to move always has a legal move"
        index = data.draw(st.integers(0, len(moves) - 1), label="move") if data is not None else 0
        turn, before = s.turn, placed_spirits(s)
        s.apply(moves[index])
        indexes.append(index)
        met[turn] += placed_spirits(s) - before
        if check:
            check_accounted_for(s, discovery)
            check_panoramas(s)
            assert s.broken_invariants() == []
    assert all(n <= 1 for n in met.values()), f"more than one spirit in a turn: {met}"
    return s, indexes


@settings(max_examples=3 * EXAMPLES, deadline=None)
@given(data=st.data(), seed=st.integers(0, 10_000), discovery=st.booleans())
@pytest.mark.slow
def test_random_games_keep_every_invariant_and_end(data, seed, discovery):
    s, _ = play(data, seed, discovery)
    assert s.is_terminal() and s.winners
    assert s.vars.get("passes", 0) >= 2, "the game ends when both players have passed in a row"


@settings(max_examples=EXAMPLES, deadline=None)
@given(data=st.data(), seed=st.integers(0, 10_000))
@pytest.mark.slow
def test_views_hide_hands_pile_and_face_down_tiles(data, seed):
    game = load(RULES, (), 2)
    s = game.new_initial_state(seed=seed)
    steps = 0
    while not s.is_terminal() and steps < MOVE_BOUND:
        check_views(s)
        moves = s.legal_moves()
        s.apply(moves[data.draw(st.integers(0, len(moves) - 1), label="move")])
        steps += 1
    check_views(s)


@settings(max_examples=EXAMPLES, deadline=None)
@given(data=st.data(), seed=st.integers(0, 10_000))
def test_same_seed_and_moves_same_game(data, seed):
    first, indexes = play(data, seed, False, check=False)
    game = load(RULES, (), 2)
    second = game.new_initial_state(seed=seed)
    for index in indexes:
        second.apply(second.legal_moves()[index])
    assert second.is_terminal()
    assert second.history == first.history and second.log == first.log
    assert second.scores() == first.scores() and second.winners == first.winners
    assert second.view(1) == first.view(1) and second.view(2) == first.view(2)
    other = game.new_initial_state(seed=seed + 1)
    assert [other.zones.get("bag")] != [game.new_initial_state(seed=seed).zones.get("bag")]
