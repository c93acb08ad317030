"""Where two views of one seat differ: the first differing entry, by its path in the view and
both its values, clipped, for the leak finder's messages (a reader sees which entry, not a cut
piece of JSON)."""
from __future__ import annotations

import json

MOST = 60           # characters of each value shown


def first_difference(a, b, path=()):
    """(path, value in a, value in b) of the first entry where `a` and `b` differ (a path is a
    tuple of dict keys and list positions), or None when they are equal."""
    if a == b:
        return None
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if a.get(key, MISSING) != b.get(key, MISSING):
                return first_difference(a.get(key, MISSING), b.get(key, MISSING), (*path, key))
    if isinstance(a, list) and isinstance(b, list):
        for position in range(max(len(a), len(b))):
            x = a[position] if position < len(a) else MISSING
            y = b[position] if position < len(b) else MISSING
            if x != y:
                return first_difference(x, y, (*path, position))
    return path, a, b


class Missing:
    """The value of an entry that one view has and the other has not."""

    def __repr__(self):
        return "(none)"


MISSING = Missing()


def path_text(path) -> str:
    """('zones', 'hand', 0, 'label') -> 'zones.hand[0].label'."""
    text = ""
    for step in path:
        text += f"[{step}]" if isinstance(step, int) else (f".{step}" if text else str(step))
    return text or "(the whole view)"


def clipped(value, around=0) -> str:
    """A value as JSON (text in quotes), at most MOST characters: cut around position `around`."""
    text = repr(value) if value is MISSING else json.dumps(value, sort_keys=True, default=str)
    if len(text) <= MOST:
        return text
    start = max(0, min(around - MOST // 2, len(text) - MOST))
    return ("..." if start else "") + text[start:start + MOST] + ("..." if start + MOST < len(text) else "")


def entry_difference(a, b) -> str:
    """'log[0]: "dice: 1, ..." / "dice: 0, ..."': where two values (views decoded from JSON,
    or anything JSON-like) first differ, the entry named by its path with both values (the
    last key written with them, as the view's JSON writes it)."""
    found = first_difference(a, b)
    if found is None:
        return "(no difference)"
    path, x, y = found
    tx, ty = (json.dumps(v, sort_keys=True, default=str) if v is not MISSING else "" for v in (x, y))
    at = next((i for i, (p, q) in enumerate(zip(tx, ty)) if p != q), min(len(tx), len(ty)))
    key = f"{json.dumps(path[-1])}: " if path and isinstance(path[-1], str) else ""
    return f"{path_text(path)}: {key}{clipped(x, at)} / {key}{clipped(y, at)}"


def json_difference(a: str, b: str) -> str:
    """entry_difference of two JSON texts (a view as the leak finder keeps it)."""
    try:
        return entry_difference(json.loads(a), json.loads(b))
    except ValueError:
        return f"{clipped(a)} / {clipped(b)}"
