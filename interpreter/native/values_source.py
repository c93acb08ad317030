"""`index(m)` of an enum member in a native kernel (a mixin of rules_source.KernelSource): its
position from 1, none of none. (Params are params_source.py's; `players` is rules_source's.)
"""
from __future__ import annotations

INT_NONE = -(2 ** 63)


class ValuesSource:
    """`index` for KernelSource (its `expr`, `type_of`)."""

    def value_call(self, node, scope):
        """`index(m)`; None for the other calls."""
        if node.name == "index" and len(node.arguments) == 1:
            member = self.expr(node.arguments[0], scope, self.type_of(node.arguments[0]))
            return f"position_of({member})"
        return None


VALUE_FUNCTIONS = f'''
@njit
def position_of(member):
    """index(m): an enum member's position from 1 (none: none)."""
    return member + 1 if member >= 0 else {INT_NONE}
'''
