"""What the web table's tests share: tables made in the test's process, and a real server (uvicorn
on 127.0.0.1, a free port) running them in a thread, for what needs one (event streams, a
browser, load)."""
from __future__ import annotations

import json
import threading
import time

import pytest

pytest.importorskip("starlette", reason="the web extra: pip install 'referee[web]'")
uvicorn = pytest.importorskip("uvicorn", reason="the web extra: pip install 'referee[web]'")
httpx = pytest.importorskip("httpx", reason="Starlette's test client needs httpx")

from referee.interpreter.engine import load_game          # noqa: E402
from referee.interpreter.web.app import TableServer, seat_path   # noqa: E402
from referee.interpreter.web.serve import listening_socket, uvicorn_server   # noqa: E402
from referee.interpreter.web.table import Table           # noqa: E402

from .conftest import GAMES                                 # noqa: E402

GAME_CACHE = {}


def game(name, players=None):
    """A compiled game of games/NAME.rules, for its least number of players unless told (compiled
    once per test session)."""
    key = (name, players)
    if key not in GAME_CACHE:
        loaded, diagnostics, _ = load_game(str(GAMES / f"{name}.rules"), (), players)
        assert loaded is not None, diagnostics
        GAME_CACHE[key] = loaded
    return GAME_CACHE[key]


def table(name, seed=1, kinds=None, players=None, number=1, log_path=None, moves=()):
    return Table(f"{name}-{number}", game(name, players), str(GAMES / f"{name}.rules"), seed, kinds or {},
                 log_path=log_path, moves=moves)


class RunningServer:
    """A TableServer behind uvicorn, in a thread, on 127.0.0.1 and a free port."""

    def __init__(self, tables, lobby_games=None, lobby_token=None):
        self.server = TableServer(lobby_games, lobby_token)
        for t in tables:
            self.server.add(t)
        self.sock = listening_socket("127.0.0.1", 0)
        self.root = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.uvicorn = uvicorn_server(uvicorn, self.server)
        self.thread = threading.Thread(target=self.uvicorn.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def url(self, t, seat) -> str:
        return self.root + seat_path(t, seat)

    def __enter__(self):
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.uvicorn.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.01)
        return self

    def __exit__(self, *exc):
        self.uvicorn.should_exit = True
        self.thread.join(10)
        self.sock.close()


def first_event(url, timeout=5.0) -> dict:
    """The first message of a seat's event stream (sent on connecting: the table as it is now)."""
    with httpx.stream("GET", url + "/events", timeout=timeout) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        return next(events(response))


def events(response):
    """The messages of an event stream, decoded, as they come."""
    data = None
    for line in response.iter_lines():
        if line.startswith("data: "):
            data = json.loads(line[len("data: "):])
        elif line == "" and data is not None:
            yield data
            data = None
