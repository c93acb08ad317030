"""What reaches whom: the seed only where no seated human can use it, the spectator's view
(a viewer who owns nothing), and `replay`'s one perspective (a spectator's, or --player N's).

The seed fixes every shuffle, so a human at the table who knew it could work out every hidden
card: `play` shows it at the start only when every seat is a bot, else once the game has
stopped; default seeds are 64 bits from the OS and round-trip through logs and `replay`."""
from __future__ import annotations

import json
import re

import pytest

from referee.interpreter.cli.commands import play as cli
from referee.interpreter.runtime import random_source
from referee.interpreter.play.bots import RandomBot
from referee.interpreter.engine import PUBLIC, load_game
from referee.interpreter.tools.gamelog import read_log, replay
from referee.interpreter.tools.leaks import find_leak

from .test_cli import CONTINENTS, DEAD_END, ROOT, TTT, run

SEED = 987_654_321_987          # long enough not to appear by chance in a view
BIG = 2 ** 64 - 1


def seed_texts(out, seed):
    """Where the seed is written in the output."""
    return [m.start() for m in re.finditer(rf"(?<!\d){seed}(?!\d)", out)]


def seed_line(out, seed):
    """Where the line 'seed: S' writes the seed."""
    return out.index(f"\nseed: {seed}\n") + len("\nseed: ")


# ---- play: the seed --------------------------------------------------------------------

def test_default_seeds_are_64_bits_from_the_os(capsys, monkeypatch, tmp_path):
    seeds = {cli.new_seed() for _ in range(8)}
    assert len(seeds) == 8 and all(0 <= s < 2 ** 64 for s in seeds)
    assert max(seeds) >= 2 ** 40                 # not one of a million (fails with odds 2^-192)
    monkeypatch.setattr(cli.secrets, "randbits", lambda bits: BIG if bits == 64 else 0)
    log = tmp_path / "game.json"
    code, out, _ = run(capsys, "play", TTT, "--bot", "2=first", "--log", log, stdin="quit\n",
                       monkeypatch=monkeypatch)
    assert code == 3 and json.loads(log.read_text())["seed"] == BIG
    assert out.endswith(f"game abandoned after 0 moves\nseed: {BIG}\n")


def test_a_human_sees_the_seed_only_once_the_game_has_stopped(capsys, monkeypatch):
    # P1 human; P2 takes the first free cell: b2 (a1) b1 (c1) b3 wins
    code, out, _ = run(capsys, "play", TTT, "--seed", SEED, "--bot", "2=first",
                       stdin="b2\nb1\nb3\n", monkeypatch=monkeypatch)
    assert code == 0
    assert not out.startswith("Tic-tac-toe · 2 players · seed")
    assert out.splitlines()[0] == "Tic-tac-toe · 2 players · options: none"
    assert seed_texts(out, SEED) == [seed_line(out, SEED)]
    assert out.endswith(f"result: P1 wins\nscores: P1 1 · P2 0\nseed: {SEED}\n")


def test_a_human_with_hidden_cards_is_not_shown_the_seed_mid_game(capsys, monkeypatch):
    # Continents: hands and draw piles are hidden; the human quits after two moves
    code, out, _ = run(capsys, "play", CONTINENTS, "--players", 3, "--seed", SEED,
                       stdin="1\n1\nquit\n", monkeypatch=monkeypatch)
    assert code == 3
    stopped = out.index("game abandoned after")
    assert out.count("P1> ") == 3 and "P2's hand: 5 hidden" in out
    assert seed_texts(out, SEED) == [seed_line(out, SEED)] and seed_line(out, SEED) > stopped


def test_end_of_input_and_runtime_errors_show_the_seed_after_the_game(capsys, monkeypatch, tmp_path):
    code, out, _ = run(capsys, "play", TTT, "--seed", SEED, "--bot", "2=first", stdin="b2\n",
                       monkeypatch=monkeypatch)
    assert code == 3
    assert out.endswith(f"end of input: the game is unfinished after 2 moves\nseed: {SEED}\n")
    assert len(seed_texts(out, SEED)) == 1
    # a runtime error stops the game: its report (stderr) gives the seed, nothing before it does
    stuck = tmp_path / "stuck.rules"
    stuck.write_text(DEAD_END)
    code, out, err = run(capsys, "play", stuck, "--seed", SEED, "--bot", "2=first", stdin="a1\nc1\n",
                         monkeypatch=monkeypatch)
    assert code == 70 and seed_texts(out, SEED) == []
    assert err.endswith(f"(after 3 moves; seed {SEED})\n")


def test_quiet_humans_get_no_seed_line(capsys, monkeypatch, tmp_path):
    log = tmp_path / "game.json"
    code, out, _ = run(capsys, "play", TTT, "--seed", SEED, "--bot", "2=first", "--quiet", "--log", log,
                       stdin="b2\nb1\nb3\n", monkeypatch=monkeypatch)
    assert code == 0 and seed_texts(out, SEED) == []
    assert json.loads(log.read_text())["seed"] == SEED        # the log has it


def test_all_bot_games_show_the_seed_first_and_once(capsys):
    code, out, _ = run(capsys, "play", TTT, "--bot", "all=random", "--seed", SEED)
    assert code == 0
    assert out.splitlines()[0] == f"Tic-tac-toe · 2 players · seed {SEED} · options: none"
    assert len(seed_texts(out, SEED)) == 1 and "seed:" not in out


def test_the_final_view_is_the_humans_or_a_spectators(capsys, monkeypatch):
    # P2 human (move 1 each time) against random P1 and P3: P2's view at the end, not P1's
    code, out, _ = run(capsys, "play", CONTINENTS, "--players", 3, "--seed", 5, "--bot", "1=random",
                       "--bot", "3=random", stdin="1\n" * 400, monkeypatch=monkeypatch)
    assert code == 0
    final = out[out.rindex("P2> "):].split("\n\n")[1]
    assert " · game over: " in final.splitlines()[0] and final.splitlines()[0].endswith("view of P2")
    assert re.search(r"^  P1's hand: (\d+ hidden|empty)$", final, re.M)
    # every seat a bot: the spectator's view, nobody's hand
    code, out, _ = run(capsys, "play", CONTINENTS, "--players", 3, "--seed", 5, "--bot", "all=random")
    final = out.split("\n\n")[-2]
    assert final.splitlines()[0].endswith("spectator's view")
    assert not re.search(r"^  hand\[P\d\]: (?!\d+ hidden|empty)", final, re.M)


# ---- the spectator's view: a viewer who owns nothing -------------------------------------

@pytest.mark.parametrize("name, players", [("continents", 3), ("titicaca", 3), ("solstis", 2)])
def test_the_spectators_view_holds_only_what_every_seat_may_see(name, players):
    game, diagnostics, _ = load_game(str(ROOT / "games" / f"{name}.rules"), (), players)
    assert not diagnostics
    state = game.new_initial_state(11)
    bot = RandomBot(11)
    checked = masked = 0
    for number in range(80):
        if state.is_terminal():
            break
        if number % 8 == 0:
            checked += 1
            view = state.view(PUBLIC)
            seats = {p: state.view(p) for p in range(1, players + 1)}
            assert view["player"] == PUBLIC and "legal_moves" not in view
            for zone, entry in view["zones"].items():
                visibility = game.zone_meta[zone.partition("[")[0]][1]
                items = entry.get("items", [])
                if visibility == "public":
                    assert len(items) == entry["count"]
                elif visibility == "top":
                    assert len(items) == min(1, entry["count"])
                else:
                    assert "items" not in entry            # hidden, or some seat's own
                masked += sum("id" not in item for item in items)
                for p, seen in seats.items():
                    assert len(seen["zones"][zone].get("items", [])) >= len(items)
                    # each item as every seat sees it, or masked (and with no id) where p owns it
                    for item, theirs in zip(items, seen["zones"][zone].get("items", [])):
                        assert item == theirs or ("id" not in item and theirs.get("owner") == p)
            for var, value in view["vars"].items():         # every seat sees them the same
                assert all(seen["vars"][var] == value for seen in seats.values())
            assert find_leak(state, PUBLIC, random_source.seed_state(number)) is None
        state.apply(bot.choose(state))
    assert checked >= 3
    assert masked or name != "titicaca"         # its temples: their values only their owner sees


# ---- replay: one perspective -------------------------------------------------------------

@pytest.fixture
def unfinished_log(capsys, tmp_path):
    """A Continents log stopped after 7 moves (so a seat is to move), of seed SEED."""
    code, _, _ = run(capsys, "simulate", CONTINENTS, "--players", 3, "-n", 1, "--seed", SEED,
                     "--max-moves", 7, "--log", tmp_path, "--jobs", 1)
    assert code == 0
    path = tmp_path / f"game-{SEED}.json"
    log, error = read_log(path)
    state, error = replay(log)
    assert error is None and not state.is_terminal()
    return path, state


def hands_shown(view) -> set:
    return {zone for zone, entry in view["zones"].items() if zone.startswith("hand[") and "items" in entry}


@pytest.mark.slow
def test_replay_json_is_a_spectators_by_default(capsys, unfinished_log):
    path, state = unfinished_log
    code, out, _ = run(capsys, "replay", path, "--json")
    assert code == 0
    shown = json.loads(out)
    assert shown["player"] is None and shown["final_view"] == json.loads(json.dumps(state.view(PUBLIC)))
    assert shown["final_view"]["player"] == PUBLIC and hands_shown(shown["final_view"]) == set()
    assert shown["to_move"] == state.current_player() and shown["legal_moves"] == []
    assert "legal_moves" not in shown["final_view"]
    assert shown["moves"] == 7 and shown["terminal"] is False and shown["scores"] == state.scores()
    assert str(SEED) not in out                      # the log has it; the JSON need not
    # the text: the spectator's view, and the seed in the first line (the reader has the log)
    code, out, _ = run(capsys, "replay", path)
    first, _, rest = out.partition("\n")
    assert code == 0 and f"seed {SEED}" in first and "spectator's view" in rest.splitlines()[1]
    assert "legal moves:" not in out and not re.search(r"^  hand\[P\d\]: (?!\d+ hidden)", out, re.M)


@pytest.mark.slow
def test_replay_player_n_is_that_seats_view_only(capsys, unfinished_log):
    path, state = unfinished_log
    seat = state.current_player()
    other = seat % 3 + 1
    code, out, _ = run(capsys, "replay", path, "--json", "--player", seat)
    shown = json.loads(out)
    assert code == 0 and shown["player"] == seat and shown["to_move"] == seat
    assert shown["final_view"] == json.loads(json.dumps(state.view(seat)))
    assert shown["legal_moves"] == shown["final_view"]["legal_moves"] == state.legal_move_names()
    assert hands_shown(shown["final_view"]) == {f"hand[P{seat}]"}
    assert str(SEED) not in out
    # a seat not to move: its view, and no one's legal moves
    code, out, _ = run(capsys, "replay", path, "--json", "--player", other)
    shown = json.loads(out)
    assert code == 0 and shown["legal_moves"] == [] and "legal_moves" not in shown["final_view"]
    assert hands_shown(shown["final_view"]) == {f"hand[P{other}]"}
    # the text: its view, its legal moves when it is to move, never the seed
    code, out, _ = run(capsys, "replay", path, "--player", seat)
    out = out.replace(str(path), "LOG")              # simulate names its logs after their seeds
    assert code == 0 and seed_texts(out, SEED) == [] and f"view of P{seat}" in out
    assert out.count("legal moves:") == 1 and f"  1. {state.legal_move_names()[0]}" in out
    code, out, _ = run(capsys, "replay", path, "--player", other)
    assert code == 0 and "legal moves:" not in out and f"view of P{other}" in out


def test_replay_player_out_of_range(capsys, unfinished_log):
    path, _ = unfinished_log
    code, _, err = run(capsys, "replay", path, "--player", 4)
    assert code == 2 and "referee replay: error: argument --player: the game of this log has 3 players, not 4" in err
    code, out, _ = run(capsys, "replay", path, "--player", 4, "--json")
    assert code == 2 and json.loads(out)["exit_code"] == 2
    code, _, err = run(capsys, "replay", path, "--player", 0)
    assert code == 2 and "must be at least 1" in err


# ---- 64-bit seeds round-trip ---------------------------------------------------------------

@pytest.mark.slow
def test_64_bit_seeds_round_trip_through_logs_replay_simulate_and_verify(capsys, tmp_path):
    log = tmp_path / "big.json"
    code, out, _ = run(capsys, "play", CONTINENTS, "--players", 3, "--bot", "all=random", "--seed", BIG,
                       "--brief", "--log", log)
    assert code == 0 and f"seed {BIG}" in out.splitlines()[0]
    recorded, error = read_log(log)
    assert error is None and recorded["seed"] == BIG and f'"seed": {BIG}' in log.read_text()
    state, error = replay(recorded)
    assert error is None and state.is_terminal()
    code, out, _ = run(capsys, "replay", log)
    assert code == 0 and f"seed {BIG}" in out
    # simulate's seeds S+i go on past 2^64 - 1 (the generator takes a seed's low 64 bits)
    code, out, _ = run(capsys, "simulate", TTT, "-n", 2, "--seed", BIG - 1, "--log", tmp_path / "logs",
                       "--jobs", 1)
    assert code == 0 and f"(seeds {BIG - 1}..{BIG})" in out
    for seed in (BIG - 1, BIG):
        code, _, _ = run(capsys, "replay", tmp_path / "logs" / f"game-{seed}.json")
        assert code == 0
    code, out, _ = run(capsys, "verify", TTT, "-n", 2, "--seed", BIG, "--jobs", 1, "--json")
    assert code == 0 and json.loads(out)["results"][0]["games"] == 2


# DEAD_END whose flow fails before the first move (has_line given none)
SETUP_FAILS = DEAD_END.replace("flow {\n", """var length: int? = none
flow {
  if has_line(filter(c in Cell where mark[c] == none), length) {
    finish
  }
""")


def test_a_runtime_error_while_setting_up_gives_the_seed(capsys, monkeypatch, tmp_path):
    broken = tmp_path / "broken.rules"
    broken.write_text(SETUP_FAILS)
    monkeypatch.setattr(cli.secrets, "randbits", lambda bits: SEED)
    code, out, err = run(capsys, "play", broken, stdin="", monkeypatch=monkeypatch)
    assert code == 70 and seed_texts(out, SEED) == []
    assert err.startswith("runtime error: has_line of none")
    assert err.endswith(f"(while setting up; seed {SEED})\n")
