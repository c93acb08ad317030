"""How values and components read as text: plain values, labels as a seat sees them."""
from operator import itemgetter

LABEL_OF = itemgetter("__label__")      # a component's label (its entity's)


def plain_label(value):
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
