"""The rules' statements, functions and procedures built as IR (compile/lower_statements.py,
compile/lower_functions.py): the nodes of the statements of the rules render as the generated
code expects, a function's tables are bound from what its IR reads, and the games' statements
lower to IR statements."""
import pytest
from referee.dsl.ast import Span
from referee.interpreter.compile import ir
from referee.interpreter.compile.codegen import Context
from referee.interpreter.compile.lower_functions import prologue
from referee.interpreter.compile.render_python import expression, render_function
from referee.interpreter.engine import load_game

from tests.golden import ROOT
from referee.interpreter.compile.generated_names import ComponentColumn

HERE = Span("games/x.rules", 12, 3, 12, 9)
INNER = Span("games/x.rules", 12, 20, 12, 30)
NEXT = Span("games/x.rules", 13, 3, 13, 9)
X, Y = ir.Local("x"), ir.Local("y")
GAMES = sorted(str(p) for p in (ROOT / "games").glob("*.rules"))


def lines(*statements, by_rule=True):
    return render_function(ir.Function("f", ("s",), statements), by_rule).lines


@pytest.mark.parametrize("node, text", [
    (ir.Key("score"), "'score'"),
    (ir.Key("on", (X, ir.ReadState("current"))), "('on', x, s.current,)"),
    (ir.ReadVar(ir.Key("mark", (X,)), ir.Constant(None)), "_V.get(('mark', x,), None)"),
    (ir.BoolOp("and", (ir.Compare("is not", X, ir.Constant(None)),
                       ir.Not(ir.Between(ir.Constant(-9), X, ir.Constant(9))))), "x is not None and not -9 <= x <= 9"),
    (ir.Compare("<", ir.Budget(0), ir.Constant(0)), "STEP[0] < 0"),
    (ir.CacheKey((X,)), "x"),
    (ir.CacheKey((X, Y)), "(x, y, )"),
    (ir.CacheKey(()), "()"),
    (ir.Method(X, "get", (Y, ir.Constant(0))), "x.get(y, 0)"),
    (ir.NewList(), "[]"),
])
def test_the_expressions_of_the_rules_render(node, text):
    assert expression(node) == text


def test_the_statements_of_the_rules_render():
    assert lines(
        ir.WriteVar(ir.Key("score", (X,)), ir.Arithmetic("+", ir.ReadVar(ir.Key("score", (X,)), ir.Constant(0)), Y)),
        ir.Spend(1, ir.Call("len", (X,))),
        ir.Guard(ir.Compare("is", X, ir.Constant(None)), (ir.ExpressionStatement(ir.Call("stored_none", (X,))),)),
        ir.Rounds("_loop1", ir.Global("LOOP_CAP"), (ir.Guard(ir.Not(X), (ir.Break(),)), ir.Invalidate(3)),
                  (ir.Raise(ir.Call("RulesRuntimeError", (ir.Constant("a 'while' loop ran 9 times"),))),)),
        ir.YieldFrom(ir.Call("chance_pick", (ir.TheState(),)), "_drawn2"),
        ir.AppendLog(ir.Constant("hello")),
        ir.SetItem(ir.Global("_cache"), ir.CacheKey((X, Y)), ir.Tuple((ir.Local("stamp"), X))),
        ir.Remark("why"),
    ) == [
        "    _V[('score', x,)] = _V.get(('score', x,), 0) + y",
        "    STEP[1] -= len(x)",
        "    if x is None: stored_none(x)",
        "    for _loop1 in range(LOOP_CAP):", "        if not x: break", "        MEMO_STAMPS[3] += 1",
        "    else:", "        raise RulesRuntimeError(\"a 'while' loop ran 9 times\")",
        "    _drawn2 = yield from chance_pick(s)",
        "    s.log.append('hello')",
        "    _cache[(x, y, )] = (stamp, x)",
        "    # why"]


def test_a_guard_keeps_its_test_on_one_line_and_chains_like_an_if():
    chosen = ir.Guard(ir.Compare("==", ir.Call("len", (X,)), ir.Constant(1)), (ir.Assign("k", ir.Constant(0)),),
                      (ir.If(Y, (ir.Assign("k", Y),), (ir.Yield(X, "k"),)),))
    assert lines(chosen) == ["    if len(x) == 1: k = 0", "    elif y:", "        k = y", "    else:", "        k = yield x"]
    with pytest.raises(ValueError):
        lines(ir.Guard(X, (ir.If(Y, (ir.Break(),)),)))      # an action of more than one line


def test_each_rules_statement_says_its_line_even_nested_on_the_same_line():
    nested = ir.Rule((ir.Assign("a", X, span=INNER),), INNER)
    rendered = render_function(ir.Function("f", ("s",), (
        ir.Rule((ir.If(X, (ir.Spend(0, ir.Constant(1), span=HERE), nested, ir.Guard(Y, (ir.Break(),), span=HERE)),
                       span=HERE),), HERE),
        ir.Rule((ir.Assign("b", Y, span=NEXT),), NEXT))), by_rule=True)
    assert rendered.lines == ["    # x.rules:12", "    if x:", "        STEP[0] -= 1", "        # x.rules:12",
                              "        a = x", "        if y: break", "    # x.rules:13", "    b = y"]
    assert rendered.spans == [HERE, HERE, HERE, INNER, INNER, HERE, NEXT, NEXT]


def test_an_expression_over_lines_is_one_line_per_piece_with_its_span():
    long = ir.BoolOp("and", tuple(ir.Local(f"a_rather_long_name_{k}") for k in range(6)), spread=True)
    rendered = render_function(ir.Function("f", ("s",), (ir.Return(ir.Grouped(long), span=HERE),)), by_rule=True)
    assert rendered.lines[0] == "    return (a_rather_long_name_0 and" and len(rendered.lines) == 6
    assert rendered.spans == [HERE] * 6


def test_a_functions_tables_are_bound_from_what_its_ir_reads():
    columns = ir.Arithmetic("+", ir.ReadColumn(ComponentColumn("_A10"), X), ir.ReadColumn(ComponentColumn("_A3"), Y))
    body = (ir.Return(ir.Arithmetic("+", columns, ir.Call("len", (ir.ReadZone(ir.Key("deck")),)))),
            ir.WriteVar(ir.Key("n"), ir.Constant(1)))
    columns = {"_A10": 10, "_A3": 3, "_A0": 0}     # (the game's: Game.column_locals)
    assert [expression(a.value) for a in prologue(body, columns)] == ["s.zones", "s.vars", "s.columns[3]", "s.columns[10]"]
    assert [a.target for a in prologue(body, columns)] == ["_Z", "_V", "_A3", "_A10"]
    assert prologue((ir.Return(X),), columns) == ()


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.rsplit("/", 1)[-1])
def test_every_procedure_and_the_setup_lower_to_ir_statements(path):
    game, diagnostics, _ = load_game(path)
    assert game is not None, diagnostics
    compiler = game.compiler
    types = compiler.types
    blocks = [(proc.body, types.globals.child(**{p.name: types.type_name(p.type) for p in proc.parameters}),
               name in compiler.may_choose_procs) for name, proc in types.procedures.items()]
    if compiler.program.setup:
        blocks.append((compiler.program.setup.body, types.globals, False))
    for body, scope, steps in blocks:
        ctx = Context("local")
        ctx.steps = steps
        lowered = compiler.statements(body, scope, ctx)
        assert len(lowered) == len(body) and all(isinstance(rule, ir.Rule) for rule in lowered)
        for rule in lowered:
            assert all(node.span is not None for node in ir.walk(rule) if isinstance(node, ir.Statement)), path


def test_the_generated_functions_bind_only_the_tables_they_read():
    source = load_game(str(ROOT / "games/tic-tac-toe.rules"))[0].compiler.module_source()
    functions = source.split("\ndef ")[1:]
    for function in functions:
        body = function.split("\n", 1)[1]
        for local, field in (("_Z", "zones"), ("_V", "vars"), ("_E", "entities")):
            bound = f"    {local} = s.{field}\n" in body
            assert bound == (body.replace(f"    {local} = s.{field}\n", "").count(local) > 0), function


def test_a_refusal_is_on_its_tests_line_when_short_else_under_it():
    short = ir.Unless(X, (ir.Return(ir.Constant("no")),))
    assert lines(short) == ["    if not (x): return 'no'"]
    long_reason = ir.Arithmetic("+", ir.Constant("a" * 60), ir.Constant("b" * 60), spread=True)
    assert lines(ir.Unless(X, (ir.Return(ir.Grouped(long_reason)),))) == [
        "    if not (x):", "        return ('" + "a" * 60 + "' +", "            '" + "b" * 60 + "')"]
