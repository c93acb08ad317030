"""Python source being written as text, line by line with its spans: the statement compiler's
output until it is lowered to the IR (ir.py)."""
from __future__ import annotations

from .source_text import SPREAD


class Lines:
    """Python source being written, with its indentation, and for each line the span of the
    rules text it comes from (so that an error raised there points at the rules file)."""

    def __init__(self, span=None):
        self.lines = []
        self.spans = []
        self.span = span
        self.offset = 0         # added to every indent (a block written inside another)

    def add(self, indent, text):
        self.lines.append("    " * (indent + self.offset) + text)
        self.spans.append(self.span)


def unless(out, test, action):
    """`if not (test): action` at the top of a function, over two lines when long."""
    if len(test) + len(action) > SPREAD:
        out.add(1, f"if not ({test}):")
        out.add(2, action)
    else:
        out.add(1, f"if not ({test}): {action}")
