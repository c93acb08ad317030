"""The optimisation passes over the IR, one at a time (IR in, IR out), and their table."""
import pytest
from referee.interpreter.compile import ir
from referee.interpreter.compile.passes import LISTING_PASSES, MODULE_PASSES, PASS_NAMES, PASSES, run_passes
from referee.interpreter.compile.passes.fold_constants import fold_constants
from referee.interpreter.compile.passes.remove_dead_code import remove_dead_code
from referee.interpreter.compile.passes.remove_double_negation import remove_double_negation

X, Y, Z = ir.Local("x"), ir.Local("y"), ir.Local("z")
TRUE, FALSE, NONE = ir.Constant(True), ir.Constant(False), ir.Constant(None)
CALL = ir.Call("f", (ir.Local("s"),))        # (reads the local s: an assignment to it stays)


def function(*statements):
    return ir.Function("f", ("s", "x", "y", "z"), statements)


def call(name, *args):
    return ir.ExpressionStatement(ir.Call(name, args))


def folded(*statements):
    return fold_constants(function(*statements)).body


def cleaned(*statements):
    return remove_dead_code(function(*statements)).body


# ---- fold_constants -------------------------------------------------------------------------

def test_a_constant_test_leaves_its_one_branch_in_place():
    assert folded(ir.If(FALSE, (call("a"),), (call("b"), call("c"))), call("d")) == (call("b"), call("c"), call("d"))
    assert folded(ir.If(TRUE, (call("a"),), (call("b"),))) == (call("a"),)
    assert folded(ir.If(FALSE, (call("a"),))) == ()
    assert folded(ir.While(FALSE, (call("a"),)), call("b")) == (call("b"),)
    assert folded(ir.While(TRUE, (ir.If(TRUE, (ir.Break(),)),))) == (ir.While(TRUE, (ir.Break(),)),)


def test_not_not_is_the_test_itself_where_only_truth_counts():
    assert folded(ir.If(ir.Not(ir.Not(X)), (call("a"),))) == (ir.If(X, (call("a"),)),)
    assert folded(ir.If(ir.Not(ir.Not(ir.Not(X))), (call("a"),))) == (ir.If(ir.Not(X), (call("a"),)),)
    # for a value, `not not x` is a truth value, not x: kept
    assert folded(ir.Assign("y", ir.Not(ir.Not(X)))) == (ir.Assign("y", ir.Not(ir.Not(X))),)


def test_operators_over_constants_are_computed():
    assert folded(ir.Assign("y", ir.Arithmetic("+", ir.Arithmetic("*", ir.Constant(3), ir.Constant(4)),
                                               ir.Constant(1)))) == (ir.Assign("y", ir.Constant(13)),)
    assert folded(ir.Assign("y", ir.Compare("<", ir.Constant(2), ir.Constant(3)))) == (ir.Assign("y", TRUE),)
    assert folded(ir.Assign("y", ir.Compare("is", NONE, NONE))) == (ir.Assign("y", TRUE),)
    assert folded(ir.Assign("y", ir.Not(ir.Constant(0)))) == (ir.Assign("y", TRUE),)
    assert folded(ir.Assign("y", ir.Conditional(FALSE, X, Z))) == (ir.Assign("y", Z),)


def test_what_would_raise_or_differ_when_run_is_left_alone():
    division = ir.Arithmetic("//", ir.Constant(1), ir.Constant(0))
    assert folded(ir.Assign("y", division)) == (ir.Assign("y", division),)
    mixed = ir.Compare("<", ir.Constant("a"), ir.Constant(1))
    assert folded(ir.Assign("y", mixed)) == (ir.Assign("y", mixed),)
    assert folded(ir.If(CALL, (call("a"),))) == (ir.If(CALL, (call("a"),)),)


def test_and_or_drop_constants_that_decide_nothing():
    assert folded(ir.If(ir.BoolOp("and", (TRUE, X, TRUE)), (call("a"),))) == (ir.If(X, (call("a"),)),)
    assert folded(ir.If(ir.BoolOp("or", (FALSE, X, Y)), (call("a"),))) == (
        ir.If(ir.BoolOp("or", (X, Y)), (call("a"),)),)
    # a constant that decides ends it: what follows never runs
    assert folded(ir.If(ir.BoolOp("or", (X, TRUE, Y)), (call("a"),))) == (
        ir.If(ir.BoolOp("or", (X, TRUE)), (call("a"),)),)
    assert folded(ir.If(ir.BoolOp("and", (FALSE, X)), (call("a"),), (call("b"),))) == (call("b"),)
    # for a value, a last operand that is a constant is the value when the others hold
    assert folded(ir.Assign("y", ir.BoolOp("and", (X, TRUE)))) == (ir.Assign("y", ir.BoolOp("and", (X, TRUE))),)
    assert folded(ir.Assign("y", ir.BoolOp("and", (TRUE, X)))) == (ir.Assign("y", X),)


def test_folding_reaches_into_every_block():
    assert folded(ir.ForEach("v", Y, (ir.If(TRUE, (call("a"),)),)),
                  ir.Try((ir.If(FALSE, (call("b"),)),), "Finished", (ir.If(TRUE, (ir.Return(),)),))) == (
        ir.ForEach("v", Y, (call("a"),)), ir.Try((), "Finished", (ir.Return(),)))


# ---- remove_dead_code -----------------------------------------------------------------------

def test_what_follows_a_statement_that_leaves_never_runs():
    assert cleaned(call("a"), ir.Return(), call("b")) == (call("a"), ir.Return())
    assert cleaned(ir.While(TRUE, (call("a"), ir.Continue(), call("b"))), call("c")) == (
        ir.While(TRUE, (call("a"),)), call("c"))
    assert cleaned(ir.ForEach("v", X, (ir.If(Y, (call("a"), ir.Continue())), call("b"), ir.Continue()))) == (
        ir.ForEach("v", X, (ir.If(Y, (call("a"), ir.Continue())), call("b"))),)
    leaving = ir.If(X, (ir.Return(),), (ir.Break(),))
    assert cleaned(ir.While(TRUE, (leaving, call("b")))) == (ir.While(TRUE, (leaving,)),)
    # one branch that stays: the rest may run
    assert cleaned(ir.If(X, (ir.Return(),)), call("b")) == (ir.If(X, (ir.Return(),)), call("b"))


def test_empty_ifs_and_pure_expressions_go():
    assert cleaned(ir.If(ir.Not(X), ()), ir.ExpressionStatement(ir.BoolOp("or", (X, Y))), call("a")) == (call("a"),)
    # a test that may do something stays, run for its effect
    assert cleaned(ir.If(ir.Call("f", ()), ())) == (ir.ExpressionStatement(ir.Call("f", ())),)
    assert cleaned(ir.If(X, (), (call("b"),))) == (ir.If(ir.Not(X), (call("b"),)),)
    assert cleaned(ir.Try((), "Finished", (ir.Return(),))) == ()


def test_locals_nobody_reads_go_when_their_value_is_pure():
    assert cleaned(ir.Assign("a", ir.Constant(0)), ir.Assign("b", ir.Local("a")), call("f", X)) == (call("f", X),)
    kept = (ir.Assign("a", ir.Call("g", ())), ir.Unpack(("v", "i"), ir.ReadEnv("#1")))
    assert cleaned(*kept) == kept       # the call and the read may raise: they stay
    read_by_call = (ir.Assign("s", ir.ReadState("env")), ir.If(CALL, (ir.Return(),)))
    assert cleaned(*read_by_call) == read_by_call
    environment = (ir.Assign("e", ir.ReadState("env")), ir.DeleteEnv("#1"))
    assert cleaned(*environment) == environment


def test_the_passes_go_inside_the_rules_statements():
    rule = ir.Rule((ir.If(FALSE, (call("a"),)), ir.Guard(ir.Not(ir.Grouped(ir.Not(X))), (ir.Break(),)),
                    ir.Rounds("_loop1", ir.Arithmetic("+", ir.Constant(2), ir.Constant(1)),
                              (call("b"), ir.Continue()), (ir.Guard(TRUE, (call("c"),)),))))
    assert folded(rule) == (ir.Rule((ir.Guard(ir.Grouped(X), (ir.Break(),)),
                                     ir.Rounds("_loop1", ir.Constant(3), (call("b"), ir.Continue()), (call("c"),)))),)
    assert cleaned(rule)[0].body[2].body == (call("b"),)        # (the continue that ends a loop's body)
    assert cleaned(ir.Rule((ir.Assign("t", X),)), call("a")) == (call("a"),)    # a rule emptied goes
    assert cleaned(ir.Rule((ir.Return(),)), call("a")) == (ir.Rule((ir.Return(),)),)
    coverage = ir.Rule((ir.CountCoverage(3),))
    assert cleaned(coverage) == (coverage,)


def test_folding_keeps_the_parentheses_of_what_may_go_over_lines():
    assert folded(ir.If(ir.Grouped(ir.BoolOp("and", (TRUE, X))), (call("a"),))) == \
        (ir.If(ir.Grouped(X), (call("a"),)),)
    assert folded(ir.Return(ir.Grouped(ir.Arithmetic("+", ir.Constant(2), ir.Constant(1))))) == (ir.Return(ir.Constant(3)),)
    assert folded(ir.Return(ir.Grouped(X))) == (ir.Return(ir.Grouped(X)),)


def test_the_rules_functions_go_through_the_passes():
    from referee.interpreter.engine import load_game
    from tests.golden import ROOT
    path = str(ROOT / "games/goofspiel.rules")
    optimised = load_game(path)[0].compiler.module_source()
    plain = load_game(path, passes_off=PASS_NAMES)[0].compiler.module_source()
    assert "if False:" in plain and "if False:" not in optimised and "not not" not in optimised
    assert len(optimised.splitlines()) < len(plain.splitlines())


def test_a_step_stays_a_generator_where_the_passes_took_out_its_choices():
    # goofspiel's setup shuffles (a chance node, explicit chance) only without `ascending`
    from referee.interpreter.engine import load_game
    from tests.golden import ROOT
    path = str(ROOT / "games/goofspiel.rules")
    game = load_game(path, options=["ascending"], chance="explicit")[0]
    assert game.new_initial_state(0).legal_move_names() == \
        load_game(path, options=["ascending"], chance="explicit", passes_off=PASS_NAMES)[0].new_initial_state(0).legal_move_names()


# ---- the table ------------------------------------------------------------------------------

def test_the_table_names_each_pass_and_runs_them_in_order():
    assert PASS_NAMES == ("fold_constants", "remove_double_negation", "remove_dead_code", "inline_single_lazy",
                          "split_on_empty_zone", "drop_implied_tests", "share_equal_constants", "drop_unread_constants")
    assert PASSES[:3] == (fold_constants, remove_double_negation, remove_dead_code)
    assert PASSES[2:] == (remove_dead_code,) + LISTING_PASSES[1:] + MODULE_PASSES and LISTING_PASSES[0] is remove_double_negation
    flow = function(ir.If(FALSE, (call("a"),)), ir.If(TRUE, (ir.Return(),)), call("b"))
    assert run_passes(flow).body == (ir.Return(),)
    assert run_passes(flow, {"remove_dead_code"}).body == (ir.Return(), call("b"))
    assert run_passes(flow, {"fold_constants"}).body == flow.body
    assert run_passes(flow, set(PASS_NAMES)) is flow


def test_an_unknown_pass_is_refused_by_name():
    with pytest.raises(ValueError, match="no pass named fold.*the passes: fold_constants, remove_double_negation, remove_dead_code"):
        run_passes(function(), {"fold"})


def test_fold_constants_folds_a_shared_subtree_once(monkeypatch):
    """An inlined function's IR is shared by its calls (f(k) = f(k-1) + f(k-1)): 2^40 paths over
    40 nodes. Folding goes through each node once, not each path (it took minutes before)."""
    import sys
    folding = sys.modules[fold_constants.__module__]      # (the package's name is the function's)
    node = ir.Local("x")
    for _ in range(40):
        node = ir.Arithmetic("+", node, node)
    calls: list = []
    original = folding.folded_value
    monkeypatch.setattr(folding, "folded_value", lambda n: calls.append(n) or original(n))
    folded = folding.fold_constants(ir.Function("f", ("x",), (ir.Return(node),)))
    assert len(calls) <= 41 * 2
    assert folded.body[0].value.left is folded.body[0].value.right      # still shared
