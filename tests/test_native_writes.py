"""The native renderer's writes (render_native_writes.py): moves, deals, shuffles, reveals, an
attribute written, the end of a game inside the flow's try, the runtime's errors through `err`,
the step's budgets, a cached function without its cache, typed none tests and a call of another
generated function. Each IR function runs twice on the same state of a real game (Kuhn poker:
three cards, a deck, hands): rendered by render_python on the State, and by render_native under
Numba on its arrays (native/layout.py); the arrays after must be the State's after."""
from pathlib import Path

import attrs
import numpy as np
import pytest

from referee.interpreter.compile import ir
from referee.interpreter.compile.render_native import render_all, render_native, source, state_arrays
from referee.interpreter.compile.render_native_writes import uncached
from referee.interpreter.compile.render_python import render_function
from referee.interpreter.runtime import MAX_STEP_ROUNDS, MAX_STEP_WORK
from referee.interpreter.runtime.errors import RulesRuntimeError
from referee.interpreter.compile.generated_names import RulesFunction, RulesLocal

numba = pytest.importorskip("numba", reason="the native extra (numba) is not installed")
from tests.native_support import native_functions  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
S = ir.TheState()
PROLOGUE = (ir.Assign("_Z", ir.ReadState("zones")), ir.Assign("_E", ir.ReadState("entities")),
            ir.Assign("_V", ir.ReadState("vars")))
HAND1, HAND2 = ir.Key("hand", (ir.Constant(1),)), ir.Key("hand", (ir.Constant(2),))
DECK = ir.Constant("deck")


def function(name, *body, params=("s",)):
    return ir.Function(name, params, PROLOGUE + tuple(body))


def stated(call):
    return ir.ExpressionStatement(call)


@pytest.fixture(scope="module")
def kuhn():
    from referee.interpreter.engine import load_game
    from referee.interpreter.native import write_helpers
    from referee.interpreter.native.layout import Layout
    game, _, _ = load_game(str(ROOT / "games" / "kuhn-poker.rules"), players=2)
    layout = Layout.of(game)
    return game, layout, layout.places(), write_helpers


def run_python(game, function, s, *args):
    game.step_budget[:] = (MAX_STEP_ROUNDS, MAX_STEP_WORK)        # (as the engine sets it before a step)
    namespace = dict(game.compiler.codegen.namespace)
    exec(source(render_function(function)), namespace)
    try:
        return namespace[function.name](s, *args), None
    except RulesRuntimeError as error:
        return None, error


COMPILED: dict = {}        # (a function, its places) -> compiled once for the module's tests


def compiled(kuhn, function, places, more):
    found = COMPILED.get((function, id(places)))
    if found is None:
        # (generated functions it calls rendered before it, compiled first; Numba's cache keeps them)
        rendered = render_native(function, places)
        text = "".join(source(render_native(callee, places)) + "\n\n" for callee in more) + source(rendered)
        native = native_functions(text, [callee.name for callee in more] + [function.name], kuhn[3].namespace())
        found = COMPILED[(function, id(places))] = (native[function.name], state_arrays(rendered, function))
    return found


def run_native(kuhn, function, fixed, *args, places=None, more=()):
    """The function under Numba on the arrays `fixed` (changed in place, the attributes written
    back): its result, and err (None if it did not stop)."""
    game, layout, default, helpers = kuhn
    native, parameters = compiled(kuhn, function, places or default, more)
    arrays = layout.arguments(fixed, parameters)
    err = next((a for p, a in zip(parameters, arrays) if p == "err"), None)
    try:
        result = native(*arrays, *args)
    except helpers.NativeStop:
        result = None
    else:
        err = None
    layout.columns_from_attributes(fixed, {p: a for p, a in zip(parameters, arrays) if p.startswith("attr_")})
    return result, err


def same_arrays(layout, s, fixed):
    from referee.interpreter.native.layout import to_arrays
    expected = to_arrays(layout, s).fixed
    for name, array in expected.items():
        if name.endswith(".made"):       # (a zone made by a move natively is its length alone)
            continue
        if name.startswith("zone.") and not name.endswith(".len"):     # (what lies past a zone's length is no item)
            lengths = expected[f"{name}.len"]
            for cell in np.ndindex(*lengths.shape):
                assert fixed[name][cell][:lengths[cell]].tolist() == array[cell][:lengths[cell]].tolist(), name
            continue
        assert np.array_equal(fixed[name], array), name


def both(kuhn, function, seed=1, *args):
    """The function run by both paths from the state of `seed`: (python result, native result), the arrays checked."""
    from referee.interpreter.native.layout import to_arrays
    game, layout, places, _ = kuhn
    s = game.new_initial_state(seed)
    fixed = to_arrays(layout, s).fixed
    expected, error = run_python(game, function, s, *args)
    got, err = run_native(kuhn, function, fixed, *args)
    assert error is None and err is None
    same_arrays(layout, s, fixed)
    return expected, got


UNDER = ir.Local(RulesLocal("L_under"))


def test_a_move_takes_a_card_from_where_it_is_to_a_zone_top_or_bottom(kuhn):
    moves = function("moves", *(stated(ir.StateCall("move", (ir.Constant(x), HAND1, UNDER))) for x in (0, 2, 1)),
                     params=("s", RulesLocal("L_under")))
    for seed in (1, 2, 3):
        for under in (False, True):
            both(kuhn, moves, seed, under)


def test_a_deal_moves_the_sources_top_cards_one_by_one_and_stops_when_it_is_empty(kuhn):
    gather = [stated(ir.StateCall("move", (ir.Constant(x), DECK, ir.Constant(False)))) for x in (1, 2)]
    dealt = function("dealt", *gather, stated(ir.StateCall("deal", (ir.Local(RulesLocal("L_count")), DECK, HAND2, UNDER))),
                     params=("s", RulesLocal("L_count"), RulesLocal("L_under")))
    for count, under in ((2, False), (5, False), (1, True), (0, False)):
        both(kuhn, dealt, 1, count, under)


def test_move_all_moves_every_item_in_order_or_reversed_under(kuhn):
    gather = [stated(ir.StateCall("move", (ir.Constant(x), DECK, ir.Constant(False)))) for x in (1, 2)]
    moved = function("moved_all", *gather, ir.Assign("_target", HAND1),
                     stated(ir.Call("move_all", (S, ir.ReadZone(DECK, True), ir.Local("_target"), UNDER))),
                     params=("s", RulesLocal("L_under")))
    for under in (False, True):
        both(kuhn, moved, 1, under)


def test_a_shuffle_draws_what_python_draws_and_hides_what_was_shown(kuhn):
    gather = [stated(ir.StateCall("move", (ir.Constant(x), DECK, ir.Constant(False)))) for x in (1, 2)]
    shown = stated(ir.Call("reveal_to", (S, ir.Tuple((ir.Constant(0), ir.Constant(2))), ir.Tuple((ir.Constant(2),)))))
    for seed in (1, 5):
        both(kuhn, function("shuffled", *gather, shown, stated(ir.Call("shuffle", (S, DECK))),
                            stated(ir.Call("shuffle", (S, DECK)))), seed)


def test_a_reveal_shows_components_to_seats_and_a_move_forgets_it(kuhn):
    reveal = stated(ir.Call("reveal_to", (S, ir.ReadZone(HAND1, True), ir.Tuple((ir.Constant(1), ir.Constant(2))))))
    moved = ir.If(ir.Local(RulesLocal("L_moved")), (stated(ir.StateCall("move", (ir.Constant(1), HAND2, ir.Constant(False)))),))
    for then_moved in (False, True):
        both(kuhn, function("revealed", reveal, moved, params=("s", RulesLocal("L_moved"))), 1, then_moved)


def test_an_attribute_written_is_its_column(kuhn):
    top = ir.TopOfZone(ir.ReadZone(HAND1, True))
    written = function("written", stated(ir.Call("set_attribute", (S, top, ir.Constant("strength"),
                                                                   ir.Local(RulesLocal("L_value")), ir.Constant(None)))),
                       params=("s", RulesLocal("L_value")))
    from referee.interpreter.native.layout import to_arrays
    game, layout, _, _ = kuhn
    for value in (7, -3):
        s = game.new_initial_state(1)
        fixed = to_arrays(layout, s).fixed
        run_python(game, written, s, value)
        run_native(kuhn, written, fixed, value)
        same_arrays(layout, s, fixed)
        assert fixed["column.Card.strength"][s.zones[("hand", 1)][-1]] == value


def test_an_end_inside_the_flows_try_sets_the_winners_and_takes_the_handler(kuhn):
    def ends(winners):
        return (ir.WriteState("terminal", ir.Constant(True)), stated(ir.Call("finish", (S, winners))))
    which = ir.Local(RulesLocal("L_which"))
    body = ir.If(ir.Compare("==", which, ir.Constant(0)), ends(ir.Tuple((ir.Constant(2),))),
                 (ir.If(ir.Compare("==", which, ir.Constant(1)), ends(ir.Tuple(())),
                        ends(ir.Tuple((ir.Constant(2), ir.Constant(1), ir.Constant(2))))),))
    ended = function("ended", ir.Try((body,), "Finished", (ir.Return(ir.Constant(7)),)), ir.Return(ir.Constant(0)),
                     params=("s", RulesLocal("L_which")))
    for k in range(3):
        expected, got = both(kuhn, ended, 1, k)
        assert expected == got == 7


def test_winners_that_are_not_seats_stop_with_pythons_error(kuhn):
    from referee.interpreter.native.layout import to_arrays
    game, layout, places, _ = kuhn
    ended = function("strangers", ir.Try((stated(ir.Call("finish", (S, ir.Tuple((ir.Constant(3),))))),), "Finished",
                                         (ir.Return(ir.Constant(7)),)), ir.Return(ir.Constant(0)))
    s = game.new_initial_state(1)
    fixed = to_arrays(layout, s).fixed
    _, error = run_python(game, ended, s)
    _, err = run_native(kuhn, ended, fixed)
    assert str(layout.runtime_error(places, err, s)) == str(error) and "not 3" in str(error)


@pytest.mark.parametrize("value", [2, 5, -1])
def test_a_runtime_error_stops_natively_at_its_site_with_pythons_message(kuhn, value):
    from referee.interpreter.native.layout import to_arrays
    game, layout, places, _ = kuhn
    checked = function("checked", ir.Assign("_number", ir.Local(RulesLocal("L_value"))),
                       ir.Guard(ir.Not(ir.Between(ir.Constant(0), ir.Local("_number"), ir.Constant(3))),
                                (stated(ir.Call("outside_range", (ir.Constant("pot"), ir.Local("_number"), ir.Constant(0),
                                                                  ir.Constant(3), ir.Constant(None)))),)),
                       ir.WriteVar(ir.Key("pot"), ir.Local("_number")), ir.Return(ir.Local("_number")),
                       params=("s", RulesLocal("L_value")))
    s = game.new_initial_state(1)
    fixed = to_arrays(layout, s).fixed
    expected, error = run_python(game, checked, s, value)
    got, err = run_native(kuhn, checked, fixed, value)
    if error is None:
        assert err is None and got == expected == value
        same_arrays(layout, s, fixed)
    else:
        assert got is None and str(layout.runtime_error(places, err, s)) == str(error)
        assert f"given {value}" in str(error)


def test_the_steps_budgets_are_spent_and_read(kuhn):
    spent = function("spent", ir.Spend(0, ir.Constant(3)), ir.Spend(1, ir.Constant(40)), ir.Spend(0, ir.Constant(2)),
                     ir.Return(ir.Tuple((ir.Budget(0), ir.Budget(1)))))
    expected, got = both(kuhn, spent)
    assert tuple(got) == expected


def test_a_cached_function_computes_its_value_natively_without_its_cache(kuhn):
    key = ir.CacheKey((ir.Local(RulesLocal("L_p")),))
    entry, stamp, value = ir.Local("entry"), ir.Local("stamp"), ir.Local("value")
    cache = ir.Global("_cache_for_the_test")
    kuhn[0].compiler.codegen.namespace["_cache_for_the_test"] = {}
    body = (ir.Guard(ir.Compare("is not", ir.Item(ir.Global("MEMO_OWNER"), ir.Constant(0)), S),
                     (stated(ir.Call("memo_reset", (S,))),)),
            ir.Assign("stamp", ir.Item(ir.Global("MEMO_STAMPS"), ir.Constant(0))),
            ir.Assign("entry", ir.Method(cache, "get", (key,))),
            ir.Guard(ir.BoolOp("and", (ir.Compare("is not", entry, ir.Constant(None)),
                                       ir.Compare("==", ir.Item(entry, ir.Constant(0)), stamp))),
                     (ir.Return(ir.Item(entry, ir.Constant(1))),)),
            ir.Assign("value", ir.Arithmetic("+", ir.ReadVar(ir.Key("net", (ir.Local(RulesLocal("L_p")),)), ir.Constant(-1)),
                                             ir.ReadVar(ir.Key("pot"), ir.Constant(2)))),
            ir.SetItem(cache, key, ir.Tuple((stamp, value))), ir.Return(value))
    assert [type(s).__name__ for s in uncached(body)] == ["Assign", "Return"]
    cached = ir.Function("fn_cached", ("s", RulesLocal("L_p")), PROLOGUE + (ir.Rule(body),))
    for seat in (1, 2):
        expected, got = both(kuhn, cached, 1, seat)
        assert expected == got == 1       # (net[p] = -1, pot = 2)


def test_none_is_tested_by_the_code_its_storage_gives_it(kuhn):
    bettor = ir.ReadVar(ir.Key("bettor"), ir.Constant(None))
    tested = function("tested", ir.Assign("_b", bettor),
                      ir.Return(ir.Tuple((ir.Compare("is", ir.Local("_b"), ir.Constant(None)),
                                          ir.Compare("is not", ir.Named("_n", bettor), ir.Constant(None)),
                                          ir.Conditional(ir.Compare("is", ir.Local(RulesLocal("L_p")), ir.Constant(None)),
                                                         ir.Constant(0), ir.Local(RulesLocal("L_p")))))),
                      ir.WriteVar(ir.Key("bettor"), ir.Conditional(ir.Constant(True), ir.Constant(None), ir.Local("_b"))),
                      params=("s", RulesLocal("L_p")))
    places = kuhn[2]
    with_params = attrs.evolve(places, parameters={"tested": {RulesLocal("L_p"): -1}})
    from referee.interpreter.native.layout import to_arrays
    game, layout, _, _ = kuhn
    for seat in (1, 2):
        s = game.new_initial_state(1)
        fixed = to_arrays(layout, s).fixed
        expected, _ = run_python(game, tested, s, seat)
        got, _ = run_native(kuhn, tested, fixed, seat, places=with_params)
        assert tuple(got) == expected == (True, False, seat)


def test_a_call_of_a_generated_function_passes_its_arrays_callees_first(kuhn):
    callee = ir.Function("fn_worth", ("s", RulesLocal("L_p")), PROLOGUE + (ir.Return(ir.Arithmetic(
        "+", ir.ReadVar(ir.Key("net", (ir.Local(RulesLocal("L_p")),)), ir.Constant(-1)), ir.Call("len", (ir.ReadZone(HAND1, True),)))),))
    caller = function("caller", stated(ir.StateCall("move", (ir.Constant(0), HAND1, ir.Constant(False)))),
                      ir.Return(ir.Arithmetic("*", ir.Call(RulesFunction.of("worth"), (S, ir.Constant(1))), ir.Constant(10))))
    rendered, places = render_all([caller, callee], kuhn[2])
    assert set(rendered) == {"caller", "fn_worth"} and "fn_worth" in places.signatures
    from referee.interpreter.native.layout import to_arrays
    game, layout, _, _ = kuhn
    s = game.new_initial_state(2)
    fixed = to_arrays(layout, s).fixed
    python = dict(game.compiler.codegen.namespace)
    exec(source(render_function(callee)), python)
    exec(source(render_function(caller)), python)
    expected = python["caller"](s)
    got, err = run_native(kuhn, caller, fixed, places=places, more=[callee])
    assert err is None and got == expected
    same_arrays(layout, s, fixed)


def test_a_charged_domain_takes_its_cost_from_the_work_budget_and_stops_past_it(kuhn):
    from referee.interpreter.native.layout import to_arrays
    game, layout, places, _ = kuhn
    items = ir.Call("charged", (ir.Global("STEP"), ir.Call("range", (ir.Constant(0), ir.Local(RulesLocal("L_n")))),
                                ir.Local(RulesLocal("L_units")), ir.Constant(None)))
    total = function("total", ir.Assign("x", ir.Constant(0)), ir.ForEach("y", items, (ir.Assign("x", ir.Arithmetic(
        "+", ir.Local("x"), ir.Local("y"))),)), ir.Return(ir.Tuple((ir.Local("x"), ir.Budget(1)))),
        params=("s", RulesLocal("L_n"), RulesLocal("L_units")))
    for n, units in ((5, 3), (4, MAX_STEP_WORK)):
        s = game.new_initial_state(1)
        fixed = to_arrays(layout, s).fixed
        expected, error = run_python(game, total, s, n, units)
        got, err = run_native(kuhn, total, fixed, n, units)
        if error is None:
            assert err is None and tuple(got) == expected == (10, MAX_STEP_WORK - 15)
        else:
            assert str(layout.runtime_error(places, err, s)) == str(error) and "units of work" in str(error)


def test_a_sum_of_a_list_is_its_loop_and_a_named_value_is_read_again_not_computed_before(kuhn):
    strength = ir.ReadAttribute(ir.Local("c"), "strength")
    total = ir.Call("sum", (ir.Comprehension(strength, ("c",), ir.ReadZone(DECK, True), None, False),))
    # pot[L_p] only when L_p is a seat: computed before the test it would be read outside the array
    guarded = ir.BoolOp("and", (ir.Compare("is not", ir.Local(RulesLocal("L_p")), ir.Constant(None)),
                                ir.Compare(">", ir.Named("_t", ir.ReadVar(ir.Key("net", (ir.Local(RulesLocal("L_p")),)),
                                                                          ir.Constant(-1))), ir.Constant(-5)),
                                ir.Compare("<", ir.Local("_t"), ir.Constant(5))))
    summed = function("summed", ir.Return(ir.Tuple((total, guarded))), params=("s", RulesLocal("L_p")))
    places = attrs.evolve(kuhn[2], parameters={"summed": {RulesLocal("L_p"): -1}})
    from referee.interpreter.native.layout import to_arrays
    game, layout, _, _ = kuhn
    for seat, expected_guard in ((1, True), (None, False)):
        s = game.new_initial_state(2)
        fixed = to_arrays(layout, s).fixed
        expected, _ = run_python(game, summed, s, seat)
        got, _ = run_native(kuhn, summed, fixed, -1 if seat is None else seat, places=places)
        assert tuple(got) == expected and expected[1] == expected_guard
        assert expected[0] == sum(s.entities[x]["strength"] for x in s.zones["deck"])
