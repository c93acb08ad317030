"""Reals (the rules' exact fractions) in a native kernel (a mixin of rules_source.KernelSource).

A real is a tuple (numerator, denominator) of int64, reduced, the denominator positive: what
Python's Fraction holds (runtime/exact.py). `+ - * / %`, a negation, `abs`, `//` of a real, the
comparisons, `sum` over a domain, conditionals, lets, functions and their parameters, params,
the returns and the score take reals; an int goes where a real is wanted as (n, 1). Every
numerator and denominator made stays within the limit of numbers (10^18) and every product is
checked before it is made: past it, or at a division by zero, the game goes to Python, which
gives the exact result or the located error. A real becomes a float (a return, a score) as
Fraction.__float__ does, one correctly rounded division, so only where both parts are exact
floats (at most 2^53); else Python plays the game.
"""
from __future__ import annotations

from referee.dsl import ast
from referee.dsl.types import BOOL, FRACTION, INT, ListOf, MapOf, OptionalOf, SetOf, written_type

from .not_native import NotNative
from .var_slot import VarSlot

ORDERS = ("==", "!=", "<", "<=", ">", ">=")
MAYBE_REAL = OptionalOf(FRACTION)


def untag(node):
    return ast.untag(node)[0]


def holds_real(t) -> bool:
    """Whether a type is real or has reals in it (a list, set or map of them, a real?)."""
    if t == FRACTION:
        return True
    if isinstance(t, OptionalOf):
        return holds_real(t.base)
    if isinstance(t, MapOf):
        return holds_real(t.key) or holds_real(t.value)
    return isinstance(t, (ListOf, SetOf)) and holds_real(t.element)


class RealsSource:
    """Reals for KernelSource (its `expr`, `dispatch`, `checked`, `define`...)."""

    def real_hook(self, node, scope, want):
        """The rendering of a node that makes or reads a real, or None: an expression of type
        real, an int where a real is wanted, `//` of a real and a comparison with a real."""
        t = self.checked.type_of(node)
        if t == MAYBE_REAL:
            self.uses_reals = True
            return self.maybe_real(node, scope)
        if t is not None and t != FRACTION and holds_real(t):
            raise NotNative(f"a value of type {t.text}", node.span)
        if t == FRACTION:
            self.uses_reals = True
            return self.real_expr(node, scope)
        if isinstance(node, ast.Nothing) and want == MAYBE_REAL:
            return "(0, 0)"
        if t == INT and want in (FRACTION, MAYBE_REAL):
            return f"({self.dispatch(node, scope, INT)}, 1)"
        if isinstance(node, (ast.Binary, ast.Compare)) and any(
                self.checked.type_of(untag(side)) in (FRACTION, MAYBE_REAL) for side in (node.left, node.right)):
            self.uses_reals = True
            if isinstance(node, ast.Compare) and self.maybe_sides(node):
                return self.maybe_compared(node, scope)
            left, right = (self.real_side(side, scope) for side in (node.left, node.right))
            if isinstance(node, ast.Compare):
                return f"(real_order(S, {left}, {right}) {node.op} 0)"
            if node.op == "//":
                return f"real_floor(real_divided(S, {left}, {right}))"
            raise NotNative(f"the operator {node.op} of reals here", node.span)
        return None

    def real_side(self, node, scope) -> str:
        node = untag(node)
        t = self.checked.type_of(node)
        if t == MAYBE_REAL:         # (none in arithmetic: Python's error, the game goes to it)
            self.uses_maybe_reals = True
            return f"real_given(S, {self.expr(node, scope, MAYBE_REAL)})"
        if t not in (INT, FRACTION):
            raise NotNative(f"a {t.text if t is not None else 'value'} beside a real", node.span)
        return self.expr(node, scope, FRACTION)

    def real_expr(self, node, scope) -> str:
        """A real-typed expression as a (numerator, denominator) tuple."""
        if isinstance(node, ast.Binary):
            helper = {"+": "real_sum", "-": "real_difference", "*": "real_product", "/": "real_divided",
                      "%": "real_remainder"}.get(node.op)
            if helper is None:
                raise NotNative(f"the operator {node.op} of reals", node.span)
            return f"{helper}(S, {self.real_side(node.left, scope)}, {self.real_side(node.right, scope)})"
        if isinstance(node, ast.Negate):
            return f"real_negated({self.real_side(node.operand, scope)})"
        if isinstance(node, ast.Conditional):
            return (f"({self.expr(node.then, scope, FRACTION)} if {self.expr(node.condition, scope, BOOL)} "
                    f"else {self.expr(node.otherwise, scope, FRACTION)})")
        if isinstance(node, ast.Call) and node.name == "abs" and len(node.arguments) == 1:
            return f"real_abs({self.real_side(node.arguments[0], scope)})"
        read = self.real_var_read(node, scope)
        if read is not None:
            return read
        if isinstance(node, ast.Name) and node.id in self.game.params and node.id not in scope.names:
            value = self.game.params[node.id]
            return f"({value.numerator}, {value.denominator})"
        if isinstance(node, ast.Aggregate) and node.kind not in ("sum", "min", "max"):
            raise NotNative(f"{node.kind} over reals", node.span)
        if isinstance(node, (ast.Name, ast.Call, ast.Aggregate, ast.LetIn)):
            return self.dispatch(node, scope, FRACTION)    # (a let, a function, a sum: tuples)
        raise NotNative(f"the real {type(node).__name__} has no native form yet", node.span)

    # ---- variables of reals: numerators at the slot's offset, denominators a slot's cells after
    def lay_out_real_var(self, name: str, axes: tuple, span) -> None:
        cells = 1
        for _, size, _ in axes:
            cells *= size
        value = self.game.var_defaults[name]
        if value is None:
            raise NotNative("a real variable starting at none", span)
        if not hasattr(self, "real_vars"):
            self.real_vars: dict = {}
        self.real_vars[name] = (VarSlot(self.size, axes, FRACTION, value.numerator), cells, value.denominator)
        self.size += 2 * cells

    def real_vars_setup(self) -> list:
        """The setup's lines writing the real variables' first values."""
        return [line for slot, cells, denominator in getattr(self, "real_vars", {}).values()
                for line in (f"S[{slot.offset}:{slot.offset + cells}] = {slot.default}",
                             f"S[{slot.offset + cells}:{slot.offset + 2 * cells}] = {denominator}")]

    def real_cell(self, target, scope) -> tuple | None:
        """(the position of a real variable's cell, its cells) for a Name or Subscript, or None."""
        node = untag(target)
        name, indexes = (node.id, ()) if isinstance(node, ast.Name) else \
            (untag(node.obj).id, node.indexes) if isinstance(node, ast.Subscript) and isinstance(untag(node.obj), ast.Name) else \
            (node.name, node.indexes) if isinstance(node, ast.Target) else (None, ())
        if name is None or name in scope.names or name not in getattr(self, "real_vars", {}):
            return None
        slot, cells, _ = self.real_vars[name]
        return self.var_index(name, indexes, scope, node.span, slot), cells

    def real_var_read(self, node, scope):
        cell = self.real_cell(node, scope)
        return None if cell is None else f"real_read(S, {cell[0]}, {cell[1]})"

    def real_var_write(self, node, scope):
        """`v = REAL`, `v += REAL` (-=) of a real variable: its lines; else None."""
        if not isinstance(node, (ast.Assign, ast.Augment)):
            return None
        cell = self.real_cell(node.target, scope)
        if cell is None:
            return None
        self.uses_reals = True
        value = self.expr(node.value, scope, FRACTION)
        if isinstance(node, ast.Augment):
            helper = {"+=": "real_sum", "-=": "real_difference"}.get(node.op)
            if helper is None:
                raise NotNative(f"the update {node.op} of a real", node.span)
            value = f"{helper}(S, real_read(S, i, {cell[1]}), {value})"
        return [f"i = {cell[0]}", f"real_write(S, i, {cell[1]}, {value})"]

    def argument_type(self, name: str, k: int, argument):
        """The type an argument of a function is rendered as: real for a real parameter (an
        int given is lifted), else its own."""
        parameters = self.functions[name].parameters
        if k < len(parameters) and written_type(parameters[k].type) == FRACTION:
            return FRACTION
        return self.type_of(argument)

    def real_sum_parts(self, value: str) -> tuple:
        """aggregate_parts of `sum` over reals."""
        return ["total = (0, 1)"], [f"total = real_sum(S, total, {value})"], ["return total"]

    # ---- real? (a real or none: none is (0, 0), a denominator no real has) ------------------
    def maybe_real(self, node, scope) -> str:
        """An expression of type real?: min or max over reals, a let, a function, a conditional."""
        self.uses_maybe_reals = True
        if isinstance(node, ast.Nothing):
            return "(0, 0)"
        if isinstance(node, ast.Conditional):
            return (f"({self.expr(node.then, scope, MAYBE_REAL)} if {self.expr(node.condition, scope, BOOL)} "
                    f"else {self.expr(node.otherwise, scope, MAYBE_REAL)})")
        if isinstance(node, ast.Aggregate) and node.kind not in ("min", "max"):
            raise NotNative(f"{node.kind} of type real?", node.span)
        if isinstance(node, (ast.Name, ast.Call, ast.Aggregate, ast.LetIn)) and self.real_cell(node, scope) is None:
            return self.dispatch(node, scope, MAYBE_REAL)
        raise NotNative(f"the real? {type(node).__name__} has no native form yet", node.span)

    def maybe_sides(self, node) -> bool:
        """Whether a comparison has a side that may be none (real? or none itself)."""
        return any(self.checked.type_of(untag(side)) == MAYBE_REAL or isinstance(untag(side), ast.Nothing)
                   for side in (node.left, node.right))

    def maybe_compared(self, node, scope) -> str:
        """`==`, `!=` of reals where a side may be none (none equals none only); an order is
        false where a side is none (runtime.values.order)."""
        self.uses_maybe_reals = True
        left, right = (self.expr(side, scope, MAYBE_REAL) for side in (node.left, node.right))
        if node.op in ("==", "!="):
            return f"({'' if node.op == '==' else 'not '}real_equal({left}, {right}))"
        return f"real_ordered(S, {left}, {right}, {ORDERS.index(node.op)})"

    def real_best_parts(self, kind: str, value: str) -> tuple:
        """aggregate_parts of `min` and `max` over reals: none over no value (values none skipped)."""
        self.uses_reals = self.uses_maybe_reals = True
        better = "<" if kind == "min" else ">"
        return ["best = (0, 0)", "found = False"], \
            [f"v = {value}", "if v[1] == 0:", "    continue",
             f"if not found or real_order(S, v, best) {better} 0:", "    best = v", "    found = True"], ["return best"]

    def real_float(self, node, scope) -> str:
        """A real as the float Fraction.__float__ gives (a return, a score)."""
        self.uses_reals = True
        return f"real_float(S, {self.expr(node, scope, FRACTION)})"

    def real_scores(self, field, scope) -> list:
        """The definitions' lines of a real score: score_exact (the tuple, to rank the seats
        exactly) and score_of (its float, the record's); by_score's lines after them."""
        self.uses_reals = self.real_score = True
        self.define("def score_exact(S, p):", ["cur = S[CURRENT]", f"return {self.expr(field.expr, scope, FRACTION)}"])
        self.define("def score_of(S, p):", ["return real_float(S, score_exact(S, p))"])
        return ["best = score_exact(S, 1)", "for p in range(2, PLAYERS + 1):",
                "    if real_order(S, score_exact(S, p), best) > 0:", "        best = score_exact(S, p)",
                "for p in range(1, PLAYERS + 1):", "    if real_order(S, score_exact(S, p), best) == 0:",
                "        S[WINNERS] |= 1 << p"]

    def score_dtype(self) -> str:
        """The dtype of the kernel's scores: float64 for a real score (the record's float)."""
        return "float64" if getattr(self, "real_score", False) else "int64"

    def real_functions(self) -> str:
        if not getattr(self, "uses_reals", False):
            return ""
        return REAL_FUNCTIONS + (MAYBE_REAL_FUNCTIONS if getattr(self, "uses_maybe_reals", False) else "")


REAL_FUNCTIONS = '''
REAL_LIMIT = 10 ** 18
EXACT_FLOAT = 2 ** 53


@njit
def real_times(S, a, b):
    """a * b, both within the limit of numbers; past it the game goes to Python."""
    if a != 0 and abs(b) > REAL_LIMIT // abs(a):
        S[ERROR] = 1
        return 0
    return a * b


@njit
def real_made(S, n, d):
    """n / d reduced (as Fraction), within the limit; by zero or past it: to Python."""
    if d == 0 or abs(n) > 2 * REAL_LIMIT or abs(d) > 2 * REAL_LIMIT:
        S[ERROR] = 1
        return (0, 1)
    if d < 0:
        n, d = -n, -d
    a, b = abs(n), d
    while b:
        a, b = b, a % b
    if a > 1:
        n, d = n // a, d // a
    if abs(n) > REAL_LIMIT or d > REAL_LIMIT:
        S[ERROR] = 1
        return (0, 1)
    return (n, d)


@njit
def real_sum(S, a, b):
    return real_made(S, real_times(S, a[0], b[1]) + real_times(S, b[0], a[1]), real_times(S, a[1], b[1]))


@njit
def real_difference(S, a, b):
    return real_made(S, real_times(S, a[0], b[1]) - real_times(S, b[0], a[1]), real_times(S, a[1], b[1]))


@njit
def real_product(S, a, b):
    return real_made(S, real_times(S, a[0], b[0]), real_times(S, a[1], b[1]))


@njit
def real_divided(S, a, b):
    return real_made(S, real_times(S, a[0], b[1]), real_times(S, a[1], b[0]))


@njit
def real_read(S, i, cells):
    """A real variable's cell (an index outside: to Python)."""
    if i < 0:
        S[ERROR] = 1
        return (0, 1)
    return (S[i], S[i + cells])


@njit
def real_write(S, i, cells, value):
    if i < 0:
        S[ERROR] = 1
        return
    S[i] = value[0]
    S[i + cells] = value[1]


@njit
def real_floor(a):
    return a[0] // a[1]


@njit
def real_remainder(S, a, b):
    """a % b as Fraction's: a - b * (a // b); by zero: to Python."""
    whole = real_floor(real_divided(S, a, b))
    return real_difference(S, a, real_product(S, b, (whole, 1)))


@njit
def real_negated(a):
    return (-a[0], a[1])


@njit
def real_abs(a):
    return (abs(a[0]), a[1])


@njit
def real_order(S, a, b):
    """-1, 0 or 1 as a < b, a == b, a > b (exact: the cross products, checked)."""
    left, right = real_times(S, a[0], b[1]), real_times(S, b[0], a[1])
    return -1 if left < right else (1 if left > right else 0)


@njit
def real_float(S, a):
    """float(Fraction): one correctly rounded division, so both parts exact floats, else to Python."""
    if abs(a[0]) > EXACT_FLOAT or a[1] > EXACT_FLOAT:
        S[ERROR] = 1
    return np.float64(a[0]) / np.float64(a[1])
'''


# only in the kernels that have a real? (the others' sources, and so their compiled kernels, stay as they were)
MAYBE_REAL_FUNCTIONS = '''
@njit
def real_given(S, a):
    """A real that may be none, where Python stops with an error at none (the game goes to it)."""
    if a[1] == 0:
        S[ERROR] = 1
        return (0, 1)
    return a


@njit
def real_equal(a, b):
    return a[0] == b[0] and a[1] == b[1]


@njit
def real_ordered(S, a, b, op):
    """An order (op: its position in ==, !=, <, <=, >, >=) of reals where a side may be none: false then."""
    if a[1] == 0 or b[1] == 0:
        return False
    o = real_order(S, a, b)
    return o < 0 if op == 2 else (o <= 0 if op == 3 else (o > 0 if op == 4 else o >= 0))
'''
