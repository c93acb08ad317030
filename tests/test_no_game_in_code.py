"""Rule 1: dsl/ and interpreter/ never name a game or its things. The games' names (file names
and titles) and the distinctive names their rules declare (those with a capital or an
underscore: components, boards, enums, places, fns, actions, zones...) must not stand as words
in the code, its comments, docstrings or help texts; an example there uses a made-up game."""
import re
from pathlib import Path

import pytest

from referee.dsl.builtins import BUILTIN_ENUMS
from referee.dsl.program import load_program
from referee.dsl.symbols import Symbols

ROOT = Path(__file__).resolve().parent.parent
GAME_FILES = sorted((ROOT / "games").glob("*.rules")) + sorted((ROOT / "games" / "variants").glob("*.rules"))
CODE = sorted(p for top in ("dsl", "interpreter") for p in (ROOT / top).rglob("*")
              if p.suffix in (".py", ".lark"))
KINDS = ("enums", "members", "components", "boards", "zones", "vars", "params", "options",
         "functions", "procedures", "actions", "places")

# generic words that a game declares and the language or the code may use on its own
ALLOWED = {"Card", "Cell", "Square", "Rank", "Colour", "Route"}

# (file, word) still there in modules other engineers own, to be taken away; none may be added
KNOWN: set = set()


def game_names() -> dict:
    """A pattern for each game's name (its file's and its title), any case, its words joined by
    a space, a hyphen, an underscore or nothing -> the game."""
    found = {}
    for path in GAME_FILES:
        program, errors, _ = load_program(str(path))
        assert not errors, path
        for name in {path.stem, program.game.title}:
            words = re.split(r"[-_ ]+", name.replace("'", "'?"))
            found[r"[-_ ]?".join(words)] = path.stem
    return found


def declared_names() -> dict:
    """The distinctive names the games declare -> the games that declare them."""
    found: dict = {}
    for path in GAME_FILES:
        program, errors, _ = load_program(str(path))
        assert not errors, path
        symbols = Symbols.of(program)
        for kind in KINDS:
            for name in getattr(symbols, kind):
                builtin = name in BUILTIN_ENUMS or (kind == "members" and symbols.members[name] in BUILTIN_ENUMS)
                if not builtin and (name != name.lower() or "_" in name) and name not in ALLOWED:
                    found.setdefault(name, set()).add(path.stem)
    return found


def named_in(path: Path, patterns: dict, flags=0) -> list:
    """(word, game, line number) for each pattern standing as a word in the file."""
    text = path.read_text(encoding="utf-8")
    joined = re.compile(r"(?<![\w-])(" + "|".join(f"(?:{p})" for p in patterns) + r")(?![\w-])", flags)
    hits = []
    for number, line in enumerate(text.splitlines(), 1):
        for match in joined.finditer(line):
            word = match.group(1)
            game = next(g for p, g in patterns.items() if re.fullmatch(p, word, flags))
            hits.append((word, game, number))
    return hits


def test_no_game_is_named_in_the_code():
    names = game_names()
    hits = [f"{p.relative_to(ROOT)}:{n}: {w!r} ({g})" for p in CODE for w, g, n in named_in(p, names, re.IGNORECASE)]
    assert hits == []


def test_no_game_thing_is_named_in_the_code():
    names = {re.escape(name): ", ".join(sorted(games)) for name, games in declared_names().items()}
    hits = {(str(p.relative_to(ROOT)), w): f"{p.relative_to(ROOT)}:{n}: {w!r} ({g})"
            for p in CODE for w, g, n in named_in(p, names)}
    assert sorted(line for key, line in hits.items() if key not in KNOWN) == []
    assert KNOWN - set(hits) == set(), "a known name is gone: take it out of KNOWN"


@pytest.mark.parametrize("line, found", [
    ("a tic-tac-toe board", ["tic-tac-toe"]), ("Tic Tac Toe", ["Tic Tac Toe"]),
    ("liars_dice and Liar's dice", ["liars_dice", "Liar's dice"]), ("tic-tac-toe-like", []),
])
def test_the_search_finds_a_name_in_any_spelling(tmp_path, line, found):
    path = tmp_path / "x.py"
    path.write_text(f"# {line}\n", encoding="utf-8")
    patterns = {r"tic[-_ ]?tac[-_ ]?toe": "tic-tac-toe", r"liar'?s[-_ ]?dice": "liars-dice"}
    assert [w for w, _, _ in named_in(path, patterns, re.IGNORECASE)] == found
