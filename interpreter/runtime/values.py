"""What the rules compute with, at run time: none-aware arithmetic and orders, ranges, lists,
rankings, groupings, equality of identical components."""
from __future__ import annotations

from referee.dsl.limits import MAX_COMPONENTS, MAX_LIST, MAX_RANGE

from .errors import RulesRuntimeError

LOOP_CAP = 100_000
UNSET = object()        # a value hoisted out of the loops that list legal moves, not yet computed
EMPTY = ()              # the content of a zone that holds nothing
EMPTY_VALUE = "\x00"     # stands for a {value} of a label that came out empty, until its gap is closed
# each EMPTY_VALUE goes with one of the spaces around it: 'take {[]} now' reads 'take now'
GAP_CLOSINGS = ((" \x00 ", " "), ("\x00 ", ""), (" \x00", ""), ("\x00", ""))


def closed_gaps(text: str) -> str:
    """A label without the gaps its empty values leave ('take  now' would show a gap)."""
    if EMPTY_VALUE not in text:
        return text
    for gap, closed in GAP_CLOSINGS:
        text = text.replace(gap, closed)
    return text


def none_error(span):
    """Arithmetic needs numbers: a 'none' here is a rules bug, reported where it happens."""
    raise RulesRuntimeError("arithmetic on 'none'", span)


def present(value, span):
    if value is None:
        raise RulesRuntimeError("arithmetic on 'none'", span)
    return value


def divisor(value, span):
    if not value:
        raise RulesRuntimeError("division by zero", span)
    return value


def numbers(low, high, span):
    """The range low..high of the rules, of at most MAX_RANGE numbers."""
    if low is None or high is None:
        raise RulesRuntimeError("a range runs between numbers, not none", span)
    if high + 1 - low > MAX_RANGE:
        raise RulesRuntimeError(f"the range {low}..{high} has more than {MAX_RANGE} numbers "
                                "(see the limits in docs/language.md)", span)
    return range(low, high + 1)


def joined(budget, a, b, span):
    """a + b of two lists: at most MAX_LIST items; a long one is charged to the step's work
    budget (short ones, the common case, cost nothing more)."""
    items = [*a, *b]
    if len(items) > 10_000:
        if len(items) > MAX_LIST:
            raise RulesRuntimeError(f"a list of {len(items):,} items, beyond the limit of {MAX_LIST:,} "
                                    "(see the limits in docs/language.md)", span)
        budget[1] -= len(items)
        if budget[1] < 0:
            raise RulesRuntimeError("this step did more work than the limit while joining lists "
                                    "(see the limits in docs/language.md)", span)
    return items


def within(x, low, high):
    """x in low..high, for a range of any length ('none' is in none)."""
    if low is None or high is None:
        raise TypeError("a range needs numbers, not 'none'")
    return x is not None and low <= x <= high


def room_for(s, count, span):
    """`count` for a 'create', if the game's components stay within MAX_COMPONENTS."""
    if count > 0 and len(s.entities) - len(s.game.static_entities) + count > MAX_COMPONENTS:
        raise RulesRuntimeError(f"creating {count} more components would make more than {MAX_COMPONENTS} "
                                "(see the limits in docs/language.md)", span)
    return count


def item_at(items, index):
    return items[index - 1] if index is not None and 1 <= index <= len(items) else None


def attribute(entities, x, name):
    return None if x is None else entities[x].get(name)


def top_of(items):
    return items[-1] if items else None


def order(a, op, b):
    """An order with 'none' on either side is false."""
    if a is None or b is None:
        return False
    if op == "<":
        return a < b
    if op == "<=":
        return a <= b
    if op == ">":
        return a > b
    return a >= b


def largest(values):
    values = [v for v in values if v is not None]
    return max(values) if values else None


def smallest(values):
    values = [v for v in values if v is not None]
    return min(values) if values else None


def ranked(kind, scored):
    """scored: (key tuple, value) in domain order -> the best, the worst, or all sorted."""
    if kind == "sorted":
        return [v for _, v in sorted(scored, key=lambda kv: kv[0], reverse=True)]
    return extreme(kind, scored)


def ranked_ties(kind, scored, later):
    """The best or the worst by several keys, the later keys computed only to break a tie:
    scored: (first key, value) in domain order; later(value): the tuple of the other keys.
    The same as ranked() on the whole key tuples (tuples compare key by key)."""
    tied = extreme(kind, scored)
    if len(tied) < 2:
        return tied
    return extreme(kind, [(later(v), v) for v in tied])


def extreme(kind, scored):
    """The values of scored ((key, value) pairs) whose key is the largest ('best') or the
    smallest, in order. One loop: a ranking sees a few items (the players), and max() over a
    generator then a comprehension cost twice as much."""
    if len(scored) < 2:
        return [scored[0][1]] if scored else []
    best = kind == "best"
    target, first = scored[0]
    tied = [first]
    for key, value in scored[1:]:
        if key == target:
            tied.append(value)
        elif (key > target) is best:
            target, tied = key, [value]
    return tied


class ListKey(tuple):
    """A list as a move's argument: hashable (moves are looked up and compared as keys), and
    equal to the list it holds, as the rules see it (`p == [1, 2]` inside the action)."""
    __slots__ = ()

    def __eq__(self, other):
        return tuple.__eq__(self, tuple(other) if other.__class__ is list else other)

    def __ne__(self, other):
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = tuple.__hash__


def hashable_values(items):
    """The values of a binder over lists (paths, sets of cards), as ListKeys: a move's arguments
    are looked up and compared as keys."""
    return [ListKey(v) if v.__class__ is list else v for v in items]


LISTS = (list, ListKey)      # a list, or a move's list argument


def same_value(s, a, b) -> bool:
    """Equal, or two identical components (the same type and attributes), or two lists of
    identical components item by item."""
    if a == b:
        return True
    if (a.__class__ in LISTS and b.__class__ in LISTS) or a.__class__ is tuple is b.__class__:
        return len(a) == len(b) and all(same_value(s, x, y) for x, y in zip(a, b))
    if a.__class__ is int and b.__class__ is int and a >= 0 and b >= 0:
        entities = s.entities
        if a < len(entities) and b < len(entities):
            return entities[a].get("__same__", a) == entities[b].get("__same__", b)
    return False


def grouped(pairs) -> dict:
    """(key, value) pairs -> key -> the values with that key, in order."""
    groups = {}
    for key, value in pairs:
        group = groups.get(key)
        if group is None:
            groups[key] = [value]
        else:
            group.append(value)
    return groups


def counted(keys) -> dict:
    counts = {}
    for key in keys:
        counts[key] = counts.get(key, 0) + 1
    return counts


def plain_label(value):
    """A value as a label shows it: none, yes, no, a list's items joined."""
    if value is None:
        return "none"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if isinstance(value, (list, tuple, range)):
        return ", ".join(plain_label(v) for v in value)
    return str(value)


def entity_label(entity, viewer) -> str:
    """A component's label as a seat sees it: owner-only attributes read '?' unless it owns it."""
    if "__public_label__" in entity and entity.get("owner") != viewer:
        return entity["__public_label__"]
    return entity["__label__"]


# ---- labelers: f(s, value) -> the text of a value of a type (Game.labeler picks one); each made
# afresh, with `made_by` saying how (a compiled module makes it so)

def player_labeler():
    def label(s, v):
        return f"P{v}" if v is not None else "none"
    label.made_by = ("player_labeler", ())
    return label


def entity_labeler():
    def label(s, v):
        return s.entities[v]["__label__"] if v is not None else "none"
    label.made_by = ("entity_labeler", ())
    return label


def seen_labeler(viewer):
    """A component as `viewer` sees it (owner-only attributes of others' components masked)."""
    def label(s, v):
        return entity_label(s.entities[v], viewer) if v is not None else "none"
    label.made_by = ("seen_labeler", (viewer,))
    return label


def list_labeler(inner):
    def label(s, v):
        return ", ".join(inner(s, x) for x in v) if v is not None else "none"   # (a list?: m[k] of a map of lists)
    label.made_by = ("list_labeler", (inner,))
    return label


def plain_labeler():
    def label(s, v):
        return plain_label(v)
    label.made_by = ("plain_labeler", ())
    return label
