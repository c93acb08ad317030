"""The checker's operations on type texts, as they were before types became values (dsl/types.py
then held them): the reference that the `Type` values' operations are tested against
(test_type_values.py), text for text. Nothing outside the tests uses them.
"""

ANY = "any"
REAL = "real"                        # an exact fraction, made by '/'; an int widens to it
WHOLE = ("int", "Player", ANY)       # a seat is a number: p + 1, p < q
NUMBERS = WHOLE + (REAL,)
# ---- the texts ------------------------------------------------------------------------------

def list_of(t: str) -> str:
    return f"list[{t}]"


def set_of(t: str) -> str:
    return f"set[{t}]"


def is_set(t: str) -> bool:
    return strip_optional(t).startswith("set[")


def element_of(t: str) -> str:
    t = strip_optional(t)      # a list that may be none ('pick' of lists): its elements'
    for prefix in ("list[", "zone[", "set["):
        if t.startswith(prefix):
            return t[len(prefix):-1]
    return ANY


def strip_optional(t: str) -> str:
    return t[:-1] if t.endswith("?") else t


def optional(t: str) -> str:
    """t or none: 'Card?' of a Card and of a Card? alike; a value of unknown type stays unknown."""
    return t if t == ANY else strip_optional(t) + "?"


def describe(t: str) -> str:
    """A type in the words of a diagnostic: 'a number', 'a list of Card', "'Card?'"."""
    if t == "none":
        return "none"
    if t.startswith("list["):
        return "a list" if element_of(t) == ANY else f"a list of {written(element_of(t))}"    # (of mixed or no items)
    if t.startswith("zone["):
        return f"a zone of {written(element_of(t))}"
    if t.startswith("set["):
        return "a set" if element_of(t) == ANY else f"a set of {written(element_of(t))}"
    if t == "int":
        return "a number"
    if t == REAL:
        return "a fraction"
    if t == "bool":
        return "true/false"
    return f"'{t}'"


def written(t: str) -> str:
    """A type as a rules file writes it: 'list of list of int', not 'list[list[int]]'."""
    for kind in ("list", "zone", "set"):
        if strip_optional(t).startswith(kind + "["):
            return f"{kind} of {written(element_of(t))}"
    return t


def may_be_none(t: str) -> bool:
    return t in (ANY, "none") or t.endswith("?")


def compatible(a: str, b: str) -> bool:
    """Whether a value of type a may stand where b is needed."""
    if ANY in (a, b) or a == b:
        return True
    if "none" in (a, b):
        return True
    sa, sb = strip_optional(a), strip_optional(b)
    if sa == sb or {sa, sb} == {"int", "Player"}:   # a seat number is a player
        return True
    if sa == "int" and sb == REAL:                  # a whole number is a fraction (not the other way)
        return True
    for kind in ("list[", "set["):
        if sa.startswith(kind) and sb.startswith(kind):
            return compatible(element_of(sa), element_of(sb))
    return False
