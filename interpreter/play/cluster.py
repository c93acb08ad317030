"""`--cluster`: simulate, analyze, tournament and verify played by the workers of a Dask distributed cluster.

    --cluster tcp://host:8786     a running scheduler (its workers need referee installed)
    --cluster local:N             N worker processes on this machine, started for the run and
                                  stopped at its end (local: one per core)

Dask rather than Ray: the work is plain Python functions over pickled arguments (the chunk
tasks of parallel.py), which is what Dask's futures are, without Ray's object store, its
raylet per node and its much larger install.

The splitting and the merging are parallel.py's: the same chunks of seeds, the same task
functions (simulate_chunk, tournament_chunk, verify_chunk), their results put back in the order of the
chunks, so the figures are those of `--jobs 1` for the same seeds (verify's: its games in
chunks, then each failure shrunk by a worker, as parallel.verify_reports shares them out). What differs is who runs
a task: a Dask worker, which may be on another machine and not share this one's files. So
the rules file travels with each task as text (a GameSource: the file and the files it
`extends`, as read here), and a worker compiles a game once per worker process, cached by
the file's path, the hash of the sources, options, coverage, params and player count.
"""
from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import re
from collections import OrderedDict
from dataclasses import dataclass

from . import parallel

CONNECT_SECONDS = 10          # how long a scheduler address is tried before giving up
LOCAL = re.compile(r"local(?::(\d+))?")
ADDRESS = re.compile(r"[a-z][a-z0-9+.-]*://\S+|[\w.-]+:\d+", re.I)     # scheme://... or host:port


class ClusterUnavailable(Exception):
    """Dask is not installed, the scheduler cannot be reached or has no worker, or a local
    cluster cannot start."""


def parse_cluster(text):
    """('local', N or None) for local[:N], ('address', text) for a scheduler's address, or ValueError."""
    text = text.strip()
    local = LOCAL.fullmatch(text)
    if local:
        workers = int(local.group(1)) if local.group(1) else None
        if workers == 0:
            raise ValueError("local:N needs at least one worker process")
        return "local", workers
    if text and ADDRESS.fullmatch(text):
        return "address", text
    raise ValueError(f"{text!r}: give a scheduler's address (tcp://host:8786) or local[:N]")


def distributed_module():
    try:
        import distributed
    except ImportError:
        raise ClusterUnavailable("--cluster needs Dask distributed: pip install 'referee[cluster]'") from None
    return distributed


@contextlib.contextmanager
def connected(kind, value, default_workers):
    """A dask Client: of a local cluster started here (stopped on the way out) or of the
    scheduler at an address (left running). ClusterUnavailable if it cannot be had."""
    distributed = distributed_module()
    if kind == "local":
        workers = value or default_workers
        # One thread per worker: the games are pure Python, threads would share one core.
        # The HTTP server (there is always one) on a free port, not 8787 that another may hold.
        # No log at all: what goes wrong comes back as an exception, said by the CLI (a Ctrl-C
        # while tasks run would log the scheduler's lost connections with their tracebacks).
        # Workers ignore Ctrl-C, as parallel.Pool's (a Ctrl-C while they start is not seen).
        try:
            with parallel.ctrl_c_ignored():
                cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                                   dashboard_address="127.0.0.1:0",
                                                   silence_logs=logging.CRITICAL + 1)
        except (OSError, TimeoutError) as error:       # no free port, workers that do not start
            raise ClusterUnavailable(f"cannot start a local Dask cluster: {error}") from None
        try:
            with distributed.Client(cluster) as client:
                yield client
        finally:
            cluster.close()
        return
    try:
        client = distributed.Client(value, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError, ValueError) as error:
        raise ClusterUnavailable(f"cannot reach the Dask scheduler at {value}: {error}") from None
    with client:
        try:            # else the tasks would wait for a worker for ever
            client.wait_for_workers(1, timeout=CONNECT_SECONDS)
        except (OSError, TimeoutError):
            raise ClusterUnavailable(f"the Dask scheduler at {value} has no worker "
                                     f"(none joined in {CONNECT_SECONDS} s)") from None
        yield client


def worker_count(client) -> int:
    """The threads of the cluster's workers (how many tasks run at once), at least 1."""
    return max(1, sum(client.nthreads().values()))


# ---- what travels: the rules file as text --------------------------------------------------

@dataclass(frozen=True)
class GameSource:
    """A rules file as a worker needs it: its path (as given: the name its diagnostics and logs
    use), the text of it and of the files it extends, and how to load it."""
    path: str
    texts: tuple          # ((path, text), ...) of every file read, as load_program names them
    options: tuple
    coverage: bool
    params: tuple         # ((name, value), ...)

    @property
    def key(self):
        digest = hashlib.sha256(repr(self.texts).encode("utf-8", "surrogatepass")).hexdigest()
        return self.path, digest, self.options, self.coverage, self.params


def source_of(game, path, options, coverage=False) -> GameSource:
    """The GameSource of a game loaded here from `path` (its sources are what was read)."""
    return GameSource(str(path), tuple(sorted(game.sources.items())), tuple(options), bool(coverage),
                      tuple(sorted(game.given_params.items())))


MOST_GAMES = 8       # the compiled games a worker keeps: a long-lived cluster serves many runs
_games = OrderedDict()          # in a worker process: (GameSource.key, players) -> game, oldest use first


def cluster_game(source: GameSource, players):
    """The game of a source for a player count, compiled once per worker process (while it is
    among the MOST_GAMES used last). load_game reads each file through `texts` (keyed by real
    path, as an editor's buffers are), so the files need not exist on the worker's machine."""
    key = (source.key, players)
    game = _games.get(key)
    if game is not None:
        _games.move_to_end(key)
        return game
    texts = {os.path.realpath(path): text for path, text in source.texts}
    game = _games[key] = parallel.compiled(source.path, source.options, players, source.coverage,
                                           dict(source.params), texts)
    while len(_games) > MOST_GAMES:
        _games.popitem(last=False)
    return game


def run_task(source, players, function, args):
    """What a Dask worker runs: function(game, *args), as a parallel.Pool worker would; an
    exception comes back as parallel.error_payload (raised again by the parent as it was)."""
    try:
        return "ok", function(cluster_game(source, players), *args)
    except Exception as error:
        return "error", parallel.error_payload(error)


class ClusterPool:
    """parallel.Pool's map_ordered, submit and take, played by the workers of a Dask client."""

    def __init__(self, client, source: GameSource):
        self.client = client
        self.source = source

    def submit(self, function, players, *args, first=False):
        """Queue function(game, *args) for a game of `players` players; returns the task (a
        future) for take(). first: ahead of the tasks already queued (a higher Dask priority)."""
        return self.client.submit(run_task, self.source, players, function, tuple(args), pure=False,
                                  priority=1 if first else 0)

    def take(self, future):
        """The result of a task, waiting for it. Raises the exception of the task, or
        parallel.WorkerDied when the cluster gave it up (its workers kept dying)."""
        distributed = distributed_module()
        try:
            status, payload = future.result()
        except distributed.KilledWorker as error:
            raise parallel.WorkerDied(f"the cluster gave a task up: {error}") from None
        if status == "error":
            parallel.raise_remote(payload)
        return payload

    def map_ordered(self, function, players, args_list, on_result=None):
        """function(game, *args) for each args of the list; yields the results in the order of
        the list, on_result(result) called as each one arrives. Raises as take() does."""
        distributed = distributed_module()
        futures = [self.submit(function, players, *args) for args in args_list]
        position = {future.key: i for i, future in enumerate(futures)}
        arrived, next_one = {}, 0
        try:
            for future in distributed.as_completed(futures):
                payload = self.take(future)
                if on_result is not None:
                    on_result(payload)
                arrived[position[future.key]] = payload
                while next_one in arrived:
                    yield arrived.pop(next_one)
                    next_one += 1
        finally:
            for future in futures:
                if not future.done():
                    future.cancel()
