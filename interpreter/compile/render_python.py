"""The one renderer: IR (ir.py) -> Python source, each line with the span of the rules text
it comes from, and a `# file:line` comment wherever the rules line changes. It writes; it never
reads its output back.

Conventions of the generated code it relies on: the state is the local `s`, the flow
environment the local `e` (bound from the state first), coverage counters the global `COV`.
"""
from __future__ import annotations

from collections.abc import Callable

import attrs
from referee.dsl.ast import Span

from . import ir

INDENT = "    "

# how tightly an expression binds: an operand binding less than its place needs is parenthesised
LOWEST, OR, AND, NOT, COMPARISON, SUM, PRODUCT, ATOM = range(8)
ARITHMETIC = {"+": SUM, "-": SUM, "*": PRODUCT, "//": PRODUCT, "%": PRODUCT}

SPREAD = 100            # a joined expression longer than this is written one item a line
CONTINUED = "\n" + " " * 12
LONGEST = 200           # characters of a generated line: a statement with a longer one is written wide
NARROWER = (60, 30, 0)  # the lengths past which a wide statement's expressions go over lines, in turn


@attrs.define
class Layout:
    """How expressions are written now: `spread`, the length past which what can go over lines
    does; `wide`, a call's arguments too (only in a statement with a line over LONGEST)."""
    spread: int = SPREAD
    wide: bool = False


LAYOUT = Layout()


def spread_past() -> int:
    """The length past which what can go over lines does, now."""
    return LAYOUT.spread if LAYOUT.wide else SPREAD


@attrs.define
class Rendered:
    """A function's source: its header (`def name(params)`) and its body's lines, indented
    once, each with the span it comes from."""
    header: str
    lines: list[str]
    spans: list[Span | None]


def where(span: Span | None) -> str:
    """The comment that names a rules line."""
    return f"# {span.file.rsplit('/', 1)[-1]}:{span.line}" if span is not None and span.line else ""


def render_function(function: ir.Function, by_rule: bool = False, comments: bool = True) -> Rendered:
    """A function's source. `by_rule`: only Rule nodes say their rules line (a function of the
    rules' statements); else every statement whose line changes does (the flow). `comments`
    False: no `# file:line` comment at all (the listings: their lines come from a whole
    action's binders and guard)."""
    writer = Writer(by_rule, comments)
    writer.block(function.body, 1)
    return Rendered(f"def {function.name}({', '.join(function.params)})", writer.lines, writer.spans)


def expression(node: ir.Expression, needs: int = LOWEST) -> str:
    """An expression's source, parenthesised when it binds less than its place `needs`."""
    text, binds = EXPRESSIONS[type(node)](node)
    return f"({text})" if binds < needs else text


def arguments(args: tuple[ir.Expression, ...], spread: bool = False) -> str:
    """A call's arguments; `spread` (or a wide layout): one a line when long together, the
    state's staying first."""
    if not (spread or LAYOUT.wide):
        return ", ".join(expression(a) for a in args)
    if args and isinstance(args[0], ir.TheState):
        rest = [expression(a) for a in args[1:]]
        return "s" + (", " + joined(rest, ", ") if rest else "")
    return joined([expression(a) for a in args], ", ")


def joined(parts: list[str] | tuple[str, ...], separator: str) -> str:
    """Items joined by an operator or a comma: one a line when they are long together (inside
    brackets; the statement's lines each get its span)."""
    one_line = separator.join(parts)
    if len(one_line) <= spread_past():
        return one_line
    return (separator.rstrip() + CONTINUED).join(parts)


def separated(parts: list[str] | tuple[str, ...], separator: str, spread: bool) -> str:
    return joined(parts, separator) if spread else separator.join(parts)


def gap(before: str, after: str) -> str:
    """What separates two parts of an expression in brackets: a space, or a new line when they
    are long together."""
    return CONTINUED if len(before) + len(after) > spread_past() else " "


def compare(node: ir.Compare) -> tuple[str, int]:
    parts = (expression(node.left, COMPARISON + 1), expression(node.right, COMPARISON + 1))
    return separated(parts, f" {node.op} ", node.spread), COMPARISON


def arithmetic(node: ir.Arithmetic) -> tuple[str, int]:
    binds = ARITHMETIC[node.op]
    if not node.spread:
        return f"{expression(node.left, binds)} {node.op} {expression(node.right, binds + 1)}", binds
    chain, first = [node.right], node.left      # a + b + c spread: joined as one
    while isinstance(first, ir.Arithmetic) and first.spread and first.op == node.op:
        chain.append(first.right)
        first = first.left
    parts = [expression(first, binds)] + [expression(x, binds + 1) for x in reversed(chain)]
    return joined(parts, f" {node.op} "), binds


def bool_op(node: ir.BoolOp) -> tuple[str, int]:
    binds = OR if node.op == "or" else AND
    parts = [expression(o, binds + 1) for o in node.operands]
    return separated(parts, f" {node.op} ", node.spread), binds


def conditional(node: ir.Conditional) -> tuple[str, int]:
    then, test, orelse = expression(node.then, OR), expression(node.test, OR), expression(node.orelse)
    if node.layout == "spread" and len(then) + len(test) + len(orelse) > spread_past():
        return f"{then}{CONTINUED}if {test}{CONTINUED}else {orelse}", LOWEST
    if node.layout == "chain":
        return f"{then} if {test}{gap(test, orelse)}else {orelse}", LOWEST
    return f"{then} if {test} else {orelse}", LOWEST


def tuple_(node: ir.Tuple) -> tuple[str, int]:
    items = [expression(item, OR) for item in node.items]
    return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})", ATOM


EXPRESSIONS: dict[type, Callable] = {
    ir.Constant: lambda n: (repr(n.value), ATOM),
    ir.Local: lambda n: (n.name, ATOM),
    ir.Global: lambda n: (n.name, ATOM),
    ir.TheState: lambda n: ("s", ATOM),
    ir.ReadState: lambda n: (f"s.{n.field}", ATOM),
    ir.ReadEnv: lambda n: (f"e[{n.key!r}]", ATOM),
    ir.HasEnv: lambda n: (f"{n.key!r} in e", COMPARISON),
    ir.Field: lambda n: (f"{expression(n.value, ATOM)}.{n.name}", ATOM),
    ir.Item: lambda n: (f"{expression(n.sequence, ATOM)}[{expression(n.index)}]", ATOM),
    ir.Tuple: tuple_,
    ir.Call: lambda n: (f"{n.function}({arguments(n.args, n.spread)})", ATOM),
    ir.StateCall: lambda n: (f"s.{n.operation}({arguments(n.args)})", ATOM),
    ir.Not: lambda n: ((f"{n.operand.key!r} not in e", COMPARISON) if isinstance(n.operand, ir.HasEnv)
                       else (f"not {expression(n.operand, NOT)}", NOT)),
    ir.Arithmetic: arithmetic,
    ir.Compare: compare,
    ir.BoolOp: bool_op,
    ir.Conditional: conditional,
    # listings
    ir.EmptyList: lambda n: ("[]", ATOM),
    ir.Arguments: lambda n: ("(" + "".join(f"{expression(item, OR)}, " for item in n.items) + ")", ATOM),
    ir.SingleMoves: lambda n: (f"[(v,) for v in {expression(n.values, OR)}]", ATOM),
    ir.LabelSet: lambda n: (f"{{{n.column}[v] for v in {expression(n.values, OR)}}}", ATOM),
    ir.ChargedDomain: lambda n: (
        f"charged(STEP, {expression(n.domain)}, {expression(n.per_value, ATOM)}, {n.where})", ATOM),
    ir.TopOfZone: lambda n: (f"({expression(n.zone, ATOM)}[-1] if {expression(n.zone, OR)} else None)", ATOM),
    ir.Results: lambda n: (", ".join(expression(item, OR) for item in n.items), LOWEST),
    ir.Cached: lambda n: (f"({n.name} if {n.name} is not UNSET else ({n.name} := {expression(n.value)}))", ATOM),
    ir.HostTest: lambda n: (expression(n.source), LOWEST),
    ir.ByAction: lambda n: ("{" + ", ".join(f"{expression(k)}: {expression(v)}" for k, v in zip(n.keys, n.values))
                            + "}", ATOM),
}


# ---- expressions of the rules (codegen.py) ----

def row_key(node: ir.RowKey) -> tuple[str, int]:
    if not node.items:
        return "()", ATOM
    return f"({', '.join(expression(i) for i in node.items)},)", ATOM


def comprehension(node: ir.Comprehension) -> tuple[str, int]:
    element, iterable = expression(node.element), expression(node.iterable)
    measured = element if node.measure is None else expression(node.measure)
    space = gap if node.spread else (lambda before, after: " ")
    text = f"{element}{space(measured, iterable)}for {', '.join(node.targets)} in {iterable}"
    if node.condition is not None:
        condition = expression(node.condition)
        text += f"{space(iterable, condition)}if {condition}"
    return (text, LOWEST) if node.generator else (f"[{text}]", ATOM)


def ranked(node: ir.Ranked) -> tuple[str, int]:
    domain, var = expression(node.domain), node.target
    condition = ""
    if node.condition is not None:
        where = expression(node.condition)
        condition = f"{gap(domain, where)}if {where}"
    if node.ties:       # the first key for every item, the others (a lambda) for tied ones only
        first_key = expression(node.keys[0])
        first = f"[({first_key}, {var}){gap(first_key, domain)}for {var} in {domain}{condition}]"
        tie = f"lambda {var}: ({joined([expression(k) for k in node.ties], ', ')}, )"
        return f"ranked_ties({node.kind!r}, {first},{gap(first, tie)}{tie})", ATOM
    keys = "".join(f"{expression(k)}, " for k in node.keys)
    return f"ranked({node.kind!r}, [(({keys}), {var}){gap(keys, domain)}for {var} in {domain}{condition}])", ATOM


def grouped(node: ir.Grouped) -> tuple[str, int]:
    text, binds = EXPRESSIONS[type(node.value)](node.value)
    if node.over_lines and "\n" not in text:
        return text, binds
    return f"({text})", ATOM


def first_use(node: ir.FirstUse) -> tuple[str, int]:
    t = node.target
    return f"({t} if {t} is not UNSET else ({t} := {expression(node.value)}))", ATOM


EXPRESSIONS.update({
    ir.Grouped: grouped,
    ir.Named: lambda n: (f"({n.target} := {expression(n.value)})", ATOM),
    ir.FirstUse: first_use,
    ir.Negative: lambda n: (f"-{expression(n.operand, ATOM)}", PRODUCT),
    ir.RowKey: row_key,
    ir.Comprehension: comprehension,
    ir.Ranked: ranked,
    ir.Lambda: lambda n: (f"lambda {', '.join(n.params)}: {expression(n.body)}", LOWEST),
    ir.Apply: lambda n: (f"{expression(n.function, ATOM)}({arguments(n.args)})", ATOM),
    ir.Keyword: lambda n: (f"{n.name}={expression(n.value)}", LOWEST),
    ir.ReadZone: lambda n: (f"_Z.get({expression(n.key)}{', EMPTY' if n.empty else ''})", ATOM),
    ir.ReadAttribute: lambda n: (f"_E[{expression(n.entity)}].get({n.name!r})", ATOM),
    ir.ReadColumn: lambda n: (f"{n.column}[{expression(n.entity)}]", ATOM),
    ir.ComponentsOf: lambda n: (f"s.by_type.get({n.type_name!r}, EMPTY)", ATOM),
    ir.Entities: lambda n: ("_E", ATOM),
})


def augmented(target: ir.Expression, value: ir.Expression) -> str | None:
    """`+= right` when a value is the target itself plus (or minus) something, else None."""
    if isinstance(value, ir.Arithmetic) and value.op in ("+", "-") and value.left == target:
        return f"{value.op}= {expression(value.right)}"
    return None


class Writer:
    """Statements -> indented lines with their spans."""

    def __init__(self, by_rule: bool = False, comments: bool = True) -> None:
        self.with_comments = comments
        self.lines: list[str] = []
        self.spans: list[Span | None] = []
        self.commented: tuple[str, int] | None = None    # the rules line the last comment named
        self.by_rule = by_rule
        self.level = 0                          # statements being written, one inside another
        self.too_long: set[int] = set()         # the levels that wrote a line over LONGEST
        # each statement's layout once chosen (by node and indent): written again inside an
        # outer statement written wider, it is not tried again (tries nested would multiply)
        self.chosen: dict[tuple[int, int], int] = {}

    def add(self, indent: int, text: str, span: Span | None) -> None:
        # (a long expression continues in its brackets over lines: each a line of the same span)
        for piece in (INDENT * indent + text).split("\n"):
            self.lines.append(piece)
            self.spans.append(span)
            if len(piece) > LONGEST:
                self.too_long.add(self.level)

    def comment(self, indent: int, span: Span | None, always: bool = False) -> None:
        if not self.with_comments or (self.by_rule and not always):
            return
        if span is not None and span.line and (always or (span.file, span.line) != self.commented):
            self.commented = (span.file, span.line)
            self.add(indent, where(span), span)

    def block(self, statements: tuple[ir.Statement, ...], indent: int) -> None:
        if not statements:
            self.add(indent, "pass", None)
        for statement in statements:
            self.comment(indent, statement.span)
            self.statement(statement, indent)

    def statement(self, node: ir.Statement, indent: int) -> None:
        """A statement's lines; written wider (Layout, each of NARROWER in turn) while a line
        of its own (not of a block inside it) is longer than LONGEST, else as at first."""
        start, commented, outer = len(self.lines), self.commented, attrs.astuple(LAYOUT)
        self.level += 1
        try:
            chosen = self.chosen.get((id(node), indent))
            LAYOUT.spread = SPREAD if chosen is None else chosen
            LAYOUT.wide = LAYOUT.spread != SPREAD
            STATEMENTS[type(node)](self, node, indent)
            for spread in NARROWER + (SPREAD,) if chosen is None else ():   # (none short enough: as it was)
                if self.level not in self.too_long:
                    break
                self.too_long.discard(self.level)
                del self.lines[start:], self.spans[start:]
                self.commented = commented
                LAYOUT.spread, LAYOUT.wide = spread, spread != SPREAD
                STATEMENTS[type(node)](self, node, indent)
            self.chosen[(id(node), indent)] = LAYOUT.spread
        finally:
            self.too_long.discard(self.level)
            self.level -= 1
            LAYOUT.spread, LAYOUT.wide = outer

    def header(self, indent: int, text: str, node: ir.Statement, body: tuple[ir.Statement, ...]) -> None:
        self.add(indent, text, node.span)
        self.block(body, indent + 1)

    def if_(self, node: ir.If, indent: int, keyword: str = "if") -> None:
        self.header(indent, f"{keyword} {expression(node.test)}:", node, node.body)
        if len(node.orelse) == 1 and isinstance(node.orelse[0], ir.If):
            self.if_(node.orelse[0], indent, "elif")
        elif node.orelse:
            self.header(indent, "else:", node, node.orelse)

    def try_(self, node: ir.Try, indent: int) -> None:
        self.header(indent, "try:", node, node.body)
        self.header(indent, f"except {node.exception}:", node, node.handler)

    def charge_work(self, node: ir.ChargeWork, indent: int) -> None:
        self.add(indent, f"STEP[1] -= {expression(node.units)}", node.span)
        self.add(indent, f"if STEP[1] < 0: work_runs_on({node.where})", node.span)

    def short_if(self, node: ir.ShortIf, indent: int) -> None:
        """`if test: a; b` on one line: its body written alone, then joined."""
        inner = Writer(comments=False)
        inner.block(node.body, 0)
        self.add(indent, f"if {expression(node.test)}: {'; '.join(inner.lines)}", node.span)

    def assign(self, target: str, node: ir.Statement, target_node: ir.Expression, value: ir.Expression,
               indent: int) -> None:
        shorter = augmented(target_node, value)
        self.add(indent, f"{target} {shorter}" if shorter else f"{target} = {expression(value)}", node.span)


STATEMENTS: dict[type, Callable] = {
    ir.Assign: lambda w, n, i: w.assign(n.target, n, ir.Local(n.target), n.value, i),
    ir.Unpack: lambda w, n, i: w.add(i, f"{', '.join(n.targets)} = {expression(n.value)}", n.span),
    ir.WriteState: lambda w, n, i: w.assign(f"s.{n.field}", n, ir.ReadState(n.field), n.value, i),
    ir.WriteEnv: lambda w, n, i: w.add(i, f"e[{n.key!r}] = {expression(n.value)}", n.span),
    ir.DeleteEnv: lambda w, n, i: w.add(i, f"del e[{n.key!r}]", n.span),
    ir.CountCoverage: lambda w, n, i: w.add(i, f"COV[{n.counter}] += 1", n.span),
    ir.ExpressionStatement: lambda w, n, i: w.add(i, expression(n.value), n.span),
    ir.If: Writer.if_,
    ir.While: lambda w, n, i: w.header(i, f"while {expression(n.test)}:", n, n.body),
    ir.ForRange: lambda w, n, i: w.header(
        i, f"for {n.name} in range({expression(n.start)}, {expression(n.stop)}):", n, n.body),
    ir.ForEach: lambda w, n, i: w.header(i, f"for {n.name} in {expression(n.sequence)}:", n, n.body),
    ir.Return: lambda w, n, i: w.add(i, "return" if n.value is None else f"return {expression(n.value)}", n.span),
    ir.Yield: lambda w, n, i: w.add(
        i, f"{n.target} = yield {expression(n.value)}" if n.target else f"yield {expression(n.value)}", n.span),
    ir.Break: lambda w, n, i: w.add(i, "break", n.span),
    ir.Continue: lambda w, n, i: w.add(i, "continue", n.span),
    ir.Try: Writer.try_,
    # listings
    ir.Append: lambda w, n, i: w.add(i, f"{n.collection}.append({expression(n.value)})", n.span),
    ir.AddToSet: lambda w, n, i: w.add(i, f"{n.collection}.add({expression(n.value)})", n.span),
    ir.ChargeWork: Writer.charge_work,
    ir.ShortIf: Writer.short_if,
}


# ---- statements of the rules ----------------------------------------------------------------

def inline(statement: ir.Statement) -> str:
    """A simple statement's source on one line (a Guard's action)."""
    writer = Writer(by_rule=True)
    outer = attrs.astuple(LAYOUT)
    LAYOUT.spread, LAYOUT.wide = SPREAD, False      # (one line, however long)
    try:
        STATEMENTS[type(statement)](writer, statement, 0)
    finally:
        LAYOUT.spread, LAYOUT.wide = outer
    if len(writer.lines) != 1:
        raise ValueError("a guard's action is one simple statement")
    return writer.lines[0]


def guard(writer: Writer, node: ir.Guard, indent: int, keyword: str = "if") -> None:
    actions = "; ".join(inline(statement) for statement in node.then)
    writer.add(indent, f"{keyword} {expression(node.test)}: {actions}", node.span)
    only = node.orelse[0] if len(node.orelse) == 1 else None
    if isinstance(only, ir.Guard):
        guard(writer, only, indent, "elif")
    elif isinstance(only, ir.If):
        writer.if_(only, indent, "elif")
    elif node.orelse:
        writer.header(indent, "else:", node, node.orelse)


def unless(writer: Writer, node: ir.Unless, indent: int) -> None:
    """On the test's line when short; else the action under it (a long reason over lines)."""
    test, alone = expression(node.test), Writer(by_rule=True)
    alone.block(node.then, 0)
    actions = "\n".join(alone.lines)
    if len(test) + len(actions) > SPREAD or len(alone.lines) != len(node.then):
        writer.add(indent, f"if not ({test}):", node.span)
        writer.block(node.then, indent + 1)
    else:
        writer.add(indent, f"if not ({test}): {'; '.join(alone.lines)}", node.span)


def rule(writer: Writer, node: ir.Rule, indent: int) -> None:
    writer.comment(indent, node.span, always=True)
    writer.block(node.body, indent)


def rounds(writer: Writer, node: ir.Rounds, indent: int) -> None:
    writer.header(indent, f"for {node.name} in range({expression(node.count)}):", node, node.body)
    if node.exhausted:
        writer.header(indent, "else:", node, node.exhausted)


def yield_from(writer: Writer, node: ir.YieldFrom, indent: int) -> None:
    source = f"yield from {expression(node.value)}"
    writer.add(indent, f"{node.target} = {source}" if node.target else source, node.span)


def key(node: ir.Key) -> tuple[str, int]:
    if not node.indexes:
        return repr(node.family), ATOM
    return f"({node.family!r}, {''.join(expression(i) + ', ' for i in node.indexes)[:-1]})", ATOM


def joined_text(node: ir.JoinedText) -> tuple[str, int]:
    """Each piece in brackets unless it is one term; many pieces (over 16) joined by a call:
    a long sum is too deep for Python's compiler."""
    pieces = [expression(piece, ATOM) for piece in node.pieces]
    if not pieces:
        return repr(""), ATOM
    if len(pieces) > 16:
        return f"''.join(({', '.join(pieces)},))", ATOM
    text = " + ".join(pieces)
    if LAYOUT.wide and len(pieces) > 1 and len(text) > spread_past():     # (in brackets, to go over lines)
        return "(" + joined(pieces, " + ") + ")", ATOM
    return text, SUM if len(pieces) > 1 else ATOM


def argument_text(node: ir.ArgumentText) -> tuple[str, int]:
    if node.bound:
        value, tested = node.bound, f"({node.bound} := {expression(node.value)})"
    else:
        value = tested = expression(node.value, ATOM)
    text = {"seat": f'"P" + str({value})', "label": f'_E[{value}]["__label__"]', "name": value}[node.of]
    return f'{text} if {tested} is not None else "none"', LOWEST


def loops(node: ir.Loops) -> tuple[str, int]:
    """On one line; in a statement written wide, each `for` and `if` on a line of its own
    when they are long together."""
    parts = [expression(node.element)]
    for clause in node.clauses:
        parts.append(f"for {clause.target} in {expression(clause.iterable)}")
        parts += [f"if {expression(test)}" for test in clause.tests]
    text = " ".join(parts)
    if LAYOUT.wide and len(text) > spread_past():
        text = CONTINUED.join(parts)
    return ("{" + text + "}" if node.braces else f"[{text}]"), ATOM


def short_loop(writer: Writer, node: ir.ShortLoop, indent: int) -> None:
    inner = Writer(comments=False)
    inner.block(node.body, 0)
    remark = f"     # ({node.remark})" if node.remark else ""
    writer.add(indent, f"for {node.target} in {expression(node.iterable)}: {'; '.join(inner.lines)}{remark}", node.span)


RULE_EXPRESSIONS: dict[type, Callable] = {
    ir.Key: key,
    ir.ReadVar: lambda n: (f"_V.get({expression(n.key)}, {expression(n.default)})", ATOM),
    ir.Budget: lambda n: (f"STEP[{n.budget}]", ATOM),
    ir.Between: lambda n: (" <= ".join(expression(x, COMPARISON + 1) for x in (n.low, n.value, n.high)), COMPARISON),
    ir.Method: lambda n: (f"{expression(n.value, ATOM)}.{n.name}({arguments(n.args)})", ATOM),
    ir.CacheKey: lambda n: (expression(n.values[0]) if len(n.values) == 1
                            else f"({''.join(expression(v, OR) + ', ' for v in n.values)})", ATOM),
    ir.NewList: lambda n: (f"[{arguments(n.items, n.spread)}]", ATOM),
    ir.NewDict: lambda n: ("{" + separated([f"{expression(k)}: {expression(v)}" for k, v in zip(n.keys, n.values)], ", ",
                                           n.spread) + "}", ATOM),
    ir.JoinedText: joined_text,
    ir.ArgumentText: argument_text,
    ir.Loops: loops,
}
RULE_STATEMENTS: dict[type, Callable] = {
    ir.Rule: rule,
    ir.Guard: guard,
    ir.Unless: unless,
    ir.ShortLoop: short_loop,
    ir.Rounds: rounds,
    ir.Raise: lambda w, n, i: w.add(i, f"raise {expression(n.value)}", n.span),
    ir.YieldFrom: yield_from,
    ir.WriteVar: lambda w, n, i: w.add(i, f"_V[{expression(n.key)}] = {expression(n.value)}", n.span),
    ir.Spend: lambda w, n, i: w.add(i, f"STEP[{n.budget}] -= {expression(n.units)}", n.span),
    ir.Invalidate: lambda w, n, i: w.add(i, f"MEMO_STAMPS[{n.stamp}] += 1", n.span),
    ir.AppendLog: lambda w, n, i: w.add(i, f"s.log.append({expression(n.value)})", n.span),
    ir.SetItem: lambda w, n, i: w.add(
        i, f"{expression(n.table, ATOM)}[{expression(n.key)}] = {expression(n.value)}", n.span),
    ir.Remark: lambda w, n, i: w.add(i, f"# {n.text}", n.span),
}
EXPRESSIONS.update(RULE_EXPRESSIONS)
STATEMENTS.update(RULE_STATEMENTS)
