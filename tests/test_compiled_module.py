"""A compiled module is a first-class artefact: `referee compile -o g.py` writes a module that
imports on its own (every name it reads defined or imported from the runtime), and every
command that takes a rules file takes it: the same games, the same JSON."""
import builtins
import glob
import json
from pathlib import Path

import pytest

from referee.dsl.program import load_program
from referee.interpreter import runtime
from referee.interpreter.cli.main import main
from referee.interpreter.compile.module import ENGINE_LINKED, FUNCTIONS_MARK, MAX_LINE, literal_source, read_module
from referee.interpreter.engine import load_game
from referee.interpreter.engine.params import player_range

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(glob.glob(str(ROOT / "games" / "*.rules")) + glob.glob(str(ROOT / "games" / "variants" / "*.rules")))
TIMING = ("seconds", "games_per_second", "moves_per_second")


def configurations():
    for path in GAMES:
        program, _, _ = load_program(path)
        low, high = player_range(program)
        for players in range(low, high + 1):
            yield pytest.param(path, players, id=f"{Path(path).stem}-{players}")


def simulated(capsys, *argv) -> dict:
    assert main([str(a) for a in argv]) == 0
    report = json.loads(capsys.readouterr().out)
    for field in TIMING + ("rules",):        # (the file given: the rules or the module)
        report.pop(field, None)
    return report


@pytest.mark.parametrize("path,players", list(configurations()))
@pytest.mark.slow
def test_a_compiled_module_simulates_as_its_rules(path, players, tmp_path, capsys):
    module = tmp_path / "game.py"
    assert main(["compile", path, "--players", str(players), "-o", str(module)]) == 0
    capsys.readouterr()
    # (in this process: the pools load it as the next test shows)
    from_rules = simulated(capsys, "simulate", path, "--players", players, "-n", 3, "--seed", 1, "--json", "-j", 1)
    from_module = simulated(capsys, "simulate", module, "-n", 3, "--seed", 1, "--json", "-j", 1)
    assert from_module == from_rules
    assert from_module["players"] == players


@pytest.mark.slow
def test_worker_processes_load_a_compiled_module(tmp_path, capsys):
    path = str(ROOT / "games" / "liars-dice.rules")
    module = tmp_path / "game.py"
    assert main(["compile", path, "--players", "3", "-o", str(module)]) == 0
    capsys.readouterr()
    from_rules = simulated(capsys, "simulate", path, "--players", 3, "-n", 4, "--seed", 2, "--json", "-j", 1)
    from_module = simulated(capsys, "simulate", module, "-n", 4, "--seed", 2, "--json", "-j", 2)
    assert from_module == from_rules


def test_a_compiled_module_imports_on_its_own_and_its_functions_run(tmp_path):
    game, _, _ = load_game(str(ROOT / "games" / "tic-tac-toe.rules"))
    path = tmp_path / "ttt.py"
    path.write_text(game.compiler.module_source())
    module = read_module(path)
    assert module.players == 2 and module.options == () and module.params == {}
    loaded, diagnostics, _ = load_game(str(path))
    assert diagnostics == []
    # the functions that run are the module's own: their code is in its file
    assert loaded.setup.__code__.co_filename == str(path)
    assert all(a.enumerate.__code__.co_filename == str(path) for a in loaded.actions)
    state = loaded.new_initial_state(seed=3)
    reference = game.new_initial_state(seed=3)
    while not state.is_terminal():
        assert [str(m) for m in state.legal_moves()] == [str(m) for m in reference.legal_moves()]
        move = state.legal_moves()[0]
        state.apply(move)
        reference.apply(reference.legal_moves()[0])
    assert state.returns() == reference.returns()


@pytest.mark.slow
def test_every_name_a_module_reads_is_defined(tmp_path):
    """No name the functions read is left undefined (they used to live only in the
    compiler's namespace): each is imported from the runtime, or a constant, or a function
    of the module, or given by the engine at load."""
    for path in GAMES:
        game, _, _ = load_game(path)
        target = tmp_path / "g.py"
        target.write_text(game.compiler.module_source())
        namespace = read_module(target).namespace
        for function in (v for v in namespace.values() if getattr(v, "__module__", None) == namespace["__name__"]):
            missing = {n for n in function.__code__.co_names if n not in namespace and not hasattr(builtins, n)}
            # (co_names also holds attribute names: those of the state are read through s.)
            assert not {n for n in missing if n.startswith(("_k", "_span", "_domain", "_label", "_ins"))}, path


# generated lines still over the limit, per game: a cached function's table of values written as
# one comprehension (whatever else is long is written over lines: render_python.joined, gap,
# unless, and the wide layout of Writer.statement). Must only shrink.
KNOWN_LONG_LINES = {
    "backgammon": 0, "checkers": 0, "connect-four": 0, "continents": 0, "goofspiel": 0, "hearts": 0,
    "kuhn-poker": 0, "leduc-poker": 0, "liars-dice": 0, "love-letter": 0, "othello": 0, "solstis": 0,
    "the-resistance": 0, "tic-tac-toe": 0, "titicaca": 2, "continents-four-cards": 0, "continents-six-places": 0, "titicaca-wide": 2,
    "skull": 0,
}


@pytest.mark.slow
def test_only_the_engine_gives_a_module_values_and_only_its_step_driver_and_flow():
    """Every value a module's functions read is written as source (literals, or calls of the
    runtime's makers: boards, labels, rows of zone keys) but for the engine's step driver, the
    flow's instructions and the cache's reset, which the engine gives when it loads the module."""
    for path in GAMES:
        game, _, _ = load_game(path)
        given = [name for line in game.compiler.module_source().splitlines() if line.endswith(" = None")
                 and not line.startswith(" ") for name in line[:-len(" = None")].split(" = ")]
        assert {name for name in given if not name.startswith("_ins")} <= set(ENGINE_LINKED) | {"memo_reset"}, path


@pytest.mark.slow
def test_no_line_of_a_module_over_the_limit():
    """The module's own lines (settings, rules, constants, imports) are all under MAX_LINE; the
    generated functions' long lines are no more than KNOWN_LONG_LINES."""
    for path in GAMES:
        game, _, _ = load_game(path)
        own, _, functions = game.compiler.module_source().partition(FUNCTIONS_MARK)
        assert [line[:80] for line in own.splitlines() if len(line) > MAX_LINE] == [], path
        long = sum(len(line) > MAX_LINE for line in functions.splitlines())
        assert long <= KNOWN_LONG_LINES[Path(path).stem], path


@pytest.mark.parametrize("name", ["continents", "titicaca", "checkers", "liars-dice"])
def test_writing_long_expressions_over_lines_changes_only_the_layout(name, monkeypatch):
    """The module written with long joins over several lines is the same Python as the one
    written all on one line (the same syntax tree)."""
    import ast as python_ast
    from referee.interpreter.compile import render_python
    path = str(ROOT / "games" / f"{name}.rules")
    spread = load_game(path)[0].compiler.module_source()
    monkeypatch.setattr(render_python, "SPREAD", 10 ** 9)
    monkeypatch.setattr(render_python, "LONGEST", 10 ** 9)     # (no statement written wide either)
    one_line = load_game(path)[0].compiler.module_source()
    assert spread.count("\n") > one_line.count("\n")
    assert python_ast.dump(python_ast.parse(spread)) == python_ast.dump(python_ast.parse(one_line))


def test_a_module_with_other_settings_or_changed_functions_is_refused(tmp_path):
    game, _, _ = load_game(str(ROOT / "games" / "tic-tac-toe.rules"))
    path = tmp_path / "ttt.py"
    source = game.compiler.module_source()
    path.write_text(source)
    loaded, diagnostics, _ = load_game(str(path), players=3)
    assert loaded is None and diagnostics[0].code == "E605" and "players 2, not 3" in diagnostics[0].message
    path.write_text(source.replace("def fn_owned(s, L_p):", "def fn_owned(s, L_p):\n    pass"))
    loaded, diagnostics, _ = load_game(str(path))
    assert loaded is None and "compile it again" in diagnostics[0].message
    other = tmp_path / "other.py"
    other.write_text("x = 1\n")
    loaded, diagnostics, _ = load_game(str(other))
    assert loaded is None and diagnostics[0].code == "E605"


def test_literal_sources_make_the_values_again():
    from referee.dsl.ast import Span
    for value in ({1: (2, 3), "a": [frozenset({4, 5})]}, (1,), set(), frozenset(), range(3),
                  Span("g.rules", 1, 2, 3, 4), runtime.PartCounts()):
        assert eval(literal_source(value), runtime.namespace()) == value
    assert literal_source(lambda: 1) is None and literal_source({1: object()}) is None
    labeler = eval(literal_source(runtime.list_labeler(runtime.seen_labeler(2))), runtime.namespace())
    assert labeler.made_by[0] == "list_labeler" and labeler.made_by[1][0].made_by == ("seen_labeler", (2,))
    boards = runtime.Boards({"Cell": runtime.build_geometry("Cell", "grid", [(0, 1, 1), (1, 1, 2), (2, 2, 1)])})
    again = eval(literal_source(boards), runtime.namespace())
    assert again.geometries == boards.geometries and again.geometry_by_cell.keys() == {0, 1, 2}
    assert eval(literal_source(boards.functions["neighbors"]), runtime.namespace())(0) == [1, 2]
