"""The web table (interpreter/web/, `referee serve`): seats and tokens, the JSON interface, refusals
as the terminal words them, bots, undo, logs that `referee play --resume` takes, a restart that
keeps the addresses, live updates, the lobby, and the command itself."""
from __future__ import annotations

import argparse
import json
from html import escape
import os
import re
import subprocess
import sys
import time

import pytest

from .web_helpers import RunningServer, events, first_event, game, httpx, table  # noqa: F401  (skips without the extra)

from starlette.testclient import TestClient                             # noqa: E402

from referee.interpreter.gamelog import read_log, replay                # noqa: E402
from referee.interpreter.web.app import TableServer, build_app, seat_path   # noqa: E402
from referee.interpreter.web.serve import resumed_tables                # noqa: E402
from referee.interpreter.web.table import Refused, Table, read_seats, typed_move   # noqa: E402
from referee.interpreter.engine import PUBLIC                           # noqa: E402

from .conftest import ROOT                                             # noqa: E402
from .test_cli import DEAD_END, run                                   # noqa: E402


def client_for(*tables, **server_args):
    server = TableServer(**server_args)
    for t in tables:
        server.add(t)
    return TestClient(build_app(server), base_url="http://127.0.0.1"), server


def stable_headers(response) -> dict:
    return {k: v for k, v in response.headers.items() if k not in ("date",)}


# ---- seats and tokens --------------------------------------------------------------------

def test_every_human_seat_has_its_own_unguessable_token_and_bots_none():
    a, b = table("tic-tac-toe"), table("love-letter", kinds={2: "random"})
    assert sorted(a.tokens) == [1, 2] and sorted(b.tokens) == [1]
    tokens = list(a.tokens.values()) + list(b.tokens.values())
    assert len(set(tokens)) == 3
    for token in tokens:
        assert re.fullmatch(r"[A-Za-z0-9_-]{32}", token)          # 24 bytes of secrets.token_urlsafe: 192 bits
    assert a.seat_of(a.tokens[2]) == 2 and a.seat_of(b.tokens[1]) is None and a.seat_of("") is None
    assert a.seat_of(a.tokens[1][:-1]) is None and a.seat_of(None) is None


def test_a_wrong_or_missing_token_gets_403_and_the_same_bytes_whatever_was_asked():
    a, b = table("tic-tac-toe"), table("kuhn-poker")
    client, _ = client_for(a, b)
    good = seat_path(a, 1)
    wrong = [f"/t/{a.name}/{b.tokens[1]}",           # another table's token
             f"/t/{a.name}/{a.tokens[1][:-2]}",       # a token cut short
             f"/t/{a.name}/",                          # none
             f"/t/nosuch-1/{a.tokens[1]}",            # a table that does not exist
             f"/t/{b.name}/{a.tokens[2]}"]
    with client:
        answers = set()
        for path in wrong:
            for method, suffix in (("GET", ""), ("GET", "/state.json"), ("POST", "/move"), ("POST", "/undo"),
                                   ("GET", "/events")):
                response = client.request(method, path + suffix, json={"move": "b2"})
                assert response.status_code == 403, (method, path + suffix)
                answers.add((response.content, tuple(sorted(stable_headers(response).items()))))
        assert len(answers) == 1
        (body, _), = answers
        assert body == b"forbidden\n"
        assert a.version == 0 and b.version == 0 and a.moves == [] and b.moves == []
        assert client.get(good + "/state.json").status_code == 200


# ---- the JSON interface ------------------------------------------------------------------

def test_two_seats_play_tic_tac_toe_through_the_json_interface():
    t = table("tic-tac-toe", seed=3)
    client, _ = client_for(t)
    with client:
        states = {p: client.get(seat_path(t, p) + "/state.json").json() for p in (1, 2)}
        assert states[1]["to_move"] == 1 and states[1]["legal"] and states[2]["legal"] == []
        assert states[1]["player"] == 1 and states[1]["boards"]["Cell"]["kind"] == "grid"
        played = 0
        while True:
            state = client.get(seat_path(t, 1) + "/state.json").json()
            if state["finished"]:
                break
            seat = state["to_move"]
            mine = client.get(seat_path(t, seat) + "/state.json").json()
            response = client.post(seat_path(t, seat) + "/move", json={"move": mine["legal"][-1], "after": mine["version"]})
            assert response.status_code == 200
            assert response.json()["version"] == mine["version"] + 1
            played += 1
            assert played <= 9
        final = client.get(seat_path(t, 2) + "/state.json").json()
        assert final["finished"] and final["to_move"] is None and final["legal"] == []
        assert final["result"]["outcome"] in ("win", "draw") and final["result"]["text"]
        assert len(t.moves) == played


def test_refusals_are_409_with_the_terminal_s_words_and_change_nothing():
    t = table("tic-tac-toe", seed=1)
    client, _ = client_for(t)
    with client:
        url = seat_path(t, 1)
        assert client.post(url + "/move", json={"move": "B2"}).status_code == 200      # case does not matter
        before = client.get(seat_path(t, 2) + "/state.json").json()

        def refused(seat, body):
            response = client.post(seat_path(t, seat) + "/move", json=body)
            assert response.status_code == 409, response.text
            assert client.get(seat_path(t, 2) + "/state.json").json() == before      # nothing changed
            return response.json()["refused"]

        assert refused(1, {"move": "a1"}) == "it is not your turn (P2 is to move)"     # another seat's move
        assert refused(2, {"move": "b2"}) == "'b2' is not possible now (by the rules, mark[b2] must be none)"
        assert refused(2, {"move": "xyz"}).startswith("unknown move 'xyz'")
        assert refused(2, {"move": "#9"}) == "there is no move number 9 (choose 1..8)"
        assert refused(2, {"move": "a1", "after": before["version"] - 1}).startswith("the table has changed")
        assert refused(2, {"move": "undo"}) == "nothing to undo (this is your first move)"
        for body in ({"move": 3}, {"mve": "a1"}, {"move": "a1", "after": "x"}):
            assert client.post(seat_path(t, 2) + "/move", json=body).status_code == 400
        assert client.post(seat_path(t, 2) + "/move", content=b"{not json").status_code == 400
        assert client.post(seat_path(t, 2) + "/move", content=b"x" * 9000).status_code == 413
        assert client.get(seat_path(t, 2) + "/state.json").json() == before
        assert client.post(seat_path(t, 2) + "/move", json={"move": "#1"}).json()["moves"][-1] == "P2: a1"


def test_typed_moves_are_read_as_at_the_terminal():
    names = ["place on F@6.5", "place on M@5.4", "build temple T1 on M@5.4", "skip"]
    assert typed_move(names, "  PLACE   on f@6.5 ") == "place on F@6.5"
    assert typed_move(names, "F@6.5") == "place on F@6.5"                   # a few words of one name
    assert typed_move(names, "#3") == typed_move(names, "3") == "build temple T1 on M@5.4"
    with pytest.raises(Refused, match=r"'M@5.4' is in 2 moves: 2\. place on M@5.4; 3\. build temple T1 on M@5.4"):
        typed_move(names, "M@5.4")
    assert typed_move(["1", "2", "7"], "7") == "7"                          # moves named by numbers
    with pytest.raises(Refused, match="no move is named 4 now"):
        typed_move(["1", "2", "7"], "4")
    assert typed_move(names, "fly away") == "fly away"                     # the engine says why not


# ---- bots, undo, logs --------------------------------------------------------------------

def wait_for_turn(client, url, seat, timeout=10):
    deadline = time.monotonic() + timeout
    state = client.get(url + "/state.json").json()
    while state["to_move"] not in (seat, None):
        assert time.monotonic() < deadline, "the bots did not move"
        state = client.get(url + f"/state.json?after={state['version']}&wait=2").json()
    return state


def test_bots_play_their_seats_and_undo_takes_back_as_at_the_terminal():
    t = table("tic-tac-toe", seed=5, kinds={2: "random"})
    client, _ = client_for(t)
    with client:
        url = seat_path(t, 1)
        first = client.get(url + "/state.json").json()
        assert first["can_undo"] is False
        client.post(url + "/move", json={"move": "b2"})
        state = wait_for_turn(client, url, 1)
        assert [line.split(":")[0] for line in state["moves"]] == ["P1", "P2"] and state["can_undo"]
        bot_reply = state["moves"][1]
        undone = client.post(url + "/undo", json={"after": state["version"]})
        assert undone.status_code == 200
        back = undone.json()
        assert back["moves"] == [] and back["boards"] == first["boards"] and back["to_move"] == 1
        client.post(url + "/move", json={"move": "b2"})
        again = wait_for_turn(client, url, 1)
        assert again["moves"][1] == bot_reply                    # the bot was put back as it was
    two = table("tic-tac-toe", seed=5)
    two.play(1, "a1")
    two.play(2, "b1")
    with pytest.raises(Refused, match=r"another human \(P2\)"):
        two.undo(1)


def test_the_log_is_play_s_log_and_play_resume_goes_on_with_it(tmp_path):
    log = tmp_path / "game.json"
    t = table("tic-tac-toe", seed=2, log_path=log)
    t.save_seats()
    t.play(1, "a1")
    t.play(2, "b2")
    recorded, error = read_log(log)
    assert error is None and recorded["moves"] == ["a1", "b2"] and recorded["seed"] == 2
    state, error = replay(recorded, log_path=log)
    assert error is None and state.history == ["a1", "b2"]
    assert oct(os.stat(tmp_path / "game.seats.json").st_mode & 0o777) == "0o600"
    done = subprocess.run([sys.executable, "-m", "referee", "play", "--resume", str(log), "--bot", "all=human",
                           "--no-hot-seat"], input="c3\nquit\n", capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert "resumed from" in done.stdout and "after 2 moves" in done.stdout, done.stdout + done.stderr
    assert read_log(log)[0]["moves"] == ["a1", "b2", "c3"]


def test_a_restarted_server_serves_the_same_tables_at_the_same_addresses(tmp_path):
    log = tmp_path / "love-letter-1.json"
    t = table("love-letter", seed=9, kinds={2: "random"}, log_path=log)
    t.save_seats()
    t.play(1, t.state.legal_move_names()[0])
    while t.play_bot_move():
        pass
    args = argparse.Namespace(resume=[str(log)], bot=None)
    (again,) = resumed_tables(args, set())
    assert again.name == t.name and again.tokens == t.tokens and again.kinds == t.kinds
    assert again.moves == t.moves and again.observation(1)["zones"] == t.observation(1)["zones"]
    assert read_seats(log)["tokens"] == {1: t.tokens[1]}


# ---- live updates, the lobby, the command ------------------------------------------------

def test_a_seat_s_event_stream_brings_the_others_moves():
    t = table("tic-tac-toe", seed=4)
    with RunningServer([t]) as running:
        url = running.url(t, 2)
        with httpx.stream("GET", url + "/events", timeout=10) as response:
            stream = events(response)
            now = next(stream)
            assert now["version"] == 0 and 'id="table"' in now["html"]
            assert httpx.post(running.url(t, 1) + "/move", json={"move": "c3"}).status_code == 200
            update = next(stream)
            assert update["version"] == 1 and "P1</b>: c3" in update["html"] and 'data-move="a1"' in update["html"]
        assert first_event(url)["html"] == update["html"]


def test_the_lobby_starts_tables_whose_seats_play():
    from referee.interpreter.web.serve import lobby_games
    args = argparse.Namespace(files=[str(ROOT / "games" / "tic-tac-toe.rules")], option=None, param=None, log_dir=None)
    client, server = client_for(lobby_games=lobby_games(args), lobby_token="L" * 32)
    with client:
        assert client.get("/lobby/" + "L" * 31 + "x").status_code == 403
        assert "tic-tac-toe" in client.get("/lobby/" + "L" * 32).text
        made = client.post("/lobby/" + "L" * 32 + "/tables", json={"game": "tic-tac-toe", "bots": {"2": "first"}}).json()
        assert list(made["seats"]) == ["1"] and made["bots"] == {"2": "first"}
        url = made["seats"]["1"].removeprefix("http://127.0.0.1")
        assert client.post(url + "/move", json={"move": "b2"}).status_code == 200
        assert wait_for_turn(client, url, 1)["moves"] == ["P1: b2", "P2: a1"]
        refused = client.post("/lobby/" + "L" * 32 + "/tables", json={"game": "tic-tac-toe", "bots": {"5": "random"}})
        assert refused.status_code == 409 and "the seat must be 1..2" in refused.json()["refused"]


@pytest.mark.slow
def test_referee_serve_prints_an_address_per_human_seat_and_serves_them(tmp_path):
    process = subprocess.Popen([sys.executable, "-m", "referee", "serve", "games/tic-tac-toe.rules", "games/kuhn-poker.rules",
                                "--bot", "2=first", "--port", "0", "--log-dir", str(tmp_path)],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lines = [process.stdout.readline().rstrip("\n") for _ in range(2)]
        pattern = r"P1: http://127\.0\.0\.1:(\d+)/t/({})-1/[A-Za-z0-9_-]{{32}}"
        assert re.fullmatch(pattern.format("tic-tac-toe"), lines[0]) and re.fullmatch(pattern.format("kuhn-poker"), lines[1])
        url = lines[0].split(" ", 1)[1]
        assert httpx.post(url + "/move", json={"move": "b2"}, timeout=10).status_code == 200
        deadline = time.monotonic() + 10
        while json.loads((tmp_path / "tic-tac-toe-1.json").read_text())["moves"] != ["b2", "a1"]:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert (tmp_path / "kuhn-poker-1.seats.json").exists()
        watch = [process.stdout.readline().rstrip("\n") for _ in range(2)]
        assert re.fullmatch(r"watch tic-tac-toe-1: http://127\.0\.0\.1:\d+/w/tic-tac-toe-1/[A-Za-z0-9_-]{32}", watch[0])
        watched = httpx.get(watch[0].split(" ", 2)[2] + "/state.json", timeout=10).json()
        assert watched["seat"] == 0 and watched["legal"] == [] and watched["moves"][:1] == ["P1: b2"]
    finally:
        process.terminate()
        process.wait(10)
    assert "table tic-tac-toe-1 (Tic-tac-toe): P1: human · P2: first bot" in process.stderr.read()


def test_referee_serve_says_what_is_wrong_with_its_command_line(capsys):
    code, _, err = run(capsys, "serve")
    assert code == 2 and "FILE (or --resume LOG)" in err
    code, _, err = run(capsys, "serve", "games/tic-tac-toe.rules", "--bot", "3=random", "--port", "0")
    assert code == 2 and "the seat must be 1..2" in err
    assert run(capsys, "serve", "nosuch.rules", "--port", "0")[0] == 66
    code, _, err = run(capsys, "serve", "games/tic-tac-toe.rules", "--tables", "0")
    assert code == 2 and "0 only with --lobby" in err


# ---- every game draws ----------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(p.stem for p in (ROOT / "games").glob("*.rules")))
@pytest.mark.slow
def test_every_game_s_pages_draw_through_a_game_of_bots(name):
    """Any rules file: each seat's page and live update draw at every few moves of a game its
    bots play (grids, hex maps, boards per seat, zones, parts), with the view's boards in SVG."""
    import random
    from referee.interpreter.web.app import table_info
    from referee.interpreter.web.html import fragment, page
    t = table(name, seed=2)
    info = table_info(t.game)
    rng = random.Random(2)
    for step in range(60):
        if step % 10 == 0 or t.state.is_terminal():
            for seat in t.game.seats:
                observed = t.observation(seat)
                html = page(observed, info, "/static")
                assert html.count("<svg") == len(observed["boards"]) and fragment(observed, info) in html
                assert f"You are P{seat}" in html
                for label in observed["legal"]:
                    assert f'data-move="{escape(label)}"' in html
        if t.state.is_terminal():
            break
        seat = t.state.current_player()
        t.play(seat, rng.choice(t.state.legal_move_names()))


@pytest.mark.slow
def test_referee_serve_resume_brings_a_table_back_at_its_addresses_after_a_restart(tmp_path):
    import signal

    def serve(*words):
        process = subprocess.Popen([sys.executable, "-m", "referee", "serve", *words, "--port", "0"], cwd=ROOT,
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        return process, [process.stdout.readline().split(" ", 1)[1].strip() for _ in range(2)]

    def stop(process):
        process.send_signal(signal.SIGINT)
        assert process.wait(10) == 0

    first, urls = serve("games/tic-tac-toe.rules", "--log-dir", str(tmp_path), "--seed", "4")
    try:
        assert httpx.post(urls[0] + "/move", json={"move": "b2"}, timeout=10).status_code == 200
    finally:
        stop(first)
    again, same = serve("--resume", str(tmp_path / "tic-tac-toe-1.json"))
    try:
        old_path = urls[1].split("/", 3)[3]
        assert [url.split("/", 3)[3] for url in same] == [urls[0].split("/", 3)[3], old_path]   # same tokens
        state = httpx.get(same[1] + "/state.json", timeout=10).json()
        assert state["moves"] == ["P1: b2"] and state["legal"] and state["version"] == 1
        assert httpx.post(same[1] + "/move", json={"move": "a1"}, timeout=10).status_code == 200
    finally:
        stop(again)
    assert json.loads((tmp_path / "tic-tac-toe-1.json").read_text())["moves"] == ["b2", "a1"]


def test_a_runtime_error_stops_the_table_and_the_seats_are_told(write_rules):
    """A rules runtime error (a seat that must move has none) stops the game where it was; the
    pages say so, the server's standard error says where, and no move is taken any more."""
    from referee.interpreter.engine import load_game
    from referee.interpreter.web.table import Table
    path = write_rules(DEAD_END)           # three cells, and the game goes on after they are full
    stuck, diagnostics, _ = load_game(str(path), (), 2)
    assert stuck is not None, diagnostics
    t = Table("stuck-1", stuck, str(path), 1, {})
    t.play(1, "a1")
    t.play(2, "b1")
    with pytest.raises(Refused, match="the game stopped: a runtime error in the rules after 2 moves"):
        t.play(1, "c1")
    assert t.moves == ["a1", "b1"] and t.observation(2)["stopped"] and "has no legal move" in t.problems[0]
    with pytest.raises(Refused, match="the game stopped"):
        t.play(1, "c1")


# ---- spectators --------------------------------------------------------------------------

def test_a_spectator_sees_the_public_view_and_plays_nothing():
    t = table("love-letter", seed=3)
    client, _ = client_for(t)
    watch = seat_path(t, PUBLIC)
    assert watch.startswith(f"/w/{t.name}/") and t.watch_token not in t.tokens.values()
    with client:
        seen = client.get(watch + "/state.json").json()
        assert seen["seat"] == PUBLIC and seen["legal"] == [] and seen["to_move"] == 1
        public = t.state.view(PUBLIC)
        assert {k: seen[k] for k in public} == json.loads(json.dumps(public))
        page_text = client.get(watch).text
        assert "You are watching" in page_text and 'id="typed"' not in page_text
        for method, suffix in (("POST", "/move"), ("POST", "/undo")):
            assert client.request(method, watch + suffix, json={"move": seen["moves"][:1] or "x"}).status_code == 403
        # a seat's token is no spectator's, nor the spectator's a seat's
        assert client.get(f"/w/{t.name}/{t.tokens[1]}/state.json").status_code == 403
        assert client.get(f"/t/{t.name}/{t.watch_token}/state.json").status_code == 403
        assert t.version == 0 and t.moves == []


def test_a_resumed_table_keeps_its_spectator_token_from_the_seats_file(tmp_path):
    a = table("tic-tac-toe", log_path=tmp_path / "tic-tac-toe-1.json")
    a.save_seats()
    seats = read_seats(tmp_path / "tic-tac-toe-1.json")
    assert seats["watch"] == a.watch_token
    b = Table(a.name, a.game, a.rules_path, a.seed, a.kinds, tokens=seats["tokens"], watch_token=seats["watch"])
    assert seat_path(b, PUBLIC) == seat_path(a, PUBLIC)
