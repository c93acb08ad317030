"""Values a native kernel names directly (a mixin of rules_source.KernelSource): the params
(ints and bools in place, a list of them as a constant array of the module), `players` as a
list, and `index(m)` of an enum member (its position from 1, none of none).
"""
from __future__ import annotations


from .not_native import NotNative

INT_NONE = -(2 ** 63)


class ValuesSource:
    """Params, `players` and `index` for KernelSource (its `expr`, `defs`...)."""

    def param_value(self, name: str, span) -> str:
        value = self.game.params[name]
        if value.__class__ in (int, bool):
            return str(int(value))
        if value.__class__ in (list, tuple) and all(v.__class__ is int and -2 ** 63 < v < 2 ** 63 for v in value):
            constant = f"PARAM_{name}"
            if constant not in self.param_constants:
                self.param_constants.add(constant)
                self.defs.append(f"{constant} = np.array([{', '.join(map(str, value))}], dtype=np.int64)")
            return constant
        raise NotNative(f"the param {name}: a {type(value).__name__}", span)

    @property
    def param_constants(self) -> set:
        found = self.__dict__.get("_param_constants")
        if found is None:
            found = self.__dict__["_param_constants"] = set()
        return found

    def value_call(self, node, scope):
        """`index(m)`; None for the other calls."""
        if node.name == "index" and len(node.arguments) == 1:
            member = self.expr(node.arguments[0], scope, self.type_of(node.arguments[0]))
            return f"position_of({member})"
        return None

    def visit_players_name(self) -> str:
        return "np.arange(1, PLAYERS + 1)"


VALUE_FUNCTIONS = f'''
@njit
def position_of(member):
    """index(m): an enum member's position from 1 (none: none)."""
    return member + 1 if member >= 0 else {INT_NONE}
'''
