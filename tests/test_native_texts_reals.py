"""Texts and reals in native kernels (issue 24; interpreter/native/reals_source.py):
tests/native/texts-reals.rules (each construct in one small game, at 2 and 3 players, and with
another komi) and the fraction examples of docs/language.md play Python's games move for move,
none handed back. The kernel's fractions are Python's Fraction (a property over the helpers,
the limit of numbers handing the game back), and what has no native form yet is refused with
its rules line."""
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.interpreter.engine import load_game

numba = pytest.importorskip("numba", reason="the native extra (numba) is not installed")
from referee.interpreter.native.rules_source import NotNative, render  # noqa: E402
from tests.native_support import cached_on_disk, kernel_of, natively  # noqa: E402
from tests.test_native_values import docs_game  # noqa: E402

TEXTS_REALS = "tests/native/texts-reals.rules"
TEXT_HELPERS = ("text_found", "text_chars", "text_split", "text_join", "text_to_int", "text_written", "text_char_at")
REAL_HELPERS = ("real_sum", "real_difference", "real_product", "real_divided", "real_remainder",
                "real_order", "real_floor", "real_float")
LIMIT = 10 ** 18


@pytest.fixture(scope="module", params=[2, 3], ids=lambda n: f"{n}p")
def texts_reals(request):
    return kernel_of(TEXTS_REALS, request.param)


def test_texts_and_reals_play_the_python_games(texts_reals):
    records = natively(texts_reals, range(1, 41))
    assert len({tuple(r["returns"]) for r in records}) > 10
    assert any(not float(s).is_integer() for r in records for s in r["scores"])     # (real scores)


def test_params_given_play_the_python_games():
    kernel = kernel_of(TEXTS_REALS, 2, params={"komi": Fraction(7, 3), "start": " 12/o/x.x3/ -4"})
    records = natively(kernel, range(1, 21))
    assert len({tuple(r["scores"]) for r in records}) > 5


@pytest.mark.parametrize("title, players", [("Split the pot", 3), ("Komi", 2), ("Tic-tac-toe from a position", 2)])
def test_the_text_and_fraction_examples_of_the_docs_play_natively(tmp_path, title, players):
    records = natively(kernel_of(docs_game(tmp_path, title), players), range(1, 31))
    assert len({tuple(r["returns"]) for r in records}) > 1


@pytest.fixture(scope="module")
def helpers():
    kernel = kernel_of(TEXTS_REALS, 2)
    cached_on_disk(kernel, *REAL_HELPERS, *TEXT_HELPERS)
    return kernel.module


def fractions(bound):
    return st.builds(Fraction, st.integers(-bound, bound), st.integers(1, bound))


@settings(max_examples=60, deadline=None)
@given(a=st.one_of(fractions(50), fractions(LIMIT)), b=st.one_of(fractions(50), fractions(LIMIT)))
def test_the_kernels_reals_are_fractions_or_go_to_python(helpers, a, b):
    """Each helper gives Fraction's answer, or flags the game for Python: past the limit of
    numbers (Python's error, or a product the kernel does not make), or at a division by zero."""
    pair = (lambda f: (f.numerator, f.denominator))
    expected = {"real_sum": lambda: a + b, "real_difference": lambda: a - b, "real_product": lambda: a * b,
                "real_divided": lambda: a / b, "real_remainder": lambda: a % b}
    for name, made in expected.items():
        S = np.zeros(helpers.STATE_SIZE, dtype=np.int64)
        got = getattr(helpers, name)(S, pair(a), pair(b))
        try:
            value = made()
        except ZeroDivisionError:
            assert S[helpers.ERROR] == 1, name
            continue
        fits = abs(value.numerator) <= LIMIT and value.denominator <= LIMIT
        assert S[helpers.ERROR] == 1 or fits and got == pair(value), (name, a, b, got)
        if max(abs(x) for x in (*pair(a), *pair(b))) <= 50:
            assert S[helpers.ERROR] == 0, (name, a, b)          # (small ones never leave the kernel)
    S = np.zeros(helpers.STATE_SIZE, dtype=np.int64)
    order = helpers.real_order(S, pair(a), pair(b))
    assert S[helpers.ERROR] == 1 or order == (a > b) - (a < b)
    assert helpers.real_floor(pair(a)) == a // 1
    S = np.zeros(helpers.STATE_SIZE, dtype=np.int64)
    assert S[helpers.ERROR] == 0 and helpers.real_float(S, pair(Fraction(1, 3))) == float(Fraction(1, 3))
    as_float = helpers.real_float(S, pair(a))
    assert S[helpers.ERROR] == 1 or as_float == float(a)


def coded(helpers, S, text: str) -> int:
    return helpers.text_found(S, np.array([ord(c) for c in text], dtype=np.int64))


def decoded(helpers, S, code: int) -> str:
    return "".join(map(chr, helpers.text_chars(S, code)))


texts = st.text(alphabet="ab/.x3 -\u00e9", max_size=8)


@settings(max_examples=60, deadline=None)
@given(text=texts, separator=st.text(alphabet="ab/.", min_size=1, max_size=2), parts=st.lists(texts, max_size=4),
       number=st.integers(-10 ** 18, 10 ** 18), index=st.integers(-1, 9))
def test_the_kernels_texts_are_pythons(helpers, text, separator, parts, number, index):
    """The text functions give runtime/stdlib.py's answers, the kernel's own texts and those
    made in play alike (one code a text, whichever way it was made)."""
    from referee.interpreter.runtime import stdlib
    S = np.zeros(helpers.STATE_SIZE, dtype=np.int64)
    code = coded(helpers, S, text)
    assert coded(helpers, S, text) == code and decoded(helpers, S, code) == text
    split = helpers.text_split(S, code, coded(helpers, S, separator))
    assert [decoded(helpers, S, c) for c in split] == text.split(separator)
    joined = helpers.text_join(S, np.array([coded(helpers, S, p) for p in parts], dtype=np.int64), coded(helpers, S, separator))
    assert decoded(helpers, S, joined) == separator.join(parts)
    assert decoded(helpers, S, helpers.text_written(S, number)) == str(number)
    at = helpers.text_char_at(S, code, index)
    assert (None if at == -1 else decoded(helpers, S, at)) == stdlib.char_at(None, text, index)
    assert S[helpers.ERROR] == 0
    value = helpers.text_to_int(S, code)
    assert S[helpers.ERROR] == 1 or (None if value == -(2 ** 63) else value) == stdlib.to_int(None, text)
    assert S[helpers.ERROR] == (not text.isascii())


def test_texts_past_the_room_of_a_game_go_to_python(helpers):
    S = np.zeros(helpers.STATE_SIZE, dtype=np.int64)
    for k in range(helpers.PLAYED_TEXTS):
        coded(helpers, S, f"made {k}")
    assert S[helpers.ERROR] == 0
    coded(helpers, S, "one more")
    assert S[helpers.ERROR] == 1


@pytest.mark.parametrize("text, construct", [
    ("var share: real? = none", "a stored value of type real?"),
    ("var shares: list of real = [1 / 2]", "a variable holding a list of real"),
])
def test_stored_reals_are_refused_with_their_line(tmp_path, text, construct):
    path = tmp_path / "stored.rules"
    path.write_text('game "Stored" {\n  players 2\n  score p: 0\n}\n' + text + "\n"
                    'action wait "wait" {\n}\nflow {\n  turns from 1 until false {\n    play wait\n  }\n}\n')
    game, diagnostics, _ = load_game(str(path), players=2)
    assert game is not None, diagnostics
    with pytest.raises(NotNative) as refused:
        render(game)
    assert construct in refused.value.note() and ":5" in refused.value.note()
