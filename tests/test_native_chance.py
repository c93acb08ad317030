"""Explicit chance in native playouts (issue 24, interpreter/native/chance_source.py): a game
loaded with chance="explicit" (docs/language.md, "Explicit chance") renders natively where it has
no chance node; its first shuffle or pick that would be one is named, with its line, in the note."""
import pytest

from referee.interpreter.engine import load_game

numba = pytest.importorskip("numba", reason="the native extra (numba) is not installed")
from referee.interpreter.native.rules_source import NotNative, render  # noqa: E402


def test_explicit_chance_is_refused_at_its_first_chance_node_only():
    # (a game loaded with explicit chance but no chance node renders as with sampled chance)
    explicit, _, _ = load_game("games/tic-tac-toe.rules", chance="explicit")
    sampled, _, _ = load_game("games/tic-tac-toe.rules")
    assert render(explicit) == render(sampled)
    kuhn, _, _ = load_game("games/kuhn-poker.rules", chance="explicit")
    with pytest.raises(NotNative) as refused:
        render(kuhn)
    assert refused.value.note().startswith("games/kuhn-poker.rules:42: a shuffle as chance nodes")
