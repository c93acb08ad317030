"""A step that may stop at a choice takes no copy of the state before it when the state is one
that its seed and moves make again (engine.run_step, Unbuilt): a clone that must replay the
stopped step has the copy made then, once, by playing the game again (engine.rebuild_snapshot),
and goes on exactly as it would have from a copy taken before the step."""
import pytest

from referee.interpreter.engine import State
from referee.interpreter.engine.steps import Unbuilt
from referee.interpreter.engine import load_game
from referee.interpreter.runtime.errors import RulesRuntimeError

# the step draws after its choice (pick), so a replay that drew from another random source
# than the original's would be seen
DRAWING = """
game "Drawing" { players 2 }
component Card { value: int } label "card {value}"
zone deck: pile of Card hidden
zone table: set of Card public
var total: int = 0
setup {
  for v in 1..9 { create 1 Card { value: v } in deck }
  shuffle deck
}
action add(n in 1..2) "add {n}" {
  log "{current} adds {n}"
  choose k in 1..3 {
    total += n * k
    let c = pick(deck)
    if c != none { move c to table }
    log "{current} makes {total}"
  }
}
flow { turns from 1 until total >= 30 { play add } }
"""


def stopped_state(write_rules, copies=False):
    """A state stopped at a choice; with `copies`, its step took a copy of the state before it."""
    game, diagnostics, _ = load_game(str(write_rules(DRAWING)))
    assert diagnostics == []
    state = game.new_initial_state(4)
    state.apply("add 2")
    state.apply(state.legal_moves()[1])
    if copies:
        state.rebuildable = False          # as a clone: its steps take copies
    state.apply("add 1")                   # stopped at the choice
    assert (state.pending.snapshot.__class__ is Unbuilt) != copies
    assert state.pending is not None
    return game, state


def played_on(state, index):
    state.apply(state.legal_moves()[index])
    state.apply("add 2")
    state.apply(state.legal_moves()[0])
    return (state.view(1), state.view(2), state.rng, list(state.log), list(state.history))


def test_an_original_state_takes_no_copy_before_a_step_and_its_clones_do(write_rules):
    game, state = stopped_state(write_rules)
    assert state.pending.snapshot.__class__ is Unbuilt
    clone = state.clone()
    clone.apply(clone.legal_moves()[0])
    clone.apply("add 1")                   # a clone's own step: a copy taken before it
    assert isinstance(clone.pending.snapshot, State)


def test_clones_of_a_stopped_step_replay_it_as_the_original_goes_on_and_the_game_is_played_again_once(
        write_rules, monkeypatch):
    game, state = stopped_state(write_rules)
    first, second = state.clone(), state.clone()
    started = []
    made = game.new_initial_state
    monkeypatch.setattr(game, "new_initial_state", lambda seed=0: started.append(seed) or made(seed))
    replayed = played_on(first, 2)
    assert started == [4]
    assert played_on(second, 2) == replayed
    assert started == [4]                  # the copy made for the first clone serves the second
    monkeypatch.undo()
    assert played_on(state, 2) == replayed  # the original resumes its step where it stopped


def test_a_clone_with_a_new_random_source_replays_the_step_as_from_a_copy_taken_before_it(write_rules):
    # search bots draw a clone's random source anew: its replay of the stopped step draws
    # from the state before the step, whether that copy was taken then or made afterwards
    results = []
    for copies in (False, True):
        game, state = stopped_state(write_rules, copies)
        clone = state.clone()
        clone.rng = 12345
        results.append(played_on(clone, 1))
    assert results[0] == results[1]


def test_a_state_its_seed_and_moves_do_not_make_again_is_refused_with_a_reason(write_rules):
    game, state = stopped_state(write_rules)
    clone = state.clone()
    clone.seed = 99              # no longer what made it (changed() keeps its moves undone by a copy)
    clone.changed()
    before = (list(clone.history), clone.view(1))
    with pytest.raises(RulesRuntimeError, match="seed and moves do not make it again"):
        clone.apply(clone.legal_moves()[0])
    assert (list(clone.history), clone.view(1)) == before
