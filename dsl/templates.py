"""Texts with placeholders (labels, refusal reasons, log lines), parsed once into parts: the
literal text and each `{...}` with where it stands in the text.
"""
from __future__ import annotations

import functools
import re
from typing import Union

import attrs

PLACEHOLDER_TEXT = re.compile(r"\{([^{}]*)\}")       # {name} or {expression}
WORD = re.compile(r"\w+")


@attrs.frozen
class Placeholder:
    """`{inside}` at text[start:end] (the braces included); named: it is {name}, not {an
    expression}."""
    inside: str
    start: int
    end: int
    named: bool

    @property
    def written(self) -> str:
        return "{" + self.inside + "}"


@attrs.frozen
class Template:
    text: str
    parts: tuple[Union[str, Placeholder], ...]    # literal texts and placeholders, in order

    @property
    def placeholders(self) -> tuple[Placeholder, ...]:
        return tuple(part for part in self.parts if isinstance(part, Placeholder))

    def split(self) -> tuple[list[tuple[str, Placeholder]], str]:
        """([(the literal text before a placeholder, the placeholder)], the text after the last)."""
        pairs, before = [], ""
        for part in self.parts:
            if isinstance(part, Placeholder):
                pairs.append((before, part))
                before = ""
            else:
                before = part
        return pairs, before


@functools.lru_cache(maxsize=4096)
def parse_template(text: str) -> Template:
    parts: list[Union[str, Placeholder]] = []
    position = 0
    for match in PLACEHOLDER_TEXT.finditer(text):
        if match.start() > position:
            parts.append(text[position:match.start()])
        inside = match.group(1)
        parts.append(Placeholder(inside, match.start(), match.end(), WORD.fullmatch(inside) is not None))
        position = match.end()
    if position < len(text):
        parts.append(text[position:])
    return Template(text, tuple(parts))
