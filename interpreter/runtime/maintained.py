"""Filters kept up to date from the zones that changed, instead of scanned again.

A cached function such as `filled(p) = filter(c in Cell where size(pile[p, c]) > 0)` goes over
a fixed domain and reads, for each value c, only zone keys that name c (the rows of
zone_rows.KeyRows). When what it reads changes, only the values named by the changed keys can
change their answer: the function tests those again and edits its last value (kept in domain
order), instead of reading every key of the domain again.

What changed comes from the counters the engine already bumps for the cache (State.move,
State.mark_changed): once a game has such a filter, every change of a family counted by part
also appends the changed zone key (key_mark gives it with the mark) to the log of the game's
part counters (a PartCounts). A cached value remembers the log's length; the keys logged since are the ones to test again. The log is one per game (like the
cache), started again at every new epoch and once it holds LOG_LIMIT keys; a value older than
the log's start, one from another epoch (another state, a state changed by hand) or one with
more changes since than its domain has values is computed whole.
"""
from __future__ import annotations

from bisect import bisect_left

LOG_LIMIT = 4096        # changes logged at most before the log starts again


class PartCounts(dict):
    """The cache's per-part change counters, with the log of the zone keys changed (State.move
    and State.mark_changed append to it: every family read by part logs once a game has a
    maintained filter)."""

    def __init__(self, *args):
        super().__init__(*args)
        self.log = []           # the zone keys changed, oldest first
        self.dropped = 0        # how many changes were logged before the log's start

    def forget(self):
        """The log starts again (no cached value can use it: another epoch, or a long one)."""
        self.dropped += len(self.log)
        self.log.clear()


def changed_rows(entry, epoch, parts, rows_of_key, limit):
    """The rows of the values whose keys changed since a cached entry (stamp, value, epoch,
    position) was made (a value whose keys changed twice comes twice: testing it again changes
    nothing); None when the value must be computed whole."""
    if len(parts.log) >= LOG_LIMIT:
        parts.forget()
    if entry is None or entry[2] != epoch:
        return None
    start = entry[3] - parts.dropped
    if start < 0:
        return None
    changed = parts.log[start:]
    if len(changed) > limit:
        return None
    rows = []
    for key in changed:      # (a loop: cheaper than a comprehension's call for a few keys)
        row = rows_of_key.get(key)
        if row is not None:
            rows.append(row)
    return rows


def refiltered(old, tested, order):
    """A filter's last value (a list in domain order, never changed: callers may hold it) with
    the values tested again, (value, passes) each, put in or taken out. order: {value: its
    place in the domain}, or None when the domain is in ascending order already."""
    value = old
    for x, passes in tested:
        i = bisect_left(value, x) if order is None else bisect_left(value, order[x], key=order.__getitem__)
        there = i < len(value) and value[i] == x
        if there != bool(passes):
            if value is old:
                value = old[:]
            if there:
                del value[i]
            else:
                value.insert(i, x)
    return value
