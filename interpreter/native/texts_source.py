"""Texts built and read in play in a native kernel (a mixin of rules_source.KernelSource):
`size`, `char_at`, `split_text`, `join`, `to_int` and `text_of` (runtime/stdlib.py's).

A text is a code (list_vars_source.text_code: the rules' texts and params coded as met). A kernel
that calls a text function also holds the characters of its texts (code points, TEXT_CHARS) and
the codes in the order Python gives texts (TEXT_SORTED, searched by halves), with, added as the
rendering ends, the texts play reaches from them: each character of each, and their parts by
each literal separator. A text made in play that is none of those (a join, a number written) is
found or added in a table of the game's own in S (TEXT_BASE: count, characters used, starts,
lengths, characters); past its room, or where Python would stop with an error (none given, an
empty separator, a join past 100,000 characters), or to_int of a text not all ASCII, the game
goes to Python. Texts are only equal or not in the rules, so the codes need no order.
"""
from __future__ import annotations

from referee.dsl import ast
from referee.dsl.limits import MAX_INT_DIGITS, MAX_TEXT
from referee.dsl.types import INT, TEXT, ListOf

from .not_native import NotNative

TEXT_FUNCTIONS_NAMED = ("char_at", "split_text", "join", "to_int", "text_of")
PLAYED_TEXTS = 64           # the texts a game may make in play beyond the kernel's own
PLAYED_CHARS = 4096         # and their characters


def untag(node):
    return ast.untag(node)[0]


def calls_text_functions(program, checked) -> bool:
    """Whether the rules call a text function, `size` of a text too (then the kernel holds the
    texts' characters)."""
    return any(isinstance(node, ast.Call) and (node.name in TEXT_FUNCTIONS_NAMED or node.name == "size" and len(node.arguments) == 1
                                               and checked.type_of(untag(node.arguments[0])) == TEXT)
               for node in ast.walk(program.parts()))


class TextsSource:
    """The text functions for KernelSource (its `expr`, `text_code`, `type_of`, `size`...)."""

    def lay_out_texts(self) -> None:
        """The room of the texts made in play, in S (only in a kernel that calls text functions)."""
        self.text_base = None
        self.separators: set = set()
        if calls_text_functions(self.program, self.checked):
            self.text_base = self.size
            self.size += 2 + 2 * PLAYED_TEXTS + PLAYED_CHARS

    def text_call(self, node, scope):
        """A call of a text function (`size` of a text too), or None."""
        name, args = node.name, node.arguments
        if self.text_base is None:
            return None
        if name == "size" and len(args) == 1 and self.checked.type_of(untag(args[0])) == TEXT:
            return f"len(text_chars(S, {self.text_argument(args[0], scope)}))"
        if name not in TEXT_FUNCTIONS_NAMED:
            return None
        if name == "char_at":
            return f"text_char_at(S, {self.text_argument(args[0], scope)}, {self.expr(args[1], scope, INT)})"
        if name == "split_text":
            separator = untag(args[1])
            if isinstance(separator, ast.Text):
                self.separators.add(separator.value)
            return f"text_split(S, {self.text_argument(args[0], scope)}, {self.text_argument(args[1], scope)})"
        if name == "join":
            if self.type_of(args[0]).without_none() != ListOf(TEXT):
                raise NotNative(f"join of a {self.type_of(args[0]).text}", node.span)
            items = self.expr(args[0], scope, ListOf(TEXT))
            return f"text_join(S, {items}, {self.text_argument(args[1], scope)})"
        if name == "to_int":
            return f"text_to_int(S, {self.text_argument(args[0], scope)})"
        return f"text_written(S, {self.expr(args[0], scope, INT)})"

    def text_argument(self, node, scope) -> str:
        """A text given to a text function: none there is Python's error (the game goes to it)."""
        return f"text_given(S, {self.expr(node, scope, TEXT)})"

    def text_constants(self) -> list:
        """The module's constants of the texts (after the rendering: every text is coded)."""
        if self.text_base is None:
            return []
        texts = list(self.text_codes) if hasattr(self, "text_codes") else []
        for text in list(texts):        # (what play reaches from them: their characters and parts)
            for reached in [*text, *(part for sep in sorted(self.separators) for part in text.split(sep))]:
                self.text_code(reached)
        texts = list(self.text_codes) if hasattr(self, "text_codes") else []
        starts = [0]
        for text in texts:
            starts.append(starts[-1] + len(text))
        chars = [ord(c) for text in texts for c in text]
        ordered = sorted(range(len(texts)), key=texts.__getitem__)
        return [f"TEXT_BASE = {self.text_base}", f"STATIC_TEXTS = {len(texts)}",
                f"PLAYED_TEXTS = {PLAYED_TEXTS}", f"PLAYED_CHARS = {PLAYED_CHARS}",
                f"MAX_TEXT = {MAX_TEXT}", f"INT_NONE_CODE = {-(2 ** 63)}", f"MAX_INT_DIGITS = {MAX_INT_DIGITS}",
                f"TEXT_STARTS = np.array({starts}, dtype=np.int64)",
                f"TEXT_CHARS = np.array({chars}, dtype=np.int64)",
                f"TEXT_SORTED = np.array({ordered}, dtype=np.int64)"]

    def text_functions(self) -> str:
        return TEXT_FUNCTIONS if self.text_base is not None else ""


TEXT_FUNCTIONS = '''
@njit
def text_given(S, code):
    """A text given to a text function; none is Python's error."""
    if code < 0:
        S[ERROR] = 1
        return 0
    return code


@njit
def text_chars(S, code):
    """The code points of a text (a copy): the kernel's own, or one made in play (in S)."""
    if code < STATIC_TEXTS:
        return TEXT_CHARS[TEXT_STARTS[code]:TEXT_STARTS[code + 1]].copy()
    k = code - STATIC_TEXTS
    start = TEXT_BASE + 2 + 2 * PLAYED_TEXTS + S[TEXT_BASE + 2 + k]
    return S[start:start + S[TEXT_BASE + 2 + PLAYED_TEXTS + k]].copy()


@njit
def chars_order(a, b):
    """-1, 0 or 1: a before, equal to or after b, as Python orders texts (by code points)."""
    for k in range(min(len(a), len(b))):
        if a[k] != b[k]:
            return -1 if a[k] < b[k] else 1
    return -1 if len(a) < len(b) else (1 if len(a) > len(b) else 0)


@njit
def text_found(S, chars):
    """The code of the text of these code points: found among the kernel's (by halves), or
    among those made in play, or added to them (past their room: to Python)."""
    low, high = 0, STATIC_TEXTS
    while low < high:
        middle = (low + high) // 2
        order = chars_order(text_chars(S, TEXT_SORTED[middle]), chars)
        if order == 0:
            return TEXT_SORTED[middle]
        if order < 0:
            low = middle + 1
        else:
            high = middle
    made = S[TEXT_BASE]
    for k in range(made):
        if chars_order(text_chars(S, STATIC_TEXTS + k), chars) == 0:
            return STATIC_TEXTS + k
    used = S[TEXT_BASE + 1]
    if made == PLAYED_TEXTS or used + len(chars) > PLAYED_CHARS:
        S[ERROR] = 1
        return 0
    S[TEXT_BASE + 2 + made] = used
    S[TEXT_BASE + 2 + PLAYED_TEXTS + made] = len(chars)
    start = TEXT_BASE + 2 + 2 * PLAYED_TEXTS + used
    S[start:start + len(chars)] = chars
    S[TEXT_BASE] = made + 1
    S[TEXT_BASE + 1] = used + len(chars)
    return STATIC_TEXTS + made


@njit
def text_char_at(S, code, index):
    """char_at: the character at a position from 1, none (-1) outside; a none position: Python's error."""
    chars = text_chars(S, code)
    if index == INT_NONE_CODE:
        S[ERROR] = 1
        return -1
    if 1 <= index <= len(chars):
        return text_found(S, chars[index - 1:index])
    return -1


@njit
def text_split(S, code, separator):
    """split_text: the parts between the separators (str.split's); by the empty text: Python's error."""
    chars, sep = text_chars(S, code), text_chars(S, separator)
    parts = np.empty(len(chars) + 1, dtype=np.int64)
    if len(sep) == 0:
        S[ERROR] = 1
        return parts[:0]
    n, start, k = 0, 0, 0
    while k + len(sep) <= len(chars):
        if chars_order(chars[k:k + len(sep)], sep) == 0:
            parts[n] = text_found(S, chars[start:k])
            n += 1
            k += len(sep)
            start = k
        else:
            k += 1
    parts[n] = text_found(S, chars[start:])
    return parts[:n + 1]


@njit
def text_join(S, codes, separator):
    """join: the texts one after the other, the separator between two (past MAX_TEXT: Python's error)."""
    sep = text_chars(S, separator)
    size = len(sep) * max(len(codes) - 1, 0)
    for code in codes:
        size += len(text_chars(S, text_given(S, code)))
    if size > MAX_TEXT:
        S[ERROR] = 1
        return 0
    out = np.empty(size, dtype=np.int64)
    n = 0
    for k in range(len(codes)):
        if k > 0:
            out[n:n + len(sep)] = sep
            n += len(sep)
        chars = text_chars(S, text_given(S, codes[k]))
        out[n:n + len(chars)] = chars
        n += len(chars)
    return text_found(S, out)


@njit
def text_to_int(S, code):
    """to_int: the whole number the text writes, outer spaces aside, else none; a text not all
    ASCII goes to Python (str.strip knows the other spaces)."""
    chars = text_chars(S, code)
    for c in chars:
        if c > 127:
            S[ERROR] = 1
            return INT_NONE_CODE
    low, high = 0, len(chars)
    while low < high and (9 <= chars[low] <= 13 or 28 <= chars[low] <= 32):
        low += 1
    while high > low and (9 <= chars[high - 1] <= 13 or 28 <= chars[high - 1] <= 32):
        high -= 1
    sign = 1
    if low < high and (chars[low] == 45 or chars[low] == 43):
        sign = -1 if chars[low] == 45 else 1
        low += 1
    if low == high or high - low > MAX_INT_DIGITS:
        return INT_NONE_CODE
    value = 0
    for k in range(low, high):
        if not 48 <= chars[k] <= 57:
            return INT_NONE_CODE
        value = value * 10 + (chars[k] - 48)
    return sign * value


@njit
def text_written(S, number):
    """text_of: a whole number written as a text; none: Python's error."""
    if number == INT_NONE_CODE:
        S[ERROR] = 1
        return 0
    digits = np.empty(21, dtype=np.int64)
    n, rest = 0, abs(number)
    while True:
        digits[n] = 48 + rest % 10
        n += 1
        rest //= 10
        if rest == 0:
            break
    if number < 0:
        digits[n] = 45
        n += 1
    return text_found(S, digits[:n][::-1].copy())
'''
