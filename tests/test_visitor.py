"""The one visitor convention (dsl/visitor.py): every visitor handles every node class of the kinds
it declares, save the exceptions listed here with their reason, and no handler outlives its class."""
import pathlib
import re

import pytest

from referee.dsl import ast, visitor
from referee.dsl.checker import Checker
from referee.dsl.names import Resolver
from referee.dsl.visitor import EXPRESSIONS, STATEMENTS, Visitor, handled, handler_names
from referee.interpreter.compile.codegen import SourceGenerator
from referee.interpreter.compile.compiler import Compiler
from referee.interpreter.native.rollout_source import RolloutSource
from referee.interpreter.native.rules_source import KernelSource
from referee.interpreter.native.verify_source import VerifySource

ROOT = pathlib.Path(__file__).resolve().parent.parent

VISITORS = (Checker, SourceGenerator, Compiler, Resolver, KernelSource, RolloutSource, VerifySource)

# (visitor, node class) -> why the visitor has no handler for it
NOT_HANDLED = {
    (Compiler, ast.Play): "the flow's statements are lowered to the IR by flow_block, never compiled in a block",
    (Compiler, ast.Turns): "the flow's statements are lowered to the IR by flow_block, never compiled in a block",
    (Compiler, ast.Turn): "the flow's statements are lowered to the IR by flow_block, never compiled in a block",
    (Compiler, ast.Simultaneous): "the flow's statements are lowered to the IR by flow_block, never compiled in a block",
}


def every_visitor_class():
    found, todo = [], [Visitor]
    while todo:
        for sub in todo.pop().__subclasses__():
            found.append(sub)
            todo.append(sub)
    return found


def test_the_expressions_and_statements_are_what_the_grammar_makes():
    from referee.dsl.parser import class_name, lark_parser
    expression_rules = {"expr", "or_expr", "and_expr", "not_expr", "comparison", "range_expr", "sum", "product", "unary",
                        "postfix", "atom", "bound"}
    made = {"expression": {"Boolean"}, "statement": set()}      # (Boolean: the rule `boolean`, not an alias)
    for rule in lark_parser().rules:
        kind = ("expression" if rule.origin.name in expression_rules
                else "statement" if rule.origin.name in ("plain_statement", "decision") else None)
        if kind and rule.alias:
            made[kind].add(class_name(rule.alias))
    assert {cls.__name__ for cls in EXPRESSIONS} == made["expression"]
    assert {cls.__name__ for cls in STATEMENTS} == made["statement"]
    assert len(set(EXPRESSIONS)) == len(EXPRESSIONS) and len(set(STATEMENTS)) == len(STATEMENTS)


@pytest.mark.parametrize("visitor_class", VISITORS, ids=lambda cls: cls.__name__)
def test_each_visitor_handles_every_node_class_of_its_kinds(visitor_class):
    excepted = {cls for (owner, cls) in NOT_HANDLED if owner is visitor_class}
    missing = set(visitor_class.kinds) - handled(visitor_class) - excepted
    assert not missing, sorted(cls.__name__ for cls in missing)
    assert not excepted & handled(visitor_class), "an exception listed for a class that is handled now"


@pytest.mark.parametrize("visitor_class", VISITORS, ids=lambda cls: cls.__name__)
def test_each_handler_names_a_node_class(visitor_class):
    stale = {name for name in handler_names(visitor_class) if not isinstance(getattr(ast, name, None), type)}
    assert not stale, stale


def test_the_checker_and_the_compiler_declare_their_kinds():
    assert set(Checker.kinds) == set(EXPRESSIONS + STATEMENTS)
    assert SourceGenerator.kinds == EXPRESSIONS
    assert Compiler.kinds == STATEMENTS
    assert Resolver.kinds == ()       # it walks every other node by its fields: a handler where names resolve


def test_every_visitor_of_the_code_base_is_tested_here():
    assert set(every_visitor_class()) <= set(VISITORS)


def test_no_module_dispatches_on_a_prefix_of_its_own():
    """The four prefixes of old (expr_, stmt_, x_, s_) and a dispatch by getattr outside dsl/visitor.py."""
    old = re.compile(r"def (expr|stmt|x|s)_[A-Z]|getattr\(self, \"[a-z]+_\" \+")
    found = [f"{path.relative_to(ROOT)}: {match.group()}"
             for folder in ("dsl", "interpreter", "tests") for path in (ROOT / folder).rglob("*.py")
             if path != pathlib.Path(visitor.__file__).resolve() and path != pathlib.Path(__file__).resolve()
             for match in old.finditer(path.read_text(encoding="utf-8"))]
    assert found == []


def test_dispatch_calls_the_handler_of_the_node_class_with_the_arguments():
    class Counter(Visitor):
        def visit_Integer(self, node, scale):
            return node.value * scale

    assert Counter().dispatch(ast.Integer(ast.NOWHERE, 7), 3) == 21


def test_dispatch_of_a_class_without_a_handler_names_the_missing_method():
    class Empty(Visitor):
        pass

    with pytest.raises(TypeError, match="Empty has no visit_Integer"):
        Empty().dispatch(ast.Integer(ast.NOWHERE, 7))
    assert Empty.handler(ast.Integer) is None


def test_a_subclass_handler_replaces_its_base_class_handler():
    class Base(Visitor):
        def visit_Integer(self, node):
            return "base"

    class Derived(Base):
        def visit_Integer(self, node):
            return "derived"

    node = ast.Integer(ast.NOWHERE, 1)
    assert Base().dispatch(node) == "base"          # the base's table filled first
    assert Derived().dispatch(node) == "derived"
    assert handled(Derived) == {ast.Integer}
