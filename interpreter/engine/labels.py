"""How values and components read as text: plain values, labels as a seat sees them (the
runtime's, which generated code calls too)."""
from operator import itemgetter

from ..runtime.values import EMPTY_VALUE, GAP_CLOSINGS, entity_label, plain_label

LABEL_OF = itemgetter("__label__")      # a component's label (its entity's)


def closed_gaps(text: str) -> str:
    """A label without the gaps its empty values leave ('take  now' would show a gap)."""
    if EMPTY_VALUE not in text:
        return text
    for gap, closed in GAP_CLOSINGS:
        text = text.replace(gap, closed)
    return text


__all__ = ["EMPTY_VALUE", "LABEL_OF", "closed_gaps", "entity_label", "plain_label"]
