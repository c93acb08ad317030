"""The web table's ASGI application (Starlette): pages, the JSON interface, live updates, a lobby.

Under each seat's URL, /t/TABLE/TOKEN (TOKEN: the seat's secret, from `secrets`):

    GET  <url>                 the seat's page (HTML and SVG; static/table.js keeps it live)
    GET  <url>/state.json      the seat's observation: State.view(seat), legal, to_move,
                               finished, result, version (?after=V waits, up to ?wait=S seconds
                               (at most 25), until the version differs from V)
    POST <url>/move            {"move": "<name or typed text>", "after": V (optional)}: 200 and
                               the new observation, or 409 {"refused": "<why>"} (nothing changed)
    POST <url>/undo            {"after": V (optional)}: as at the terminal; 200 or 409
    GET  <url>/events          server-sent events: {"version", "html"} now and at every change

and under a spectator's URL, /w/TABLE/TOKEN (the table's watch token), the same GET routes with
what every seat may see (State.view(PUBLIC)) and no moves: a spectator posts nothing.

and, with a lobby (`referee serve --lobby`), under /lobby/TOKEN: a page that starts a table of
one of the served games, and POST /lobby/TOKEN/tables {"game", "players", "bots"} for scripts.
A wrong or missing token is 403 with the same few bytes whatever was asked: nothing tells a
table that exists from one that does not.
"""
from __future__ import annotations

import asyncio
import json
from fractions import Fraction
from html import escape
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..engine import PUBLIC
from .html import fragment, page
from .table import Refused, Table, new_token, rule_texts, table_name

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 8_192              # bytes of a POST body: a move's name, and a little more
LONG_POLL = 25.0              # seconds a state.json?after=V waits at most
KEEP_ALIVE = 15.0             # seconds between comments on a quiet event stream
SECURITY_HEADERS = {
    "Cache-Control": "no-store",                # a seat's view is not kept by a browser or a proxy
    "Referrer-Policy": "no-referrer",           # the token in the address goes nowhere
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
}


class JSON(JSONResponse):
    """A JSON answer; the rules' exact numbers (a score of 7/2: a Fraction) as numbers."""

    def render(self, content) -> bytes:
        return json.dumps(content, ensure_ascii=False, separators=(",", ":"), default=plain_number).encode("utf-8")


def plain_number(value):
    if isinstance(value, Fraction):
        return float(value)
    raise TypeError(f"{type(value).__name__} is not JSON")


class BadRequest(Exception):
    """A request body that is JSON but not a move (400)."""


def forbidden() -> Response:
    return PlainTextResponse("forbidden\n", status_code=403, headers=SECURITY_HEADERS)


class Changes:
    """Wakes whoever waits for a table's next change (event streams, long polls). fire() runs
    in the event loop; a table's listener, called from any thread, hands it over."""

    def __init__(self):
        self.event = asyncio.Event()

    def fire(self):
        self.event, fired = asyncio.Event(), self.event
        fired.set()

    async def wait(self, timeout: float) -> bool:
        try:
            await asyncio.wait_for(self.event.wait(), timeout)
            return True
        except asyncio.TimeoutError:
            return False


def table_info(game) -> dict:
    """What every seat of a game may know from its rules file alone, for drawing its pages."""
    from ..engine.render import symbol_legends, view_defaults
    return {"private": {name for name, meta in game.zone_meta.items() if meta[1] == "owner"},
            "facing": {name for name, meta in game.zone_meta.items() if meta[1] == "others"},
            "legends": symbol_legends(game, game.new_initial_state(seed=0)),
            "defaults": view_defaults(game),
            "rules": rule_texts(game)}


class TableServer:
    """The tables of one server, the games its lobby offers, and the bots' runners."""

    def __init__(self, lobby_games=None, lobby_token=None, errors=None):
        self.tables: dict[str, Table] = {}
        self.infos: dict[str, dict] = {}
        self.changes: dict[str, Changes] = {}
        self.lobby_games = lobby_games or {}      # game name -> start(players, bots, taken names) -> Table
        self.lobby_token = lobby_token
        self.errors = errors                      # says the tables' problems (runtime errors, logs) on stderr
        self.loop = None
        self.closing = False                      # the server stops: event streams end
        self.runners: dict[str, asyncio.Task] = {}

    # ---- tables --------------------------------------------------------------------------

    def add(self, table: Table):
        self.tables[table.name] = table
        info = next((self.infos[t.name] for t in self.tables.values()
                     if t.game is table.game and t.name in self.infos), None)
        self.infos[table.name] = info or table_info(table.game)
        changes = self.changes[table.name] = Changes() if self.loop else None
        if changes is not None:
            table.listeners.append(self.listener(table))
        table.save_seats()
        table.save_log()
        if self.loop is not None:
            self.wake_bots(table)
        return table

    def listener(self, table):
        loop = self.loop

        def changed():
            loop.call_soon_threadsafe(self.fire, table.name)
        return changed

    def fire(self, name):
        self.changes[name].fire()
        table = self.tables[name]
        while table.problems:
            problem = table.problems.pop(0)
            if self.errors is not None:
                self.errors(f"table {name}: {problem}")

    def started(self):
        """In the event loop, once it runs: listen to the tables, and start their bots."""
        self.loop = asyncio.get_running_loop()
        for name, table in self.tables.items():
            self.changes[name] = Changes()
            table.listeners.append(self.listener(table))
            self.wake_bots(table)

    def close_streams(self):
        """End every event stream (the server is stopping), so that it need not wait for them."""
        self.closing = True
        for changes in self.changes.values():
            if changes is not None:
                changes.fire()

    def wake_bots(self, table: Table):
        """Let the bots play while one is to move (in a thread: a search takes time), one
        runner per table."""
        running = self.runners.get(table.name)
        if running is None or running.done():
            self.runners[table.name] = asyncio.ensure_future(self.run_bots(table))

    async def run_bots(self, table: Table):
        try:
            while table.bot_to_move() is not None:
                await asyncio.to_thread(table.play_bot_move)
                await asyncio.sleep(0)
        except Exception as error:      # a bot's own failure: said, not lost in a finished task
            if self.errors is not None:
                self.errors(f"table {table.name}: the bot failed: {type(error).__name__}: {error}")

    def seat(self, request: Request):
        """(table, seat) of the request's URL (PUBLIC for a spectator's), or (None, None) for a
        wrong token."""
        table = self.tables.get(request.path_params.get("table", ""))
        if table is None:
            return None, None
        token = request.path_params.get("token", "")
        if request.url.path.startswith("/w/"):
            return (table, PUBLIC) if table.watching(token) else (None, None)
        seat = table.seat_of(token)
        return (table, seat) if seat is not None else (None, None)

    # ---- a seat's routes -------------------------------------------------------------------

    def observed(self, table: Table, seat: int) -> dict:
        return table.observation(seat)

    async def page(self, request: Request) -> Response:
        table, seat = self.seat(request)
        if table is None:
            return forbidden()
        return HTMLResponse(page(self.observed(table, seat), self.infos[table.name], "/static"), headers=SECURITY_HEADERS)

    async def state(self, request: Request) -> Response:
        table, seat = self.seat(request)
        if table is None:
            return forbidden()
        after = request.query_params.get("after")
        if after is not None and after.isdigit() and int(after) == table.version:
            wait = request.query_params.get("wait", "")
            seconds = min(LONG_POLL, float(wait)) if wait.replace(".", "", 1).isdigit() else LONG_POLL
            await self.changes[table.name].wait(seconds)
        return JSON(self.observed(table, seat), headers=SECURITY_HEADERS)

    async def body(self, request: Request):
        """The POST's JSON object, or a 400 response."""
        raw = await request.body()
        if len(raw) > MAX_BODY:
            return None, JSON({"refused": f"the request is over {MAX_BODY} bytes"}, 413, headers=SECURITY_HEADERS)
        try:
            data = json.loads(raw.decode("utf-8") or "{}")
        except (UnicodeDecodeError, ValueError, RecursionError):
            return None, JSON({"refused": "the request is not JSON"}, 400, headers=SECURITY_HEADERS)
        if not isinstance(data, dict):
            return None, JSON({"refused": "the request must be a JSON object"}, 400, headers=SECURITY_HEADERS)
        after = data.get("after")
        if after is not None and (not isinstance(after, int) or isinstance(after, bool)):
            return None, JSON({"refused": "'after' must be a version number"}, 400, headers=SECURITY_HEADERS)
        return data, None

    async def changing(self, request: Request, change) -> Response:
        """A POST that changes the table: change(table, seat, body) plays or takes back;
        200 and the seat's new observation, or 409 and the refusal (nothing changed)."""
        table, seat = self.seat(request)
        if table is None:
            return forbidden()
        data, problem = await self.body(request)
        if problem is not None:
            return problem
        try:
            # in a thread: the move's log is written before the answer, and the event loop
            # serves the other tables meanwhile (a file's replace took ~8 ms on a busy disk)
            await asyncio.to_thread(change, table, seat, data)
        except Refused as refusal:
            return JSON({"refused": refusal.text}, 409, headers=SECURITY_HEADERS)
        self.wake_bots(table)
        return JSON(self.observed(table, seat), headers=SECURITY_HEADERS)

    async def move(self, request: Request) -> Response:
        def play(table, seat, data):
            if not isinstance(data.get("move"), str):
                raise BadRequest('give the move as {"move": "<its name>"}')
            table.play(seat, data["move"], data.get("after"))
        try:
            return await self.changing(request, play)
        except BadRequest as problem:
            return JSON({"refused": str(problem)}, 400, headers=SECURITY_HEADERS)

    async def undo(self, request: Request) -> Response:
        return await self.changing(request, lambda table, seat, data: table.undo(seat, data.get("after")))

    def update(self, table: Table, seat: int) -> str:
        """One live update for a seat: its version and its page's changing part."""
        observed = self.observed(table, seat)
        message = json.dumps({"version": observed["version"], "html": fragment(observed, self.infos[table.name])})
        return f"event: table\ndata: {message}\n\n"

    async def events(self, request: Request) -> Response:
        table, seat = self.seat(request)
        if table is None:
            return forbidden()
        changes = self.changes[table.name]

        async def stream():
            sent = None
            while not self.closing:
                if table.version != sent:
                    sent = table.version
                    yield self.update(table, seat)
                elif not await changes.wait(KEEP_ALIVE):
                    yield ": still here\n\n"
        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={**SECURITY_HEADERS, "X-Accel-Buffering": "no"})

    # ---- the lobby -------------------------------------------------------------------------

    def lobby_allowed(self, request: Request) -> bool:
        import secrets
        token = request.path_params.get("token", "")
        return self.lobby_token is not None and secrets.compare_digest(token.encode(), self.lobby_token.encode())

    async def lobby(self, request: Request) -> Response:
        if not self.lobby_allowed(request):
            return forbidden()
        options = "".join(f'<option value="{escape(name)}">{escape(name)}</option>' for name in self.lobby_games)
        return HTMLResponse(LOBBY_PAGE.format(options=options), headers=SECURITY_HEADERS)

    async def new_table(self, request: Request) -> Response:
        """Start a table of one of the lobby's games: {"game": name, "players": N (optional),
        "bots": {"2": "random", ...} (the other seats human)}; answers its seats' URLs."""
        if not self.lobby_allowed(request):
            return forbidden()
        data, problem = await self.body(request)
        if problem is not None:
            return problem
        loader = self.lobby_games.get(data.get("game"))
        if loader is None:
            return JSON({"refused": f"no such game here (games: {', '.join(self.lobby_games)})"}, 409,
                                headers=SECURITY_HEADERS)
        players, bots = data.get("players"), data.get("bots") or {}
        if players is not None and (not isinstance(players, int) or isinstance(players, bool)):
            return JSON({"refused": "'players' must be a whole number"}, 400, headers=SECURITY_HEADERS)
        if not isinstance(bots, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in bots.items()):
            return JSON({"refused": "'bots' must map seats to kinds: {\"2\": \"random\"}"}, 400, headers=SECURITY_HEADERS)
        try:
            table = loader(players, bots, set(self.tables))
        except Refused as refusal:
            return JSON({"refused": refusal.text}, 409, headers=SECURITY_HEADERS)
        self.add(table)
        base = str(request.base_url).rstrip("/")
        return JSON({"table": table.name,
                             "seats": {str(p): f"{base}{seat_path(table, p)}" for p in table.humans},
                             "watch": f"{base}{seat_path(table, PUBLIC)}",
                             "bots": {str(p): k for p, k in table.kinds.items() if k != "human"}},
                            headers=SECURITY_HEADERS)

    async def home(self, request: Request) -> Response:
        return PlainTextResponse("A Referee table server: each seat has its own address.\n", headers=SECURITY_HEADERS)


def seat_path(table: Table, seat: int) -> str:
    """The path of a seat's pages; PUBLIC: the spectator's."""
    if seat == PUBLIC:
        return f"/w/{table.name}/{table.watch_token}"
    return f"/t/{table.name}/{table.tokens[seat]}"


LOBBY_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">
<title>Referee lobby</title><link rel="stylesheet" href="/static/table.css"></head>
<body><h1>Start a table</h1>
<form id="lobby"><label>Game <select name="game">{options}</select></label>
<label>Players <input name="players" type="number" min="1" max="16" placeholder="the game's least"></label>
<label>Bots <input name="bots" placeholder="2=random 3=ismcts"></label>
<button type="submit">Start</button></form>
<p id="refusal" class="refusal" role="alert"></p><ul id="seats"></ul>
<script src="/static/lobby.js"></script></body></html>
"""


def build_app(server: TableServer) -> Starlette:
    seat, watch = "/t/{table}/{token}", "/w/{table}/{token}"
    routes = [
        Route(watch, server.page),
        Route(watch + "/", server.page),
        Route(watch + "/state.json", server.state),
        Route(watch + "/events", server.events),
        Route("/", server.home),
        Route(seat, server.page),
        Route(seat + "/", server.page),
        Route(seat + "/state.json", server.state),
        Route(seat + "/move", server.move, methods=["POST"]),
        Route(seat + "/undo", server.undo, methods=["POST"]),
        Route(seat + "/events", server.events),
        Route("/lobby/{token}", server.lobby),
        Route("/lobby/{token}/tables", server.new_table, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]

    async def lifespan(app):
        server.started()
        yield
        for task in server.runners.values():
            task.cancel()
    app = Starlette(routes=routes, lifespan=_as_context(lifespan))
    app.state.tables = server

    async def not_found(request, exc):
        # any other address: the same answer as a wrong token (no table's name is confirmed)
        return forbidden()
    app.add_exception_handler(404, not_found)
    app.add_exception_handler(405, not_found)
    return app


def _as_context(generator):
    import contextlib
    return contextlib.asynccontextmanager(generator)


__all__ = ["PUBLIC", "TableServer", "build_app", "seat_path", "new_token", "table_name"]
