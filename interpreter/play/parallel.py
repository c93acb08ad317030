"""Worker processes for `referee simulate`, `analyze`, `tournament`, `verify` and `bench --jobs N`.

A Pool starts N processes. Each one loads (compiles) the rules file once, from its path, its params,
options and a player count, and keeps the game for every task it is given; a task names a
player count, so that `verify` can share one pool between all the counts it plays. The work
is cut into tasks of a few seeds; whoever hands results back (the CLI) puts them back in seed
order, so that the figures do not depend on how many workers played them.

    with Pool(jobs, path, options, players) as pool:
        for result in pool.map_ordered(simulate_chunk, players, [(seeds, max_moves, ...), ...]):
            ...

No threads: the parent waits on the workers' pipes and on their process sentinels, so a
worker that dies (killed, out of memory, a crash of the interpreter) is noticed at once and
reported as WorkerDied instead of waited for. A task that raises sends its exception back;
the parent raises it again. Workers ignore Ctrl-C: the parent gets it, and stops them all
when it leaves the `with` block, whatever the reason.
"""
from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import threading
import traceback
from collections import deque
from multiprocessing.connection import wait

from ..engine.load import load_game
from ..tools import coverage as coverage_module
from ..tools import verify as verify_module
from . import simulate

READY = "ready"


def default_jobs() -> int:
    """All the cores this process may run on."""
    counter = getattr(os, "process_cpu_count", None)          # Python 3.13
    if counter is not None:
        return counter() or 1
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def start_method() -> str:
    """'fork' where it is safe and cheapest: on Linux, when this process has no other thread
    (a fork copies only the calling thread, and a lock held by another one would stay locked
    in the child). A forked worker also inherits the compiled grammar. Otherwise 'forkserver'
    if there is one, else 'spawn' (macOS, Windows). REFEREE_START_METHOD overrides it."""
    chosen = os.environ.get("REFEREE_START_METHOD")
    methods = multiprocessing.get_all_start_methods()
    if chosen:
        if chosen not in methods:
            raise ValueError(f"REFEREE_START_METHOD={chosen!r}: not one of {', '.join(methods)}")
        return chosen
    if sys.platform.startswith("linux") and "fork" in methods and threading.active_count() == 1:
        return "fork"
    return "forkserver" if "forkserver" in methods else "spawn"


@contextlib.contextmanager
def ctrl_c_ignored():
    """Ctrl-C ignored inside. Processes started inside are born ignoring it (the terminal
    sends it to the whole process group: the parent gets it and stops them, where a spawned
    one would print a KeyboardInterrupt traceback, even while its interpreter starts); and a
    second Ctrl-C does not break the stopping of workers after a first one. Only the main
    thread may set a signal's handler: elsewhere, nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.SIG_DFL if previous is None else previous)


class WorkerDied(Exception):
    """A worker process stopped without handing back its task."""


class WorkerFailed(Exception):
    """A worker process could not start its work (e.g. it could not load the rules file)."""


class RemoteTraceback(Exception):
    """The traceback of an exception raised in a worker (the __cause__ of the one raised here)."""

    def __str__(self):
        return self.args[0]


# ---- the worker side ---------------------------------------------------------------------

_games = {}
_source = None


def worker_game(players):
    """The game of this worker for a player count, loaded the first time it is asked for."""
    game = _games.get(players)
    if game is None:
        path, options, coverage, params, chance = _source
        game = _games[players] = compiled(path, options, players, coverage, params, chance=chance)
    return game


def compiled(path, options, players, coverage, params, texts=None, chance="sampled"):
    """load_game's game, or WorkerFailed with its diagnostics (texts: as load_game takes them,
    the files' text when it is not read from the disk: see cluster.py)."""
    game, diagnostics, sources = load_game(path, tuple(options), players, coverage, params, texts=texts, chance=chance)
    if game is None:
        from referee.dsl.diagnostics import RulesError
        raise WorkerFailed(RulesError(diagnostics, sources).render())
    return game


def worker_main(conn, path, options, players, coverage=False, params=None, chance="sampled"):
    """The loop of one worker: load the game (with coverage: compiled to count its rule tags),
    say so, then run tasks until told to stop (None) or until the parent is gone (end of the pipe)."""
    global _source
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _source = (path, list(options), coverage, dict(params or {}), chance)
    try:
        worker_game(players)
    except BaseException as error:
        conn.send((READY, error_message(error)))
        return
    conn.send((READY, None))
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        task, function, task_players, args = message
        try:
            result = function(worker_game(task_players), *args)
        except BaseException as error:
            try:
                conn.send((task, "error", error_payload(error)))
            except Exception:                     # an exception that does not pickle
                conn.send((task, "error", error_payload(error, picklable=False)))
        else:
            conn.send((task, "ok", result))


def error_message(error) -> str:
    return str(error) if isinstance(error, WorkerFailed) else f"{type(error).__name__}: {error}"


def error_payload(error, picklable=True):
    """An exception raised by a task as (class, args, attributes, traceback text), to be raised
    again by the parent (raise_remote). Not the exception itself: unpickling one calls its
    __init__ again with its args, which RulesRuntimeError would turn into another message.
    picklable=False: a RuntimeError that says what it was, for an exception that does not pickle."""
    text = "".join(traceback.format_exception(type(error), error, error.__traceback__))
    if not picklable:
        return RuntimeError, (f"{type(error).__name__}: {error}",), {}, text
    return type(error), error.args, dict(getattr(error, "__dict__", {})), text


def raise_remote(payload):
    """Raise again, here, the exception of an error_payload, with the worker's traceback as its cause."""
    kind, args, attributes, text = payload
    error = kind.__new__(kind)
    error.args = args
    if attributes:
        error.__dict__.update(attributes)
    raise error from RemoteTraceback(text)


# ---- the parent side ---------------------------------------------------------------------

class Worker:
    def __init__(self, process, conn):
        self.process = process
        self.conn = conn
        self.ready = False
        self.task = None          # id of the task it is running

    def describe(self):
        self.process.join(1)          # its exit code
        code = self.process.exitcode
        if code is not None and code < 0:
            try:
                how = f"killed by signal {signal.Signals(-code).name}"
            except ValueError:
                how = f"killed by signal {-code}"
        else:
            how = f"exit code {code}"
        return f"worker process {self.process.pid} stopped unexpectedly ({how})"


class Pool:
    """N worker processes that have each loaded `path` with `options` for `players` (and
    `coverage`: compiled to count the rule tags, see coverage.py; `params`: the values of
    typed params, {name: value}, as load_game takes them; `chance`: as load_game takes it)."""

    def __init__(self, jobs, path, options, players, coverage=False, params=None, chance="sampled"):
        self.context = multiprocessing.get_context(start_method())
        self.workers = []
        self.queue = deque()        # (task id, function, players, args) not yet handed out
        self.results = {}           # task id -> result, until taken
        self.next_task = 0
        self.closed = False
        self.on_result = None       # called with each result as it arrives (a progress line)
        try:
            with ctrl_c_ignored():
                for _ in range(jobs):
                    mine, theirs = self.context.Pipe()
                    process = self.context.Process(target=worker_main,
                                                   args=(theirs, path, list(options), players, coverage,
                                                         dict(params or {}), chance),
                                                   daemon=True, name="referee-worker")
                    process.start()
                    theirs.close()
                    self.workers.append(Worker(process, mine))
        except BaseException:
            self.terminate()
            raise

    def __enter__(self):
        return self

    def __exit__(self, kind, value, trace):
        if kind is None:
            self.close()
        else:
            self.terminate()
        return False

    # -- handing out work

    def submit(self, function, players, *args, first=False) -> int:
        """Queue function(game, *args) for a worker whose game has `players` players; returns
        the task's id. `function` must be a module-level function (it is sent by name).
        first: ahead of the tasks already queued."""
        task = self.next_task
        self.next_task += 1
        if first:
            self.queue.appendleft((task, function, players, args))
        else:
            self.queue.append((task, function, players, args))
        self.dispatch()
        return task

    def dispatch(self):
        for worker in self.workers:
            if not self.queue:
                return
            if worker.ready and worker.task is None:
                item = self.queue.popleft()
                worker.task = item[0]
                try:
                    worker.conn.send(item)
                except OSError:                 # its end of the pipe is closed: it died
                    raise WorkerDied(worker.describe())

    def wait_ready(self):
        """Block until every worker has loaded its game."""
        while not all(w.ready for w in self.workers):
            self.step()

    def step(self):
        """Wait for at least one message from a worker; keep results, hand out queued work.
        Raises WorkerDied, WorkerFailed, or the exception a task raised."""
        if not self.queue and all(w.ready and w.task is None for w in self.workers):
            raise RuntimeError("waiting for a result that no worker is working on")
        by_handle = {}
        for worker in self.workers:
            by_handle[worker.conn] = worker
            by_handle[worker.process.sentinel] = worker
        for handle in wait(list(by_handle)):
            worker = by_handle[handle]
            if handle is worker.process.sentinel:
                if worker.conn.poll():          # its last words first, if any
                    self.receive(worker)
                raise WorkerDied(worker.describe())
            self.receive(worker)
        self.dispatch()

    def receive(self, worker):
        try:
            message = worker.conn.recv()
        except (EOFError, OSError):
            raise WorkerDied(worker.describe())
        if message[0] == READY:
            if message[1] is not None:
                raise WorkerFailed(message[1])
            worker.ready = True
            return
        task, status, payload = message
        worker.task = None
        if status == "error":
            raise_remote(payload)
        self.results[task] = payload
        if self.on_result is not None:
            self.on_result(payload)

    def take(self, task):
        """The result of a task, waiting for it."""
        while task not in self.results:
            self.step()
        return self.results.pop(task)

    def map_ordered(self, function, players, args_list, on_result=None):
        """function(game, *args) for each args of the list, spread over the workers; yields the
        results in the order of the list. on_result(result) is called as each one arrives, in
        whatever order (for a progress line). Leaving the loop early leaves the rest queued or
        running: close the pool."""
        tasks = [self.submit(function, players, *args) for args in args_list]
        self.on_result = on_result
        try:
            for task in tasks:
                yield self.take(task)
        finally:
            self.on_result = None

    # -- stopping

    def close(self):
        """Stop the workers politely (they finish nothing more), then firmly."""
        if self.closed:
            return
        for worker in self.workers:
            try:
                worker.conn.send(None)
            except (OSError, ValueError):
                pass
        for worker in self.workers:
            worker.process.join(2)
        self.terminate()

    def terminate(self):
        self.closed = True
        for worker in self.workers:
            if worker.process.is_alive():
                worker.process.terminate()
        for worker in self.workers:
            worker.process.join(2)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join(1)
            worker.conn.close()
            try:
                worker.process.close()
            except ValueError:                  # still running after SIGKILL: let it be
                pass
        self.workers = []


MOST_CHUNKS = 100_000        # of one run: more would be more tasks than memory holds well


def chunks(seeds, jobs, most=64):
    """Cut a sequence of seeds (a range, or a list) into runs of consecutive ones: about 8 per
    worker (so that a slow game does not keep the others waiting and the progress line moves),
    at most `most` long unless that made more than MOST_CHUNKS runs. A range is cut into
    ranges, not listed: a run of a billion games needs no list of a billion seeds."""
    if not len(seeds):
        return []
    size = max(1, min(most, -(-len(seeds) // (jobs * 8))), -(-len(seeds) // MOST_CHUNKS))
    return [seeds[i:i + size] for i in range(0, len(seeds), size)]


# ---- the tasks (run in the workers; the first argument is the worker's game) --------------

def simulate_chunk(game, seeds, max_moves, log_dir, rules_path, bots=None, details=False, native_rollouts=False):
    return [simulate.simulate_game(game, seed, max_moves, log_dir, rules_path, bots, details, native_rollouts)
            for seed in seeds]


def tournament_chunk(game, games, max_moves, native_rollouts=False):
    """The records of simulate_game for (seed, {seat: bot kind}) pairs: the games of a tournament."""
    return [simulate.simulate_game(game, seed, max_moves, bots=kinds, native_rollouts=native_rollouts)
            for seed, kinds in games]


def verify_chunk(game, seeds, max_moves, leaks=True):
    """The outcomes of the games of these seeds, and their coverage counts (None without)."""
    if game.coverage is not None:
        game.coverage.reset()         # what ran here before (a shrink) is not these games'
    outcomes = [verify_module.outcome(game, seed, max_moves, leaks) for seed in seeds]
    return outcomes, (game.coverage.take() if game.coverage is not None else None)


def shrink_failure(game, failure):
    return verify_module.shrink(game, failure)


def bench_task(game, first_seed, stride, seconds, max_moves):
    return simulate.bench_playouts(game, first_seed, stride, seconds, max_moves)


# ---- the commands' parallel parts -----------------------------------------------------------

def verify_reports(pool, jobs, counts, games, seed, max_moves, shrink_failures=True, leaks=True,
                   on_games=None) -> dict:
    """{player count: verify.Report}, the same as verify.verify(game of that count, ...) gives:
    the pool's workers play the games of every count, the outcomes are collected in seed
    order, and each failure kept is shrunk by a worker too (while other games still play).
    on_games(n) is called as the outcomes of n more games are collected (a progress line)."""
    seeds = range(seed, seed + games)
    runs = {count: [pool.submit(verify_chunk, count, part, max_moves, leaks) for part in chunks(seeds, jobs)]
            for count in counts}
    reports, shrinking = {}, {}
    for count in counts:
        outcomes, counted = [], None
        for task in runs[count]:
            part, part_counts = pool.take(task)
            outcomes += part
            if on_games is not None:
                on_games(len(part))
            counted = coverage_module.add(counted, part_counts)
        reports[count] = verify_module.collect(outcomes)
        reports[count].coverage = counted
        if shrink_failures:
            # the longest tasks: ahead of the games still to play
            shrinking[count] = [pool.submit(shrink_failure, count, failure, first=True)
                                for failure in reports[count].failures]
    for count, tasks in shrinking.items():
        reports[count].failures = [pool.take(task) for task in tasks]
    return reports
