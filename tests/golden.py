"""Golden playthroughs: a fixed seed, a fixed move policy, and what every player saw.

Regenerate after an intended change with:  python -m tests.golden
Each file records the moves and, every few moves and at the end, each seat's view, so that a
change to the rules, the engine or the views shows up as a readable diff.
"""
from __future__ import annotations

import sys
from pathlib import Path

from referee.interpreter.runtime import random_source
from referee.interpreter.engine import load_game

ROOT = Path(__file__).resolve().parents[1]
FOLDER = Path(__file__).resolve().parent / "playthroughs"

# rules file -> (players, options, seed)
PLAYTHROUGHS = {
    "games/tic-tac-toe.rules": (2, (), 3),
    "games/connect-four.rules": (2, (), 5),
    "games/continents.rules": (3, (), 7),
    "games/continents.rules#normal": (2, ("normal",), 11),
    "games/solstis.rules": (2, (), 13),
    "games/solstis.rules#discovery": (2, ("discovery",), 17),
    "games/titicaca.rules": (3, (), 19),
    "games/kuhn-poker.rules": (2, (), 30),
    "games/goofspiel.rules": (2, (), 29),
    "games/othello.rules": (2, (), 31),
    "games/liars-dice.rules": (3, (), 37),
    "games/leduc-poker.rules": (2, (), 41),
    "games/love-letter.rules": (3, (), 43),
    "games/hearts.rules": (4, (), 47),
    "games/hearts.rules#openspiel": (4, ("openspiel",), 61),
    "games/backgammon.rules": (2, (), 53),
    "games/backgammon.rules#cube": (2, ("cube",), 59),
    "games/checkers.rules": (2, (), 53),
    "games/the-resistance.rules#5p": (5, (), 67),
    "games/the-resistance.rules#7p": (7, (), 71),
    "games/the-resistance.rules#10p": (10, (), 73),
    "games/dominion.rules#2p": (2, (), 79), "games/dominion.rules#4p": (4, (), 103),
    "games/skull.rules#3p": (3, (), 79), "games/skull.rules#6p": (6, (), 83),
    "games/ticket-to-ride.rules": (2, (), 89),
}
VIEW_EVERY = 10


def golden_name(key: str) -> str:
    path, _, tag = key.partition("#")
    return Path(path).stem + (f"-{tag}" if tag else "") + ".txt"


def compact_view(view: dict) -> list[str]:
    lines = []
    for name in sorted(view["zones"]):
        zone = view["zones"][name]
        if "items" in zone:
            shown = ", ".join(item["label"] for item in zone["items"]) or "-"
            lines.append(f"  {name}: {shown}")
        else:
            lines.append(f"  {name}: {zone['count']} hidden")
    for name in sorted(view["vars"]):
        lines.append(f"  {name} = {view['vars'][name]}")
    for board, data in sorted(view["boards"].items()):
        marks = [f"{c['label']}:{'/'.join(c['marks'])}" for c in data["cells"] if c["marks"]]
        lines.append(f"  {board}: {' '.join(marks) or 'empty'}")
    return lines


def play(key: str) -> str:
    path, _, _ = key.partition("#")
    players, options, seed = PLAYTHROUGHS[key]
    game, diagnostics, _ = load_game(str(ROOT / path), options, players)
    assert not diagnostics, diagnostics
    state = game.new_initial_state(seed)
    policy = random_source.seed_state(seed * 7 + 1)
    out = [f"# golden playthrough of {path}: players {players}, options {list(options)}, seed {seed}",
           "# regenerate with: python -m tests.golden"]
    step = 0
    while not state.is_terminal():
        moves = state.legal_moves()
        index, policy = random_source.below(policy, len(moves))
        move = moves[index]
        out.append(f"{step:4d} P{state.current_player()} [{len(moves)} legal] {move.name}")
        state.apply(move)
        step += 1
        if step % VIEW_EVERY == 0 or state.is_terminal():
            for seat in range(1, players + 1):
                out.append(f"  -- view of P{seat} after move {step}")
                out.extend(compact_view(state.view(seat)))
        assert step < 5000, "the golden game does not end"
    out.append(f"winners {state.winners} scores {state.scores()} returns {state.returns()}")
    return "\n".join(out) + "\n"


def main():
    FOLDER.mkdir(exist_ok=True)
    for key in PLAYTHROUGHS:
        (FOLDER / golden_name(key)).write_text(play(key))
        print("wrote", FOLDER / golden_name(key))


if __name__ == "__main__":
    sys.exit(main())
