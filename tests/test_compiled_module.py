"""A compiled module is a first-class artefact: `referee compile -o g.py` writes a module that
imports on its own (every name it reads defined or imported from the runtime), and every
command that takes a rules file takes it: the same games, the same JSON."""
import builtins
import dis
import functools
import types
import glob
import json
from collections import Counter
from pathlib import Path

import pytest

from referee.interpreter import runtime
from referee.interpreter.cli.main import main
from referee.interpreter.compile.module import ENGINE_LINKED, MAX_LINE, literal_source, read_module
from referee.interpreter.compile.module_names import plain_key
from referee.interpreter.engine import load_game

from .conftest import header
from .sweeps import sampled

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(glob.glob(str(ROOT / "games" / "*.rules")) + glob.glob(str(ROOT / "games" / "variants" / "*.rules")))
TIMING = ("seconds", "games_per_second", "moves_per_second")


def configurations():
    """Each game at one player count in the suite: the count least met so far (the largest of
    those), so that the counts the games have are met too, 2 to 6 and 10 (every game at every
    count in the sweep: python -m tests.sweeps)."""
    met = Counter()
    for path in GAMES:
        counts = list(header(path).players)
        kept = min(counts, key=lambda n: (met[n], -n))
        met[kept] += 1
        for players in sampled(counts, kept.__eq__):
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


def globals_loaded(code) -> set:
    """The global names a code object (and the code inside it: comprehensions, lambdas) loads."""
    names = {i.argval for i in dis.get_instructions(code) if i.opname in ("LOAD_GLOBAL", "LOAD_NAME")}
    for inner in code.co_consts:
        if hasattr(inner, "co_code"):
            names |= globals_loaded(inner)
    return names


@functools.cache
def compiled_module(path: str, passes_off: tuple = ()) -> tuple:
    """(game, the source of its module) of a rules file, loaded once per process: several tests
    read the modules of every game (and none changes a game)."""
    game, _, _ = load_game(path, passes_off=passes_off)
    return game, game.compiler.module_source()


def module_namespace(path, tmp_path, passes_off=()) -> tuple:
    game, source = compiled_module(path, passes_off)
    target = tmp_path / "g.py"
    target.write_text(source)
    return game, read_module(target).namespace


def own_functions(namespace) -> list:
    return [v for v in namespace.values() if getattr(v, "__module__", None) == namespace["__name__"]]


@pytest.mark.slow
def test_every_name_a_module_reads_is_defined(tmp_path):
    """No name the functions read is left undefined (they used to live only in the
    compiler's namespace, and the module passes drop what no function reads): each is imported
    from the runtime, or a constant, or a function of the module, or given by the engine at load."""
    for path in GAMES:
        for off in ((), ("drop_unread_constants", "share_equal_constants")):
            _, namespace = module_namespace(path, tmp_path, passes_off=off)
            for function in own_functions(namespace):
                missing = {n for n in globals_loaded(function.__code__) if n not in namespace and not hasattr(builtins, n)}
                assert not missing, (path, function.__name__)


def test_a_module_holds_no_value_its_functions_do_not_read_and_names_equal_ones_once(tmp_path):
    """drop_unread_constants and share_equal_constants: every value the module binds is read
    by one of its functions, no two plain values are equal, and with the passes off the
    module holds more (the same games: test_a_compiled_module_simulates_as_its_rules)."""
    for name in ("tic-tac-toe", "titicaca"):
        path = str(ROOT / "games" / f"{name}.rules")
        game, namespace = module_namespace(path, tmp_path)
        read = set().union(*(globals_loaded(f.__code__) for f in own_functions(namespace)))
        functions = {f.__name__ for f in own_functions(namespace)}
        settings = {"RULES_PATH", "RULES", "PLAYERS", "OPTIONS", "PARAMS", "EXPLICIT_CHANCE", "COVERAGE", "BOARDS"}
        bound = {n for n in namespace if not n.startswith("__") and n not in runtime.__all__} - functions - settings
        assert bound <= read, sorted(bound - read)
        plain = [plain_key(namespace[n]) for n in bound if namespace[n] is not None]
        assert len([k for k in plain if k is not None]) == len({k for k in plain if k is not None})
        source = compiled_module(path)[1]
        for off in ("drop_unread_constants", "share_equal_constants"):
            longer = compiled_module(path, (off,))[1]
            assert longer.count("\n") > source.count("\n"), off


def functions_held(root, skipped) -> set:
    """The ids of the functions reachable from an object (its attributes, items, closures),
    not through `skipped`."""
    seen, found, stack = set(), set(), [root]
    while stack:
        value = stack.pop()
        if id(value) in seen or value is skipped or isinstance(value, (str, int, float, type, type(None))):
            continue
        seen.add(id(value))
        if isinstance(value, types.FunctionType):
            found.add(id(value))
            stack += [cell.cell_contents for cell in value.__closure__ or ()] + list(value.__defaults__ or ())
        elif isinstance(value, dict):
            stack += list(value.keys()) + list(value.values())
        elif isinstance(value, (list, tuple, set, frozenset)):
            stack += list(value)
        elif isinstance(value, types.MethodType):
            stack += [value.__func__, value.__self__]
        else:
            stack += list(getattr(value, "__dict__", {}).values())
            stack += [getattr(value, slot) for slot in getattr(type(value), "__slots__", ()) if hasattr(value, slot)]
    return found


@pytest.mark.parametrize("name", ["tic-tac-toe", "titicaca"])
def test_every_function_of_a_module_is_called_by_another_or_held_by_the_engine(name, tmp_path):
    """None is written for nothing: a function only run while compiling (a board's size, a
    param) is not in the module; each one there is read by another or held by the game (an
    action's guard, a binder's domain and filter, which the refusals read)."""
    game, namespace = module_namespace(str(ROOT / "games" / f"{name}.rules"), tmp_path)
    read = set().union(*(globals_loaded(f.__code__) for f in own_functions(namespace)))
    held = functions_held(game, game.compiler)
    compiled = game.compiler.codegen.namespace
    unused = [f.__name__ for f in own_functions(namespace) if f.__name__ not in read and id(compiled[f.__name__]) not in held]
    assert unused == []


@pytest.mark.slow
def test_only_the_engine_gives_a_module_values_and_only_its_step_driver_and_flow():
    """Every value a module's functions read is written as source (literals, or calls of the
    runtime's makers: boards, labels, rows of zone keys) but for the engine's step driver, the
    flow's instructions and the cache's reset, which the engine gives when it loads the module."""
    for path in GAMES:
        given = [name for line in compiled_module(path)[1].splitlines() if line.endswith(" = None")
                 and not line.startswith(" ") for name in line[:-len(" = None")].split(" = ")]
        assert {name for name in given if not name.startswith("_ins")} <= set(ENGINE_LINKED) | {"memo_reset"}, path


@pytest.mark.slow
def test_no_line_of_a_module_over_the_limit():
    """Every line of a module is under MAX_LINE: its own (settings, rules, constants, imports)
    and its generated functions' (long expressions go over lines, a cached function's table of
    values too: render_python.loops)."""
    for path in GAMES:
        source = compiled_module(path)[1]
        assert [line[:80] for line in source.splitlines() if len(line) > MAX_LINE] == [], path


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
