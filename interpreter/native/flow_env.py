"""Where a game's flow stands, from a Python state to a rollout kernel's array F (what
rollout_source.py's `resume_flow` reads): the seat of each `turns` loop, each flow `for` loop's
values (placed after the fixed cells), their number and its next position, a simultaneous step's
seats and the moves sealed so far (as the kernel codes moves), the flow's `let`s
that come before a play, coded as the kernel codes their type. The Python engine keeps them in
the state's environment under the same keys (compile/flow_instructions.py)."""
from __future__ import annotations

import numpy as np

from referee.dsl.types import TEXT

from .not_native import NotNative


WIDE = ("loop", "sealed")      # the kinds of three cells (where their values start, how many, a position)


def cells_of(slots: dict) -> int:
    """The fixed cells of F that these env slots take."""
    return sum(3 if kind in WIDE else 1 for _, kind in slots.values())


class FlowEnvWriter:
    """F of the states of one rollout kernel (its RolloutSource's env_slots)."""

    def __init__(self, source):
        self.slots = source.env_slots
        self.fixed = cells_of(self.slots)
        self.code_of, self.move_code, self.loop_types = source.code_of, source.move_code, source.loop_types
        self.texts = getattr(source, "text_codes", {})

    def write(self, env: dict) -> np.ndarray | None:
        """F for the environment env, or None when a value has no coding in the kernel."""
        values: list = []
        F = np.zeros(self.fixed, dtype=np.int64)
        for key, (at, kind) in self.slots.items():
            if key not in env:
                continue
            value = env[key]
            if kind == "seat":
                F[at] = value
            elif kind == "loop":
                items, position = value
                F[at:at + 3] = (self.fixed + len(values), len(items), position)
                if not all(v.__class__ is int for v in items):
                    items = [self.coded(v, self.loop_types[key]) for v in items]
                values += items
            elif kind == "sealed":          # (the seats that sealed, then the others; then the sealed moves)
                remaining, sealed = value
                codes = [self.move_code(index, args) for _, index, args in sealed]
                if None in codes:
                    return None
                F[at:at + 3] = (self.fixed + len(values), len(sealed) + len(remaining), len(sealed))
                values += [player for player, _, _ in sealed] + list(remaining) + codes
            else:
                code = self.coded(value, kind)
                if code is None:
                    return None
                F[at] = code
        if None in values:
            return None
        if not values:
            return F
        return np.concatenate((F, np.asarray(values, dtype=np.int64)))

    def coded(self, value, t):
        """A value as the kernel codes a value of type t (None: it has no code)."""
        if value.__class__ is int:
            return value if -2 ** 63 < value < 2 ** 63 else None
        if value.__class__ is str and t.without_none() == TEXT:
            return self.texts.get(value)        # (a text made in play has no code in F: Python plays it)
        try:
            return self.code_of(value, t, None)
        except NotNative:
            return None


__all__ = ["FlowEnvWriter"]
