"""Values bound more than once under different names (the same list of cells as a domain and as
a constant, the same labeler made twice): the first name serves for all, the others go. Only
the compiler's constants (not `fixed`), and only plain values or values a maker made of the
same arguments (module_names.plain_key): never a table the code fills."""
from __future__ import annotations

import attrs

from ..module_names import ModuleParts, plain_key, renamed


def share_equal_constants(parts: ModuleParts) -> ModuleParts:
    first: dict[object, str] = {}
    names: dict[str, str] = {}
    for name, value in parts.bound:
        key = plain_key(value)
        if key is None or name in parts.fixed:
            continue
        if key in first:
            names[name] = first[key]
        else:
            first[key] = name
    if not names:
        return parts
    changed = [bool(read & names.keys()) for read in parts.reads]
    return attrs.evolve(
        parts, functions=tuple(renamed(f, names) if c else f for f, c in zip(parts.functions, changed)),
        bound=tuple((name, value) for name, value in parts.bound if name not in names),
        reads=tuple(frozenset(names.get(n, n) for n in read) if c else read for read, c in zip(parts.reads, changed)))
