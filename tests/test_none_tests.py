"""Conditions with the none tests of some names decided, on the IR (compile/none_tests.py)."""
import pytest
from referee.interpreter.compile import ir
from referee.interpreter.compile.none_tests import folded
from referee.interpreter.compile.generated_names import Hoisted, RulesFunction, RulesLocal

H, X = ir.Local(Hoisted("_h1")), ir.Local(RulesLocal("L_x"))
NONE = ir.Constant(None)
IS_NONE, NOT_NONE = ir.Compare("is", H, NONE), ir.Compare("is not", H, NONE)
CALL = ir.Call(RulesFunction.of("f"), (ir.TheState(), X))


@pytest.mark.parametrize("condition, known, result", [
    (ir.Grouped(IS_NONE), {Hoisted("_h1"): True}, True),
    (ir.Grouped(NOT_NONE), {Hoisted("_h1"): True}, False),
    (ir.Not(ir.Grouped(IS_NONE)), {Hoisted("_h1"): False}, True),
    (ir.BoolOp("or", (ir.Grouped(IS_NONE), CALL)), {Hoisted("_h1"): True}, True),
    (ir.BoolOp("or", (ir.Grouped(IS_NONE), CALL)), {Hoisted("_h1"): False}, CALL),
    (ir.BoolOp("and", (ir.Grouped(NOT_NONE), CALL, X)), {Hoisted("_h1"): False}, ir.BoolOp("and", (CALL, X))),
    (ir.BoolOp("and", (ir.Grouped(NOT_NONE), CALL)), {Hoisted("_h1"): True}, False),
    (ir.Grouped(ir.Conditional(IS_NONE, CALL, X)), {Hoisted("_h1"): False}, ir.Grouped(X)),
    (ir.BoolOp("and", (H, CALL)), {("truthy", Hoisted("_h1")): False}, False),
    (ir.Not(H), {("truthy", Hoisted("_h1")): True}, False),
    (ir.BoolOp("or", (ir.Grouped(IS_NONE), CALL)), {Hoisted("_h9"): True}, ir.BoolOp("or", (ir.Grouped(IS_NONE), CALL))),
    (ir.BoolOp("and", (ir.Grouped(NOT_NONE), ir.Grouped(ir.Compare("is not", X, NONE)))), {Hoisted("_h1"): False, RulesLocal("L_x"): False},
     True),
])
def test_none_tests_of_known_names_are_decided_and_folded(condition, known, result):
    assert folded(condition, known) == result


def test_nothing_known_leaves_the_condition_as_it_is():
    condition = ir.BoolOp("or", (ir.Grouped(IS_NONE), CALL))
    assert folded(condition, {}) is condition
