"""The listings of legal moves built as IR (lower_listing.py, lower_fused.py, blocks.py): the
listing nodes rendered as the listings are written, blocks nested by depth, and the passes that
rewrite listings, one at a time (IR in, IR out): inline_single_lazy, split_on_empty_zone,
drop_implied_tests. Games list the same moves with any of them off."""
import random

import pytest
from referee.dsl.ast import Span
from referee.interpreter.compile import ir
from referee.interpreter.compile.blocks import Block
from referee.interpreter.compile.lower_listing import with_cached_reads
from referee.interpreter.compile.none_tests import folded, folded_test, subject_key
from referee.interpreter.compile.passes import LISTING_PASSES, PASS_NAMES, run_passes
from referee.interpreter.compile.passes.drop_implied_tests import drop_implied_tests
from referee.interpreter.compile.passes.inline_single_lazy import inline_single_lazy
from referee.interpreter.compile.passes.split_on_empty_zone import split_on_empty_zone
from referee.interpreter.compile.render_python import render_function
from referee.interpreter.engine import load_game

from tests.golden import ROOT
from referee.interpreter.compile.generated_names import ComponentColumn, Hoisted, RulesFunction, RulesLocal, Temporary

UNSET = ir.Global("UNSET")

H1, X, NONE = ir.Local(Hoisted("_h1")), ir.Local("x"), ir.Constant(None)


def f(*args):
    return ir.Call("f", (ir.TheState(), *args) if not args else args)


def lines(*statements, passes=()):
    function = ir.Function("legal_x", ("s",), statements)
    for rewrite in passes:
        function = rewrite(function)
    return "\n".join(render_function(function, comments=False).lines)


def call(name, *args):
    return ir.ExpressionStatement(ir.Call(name, tuple(args)))


# ---- the nodes of the listings, rendered ----------------------------------------------------

def test_listing_nodes_are_written_as_the_listings_write_them():
    fixed = ir.Local("fixed0")
    assert lines(
        ir.Assign("out", ir.EmptyList()),
        ir.ShortIf(ir.Not(fixed), (ir.Return(ir.Results((ir.Local("out"), ir.Local("exact")))),)),
        ir.ChargeWork(ir.Arithmetic("*", ir.Call("len", (fixed,)), ir.Constant(6)), "_span1"),
        ir.ForEach(RulesLocal("L_a"), ir.ChargedDomain(f(), ir.Arithmetic("+", ir.Constant(3), ir.Constant(4)), "_span2"),
                   (ir.ShortIf(ir.Not(ir.Grouped(ir.Call("g", (ir.Local(RulesLocal("L_a")),)))),
                               (ir.Assign("on0", ir.Constant(False)), ir.Break())),
                    ir.Append("out", ir.Arguments((ir.Local(RulesLocal("L_a")),))),
                    ir.AddToSet("seen", ir.Item(ir.Global(ComponentColumn("_A4")), ir.Local(RulesLocal("L_a")))))),
        ir.Assign("out", ir.SingleMoves(fixed)),
        ir.ShortIf(ir.Compare("!=", ir.Call("len", (ir.LabelSet(ComponentColumn("_A5"), fixed),)), ir.Call("len", (fixed,))),
                   (ir.Assign("exact", ir.Constant(False)),)),
        ir.Assign(Hoisted("_h2"), ir.TopOfZone(ir.Local(Hoisted("_h1")))),
        ir.Return(ir.ByAction((ir.Constant(0), ir.Constant(3)), (ir.Local("a"), ir.Conditional(
            ir.Local("alike1"), ir.Local("b"), ir.Constant(None)))))) == "\n".join([
        "    out = []",
        "    if not fixed0: return out, exact",
        "    STEP[1] -= len(fixed0) * 6",
        "    if STEP[1] < 0: work_runs_on(_span1)",
        "    for L_a in charged(STEP, f(s), (3 + 4), _span2):",
        "        if not (g(L_a)): on0 = False; break",
        "        out.append((L_a, ))",
        "        seen.add(_A4[L_a])",
        "    out = [(v,) for v in fixed0]",
        "    if len({_A5[v] for v in fixed0}) != len(fixed0): exact = False",
        "    _h2 = (_h1[-1] if _h1 else None)",
        "    return {0: a, 3: b if alike1 else None}"])


def test_a_cached_call_is_written_where_it_is_first_asked_for():
    cached = ir.Cached(Hoisted("_h3"), ir.Call(RulesFunction.of("f"), (ir.TheState(), ir.Local(RulesLocal("L_a")))))
    assert lines(ir.If(ir.Call("g", (cached, ir.Constant(1))), (ir.Continue(),))) == \
        "    if g((_h3 if _h3 is not UNSET else (_h3 := fn_f(s, L_a))), 1):\n        continue"


def test_calls_made_on_first_use_become_cached_and_nothing_else_does():
    class Context:
        # (codegen's values read once, as IR: fn_f(s) and _Z.get(k, EMPTY))
        hoist = {ir.Call(RulesFunction.of("f"), (ir.TheState(),)): Hoisted("_h1"), ir.ReadZone(ir.Local("k"), empty=True): Hoisted("_h2")}
        lazy = {Hoisted("_h1")}
    use = ir.FirstUse(Hoisted("_h1"), ir.Call(RulesFunction.of("f"), (ir.TheState(),)))
    other = ir.FirstUse(Temporary("_t3"), ir.Call("g", ()))
    function = ir.Function("legal_x", ("s",), (
        ir.If(ir.BoolOp("and", (ir.Call("a", (use,)), ir.Call("b", (use, ir.Local(Hoisted("_h2")), other)))), (ir.Break(),)),
        ir.Assign(Hoisted("_h2"), ir.ReadZone(ir.Local("k"), empty=True))))
    cut = with_cached_reads(function, Context)
    test = cut.body[0].test
    cached = ir.Cached(Hoisted("_h1"), ir.Call(RulesFunction.of("f"), (ir.TheState(),)))
    assert test.operands[0].args == (cached,) and test.operands[1].args == (cached, ir.Local(Hoisted("_h2")), other)
    assert cut.body[1] is function.body[1]
    assert render_function(cut, comments=False).lines == render_function(function, comments=False).lines


# ---- blocks -----------------------------------------------------------------------------------

def test_a_block_nests_what_is_added_by_its_depth():
    out = Block()
    out.add(1, call("a"))
    out.open(1, ir.ForEach("v", ir.Local("xs"), ()))
    out.open(2, ir.If(ir.Local("v"), ()))
    out.add(3, call("b"))
    out.otherwise(2)
    out.add(3, call("c"))
    out.add(2, call("d"))
    out.add(1, call("e"))
    assert out.statements() == (
        call("a"), ir.ForEach("v", ir.Local("xs"), (ir.If(ir.Local("v"), (call("b"),), (call("c"),)), call("d"))),
        call("e"))


def test_a_block_gives_each_statement_the_span_current_when_added_and_refuses_what_is_misplaced():
    out = Block("first")
    out.add(1, call("a"))
    out.span = "second"
    inner = Block()
    inner.add(1, call("b"))
    out.open(1, ir.While(ir.Constant(True), ()))
    out.extend(inner, 1)
    assert [s.span for s in out.statements()] == ["first", "second"]
    assert out.statements()[1].body == (call("b"),)
    bad = Block()
    bad.add(2, call("a"))
    with pytest.raises(ValueError):
        bad.statements()
    orphan = Block()
    orphan.add(1, call("a"))
    orphan.otherwise(1)
    with pytest.raises(ValueError, match="else without its if"):
        orphan.statements()


# ---- inline_single_lazy -------------------------------------------------------------------------

def lazy_test(name="_h1"):
    return ir.Not(ir.Grouped(ir.Cached(name, ir.Call(RulesFunction.of("f"), (ir.TheState(),)))))


def test_a_call_asked_for_once_on_the_line_of_its_block_is_made_there():
    once = (ir.Assign(Hoisted("_h1"), UNSET), ir.ShortIf(lazy_test(), (ir.Continue(),)), call("a"))
    assert lines(*once, passes=[inline_single_lazy]) == "    if not (fn_f(s)): continue\n    a()"
    assert inline_single_lazy(ir.Function("f", ("s",), ())) == ir.Function("f", ("s",), ())


def test_a_call_asked_for_twice_deeper_or_in_a_comprehension_stays_cached():
    twice = (ir.Assign(Hoisted("_h1"), UNSET), ir.ShortIf(lazy_test(), (ir.Continue(),)),
             ir.ShortIf(lazy_test(), (ir.Break(),)))
    deeper = (ir.Assign(Hoisted("_h1"), UNSET), ir.ForEach("v", ir.Local("xs"), (ir.ShortIf(lazy_test(), (ir.Continue(),)),)))
    header = (ir.Assign(Hoisted("_h1"), UNSET), ir.ForEach("v", lazy_test(), (call("a"),)))
    comprehension = (ir.Assign(Hoisted("_h1"), UNSET), ir.ShortIf(ir.Call("any", (ir.Comprehension(lazy_test(), ("v",), ir.Local("xs")),)),
                                                         (ir.Break(),)))
    for kept in (twice, deeper, header, comprehension):
        assert lines(*kept, passes=[inline_single_lazy]) == lines(*kept)


# ---- split_on_empty_zone ------------------------------------------------------------------------

TOP = ir.Assign(Hoisted("_h2"), ir.TopOfZone(ir.Local(Hoisted("_h1"))))
IS_NONE = ir.Compare("is", ir.Local(Hoisted("_h2")), ir.Constant(None))


def test_an_empty_zone_is_tested_once_and_its_top_read_where_there_is_one():
    plain = (TOP, ir.If(IS_NONE, (call("a", ir.Local(Hoisted("_h1"))),), (call("b", ir.Local(Hoisted("_h2"))),)), call("c"))
    assert lines(*plain, passes=[split_on_empty_zone]) == "\n".join([
        "    if not _h1:", "        a(_h1)", "    else:", "        _h2 = _h1[-1]", "        b(_h2)", "    c()"])


def test_a_top_read_that_a_branch_or_what_follows_still_needs_stays():
    needed_when_empty = (TOP, ir.If(IS_NONE, (call("a", ir.Local(Hoisted("_h2"))),), (call("b", ir.Local(Hoisted("_h2"))),)))
    needed_after = (TOP, ir.If(IS_NONE, (call("a"),), (call("b", ir.Local(Hoisted("_h2"))),)), call("c", ir.Local(Hoisted("_h2"))))
    read_by_host = (TOP, ir.If(IS_NONE, (call("a"),), (call("b"),)), ir.ShortIf(ir.Call("f", (ir.Local(Hoisted("_h2")),)), (ir.Break(),)))
    no_else = (TOP, ir.If(IS_NONE, (call("a"),)), call("c"))
    for kept in (needed_when_empty, needed_after, read_by_host, no_else):
        assert lines(*kept, passes=[split_on_empty_zone]) == lines(*kept)


# ---- drop_implied_tests -------------------------------------------------------------------------

def condition(subject, constant, negated=False, more=()):
    """`(_h1 is not None) and (subject == constant) and more...`, in parentheses, or not (...)."""
    test = ir.Grouped(ir.BoolOp("and", (ir.Grouped(ir.Compare("is not", H1, NONE)),
                                        ir.Grouped(ir.Compare("==", subject, ir.Constant(constant))), *more)))
    return ir.Not(test) if negated else test


def described(test, known):
    test = folded_test(test, known)
    assert isinstance(test, ir.HostTest), test
    return test


def test_the_tests_a_none_split_folds_say_which_compare_with_a_constant():
    fire, house = ir.ReadColumn(ComponentColumn("_A0"), X), ir.ReadColumn(ComponentColumn("_A0"), X)
    outer = described(condition(fire, "fire", negated=True), {Hoisted("_h1"): False})
    assert (outer.subject, outer.constant, outer.negated, outer.whole) == ((ComponentColumn("_A0"), "x"), "fire", True, True)
    inner = described(condition(house, "house", more=(ir.Grouped(ir.Compare("!=", ir.ReadColumn(ComponentColumn("_A1"), X), X)),)),
                      {Hoisted("_h1"): False})
    assert (inner.subject, inner.constant, inner.negated, inner.whole) == ((ComponentColumn("_A0"), "x"), "house", False, False)
    assert folded_test(condition(fire, "fire", negated=True), {Hoisted("_h1"): True}) is True
    assert folded_test(ir.Grouped(ir.BoolOp("and", (ir.Grouped(ir.Compare("is not", H1, NONE)), f(H1)))),
                       {Hoisted("_h1"): True}) is False
    assert folded_test(f(ir.Local(Hoisted("_h2"))), {Hoisted("_h1"): True}) == f(ir.Local(Hoisted("_h2")))     # nothing known there: as it was
    assert not isinstance(folded_test(condition(f(H1), "a"), {Hoisted("_h1"): False}), ir.HostTest)
    assert folded(ir.BoolOp("and", (ir.Not(ir.Not(H1)), X)), {Hoisted("_h2"): True, ("truthy", Hoisted("_h1")): False}) is False
    assert folded(ir.BoolOp("or", (H1, X)), {("truthy", Hoisted("_h1")): True}) is True


def test_a_subject_is_a_key_of_names_and_numbers_not_text():
    """What drop_implied_tests compares: the same item written by a column or by an item of its
    table is one key; spans play no part; an item by anything but a name or a number has none."""
    t = ir.Local("t", Span("g.rules", 1, 1, 1, 2))
    assert subject_key(ir.Item(ir.Item(t, X), ir.Constant(0))) == ("t", "x", 0)
    assert subject_key(ir.ReadColumn(ComponentColumn("_A0"), X)) == subject_key(ir.Item(ir.Global(ComponentColumn("_A0")), ir.Local("x"))) == (ComponentColumn("_A0"), "x")
    assert subject_key(ir.Item(t, ir.Constant("x"))) is None
    assert subject_key(ir.Item(t, ir.Call("f", ()))) is None and subject_key(ir.Call("f", ())) is None


def implied(outer_constant="fire", inner_constant="house", inner_subject="_A0", more=()):
    outer = described(condition(ir.ReadColumn(ComponentColumn("_A0"), X), outer_constant, negated=True),
                      {Hoisted("_h1"): False})
    inner = described(condition(ir.ReadColumn(inner_subject, X), inner_constant, more=(ir.Local("y"),)),
                      {Hoisted("_h1"): False})
    return (ir.If(outer, (ir.If(inner, (call("z"),)), *more)),)


def test_an_outer_test_that_the_inner_one_implies_goes():
    assert lines(*implied(), passes=[drop_implied_tests]) == "    if _A0[x] == 'house' and y:\n        z()"


def test_an_outer_test_with_more_in_it_or_not_implied_stays():
    for kept in (implied(more=(call("w"),)), implied(inner_constant="fire"), implied(inner_subject=ComponentColumn("_A1"))):
        assert lines(*kept, passes=[drop_implied_tests]) == lines(*kept)


# ---- the games ----------------------------------------------------------------------------------

def test_the_listing_passes_are_in_the_table():
    assert {p.__name__ for p in LISTING_PASSES} <= set(PASS_NAMES)
    function = ir.Function("f", ("s",), (TOP, ir.If(IS_NONE, (call("a"),), (call("b"),))))
    assert run_passes(function, {"split_on_empty_zone"}, LISTING_PASSES) == function
    assert run_passes(function, (), LISTING_PASSES) != function


@pytest.mark.parametrize("off, game", [("inline_single_lazy", "titicaca"), ("split_on_empty_zone", "continents"),
                                       ("drop_implied_tests", "continents")])
def test_a_game_lists_the_same_moves_with_a_listing_pass_off(off, game):
    path = str(ROOT / f"games/{game}.rules")
    on, off_game = load_game(path, players=3)[0], load_game(path, players=3, passes_off=(off,))[0]
    assert on.compiler.module_source() != off_game.compiler.module_source()
    for seed in range(3):
        a, b = on.new_initial_state(seed), off_game.new_initial_state(seed)
        rng = random.Random(seed)
        for _ in range(60):
            if a.is_terminal():
                break
            assert a.legal_move_names() == b.legal_move_names()
            move = rng.choice(a.legal_move_names())
            a.apply(move)
            b.apply(move)
