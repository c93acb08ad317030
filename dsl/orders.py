"""Which values '<', '<=', '>' and '>=' order: numbers (and seats) by value, and the members of
one enum by the order the enum declares them in (`enum Rank { low, mid, high }`: low < high).

The checker asks `ordered_enum` whether a comparison is between members of one enum (or none);
the compiler then compares their positions, which `member_positions` gives (1-based, as
`index(m)` counts): a member's name is unique in a game, so one table serves every enum.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Optional

from .types import UNKNOWN, Named, NoneValue, Type


def ordered_enum(a: Type, b: Type, enums: Iterable[str]) -> Optional[str]:
    """The enum both sides are members of (either may be none, or of a type not known), or None
    when they are not members of one enum."""
    found = {t.without_none() for t in (a, b)} - {UNKNOWN, NoneValue()}
    if len(found) == 1:
        (enum,) = found
        return enum.name if isinstance(enum, Named) and enum.name in enums else None
    return None


def member_positions(enum_members: Mapping[str, Iterable[str]]) -> dict:
    """member -> its position in its enum, from 1."""
    return {member: k for members in enum_members.values() for k, member in enumerate(members, 1)}
