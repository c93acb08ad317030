"""The second renderer: IR (ir.py) -> the source of a Numba function over the state as arrays
(native/layout.py): the flow's fields are `flow[k]`, the environment's scalar entries
`env[k]` with `env_has[k]`, coverage counters `cov[k]`. It renders the expression and statement
nodes whose meaning fits typed arrays; what does not (a decision, the state as a Python
object, none, texts, exceptions) it refuses with NotNative, which names the node and its rules
line: `refusals(function)` lists them all (`unsupported`: their notes, the note a fallback gives).
"""
from __future__ import annotations

from collections.abc import Callable

import attrs

from referee.dsl.ast import Span

from . import ir
from . import render_native_writes as writes
from . import render_native_zones as zones
from .render_native_places import NotNative, Places, VarPlace
from .render_python import (AND, ARITHMETIC, ATOM, COMPARISON, INDENT, LOWEST, NOT, OR, Rendered, augmented,
                            where)

# the state's fields in the array "flow", in this order (native/layout.py stores them so)
FLOW_FIELDS = ("pc", "current", "turn", "extra", "terminal")
__all__ = ["FLOW_FIELDS", "INT64", "NotNative", "Places", "Refusal", "VarPlace", "refusals", "render_all",
           "render_native", "source", "state_arrays", "unsupported", "variables_used"]
BOOL_FIELDS = frozenset({"extra", "terminal"})       # stored 0/1, read as truth values
STATE_ARRAYS = ("flow", "env", "env_has", "loops", "loop_values", "cov")     # a native function's first parameters
INT64 = (-2**63, 2**63 - 1)
# the builtins a native function may call as they are (Numba has them, with Python's meaning)
NATIVE_BUILTINS = frozenset({"len", "abs", "min", "max", "range"})
COMPARISONS = frozenset({"==", "!=", "<", "<=", ">", ">=", "in", "not in"})


class NativeRenderer:
    def __init__(self, places: Places, flow_env: bool = True) -> None:
        self.places = places
        self.flow_env = flow_env        # whether `e` is the flow's environment (not a parameter)
        self.lines: list[str] = []
        self.spans: list[Span | None] = []
        self.commented: tuple[str, int] | None = None
        self.loops = 0
        self.unpacked: dict[str, str] = {}     # a local -> the loop entry whose values it holds
        self.keys: dict[str, ir.Key] = {}      # a local -> the key of a variable's entry it names
        # lines an expression needs run before the statement that holds it (an aggregate's loop),
        # each (indent relative to that statement, text)
        self.pending: list[tuple[int, str]] = []
        self.temps = 0
        self.uses: set[str] = set()     # the state arrays the writes need besides the reads' (its header's)
        self.none_codes: dict[str, int] = {}     # a local -> the code of none in what it holds, when known
        self.named_values: dict[str, str] = {}   # a local named by `:=` in this statement -> its value's text

    # ---- expressions ----------------------------------------------------------------------
    def expression(self, node: ir.Expression, needs: int = LOWEST) -> str:
        method = EXPRESSIONS.get(type(node))
        if method is None:
            raise NotNative(node, "not rendered natively")
        text, binds = method(self, node)
        return f"({text})" if binds < needs else text

    def constant(self, node: ir.Constant) -> tuple[str, int]:
        value = node.value
        if value is None or isinstance(value, str):
            raise NotNative(node, f"{'none' if value is None else 'a text'} has no native value")
        if not isinstance(value, bool) and not INT64[0] <= value <= INT64[1]:
            raise NotNative(node, f"{value} does not fit an int64")
        return repr(value), ATOM

    def flow_index(self, node: ir.Node, field: str) -> int:
        if field not in FLOW_FIELDS:
            raise NotNative(node, f"the state's {field} has no array")
        return FLOW_FIELDS.index(field)

    def read_state(self, node: ir.ReadState) -> tuple[str, int]:
        if node.field == "env":
            return "env", ATOM           # (e = s.env: the environment is its arrays)
        k = self.flow_index(node, node.field)
        return (f"flow[{k}] != 0", COMPARISON) if node.field in BOOL_FIELDS else (f"flow[{k}]", ATOM)

    def flow_environment(self, node: ir.Node) -> None:
        if not self.flow_env:
            raise NotNative(node, "an environment passed in as a parameter, not the flow's: no arrays")

    def has_env(self, node: ir.HasEnv) -> tuple[str, int]:
        self.flow_environment(node)
        row = self.places.loops.get(node.key)
        if row is not None:
            return f"loops[{row}, 0] != 0", COMPARISON
        return f"env_has[{self.env_slot(node, node.key)}]", ATOM

    def read_env(self, node: ir.ReadEnv) -> tuple[str, int]:
        self.flow_environment(node)
        if node.key in self.places.loops:
            raise NotNative(node, f"the loop entry {node.key!r} is read by unpacking it")
        return f"env[{self.env_slot(node, node.key)}]", ATOM

    def env_slot(self, node: ir.Node, key: str) -> int:
        self.flow_environment(node)
        slot = self.places.env.get(key)
        if slot is None:
            raise NotNative(node, f"the flow's entry {key!r} is not a scalar of the layout")
        return slot

    def call(self, node: ir.Call) -> tuple[str, int]:
        if node.function in writes.ERRORS:
            return writes.error_site(self, node)
        if node.function == "charged":
            return writes.charged(self, node)
        if node.function in self.places.signatures:
            return writes.generated_call(self, node)
        if node.function not in NATIVE_BUILTINS and node.function not in self.places.calls:
            raise NotNative(node, f"the runtime's {node.function} has no native version")
        return f"{node.function}({', '.join(self.expression(a) for a in node.args)})", ATOM

    def global_(self, node: ir.Global) -> tuple[str, int]:
        if node.name in self.places.constants:
            return repr(self.places.constants[node.name]), ATOM
        if node.name not in self.places.calls:
            raise NotNative(node, f"the module's {node.name} is not bound natively")
        return node.name, ATOM

    def var_place(self, node: ir.Node, key: ir.Expression) -> tuple[str, VarPlace]:
        """The array element of a variable's entry (`key` a Key, or a local bound to one), and
        its family's place."""
        if isinstance(key, ir.Local) and key.name in self.keys:
            key = self.keys[key.name]
        if not isinstance(key, ir.Key):
            raise NotNative(node, "a variable's entry named by a key made elsewhere")
        place = self.places.vars.get(key.family)
        if place is None:
            raise NotNative(node, f"the variable {key.family} has no array (its layout says why)")
        positions = self.positions(key, place)
        return f"var_{key.family}[{', '.join(positions) if positions else '()'}]", place

    def positions(self, key: ir.Key, place: VarPlace) -> list[str]:
        """Each index of a key as its position in the family's array."""
        positions = []
        for index, offset, members in zip(key.indexes, place.offsets, place.axis_members):
            if isinstance(index, ir.Constant) and members is not None and index.value in members:
                positions.append(str(members.index(index.value)))
            else:
                text = self.expression(index, ARITHMETIC["-"] + 1 if offset else LOWEST)
                positions.append(f"{text} - {offset}" if offset else text)
        return positions

    def read_var(self, node: ir.ReadVar) -> tuple[str, int]:
        return self.var_place(node, node.key)[0], ATOM        # (the array holds the default)

    def none_code(self, node: ir.Expression) -> int | None:
        """The code of none in what an expression gives, when its storage says it: a variable's
        entry, a column, a zone's top (a component: -1), a local that holds one of those."""
        if isinstance(node, (ir.Grouped, ir.Named)):
            return self.none_code(node.value)
        if isinstance(node, ir.Local):
            return self.none_codes.get(node.name)
        if isinstance(node, ir.ReadVar):
            return self.var_place(node, node.key)[1].none
        if isinstance(node, ir.ReadColumn):
            return self.column(node)[1].none
        if isinstance(node, ir.TopOfZone):
            return -1
        if isinstance(node, ir.Conditional):
            codes = {self.none_code(node.then), self.none_code(node.orelse)} - {None}
            return codes.pop() if len(codes) == 1 else None
        return None

    def typed_none(self, node: ir.Compare) -> tuple[str, int] | None:
        """`x is none` where x's storage says how none is coded: that code compared."""
        op = {"is": "==", "is not": "!=", "==": "==", "!=": "!="}.get(node.op)
        for tested, other in ((node.left, node.right), (node.right, node.left)):
            if op and other == ir.Constant(None) and not isinstance(tested, ir.Constant):
                code = self.none_code(tested)
                if code is not None:
                    return f"{self.expression(tested, COMPARISON + 1)} {op} {code}", COMPARISON
        return None

    def coded(self, node: ir.Compare) -> tuple[str, int] | None:
        """A comparison of a variable's entry with none or a member: their codes compared."""
        pairs = ((node.left, node.right), (node.right, node.left))
        for read, other in pairs:
            if (isinstance(read, (ir.ReadVar, ir.ReadColumn, ir.TopOfZone)) and isinstance(other, ir.Constant)
                    and (other.value is None or isinstance(other.value, str))):
                if isinstance(read, ir.ReadVar):
                    element, place = self.var_place(node, read.key)
                elif isinstance(read, ir.ReadColumn):
                    element, place = self.column(read)
                else:           # (a component's id, none: -1)
                    element, place = self.expression(read, COMPARISON + 1), VarPlace()
                op = {"is": "==", "is not": "!="}.get(node.op, node.op)
                if op not in ("==", "!="):
                    raise NotNative(node, f"'{node.op}' of a variable and {other.value!r}")
                return f"{element} {op} {place.encode(node, other.value)}", COMPARISON
        return None

    def compare(self, node: ir.Compare) -> tuple[str, int]:
        coded = self.coded(node) or self.typed_none(node)
        if coded is not None:
            return coded
        if node.op not in COMPARISONS:
            raise NotNative(node, f"'{node.op}' compares with none")
        return (f"{self.expression(node.left, COMPARISON + 1)} {node.op} "
                f"{self.expression(node.right, COMPARISON + 1)}"), COMPARISON

    def arithmetic(self, node: ir.Arithmetic) -> tuple[str, int]:
        binds = ARITHMETIC[node.op]
        return f"{self.expression(node.left, binds)} {node.op} {self.expression(node.right, binds + 1)}", binds

    def bool_op(self, node: ir.BoolOp) -> tuple[str, int]:
        binds = OR if node.op == "or" else AND
        return f" {node.op} ".join(self.truth(o, binds + 1) for o in node.operands), binds

    def not_(self, node: ir.Not) -> tuple[str, int]:
        return f"not {self.truth(node.operand, NOT)}", NOT

    def truth(self, node: ir.Expression, binds: int = LOWEST) -> str:
        """An expression read for its truth: a zone is true when it holds something (its array
        view has no truth in Numba, its length has)."""
        inner = node.value if isinstance(node, ir.Grouped) else node
        if isinstance(inner, ir.ReadZone):
            items = self.expression(inner, ATOM)
            text = f"len({items}) > 0"
            return f"({text})" if binds > COMPARISON else text
        return self.expression(node, binds)

    def tuple_(self, node: ir.Tuple) -> tuple[str, int]:
        items = [self.expression(item, OR) for item in node.items]
        return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})", ATOM

    def named(self, node: ir.Named) -> tuple[str, int]:
        """`(target := value)`: Numba has no `:=`, and computing the value before the statement
        could index an array by a value the test has not checked yet: the value is written in
        place, and again where the statement reads the local (it only reads the state; one that
        may stop the rules is refused). The local keeps the value's code of none too."""
        if any(isinstance(inner, ir.Call) and (inner.function in writes.ERRORS or inner.function in
                                               self.places.signatures) for inner in ir.walk(node.value)):
            raise NotNative(node, "a value named inside a test that may stop the rules")
        code = self.none_code(node.value)
        pending = len(self.pending)
        text = self.expression(node.value)
        if len(self.pending) != pending:
            raise NotNative(node, "a value named that needs lines before its statement")
        self.named_values[node.target] = text
        if code is not None:
            self.none_codes[node.target] = code
        else:
            self.none_codes.pop(node.target, None)
        return f"({text})", ATOM

    def local(self, node: ir.Local) -> tuple[str, int]:
        named = self.named_values.get(node.name)
        return (f"({named})", ATOM) if named is not None else (node.name, ATOM)

    def conditional(self, node: ir.Conditional) -> tuple[str, int]:
        code = self.none_code(node)
        if code is not None:       # (none in one branch: the other's code of none)
            then, orelse = (ir.Constant(code) if branch == ir.Constant(None) else branch
                            for branch in (node.then, node.orelse))
            node = attrs.evolve(node, then=then, orelse=orelse)
        return " ".join((self.expression(node.then, OR), "if", self.expression(node.test, OR), "else",
                         self.expression(node.orelse))), LOWEST

    # ---- statements -----------------------------------------------------------------------
    def add(self, indent: int, text: str, span: Span | None) -> None:
        pending, self.pending = self.pending, []
        for inner, line in pending:         # (what the expressions in `text` need computed first)
            self.lines.append(INDENT * (indent + inner) + line)
            self.spans.append(span)
        self.lines.append(INDENT * indent + text)
        self.spans.append(span)

    def block(self, statements: tuple[ir.Statement, ...], indent: int) -> None:
        if not statements:
            self.add(indent, "pass", None)
        for statement in statements:
            span = statement.span
            if span is not None and span.line and (span.file, span.line) != self.commented:
                self.commented = (span.file, span.line)
                self.add(indent, where(span), span)
            method = STATEMENTS.get(type(statement))
            if method is None:
                raise NotNative(statement, "not rendered natively")
            method(self, statement, indent)
            self.named_values.clear()           # (a `:=` name lives in its statement)

    def header(self, indent: int, text: str, node: ir.Statement, body: tuple[ir.Statement, ...]) -> None:
        self.add(indent, text, node.span)
        self.block(body, indent + 1)

    def loop(self, indent: int, text: str, node: ir.Statement, body: tuple[ir.Statement, ...]) -> None:
        self.loops += 1
        self.header(indent, text, node, body)
        self.loops -= 1

    def if_(self, node: ir.If, indent: int, keyword: str = "if") -> None:
        self.header(indent, f"{keyword} {self.truth(node.test)}:", node, node.body)
        if len(node.orelse) == 1 and isinstance(node.orelse[0], ir.If) and not looped(node.orelse[0].test):
            self.if_(node.orelse[0], indent, "elif")
        elif node.orelse:
            self.header(indent, "else:", node, node.orelse)

    def assign(self, target: str, node: ir.Statement, target_node: ir.Expression, value: ir.Expression,
               indent: int) -> None:
        self.unpacked.pop(target, None)
        self.keys.pop(target, None)
        self.none_codes.pop(target, None)
        table = TABLES.get(value)
        if isinstance(value, ir.Item) and value.sequence == ir.ReadState("columns"):
            table = "a component column: an attr_ array"
        if table is not None:       # (_V = s.vars...: the state's tables are arrays, parameters)
            self.add(indent, f"pass  # ({target}: {table})", node.span)
            return
        if isinstance(value, ir.Key):           # (a key named once, read and written: an element)
            if value.family not in self.places.zones:
                self.var_place(node, value)
            self.keys[target] = value
            self.add(indent, f"pass  # ({target}: {value.family}'s entry)", node.span)
            return
        code = self.none_code(value)
        if code is not None and isinstance(target_node, ir.Local):
            self.none_codes[target] = code
        shorter = augmented(target_node, value)
        if shorter is not None:      # (its right side rendered natively, not by render_python)
            assert isinstance(value, ir.Arithmetic)
            shorter = f"{value.op}= {self.expression(value.right)}"
        self.add(indent, f"{target} {shorter}" if shorter else f"{target} = {self.expression(value)}", node.span)

    def write_var(self, node: ir.WriteVar, indent: int) -> None:
        element, place = self.var_place(node, node.key)
        value = node.value
        if isinstance(value, ir.Constant) and (value.value is None or isinstance(value.value, str)):
            self.add(indent, f"{element} = {place.encode(node, value.value)}", node.span)
        else:
            self.add(indent, f"{element} = {self.expression(value)}", node.span)

    def while_(self, node: ir.While, indent: int) -> None:
        if not looped(node.test):
            self.loop(indent, f"while {self.expression(node.test)}:", node, node.body)
            return
        # a test that needs lines first: computed again before each round
        self.loops += 1
        self.add(indent, "while True:", node.span)
        self.add(indent + 1, f"if not ({self.expression(node.test)}):", node.span)
        self.add(indent + 2, "break", node.span)
        self.block(node.body, indent + 1)
        self.loops -= 1

    def rounds(self, node: ir.Rounds, indent: int) -> None:
        self.loop(indent, f"for {node.name} in range({self.expression(node.count)}):", node, node.body)
        if node.exhausted:
            self.header(indent, "else:", node, node.exhausted)

    def guard(self, node: ir.Guard, indent: int) -> None:
        self.if_(ir.If(node.test, node.then, node.orelse, node.span), indent)

    def unless(self, node: ir.Unless, indent: int) -> None:
        self.if_(ir.If(ir.Not(ir.Grouped(node.test)), node.then, (), node.span), indent)

    def rule(self, node: ir.Rule, indent: int) -> None:
        self.block(node.body, indent)

    def write_state(self, node: ir.WriteState, indent: int) -> None:
        if node.field == "_legal" and node.value == ir.Constant(None):
            self.add(indent, "pass  # (the listing cached in a Python state: none natively)", node.span)
            return
        k = self.flow_index(node, node.field)
        self.assign(f"flow[{k}]", node, ir.ReadState(node.field), node.value, indent)

    def unpack(self, node: ir.Unpack, indent: int) -> None:
        value = node.value
        for target in node.targets:
            self.unpacked.pop(target, None)
        if isinstance(value, ir.ReadEnv) and value.key in self.places.loops and len(node.targets) == 2:
            self.flow_environment(value)
            row = self.places.loops[value.key]
            self.add(indent, f"{', '.join(node.targets)} = loop_values[{row}, :loops[{row}, 1]], loops[{row}, 2]",
                     node.span)
            self.unpacked[node.targets[0]] = value.key
            return
        self.add(indent, f"{', '.join(node.targets)} = {self.expression(value)}", node.span)

    def write_loop(self, node: ir.WriteEnv, row: int, indent: int) -> None:
        """A loop's entry gets (its values, the next position): the position alone when the
        values are those unpacked from it."""
        if not (isinstance(node.value, ir.Tuple) and len(node.value.items) == 2):
            raise NotNative(node, f"the loop entry {node.key!r} gets other than (values, position)")
        values, position = node.value.items
        if not (isinstance(values, ir.Local) and self.unpacked.get(values.name) == node.key):
            held = f"_values_{row}"
            self.add(indent, f"{held} = {self.expression(values)}", node.span)
            self.add(indent, f"loop_values[{row}, :len({held})] = {held}", node.span)
            self.add(indent, f"loops[{row}, 0], loops[{row}, 1] = 1, len({held})", node.span)
        self.add(indent, f"loops[{row}, 2] = {self.expression(position)}", node.span)

    def delete_env(self, node: ir.DeleteEnv, indent: int) -> None:
        self.flow_environment(node)
        row = self.places.loops.get(node.key)
        gone = f"loops[{row}, 0] = 0" if row is not None else f"env_has[{self.env_slot(node, node.key)}] = False"
        self.add(indent, gone, node.span)

    def write_env(self, node: ir.WriteEnv, indent: int) -> None:
        self.flow_environment(node)
        row = self.places.loops.get(node.key)
        if row is not None:
            self.write_loop(node, row, indent)
            return
        slot = self.env_slot(node, node.key)
        self.add(indent, f"env[{slot}] = {self.expression(node.value)}", node.span)
        self.add(indent, f"env_has[{slot}] = True", node.span)

    def jump(self, node: ir.Statement, indent: int, word: str) -> None:
        if not self.loops:
            raise NotNative(node, f"{word} outside a loop")
        self.add(indent, word, node.span)

    # ---- the zones and the components' attributes (render_native_zones.py) ---------------------
    def column(self, node: ir.ReadColumn) -> tuple[str, VarPlace]:
        found = self.places.columns.get(node.column)
        if found is None:
            raise NotNative(node, f"the column {node.column} has no array (an attribute of cells, or boxed)")
        return f"attr_{found[0]}[{self.expression(node.entity)}]", found[1]

    def refuse(self, node: ir.Statement, indent: int) -> None:
        raise NotNative(node, REFUSED.get(type(node), "not rendered natively"))


# why a node is refused, by its class
REFUSED: dict[type, str] = {
    ir.Yield: "a decision: the kernel's loop makes it, not a generator",
    ir.YieldFrom: "a step inside a step: its decisions are a generator's",
    ir.Raise: "a located error raised: not natively yet",
    ir.TheState: "the state as a Python object",
    ir.Field: "a field of a Python value",
    ir.Key: "a key of a variable or zone as a value",
    ir.AppendLog: "the log is text", ir.Method: "a method of a Python value",
    ir.CacheKey: "cached values: none natively", ir.SetItem: "a table of cached values",
    ir.NewList: "a list of no fixed size",
    ir.Loops: "a cached function's index: a table of Python values", ir.ShortLoop: "a cached filter: Python lists",
}


def refuse_expression(renderer: NativeRenderer, node: ir.Expression) -> tuple[str, int]:
    if isinstance(node, ir.StateCall):
        raise NotNative(node, f"the state's Python operation {node.operation}")
    raise NotNative(node, REFUSED.get(type(node), "not rendered natively"))


EXPRESSIONS: dict[type, Callable[[NativeRenderer, ir.Expression], tuple[str, int]]] = {
    ir.Constant: NativeRenderer.constant,                          # type: ignore[dict-item]
    ir.Local: NativeRenderer.local,                                # type: ignore[dict-item]
    ir.Global: NativeRenderer.global_,                             # type: ignore[dict-item]
    ir.ReadState: NativeRenderer.read_state,                       # type: ignore[dict-item]
    ir.ReadEnv: NativeRenderer.read_env,                           # type: ignore[dict-item]
    ir.HasEnv: NativeRenderer.has_env,                             # type: ignore[dict-item]
    ir.Item: lambda r, n: (f"{r.expression(n.sequence, ATOM)}[{r.expression(n.index)}]", ATOM),  # type: ignore
    ir.Tuple: NativeRenderer.tuple_,                               # type: ignore[dict-item]
    ir.Call: zones.call,                                           # type: ignore[dict-item]
    ir.Not: NativeRenderer.not_,                                   # type: ignore[dict-item]
    ir.Arithmetic: NativeRenderer.arithmetic,                      # type: ignore[dict-item]
    ir.Compare: NativeRenderer.compare,                            # type: ignore[dict-item]
    ir.BoolOp: NativeRenderer.bool_op,                             # type: ignore[dict-item]
    ir.Conditional: NativeRenderer.conditional,                    # type: ignore[dict-item]
    ir.Named: NativeRenderer.named,                                # type: ignore[dict-item]
    ir.ReadVar: NativeRenderer.read_var,                           # type: ignore[dict-item]
    ir.ReadZone: zones.read_zone,                                  # type: ignore[dict-item]
    ir.TopOfZone: zones.top_of_zone,                               # type: ignore[dict-item]
    ir.ComponentsOf: zones.components_of,                          # type: ignore[dict-item]
    ir.ReadColumn: zones.read_column,                              # type: ignore[dict-item]
    ir.Grouped: zones.grouped,                                     # type: ignore[dict-item]
    ir.ReadAttribute: zones.read_attribute,                        # type: ignore[dict-item]
    ir.Comprehension: zones.filtered,                              # type: ignore[dict-item]
    ir.Between: lambda r, n: (" <= ".join(r.expression(x, COMPARISON + 1) for x in (n.low, n.value, n.high)),  # type: ignore
                              COMPARISON),
    ir.TheState: refuse_expression, ir.Field: refuse_expression, ir.StateCall: refuse_expression,
    ir.Key: refuse_expression, ir.Budget: writes.budget,  # type: ignore[dict-item]
    ir.Method: refuse_expression, ir.CacheKey: refuse_expression, ir.NewList: refuse_expression,
    ir.Loops: refuse_expression,
}

STATEMENTS: dict[type, Callable[..., None]] = {
    ir.Assign: lambda r, n, i: r.assign(n.target, n, ir.Local(n.target), n.value, i),
    ir.Unpack: NativeRenderer.unpack,
    ir.WriteState: NativeRenderer.write_state,
    ir.WriteEnv: NativeRenderer.write_env,
    ir.DeleteEnv: NativeRenderer.delete_env,
    ir.CountCoverage: lambda r, n, i: r.add(i, f"cov[{n.counter}] += 1", n.span),
    ir.ExpressionStatement: writes.expression_statement,
    ir.If: NativeRenderer.if_,
    ir.While: NativeRenderer.while_,
    ir.ForRange: lambda r, n, i: r.loop(
        i, f"for {n.name} in range({r.expression(n.start)}, {r.expression(n.stop)}):", n, n.body),
    ir.ForEach: lambda r, n, i: r.loop(i, f"for {n.name} in {r.expression(n.sequence)}:", n, n.body),
    ir.Return: lambda r, n, i: r.add(i, "return" if n.value is None else f"return {r.expression(n.value)}", n.span),
    ir.Break: lambda r, n, i: r.jump(n, i, "break"),
    ir.Continue: lambda r, n, i: r.jump(n, i, "continue"),
    ir.Rule: NativeRenderer.rule,
    ir.Guard: NativeRenderer.guard,
    ir.Unless: NativeRenderer.unless,
    ir.Rounds: NativeRenderer.rounds,
    ir.WriteVar: NativeRenderer.write_var,
    ir.Remark: lambda r, n, i: r.add(i, f"# {n.text}", n.span),
    ir.Invalidate: lambda r, n, i: r.add(i, f"pass  # (stamp {n.stamp}: no cached values natively)", n.span),
    ir.Yield: NativeRenderer.refuse, ir.Try: writes.try_,
    ir.YieldFrom: NativeRenderer.refuse, ir.Raise: NativeRenderer.refuse, ir.Spend: writes.spend,
    ir.AppendLog: NativeRenderer.refuse, ir.SetItem: NativeRenderer.refuse, ir.ShortLoop: NativeRenderer.refuse,
}


# the state's tables a function binds at its top (lower_functions.prologue): their arrays are parameters
TABLES: dict[ir.Node, str] = {ir.ReadState("vars"): "the variables are the var_ arrays",
                              ir.ReadState("zones"): "the zones are the zone_ arrays",
                              ir.ReadState("entities"): "the attributes are the attr_ arrays"}


def looped(node: ir.Node) -> bool:
    """Whether an expression needs lines before its statement natively (an aggregate's loop)."""
    return any(isinstance(inner, ir.Comprehension) for inner in ir.walk(node))


def variables_used(function: ir.Function) -> tuple[str, ...]:
    """The variable families a function reads or writes: its `var_NAME` parameters, in this order."""
    used = set()
    for node in ir.walk(function):
        if isinstance(node, (ir.ReadVar, ir.WriteVar)) and isinstance(node.key, ir.Key):
            used.add(node.key.family)
        elif isinstance(node, ir.Assign) and isinstance(node.value, ir.Key):     # (a key bound to a local)
            used.add(node.value.family)
    return tuple(sorted(used))


def render_native(function: ir.Function, places: Places) -> Rendered:
    """The Numba source of a function: `def name(flow, env, env_has, loops, loop_values, cov,
    var_NAME..., params...)`, its state parameter `s` replaced by the state's arrays (the
    variables' of variables_used). Its environment nodes are the flow's arrays, unless it takes
    an environment `e` of its own (a binder's values). NotNative if a node has no native form."""
    reads = tuple(f"var_{name}" for name in variables_used(function) if name not in places.zones) + \
        zones.state_parameters(function, places)
    renderer = NativeRenderer(places, "e" not in function.params)
    renderer.none_codes.update(places.parameters.get(function.name, {}))
    renderer.block(writes.uncached(function.body), 1)
    state = STATE_ARRAYS + reads
    state += tuple(sorted(renderer.uses - set(state)))
    params = state + tuple(p for p in function.params if p != "s")
    return Rendered(f"def {function.name}({', '.join(params)})", renderer.lines, renderer.spans)


def state_arrays(rendered: Rendered, function: ir.Function) -> tuple[str, ...]:
    """The state arrays a function's native header names (its parameters before the rules' own)."""
    params = rendered.header[rendered.header.index("(") + 1:-1].split(", ")
    return tuple(params[:len(params) - len([p for p in function.params if p != "s"])])


def render_all(functions: list[ir.Function], places: Places) -> tuple[dict[str, Rendered], Places]:
    """Every function that renders natively, callees first (a call of a generated function
    renders once the callee has: Places.signatures), and the places with their signatures."""
    rendered: dict[str, Rendered] = {}
    changed = True
    while changed:
        changed = False
        for function in functions:
            if function.name in rendered:
                continue
            try:
                done = render_native(function, places)
            except NotNative:
                continue
            rendered[function.name] = done
            places = attrs.evolve(places, signatures={**places.signatures,
                                                      function.name: state_arrays(done, function)})
            changed = True
    return rendered, places


@attrs.frozen
class Refusal:
    """A node that keeps a function from rendering natively: its kind (the node's class) and
    the note a fallback gives."""
    construct: str
    note: str


def unsupported(function: ir.Function, places: Places) -> list[str]:
    """The notes of every node of a function that keeps it from rendering natively (refusals)."""
    return [refusal.note for refusal in refusals(function, places)]


def refusals(function: ir.Function, places: Places) -> list[Refusal]:
    """Every node of a function that keeps it from rendering natively, outermost first (an
    unsupported node's insides are not looked at), in the order of the function, each note once."""
    try:
        render_native(function, places)
        return []
    except NotNative:
        pass
    found: dict[str, Refusal] = {}
    # one renderer for the walk, so that what a statement binds (a key, a loop's values) is known after it
    renderer = NativeRenderer(places, "e" not in function.params)
    renderer.none_codes.update(places.parameters.get(function.name, {}))

    def visit(node: ir.Node, loops: int, around: Span | None) -> None:
        around = node.span or around
        renderer.loops, renderer.pending = loops, []
        try:
            if isinstance(node, ir.Statement):
                STATEMENTS.get(type(node), NativeRenderer.refuse)(renderer, node, 0)
            elif isinstance(node, ir.Expression):
                renderer.expression(node)
        except NotNative as refused:
            if refused.node is node or not any(refused.node is inner for inner in ir.walk(node)):
                note = refused.note(around)
                found.setdefault(note, Refusal(refused.construct, note))
                return
        else:
            return          # (rendered whole: nothing inside it is refused)
        inner = loops + isinstance(node, (ir.While, ir.ForRange, ir.ForEach))
        for child in ir.children(node):
            visit(child, inner, around)

    for statement in writes.uncached(function.body):
        visit(statement, 0, function.span)
    return list(found.values())


def source(rendered: Rendered) -> str:
    """A rendered function as the text of a module's function."""
    return "\n".join([rendered.header + ":", *rendered.lines]) + "\n"
