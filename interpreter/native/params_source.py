"""Params in a native kernel (a mixin of rules_source.KernelSource): a param's value is known
when the kernel is rendered (its options, player count and given params applied), so an int or
a bool is written as a literal and a list as a constant array of the module (PARAM_<name>), its
items coded as any value in the kernel (layout.py)."""
from __future__ import annotations

from referee.dsl.types import ListOf, element_type

from .not_native import NotNative


class ParamsSource:
    """Params' values for KernelSource (its `game`, `code_of`, and `list_params`: the list
    params read so far, name -> their items' codes)."""
    list_params: dict

    def param_value(self, name: str, node) -> str:
        value = self.game.params[name]
        if value.__class__ in (int, bool):
            return str(int(value))
        if value.__class__ is str:
            return str(self.text_code(value))
        t = self.type_of(node)
        if value.__class__ is not list or not isinstance(t.without_none(), ListOf):
            raise NotNative(f"the param {name}: a {type(value).__name__}", node.span)
        element = element_type(t)
        codes = [self.code_of(item, element, node.span) for item in value]
        self.list_params[name] = codes
        return f"PARAM_{name}"

    def param_constants(self) -> list:
        """The module's constants of the list params read (rendered after every use)."""
        return [f"PARAM_{name} = np.array([{', '.join(map(str, codes))}], dtype=np.int64)"
                for name, codes in self.list_params.items()]
