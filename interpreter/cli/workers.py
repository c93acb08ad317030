"""Where a command's games are played: in this process, in worker processes (--jobs) or on a
Dask cluster (--cluster), their records given back in order either way. (parallel and cluster,
which bring multiprocessing, and simulate are imported only when a command plays games: start-up.)"""
from __future__ import annotations

import contextlib

from .errors import BAD_INPUT, RUNTIME, UNAVAILABLE, CliError, UsageError


def jobs_of(args, workers_write_logs=True) -> int:
    """--jobs, or all the cores; with --cluster, how many tasks its workers run at once
    (workers_write_logs: whether the workers write the logs of --log-dir, not this process)."""
    from ..play import cluster, parallel
    if getattr(args, "cluster", None):
        if args.jobs is not None:
            raise UsageError("argument --cluster: not with --jobs: the cluster's workers play the games")
        if workers_write_logs and getattr(args, "log", None) and remote_cluster(args):
            raise UsageError("argument --log-dir: the workers of a remote --cluster would write the logs on their "
                             "machines: use --cluster local[:N] or --jobs N")
        return cluster.worker_count(cluster_client(args))
    return args.jobs if args.jobs is not None else parallel.default_jobs()


def played_here(args, jobs) -> bool:
    """Whether the games are played in this process: one job and no --cluster."""
    return jobs <= 1 and not getattr(args, "cluster", None)


def remote_cluster(args) -> bool:
    """Whether --cluster names a scheduler, whose workers may be on other machines."""
    return bool(getattr(args, "cluster", None)) and args.cluster[0] == "address"


class Resources(contextlib.ExitStack):
    """What a command opens at most once and keeps for its whole run (the Dask client of
    --cluster: analyze --against plays on the same cluster twice), closed when main returns,
    a second Ctrl-C not stopping the closing."""
    client = None

    def __exit__(self, *raised):
        if self.client is None:             # nothing opened (no --cluster): no import of multiprocessing
            return super().__exit__(*raised)
        from ..play import parallel
        with parallel.ctrl_c_ignored():
            return super().__exit__(*raised)


def cluster_client(args):
    """The Dask client of --cluster, connected (a local cluster started) when first asked for."""
    from ..play import cluster, parallel
    resources = args.resources
    if resources.client is None:
        kind, value = args.cluster
        try:
            resources.client = resources.enter_context(cluster.connected(kind, value, parallel.default_jobs()))
        except cluster.ClusterUnavailable as error:
            raise CliError(f"referee: {error}", UNAVAILABLE)
    return resources.client


@contextlib.contextmanager
def task_pool(jobs, args, game, players=None):
    """What plays the chunks of a command: a worker_pool of `jobs` processes (their game of
    `players`, default the game's), or with --cluster a cluster.ClusterPool, the rules file
    sent to its workers as text."""
    from ..play import cluster
    if not getattr(args, "cluster", None):
        with worker_pool(jobs, args, game, players) as pool:
            yield pool
        return
    if getattr(args, "chance", "sampled") != "sampled":
        raise UsageError("argument --chance: explicit is played here or by local workers, not by a --cluster")
    source = cluster.source_of(game, args.file, args.option, getattr(args, "coverage", False))
    with worker_errors(args, "on the --cluster"):
        yield cluster.ClusterPool(cluster_client(args), source)


@contextlib.contextmanager
def worker_pool(jobs, args, game, players=None):
    """A parallel.Pool for the rules file of `args`; a worker that dies or cannot start is a
    CliError (exit 70, or 65 when it cannot load the file). The pool is stopped on the way out,
    Ctrl-C included."""
    from ..play import parallel
    with worker_errors(args):
        with parallel.Pool(jobs, args.file, args.option, players or game.num_players,
                           getattr(args, "coverage", False), game.given_params, getattr(args, "chance", "sampled")) as pool:
            yield pool


@contextlib.contextmanager
def worker_errors(args, where=""):
    """A worker that died (70) or could not load the rules file (65), as a CliError."""
    from ..play import parallel
    where = f" {where}" if where else ""
    try:
        yield
    except parallel.WorkerDied as error:
        raise CliError(f"referee: {error}{where}; with --jobs 1 the games are played in this process", RUNTIME)
    except parallel.WorkerFailed as error:
        raise CliError(f"referee: a worker process{where} could not load {args.file}:\n{error}", BAD_INPUT)


def simulated_games(args, game, jobs, progress, bots=None, details=False):
    """The records of simulate_game for seeds base, base+1, ..., in seed order: played here
    with one job, else by worker processes (bots and details: as simulate_game takes them)."""
    from ..play import parallel, simulate
    from ..play.bots import searches
    seeds = range(args.seed, args.seed + args.n)
    log_dir = getattr(args, "log", None)
    if bots and any(searches(kind) for kind in bots.values()):
        kernel, rollouts = None, native_rollouts(args, game)
    else:
        kernel, rollouts = native_kernel(args, game, seeds, bots), False
    if kernel is not None:
        for start in range(0, len(seeds), NATIVE_BATCH):
            yield from kernel.records(seeds[start:start + NATIVE_BATCH], args.max_moves,
                                      lambda seed: simulate.simulate_game(game, seed, args.max_moves, None,
                                                                          args.file, bots, details),
                                      details)
            progress.update(min(start + NATIVE_BATCH, len(seeds)))
        return
    if played_here(args, jobs):
        for i, seed in enumerate(seeds):
            yield simulate.simulate_game(game, seed, args.max_moves, log_dir, args.file, bots, details, rollouts)
            progress.update(i + 1)
        return
    yield from pooled_records(args, game, jobs, progress, parallel.simulate_chunk,
                              [(part, args.max_moves, log_dir, args.file, bots, details, rollouts)
                               for part in parallel.chunks(seeds, jobs)])


NATIVE_BATCH = 1000         # games per call of a native kernel (progress between calls)


def native_kernel(args, game, seeds, bots=None):
    """The game's native kernel when --engine asks for one and it can play these games as
    asked, else None (and a one-line note on stderr when native was asked: why not)."""
    engine = getattr(args, "engine", "python")
    if engine == "python":
        return None
    from ..native.engine_choice import native_kernel as chosen, numba_missing
    why = ("--log-dir writes each game's log" if getattr(args, "log", None) else
           "--coverage counts the rules' coverage" if getattr(args, "coverage", False) else
           "a bot other than random plays" if bots and any(kind != "random" for kind in bots.values()) else None)
    if why is None and numba_missing() is None:
        from ..native.kernel import seeds_fit
        if not seeds_fit(seeds):
            why = "the seeds are beyond 2**32 - 1"
    kernel, note = chosen(game, engine, why)
    if note is not None:
        args.errors.error(note)
    return kernel


def native_rollouts(args, game) -> bool:
    """Whether the search bots (mcts, ismcts) play their playouts in the game's native kernel:
    --engine native or auto, and the kernel compiles (else a one-line note on stderr, why not)."""
    engine = getattr(args, "engine", "python")
    if engine == "python":
        return False
    from ..native.engine_choice import native_rollouts as chosen
    why = "--coverage counts the rules' coverage (the searches' playouts too)" if getattr(args, "coverage", False) else None
    rollouts, note = chosen(game, engine, why)
    if note is not None:
        args.errors.error(note)
    return rollouts is not None


def pooled_records(args, game, jobs, progress, task, task_args):
    """The records of task(game, *a) for each a of task_args (each a list of records), played
    by `jobs` worker processes (or the workers of --cluster), in the order of task_args;
    progress counts them as they come."""
    done = 0

    def arrived(records):
        nonlocal done
        done += len(records)
        progress.update(done)
    with task_pool(jobs, args, game) as pool:
        for records in pool.map_ordered(task, game.num_players, task_args, on_result=arrived):
            yield from records
