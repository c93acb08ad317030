"""Rankings, lists and arithmetic in a native kernel (a mixin of rules_source.KernelSource):
`best`, `worst` and `sorted` (`best(p in players by points[p], tricks[p])`) as a function of
their own over the binder's domain, `Enum[k]` and `list[k]`, `a // b`, `a % b` and
arithmetic on ints that may be none.

A ranking keeps the engine's answer (runtime.values.ranked, ranked_ties): its keys are ints
or bools compared as tuples, a key that is none counts as zero; `best`/`worst` give the values
whose keys are the largest/smallest, in the domain's order; `sorted` all of them, the largest
first and equal keys in the domain's order (a stable sort). Keys that draw (`pick`) are refused:
the engine draws them only for the values tied on the first key.
"""
from __future__ import annotations

from referee.dsl import ast
from referee.dsl.types import BOOL, INT, ListOf, OptionalOf

from .not_native import NotNative


def untag(node):
    return ast.untag(node)[0]


class ListsSource:
    """Rankings and `//` of KernelSource (its `expr`, `define`, `domain_loop`, `fresh`...)."""

    def visit_Ranking(self, node, scope, want):
        binder, kind = node.binder, node.kind
        self.refuse_ranking(node)
        name, var = self.fresh(f"rank_{kind}_"), self.fresh("x")
        loop, capacity = self.domain_loop(binder, scope, var)
        inner = scope.child(**{binder.name: var})
        test = [f"if not ({self.expr(binder.condition, inner, BOOL)}): continue"] \
            if binder.condition is not None else []
        keys = []
        for k, key in enumerate(node.keys):
            t = self.type_of(key).without_none()
            if t not in (INT, BOOL):
                raise NotNative(f"a ranking by a {t.text}", key.span)
            keys.append(f"k{k}")
            test += [f"k{k} = np.int64({self.expr(key, inner, self.type_of(key))})",
                     f"if k{k} == {self.none_of(INT)}:", f"    k{k} = 0"]
        width = len(keys)
        room = [f"out = np.empty({capacity}, dtype=np.int64)", f"ranks = np.empty(({capacity}, {width}), dtype=np.int64)"]
        loop = loop[:-1] + room + loop[-1:]
        each = test + [f"ranks[n, {k}] = {key}" for k, key in enumerate(keys)] + [f"out[n] = {var}", "n += 1"]
        body = ["n = 0"] + loop + ["    " + line for line in each]
        body += [f"return {'sorted_by_keys' if kind == 'sorted' else 'extreme_of'}(out[:n], ranks[:n]"
                 f"{'' if kind == 'sorted' else ', ' + str(kind == 'best')})"]
        self.define(f"def {name}(S, cur{scope.params()}):", body)
        return f"{name}(S, cur{''.join(', ' + v for v in scope.names.values())})"

    @staticmethod
    def refuse_ranking(node) -> None:
        if node.kind not in ("best", "worst", "sorted"):
            raise NotNative(f"the ranking {node.kind} has no native form yet", node.span)
        if any(isinstance(n, ast.Call) and n.name == "pick" for k in node.keys for n in ast.walk(k)):
            raise NotNative("a ranking by a key that draws", node.span)

    def visit_LetIn(self, node, scope, want):
        """`let NAME = VALUE in BODY`: a function of its own, the value its last argument (made once)."""
        name, var = self.fresh("let_"), self.fresh("L_")
        value = self.expr(node.value, scope, self.type_of(node.value))
        outer = {k: v for k, v in scope.names.items() if k != node.name}     # (a name bound again: the new one, last)
        inner = type(scope)({**outer, node.name: var})
        self.define(f"def {name}(S, cur{inner.params()}):", [f"return {self.expr(node.body, inner, want)}"])
        return f"{name}(S, cur{''.join(', ' + v for v in outer.values())}, {value})"

    def arithmetic(self, node, scope):
        """`a // b`, `a % b` (by zero: the engine's error, played in Python) and arithmetic on
        ints that may be none (none: the engine's error too); None for the rest."""
        typed = [self.checked.type_of(untag(side)) for side in (node.left, node.right)]
        optional = [isinstance(t, OptionalOf) for t in typed]
        if node.op not in ("//", "%") and not (any(optional) and node.op in ("+", "-", "*")):
            return None
        if self.type_of(node) != INT:
            raise NotNative(f"the operator {node.op} here", node.span)
        left, right = (self.expr(side, scope, OptionalOf(INT) if maybe else INT)
                       for side, maybe in zip((node.left, node.right), optional))
        left, right = (f"some(S, {value})" if maybe else value for value, maybe in zip((left, right), optional))
        if node.op in ("//", "%"):
            return f"whole_{'quotient' if node.op == '//' else 'remainder'}(S, {left}, {right})"
        return f"({left} {node.op} {right})"

    def list_item(self, node, scope):
        """`Enum[k]` and `list[k]`: the k-th (from 1), none outside (values.item_at); else None."""
        obj = untag(node.obj)
        if len(node.indexes) != 1:
            return None
        if isinstance(obj, ast.Name) and obj.id in self.game.enum_members and obj.id not in scope.names:
            return f"member_at({self.expr(node.indexes[0], scope, INT)}, {len(self.game.enum_members[obj.id])})"
        t = self.checked.type_of(obj)       # (a variable's name is not typed: not a list)
        if not isinstance(t, ListOf):
            return None
        index = self.expr(node.indexes[0], scope, INT)
        return f"item_at({self.expr(obj, scope, t)}, {index}, {self.none_of(self.type_of(node))})"


LIST_FUNCTIONS = '''
@njit
def key_order(ranks, a, b):
    """-1, 0 or 1: the key tuple of row a against that of row b."""
    for k in range(ranks.shape[1]):
        if ranks[a, k] != ranks[b, k]:
            return 1 if ranks[a, k] > ranks[b, k] else -1
    return 0


@njit
def extreme_of(values, ranks, best):
    """The values whose keys are the largest (best) or the smallest, in order (values.extreme)."""
    out = np.empty(len(values), dtype=np.int64)
    n, target = 0, 0
    for j in range(len(values)):
        order = key_order(ranks, j, target) if n else 0
        if n == 0 or order == 0:
            out[n] = values[j]
            n += 1
            if n == 1:
                target = j
        elif (order > 0) == best:
            out[0] = values[j]
            n, target = 1, j
    return out[:n]


@njit
def sorted_by_keys(values, ranks):
    """The values, the largest keys first, equal keys in their order (a stable sort)."""
    order = np.arange(len(values))
    for j in range(1, len(values)):
        at = order[j]
        k = j
        while k > 0 and key_order(ranks, at, order[k - 1]) > 0:
            order[k] = order[k - 1]
            k -= 1
        order[k] = at
    return values[order]


@njit
def whole_quotient(S, a, b):
    if b == 0:
        S[ERROR] = 1
        return 0
    return a // b


@njit
def whole_remainder(S, a, b):
    if b == 0:
        S[ERROR] = 1
        return 0
    return a % b


@njit
def some(S, value):
    """An int that may be none, in arithmetic: none is the engine's error."""
    if value == -9223372036854775808:      # (INT_NONE)
        S[ERROR] = 1
        return 0
    return value


@njit
def member_at(k, members):
    return k - 1 if 1 <= k <= members else -1


@njit
def item_at(items, k, none):
    return items[k - 1] if 1 <= k <= len(items) else none
'''
