"""The values bound in the module that none of its functions reads (a span of a check the
passes removed, a domain only a value known when compiling read, a closure no code calls)
are not written, nor are the engine's values that no function reads."""
from __future__ import annotations

import attrs

from ..module_names import ModuleParts


def drop_unread_constants(parts: ModuleParts) -> ModuleParts:
    read = frozenset().union(*parts.reads)
    bound = tuple((name, value) for name, value in parts.bound if name in read)
    return parts if len(bound) == len(parts.bound) else attrs.evolve(parts, bound=bound)
