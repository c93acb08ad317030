"""What the statement compiler (compiler.py, lower_statements.py) still reads back from the
Python text it writes: regular expressions and `ast` round trips over generated source (a
zone's truth, attributes read once, the tables a source reads, temporaries). codegen.py takes
these decisions on the IR (expression_facts.py); these go as the others use its IR; no new code
should add to them."""
from __future__ import annotations

import ast as python_ast
import re

# the layout of long expressions: the renderer's (the statement compiler still joins text with them)
from .render_python import CONTINUED, SPREAD, gap, joined  # noqa: F401

# `(not not _Z.get(key))`: a zone's truth as a bool; where only its truth counts, the zone itself
NOT_NOT_ZONE = re.compile(r"\(not not (_Z\.get\((?:\([^()]*\)|a\d+_key)\))\)")


def truth(source: str) -> str:
    """A condition's source for where only its truth counts (an if, a filter): a zone read
    needs no bool of its own."""
    return NOT_NOT_ZONE.sub(r"\1", source) if "not not _Z" in source else source


def filter_values(where: str) -> dict:
    """The values a filter's source keeps in temporaries (`(_t1 := EXPR)`) that are surely
    assigned whenever the filter is true: EXPR's normalised source -> the temporary. An item
    that passes the filter can read them instead of computing EXPR again."""
    found = {}

    def visit(node):
        if isinstance(node, python_ast.BoolOp):
            # an `and` that is true evaluated all its operands; an `or`, surely its first
            for value in (node.values if isinstance(node.op, python_ast.And) else node.values[:1]):
                visit(value)
        elif isinstance(node, python_ast.Compare):
            visit(node.left)
            for value in node.comparators:
                visit(value)
        elif isinstance(node, python_ast.UnaryOp):
            visit(node.operand)
        elif isinstance(node, python_ast.NamedExpr):
            found.setdefault(canonical(node.value), node.target.id)
            visit(node.value)
    try:
        visit(python_ast.parse(where, mode="eval").body)
    except (SyntaxError, RecursionError, MemoryError):
        return {}
    return found


PARAMETER_ATTRIBUTE = re.compile(r"\((_A\d+)\[(L_\w+)\] if \2 is not None else None\)|\b_A\d+\[L_\w+\]")


def attributes_read_once(sources: list, temp) -> tuple:
    """(lines `_t = ...`, sources) where each attribute of a named value (`x.colour` of a
    parameter x: `_A0[L_x]`, its none test with it) that a loop's sources read per item is
    read once before the loop: the columns never change, and no loop rebinds an L_ name. Such
    a read cannot fail for a value the rules give (a component or none)."""
    lines, names = [], {}

    def once(match):
        read = match.group(0)
        if read not in names:
            names[read] = temp()
            lines.append(f"{names[read]} = {read}")
        return names[read]
    return lines, [None if source is None else PARAMETER_ATTRIBUTE.sub(once, source) for source in sources]


def reusing(source: str, values: dict) -> str:
    """`source`, or the temporary that already holds its value (filter_values)."""
    if not values:
        return source
    try:
        return values.get(canonical(python_ast.parse(source, mode="eval").body), source)
    except (SyntaxError, RecursionError, MemoryError):
        return source


TEMPORARY = re.compile(r"\b_t\d+\b")
BOUND_TEMPORARY = re.compile(r"\((_t\d+) :=")
HOISTED = re.compile(r"\b_h\d+\b")


def temporaries_of_their_own(source: str, elsewhere: str) -> bool:
    """Whether source may move into a lambda: every temporary it reads it binds itself, none
    that it binds is read elsewhere, and it reads no value hoisted for a loop level (computed
    on first use: `_h if _h is not UNSET else (_h := ...)`, which a lambda would make its own)."""
    if HOISTED.search(source):
        return False
    bound = set(BOUND_TEMPORARY.findall(source))
    return set(TEMPORARY.findall(source)) <= bound and not bound & set(TEMPORARY.findall(elsewhere))


def canonical(node) -> str:
    """An expression's source with its own temporaries renamed in order of appearance: two
    writings of one expression (an inlined function, twice) compare equal."""
    names = {}
    return TEMPORARY.sub(lambda m: names.setdefault(m.group(0), f"_t{len(names)}"), python_ast.unparse(node))


TABLE_READ = re.compile(r"\b(_[ZVE]|_A\d+)\b")


def host_reads(source: str) -> frozenset:
    """The state's tables (`_Z`, `_V`, `_E`, `_A<k>`) that codegen's source of an expression
    reads: what ir.Host.reads declares for it, until codegen lowers expressions to the IR."""
    return frozenset(TABLE_READ.findall(source)) if "_" in source else frozenset()
