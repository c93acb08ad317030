"""How values and components read as text: plain values, labels as a seat sees them (the
runtime's, which generated code calls too)."""
from operator import itemgetter

from ..runtime.values import EMPTY_VALUE, closed_gaps, entity_label, plain_label

LABEL_OF = itemgetter("__label__")      # a component's label (its entity's)


__all__ = ["EMPTY_VALUE", "LABEL_OF", "closed_gaps", "entity_label", "plain_label"]
