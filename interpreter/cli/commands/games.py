"""`referee games`: the games that come with Referee, by the name that stands for their file
in any command (`referee play NAME`): players, title and what the game is, in a line."""
from __future__ import annotations

from referee.dsl.program import load_program

from ...engine.params import player_range
from ...tools.builtin_games import builtin_games, games_folder, summary
from ...tools.report import Table
from ..common import print_summary
from ..errors import OK


def players_text(low, high) -> str:
    return str(low) if low == high else f"{low}-{high}"


def game_entry(name, path) -> dict:
    program, _, _ = load_program(str(path))
    title = (program.game.title if program is not None and program.game is not None else None) or name
    low, high = player_range(program) if program is not None else (None, None)
    return {"name": name, "title": title, "players": [low, high], "summary": summary(path),
            "file": str(path), "variant": path.parent.name == "variants"}


def cmd_games(args) -> int:
    entries = [game_entry(name, path) for name, path in builtin_games().items()]
    folder = games_folder()
    rows = [(e["name"], players_text(*e["players"]), e["summary"] or e["title"]) for e in entries]
    lines = [Table(("game", "players", "what it is"), rows, align=("left", "right", "left")), "",
             f"{len(entries)} games in {folder}: give a name where a command takes FILE, "
             "e.g. referee play NAME (a path, when there is a file there, wins over a name)"]
    print_summary(args, {"folder": str(folder) if folder else None, "games": entries}, lines)
    return OK
