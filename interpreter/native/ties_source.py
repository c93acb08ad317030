"""`best` and `worst` by several keys in a native kernel (a mixin of rules_source.KernelSource,
before lists_source.ListsSource): the later keys computed only for the values tied on the first,
as the engine does (runtime.values.ranked_ties): `best(p in players where held(p, r) >
0 by held(p, r), second_key(p, r))` asks second_key only when two players have as many
there. The answer is the one of the whole key tuples (lists_source: none counts as zero).
"""
from __future__ import annotations

import attrs
from referee.dsl.types import BOOL, INT

from .not_native import NotNative


class TiesSource:
    """Rankings by several keys for KernelSource (its `expr`, `define`, `fresh`, `none_of`...)."""

    def visit_Ranking(self, node, scope, want):
        if node.kind not in ("best", "worst") or len(node.keys) < 2:
            return super().visit_Ranking(node, scope, want)
        first = super().visit_Ranking(attrs.evolve(node, keys=node.keys[:1]), scope, want)
        name, var = self.fresh(f"ties_{node.kind}_"), self.fresh("x")
        inner = scope.child(**{node.binder.name: var})
        later = node.keys[1:]
        each = []
        for k, key in enumerate(later):
            if self.type_of(key).without_none() not in (INT, BOOL):
                raise NotNative(f"a ranking by a {self.type_of(key).text}", key.span)
            each += [f"k = np.int64({self.expr(key, inner, self.type_of(key))})",
                     f"ranks[j, {k}] = 0 if k == {self.none_of(INT)} else k"]
        self.define(f"def {name}_later(S, cur{scope.params()}, tied):",
                    [f"ranks = np.empty((len(tied), {len(later)}), dtype=np.int64)", "for j in range(len(tied)):",
                     f"    {var} = tied[j]", *("    " + line for line in each), "return ranks"])
        self.define(f"def {name}(S, cur{scope.params()}):",
                    [f"tied = {first}", "if len(tied) < 2:", "    return tied",
                     f"return extreme_of(tied, {name}_later(S, cur{scope.params()}, tied), {node.kind == 'best'})"])
        return f"{name}(S, cur{scope.params()})"
