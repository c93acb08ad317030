"""`referee serve FILE...`: tables in the browser, each seat on its own device (docs/web.md).

    add_serve_command(commands)   # the subcommand and its arguments, on the CLI's subparsers
    serve_command(args)           # runs it: the tables, their URLs on standard output, the server

Starlette and uvicorn (the `web` extra) are imported only here, when the command runs: without
them the command says what to install (exit 69), and no other command pays for them.
"""
from __future__ import annotations

import socket
import sys
from pathlib import Path

# what the other commands share: loading a game, --bot, errors and exit codes
# (the CLI imports this module only when `serve` runs: cli/commands/serve.py)
from ..cli.commands.play import new_seed
from ..cli.common import load
from ..cli.errors import CANNOT_WRITE, OK, RUNTIME, UNAVAILABLE, CliError, UsageError
from ..cli.seats import parse_bots, refuse_mcts_on_hidden_information
from ..play.simulate import runtime_text
from ..runtime.errors import RulesRuntimeError
from ..tools.gamelog import read_log, replay
from .table import Refused, Table, new_token, read_seats, table_name


def web_packages():
    """(starlette, uvicorn), or CliError 69 naming the extra to install."""
    try:
        import starlette  # noqa: F401
        import uvicorn
    except ImportError as error:
        raise CliError(f"referee serve: {error.name} is not installed: pip install 'referee[web]'", UNAVAILABLE) from None
    return uvicorn


def table_kinds(game, specs) -> dict:
    """{seat: kind} from --bot (a seat that no --bot names is human), checked as play checks it."""
    kinds = parse_bots(specs or [], game.num_players)
    refuse_mcts_on_hidden_information(game, kinds)
    return {p: kinds.get(p, "human") for p in game.seats}


def log_file(args, name):
    return Path(args.log_dir) / f"{name}.json" if args.log_dir else None


def checked_log_dir(args):
    if not args.log_dir:
        return
    try:
        Path(args.log_dir).mkdir(parents=True, exist_ok=True)
        probe = Path(args.log_dir) / ".referee-serve-probe"
        probe.write_text("")
        probe.unlink()
    except OSError as error:
        raise CliError(f"referee: cannot write logs into {args.log_dir}: {error.strerror or error}", CANNOT_WRITE) from None


def new_tables(args, taken) -> list:
    """The tables of the FILEs: --tables of each, seeds S, S+1, ... (or random ones)."""
    if args.tables < 0 or (args.tables == 0 and not args.lobby):
        raise UsageError("argument --tables: must be at least 1 (0 only with --lobby: tables started there)")
    tables = []
    for path in args.files:
        game = load(path, args.option, args.players, params=args.param)
        kinds = table_kinds(game, args.bot)
        for _ in range(args.tables):
            seed = args.seed + len(tables) if args.seed is not None else new_seed()
            name = table_name(path, taken)
            taken.add(name)
            tables.append(made_table(name, game, path, seed, kinds, log_path=log_file(args, name)))
    return tables


def made_table(name, game, path, seed, kinds, tokens=None, moves=(), log_path=None, watch_token=None) -> Table:
    try:
        return Table(name, game, path, seed, kinds, tokens=tokens, moves=moves, log_path=log_path,
                     watch_token=watch_token)
    except RulesRuntimeError as error:
        raise CliError(f"{runtime_text(error, game)}\n(while setting up table {name})", RUNTIME) from None


def resumed_tables(args, taken) -> list:
    """The tables of --resume LOG: replayed and checked whole, as `play --resume` does, with
    their tokens (and bots) from the seats file beside the log when there is one."""
    tables = []
    for log_path in args.resume or []:
        log, error = read_log(log_path)
        if error is None:
            state, error = replay(log, log_path=log_path)
        if error is not None:
            message = str(error).removeprefix(f"{log_path}: ")
            raise CliError(f"referee: cannot resume {log_path}: {message}", error.code)
        seats = read_seats(log_path) or {}
        name = seats.get("table") or table_name(log_path, taken)
        if name in taken:
            name = table_name(name, taken)
        taken.add(name)
        kinds = seats.get("kinds") or {}
        if args.bot or not kinds:
            kinds = table_kinds(state.game, args.bot)
        tokens = {p: t for p, t in (seats.get("tokens") or {}).items() if kinds.get(p) == "human"}
        tables.append(made_table(name, state.game, log["rules"], log["seed"], kinds, tokens=tokens,
                                 moves=log["moves"], log_path=log_path, watch_token=seats.get("watch")))
    return tables


def lobby_games(args) -> dict:
    """{game name: start(players, bots, taken) -> Table} for the lobby: one per FILE."""
    games, compiled = {}, {}
    for path in args.files:
        def start(players, bots, taken, path=path):
            try:
                if (path, players) not in compiled:        # compiled once per player count
                    compiled[path, players] = load(path, args.option, players, params=args.param)
                game = compiled[path, players]
                kinds = table_kinds(game, [f"{seat}={kind}" for seat, kind in dict(bots).items()])
            except (CliError, UsageError) as error:
                raise Refused(error.message.removeprefix("argument --bot: ").removeprefix("argument --players: "))
            name = table_name(path, taken)
            try:
                return Table(name, game, path, new_seed(), kinds, log_path=log_file(args, name))
            except RulesRuntimeError as error:
                raise Refused(f"the game cannot be set up: {error}")
        games[Path(path).stem] = start
    return games


def listening_socket(host, port):
    """The server's socket, bound before the addresses are printed (so --port 0 has its port)."""
    try:
        info = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        sock = socket.socket(info[0], socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        # accepted connections inherit it: without it, a second response on a kept-alive
        # connection waited ~40 ms (Nagle's algorithm against the client's delayed ACK)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind(info[4])
        sock.listen(128)
    except OSError as error:
        raise CliError(f"referee serve: cannot listen on {host}:{port}: {error.strerror or error}", UNAVAILABLE) from None
    sock.setblocking(False)
    return sock


def address(host, sock) -> str:
    port = sock.getsockname()[1]
    shown = socket.gethostname() if host in ("0.0.0.0", "::", "") else host
    return f"http://[{shown}]:{port}" if ":" in shown else f"http://{shown}:{port}"


def serve_command(args) -> int:
    from .app import PUBLIC, TableServer, seat_path
    uvicorn = web_packages()
    if not args.files and not args.resume:
        raise UsageError("the following arguments are required: FILE (or --resume LOG)")
    if args.lobby and not args.files:
        raise UsageError("argument --lobby: name the games it offers: FILE...")
    checked_log_dir(args)
    taken = set()
    tables = resumed_tables(args, taken) + new_tables(args, taken)
    lobby_token = new_token() if args.lobby else None
    server = TableServer(lobby_games(args) if args.lobby else {}, lobby_token,
                         errors=lambda text: args.errors.error(text))
    for table in tables:
        server.add(table)
    sock = listening_socket(args.host, args.port)
    root = address(args.host, sock)
    for table in tables:
        for seat in table.humans:
            print(f"P{seat}: {root}{seat_path(table, seat)}")
    for table in tables:        # (after the seats': a script reads the seats' lines first)
        print(f"watch {table.name}: {root}{seat_path(table, PUBLIC)}")
    if lobby_token:
        print(f"lobby: {root}/lobby/{lobby_token}")
    sys.stdout.flush()
    if not sock.getsockname()[0].startswith("127.") and sock.getsockname()[0] != "::1":
        args.errors.error(f"note: listening on {args.host}: other machines reach these pages, over plain HTTP "
                          "(the tokens travel in the clear: over the internet, put TLS in front)")
    for table in tables:
        who = " · ".join(f"P{p}: {kind if kind == 'human' else kind + ' bot'}" for p, kind in table.kinds.items())
        args.errors.error(f"table {table.name} ({table.game.title or table.rules_path}): {who}")
    try:
        uvicorn_server(uvicorn, server).run(sockets=[sock])
    except KeyboardInterrupt:           # Ctrl-C is how a server is stopped: it stopped cleanly
        pass
    args.errors.error("the server stopped" + (f"; the logs are in {args.log_dir}" if args.log_dir else ""))
    return OK


def uvicorn_server(uvicorn, server):
    """uvicorn serving the tables of `server`; when it stops, it first ends the event streams
    (else it would wait for every open page, then cancel them)."""
    from .app import build_app

    class TableUvicorn(uvicorn.Server):
        async def shutdown(self, sockets=None):
            server.close_streams()
            await super().shutdown(sockets=sockets)
    config = uvicorn.Config(build_app(server), log_level="warning", timeout_graceful_shutdown=2, lifespan="on")
    return TableUvicorn(config)
