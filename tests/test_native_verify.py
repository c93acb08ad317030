"""`referee verify --engine native` (issue 24): verify's random games played in a native kernel
with verify's own draws and the invariants checked natively; a game that does not pass clean is
played again in Python, so the report is the same as in Python, failures, shrinking and all.
Where the kernel cannot stand in for Python (move names not proved distinct, leaks probed in a
game with hidden information, coverage) a one-line note says why. Two verify kernels are
compiled here at most once per run (Numba's cache keeps them between runs)."""
import json
import re

import pytest

from referee.interpreter.engine import load_game
from referee.interpreter.tools.verify import outcome

numba = pytest.importorskip("numba", reason="the native extra (numba) is not installed")
from referee.interpreter.native.not_native import NotNative  # noqa: E402
from referee.interpreter.native.verify_games import VerifyKernel  # noqa: E402
from referee.interpreter.native.verify_source import names_distinct  # noqa: E402

from .test_native_kernel import run  # noqa: E402
from .test_native_rollouts import BRANCHES  # noqa: E402

# an invariant that some random games break (the total runs from -5 to 11)
GUARDED = BRANCHES.replace("var rounds: int = 0\n", "var rounds: int = 0\n\ninvariant small: total <= 7\n")


@pytest.fixture(scope="module")
def guarded(tmp_path_factory):
    path = tmp_path_factory.mktemp("rules") / "guarded.rules"
    path.write_text(GUARDED)
    return path


def loaded(path, players=2):
    game, diagnostics, _ = load_game(str(path), players=players)
    assert game is not None, diagnostics
    return game


def same_outcomes(native, python) -> bool:
    return [(f.to_json() if f else None, used) for f, used in native] == \
        [(f.to_json() if f else None, used) for f, used in python]


@pytest.mark.parametrize("max_moves", [10_000, 5])
def test_the_kernel_gives_verifys_outcomes(guarded, max_moves):
    game = loaded(guarded)
    kernel = VerifyKernel(game)
    replayed = []

    def in_python(seed):
        replayed.append(seed)
        return outcome(game, seed, max_moves, leaks=False)
    native = kernel.outcomes(range(80), max_moves, in_python)
    assert same_outcomes(native, [outcome(game, seed, max_moves, leaks=False) for seed in range(80)])
    kinds = {f.kind for f, _ in native if f is not None}
    assert kinds == ({"invariant"} if max_moves > 5 else {"invariant", "endless"})
    assert 0 < len(replayed) < (80 if max_moves > 5 else 81)     # clean games are not played in Python


def verify_json(capsys, *argv):
    code, out, note = run(capsys, "verify", *argv, "--json", "-j", "1")
    return code, json.loads(out), note


def test_verify_reports_the_same_on_either_engine(capsys, guarded):
    argv = [guarded, "-n", "40", "--seed", "3"]
    python = verify_json(capsys, *argv)
    native = verify_json(capsys, *argv, "--engine", "native")
    assert native == (python[0], python[1], "")
    assert python[0] == 1 and python[1]["results"][0]["failures"][0]["kind"] == "invariant"


def test_verify_of_a_clean_game_is_the_same_natively(capsys):
    argv = ["games/tic-tac-toe.rules", "-n", "30"]
    assert verify_json(capsys, *argv, "--engine", "auto") == (*verify_json(capsys, *argv)[:2], "")


def test_names_that_depend_on_the_state_are_not_proved_distinct(tmp_path):
    rules = tmp_path / "heap.rules"
    rules.write_text(BRANCHES.replace('action take(k in 1..2) "-{k}"', 'action take(k in 1..rounds, j in 1..2) "-{k}{j}"'))
    with pytest.raises(NotNative) as refused:
        names_distinct(loaded(rules))
    assert refused.value.note() == f"{rules}:12: k of take ranges over values the state gives: " \
                                   "its moves are not proved to have distinct names"


def test_moves_named_by_one_int_of_a_range_the_state_gives_are_distinct(tmp_path):
    """Titicaca's `bid(n in 1..weapons[current]) "bid {n}"`: distinct ints, distinct names, unless
    another move may be named as one of them."""
    rules = tmp_path / "heap.rules"
    rules.write_text(BRANCHES.replace("action take(k in 1..2)", "action take(k in 1..rounds)"))
    names_distinct(loaded(rules))
    names_distinct(loaded("games/titicaca.rules", 3))
    rules.write_text(BRANCHES.replace('action take(k in 1..2) "-{k}"', 'action take(k in 1..rounds) "+{k}"'))
    with pytest.raises(NotNative, match=r"two moves may be named '\+1'"):
        names_distinct(loaded(rules))


def test_moves_of_components_are_told_apart_by_their_labels(tmp_path):
    """One component per label stands for them all (moves of one label are one move); a name
    that leaves out a component's label may name two moves alike (Continents' `strike`)."""
    names_distinct(loaded("games/skull.rules", 3))
    with pytest.raises(NotNative) as refused:
        names_distinct(loaded("games/continents.rules", 2))
    assert refused.value.note() == "games/continents.rules:135: two moves may be named 'strike Africa 1'"


def test_two_actions_that_may_name_a_move_alike_are_refused(tmp_path):
    rules = tmp_path / "alike.rules"
    rules.write_text(BRANCHES.replace('"-{k}"', '"+{k}"'))
    with pytest.raises(NotNative, match=r"two moves may be named '\+1'"):
        names_distinct(loaded(rules))


def test_leaks_in_a_game_with_hidden_information_are_probed_in_python(capsys):
    argv = ["games/liars-dice.rules", "--players", "2", "-n", "3"]
    code, native, note = verify_json(capsys, *argv, "--engine", "native")
    assert (code, native) == verify_json(capsys, *argv)[:2]
    assert re.fullmatch(r"referee: verifying in Python, not natively: leaks are probed in Python, and the "
                        r"variable '\w+' is \w+ \(--no-leaks verifies natively\)\n", note)


def test_coverage_is_counted_in_python(capsys):
    _, _, note = run(capsys, "verify", "games/tic-tac-toe.rules", "-n", "2", "--coverage", "--engine", "native",
                     "-j", "1")
    assert "referee: verifying in Python, not natively: --coverage counts the rules' coverage" in note


def test_moves_of_created_components_named_by_their_label_alone_are_distinct(tmp_path):
    """`take(x in bank) "take {x}"` over coins made in play: one label one move, unless another
    move's name may be "take " and some text."""
    names_distinct(loaded("tests/native/created.rules", 3))
    rules = tmp_path / "mint.rules"
    rules.write_text(open("tests/native/created.rules", encoding="utf-8").read().replace(
        'action rest "rest" { }', 'action rest "take a rest" { }'))
    with pytest.raises(NotNative, match="two moves may be named 'take a rest'"):
        names_distinct(loaded(rules, 3))
    # a label may be empty (a none left out): "take " and it is named "take"
    rules.write_text(open("tests/native/created.rules", encoding="utf-8").read().replace(
        'action rest "rest" { }', 'action rest "take" { }'))
    with pytest.raises(NotNative, match="two moves may be named 'take'"):
        names_distinct(loaded(rules, 3))


def test_verify_of_a_game_that_creates_components_in_play_is_the_same_natively(capsys):
    argv = ["tests/native/created.rules", "--players", "3", "-n", "30", "--seed", "1"]
    python = verify_json(capsys, *argv)
    assert verify_json(capsys, *argv, "--engine", "native") == (*python[:2], "")
    assert python[1]["results"][0]["failures"]       # (its games past a maximum: the engine's error)


def test_binders_of_a_set_of_enum_members_or_of_seats_range_over_all_of_them():
    # values.rules' `recolour(x in colours where ...)`, colours a set of an enum's members
    names_distinct(loaded("tests/native/values.rules"))
