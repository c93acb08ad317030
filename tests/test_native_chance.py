"""Explicit chance in native playouts (issue 24, interpreter/native/chance_source.py): a game
loaded with chance="explicit" (docs/language.md, "Explicit chance") stops at a chance node at each
shuffle and each pick given to a let or an assignment; the kernel draws each outcome as the
RandomBot samples it (its generator's random(), identical cards one outcome), each a move, and
gives the records of simulate_game (whose random seats' generator samples the chance nodes);
`--chance explicit` loads a game so on the command line, for either engine.
tests/native/chance.rules and Kuhn poker, one kernel each, compiled once per run at most."""
import json

import pytest

from referee.interpreter.cli.main import main
from referee.interpreter.engine import load_game
from referee.interpreter.play.simulate import simulate_game

numba = pytest.importorskip("numba", reason="the native extra (numba) is not installed")
from referee.interpreter.native.kernel import load_kernel  # noqa: E402
from referee.interpreter.native.rules_source import NotNative, render  # noqa: E402
from tests.native_support import compiled, natively  # noqa: E402

CHANCE = "tests/native/chance.rules"


def explicit_kernel(path, players):
    game, diagnostics, _ = load_game(path, players=players, chance="explicit")
    assert game is not None, diagnostics
    return compiled(load_kernel(game))


@pytest.fixture(scope="module")
def chance():
    return explicit_kernel(CHANCE, 3)


def test_chance_nodes_play_the_python_games(chance):
    records = natively(chance, range(1, 61))
    assert all(r["finished"] for r in records) and {tuple(r["winners"]) for r in records} >= {(1,), (2,), (3,)}
    sampled, _, _ = load_game(CHANCE, players=3)
    # (each chance node is a move: the games are longer than with chance sampled inside the effects)
    assert sum(r["length"] for r in records) > sum(simulate_game(sampled, seed, 10_000)["length"] for seed in range(1, 61))


def test_analyze_counts_each_chance_node_as_a_choice_of_seat_minus_one(chance):
    records = natively(chance, range(1, 6), details=True)
    assert all(r["actions"][-1]["(choice)"] > 0 for r in records)


def test_a_game_stopped_at_max_moves_in_its_setup_shuffle_is_the_same_unfinished_game(chance):
    records = natively(chance, range(1, 11), max_moves=3)
    assert all(r["length"] == 3 and not r["finished"] for r in records)


def test_chance_explicit_on_the_command_line_plays_the_same_games_on_either_engine(capsys, chance):
    argv = ["simulate", CHANCE, "--players", "3", "-n", "30", "--seed", "1", "--json"]

    def summary(*more):
        assert main([*argv, *more]) == 0
        out = json.loads(capsys.readouterr().out)
        return {k: v for k, v in out.items() if k != "seconds"}
    python = summary("--chance", "explicit", "-j", "1")
    assert summary("--chance", "explicit", "--engine", "native") == python
    assert summary("--chance", "explicit", "-j", "2") == python        # (the workers load it so too)
    # each chance node a move: longer games than with chance sampled inside the effects
    assert python["length"]["mean"] > summary("-j", "1")["length"]["mean"]


def test_verify_and_tournament_take_chance_explicit_too(capsys):
    argv = ["verify", CHANCE, "--players", "3", "-n", "6", "--seed", "1", "--json", "-j", "1", "--no-leaks",
            "--chance", "explicit"]
    assert main(argv) == 0
    python = json.loads(capsys.readouterr().out)
    assert main([*argv, "--engine", "native"]) == 0
    native = capsys.readouterr()
    assert json.loads(native.out) == python and "chance.rules:35: a chance node (explicit chance) in a verify " \
        "kernel has no native form yet" in native.err
    # each chance node a move
    assert python["results"][0]["moves"] > 6 * 24
    assert main(["tournament", CHANCE, "--players", "2", "--bot", "random", "--bot", "first", "-n", "4", "--json",
                 "-j", "1", "--chance", "explicit"]) == 0
    assert all(r["finished"] for r in json.loads(capsys.readouterr().out)["results"])


def test_kuhn_poker_with_explicit_chance_plays_the_python_games():
    natively(explicit_kernel("games/kuhn-poker.rules", 2), range(1, 101))


def test_a_game_without_chance_nodes_renders_as_with_sampled_chance():
    explicit, _, _ = load_game("games/tic-tac-toe.rules", chance="explicit")
    sampled, _, _ = load_game("games/tic-tac-toe.rules")
    assert render(explicit) == render(sampled)


def test_a_pick_among_values_of_no_native_coding_is_refused_with_its_line(write_rules):
    text = open(CHANCE, encoding="utf-8").read().replace("let bonus = pick([0, 1, 1, 2])",
                                                        'let word = pick([[1], [2]])\n  let bonus = 1')
    game, diagnostics, _ = load_game(str(write_rules(text)), players=2, chance="explicit")
    assert game is not None, diagnostics
    with pytest.raises(NotNative) as refused:
        render(game)
    assert ":47:" in refused.value.note() and "chance node" in refused.value.note()
