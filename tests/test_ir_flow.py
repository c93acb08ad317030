"""The flow compiled through the IR: lowered, optimised by the passes, rendered once. Golden
games play the same with any pass switched off, and the passes leave no `if False:` behind."""
import functools

import pytest
from referee.interpreter.compile import ir
from referee.interpreter.compile.lower_flow import lower_run_flow
from referee.interpreter.compile.passes import PASS_NAMES, run_passes
from referee.interpreter.engine import load_game

import tests.golden
from tests.golden import FOLDER, PLAYTHROUGHS, ROOT, golden_name
from tests.sweeps import sampled
from tests.test_cli import run

TIC_TAC_TOE = str(ROOT / "games/tic-tac-toe.rules")


def run_flow_source(game) -> str:
    source = game.compiler.module_source()
    start = source.index("def run_flow(s):")
    return source[start:source.index("\ndef ", start)]


def passes_off_sampled() -> list:
    """(golden, passes off) pairs: in the suite, every golden with every pass off, and each pass
    off alone in the goldens of every len(PASS_NAMES)-th place from its own (each pass in three or
    four games, each golden with one pass alone); the sweep (tests/sweeps) runs every pass off
    alone in every golden."""
    keys = sorted(PLAYTHROUGHS)
    every = [(key, PASS_NAMES) for key in keys]
    alone = [(key, (name,)) for key in keys for name in PASS_NAMES]
    kept = {(key, (PASS_NAMES[at % len(PASS_NAMES)],)) for at, key in enumerate(keys)}
    return every + sampled(alone, kept.__contains__)


def test_the_sample_turns_every_pass_off_alone_and_every_golden_off_whole():
    pairs = passes_off_sampled()
    assert {off for _, off in pairs} == {(name,) for name in PASS_NAMES} | {PASS_NAMES}
    assert {key for key, off in pairs if off == PASS_NAMES} == set(PLAYTHROUGHS)
    assert {key for key, off in pairs if len(off) == 1} == set(PLAYTHROUGHS)


@pytest.mark.parametrize("key, off", passes_off_sampled(), ids=lambda v: v if isinstance(v, str) else
                         "all" if len(v) > 1 else v[0])
@pytest.mark.slow
def test_golden_games_are_the_same_with_passes_off(key, off, monkeypatch):
    monkeypatch.setattr(tests.golden, "load_game", functools.partial(load_game, passes_off=off))
    assert tests.golden.play(key) == (FOLDER / golden_name(key)).read_text()


def test_the_passes_leave_no_constant_test_in_the_flow():
    game, diagnostics, _ = load_game(TIC_TAC_TOE)
    assert not diagnostics
    optimised = run_flow_source(game)
    assert "if False:" not in optimised and "if True:" not in optimised
    unoptimised = run_flow_source(load_game(TIC_TAC_TOE, passes_off=PASS_NAMES)[0])
    assert "if False:" in unoptimised          # a `turns` loop without `until`
    assert len(optimised.splitlines()) < len(unoptimised.splitlines())


def test_the_flow_compiles_no_function_it_does_not_call():
    source = load_game(TIC_TAC_TOE)[0].compiler.module_source()
    assert "def _run" not in source      # its effects run inside run_flow: none of them may choose


def test_the_flow_is_commented_with_its_rules_lines():
    source = run_flow_source(load_game(TIC_TAC_TOE)[0])
    assert "    # tic-tac-toe.rules:16\n        if pc == 0:" in source
    assert max(len(line) for line in source.splitlines()) <= 200


def test_every_instruction_keeps_its_number_and_its_condition_reaches_the_passes():
    game = load_game(TIC_TAC_TOE)[0]
    lowered = lower_run_flow(game.flow, game.num_players, lambda ins: "_ins")
    optimised = run_passes(lowered)
    tests_of_pc = [n.right.value for n in ir.walk(optimised)
                   if isinstance(n, ir.Compare) and n.op == "==" and n.left == ir.Local("pc")]
    assert tests_of_pc == list(range(len(game.flow)))
    # the conditions are IR (no host code), so the passes see inside them: `not (not not x)` is `not x`
    conditions = [ins.code for ins in game.flow if ins.code is not None]
    assert conditions and all(isinstance(c, ir.Expression) for c in conditions)

    def double_negations(function):
        return [n for n in ir.walk(function) if isinstance(n, ir.Not) and isinstance(n.operand, ir.Not)]
    assert double_negations(lowered) and not double_negations(optimised)


def test_an_unknown_pass_is_refused():
    with pytest.raises(ValueError, match="no pass named nothing"):
        load_game(TIC_TAC_TOE, passes_off=("nothing",))


@pytest.mark.slow
def test_referee_compile_takes_no_pass(capsys):
    def compiled(*flags):
        return run(capsys, "compile", TIC_TAC_TOE, *flags)        # (in-process: main(argv))
    code, plain, _ = compiled()
    assert code == 0 and "if False:" not in plain
    code, unfolded, _ = compiled("--no-pass", "fold_constants", "--no-pass", "remove_dead_code")
    assert code == 0 and "if False:" in unfolded
    code, _, error = compiled("--no-pass", "inline")
    assert code == 2 and "no pass named 'inline' (the passes: fold_constants, remove_double_negation, remove_dead_code, " in error
