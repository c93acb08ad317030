"""Where a variable of the rules lives in the kernel's state array S (rules_source lays the
variables out; mixins such as reals_source lay out their own kinds with it)."""
from __future__ import annotations

import attrs


@attrs.frozen
class VarSlot:
    offset: int
    axes: tuple             # per index: (first code, size, enum members or ())
    type: str
    default: int
