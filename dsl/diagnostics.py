"""One diagnostic shape for every stage, rendered like a compiler's message."""
from __future__ import annotations

from typing import Iterable, Optional

import attrs

from .ast import Span


@attrs.frozen
class Diagnostic:
    code: str          # E1xx syntax, E2xx names, E3xx types, E4xx structure, E5xx files
    message: str
    span: Span
    hint: Optional[str] = None
    severity: str = "error"

    def render(self, source: Optional[str] = None) -> str:
        head = f"{self.span}: {self.severity}[{self.code}]: {self.message}"
        lines = [head]
        text = source_line(source, self.span.line) if source is not None else None
        if text is not None:
            number = str(self.span.line)
            pad = " " * len(number)
            width = 1
            if self.span.end_line == self.span.line and self.span.end_column > self.span.column:
                width = self.span.end_column - self.span.column
            width = max(1, min(width, len(text) - self.span.column + 1))
            shown, offset, width = clip_around(text, self.span.column - 1, width)
            lines.append(f"{pad} |")
            lines.append(f"{number} | {shown}")
            lines.append(f"{pad} | {' ' * offset}{'^' * width}")
        if self.hint:
            lines.append(f"  help: {self.hint}")
        return "\n".join(lines)

    def to_json(self) -> dict:
        return {
            "file": self.span.file, "line": self.span.line, "column": self.span.column,
            "end_line": self.span.end_line, "end_column": self.span.end_column,
            "severity": self.severity, "code": self.code, "message": self.message,
            "hint": self.hint,
        }


def source_lines(source: str) -> list:
    """The lines of a source as the parser counts them: split at '\\n' only (a '\\f', '\\v',
    '\\x85' or '\\u2028' is a character of its line, as for the parser's columns)."""
    lines = source.split("\n")
    if lines and lines[-1] == "" and len(lines) > 1:
        lines.pop()
    return lines


def source_line(source: Optional[str], line: int) -> Optional[str]:
    """Line `line` as shown under a diagnostic: one character per column, so the caret stands
    under the right one (a tab or any other control character is shown as one space)."""
    if source is None or line < 1:
        return None
    lines = source_lines(source)
    if line > len(lines):
        return None
    text = lines[line - 1]
    if text.endswith("\r"):
        text = text[:-1]
    return "".join(" " if c.isspace() or not c.isprintable() else c for c in text)


SHOWN_WIDTH = 200      # at most this many characters of a source line under a diagnostic
ELLIPSIS = "..."


def clip_around(text: str, caret: int, width: int) -> tuple:
    """(the part of `text` shown, the caret's column in it, the caret's width): a line longer
    than SHOWN_WIDTH is cut to a window around the caret, with an ellipsis on each cut side, so
    a huge line neither floods the terminal nor moves the caret off its character."""
    if len(text) <= SHOWN_WIDTH:
        return text, caret, width
    caret = min(caret, len(text))
    start = max(0, min(caret - SHOWN_WIDTH // 3, len(text) - SHOWN_WIDTH))
    end = min(len(text), start + SHOWN_WIDTH)
    before = ELLIPSIS if start > 0 else ""
    after = ELLIPSIS if end < len(text) else ""
    width = max(1, min(width, end - caret))
    return before + text[start:end] + after, len(before) + caret - start, width


def did_you_mean(name: str, candidates: Iterable[str]) -> Optional[str]:
    import difflib       # (here: only a mistake needs it, and start-up goes without)
    close = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None


class RulesError(Exception):
    """Raised only at the boundary (loading a game) to carry diagnostics; stages return them."""

    def __init__(self, diagnostics, sources=None):
        self.diagnostics = list(diagnostics)
        self.sources = sources or {}
        super().__init__(self.render())

    def render(self) -> str:
        return "\n".join(d.render(self.sources.get(d.span.file)) for d in self.diagnostics)
