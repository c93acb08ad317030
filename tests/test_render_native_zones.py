"""The native renderer's zones and components (render_native_zones.py): reading a zone, its
size, top and members, a component's attribute, a type's components, and the aggregates
(count, sum, any, all) over them, rendered by render_python and by render_native from the same
IR and run on the same state (an object, and its arrays): the same results. On generated IR
programs over a fixture, and on the arrays of real games' states (the layout's to_arrays)."""
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.interpreter.compile import ir
from referee.interpreter.compile.render_native import INT64, NotNative, Places, VarPlace, render_native, source
from referee.interpreter.compile.render_python import render_function
from referee.interpreter.runtime.values import EMPTY
from referee.interpreter.compile.generated_names import BoundConstant, ComponentColumn

numba = pytest.importorskip("numba", reason="the native extra (numba) is not installed")
from tests.native_support import native_functions  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CARDS = 6                                   # components 0..5, of type Card, with a rank
CAPACITY = CARDS
# zones: pile, hand[Player] (seats 1, 2); the column _A0 is the rank
PLACES = Places(zones={"pile": VarPlace(), "hand": VarPlace((1,), (None,))},
                columns={ComponentColumn("_A0"): ("rank", VarPlace(none=INT64[0]))}, components={"Card": (0, CARDS)})
ZONES = ("pile", ("hand", 1), ("hand", 2))
LOCALS = ("x", "y", "z")


class PythonState:
    """What render_python's code reads of a state here: zones, columns, entities, by_type."""

    def __init__(self, zones, ranks):
        self.zones = {key: list(items) for key, items in zones.items()}
        self.columns = [list(ranks)]
        self.entities = [{"rank": rank} for rank in ranks]
        self.by_type = {"Card": list(range(CARDS))}


def prologue():
    return (ir.Assign("_Z", ir.ReadState("zones")), ir.Assign("_E", ir.ReadState("entities")),
            ir.Assign(ComponentColumn("_A0"), ir.Item(ir.ReadState("columns"), ir.Constant(0))))


def function_of(body):
    start = prologue() + tuple(ir.Assign(name, ir.Constant(k)) for k, name in enumerate(LOCALS))
    return ir.Function("generated", ("s",), start + tuple(body) + (ir.Return(ir.Tuple(tuple(map(ir.Local, LOCALS)))),))


def run_python(function, zones, ranks):
    namespace = {"EMPTY": EMPTY}
    exec(source(render_function(function)), namespace)
    return namespace[function.name](PythonState(zones, ranks))


def zone_arrays(zones):
    pile, pile_len = np.zeros(CAPACITY, dtype=np.int64), np.zeros((), dtype=np.int64)
    hand, hand_len = np.zeros((2, CAPACITY), dtype=np.int64), np.zeros(2, dtype=np.int64)
    for key, items in zones.items():
        if key == "pile":
            pile[:len(items)], pile_len[()] = items, len(items)
        else:
            hand[key[1] - 1, :len(items)], hand_len[key[1] - 1] = items, len(items)
    return {"zone_pile": pile, "zone_pile_len": pile_len, "zone_hand": hand, "zone_hand_len": hand_len}


def native_of(function, on_disk=True):
    """The function rendered natively and compiled (kept in Numba's cache unless it was
    generated at random): called with (zones, ranks)."""
    rendered = render_native(function, PLACES)
    params = rendered.header[rendered.header.index("(") + 1:-1].split(", ")
    compiled = native_functions(source(rendered), [function.name], {"np": np}, on_disk)[function.name]
    empty = {"flow": np.zeros(5, dtype=np.int64), "env": np.zeros(0, dtype=np.int64),
             "env_has": np.zeros(0, dtype=np.bool_), "loops": np.zeros((0, 3), dtype=np.int64),
             "loop_values": np.zeros((0, 0), dtype=np.int64), "cov": np.zeros(1, dtype=np.int64)}

    def run(zones, ranks):
        arrays = {**empty, **zone_arrays(zones), "attr_rank": np.array(ranks, dtype=np.int64)}
        return compiled(*(arrays[p] for p in params))
    return run


# ---- generated IR over zones ---------------------------------------------------------------

def zone_key(key):
    return ir.Constant(key) if isinstance(key, str) else ir.Key("hand", (ir.Constant(key[1]),))


def seat_of(local):
    """A hand named by a local: hand[x % 2 + 1]."""
    return ir.Key("hand", (ir.Arithmetic("+", ir.Arithmetic("%", ir.Local(local), ir.Constant(2)), ir.Constant(1)),))


ZONE_READS = st.one_of(st.sampled_from(ZONES).map(lambda k: ir.ReadZone(zone_key(k), True)),
                       st.sampled_from(LOCALS).map(lambda name: ir.ReadZone(seat_of(name), True)))
def filtered_lists(iterables):
    """[c for c in ITERABLE if rank(c) ...]: a new list of the items that pass."""
    test = st.builds(ir.Compare, st.sampled_from(("==", "<", ">=")), st.just(ir.ReadAttribute(ir.Local("c"), "rank")),
                     st.integers(-3, 9).map(ir.Constant))
    return st.builds(lambda z, where: ir.Comprehension(ir.Local("c"), ("c",), z, where), iterables, test)


ITERABLES = st.one_of(ZONE_READS, st.just(ir.ComponentsOf("Card")), ZONE_READS.map(lambda z: ir.Call("list", (z,))),
                      st.builds(lambda a, b: ir.Call("range", (ir.Constant(a), ir.Constant(b))), st.integers(0, 3),
                                st.integers(0, CARDS)))
ITERABLES = ITERABLES | filtered_lists(ITERABLES)
RANK = ir.ReadColumn(ComponentColumn("_A0"), ir.Local("c"))      # (read inside a comprehension over c only)


def leaves():
    return st.one_of(st.integers(-5, 5).map(ir.Constant), st.sampled_from(LOCALS).map(ir.Local),
                     ZONE_READS.map(lambda z: ir.Call("len", (z,))))


def rank_tests():
    return st.builds(ir.Compare, st.sampled_from(("==", "<", ">=")), st.just(RANK), leaves())


def numbers(tests):
    def extend(inner):
        return st.one_of(st.builds(ir.Arithmetic, st.sampled_from(("+", "-")), inner, inner),
                         st.builds(lambda f, a, b: ir.Call(f, (a, b)), st.sampled_from(("min", "max")), inner, inner),
                         st.builds(lambda z, where, e: ir.Call("sum", (ir.Comprehension(e, ("c",), z, where, True),)),
                                   ITERABLES, st.none() | tests | rank_tests(), st.sampled_from((RANK, ir.Constant(1)))),
                         st.builds(lambda z, where: ir.Call("len", (ir.Comprehension(ir.Constant(1), ("c",), z, where),)),
                                   ITERABLES, tests | rank_tests()))
    return st.recursive(leaves(), extend, max_leaves=4)


def truths():
    compared = st.builds(ir.Compare, st.sampled_from(("==", "<", ">=")), leaves(), leaves())
    member = st.builds(lambda op, k, z: ir.Compare(op, ir.Constant(k), z), st.sampled_from(("in", "not in")),
                       st.integers(0, CARDS), ZONE_READS)
    top = st.builds(lambda z, k: ir.Compare("==", ir.TopOfZone(z), ir.Constant(k)), ZONE_READS, st.integers(0, CARDS))
    base = st.one_of(compared, member, top)

    def extend(inner):
        return st.one_of(inner.map(ir.Not), st.builds(lambda a, b: ir.BoolOp("and", (a, b)), inner, inner),
                         st.builds(lambda f, z, e: ir.Call(f, (ir.Comprehension(e, ("c",), z, None, True),)),
                                   st.sampled_from(("any", "all")), ITERABLES, inner | rank_tests()),
                         st.builds(lambda z, where: ir.Call("any", (ir.Comprehension(ir.Constant(True), ("c",), z, where,
                                                                                     True),)), ITERABLES,
                                   inner | rank_tests()))
    return st.recursive(base, extend, max_leaves=4)


TESTS = st.deferred(truths)
NUMBERS = numbers(TESTS)


def bounded(value):
    return ir.Arithmetic("%", value, ir.Constant(1009))


@st.composite
def statements(draw, depth=0):
    simple = [st.builds(ir.Assign, st.sampled_from(LOCALS), NUMBERS.map(bounded)),
              st.builds(lambda t, n: ir.If(t, (ir.Assign("x", bounded(n)),)), TESTS, NUMBERS)]
    if depth >= 2:
        return draw(st.one_of(simple))
    block = st.lists(statements(depth + 1), max_size=3).map(tuple)
    nested = [st.builds(ir.If, TESTS, block, block),
              st.builds(lambda t, b, u, c: ir.If(t, b, (ir.If(u, c),)), TESTS, block, TESTS, block),
              st.builds(lambda z, body: ir.ForEach(f"i{depth}", z, (ir.Assign("y", bounded(
                  ir.Arithmetic("+", ir.Local("y"), ir.ReadColumn(ComponentColumn("_A0"), ir.Local(f"i{depth}"))))),) + body),
                  ITERABLES, block),
              st.builds(lambda t, body: ir.If(ir.Constant(True), (
                  ir.Assign(f"w{depth}", ir.Constant(0)),
                  ir.While(ir.BoolOp("and", (ir.Compare("<", ir.Local(f"w{depth}"), ir.Constant(3)), t)),
                           (ir.Assign(f"w{depth}", ir.Arithmetic("+", ir.Local(f"w{depth}"), ir.Constant(1))),) + body))),
                  TESTS, block)]
    return draw(st.one_of(simple + nested))


@st.composite
def dealt(draw):
    """The cards dealt at random over the zones (some left out), and their ranks."""
    zones = {key: [] for key in ZONES if draw(st.booleans())}
    for card in draw(st.permutations(range(CARDS))):
        where = draw(st.sampled_from(list(zones) + [None])) if zones else None
        if where is not None:
            zones[where].append(card)
    return zones, draw(st.lists(st.integers(-3, 9), min_size=CARDS, max_size=CARDS))


@pytest.mark.slow
@settings(max_examples=6, deadline=None)      # (a Numba compile per example: seconds each)
@given(st.lists(statements(), min_size=1, max_size=4), dealt())
def test_python_and_native_renderings_of_zone_reads_agree(body, state):
    zones, ranks = state
    function = function_of(body)
    assert tuple(int(v) for v in native_of(function, on_disk=False)(zones, ranks)) == run_python(function, zones, ranks)


def test_each_zone_read_renders_natively_and_agrees():
    z, hand = ir.ReadZone(ir.Constant("pile"), True), ir.ReadZone(ir.Key("hand", (ir.Local("x"),)), True)
    ranks = [4, 7, 1, 9, 3, 5]
    cases = [ir.Call("len", (z,)), ir.Call("len", (hand,)),
             ir.Conditional(ir.Compare("in", ir.Constant(3), z), ir.Constant(1), ir.Constant(0)),
             ir.Conditional(ir.Compare("==", ir.TopOfZone(hand), ir.Constant(2)), ir.Constant(1), ir.Constant(0)),
             ir.Call("sum", (ir.Comprehension(RANK, ("c",), z, ir.Compare(">", RANK, ir.Constant(3)), True),)),
             ir.Call("len", (ir.Comprehension(ir.Constant(1), ("c",), ir.ComponentsOf("Card"),
                                              ir.Compare("<", RANK, ir.Local("y"))),)),
             ir.Conditional(ir.Call("any", (ir.Comprehension(ir.Compare("==", RANK, ir.Constant(9)), ("c",), hand,
                                                             None, True),)), ir.Constant(1), ir.Constant(0)),
             ir.Conditional(ir.Call("all", (ir.Comprehension(ir.Compare(">", RANK, ir.Constant(0)), ("c",), z, None,
                                                             True),)), ir.Constant(1), ir.Constant(0)),
             ir.Call("sum", (ir.Comprehension(ir.ReadAttribute(ir.Local("c"), "rank"), ("c",), ir.Comprehension(
                 ir.Local("d"), ("d",), ir.ComponentsOf("Card"), ir.Compare("not in", ir.Local("d"), hand)), None, True),)),
             ir.Call("len", (ir.Comprehension(ir.Local("c"), ("c",), z, ir.Compare(">=", RANK, ir.Local("y"))),)),
             ir.Call("sum", (ir.Comprehension(RANK, ("c",), ir.Call("list", (hand,)), None, True),)),
             ir.Conditional(ir.Compare("in", ir.Local("y"), ir.Call("range", (ir.Constant(1), ir.Local("x")))),
                            ir.Constant(1), ir.Constant(0))]
    for x in (1, 2):        # (every case in one function: one Numba compile for all, not one each)
        function = ir.Function("f", ("s",), prologue() + (ir.Assign("x", ir.Constant(x)), ir.Assign("y", ir.Constant(5)),
                                                          ir.Return(ir.Tuple(tuple(cases)))))
        native = native_of(function)
        for zones in ({"pile": [0, 3, 5], ("hand", 1): [2], ("hand", 2): [1, 4]}, {"pile": [], ("hand", 1): [4, 2]}, {}):
            got, expected = tuple(native(zones, ranks)), run_python(function, zones, ranks)
            assert len(got) == len(expected) == len(cases)
            for case, mine, python in zip(cases, got, expected):
                assert mine == python, case


def test_an_aggregate_in_a_while_test_is_computed_again_each_round():
    # while count(c in pile where rank(c) > x) > 0: x += 1
    count = ir.Call("len", (ir.Comprehension(ir.Constant(1), ("c",), ir.ReadZone(ir.Constant("pile"), True),
                                             ir.Compare(">", RANK, ir.Local("x"))),))
    body = (ir.While(ir.Compare(">", count, ir.Constant(0)), (ir.Assign("x", ir.Arithmetic("+", ir.Local("x"),
                                                                                         ir.Constant(1))),)),)
    function = function_of(body)
    zones, ranks = {"pile": [0, 1, 2]}, [4, 7, 1, 0, 0, 0]
    assert tuple(native_of(function)(zones, ranks)) == run_python(function, zones, ranks) == (7, 1, 2)
    assert "while True:" in source(render_native(function, PLACES))


def test_zones_and_columns_the_layout_has_not_are_refused():
    for value, why in ((ir.ReadZone(ir.Constant("deck")), "the zone deck has no array"),
                       (ir.ReadColumn(ComponentColumn("_A9"), ir.Constant(0)), "the column _A9 has no array"),
                       (ir.ComponentsOf("Token"), "the components of Token"),
                       (ir.ReadZone(ir.Local("k")), "a zone named by a key made elsewhere")):
        with pytest.raises(NotNative, match=why):
            render_native(ir.Function("f", ("s",), (ir.Return(ir.Call("len", (value,))),)), PLACES)


# ---- the zones and columns of real states --------------------------------------------------

def zone_probes(layout, places):
    """Functions that read every zone of the game at every cell: its size, its top, the sum
    and the count of an attribute over it, the membership of a component."""
    attribute = next(iter(places.columns), None)
    for name, place in places.zones.items():
        where = layout.zones[name][0]
        for key in where.keys():
            indexes = () if isinstance(key, str) else key[1:]
            zone = ir.ReadZone(ir.Constant(name) if not indexes else ir.Key(name, tuple(map(ir.Constant, indexes))), True)
            values = [ir.Call("len", (zone,)), ir.Conditional(ir.Compare("in", ir.Constant(0), zone), ir.Constant(1),
                                                              ir.Constant(0)),
                      ir.Conditional(ir.Compare("==", ir.TopOfZone(zone), ir.Constant(None)), ir.Constant(-1),
                                     ir.TopOfZone(zone))]
            if attribute is not None:
                read = ir.ReadColumn(attribute, ir.Local("c"))
                known = ir.Compare("is not", read, ir.Constant(None))
                values.append(ir.Call("len", (ir.Comprehension(ir.Constant(1), ("c",), zone, known),)))
            yield ir.Function(f"probe_{len(values)}", ("s",), (ir.Assign("_Z", ir.ReadState("zones")),) + (
                (ir.Assign(attribute, ir.Item(ir.ReadState("columns"), ir.Constant(int(attribute[2:])))),)
                if attribute else ()) + (ir.Return(ir.Tuple(tuple(values))),))


PROBES = 16        # zone reads compiled per game (a Numba compile each: a second or so; cached on disk)


@pytest.mark.slow
@pytest.mark.parametrize("rules, players", [("love-letter", 3), ("continents", 2), ("hearts", 4), ("titicaca", 3)])
def test_zone_reads_run_natively_on_a_real_states_arrays_as_python_runs_them(rules, players):
    from referee.interpreter.engine import load_game
    from referee.interpreter.native.layout import Layout, to_arrays
    game, _, _ = load_game(str(ROOT / "games" / f"{rules}.rules"), players=players)
    layout = Layout.of(game)
    places = layout.places()
    assert places.zones
    compiled = []
    for function in list(zone_probes(layout, places))[:PROBES]:
        python = {"EMPTY": EMPTY}
        exec(source(render_function(function)), python)
        rendered = render_native(function, places)
        params = rendered.header[rendered.header.index("(") + 1:-1].split(", ")
        compiled.append((python[function.name], native_functions(source(rendered), [function.name])[function.name],
                         params))
    s, rng, checked = game.new_initial_state(3), random.Random(3), 0
    for _ in range(12):
        if s.terminal:
            break
        if s.pending is None:
            fixed = to_arrays(layout, s).fixed
            for python_function, native_function, params in compiled:
                expected = tuple(-1 if v is None else v for v in python_function(s))
                assert tuple(int(v) for v in native_function(*layout.arguments(fixed, params))) == expected
                checked += 1
        moves = s.legal_moves()
        s.apply(moves[rng.randrange(len(moves))])
    assert checked


def test_the_modules_bound_numbers_are_written_in_place():
    # a seat list, a set of numbers (sorted), a number: iterated, tested, counted as Python does
    bound = {"_k1": [1, 2, 3], "_k2": frozenset({7, 3, 5}), "_k3": 4}
    places = Places(constants={name: tuple(sorted(v)) if isinstance(v, frozenset) else tuple(v) if isinstance(v, list)
                               else v for name, v in bound.items()})
    total = ir.Local("t")
    body = (ir.Assign("t", ir.Constant(0)),
            ir.ForEach("p", ir.Global(BoundConstant("_k1")), (ir.If(ir.Compare("in", ir.Arithmetic("+", ir.Local("p"), ir.Global(BoundConstant("_k3"))),
                                                                  ir.Global(BoundConstant("_k2"))),
                                                     (ir.Assign("t", ir.Arithmetic("+", total, ir.Local("p"))),)),)),
            ir.Return(ir.Tuple((total, ir.Call("len", (ir.Global(BoundConstant("_k1")),))))))
    function = ir.Function("f", ("s",), body)
    python = dict(bound)
    exec(source(render_function(function)), python)
    native: dict = {}
    exec(source(render_native(function, places)), native)
    state = [np.zeros(5, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.bool_),
             np.zeros((0, 3), dtype=np.int64), np.zeros((0, 0), dtype=np.int64), np.zeros(1, dtype=np.int64)]
    assert tuple(numba.njit(native["f"])(*state)) == python["f"](None) == (4, 3)
