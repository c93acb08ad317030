"""How values and components read as text: plain values, labels as a seat sees them (the
runtime's, which generated code calls too)."""
from operator import itemgetter

from ..runtime.values import entity_label, plain_label

LABEL_OF = itemgetter("__label__")      # a component's label (its entity's)

EMPTY_VALUE = "\x00"     # stands for a {value} of a label that came out empty, until closed_gaps
# each EMPTY_VALUE goes with one of the spaces around it: 'take {[]} now' reads 'take now'
GAP_CLOSINGS = ((" \x00 ", " "), ("\x00 ", ""), (" \x00", ""), ("\x00", ""))


def closed_gaps(text: str) -> str:
    """A label without the gaps its empty values leave ('take  now' would show a gap)."""
    if EMPTY_VALUE not in text:
        return text
    for gap, closed in GAP_CLOSINGS:
        text = text.replace(gap, closed)
    return text


def closed_gaps_lines(text_source: str) -> list:
    """closed_gaps as lines of a generated function returning text_source (str methods alone:
    a compiled module needs no function of the engine to run it; short lines)."""
    lines = [f"    t = {text_source}", f"    if {EMPTY_VALUE!r} in t:"]
    lines += [f"        t = t.replace({gap!r}, {closed!r})" for gap, closed in GAP_CLOSINGS]
    return lines + ["    return t"]


__all__ = ["EMPTY_VALUE", "LABEL_OF", "closed_gaps", "closed_gaps_lines", "entity_label", "plain_label"]
