"""remove_double_negation: `not not x` as a test, a value that must be a bool, and inside
any()/all(); what it leaves alone; a shared subtree rewritten once."""
import sys

from hypothesis import given, strategies as st
from referee.interpreter.compile import ir
from referee.interpreter.compile.passes import PASS_NAMES, run_passes
from referee.interpreter.compile.passes.remove_double_negation import remove_double_negation
from referee.interpreter.compile.render_python import render_function

X, Y = ir.Local("x"), ir.Local("y")
TRUE, FALSE = ir.Constant(True), ir.Constant(False)
ZONE = ir.ReadZone(ir.Key("deck"))


def twice(node, grouped=True):
    double = ir.Not(ir.Not(node))
    return ir.Grouped(double) if grouped else double


def call(name, *args):
    return ir.ExpressionStatement(ir.Call(name, args))


def rewritten(*statements):
    return remove_double_negation(ir.Function("f", ("s", "x", "y"), statements)).body


def as_bool(test):
    return ir.Grouped(ir.Conditional(test, TRUE, FALSE))


def test_a_test_reads_the_value_itself():
    assert rewritten(ir.If(twice(ZONE), (call("a"),))) == (ir.If(ZONE, (call("a"),)),)
    assert rewritten(ir.While(twice(X, grouped=False), (ir.Break(),))) == (ir.While(X, (ir.Break(),)),)
    assert rewritten(ir.Guard(ir.Not(twice(X)), (ir.Break(),))) == (ir.Guard(ir.Not(X), (ir.Break(),)),)
    # an `and` in a test: each operand tested; what may go over lines keeps its brackets
    chain = ir.BoolOp("or", (twice(ZONE), ir.Compare("==", X, Y)))
    assert rewritten(ir.If(ir.Grouped(twice(chain)), ())) == (ir.If(ir.Grouped(ir.BoolOp("or", (ZONE, ir.Compare("==", X, Y)))), ()),)
    # the branches of a conditional in a test count by their truth too
    assert rewritten(ir.If(ir.Conditional(X, twice(Y), twice(ZONE)), ())) == (ir.If(ir.Conditional(X, Y, ZONE), ()),)


def test_a_value_that_must_be_a_bool_stays_one():
    assert rewritten(ir.Return(twice(ZONE))) == (ir.Return(as_bool(ZONE)),)
    assert rewritten(ir.Assign("y", twice(X, grouped=False))) == (ir.Assign("y", as_bool(X)),)
    # a bool already needs no making
    comparison = ir.Compare("<", X, Y)
    assert rewritten(ir.Return(twice(comparison))) == (ir.Return(ir.Grouped(comparison)),)
    # an `and` of bools: its truth once
    chain = ir.BoolOp("and", (twice(ZONE), ir.Compare("<", X, Y)))
    assert rewritten(ir.Return(ir.Grouped(chain))) == \
        (ir.Return(as_bool(ir.Grouped(ir.BoolOp("and", (ZONE, ir.Compare("<", X, Y)))))),)
    # an `or` whose value may be a non-bool stays as it is, its double negation made a bool
    mixed = ir.BoolOp("or", (twice(ZONE), X))
    assert rewritten(ir.Return(mixed)) == (ir.Return(ir.BoolOp("or", (as_bool(ZONE), X))),)


def test_any_and_all_read_their_items_by_truth():
    items = ir.Comprehension(twice(ZONE), ("k",), X, condition=twice(Y), generator=True)
    assert rewritten(ir.Return(ir.Call("all", (items,)))) == \
        (ir.Return(ir.Call("all", (ir.Comprehension(ZONE, ("k",), X, condition=Y, generator=True),))),)
    # a list's items are values
    listed = ir.Comprehension(twice(X), ("k",), Y)
    assert rewritten(ir.Return(listed)) == (ir.Return(ir.Comprehension(as_bool(X), ("k",), Y)),)


def test_single_negations_are_left_alone():
    body = (ir.If(ir.Not(Y), (call("a"),)), ir.Return(ir.Not(X)), ir.Assign("y", ir.Grouped(ir.Not(ZONE))))
    assert rewritten(*body) == body


def test_switched_off_by_name():
    function = ir.Function("f", ("x",), (ir.Return(twice(X)),))
    assert "remove_double_negation" in PASS_NAMES
    assert run_passes(function, {"remove_double_negation"}).body == function.body
    assert run_passes(function).body == (ir.Return(as_bool(X)),)


def test_a_shared_subtree_is_rewritten_once(monkeypatch):
    node = twice(X)
    for _ in range(40):
        node = ir.BoolOp("and", (node, node))
    module = sys.modules[remove_double_negation.__module__]
    calls: list = []
    original = module.inside
    monkeypatch.setattr(module, "inside", lambda n: calls.append(n) or original(n))
    body = module.remove_double_negation(ir.Function("f", ("x",), (ir.If(node, ()),))).body
    assert len(calls) <= 41 * 4
    assert body[0].test.operands[0] is body[0].test.operands[1]


VALUES = [None, False, True, 0, 1, 2, "", "a", [], [0], (), (1,)]
LEAVES = st.sampled_from([X, Y, ir.Constant(0), ir.Constant(3), TRUE, FALSE, ir.Compare("==", X, Y)])


def expressions():
    def extend(inner):
        return st.one_of(st.builds(ir.Not, inner), st.builds(ir.Grouped, inner),
                         st.builds(lambda op, items: ir.BoolOp(op, tuple(items)), st.sampled_from(["and", "or"]),
                                   st.lists(inner, min_size=2, max_size=3)),
                         st.builds(ir.Conditional, inner, inner, inner))
    return st.recursive(LEAVES, extend, max_leaves=8)


def run(function, x, y):
    namespace = {}
    rendered = render_function(function)
    exec("\n".join([f"{rendered.header}:"] + rendered.lines), namespace)
    return namespace[function.name](None, x, y)


@given(expressions(), st.sampled_from(VALUES), st.sampled_from(VALUES))
def test_what_the_code_computes_is_unchanged(expression, x, y):
    """As a value (returned) and as a test, the rewritten expression gives what it gave."""
    for function in (ir.Function("f", ("s", "x", "y"), (ir.Return(expression),)),
                     ir.Function("f", ("s", "x", "y"), (ir.If(expression, (ir.Return(TRUE),)), ir.Return(FALSE)))):
        before = run(function, x, y)
        after = run(remove_double_negation(function), x, y)
        assert after == before and type(after) is type(before)
