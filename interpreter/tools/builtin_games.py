"""The games that come with Referee (the games/ folder, shipped inside the installed package as
referee/games: in a checkout, a link to games/): found by name (`referee play NAME`),
listed by `referee games`."""
from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Optional

import referee

SUFFIX = ".rules"
MOST_SUMMARY = 80        # characters of a game's line in `referee games`


def games_folder() -> Optional[Path]:
    """Where the built-in games are: inside the installed package, else (a checkout) the
    games/ folder beside the package's folder; None when neither has them."""
    package = Path(referee.__file__).resolve().parent
    for folder in (package / "games", package.parent / "games"):
        if folder.is_dir() and any(folder.glob(f"*{SUFFIX}")):
            return folder.resolve()         # (a checkout's link: the games/ folder itself)
    return None


def builtin_games() -> dict:
    """name -> Path of every built-in game: the games, then their variants (a name is the
    file's name without .rules)."""
    folder = games_folder()
    if folder is None:
        return {}
    found = {}
    for path in sorted(folder.glob(f"*{SUFFIX}")) + sorted(folder.glob(f"variants/*{SUFFIX}")):
        found.setdefault(path.name[:-len(SUFFIX)], path)
    return found


def looks_like_a_name(text: str) -> bool:
    """Whether a FILE given on the command line may be a game's name: one word, no folder, no
    .rules (a path always stays a path)."""
    return bool(re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_'-]*", text or ""))


def builtin_path(name: str) -> Optional[Path]:
    """The file of the built-in game `name` (any case; 'my_game' for 'my-game'), or None."""
    if not looks_like_a_name(name):
        return None
    wanted = name.lower().replace("_", "-")
    games = builtin_games()
    return next((path for found, path in games.items() if found.lower() == wanted), None)


def builtin_name(path) -> Optional[str]:
    """The name of the built-in game whose file is `path` (an absolute path), or None for any
    other file."""
    return builtin_files().get(str(path))


@functools.lru_cache(maxsize=1)
def builtin_files() -> dict:
    """absolute path -> name of every built-in game (once: every log written asks)."""
    return {str(path.resolve()): name for name, path in builtin_games().items()}


def summary(path: Path) -> str:
    """The first sentence of a rules file's opening comment: what the game is, in a line."""
    lines = []
    try:
        with open(path, encoding="utf-8") as file:
            for line in file:
                if not line.startswith("#"):
                    break
                lines.append(line.lstrip("#").strip())
    except (OSError, UnicodeDecodeError):
        return ""
    text = " ".join(line for line in lines if line)
    end = re.search(r"(?<=[a-z0-9)`'\"])\.(\s|$)", text)       # not the dot of an initial ('H. W.')
    sentence = (text[:end.start() + 1] if end else text).strip()
    return sentence if len(sentence) <= MOST_SUMMARY else sentence[:MOST_SUMMARY - 3].rstrip(" ,;") + "..."
