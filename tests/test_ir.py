"""The compiler's IR (compile/ir.py) and its one renderer (compile/render_python.py): every node
class is rendered, expressions are parenthesised by how tightly they bind, each rules line
gets its comment, and walking and rebuilding keep what they do not change."""
import inspect

import attrs
import pytest
from referee.dsl import ast
from referee.dsl.ast import Span
from referee.interpreter.compile import ir
from referee.interpreter.compile.render_python import (
    EXPRESSIONS,
    STATEMENTS,
    expression,
    render_function,
)

HERE = Span("games/x.rules", 12, 3, 12, 9)
THERE = Span("games/x.rules", 14, 1, 14, 5)
X, Y = ir.Local("x"), ir.Local("y")


def node_classes():
    return [c for _, c in inspect.getmembers(ir, inspect.isclass)
            if issubclass(c, ir.Node) and c not in (ir.Node, ir.Expression, ir.Statement)]


def body(*statements):
    return render_function(ir.Function("f", ("s",), statements)).lines


def test_every_node_class_is_listed_and_rendered():
    classes = node_classes()
    assert set(classes) == set(ir.NODES)
    for node_class in classes:
        if node_class is ir.Function:
            continue
        if issubclass(node_class, ir.Expression):
            assert node_class in EXPRESSIONS, node_class.__name__
        if issubclass(node_class, ir.Statement):
            assert node_class in STATEMENTS, node_class.__name__


def test_every_node_is_frozen_typed_and_located():
    for node_class in node_classes():
        fields = attrs.fields(node_class)
        assert fields[-1].name == "span" and fields[-1].default is None, node_class.__name__
        assert all(f.type is not None for f in fields), node_class.__name__
        node = node_class(*[example_of(f) for f in fields if f.default is attrs.NOTHING])
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            node.span = HERE


def test_nodes_print_compare_and_hash_as_attrs_makes_them():
    # the classes are made without compiling a repr, an equality and a hash each (start-up): the shared ones do the same
    node = ir.Arithmetic("+", X, ir.Constant(2), span=HERE)
    assert repr(node) == f"Arithmetic(op='+', left={X!r}, right=Constant(value=2, span=None), spread=False, span={HERE!r})"
    assert repr(X) == "Local(name='x', span=None)"
    assert node == ir.Arithmetic("+", ir.Local("x"), ir.Constant(2), span=HERE) != ir.Arithmetic("-", X, ir.Constant(2))
    assert hash(node) == hash(ir.Arithmetic("+", ir.Local("x"), ir.Constant(2), span=HERE))
    assert ir.Local("x") != ir.Global("x") and not ir.Local("x") != ir.Local("x")
    assert ir.TheState() == ir.TheState() and len({ir.TheState(), ir.TheState(), ir.Break()}) == 2   # no fields


def test_a_field_left_out_of_equality_is_left_out_of_the_hash_too():
    one = ast.Module(HERE, (), tokens=("a",))
    other = ast.Module(HERE, (), tokens=("b",))
    assert one == other and hash(one) == hash(other) and one != ast.Module(THERE, ())


def example_of(field):
    """A value of a field's declared type."""
    kinds = {"str": "x", "int": 1, "Expression": X, "tuple[Expression, ...]": (X,), "Value": 1,
             "tuple[Statement, ...]": (ir.Break(),), "tuple[str, ...]": ("x",),
             "tuple[ForClause, ...]": (ir.ForClause("x", X),), "SubjectKey": ("x", 0)}
    return kinds[field.type]


@pytest.mark.parametrize("node, text", [
    (ir.Arithmetic("+", ir.Arithmetic("%", ir.ReadEnv("#0"), ir.Constant(2)), ir.Constant(1)), "e['#0'] % 2 + 1"),
    (ir.Arithmetic("*", ir.Arithmetic("+", X, Y), ir.Constant(2)), "(x + y) * 2"),
    (ir.Arithmetic("-", X, ir.Arithmetic("-", Y, ir.Constant(1))), "x - (y - 1)"),
    (ir.BoolOp("or", (ir.ReadState("terminal"), ir.Compare("is not", ir.ReadState("pending"), ir.Constant(None)))),
     "s.terminal or s.pending is not None"),
    (ir.BoolOp("and", (ir.BoolOp("or", (X, Y)), X)), "(x or y) and x"),
    (ir.Not(ir.Not(X)), "not not x"),
    (ir.Not(ir.BoolOp("and", (X, Y))), "not (x and y)"),
    (ir.Not(ir.HasEnv("#3")), "'#3' not in e"),
    (ir.Compare("==", ir.Compare("<", X, Y), ir.Constant(True)), "(x < y) == True"),
    (ir.Conditional(X, ir.Constant(1), ir.Constant(2)), "1 if x else 2"),
    (ir.Call("seat", (ir.TheState(), ir.Constant("a turn"), ir.Field(ir.Global("_ins3"), "span"))),
     "seat(s, 'a turn', _ins3.span)"),
    (ir.Tuple((ir.Item(X, Y),)), "(x[y],)"),
    (ir.StateCall("listed"), "s.listed()"),
    (ir.Arithmetic("+", ir.Conditional(ir.Local("b"), ir.Local("a"), ir.Local("c")), ir.Constant(1)), "(a if b else c) + 1"),
])
def test_expressions_are_parenthesised_by_how_tightly_they_bind(node, text):
    assert expression(node) == text


def test_statements_render_with_their_blocks():
    lines = body(
        ir.Assign("jumps", ir.Arithmetic("+", ir.Local("jumps"), ir.Constant(1))),
        ir.WriteState("turn", ir.Arithmetic("+", ir.ReadState("turn"), ir.Constant(1))),
        ir.Unpack(("values", "i"), ir.ReadEnv("#2")),
        ir.If(X, (ir.DeleteEnv("#2"),), (ir.If(Y, (ir.CountCoverage(4),), (ir.Continue(),)),)),
        ir.While(ir.Constant(True), ()),
        ir.ForRange("k", ir.Constant(0), X, (ir.Break(),)),
        ir.ForEach("v", Y, (ir.Yield(ir.Local("v"), "answer"), ir.Yield(ir.Constant(None)))),
        ir.Try((ir.ExpressionStatement(ir.Call("f", (X,))),), "Finished", (ir.Return(X),)),
    )
    assert lines == [
        "    jumps += 1", "    s.turn += 1", "    values, i = e['#2']",
        "    if x:", "        del e['#2']", "    elif y:", "        COV[4] += 1", "    else:", "        continue",
        "    while True:", "        pass",
        "    for k in range(0, x):", "        break",
        "    for v in y:", "        answer = yield v", "        yield None",
        "    try:", "        f(x)", "    except Finished:", "        return x"]


def test_each_rules_line_gets_one_comment_and_every_line_its_span():
    a = ir.Local("a")
    rendered = render_function(ir.Function("f", ("s", "e"), (
        ir.WriteState("pc", ir.Constant(3), span=HERE), ir.Assign("pc", ir.Constant(4), span=HERE),
        ir.Assign("a", ir.Constant(1), span=HERE), ir.If(a, (ir.ExpressionStatement(ir.Call("b"), span=THERE),), span=THERE))))
    assert rendered.header == "def f(s, e)"
    assert rendered.lines == ["    # x.rules:12", "    s.pc = 3", "    pc = 4", "    a = 1",
                              "    # x.rules:14", "    if a:", "        b()"]
    assert rendered.spans == [HERE, HERE, HERE, HERE, THERE, THERE, THERE]


def test_rebuilt_keeps_what_does_not_change_and_walk_sees_everything():
    tree = ir.If(ir.Not(X), (ir.Assign("y", Y), ir.Break()), (ir.Continue(),))
    assert ir.rebuilt(tree, lambda node: node) is tree
    renamed = ir.rebuilt(tree, lambda node: ir.Continue() if isinstance(node, ir.Break) else node)
    assert renamed.body[1] == ir.Continue() and renamed.test is tree.test and renamed.orelse is tree.orelse
    assert [type(n).__name__ for n in ir.walk(tree)] == ["If", "Not", "Local", "Assign", "Local", "Break", "Continue"]
    assert ir.block_of((ir.Break(), ir.Continue()), lambda s: () if isinstance(s, ir.Break) else (s, s)) == (
        ir.Continue(), ir.Continue())


def test_nested_statements_too_long_are_tried_wider_once_each(monkeypatch):
    """Deep blocks whose every level has a line too long: a statement inside one written wider
    keeps the layout chosen for it, so the tries add up instead of multiplying by depth."""
    from referee.interpreter.compile import render_python
    names = tuple(ir.Local(f"value_number_{k}") for k in range(30))
    depth, innermost = 30, ir.Return(ir.Call("f", names))
    node: ir.Statement = innermost
    for _ in range(depth):
        node = ir.If(ir.Call("g", names), (node,))
    written = []
    handler = render_python.STATEMENTS[ir.Return]
    monkeypatch.setitem(render_python.STATEMENTS, ir.Return,
                        lambda writer, n, indent: (written.append(n), handler(writer, n, indent))[1])
    lines = body(node)
    assert all(len(line) <= render_python.LONGEST for line in lines) and len(lines) > 2 * depth
    assert len(written) <= depth + len(render_python.NARROWER) + 2


def test_a_long_comprehension_of_clauses_goes_over_lines_only_in_a_wide_statement():
    """A table of values (ir.Loops) in a line over LONGEST: each `for` and `if` on a line of
    its own, the same set; a short one stays on its line."""
    from referee.interpreter.compile.render_python import LONGEST
    names = tuple(ir.Local(f"value_number_{k}") for k in range(8))
    clauses = (ir.ForClause("a", ir.Call("f", names), (ir.Call("g", names),)), ir.ForClause("b", ir.Call("h", names)))
    lines = body(ir.Assign("table", ir.Loops(ir.Tuple((ir.Local("a"), ir.Local("b"))), clauses, braces=True)))
    assert all(len(line) <= LONGEST for line in lines) and len(lines) >= 4
    assert [line.split()[0] for line in lines if line.split()[0] in ("for", "if")] == ["for", "if", "for"]
    calls = {"f": lambda *a: range(3), "g": lambda *a: True, "h": lambda *a: "xy"}
    table = {}
    exec("\n".join(line[4:] for line in lines), {**calls, **{n.name: 0 for n in names}}, table)
    assert table["table"] == {(a, b) for a in range(3) for b in "xy"}
    short = ir.Loops(X, (ir.ForClause("x", Y),))
    assert body(ir.Assign("t", short)) == ["    t = [x for x in y]"]


def test_a_statement_with_a_line_too_long_is_written_wide_and_only_it():
    """A line over LONGEST: its statement (not the block around it, nor one inside it) again
    with what is in brackets over lines, until its lines fit; the code means the same."""
    from referee.interpreter.compile.render_python import LAYOUT, LONGEST, SPREAD
    names = [ir.Local(f"value_number_{k}") for k in range(12)]
    long_call = ir.Call("f", tuple(names))
    short = ir.Assign("y", ir.Call("g", (X, Y)))
    lines = body(ir.If(X, (ir.Return(long_call), short)), short)
    assert all(len(line) <= LONGEST for line in lines)
    assert lines[0] == "    if x:" and lines[-2:] == ["        y = g(x, y)", "    y = g(x, y)"]
    wide = lines[1:-2]
    assert len(wide) > 1 and wide[0].startswith("        return f(value_number_0,")
    values = {n.name: k for k, n in enumerate(names)}
    assert eval("\n".join(wide).strip()[len("return "):], {"f": lambda *a: a}, values) == tuple(range(12))
    assert (LAYOUT.spread, LAYOUT.wide) == (SPREAD, False)      # (as it was after)
    # what cannot go over lines (one name longer than the limit) stays as it is
    assert body(ir.Assign("z", ir.Local("v" * (LONGEST + 1)))) == ["    z = " + "v" * (LONGEST + 1)]
