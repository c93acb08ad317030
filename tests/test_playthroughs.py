"""Every game has a golden playthrough, and playing it again gives the same text."""

import pytest

from tests.golden import FOLDER, PLAYTHROUGHS, ROOT, golden_name, play


@pytest.mark.parametrize("key", sorted(PLAYTHROUGHS))
def test_golden_playthrough_is_reproduced(key):
    expected = (FOLDER / golden_name(key)).read_text()
    assert play(key) == expected, "regenerate with 'python -m tests.golden' if the change is intended"


def test_every_game_has_a_golden_playthrough():
    games = {str(p.relative_to(ROOT)) for p in (ROOT / "games").glob("*.rules")}
    covered = {key.partition("#")[0] for key in PLAYTHROUGHS}
    assert games <= covered, f"games without a golden playthrough: {sorted(games - covered)}"
