"""Issue 26 at the table: the rules at hand at the prompt, a replay stepped through, the
built-in games by name, logs that replay from any folder, and where two views differ."""
from __future__ import annotations

import re

from referee.interpreter.engine import load_game
from referee.interpreter.tools.verify import verify
from referee.interpreter.tools.view_diff import entry_difference

from .conftest import GAMES
from .test_cli import run

LIARS_DICE = GAMES / "liars-dice.rules"


# ---- bug 10: where two views differ --------------------------------------------------------

def test_verify_flows_shows_the_differing_entry_of_the_view():
    game, diagnostics, _ = load_game(str(LIARS_DICE), players=3)
    assert not diagnostics
    report = verify(game, games=5, leaks="flows")
    messages = [f.message for f in report.failures if f.kind == "leak"]
    assert messages
    for message in messages:
        # a plural subject for 'depend': not "P3's view depend on"
        assert re.search(r"(?<!entries of )P\d's view depend", message) is None
        assert re.search(r"the entries of P\d's view depend on what P\d may not see", message)
        # the entry by its path, and both its values whole (no cut JSON fragment)
        assert 'log[0]: "dice counting as 6: ' in message and "/ \"dice counting as 6: " in message
        assert '...r\'s dice", "log"' not in message


def test_entry_difference_names_the_path_and_clips_both_values():
    a = {"zones": {"hand": [{"label": "token 3"}]}, "log": ["x" * 200 + "1"]}
    b = {"zones": {"hand": [{"label": "token 5"}]}, "log": ["x" * 200 + "1"]}
    assert entry_difference(a, b) == 'zones.hand[0].label: "label": "token 3" / "label": "token 5"'
    long_a, long_b = {"log": ["y" * 150 + "A" + "y" * 150]}, {"log": ["y" * 150 + "B" + "y" * 150]}
    text = entry_difference(long_a, long_b)
    assert text.startswith("log[0]: ...") and "A" in text and "B" in text and len(text) < 160
    assert entry_difference({"log": ["a"]}, {"log": ["a", "b"]}) == 'log[1]: (none) / "b"'
