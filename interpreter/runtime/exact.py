"""Exact fractions: what the rules' '/' makes (a `real`).

`quotient(a, b, span)` is a `fractions.Fraction`, reduced, or an int when the division is exact
(`6 / 3` is 2), so that a whole number stays an int wherever it goes (labels, indexes of tables,
equality with other numbers). Python's Fraction already adds, compares, rounds down (`//`, an
int) and prints as `1/3`, which is how labels, views and logs' texts show it; `State.returns()`
gives floats.
"""
from __future__ import annotations

from fractions import Fraction

from referee.dsl.limits import MAX_NUMBER

from .errors import RulesRuntimeError


def quotient(a, b, span):
    """a / b of the rules, exact. Division by zero, or a fraction whose numerator or
    denominator goes past the limit of numbers, is a located error."""
    if not b:
        raise RulesRuntimeError("division by zero", span)
    value = Fraction(a, b)
    if not (abs(value.numerator) <= MAX_NUMBER and value.denominator <= MAX_NUMBER):
        raise RulesRuntimeError(f"the fraction {value} has more digits than the limit of +-{MAX_NUMBER:.0e} "
                                "(see the limits in docs/language.md)", span)
    return value.numerator if value.denominator == 1 else value


def bounded(value, span):
    """A number the rules just made where it may grow without bound (a product of two values,
    a sum of fractions: x * x round after round squares its digits), checked against the limit
    of numbers before it grows any further; a whole fraction as an int."""
    if value.__class__ is int:
        if -MAX_NUMBER <= value <= MAX_NUMBER:
            return value
        number_too_large(value, span)
    if value.__class__ is Fraction:
        if not (abs(value.numerator) <= MAX_NUMBER and value.denominator <= MAX_NUMBER):
            raise RulesRuntimeError(f"the fraction {value} has more digits than the limit of +-{MAX_NUMBER:.0e} "
                                    "(see the limits in docs/language.md)", span)
        return value.numerator if value.denominator == 1 else value
    return value


def number_too_large(value, span):
    raise RulesRuntimeError(f"a number of {len(str(abs(value)))} digits, beyond the limit of +-{MAX_NUMBER:.0e} "
                            f"(see the limits in docs/language.md)", span)

