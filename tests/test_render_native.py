"""The native renderer (interpreter/compile/render_native.py): the same IR rendered by
render_python and by render_native, run on the same state (an object for the one, arrays for
the other), gives the same result and leaves the same state, over small generated IR programs;
what it cannot render it names, with its rules line."""
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.interpreter.compile import ir
from referee.interpreter.compile.lower_flow import lower_run_flow
from referee.interpreter.compile.passes import run_passes
from referee.interpreter.compile.render_native_writes import ERRORS
from referee.interpreter.compile.render_native import (FLOW_FIELDS, INT64, NotNative, Places, VarPlace,
                                                       render_native, source, unsupported, variables_used)
from referee.interpreter.compile.render_python import render_function

numba = pytest.importorskip("numba", reason="the native extra (numba) is not installed")
from tests.native_support import native_functions  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
KEYS = ("a", "b")                    # the environment's scalar entries of the fixtures
LIMIT = 7                            # a constant of the module, written in place natively
COLOURS = ("red", "green", "blue")
# the variables of the fixtures: v[Player, 1..3]: int = 0, w: int = 5, c: Colour? = none
VARS = {"v": VarPlace((1, 1), (None, None), INT64[0]), "w": VarPlace(none=INT64[0]),
        "c": VarPlace(none=-1, members=COLOURS)}
DEFAULTS = {"v": 0, "w": 5, "c": None}
V_KEYS = [("v", p, i) for p in (1, 2) for i in (1, 2, 3)]
PLACES = Places({key: k for k, key in enumerate(KEYS)}, constants={"LIMIT": LIMIT}, vars=VARS)
LOCALS = ("x", "y", "z")
COUNTERS = 3


class PythonState:
    """What render_python's code reads and writes of a state: its fields and its environment."""

    def __init__(self, fields, env, variables=None):
        for name, value in zip(FLOW_FIELDS, fields):
            setattr(self, name, bool(value) if name in ("extra", "terminal") else value)
        self.env = dict(env)
        self.vars = dict(variables or {})


def variable_table(variables):
    """Every entry of the fixtures' variables, as codes."""
    get = lambda key: variables.get(key, DEFAULTS[key if isinstance(key, str) else key[0]])
    colour = get("c")
    return [get(key) for key in V_KEYS] + [get("w"), -1 if colour is None else COLOURS.index(colour)]


def run_python(function, fields, env, variables=None):
    namespace = {"COV": [0] * COUNTERS, "LIMIT": LIMIT, "MEMO_STAMPS": [0] * 4}
    exec(source(render_function(function)), namespace)
    s = PythonState(fields, env, variables)
    result = namespace[function.name](s)
    return result, [int(getattr(s, name)) for name in FLOW_FIELDS], s.env, namespace["COV"], variable_table(s.vars)


def run_native(function, fields, env, variables=None, on_disk=True):
    """(on_disk: the compile kept in Numba's cache; not for a function generated at random)"""
    compiled = native_functions(source(render_native(function, PLACES)), [function.name], on_disk=on_disk)[function.name]
    flow = np.array(fields, dtype=np.int64)
    values = np.array([env.get(key, 0) for key in KEYS], dtype=np.int64)
    has = np.array([key in env for key in KEYS], dtype=np.bool_)
    cov = np.zeros(COUNTERS, dtype=np.int64)
    table = variable_table(variables or {})
    arrays = {"v": np.array(table[:6], dtype=np.int64).reshape(2, 3), "w": np.array(table[6], dtype=np.int64),
              "c": np.array(table[7], dtype=np.int64)}
    result = compiled(flow, values, has, np.zeros((0, 3), dtype=np.int64), np.zeros((0, 0), dtype=np.int64), cov,
                      *(arrays[name] for name in variables_used(function)))
    after = {key: int(values[k]) for k, key in enumerate(KEYS) if has[k]}
    table = arrays["v"].reshape(-1).tolist() + [int(arrays["w"]), int(arrays["c"])]
    return result, flow.tolist(), after, cov.tolist(), table


def function_of(body):
    start = (ir.Assign("e", ir.ReadState("env")), ir.Assign("_V", ir.ReadState("vars"))) + tuple(ir.Assign(name, ir.Constant(k)) for k, name in
                                                          enumerate(LOCALS))
    result = ir.Return(ir.Tuple(tuple(ir.Local(name) for name in LOCALS)))
    return ir.Function("generated", ("s",), start + tuple(body) + (result,))


def assert_same(function, fields, env, variables=None, on_disk=True):
    python = run_python(function, fields, env, variables)
    native = run_native(function, fields, env, variables, on_disk)
    assert tuple(int(v) for v in native[0]) == python[0]
    assert native[1:] == python[1:]


# ---- small IR programs ---------------------------------------------------------------------

small = st.integers(-20, 20)
nonzero = st.integers(-6, 6).filter(bool)


def bounded(value):
    """Values written stay small (Python's ints never overflow, int64s do)."""
    return ir.Arithmetic("%", value, ir.Constant(1009))


def v_key():
    """An entry of v: its seat a constant or computed from a local (x % 2 + 1), its column a constant."""
    seat = st.one_of(st.integers(1, 2).map(ir.Constant), st.sampled_from(LOCALS).map(
        lambda name: ir.Arithmetic("+", ir.Arithmetic("%", ir.Local(name), ir.Constant(2)), ir.Constant(1))))
    return st.builds(lambda p, i: ir.Key("v", (p, ir.Constant(i))), seat, st.integers(1, 3))


def leaves():
    env_read = st.sampled_from(KEYS).map(lambda k: ir.Conditional(ir.HasEnv(k), ir.ReadEnv(k), ir.Constant(0)))
    return st.one_of(small.map(ir.Constant), st.sampled_from(LOCALS).map(ir.Local),
                     st.sampled_from(("pc", "current", "turn")).map(ir.ReadState), env_read,
                     st.just(ir.Global("LIMIT")), v_key().map(lambda k: ir.ReadVar(k, ir.Constant(0))),
                     st.just(ir.ReadVar(ir.Key("w"), ir.Constant(5))))


def numbers(bools):
    def extend(inner):
        return st.one_of(
            st.builds(ir.Arithmetic, st.sampled_from(("+", "-")), inner, inner),
            st.builds(ir.Arithmetic, st.just("*"), leaves(), leaves()),
            st.builds(ir.Arithmetic, st.sampled_from(("//", "%")), inner, nonzero.map(ir.Constant)),
            st.builds(ir.Conditional, bools, inner, inner),
            st.builds(lambda f, a, b: ir.Call(f, (a, b)), st.sampled_from(("min", "max")), inner, inner),
            inner.map(lambda a: ir.Call("abs", (a,))),
            st.builds(lambda items, k: ir.Item(ir.Tuple(tuple(map(ir.Constant, items))), ir.Constant(k % len(items))),
                      st.lists(small, min_size=1, max_size=4), st.integers(0, 10)))
    return st.recursive(leaves(), extend, max_leaves=6)


def truths():
    comparisons = st.builds(ir.Compare, st.sampled_from(("==", "!=", "<", "<=", ">", ">=")), leaves(), leaves())
    membership = st.builds(lambda op, x, items: ir.Compare(op, x, ir.Tuple(tuple(map(ir.Constant, items)))),
                           st.sampled_from(("in", "not in")), leaves(), st.lists(small, min_size=1, max_size=4))
    colour = st.builds(lambda op, value: ir.Compare(op, ir.ReadVar(ir.Key("c"), ir.Constant(None)), ir.Constant(value)),
                       st.sampled_from(("==", "!=")), st.sampled_from((None,) + COLOURS)) | st.builds(
        lambda op: ir.Compare(op, ir.ReadVar(ir.Key("c"), ir.Constant(None)), ir.Constant(None)),
        st.sampled_from(("is", "is not")))
    ranged = st.builds(lambda a, b, c: ir.Between(a, b, c), leaves(), leaves(), leaves())
    base = st.one_of(st.booleans().map(ir.Constant), comparisons, membership, colour, ranged,
                     st.sampled_from(KEYS).map(ir.HasEnv), st.sampled_from(("extra", "terminal")).map(ir.ReadState))

    def extend(inner):
        return st.one_of(inner.map(ir.Not),
                         st.builds(lambda op, items: ir.BoolOp(op, tuple(items)), st.sampled_from(("and", "or")),
                                   st.lists(inner, min_size=2, max_size=3)))
    return st.recursive(base, extend, max_leaves=4)


BOOLS = truths()
NUMBERS = numbers(BOOLS)


@st.composite
def statements(draw, depth=0, loops=0):
    simple = [
        st.builds(ir.Assign, st.sampled_from(LOCALS), NUMBERS.map(bounded)),
        st.builds(ir.WriteState, st.sampled_from(("pc", "current", "turn")), NUMBERS.map(bounded)),
        st.builds(ir.WriteState, st.sampled_from(("extra", "terminal")), BOOLS),
        st.builds(ir.WriteEnv, st.sampled_from(KEYS), NUMBERS.map(bounded)),
        st.builds(ir.DeleteEnv, st.sampled_from(KEYS)).map(
            lambda d: ir.If(ir.HasEnv(d.key), (d,))),
        st.builds(lambda t, a, b: ir.Unpack(t, ir.Tuple((bounded(a), bounded(b)))),
                  st.permutations(LOCALS).map(lambda p: tuple(p[:2])), NUMBERS, NUMBERS),
        st.integers(0, COUNTERS - 1).map(ir.CountCoverage),
        st.builds(ir.WriteVar, v_key(), NUMBERS.map(bounded)),
        st.builds(ir.WriteVar, st.just(ir.Key("w")), NUMBERS.map(bounded)),
        st.builds(ir.WriteVar, st.just(ir.Key("c")), st.sampled_from((None,) + COLOURS).map(ir.Constant)),
        st.builds(lambda k: ir.Invalidate(k), st.integers(0, 3)),
        st.builds(lambda n: ir.ExpressionStatement(ir.Call("abs", (n,))), NUMBERS),
        st.just(ir.Return(ir.Tuple(tuple(ir.Local(name) for name in LOCALS)))),
    ]
    # what a Guard may do on its test's line (render_python writes it there)
    one_line = [simple[0], simple[1], simple[6], simple[7], simple[8], simple[10]]
    if loops:
        simple += [st.builds(lambda t, j: ir.If(t, (j,)), BOOLS, st.sampled_from((ir.Break(), ir.Continue())))]
        one_line += [st.sampled_from((ir.Break(), ir.Continue()))]
    if depth >= 2:
        return draw(st.one_of(simple))
    block = st.lists(statements(depth + 1, loops), max_size=3).map(tuple)
    looped = st.lists(statements(depth + 1, loops + 1), max_size=3).map(tuple)
    counter = f"w{depth}"
    nested = [
        st.builds(ir.If, BOOLS, block, block),
        st.builds(ir.Guard, BOOLS, st.lists(st.one_of(one_line), min_size=1, max_size=2).map(tuple), block),
        block.map(ir.Rule),
        st.builds(lambda count, body, done: ir.Rounds(f"r{depth}", ir.Constant(count), body, done),
                  st.integers(0, 3), looped, block),
        st.builds(lambda stop, body: ir.ForRange(f"i{depth}", ir.Constant(0), ir.Constant(stop), body),
                  st.integers(0, 4), looped),
        st.builds(lambda items, body: ir.ForEach(f"v{depth}", ir.Tuple(tuple(map(ir.Constant, items))), body),
                  st.lists(small, min_size=1, max_size=3), looped),
        st.builds(lambda stop, body: ir.If(ir.Constant(True), (
            ir.Assign(counter, ir.Constant(0)),
            ir.While(ir.Compare("<", ir.Local(counter), ir.Constant(stop)),
                     (ir.Assign(counter, ir.Arithmetic("+", ir.Local(counter), ir.Constant(1))),) + body))),
                  st.integers(0, 3), looped),
    ]
    return draw(st.one_of(simple + nested))


FIELDS = st.tuples(small, small, small, st.integers(0, 1), st.integers(0, 1)).map(list)
ENVS = st.dictionaries(st.sampled_from(KEYS), small)
VARIABLES = st.dictionaries(st.sampled_from(V_KEYS + ["w"]), small).flatmap(
    lambda entries: st.sampled_from((None,) + COLOURS).map(
        lambda colour: entries if colour is None else {**entries, "c": colour}))


@pytest.mark.slow
@settings(max_examples=15, deadline=None)      # (a Numba compile per example)
@given(st.lists(statements(), min_size=1, max_size=5), FIELDS, ENVS, VARIABLES)
def test_python_and_native_renderings_of_the_same_ir_agree(body, fields, env, variables):
    assert_same(function_of(body), fields, env, variables, on_disk=False)


def test_a_flow_block_renders_natively_and_runs_as_python_does():
    # turns_check's shape: the next seat unless the condition holds, the turn counted
    body = (ir.If(ir.Compare(">=", ir.ReadState("turn"), ir.Global("LIMIT")),
                  (ir.DeleteEnv("a"), ir.WriteState("terminal", ir.Constant(True))),
                  (ir.WriteState("current", ir.ReadEnv("a")),
                   ir.WriteState("extra", ir.Constant(False)),
                   ir.WriteState("turn", ir.Arithmetic("+", ir.ReadState("turn"), ir.Constant(1))),
                   ir.WriteEnv("a", ir.Arithmetic("+", ir.Arithmetic("%", ir.ReadEnv("a"), ir.Constant(3)),
                                                  ir.Constant(1))),
                   ir.CountCoverage(2))),)
    for turn in (0, 6, 7, 9):
        assert_same(function_of(body), [4, 1, turn, 1, 0], {"a": 2, "b": 5})
    text = source(render_native(function_of(body), PLACES))
    assert "flow[2] += 1" in text and "env_has[0] = False" in text and "cov[2] += 1" in text


def test_what_it_cannot_render_it_names_with_the_rules_line():
    from referee.interpreter.engine import load_game
    from referee.interpreter.native.layout import Layout
    game, _, _ = load_game(str(ROOT / "games/tic-tac-toe.rules"))
    function = run_passes(lower_run_flow(game.flow, game.num_players, lambda ins: "ins"), frozenset())
    places = Layout.of(game).places()
    with pytest.raises(NotNative):
        render_native(function, places)
    notes = unsupported(function, places)
    assert notes and all("tic-tac-toe.rules:" in note for note in notes)
    assert any("StateCall: the state's Python operation listed" in note for note in notes)
    flow_line = next(n for n in notes if "Call: the runtime's seat has no native version" in n)
    assert flow_line.split(": ")[0].rsplit(":", 1)[-1].isdigit()


def test_values_with_no_native_form_are_refused():
    for body, why in (((ir.Assign("x", ir.Constant("text")),), "a text has no native value"),
                      ((ir.Yield(ir.Constant(1), "x"),), "a decision"),
                      ((ir.WriteEnv("missing", ir.Constant(1)),), "'missing' is not a scalar of the layout"),
                      ((ir.Break(),), "break outside a loop")):
        with pytest.raises(NotNative, match=why):
            render_native(function_of(body), PLACES)


# ---- the flow's own IR, on the arrays of real states ---------------------------------------

FLOW_LOCALS = ("e", "pc", "jumps", "_V")      # run_flow's locals, bound before its blocks
# an end or an error stops a block: not a part alone (tests/test_native_writes.py runs them)
STOPS = frozenset({"finish", *ERRORS})

def native_parts(statements, places, known=frozenset()):
    """The statements of a block that render natively, else those of the blocks inside the ones
    that do not, in order (returns and jumps left out; a statement that reads a local only if a
    part before it binds it)."""
    out, known = [], set(known)
    for statement in statements:
        if standalone(statement, known) and not unsupported(ir.Function("f", ("s",), tuple(out) + (statement,)), places):
            out.append(statement)
            known |= {node.target for node in ir.walk(statement) if isinstance(node, ir.Assign)}
            known |= {name for node in ir.walk(statement) if isinstance(node, ir.Unpack) for name in node.targets}
        elif isinstance(statement, (ir.If, ir.Guard)):
            out += native_parts(getattr(statement, "body", ()) + getattr(statement, "then", ()), places, known)
            out += native_parts(statement.orelse, places, known)
        elif isinstance(statement, (ir.Try, ir.Rule)):
            inner = native_parts(statement.body, places, known)
            out += inner
            known |= {node.target for part in inner for node in ir.walk(part) if isinstance(node, ir.Assign)}
    return out


def standalone(statement, known):
    """Whether a statement makes a part: no return or jump of run_flow's, no local read that is
    not run_flow's own, bound by a part before it or by itself."""
    nodes = list(ir.walk(statement))
    bound = known | {node.target for node in nodes if isinstance(node, ir.Assign)}
    bound |= {name for node in nodes if isinstance(node, ir.Unpack) for name in node.targets}
    return not any(isinstance(node, ir.ENDS_BLOCK) or isinstance(node, ir.Local) and node.name not in FLOW_LOCALS
                   and node.name not in bound or isinstance(node, ir.Call) and node.function in STOPS
                   for node in nodes)


def instruction_blocks(function):
    """The statements of each `if pc == k:` block of run_flow, by k."""
    for node in ir.walk(function):
        if (isinstance(node, ir.If) and isinstance(node.test, ir.Compare) and node.test.op == "=="
                and node.test.left == ir.Local("pc")):
            yield node.test.right.value, node.body


@pytest.mark.slow
@pytest.mark.parametrize("rules, players", [("tic-tac-toe", 2), ("continents", 3), ("titicaca", 3),
                                            ("backgammon", 2), ("love-letter", 3), ("leduc-poker", 2)])
def test_the_flows_own_ir_runs_natively_on_a_states_arrays_as_python_runs_it(rules, players):
    import random
    from referee.interpreter.engine import load_game
    from referee.interpreter.native import write_helpers
    from referee.interpreter.native.layout import Layout, to_arrays
    game, _, _ = load_game(str(ROOT / "games" / f"{rules}.rules"), players=players)
    layout = Layout.of(game)
    places = layout.places()
    flow = run_passes(lower_run_flow(game.flow, game.num_players, lambda ins: "ins"), frozenset())
    start = (ir.Assign("e", ir.ReadState("env")), ir.Assign("_V", ir.ReadState("vars")),
             ir.Assign("_Z", ir.ReadState("zones")), ir.Assign("_E", ir.ReadState("entities")),
             ir.Assign("pc", ir.ReadState("pc")), ir.Assign("jumps", ir.Constant(0)))
    functions = []
    for k, block in instruction_blocks(flow):
        parts = native_parts(block, places)
        if parts:
            body = start + tuple(parts) + (ir.Return(ir.Tuple((ir.Local("pc"), ir.Local("jumps")))),)
            function = ir.Function(f"block_{k}", ("s",), body)
            python = dict(game.compiler.codegen.namespace)        # (the module's constants, stamps)
            exec(source(render_function(function)), python)
            rendered = render_native(function, places)
            native = native_functions(source(rendered), [function.name], write_helpers.namespace())
            functions.append((python[function.name], native[function.name], variables_used(function),
                              rendered.header[rendered.header.index("(") + 1:-1].split(", ")))
    assert functions
    s, rng, runs = game.new_initial_state(1), random.Random(1), 0
    while not s.terminal and runs < 40:
        if s.pending is None:
            arrays = to_arrays(layout, s).fixed
            for python_function, native_function, variables, parameters in functions:
                copy = s.clone()
                try:
                    expected = python_function(copy)
                except KeyError:    # an entry this block reads is not set in this state: the flow
                    continue        # never reads one there (natively: an undefined value)
                mine = {name: array.copy() for name, array in arrays.items()}
                got = native_function(*layout.arguments(mine, parameters))
                after = to_arrays(layout, copy).fixed
                assert tuple(got) == expected
                assert mine["flow"].tolist() == after["flow"].tolist()
                assert mine["env.has"].tolist() == after["env.has"].tolist()
                assert (mine["env"] * mine["env.has"]).tolist() == (after["env"] * after["env.has"]).tolist()
                for name in variables:
                    assert mine[f"var.{name}"].tolist() == after[f"var.{name}"].tolist(), name
                present = mine["loops"][:, :1]
                assert (mine["loops"] * present).tolist() == (after["loops"] * after["loops"][:, :1]).tolist()
                runs += 1
        moves = s.legal_moves()
        s.apply(moves[rng.randrange(len(moves))])
    assert runs


DOMAIN = "def domain():\n    return np.array([3, 1, 4, 1, 5], dtype=np.int64)\n\n\n"


def test_a_loops_entry_lives_in_the_loop_arrays_as_in_the_environment():
    # for_init and for_next's shape (lower_flow.py): (values, 0), then unpacked, advanced, deleted
    values, i, x, y = ir.Local("values"), ir.Local("i"), ir.Local("x"), ir.Local("y")
    step = (ir.Unpack(("values", "i"), ir.ReadEnv("L")),
            ir.If(ir.Compare(">=", i, ir.Call("len", (values,))), (ir.DeleteEnv("L"), ir.Break()),
                  (ir.Assign("x", ir.Arithmetic("+", ir.Arithmetic("*", x, ir.Constant(10)), ir.Item(values, i))),
                   ir.WriteEnv("L", ir.Tuple((values, ir.Arithmetic("+", i, ir.Constant(1))))))))
    places = Places({}, frozenset({"domain"}), loops={"L": 0})
    for rounds in (2, 9):          # stopped half-way (the entry kept), and run to its end (deleted)
        body = (ir.Assign("e", ir.ReadState("env")), ir.Assign("x", ir.Constant(0)), ir.Assign("y", ir.Constant(0)),
                ir.WriteEnv("L", ir.Tuple((ir.Call("domain"), ir.Constant(0)))),
                ir.While(ir.Compare("<", y, ir.Constant(rounds)),
                         (ir.Assign("y", ir.Arithmetic("+", y, ir.Constant(1))),) + step),
                ir.Return(ir.Tuple((x, y))))
        function = ir.Function("looped", ("s",), body)
        python = {"domain": lambda: (3, 1, 4, 1, 5)}
        exec(source(render_function(function)), python)
        s = PythonState([0] * 5, {})
        expected = python[function.name](s)
        native = native_functions(DOMAIN + source(render_native(function, places)), ["domain", function.name],
                                  {"np": np})
        loops, loop_values = np.zeros((1, 3), dtype=np.int64), np.zeros((1, 5), dtype=np.int64)
        got = native[function.name](np.zeros(5, dtype=np.int64), np.zeros(0, dtype=np.int64),
                                                np.zeros(0, dtype=np.bool_), loops, loop_values,
                                                np.zeros(1, dtype=np.int64))
        assert tuple(got) == expected
        if "L" in s.env:
            kept, position = s.env["L"]
            assert loops[0].tolist() == [1, len(kept), position] and loop_values[0].tolist() == list(kept)
        else:
            assert loops[0, 0] == 0 and expected == (31415, 6)


def test_an_environment_passed_in_is_not_the_flows():
    function = ir.Function("binder", ("s", "e"), (ir.Return(ir.ReadEnv("a")),))
    with pytest.raises(NotNative, match="an environment passed in as a parameter"):
        render_native(function, PLACES)
