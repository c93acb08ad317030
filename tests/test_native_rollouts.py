"""The search bots' playouts in a native kernel (issue 24): a playout from a state under way
(its components, zones, variables and where the flow stands written into the kernel; resumed at
its `play` or simultaneous step, inside `turns`, `if`, `repeat`, `while`, `for`, `turn`, after a
`let`) gives the Python playout's returns and leaves the bot's generator where the Python
playout leaves it, so MCTS and ISMCTS choose the same moves on either engine; `--engine` on
tournament and analyze plays the same games. A state paused inside a step (a choice in a move's
effect or in a flow statement) resumes there too, the step's draws so far forced. The state
written holds sets and maps, reals, texts made in play and components created in play
(tests/native/cells.rules, which also plays whole games natively: min and max over reals). Six
rollout kernels and one playout kernel are compiled here at most once per run (Numba's cache
keeps them between runs), more by the slow tests."""
import importlib.util
import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.interpreter.engine import load_game
from referee.interpreter.play.bots import ISMCTSBot, MCTSBot, playout

numba = pytest.importorskip("numba", reason="the native extra (numba) is not installed")
from .test_native_kernel import run  # noqa: E402
from .native_support import compiled, kernel_of, natively  # noqa: E402
from .conftest import ROOT  # noqa: E402
from referee.interpreter.native.engine_choice import native_rollouts  # noqa: E402
from referee.interpreter.native.rollout_source import RolloutSource  # noqa: E402
from referee.interpreter.native.rollouts import rollouts_of  # noqa: E402
from referee.interpreter.native.shared_random import SharedRandom  # noqa: E402
from referee.interpreter.native.rules_source import NotNative  # noqa: E402

# a play in each branch of an if / elif / else, inside a turns with an `until`, statements
# after the plays: what resuming has to get right
BRANCHES = '''game "Branches" {
  players 2
}

var total: int = 0
var rounds: int = 0

action add(k in 1..3) "+{k}" {
  total += k
}

action take(k in 1..2) "-{k}" {
  total -= k
}

flow {
  rounds = 1
  turns from 2 until total >= 9 or total <= -4 {
    if total % 2 == 0 {
      play add
    } elif total % 3 == 0 {
      play take
    } else {
      play add, take
      rounds += 1
    }
    if rounds > 6 {
      finish winners [current]
    }
  }
  if total >= 9 {
    finish winners [current]
  }
}
'''


CELLS = "tests/native/cells.rules"


def loaded(path, players=2):
    game, diagnostics, _ = load_game(str(path), players=players)
    assert game is not None, diagnostics
    return game


@pytest.fixture(scope="module")
def branches(tmp_path_factory):
    path = tmp_path_factory.mktemp("rules") / "branches.rules"
    path.write_text(BRANCHES)
    return compiled(rollouts_of(loaded(path)))


@pytest.fixture(scope="module")
def tic_tac_toe():
    return compiled(rollouts_of(loaded("games/tic-tac-toe.rules")))


@pytest.fixture(scope="module")
def cards():
    """tests/native/rollouts.rules: a decision inside each flow construct, components and zones."""
    return compiled(rollouts_of(loaded("tests/native/rollouts.rules", players=3)))


@pytest.fixture(scope="module")
def cells():
    """tests/native/cells.rules: sets, maps, reals, texts made in play, created components."""
    return compiled(rollouts_of(loaded(CELLS)))


@pytest.fixture(scope="module")
def liars_dice():
    return compiled(rollouts_of(loaded("games/liars-dice.rules", players=3)))


@pytest.fixture(scope="module")
def paused():
    """tests/native/decisions.rules: choices inside actions (`choose`, `play ... by`, several in
    one step) and a flow statement that chooses (`bonus()`): states paused inside a step."""
    return compiled(rollouts_of(loaded("tests/native/decisions.rules", players=2)))


def same_rollouts_script():
    spec = importlib.util.spec_from_file_location("same_rollouts", ROOT / "benchmarks" / "same_rollouts.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# the state after a random number (0..most) of random moves of the game of this seed: the same
# walk as benchmarks/same_rollouts.py --check takes
walked = same_rollouts_script().walked


# ---- the generator the bot and the kernel share ----------------------------------------

@settings(max_examples=25, deadline=None)
@given(st.one_of(st.integers(0, 2**32 - 1), st.integers(-2**70, 2**70)),
       st.lists(st.tuples(st.sampled_from(["random", "bits", "below", "shuffle"]), st.integers(1, 2**70)),
                max_size=60))
def test_the_shared_generator_draws_what_random_random_draws(seed, draws):
    python, shared = random.Random(seed), SharedRandom(seed)
    assert shared.getstate() == python.getstate()
    for kind, n in draws:
        if kind == "random":
            assert shared.random() == python.random()
        elif kind == "bits":
            assert shared.getrandbits(n % 130) == python.getrandbits(n % 130)
        elif kind == "below":
            assert shared.randrange(n) == python.randrange(n)
        else:
            a, b = list(range(n % 30)), list(range(n % 30))
            shared.shuffle(a)
            python.shuffle(b)
            assert a == b
    assert shared.getstate() == python.getstate()


# ---- a playout from a state under way ---------------------------------------------------

@pytest.mark.parametrize("fixture, most", [("branches", 8), ("tic_tac_toe", 6), ("liars_dice", 5), ("cards", 30),
                                           ("cells", 16)])
@pytest.mark.parametrize("shared", [True, False])
def test_a_native_playout_gives_the_python_returns_and_draws(fixture, most, shared, request):
    rollouts = request.getfixturevalue(fixture)
    game, resumed = rollouts.game, 0
    for seed in range(60):
        s = walked(game, seed, most)
        python = random.Random(seed * 7)
        native = SharedRandom(seed * 7) if shared else random.Random(seed * 7)
        expected = playout(s.clone(), python, 10_000)
        returns = rollouts.returns(s, native, 10_000)
        if s.is_terminal():
            assert returns is None and native.getstate() == random.Random(seed * 7).getstate()
            continue
        resumed += 1
        assert returns == expected and native.getstate() == python.getstate(), seed
    assert resumed >= 30


def test_every_branch_of_the_flow_is_resumed(branches):
    """The states the test above resumes from stand at each of the three plays."""
    game = branches.game
    plays = {branches.play_at[walked(game, seed, 12).pc] for seed in range(60)
             if not walked(game, seed, 12).is_terminal()}
    assert plays == {1, 2, 3}


def test_every_decision_of_a_card_game_is_resumed(cards):
    """Every play and simultaneous step of rollouts.rules is a state the test above resumes from,
    some with `again` pending and with a flow loop under way (written, not refused)."""
    states = [walked(cards.game, seed, 30) for seed in range(60)]
    states = [s for s in states if not s.is_terminal()]
    assert {cards.play_at[s.pc] for s in states} == set(cards.play_at.values()) == {1, 2, 3, 4}
    assert any(s.extra for s in states) and any(isinstance(v, tuple) for s in states for v in s.env.values())
    assert all(cards.state_array(s) is not None and cards.flow_env.write(s.env) is not None for s in states)


def test_every_state_of_the_cells_game_is_written_whole(cells):
    """Each state the test above resumes from is written (none left to Python), among them
    states holding texts made in play, created and destroyed components, hashed tables."""
    states = [walked(cells.game, seed, 16) for seed in range(60)]
    states = [s for s in states if not s.is_terminal()]
    writer = cells.writer
    played, destroyed = [], []
    for s in states:
        assert writer.write(s) is not None and cells.flow_env.write(s.env) is not None
        played.append(len(writer.cells.played))
        destroyed.append(len(s.entities) - len(s.by_type["Coin"]))
    assert max(played) > 0 and max(destroyed) > 0 and any(len(s.entities) > 1 for s in states)
    assert any(len(s.vars.get("seen", ())) > 2 for s in states)


def test_the_cells_game_plays_the_python_games_natively():
    records = natively(kernel_of(CELLS, 2), range(1, 31))
    assert len({tuple(r["scores"]) for r in records}) > 10


def test_a_created_component_the_kernel_has_no_room_for_is_left_to_python(cells):
    s = walked(cells.game, 4, 10)
    s.entities = s.entities + [dict(s.entities[-1])] * cells.writer.components
    assert cells.state_array(s) is None


def test_a_state_with_components_the_setup_did_not_make_is_left_to_python(cards):
    s = walked(cards.game, 4, 10)
    s.entities = s.entities + [dict(s.entities[-1])]
    assert cards.state_array(s) is None


def test_a_playout_stopped_at_max_moves_returns_zeros_as_in_python(branches):
    s = walked(branches.game, 3, 0)
    python, native = random.Random(5), SharedRandom(5)
    assert branches.returns(s, native, 2) == playout(s.clone(), python, 2) == [0.0, 0.0]
    assert native.getstate() == python.getstate()


def test_what_the_kernel_cannot_resume_is_left_to_python(branches):
    s = walked(branches.game, 1, 2)
    s.pc = 0                                    # (not at a play)
    generator = SharedRandom(9)
    assert branches.returns(s, generator, 100) is None and generator.getstate() == random.Random(9).getstate()


def test_a_playout_the_kernel_flags_leaves_the_generator_as_it_was(branches, monkeypatch):
    s = walked(branches.game, 2, 3)
    generator = SharedRandom(4)
    generator.getrandbits(64)
    before = generator.getstate()
    module = branches.module

    def flagging(S, mt, buf, resume, seats, max_moves, out):
        module.rollout(S, mt, buf, resume, seats, max_moves, out)     # (draws from mt)
        return 2
    monkeypatch.setattr(branches, "module", type("Flagging", (), {"rollout": staticmethod(flagging)}))
    assert branches.returns(s, generator, 10_000) is None and generator.getstate() == before


def test_state_the_rollouts_do_not_write_is_refused(monkeypatch):
    """A kernel that keeps more than the variables and the slots rollouts set (what a renderer
    that learns zones or a turn counter would add) is refused, not resumed from a partial state."""
    from referee.interpreter.native import rules_source
    from referee.interpreter.native.rollouts import NativeRollouts
    monkeypatch.setattr(rules_source, "SLOTS", (*rules_source.SLOTS, "TURN"))
    with pytest.raises(NotNative, match=r"slots a rollout does not write from a Python state yet \(\['TURN'\]\)"):
        NativeRollouts(loaded("games/tic-tac-toe.rules"))


def test_state_the_writer_does_not_know_is_refused(monkeypatch):
    """Cells of S past what the writer accounts for (a part a renderer would add) are refused."""
    from referee.interpreter.native.rollouts import NativeRollouts
    from referee.interpreter.native.rollout_source import RolloutSource as Source

    def grown(self, game):
        source_init(self, game)
        self.size += 2
    source_init = Source.__init__
    monkeypatch.setattr(Source, "__init__", grown)
    with pytest.raises(NotNative, match=r"keeps state that a rollout does not write from a Python state yet \(2 cells"):
        NativeRollouts(loaded("games/tic-tac-toe.rules"))


UNRESUMABLE = BRANCHES.replace("  rounds = 1\n", "  let steps = [1, 2]\n  rounds = size(steps)\n")


def test_a_play_the_kernel_cannot_resume_names_itself(tmp_path):
    rules = tmp_path / "listed.rules"
    rules.write_text(UNRESUMABLE)
    with pytest.raises(NotNative) as refused:
        RolloutSource(loaded(rules)).render()
    assert refused.value.note() == f"{rules}:17: a let of a list[int] before a play: a rollout cannot resume after it yet"


# ---- a playout from a state paused inside a step -----------------------------------------

def paused_states(rollouts, count=80, most=30):
    """(seed, state) of the walked states that stand at a choice inside a step."""
    states = [(seed, walked(rollouts.game, seed, most)) for seed in range(count)]
    return [(seed, s) for seed, s in states if s.pending is not None and not s.is_terminal()]


@pytest.mark.parametrize("shared", [True, False])
def test_a_playout_from_a_paused_step_gives_the_python_returns_and_draws(paused, shared):
    states = paused_states(paused)
    for seed, s in states:
        python = random.Random(seed * 7)
        native = SharedRandom(seed * 7) if shared else random.Random(seed * 7)
        expected = playout(s.clone(), python, 10_000)
        assert paused.state_array(s) is not None, paused.why_python(s)
        assert paused.returns(s, native, 10_000) == expected and native.getstate() == python.getstate(), seed
    assert len(states) >= 10


def test_every_shape_of_a_paused_step_is_resumed(paused):
    """Paused inside a move's effect and inside a flow statement; at the step's first choice
    and after choices made already (forced in the kernel)."""
    states = [s for _, s in paused_states(paused)]
    resumed = [paused.paused.resumed(s)[1] for s in states]
    assert set(resumed) & set(paused.play_at.values()) and set(resumed) & set(paused.paused.effect_at.values())
    assert {len(s.pending.choices) > 0 for s in states} == {True, False}


def test_a_paused_playout_stopped_at_max_moves_returns_zeros_as_in_python(paused):
    (seed, s), *_ = paused_states(paused)
    for most in (0, 1, 3):
        python, native = random.Random(seed), SharedRandom(seed)
        assert paused.returns(s, native, most) == playout(s.clone(), python, most)
        assert native.getstate() == python.getstate()


def test_a_forced_draw_the_kernel_does_not_reach_is_left_to_python(paused, monkeypatch):
    """A paused state whose draws so far do not fit the step the kernel plays (a draw past the
    options listed) is flagged by the kernel and played in Python, the generator as it was."""
    _, s = next((seed, s) for seed, s in paused_states(paused) if s.pending.choices)
    resumed = paused.paused.resumed

    def off_by_far(state):
        before, number, forced = resumed(state)
        return before, number, forced[:-1] + [10_000]
    monkeypatch.setattr(paused.paused, "resumed", off_by_far)
    generator = SharedRandom(3)
    assert paused.returns(s, generator, 10_000) is None and generator.getstate() == random.Random(3).getstate()


MANY_CHOICES = BRANCHES.replace("""action take(k in 1..2) "-{k}" {
  total -= k
}""", """action take(k in 1..2) "-{k}" {
  total -= k
  for i in 1..70 {
    choose j in 1..2 {
      total += j - 1
    }
  }
}""")


def test_a_step_the_kernel_does_not_resume_names_itself(tmp_path, monkeypatch):
    """A step of more choices than the kernel forces, and a step paused with explicit chance:
    their playouts stay in Python, the note names the construct and its rules line."""
    from referee.interpreter.native import rollouts as module
    monkeypatch.setattr(module, "load_module", lambda text: (None, None))
    rules = tmp_path / "many.rules"
    rules.write_text(MANY_CHOICES)
    made = module.NativeRollouts(loaded(rules))
    s = made.game.new_initial_state(1)
    while s.pending is None:            # (add 3, then a take: its step chooses)
        s.apply(s.legal_moves()[-1])
    first = s.clone()
    while len(s.pending.choices) <= 64:
        s.apply(s.legal_moves()[0])
    play = MANY_CHOICES.splitlines().index("      play take") + 1
    assert made.state_array(first) is not None and made.state_array(s) is None
    assert made.why_python(s) == f"{rules}:{play}: a step of more than 64 choices"
    chance, _, _ = load_game(str(rules), players=2, chance="explicit")
    made = module.NativeRollouts(chance)
    s = chance.new_initial_state(1)
    while s.pending is None:
        s.apply(s.legal_moves()[-1])
    assert made.state_array(s) is None and made.why_python(s).startswith(f"{rules}:1: a step paused with chance nodes")


# ---- the bots ---------------------------------------------------------------------------

@pytest.mark.parametrize("fixture, bot", [("tic_tac_toe", MCTSBot), ("liars_dice", ISMCTSBot), ("cards", ISMCTSBot),
                                          ("cells", MCTSBot)])
def test_a_search_bot_chooses_the_same_moves_on_either_engine(fixture, bot, request):
    rollouts = request.getfixturevalue(fixture)
    for seed in range(5):
        s = walked(rollouts.game, seed, 3)
        if s.is_terminal():
            continue
        python, native = bot(seed, iterations=80), bot(seed, iterations=80, rollouts=rollouts)
        assert native.choose(s.clone()).name == python.choose(s.clone()).name
        assert native.rng.getstate() == python.rng.getstate()


def test_a_search_bot_chooses_the_same_moves_at_a_paused_step(paused):
    """ISMCTS at states paused inside a step: its playouts start there, and from the
    determinizations of those states (the step played again from a drawn copy)."""
    for seed, s in paused_states(paused, count=30)[:4]:
        python, native = ISMCTSBot(seed, iterations=40), ISMCTSBot(seed, iterations=40, rollouts=paused)
        assert native.choose(s.clone()).name == python.choose(s.clone()).name
        assert native.rng.getstate() == python.rng.getstate()


@pytest.mark.slow
@pytest.mark.parametrize("path, players, bot", [("games/checkers.rules", 2, MCTSBot), ("games/titicaca.rules", 3, ISMCTSBot),
                                                ("games/hearts.rules", 4, ISMCTSBot)])
def test_a_search_bot_chooses_the_same_moves_in_the_seed_games(path, players, bot):
    """A recursive legality (checkers), a play inside repeat, for, let and turn and a
    simultaneous bid (titicaca), hidden cards through determinizations (hearts)."""
    rollouts = compiled(rollouts_of(loaded(path, players)))
    for seed in range(2):
        s = walked(rollouts.game, seed, 12)
        python, native = bot(seed, iterations=30), bot(seed, iterations=30, rollouts=rollouts)
        assert native.choose(s.clone()).name == python.choose(s.clone()).name
        assert native.rng.getstate() == python.rng.getstate()


@pytest.mark.slow
@pytest.mark.parametrize("path, players", [("games/skull.rules", 4), ("games/solstis.rules", 2)])
def test_the_paused_steps_of_the_seed_games_resume_natively(path, players):
    """Skull's challenge (a flow statement choosing) and Solstis' tiles (choices inside a move):
    playouts from those paused states equal Python's, and so does ISMCTS' move there."""
    rollouts = compiled(rollouts_of(loaded(path, players)))
    states = paused_states(rollouts, count=40, most=40)
    for seed, s in states:
        python, native = random.Random(seed), SharedRandom(seed)
        assert rollouts.returns(s, native, 10_000) == playout(s.clone(), python, 10_000), seed
        assert native.getstate() == python.getstate()
    seed, s = states[0]
    python, native = ISMCTSBot(seed, iterations=20), ISMCTSBot(seed, iterations=20, rollouts=rollouts)
    assert native.choose(s.clone()).name == python.choose(s.clone()).name
    assert native.rng.getstate() == python.rng.getstate() and len(states) >= 3


@pytest.mark.slow
def test_every_game_has_a_rollout_kernel_that_writes_its_whole_state(monkeypatch):
    """Each rules file of games/ (at its fewest players) renders a rollout kernel whose state
    the writer accounts for cell by cell (rendered only: no compile)."""
    from pathlib import Path
    from referee.interpreter.native import rollouts as module
    monkeypatch.setattr(module, "load_module", lambda text: (None, None))
    files = sorted(Path("games").glob("*.rules")) + sorted(Path("games/variants").glob("*.rules"))
    for path in files:
        game = loaded(path, players=None)
        made = module.NativeRollouts(game)
        s = game.new_initial_state(1)
        assert made.writer.write(s) is not None and made.flow_env.write(s.env) is not None, path


# ---- the commands -----------------------------------------------------------------------

def without_timing(text: str) -> dict:
    report = json.loads(text)
    report.pop("seconds")
    report.pop("description")
    return report


def test_a_tournament_plays_the_same_games_on_either_engine(capsys, tic_tac_toe):
    argv = ["tournament", "games/tic-tac-toe.rules", "--bot", "mcts:iterations=40", "--bot", "random",
            "-n", "4", "--json", "-j", "1"]
    _, python, _ = run(capsys, *argv)
    _, native, note = run(capsys, *argv, "--engine", "native")
    assert without_timing(native) == without_timing(python) and note == ""


def test_a_tournament_of_the_cells_game_plays_the_same_games_on_either_engine(capsys, cells):
    argv = ["tournament", CELLS, "--bot", "mcts:iterations=30", "--bot", "random", "-n", "2", "--json", "-j", "1"]
    _, python, _ = run(capsys, *argv)
    _, native, note = run(capsys, *argv, "--engine", "native")
    assert without_timing(native) == without_timing(python) and note == ""


def test_analyze_with_a_search_bot_plays_the_same_games_on_either_engine(capsys, tic_tac_toe):
    argv = ["analyze", "games/tic-tac-toe.rules", "--bot", "1=mcts:iterations=30", "-n", "3", "--json", "-j", "1"]
    _, python, _ = run(capsys, *argv)
    _, native, note = run(capsys, *argv, "--engine", "auto")
    assert json.loads(native)["figures"] == json.loads(python)["figures"] and note == ""


def test_a_game_with_no_rollout_kernel_plays_in_python_with_a_located_note(capsys, tmp_path):
    rules = tmp_path / "listed.rules"
    rules.write_text(UNRESUMABLE)
    argv = ["tournament", str(rules), "--bot", "mcts:iterations=5", "--bot", "random", "-n", "2", "--json", "-j", "1"]
    _, python, _ = run(capsys, *argv)
    _, native, note = run(capsys, *argv, "--engine", "native")
    assert without_timing(native) == without_timing(python)
    assert re.fullmatch(r"referee: the search bots' playouts run in Python, not natively: "
                        r"\S+listed\.rules:17: a let of a list\[int\] before a play[^\n]+\n", note)


def test_a_tournament_of_a_game_that_pauses_in_steps_is_the_same_on_either_engine(capsys, paused):
    argv = ["tournament", "tests/native/decisions.rules", "--players", "2", "--bot", "ismcts:iterations=12",
            "--bot", "random", "-n", "2", "--max-moves", "60", "--json", "-j", "1"]
    _, python, _ = run(capsys, *argv)
    _, native, note = run(capsys, *argv, "--engine", "native")
    assert without_timing(native) == without_timing(python) and note == ""


def test_a_tournament_with_no_search_bot_says_native_changes_nothing(capsys):
    _, _, note = run(capsys, "tournament", "games/tic-tac-toe.rules", "--bot", "random", "--bot", "first",
                     "-n", "2", "-j", "1", "--engine", "native")
    assert "playing in Python, not natively: no bot of this tournament searches" in note


def test_coverage_counts_the_searches_in_python(capsys):
    _, _, note = run(capsys, "analyze", "games/tic-tac-toe.rules", "--bot", "1=mcts:iterations=5", "-n", "1",
                     "--coverage", "--engine", "native", "-j", "1")
    assert "playouts run in Python, not natively: --coverage counts the rules' coverage" in note


def test_the_python_engine_loads_no_rollouts():
    assert native_rollouts(loaded("games/tic-tac-toe.rules"), "python") == (None, None)
