"""Properties of the engine over every game (games/*.rules, games/variants/*.rules) and a small
synthetic game that uses choices, sealed simultaneous moves, optional plays and triggers.

Moves are chosen by index with hypothesis (`data.draw`), so a failure shrinks to a short list of
move indexes (index 0 = the first legal move). Player counts are drawn within the game's range and
every declared option is tried on its own as well as no option (each option and variant in one
property of the five in the suite, in all of them in the sweep: configurations_of).
"""
from __future__ import annotations

import functools
import math
import random
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.dsl.diagnostics import RulesError
from referee.interpreter.engine import load_game
from referee.interpreter.engine.moves import compute_legal_moves
from referee.interpreter.engine.views import shown_to

from . import scenario
from .conftest import header
from .sweeps import sampled

ROOT = Path(__file__).resolve().parent.parent
MOVE_BOUND = 3000          # every game must end within this many moves
PREFIX_BOUND = 150         # tests that look closely at each position play at most this many
EXAMPLES = settings().max_examples
MOVES_PER_PROPERTY = 1_000  # what one property's examples play in one configuration (run_property)

EXERCISE = '''# A small game that uses the engine's less common parts: choices inside actions, sealed
# simultaneous moves, optional plays, a trigger, hidden and owner-only zones and variables.
game "Exercise" {
  players 2..4
  score p: points[p]
}
param goal = 6
option long "play to a higher goal" { goal = 9 }
enum Colour { red, green, blue }
component Chip { colour: Colour, value: int } label "{colour} {value}"
zone bag: pile of Chip hidden
zone hand[Player]: row of Chip owner
zone secret[Player]: set of Chip hidden
zone table: row of Chip public
var points[Player]: int = 0
var bid[Player]: int owner = 0
var note: int hidden = 0
var rounds: int = 0

setup {
  for c in Colour {
    create 4 Chip { colour: c, value: 1 } in bag
    create 2 Chip { colour: c, value: 2 } in bag
  }
  shuffle bag
  for p in players {
    deal 2 from bag to hand[p]
    deal 1 from bag to secret[p]
  }
}

action lay(c in hand[current]) "lay {c}" {
  move c to table
  points[current] += c.value
  note += 1
}
action draw "draw" {
  require size(bag) > 0 else "the bag is empty"
  deal 1 from bag to hand[current]
}
action give "give" {
  require size(hand[current]) > 0 else "nothing to give"
  choose c in hand[current] "which chip?" {
    choose p in players where p != current by current "to whom?" {
      move c to hand[p]
    }
  }
}
action swap "swap" {
  require size(hand[current]) > 0 and size(secret[current]) > 0
  let s = top(secret[current])
  move first(c in hand[current]) to secret[current]
  move s to hand[current]
}
action offer(n in 0..2) "bid {n}" { bid[current] = n }
action pass "pass" { }

trigger recycle when size(table) > 4 {
  for c in table {
    move c under bag
  }
  shuffle bag
}

flow {
  repeat {
    rounds += 1
    simultaneous p in players { play offer }
    for p in players {
      turn p {
        play lay, draw, give, swap, pass
        play optional draw
      }
    }
  } until rounds >= 6 or any(p in players: points[p] >= goal)
}
'''


@functools.lru_cache(maxsize=None)
def exercise_path() -> str:
    directory = Path(tempfile.mkdtemp(prefix="referee-properties-"))
    path = directory / "exercise.rules"
    path.write_text(EXERCISE)
    return str(path)


def game_files():
    return sorted((ROOT / "games").glob("*.rules")) + sorted((ROOT / "games" / "variants").glob("*.rules"))


def load(path: str, options: tuple = (), players=None):
    """The game compiled once per process (scenario.load: shared with the other modules that
    play the same games)."""
    try:
        return scenario.load(path, options, players)
    except RulesError as error:
        raise AssertionError(error.render()) from None


def configurations():
    """(path, options) for every game file: no option, then each declared option alone."""
    out = []
    for path in [*map(str, game_files()), "EXERCISE"]:
        real = exercise_path() if path == "EXERCISE" else path
        declared = header(real)     # None: a broken file fails its tests, not the collection
        for options in [(), *((name,) for name in (declared.options if declared else ()))]:
            out.append(pytest.param(path, options, id=Path(path).stem + "".join(f"+{o}" for o in options)))
    return out


CONFIGS = configurations()


def configurations_of(prop: int):
    """The configurations property number `prop` (of the five below) runs in the suite: every
    game without options, and each other configuration (an option, a variant) in one property,
    the five in turn. The sweep (python -m tests.sweeps) runs every configuration in each."""
    others = [c for c in CONFIGS if c.values[1] or "/variants/" in c.values[0]]
    return sampled(CONFIGS, lambda c: c not in others or others.index(c) % 5 == prop)


@functools.lru_cache(maxsize=None)
def typical_length(path: str, options: tuple) -> int:
    """How many moves a game of this configuration takes (always the first legal move)."""
    game = load(exercise_path() if path == "EXERCISE" else path, options, None)
    s = game.new_initial_state(seed=0)
    moves = 0
    while not s.is_terminal() and moves < MOVE_BOUND:
        s.apply(s.legal_moves()[0])
        moves += 1
    return moves


def run_property(path, options, body, full_games=True):
    """Run `body(path, options, data)` as a hypothesis test. Configurations with long games
    get fewer examples (an example of Ticket to Ride plays ~200 moves, of tic-tac-toe 7), so
    that the suite stays fast whatever the games: about MOVES_PER_PROPERTY moves in all (the
    games of at most 40 moves keep every example of the ci profile), and at least 3 examples."""
    moves = typical_length(path, options) if full_games else min(PREFIX_BOUND, typical_length(path, options))
    examples = max(3, min(EXAMPLES, MOVES_PER_PROPERTY // max(1, moves)))

    @settings(max_examples=examples)
    @given(data=st.data())
    def run(data):
        body(path, options, data)

    run()


def draw_game(data, path, options):
    real = exercise_path() if path == "EXERCISE" else path
    low, high = load(real).player_range
    players = data.draw(st.integers(low, high), label="players")
    seed = data.draw(st.integers(0, 2 ** 32 - 1), label="seed")
    return load(real, options, players), seed


def choose(data, s):
    """A legal move of `s`, by an index drawn with hypothesis."""
    moves = s.legal_moves()
    assert moves, "a position that is not over must have a legal move"
    return moves[data.draw(st.integers(0, len(moves) - 1))] if len(moves) > 1 else moves[0]


def component_ids(s) -> set:
    components = set(s.game.types.components)
    return {i for i, e in enumerate(s.entities) if e["__type__"] in components}


def assert_conserved(s, ids: set):
    """Every component lies in exactly one zone, once, and s.loc says which."""
    counts = Counter(x for items in s.zones.values() for x in items)
    assert set(counts) == ids, "the zones do not hold exactly the components"
    assert all(n == 1 for n in counts.values()), [x for x, n in counts.items() if n > 1]
    for key, items in s.zones.items():
        for x in items:
            assert s.loc[x] == key
    for i in range(len(s.entities)):
        if i not in ids and i < len(s.loc):
            assert s.loc[i] is None, "a board cell is not in a zone"


def assert_continents_families(s):
    """Continents: every player's family of 17 cards and the 7 continents are always all there."""
    if s.game.title != "Continents":
        return
    per_owner = Counter(s.entities[x].get("owner") for items in s.zones.values() for x in items
                        if s.entities[x]["__type__"] == "Card")
    assert per_owner == {p: 17 for p in range(1, s.game.num_players + 1)}
    continents = sum(1 for items in s.zones.values() for x in items if s.entities[x]["__type__"] == "Continent")
    assert continents == 7


def snapshot(s) -> tuple:
    """Everything a move may change, in a comparable form."""
    pending = s.pending
    if pending is not None:
        pending = (pending.choices, tuple(pending.names), pending.chooser, pending.prompt)
    return ({k: tuple(v) for k, v in s.zones.items()}, dict(s.vars), tuple(s.loc), s.current, s.pc,
            s.extra, s.terminal, tuple(s.winners), tuple(s.history), tuple(s.log), s.turn, s.rng,
            pending, dict(s.env))


def views(s) -> list:
    return [s.view(p) for p in range(1, s.game.num_players + 1)]


def play_out(data, s, bound=MOVE_BOUND):
    """Play drawn moves until the end (or `bound` moves); return the indexes chosen."""
    chosen = []
    for _ in range(bound):
        if s.is_terminal():
            break
        move = choose(data, s)
        chosen.append(s.legal_moves().index(move))
        s.apply(move)
    return chosen


# ---- (a) conservation, (b) legal moves, (c) termination ------------------------------------------

@pytest.mark.parametrize("path, options", configurations_of(0))
@pytest.mark.slow
def test_components_are_conserved_moves_apply_and_the_game_ends(path, options):
    run_property(path, options, check_components_are_conserved_moves_apply_and_the_game_ends, full_games=True)


def check_components_are_conserved_moves_apply_and_the_game_ends(path, options, data):
    game, seed = draw_game(data, path, options)
    s = game.new_initial_state(seed=seed)
    ids = component_ids(s)
    entities = len(s.entities)
    assert_conserved(s, ids)
    assert_continents_families(s)
    try_all_at = data.draw(st.integers(0, 40), label="step to try every move")
    for step in range(MOVE_BOUND):
        if s.is_terminal():
            break
        names = s.legal_move_names()
        assert names and len(set(names)) == len(names), "legal move names must be unique"
        if step % 5 == 0:    # the same position gives the same moves in the same order
            assert [m.name for m in compute_legal_moves(s)] == names
        assert s.legal_move_names() == names
        assert 1 <= s.current_player() <= game.num_players
        if step == try_all_at:
            for move in s.legal_moves():
                other = s.clone()
                other.apply(move)
                assert_conserved(other, ids)
        s.apply(choose(data, s))
        assert len(s.entities) == entities, "no component appears or vanishes during play"
        assert_conserved(s, ids)
        assert_continents_families(s)
    else:
        pytest.fail(f"the game did not end within {MOVE_BOUND} moves")
    assert s.legal_moves() == [] and s.current_player() == 0
    assert set(s.winners) <= set(range(1, game.num_players + 1))
    if game.declared_returns is None:       # the default: 1 for a winner, 0 for the others
        assert s.returns() == [1.0 if p in s.winners else 0.0 for p in range(1, game.num_players + 1)]
    else:                                   # the header's `returns p: EXPR`: a number per seat (a fraction too)
        assert len(s.returns()) == game.num_players and all(r.__class__ is float and math.isfinite(r) for r in s.returns())
    assert len(s.scores()) == game.num_players


# ---- (d) determinism -------------------------------------------------------------------------

@pytest.mark.parametrize("path, options", configurations_of(1))
@pytest.mark.slow
def test_same_seed_and_moves_give_the_same_game(path, options):
    run_property(path, options, check_same_seed_and_moves_give_the_same_game, full_games=True)


def check_same_seed_and_moves_give_the_same_game(path, options, data):
    game, seed = draw_game(data, path, options)
    first = game.new_initial_state(seed=seed)
    indexes = play_out(data, first)
    second = game.new_initial_state(seed=seed)
    for index in indexes:
        second.apply(second.legal_moves()[index])
    assert second.history == first.history
    assert views(second) == views(first)
    assert second.log == first.log and second.winners == first.winners
    assert snapshot(second) == snapshot(first)


@pytest.mark.parametrize("path", [p for p in game_files() if "continents" in p.name], ids=lambda p: p.stem)
@pytest.mark.slow
def test_separately_loaded_games_play_the_same(path):
    rng = random.Random(7)
    a = load_game(str(path), players=3)[0].new_initial_state(seed=11)
    b = load_game(str(path), players=3)[0].new_initial_state(seed=11)
    while not a.is_terminal():
        index = rng.randrange(len(a.legal_moves()))
        a.apply(a.legal_moves()[index])
        b.apply(b.legal_moves()[index])
    assert b.is_terminal() and a.history == b.history and views(a) == views(b)


@pytest.mark.parametrize("path", [p for p in game_files() if "continents" in p.name], ids=lambda p: p.stem)
@pytest.mark.slow
def test_the_seed_decides_the_deal(path):
    game = load(str(path), (), 2)
    first_views = {repr(game.new_initial_state(seed=seed).view(1)) for seed in range(5)}
    assert len(first_views) > 1, "different seeds should give different hands"


# ---- (e) clone -------------------------------------------------------------------------------

@pytest.mark.parametrize("path, options", configurations_of(2))
@pytest.mark.slow
def test_a_clone_is_equal_and_independent(path, options):
    run_property(path, options, check_a_clone_is_equal_and_independent, full_games=False)


def check_a_clone_is_equal_and_independent(path, options, data):
    game, seed = draw_game(data, path, options)
    s = game.new_initial_state(seed=seed)
    length = data.draw(st.integers(0, PREFIX_BOUND), label="moves")
    for step in range(length):
        if s.is_terminal():
            break
        copy = s.clone()
        assert [m.name for m in compute_legal_moves(copy)] == s.legal_move_names()
        if step % 10 == 0:
            assert views(copy) == views(s)
        before = snapshot(s)
        move = choose(data, s)
        copy.apply(move.name)
        assert snapshot(s) == before, "applying a move to a clone changed the original"
        s.apply(move)
        assert snapshot(s) == snapshot(copy)
    copy = s.clone()
    assert views(copy) == views(s)
    assert copy.legal_move_names() == s.legal_move_names()
    assert copy.is_terminal() == s.is_terminal() and copy.history == s.history


# ---- (f) replay ------------------------------------------------------------------------------

@pytest.mark.parametrize("path, options", configurations_of(3))
@pytest.mark.slow
def test_replaying_the_history_by_name_gives_the_same_game(path, options):
    run_property(path, options, check_replaying_the_history_by_name_gives_the_same_game, full_games=True)


def check_replaying_the_history_by_name_gives_the_same_game(path, options, data):
    game, seed = draw_game(data, path, options)
    s = game.new_initial_state(seed=seed)
    play_out(data, s)
    assert s.is_terminal()
    replay = game.new_initial_state(seed=seed)
    for name in s.history:
        replay.apply(name)
    assert replay.is_terminal()
    assert replay.history == s.history
    assert views(replay) == views(s)
    assert replay.winners == s.winners and replay.scores() == s.scores()


# ---- (g) views hide what they must -----------------------------------------------------------

def visible_items(game, key, items, player) -> list:
    """The items of a zone that `player` may see: all (public), the owner's (owner), the top
    one only (top), or none (hidden)."""
    name = key if isinstance(key, str) else key[0]
    kind, visibility, owner, index_types = game.zone_meta[name]
    if visibility == "public":
        return list(items)
    if visibility == "owner":
        return list(items) if owner is not None and key[owner + 1] == player else []
    if visibility == "top":
        return list(items[-1:])
    return []


def seen_items(s, key, items, player) -> list:
    """The items of a zone that `player` sees: those its visibility shows, and those a `reveal`
    showed the player (until they move)."""
    visible = visible_items(s.game, key, items, player)
    return [x for x in items if x in visible or shown_to(s, x, player)]


def ids_in(value) -> set:
    """Every entity id anywhere in a view."""
    found = set()
    if isinstance(value, dict):
        if "id" in value:
            found.add(value["id"])
        for item in value.values():
            found |= ids_in(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            found |= ids_in(item)
    return found


def assert_views_hide(s, rng, shuffled: Counter, shuffle=True):
    game = s.game
    for player in range(1, game.num_players + 1):
        view = s.view(player)
        seen = ids_in(view)
        should_see = {x for key, items in s.zones.items() for x in seen_items(s, key, items, player)}
        hidden = {x for key, items in s.zones.items() for x in items} - should_see
        # a component seen masked (owner-only attributes) is shown without its id: the id would
        # tell which one it is
        should_see = {x for x in should_see if not ("__public_label__" in s.entities[x]
                                                     and s.entities[x].get("owner") != player)}
        assert not seen & hidden, f"P{player} sees entities of hidden zones: {sorted(seen & hidden)}"
        assert seen == should_see
        # the number of items of every non-empty zone is public, even when its items are not
        for key, items in s.zones.items():
            if items:
                assert any(entry["count"] == len(items) for entry in view["zones"].values())
        if not shuffle:
            continue
        # shuffling what the player cannot see changes nothing in the view
        other = s.clone()
        for key, items in other.zones.items():
            shown = seen_items(s, key, items, player)
            if len(items) - len(shown) > 1:
                # shuffle what the player cannot see; what it sees (a top item, a revealed
                # one) stays where it is
                places = [k for k, x in enumerate(items) if x not in shown]
                order = [items[k] for k in places[1:] + places[:1]]
                rng.shuffle(order)
                mixed = list(items)
                for k, x in zip(places, order):
                    mixed[k] = x
                other.zones[key] = mixed
                shuffled[player] += 1
        other._legal = None          # the clone's cached legal moves were computed before
        assert other.view(player) == view, f"P{player}'s view changes when hidden zones are shuffled"


@pytest.mark.parametrize("path, options", configurations_of(4))
@pytest.mark.slow
def test_views_never_show_hidden_components(path, options):
    run_property(path, options, check_views_never_show_hidden_components, full_games=False)


def check_views_never_show_hidden_components(path, options, data):
    game, seed = draw_game(data, path, options)
    s = game.new_initial_state(seed=seed)
    rng = random.Random(data.draw(st.integers(0, 2 ** 16), label="shuffle seed"))
    shuffled = Counter()
    length = data.draw(st.integers(0, PREFIX_BOUND), label="moves")
    for step in range(length):
        assert_views_hide(s, rng, shuffled, shuffle=step % 5 == 0)
        if s.is_terminal():
            break
        s.apply(choose(data, s))
    assert_views_hide(s, rng, shuffled)
    if game.title in ("Continents", "Exercise"):
        # games with hidden piles from the start: the shuffle check did shuffle something
        assert sum(shuffled.values()) > 0


def test_owner_and_hidden_variables_stay_private():
    game = load(exercise_path(), (), 3)
    s = game.new_initial_state(seed=3)
    for name in ["bid 2", "bid 1", "bid 0"]:
        s.apply(name)
    assert s.vars[("bid", 1)] == 2 and s.vars[("bid", 2)] == 1
    for player in (1, 2, 3):
        shown = s.view(player)["vars"]
        assert not any(key.startswith("note") for key in shown), "a hidden variable is shown"
        bids = {key for key in shown if key.startswith("bid[")}
        assert bids <= {f"bid[P{player}]"}, f"P{player} sees the bids of others: {bids}"


def test_the_exercise_game_reaches_its_rare_parts():
    # the synthetic game is only useful if random play goes through choices, skips and triggers
    game = load(exercise_path(), (), 4)
    kinds, triggered = Counter(), False
    for seed in range(6):
        rng = random.Random(seed)
        s = game.new_initial_state(seed=seed)
        while not s.is_terminal():
            move = rng.choice(s.legal_moves())
            kinds[move.kind] += 1
            table = len(s.zones.get("table", []))
            s.apply(move)
            triggered |= table == 4 and len(s.zones.get("table", [])) == 0
    assert kinds["choice"] > 0 and kinds["skip"] > 0 and kinds["action"] > 0
    assert triggered
