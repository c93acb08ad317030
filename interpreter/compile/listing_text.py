"""A condition's none tests decided on its Python text (an ast round trip): what the listings
did before they took codegen's IR. No compiler code calls it any more (none_tests.py decides
on the IR); tests check the IR twin against it, and it goes with them. Also how host code
is cut at its cached calls (lower_listing.with_cached_reads: no listing holds host code now)."""
from __future__ import annotations

import ast as python_ast
import re

from . import ir


def folded(source: str, known: dict):
    """A condition's source with `X is None` / `X is not None` decided for the names in
    `known` (name -> whether it is none), and what that decides folded (`not`, `and`, `or`,
    `a if c else b`): True or False when the whole condition is decided, else the source."""
    result = folded_tree(source, known)
    if result is None:
        return source
    if isinstance(result, python_ast.Constant) and isinstance(result.value, bool):
        return result.value
    return python_ast.unparse(result)


def folded_tree(source: str, known: dict):
    """folded()'s syntax tree, or None when it is the source as it was."""
    if not known or not any((name if isinstance(name, str) else name[1]) in source for name in known):
        return None
    try:
        tree = python_ast.parse(source, mode="eval").body
    except (SyntaxError, RecursionError, MemoryError):
        return None
    return NoneFolder(known).visit(tree)


def folded_test(source: str, known: dict | None):
    """folded() for the IR: True, False, or the test as host code, an ir.HostTest where it is
    (or begins with) a comparison of a name or an item with a constant."""
    result = folded_tree(source, known or {})
    if result is None:
        return ir.Host((source,), reads=locals_read(source))
    if isinstance(result, python_ast.Constant) and isinstance(result.value, bool):
        return result.value
    text = python_ast.unparse(result)
    test = ir.Host((text,), reads=locals_read(text))
    negated = isinstance(result, python_ast.UnaryOp) and isinstance(result.op, python_ast.Not)
    whole = not (isinstance(result, python_ast.BoolOp) and isinstance(result.op, python_ast.And))
    compared = result.operand if negated else result if whole else result.values[0]
    equality = equals_constant(compared)
    if equality is None or (negated and not whole):
        return test
    return ir.HostTest(test, equality[0], equality[1], negated, whole)


def equals_constant(node):
    """(subject's source, constant) of `subject == constant`, the subject a name or an item of
    one, the constant a whole number or a word; else None."""
    if not (isinstance(node, python_ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], python_ast.Eq)):
        return None
    subject, constant = node.left, node.comparators[0]
    if not (isinstance(constant, python_ast.Constant) and type(constant.value) in (int, str)
            and (type(constant.value) is int or all(c.isalnum() or c == "_" for c in constant.value))):
        return None
    plain = subject
    while isinstance(plain, python_ast.Subscript) and (isinstance(plain.slice, python_ast.Name) or (
            isinstance(plain.slice, python_ast.Constant) and type(plain.slice.value) is int)):
        plain = plain.value
    return (python_ast.unparse(subject), constant.value) if isinstance(plain, python_ast.Name) else None


class NoneFolder(python_ast.NodeTransformer):
    """folded(): decides the none tests of known names, and folds what they decide. A key
    ("truthy", name) of `known` gives the truth of a name tested as a condition."""

    def __init__(self, known):
        self.known = {k: v for k, v in known.items() if isinstance(k, str)}
        self.truthy = {k[1]: v for k, v in known.items() if not isinstance(k, str)}

    def truth(self, node):
        """The node, or its truth when it is a name whose truth is known."""
        if isinstance(node, python_ast.Name) and node.id in self.truthy:
            return python_ast.Constant(self.truthy[node.id])
        return node

    @staticmethod
    def decided(node):
        return isinstance(node, python_ast.Constant) and isinstance(node.value, bool)

    def visit_Compare(self, node):
        self.generic_visit(node)
        if (len(node.ops) == 1 and isinstance(node.left, python_ast.Name) and node.left.id in self.known
                and isinstance(node.ops[0], (python_ast.Is, python_ast.IsNot))
                and isinstance(node.comparators[0], python_ast.Constant) and node.comparators[0].value is None):
            return python_ast.Constant(self.known[node.left.id] == isinstance(node.ops[0], python_ast.Is))
        return node

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, python_ast.Not):
            node.operand = self.truth(node.operand)
        if isinstance(node.op, python_ast.Not) and self.decided(node.operand):
            return python_ast.Constant(not node.operand.value)
        return node

    def visit_BoolOp(self, node):
        self.generic_visit(node)
        is_and = isinstance(node.op, python_ast.And)
        kept = []
        for value in node.values:
            value = self.truth(value)
            if self.decided(value):
                if value.value != is_and:
                    return python_ast.Constant(value.value)     # False in an `and`, True in an `or`
                continue                                        # no effect on the rest
            kept.append(value)
        if not kept:
            return python_ast.Constant(is_and)
        return kept[0] if len(kept) == 1 else python_ast.BoolOp(node.op, kept)

    def visit_IfExp(self, node):
        self.generic_visit(node)
        node.test = self.truth(node.test)
        if self.decided(node.test):
            return node.body if node.test.value else node.orelse
        return node


# the locals a listing's source may read: binders and lets, values read once, rows of zone keys
LISTING_LOCAL = re.compile(r"\b(?:L_\w+|_h\d+|a\d+_key)\b")


def cached_use(temp: str, source: str) -> str:
    """How codegen.py writes a call made on first use (hoisted_lazy): the text a Host is cut at
    to give it as an ir.Cached."""
    return f"({temp} if {temp} is not UNSET else ({temp} := {source}))"


def locals_read(source: str) -> frozenset:
    """The listing's locals that an expression's source reads (a Host's `reads`)."""
    return frozenset(LISTING_LOCAL.findall(source))
