"""Filters kept up to date from the zones that changed (interpreter/maintained.py): a cached
filter over a fixed domain whose condition reads zones only by keys naming its variable tests
again only the values whose keys changed, and answers exactly as the plain scan at every
decision of random games, across clones, states changed by hand and a log started again; the
filters that read anything else are scanned as before."""
import random

import pytest

from referee.interpreter.runtime import maintained
from referee.interpreter.engine import load_game
from referee.interpreter.runtime.maintained import refiltered
from tests.conftest import GAMES
from tests.compiled_support import function_source

KEEP = """
game "Keep" { players 2 }
board Cell: grid 7 by 7 where not (row == 4 and col == 4)
component Stone { } label "stone"
zone supply: pile of Stone public
zone stone[Player, Cell]: set of Stone public
zone ring[Player, Cell]: pile of Stone public
var rounds: int = 0
setup { create 60 Stone { } in supply }

fn mine(p: Player): list of Cell = filter(c in Cell where size(stone[p, c]) > 0 or size(ring[p, c]) > 1)
fn ringed(p: Player): list of Cell = filter(c in Cell where size(ring[p, c]) == 1 and c.row > 2)
fn both(): list of Cell = filter(c in Cell where size(stone[1, c]) > 0 and size(stone[2, c]) > 0)
fn beside(p: Player): list of Cell =
  filter(c in Cell where size(stone[p, c]) == 0 and any(n in neighbors(c) where size(stone[p, n]) > 0))
fn lately(p: Player): list of Cell = filter(c in Cell where size(stone[p, c]) > 0 and rounds > 3)
fn above(p: Player): list of Cell = filter(c in Cell where size(stone[p, c]) > size(stone[p, Cell(1, 1)]))

action place(c in Cell) "place {c}" {
  move top(supply) to stone[current, c]
  rounds += 1
}
action lift(c in Cell where size(stone[current, c]) > 0) "lift {c}" {
  move all of stone[current, c] to supply
}
action ring_it(c in Cell) "ring {c}" {
  move top(supply) to ring[current, c]
}
action unring(c in Cell where size(ring[current, c]) > 0) "unring {c}" {
  move top(ring[current, c]) to supply
}
flow { turns from 1 until size(supply) == 0 or rounds > 80 { play place, lift, ring_it, unring } }
"""

MAINTAINED = {"mine", "ringed"}
SCANNED = {"beside", "lately", "above", "both"}


def load(path, *options, players=None):
    game, diagnostics, _ = load_game(str(path), options, players)
    assert diagnostics == []
    return game


def counting_refilters(game):
    """The number of values kept up to date rather than scanned again, counted as they happen."""
    namespace = game.compiler.codegen.namespace
    counts = {"refiltered": 0}

    def counted(old, tested, order):
        counts["refiltered"] += 1
        return refiltered(old, tested, order)
    namespace["refiltered"] = counted
    return counts


def argument_sets(game, name):
    parameters = game.compiler.types.functions[name].parameters
    return [(p,) for p in game.seats] if parameters else [()]


def check_against_scans(game, state):
    """Each maintained filter's value now (kept up to date) is the plain scan's: the scan is
    made by taking the cached entry away, which is put back after (the chain of updates goes on)."""
    namespace = game.compiler.codegen.namespace
    for name in game.compiler.maintained:
        cache = namespace[game.compiler.memo_cache_names[name]]
        function = namespace[f"fn_{name}"]
        for arguments in argument_sets(game, name):
            kept = function(state, *arguments)
            key = arguments[0] if len(arguments) == 1 else arguments
            entry = cache.pop(key, None)
            scanned = function(state, *arguments)
            if entry is not None:
                cache[key] = entry
            assert kept == scanned, (name, arguments)


def play_checking(game, seeds, clone_every=7):
    rng = random.Random(11)
    for seed in seeds:
        state = game.new_initial_state(seed)
        step = 0
        while not state.is_terminal():
            check_against_scans(game, state)
            step += 1
            if step % clone_every == 0:
                # a clone played a little: the cached values follow whichever state is asked
                other = state.clone()
                for _ in range(3):
                    if other.is_terminal():
                        break
                    moves = other.legal_moves()
                    other.apply(moves[rng.randrange(len(moves))])
                    check_against_scans(game, other)
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])


def test_only_filters_reading_their_own_keys_are_maintained(write_rules):
    game = load(write_rules(KEEP))
    assert set(game.compiler.maintained) == MAINTAINED
    module = game.compiler.module_source()
    for name in MAINTAINED:
        assert "refiltered(entry[1]" in function_source(module, f"fn_{name}"), name
    for name in SCANNED:
        # a neighbour's key, a variable, another cell's key: a change elsewhere changes the
        # answer; both() reads its family whole (not by a parameter): its changes are not logged
        assert name in game.compiler.memoized, name
        assert "refiltered" not in function_source(module, f"fn_{name}"), name


def test_maintained_filters_answer_as_the_scans_at_every_decision_with_clones(write_rules):
    game = load(write_rules(KEEP))
    counts = counting_refilters(game)
    play_checking(game, range(6))
    assert counts["refiltered"] > 200       # the values were really kept up to date, not scanned


@pytest.mark.parametrize("options", [(), ("discovery",)])
def test_solstis_filled_answers_as_its_scan_at_every_decision(options):
    game = load(GAMES / "solstis.rules", *options)
    assert set(game.compiler.maintained) == {"filled"}
    counts = counting_refilters(game)
    play_checking(game, range(5))
    assert counts["refiltered"] > 50


def test_a_log_started_again_and_a_state_changed_by_hand_scan_again(write_rules, monkeypatch):
    monkeypatch.setattr(maintained, "LOG_LIMIT", 5)
    game = load(write_rules(KEEP))
    play_checking(game, range(3), clone_every=3)
    cells = game.geometries["Cell"].at
    state = game.new_initial_state(1)
    for name in ("place a1", "place b2", "ring c3", "ring c3", "ring c3"):      # seats 1, 2, 1, 2, 1
        state.apply(name)
    mine = game.compiler.codegen.namespace["fn_mine"]
    assert mine(state, 1) == [cells[(1, 1)], cells[(3, 3)]] and mine(state, 2) == [cells[(2, 2)]]
    # a move by hand, then changed(): the next value is scanned whole, and right
    state.move(state.zones[("stone", 1, cells[(1, 1)])][0], "supply")
    state.changed()
    check_against_scans(game, state)
    assert mine(state, 1) == [cells[(3, 3)]]

def test_the_play_is_the_same_without_the_log(write_rules, monkeypatch):
    """The same seeds and choices give the same games whether the filters are kept up to date
    or scanned every time (a log that always starts again forces the scans)."""
    def play(game):
        rng, lengths = random.Random(3), []
        for seed in range(4):
            state = game.new_initial_state(seed)
            names = []
            while not state.is_terminal():
                moves = state.legal_moves()
                move = moves[rng.randrange(len(moves))]
                names.append(move.name)
                state.apply(move)
            lengths.append((names, state.returns()))
        return lengths
    kept = play(load(write_rules(KEEP)))
    monkeypatch.setattr(maintained, "LOG_LIMIT", 0)
    assert play(load(write_rules(KEEP))) == kept


def test_refiltered_keeps_domain_order_and_never_changes_the_old_list():
    order = {x: k for k, x in enumerate("dcba")}
    old = ["d", "b"]
    new = refiltered(old, [("a", True), ("b", False), ("c", True)], order)
    assert new == ["d", "c", "a"] and old == ["d", "b"]
    assert refiltered(old, [("d", True), ("c", False)], order) is old       # nothing changed
    assert refiltered([1, 5, 9], [(4, [0]), (9, []), (0, 1)], None) == [0, 1, 4, 5]
    # a value whose keys changed twice is tested twice: the same answer changes nothing more
    assert refiltered([1, 5], [(3, True), (3, True), (5, False), (5, False)], None) == [1, 3]
