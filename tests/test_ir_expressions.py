"""The rules' expressions in the IR (ir.py's "expressions of the rules", lowered by codegen.py):
every node rendered as the generated code has always read, long ones over lines, and the
decisions codegen takes on the IR (expression_facts.py) instead of on its text: the locals an
expression reads, numbers, names and literals, which name a none test narrows, a zone's truth,
the values a filter computed already, hoisting keyed on the node."""
from types import SimpleNamespace

import pytest
from referee.interpreter.compile import ir
from referee.interpreter.compile.codegen import Context, SourceGenerator
from referee.interpreter.compile.expression_facts import (
    attributes_read_once,
    binds_locals,
    canonical,
    filter_values,
    literal_of,
    mentioned_locals,
    name_of,
    none_test,
    number_value,
    reusing,
    state_tables,
    temporaries_of_their_own,
    top_of_tested,
    truth,
)
from referee.interpreter.compile.key_rows import KeyRows
from referee.interpreter.compile.render_python import CONTINUED, EXPRESSIONS, expression
from referee.interpreter.compile.generated_names import BoundConstant, ComponentColumn, ComprehensionVariable, Hoisted, RowKey, RulesFunction, RulesLocal, Temporary

X, Y, T1 = ir.Local(RulesLocal("L_x")), ir.Local(RulesLocal("L_y")), ir.Local(Temporary("_t1"))
NONE = ir.Constant(None)
KEY = ir.Key("hand", (X,))
LONG = ir.Call(RulesFunction.of("a_function_with_a_rather_long_name"), (ir.TheState(), ir.Local(RulesLocal("L_some_local_with_a_long_name"))))


def test_every_expression_of_the_rules_is_an_expression_and_rendered():
    assert ir.LOWERED_EXPRESSIONS and all(c in ir.EXPRESSIONS and c in EXPRESSIONS for c in ir.LOWERED_EXPRESSIONS)


@pytest.mark.parametrize("node, text", [
    (ir.Grouped(ir.Not(X)), "(not L_x)"),
    (ir.Compare("is not", ir.Named(Temporary("_t1"), ir.Call("f", (X,))), NONE), "(_t1 := f(L_x)) is not None"),
    (ir.FirstUse(Hoisted("_h3"), ir.Call(RulesFunction.of("f"), (ir.TheState(),))), "(_h3 if _h3 is not UNSET else (_h3 := fn_f(s)))"),
    (ir.Grouped(ir.Negative(X)), "(-L_x)"),
    (ir.BoolOp("and", (ir.Compare("is not", X, NONE), ir.Between(ir.Constant(1), X, ir.Constant(8)))),
     "L_x is not None and 1 <= L_x <= 8"),
    (KEY, "('hand', L_x,)"),
    (ir.Arguments((X, Y)), "(L_x, L_y, )"),
    (ir.RowKey(()), "()"),
    (ir.RowKey((X, Y)), "(L_x, L_y,)"),
    (ir.NewList((X, Y), spread=True), "[L_x, L_y]"),
    (ir.Comprehension(ir.Local(ComprehensionVariable("a1_p")), (ComprehensionVariable("a1_p"),), ir.Global(BoundConstant("_k2")), ir.Local(ComprehensionVariable("a1_p"))), "[a1_p for a1_p in _k2 if a1_p]"),
    (ir.Call("any", (ir.Comprehension(ir.Constant(True), (ComprehensionVariable("a1_p"), RowKey("a2_key")), ir.Global(BoundConstant("_k2")), None, True),)),
     "any(True for a1_p, a2_key in _k2)"),
    (ir.Ranked("largest", (ir.Grouped(ir.BoolOp("or", (ir.Local(ComprehensionVariable("a1_p")), ir.Constant(0)))),), ComprehensionVariable("a1_p"), ir.Global(BoundConstant("_k2"))),
     "ranked('largest', [(((a1_p or 0), ), a1_p) for a1_p in _k2])"),
    (ir.Ranked("largest", (X,), ComprehensionVariable("a1_p"), ir.Global(BoundConstant("_k2")), None, (Y,)),
     "ranked_ties('largest', [(L_x, a1_p) for a1_p in _k2], lambda a1_p: (L_y, ))"),
    (ir.Apply(ir.Grouped(ir.Lambda((Temporary("_t1"),), T1)), (X,)), "(lambda _t1: _t1)(L_x)"),
    (ir.Method(ir.Global("_line3"), "get", (X,)), "_line3.get(L_x)"),
    (ir.Call("sorted", (X, ir.Keyword("key", ir.Field(ir.Global("_positions1"), "__getitem__")))),
     "sorted(L_x, key=_positions1.__getitem__)"),
    (ir.ReadZone(KEY), "_Z.get(('hand', L_x,))"),
    (ir.ReadZone(ir.Constant("bag"), empty=True), "_Z.get('bag', EMPTY)"),
    (ir.ReadVar(ir.Constant("score"), ir.Constant(0)), "_V.get('score', 0)"),
    (ir.ReadAttribute(X, "colour"), "_E[L_x].get('colour')"),
    (ir.ReadColumn(ComponentColumn("_A0"), X), "_A0[L_x]"),
    (ir.ComponentsOf("Card"), "s.by_type.get('Card', EMPTY)"),
    (ir.Call("attribute", (ir.Entities(), X, ir.Constant("colour"))), "attribute(_E, L_x, 'colour')"),
    (ir.Item(ir.Tuple((ir.Named(Temporary("_t1"), X), T1)), ir.Constant(1)), "((_t1 := L_x), _t1)[1]"),
])
def test_each_expression_of_the_rules_renders_as_the_generated_code_reads(node, text):
    assert expression(node) == text


def test_long_expressions_go_over_lines_as_they_were_joined():
    both = expression(ir.BoolOp("and", (LONG, LONG), spread=True))
    assert both == f"{expression(LONG)} and{CONTINUED}{expression(LONG)}"
    assert expression(ir.BoolOp("and", (LONG, LONG))) == f"{expression(LONG)} and {expression(LONG)}"
    # the state stays first; a chain of one operator is joined as one
    call = expression(ir.Call(RulesFunction.of("g"), (ir.TheState(), LONG, LONG), spread=True))
    assert call == f"fn_g(s, {expression(LONG)},{CONTINUED}{expression(LONG)})"
    total = ir.Arithmetic("+", ir.Arithmetic("+", ir.Constant(0), LONG, spread=True), LONG, spread=True)
    assert expression(total) == f"0 +{CONTINUED}{expression(LONG)} +{CONTINUED}{expression(LONG)}"
    spread = ir.Conditional(X, LONG, LONG, layout="spread")
    assert expression(spread) == f"{expression(LONG)}{CONTINUED}if L_x{CONTINUED}else {expression(LONG)}"
    chain = ir.Conditional(LONG, ir.Constant(1), ir.Conditional(LONG, ir.Constant(2), NONE, layout="chain"), layout="chain")
    assert expression(chain).count(CONTINUED) == 1
    # a comprehension breaks where the value it is measured on is long
    counted = ir.Comprehension(ir.Constant(1), (ComprehensionVariable("a1_p"),), LONG, None, measure=LONG)
    assert expression(counted) == f"[1{CONTINUED}for a1_p in {expression(LONG)}]"
    assert CONTINUED not in expression(ir.Comprehension(ir.Constant(1), (ComprehensionVariable("a1_p"),), LONG, None, spread=False, measure=LONG))


def test_mentioned_locals_are_read_or_bound_and_binds_locals_is_a_value_kept():
    """What hoisting decides on (codegen.hoisted): every local an expression names, and whether
    it keeps a value in a local itself."""
    assert mentioned_locals(ir.Call("f", (X, ir.ReadEnv("k")))) == {RulesLocal("L_x"), "e"}
    # bound by ':=' (then read), by a lambda, by a comprehension: named too
    kept = ir.BoolOp("and", (ir.Named(Temporary("_t1"), X), T1))
    assert mentioned_locals(kept) == {RulesLocal("L_x"), Temporary("_t1")}
    applied = ir.Apply(ir.Grouped(ir.Lambda((Temporary("_t1"),), T1)), (Y,))
    assert mentioned_locals(applied) == {RulesLocal("L_y"), Temporary("_t1")}
    listed = ir.Comprehension(ir.Local(ComprehensionVariable("a1_p")), (ComprehensionVariable("a1_p"),), ir.ReadZone(KEY, True))
    assert mentioned_locals(listed) == {RulesLocal("L_x"), ComprehensionVariable("a1_p")}
    first_use = ir.FirstUse(Hoisted("_h2"), ir.ReadVar(ir.Constant("v"), ir.Constant(0)))
    assert mentioned_locals(first_use) == {Hoisted("_h2")}
    assert [binds_locals(n) for n in (kept, applied, listed, first_use)] == [True, False, False, True]


def test_numbers_names_and_literals_are_read_from_the_ir():
    assert [number_value(n) for n in (ir.Constant(3), ir.Grouped(ir.Constant(3)), ir.Grouped(ir.Negative(ir.Constant(3))),
                                      ir.Constant(True), ir.Constant("3"), X)] == [3, 3, -3, None, None, None]
    assert number_value(ir.Grouped(ir.Grouped(ir.Constant(3)))) is None       # ((3)) was never read as one
    assert [name_of(n) for n in (X, ir.Grouped(ir.Global(BoundConstant("_k1"))), ir.Constant(None), ir.Constant(True),
                                 ir.Constant(1), ir.ReadEnv("x"))] == [RulesLocal("L_x"), "_k1", "None", "True", None, None]
    assert literal_of(ir.Grouped(ir.Constant("red"))) == ("red",) and literal_of(ir.Constant(False)) is None


def test_a_none_test_narrows_the_name_it_tests():
    assert none_test(ir.Grouped(ir.Compare("is", X, NONE)), "is") == RulesLocal("L_x")
    assert none_test(ir.Grouped(ir.Compare("is not", X, NONE)), "is") is None
    assert none_test(ir.Grouped(ir.Compare("is", ir.ReadEnv("x"), NONE)), "is") is None
    assert none_test(ir.Compare("is", X, NONE), "is") is None       # (only a test of its own, in parentheses)
    generator = SourceGenerator(SimpleNamespace(game=SimpleNamespace(board_functions={})))
    ctx = Context()
    with generator.narrowed(ir.Grouped(ir.Compare("is not", X, NONE)), "is not", ctx):
        assert RulesLocal("L_x") in ctx.safe
    assert RulesLocal("L_x") not in ctx.safe


def test_a_zones_truth_drops_its_not_not():
    zone = ir.ReadZone(KEY)
    assert truth(ir.Grouped(ir.Not(ir.Not(zone)))) == zone
    assert truth(ir.Grouped(ir.BoolOp("and", (X, ir.Grouped(ir.Not(ir.Not(zone))))))) == \
        ir.Grouped(ir.BoolOp("and", (X, zone)))
    kept = ir.Grouped(ir.Not(ir.Not(ir.ReadZone(ir.Constant("bag")))))     # (a name's key: as it was)
    assert truth(kept) == kept


def test_the_values_a_filter_computed_are_reused():
    f_x = ir.Call(RulesFunction.of("f"), (ir.TheState(), X))
    where = ir.Grouped(ir.BoolOp("and", (ir.Compare("is not", ir.Named(Temporary("_t1"), f_x), NONE),
                                         ir.Compare(">", T1, ir.Constant(0)),
                                         ir.Grouped(ir.Not(ir.Named(Temporary("_t2"), ir.Call("g", (X,)))))), spread=True))
    values = filter_values(where)
    assert values == {canonical(f_x): Temporary("_t1"), canonical(ir.Call("g", (X,))): Temporary("_t2")}
    assert reusing(ir.Grouped(f_x), values) == T1 and reusing(ir.Call(RulesFunction.of("f"), (ir.TheState(), Y)), values).args[1] == Y
    # only what a true filter surely computed: an `or`'s first operand
    h_x = ir.Named(Temporary("_t3"), ir.Call("h", (X,)))
    assert filter_values(ir.BoolOp("or", (X, ir.Compare(">", h_x, ir.Constant(0))))) == {}
    assert filter_values(ir.BoolOp("or", (ir.Compare(">", h_x, ir.Constant(0)), X))) == {canonical(ir.Call("h", (X,))): Temporary("_t3")}
    # two writings of one value, their own temporaries named apart, are the same value
    assert canonical(ir.Named(Temporary("_t7"), ir.Grouped(T1))) == canonical(ir.Named(Temporary("_t9"), ir.Local(Temporary("_t4"))))


def test_the_top_of_a_tested_zone_is_read_once():
    zone, top = ir.ReadZone(KEY), ir.Item(ir.Local(Temporary("_t5")), ir.Constant(-1))
    body = ir.Grouped(ir.Conditional(ir.Named(Temporary("_t5"), ir.ReadZone(KEY, True)), top, NONE))
    assert top_of_tested(zone, body) == (ir.Named(Temporary("_t5"), zone), top)
    other = ir.ReadZone(ir.Key("hand", (Y,)))
    assert top_of_tested(other, body) == (other, body)


def test_attributes_of_named_values_are_read_once_before_a_loop():
    guarded = ir.Grouped(ir.Conditional(ir.Compare("is not", X, NONE), ir.ReadColumn(ComponentColumn("_A0"), X), NONE))
    where = ir.Compare("==", ir.ReadColumn(ComponentColumn("_A1"), ir.Local(ComprehensionVariable("a1_p"))), guarded)
    body = ir.Compare("==", ir.ReadColumn(ComponentColumn("_A2"), Y), guarded)
    names = iter([Temporary("_t1"), Temporary("_t2")])
    reads, (where, body) = attributes_read_once([where, body], lambda: next(names))
    assert reads == [(Temporary("_t1"), guarded), (Temporary("_t2"), ir.ReadColumn(ComponentColumn("_A2"), Y))]
    assert where == ir.Compare("==", ir.ReadColumn(ComponentColumn("_A1"), ir.Local(ComprehensionVariable("a1_p"))), T1)      # (the item's own: per item)
    assert body == ir.Compare("==", ir.Local(Temporary("_t2")), T1)


def test_keys_that_bind_their_own_temporaries_may_go_into_a_lambda():
    top = ir.Grouped(ir.Conditional(ir.Named(Temporary("_t1"), ir.ReadZone(KEY, True)), ir.Item(T1, ir.Constant(-1)), NONE))
    assert temporaries_of_their_own((top,), (ir.Call("len", (ir.ReadZone(KEY, True),)),))
    assert not temporaries_of_their_own((T1,), (ir.Named(Temporary("_t1"), X),))          # reads one bound elsewhere
    assert not temporaries_of_their_own((top,), (ir.Compare(">", T1, ir.Constant(0)),))   # binds one read elsewhere
    assert not temporaries_of_their_own((ir.FirstUse(Hoisted("_h4"), ir.Call("f", ())),), ())


def test_hoisting_keys_on_the_node_and_the_locals_it_reads():
    generator = SourceGenerator(SimpleNamespace(game=SimpleNamespace(board_functions={})))
    ctx = Context()
    ctx.hoist, ctx.levels = {}, {RulesLocal("L_x"): 0}
    read = ir.ReadZone(ir.Key("hand", (X,)), True)
    first = generator.hoisted(read, ctx)
    assert isinstance(first, ir.Local) and generator.hoisted(ir.ReadZone(ir.Key("hand", (X,)), True), ctx) == first
    assert ctx.hoist == {read: first.name} and ctx.levels[first.name] == 0
    for changing in (ir.ReadZone(ir.Key("hand", (ir.Local(ComprehensionVariable("a3_p")),)), True),    # a comprehension's
                     ir.ReadZone(ir.Key("hand", (Y,)), True),                   # a let's: no level
                     ir.ReadZone(ir.Named(Temporary("_t1"), X), True)):                                # one it binds
        assert generator.hoisted(changing, ctx) is changing
    lazy = generator.hoisted_lazy(ir.Call(RulesFunction.of("f"), (ir.TheState(), X)), ctx)
    assert isinstance(lazy, ir.FirstUse) and lazy.target in ctx.lazy


def test_zone_keys_naming_a_comprehensions_variable_are_read_by_rows():
    rows = KeyRows(SimpleNamespace(count=0), ComprehensionVariable("a1_c"), (1, 2, 3))
    row = rows.key_of("pile", [ir.Local(ComprehensionVariable("a1_c")), X, ir.Grouped(ir.Constant(2))])
    assert row == RowKey("a1_key") and rows.templates["('pile', a1_c, L_x, (2),)"][1] == \
        ("pile", (("var", None), ("invariant", 0), ("literal", 2)))
    assert rows.key_of("pile", (ir.Local(ComprehensionVariable("a1_c")), X, ir.Grouped(ir.Constant(2)))) == row    # (the same key again)
    assert rows.key_of("pile", [X]) is None and rows.key_of("pile", [ir.Local(ComprehensionVariable("a1_c")), ir.Call("f", ())]) is None


def test_the_state_tables_an_expression_reads_are_those_its_text_names():
    guarded = ir.Grouped(ir.Conditional(ir.Compare("is not", X, NONE), ir.ReadColumn(ComponentColumn("_A3"), X), NONE))
    for node, tables in ((ir.ReadZone(KEY, True), {"_Z"}), (ir.ReadVar(ir.Key("score"), ir.Constant(0)), {"_V"}),
                         (ir.ReadAttribute(X, "colour"), {"_E"}),
                         (ir.Call("attribute", (ir.Entities(), X, ir.Constant("colour"))), {"_E"}), (guarded, {ComponentColumn("_A3")}),
                         (ir.ReadColumn("_col4", X), set()), (ir.BoolOp("and", (ir.ReadZone(KEY), guarded)), {ComponentColumn("_A3"), "_Z"}),
                         (ir.ComponentsOf("Card"), set())):
        assert state_tables(node) == tables, expression(node)
        # (each a local its source names: the prologue binds them)
        assert all(name in expression(node) for name in tables)


@pytest.mark.parametrize("name", ["continents", "titicaca", "solstis", "checkers", "hearts", "backgammon"])
def test_every_expression_of_a_game_lowers_to_ir_and_renders_as_its_source(name, monkeypatch):
    """No expression of a game is left as host text, and the locals each names (mentioned_locals)
    are names its source writes."""
    import re

    from referee.interpreter.engine import load_game
    from tests.golden import ROOT
    lowered = []
    lower = SourceGenerator.lower

    def recorded(self, node, scope, ctx):
        value = lower(self, node, scope, ctx)
        lowered.append(value)
        return value
    monkeypatch.setattr(SourceGenerator, "lower", recorded)
    game, diagnostics, _ = load_game(str(ROOT / "games" / f"{name}.rules"))
    assert game is not None, diagnostics
    assert lowered
    for value in lowered:
        written = set(re.findall(r"[A-Za-z_]\w*", expression(value)))
        assert mentioned_locals(value) - {"e"} <= written, expression(value)
