"""Runs on a Dask distributed cluster: the same run directory, the same records, more machines.

A run's chunk ``i`` is a pure function of the run (its seed, deals, table and policies)
and ``i`` (see `tarotsim.runs.spec`), so each chunk is one Dask task and the records do
not depend on how many workers there are, which worker makes which chunk or in what
order they finish: they equal those of a local run with the same seed, bit for bit.

- Each missing chunk (``Run.missing()``) is submitted once; a resumed run submits only
  what is left, whoever made the rest (this machine's threads or a cluster).
- Workers write their chunks into the run directory (``write_on="workers"``, which must
  then be a path every worker reaches, such as a shared file system) or send them back
  for the client to write (``write_on="client"``).
- The client alone writes ``manifest.json``, one chunk at a time as results arrive, and
  records which worker (its address) made each chunk, with the file's size and checksum;
  it holds the run directory's writer lock from start to end.
- A task is idempotent: it writes its chunk under a temporary name of its own, then
  renames it (``manifest.write_chunk``), and the content is the same whoever makes it. A
  worker that dies costs only its chunks: Dask gives them to the workers left and they
  are made again.
- Numba compiles once per worker process, in a warm-up run on every worker before the
  chunks are sent (from the on-disk cache when the sources are unchanged; a local
  cluster's client fills that cache first), and each task uses one Numba thread:
  parallelism comes from the workers (one per core).

Dask is optional (the extra ``distributed``: ``pip install 'dask[distributed]'``) and imported only here, only
when a run asks for a cluster.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import time
from pathlib import Path
from typing import Any

from tarotsim.players.config import check_count
from tarotsim.runs.manifest import can_write_chunks, versions, write_chunk
from tarotsim.runs.runner import using_threads
from tarotsim.runs.spec import RunSpec
from tarotsim.runs.store import Run

WRITE_ON = ("workers", "client")
RETRIES = 2
"""Extra tries of a chunk whose task raised (a passing file-system error); a worker that
dies is not a failure of its tasks: Dask reschedules them without counting retries."""
NUMBA_THREADS_PER_TASK = 1
"""Numba threads of one chunk task: a worker process runs one chunk per Dask thread, each
on one core, so a machine is filled by ``--nworkers <cores> --nthreads 1``."""
MISSING_DASK = "Dask is needed for --scheduler/--workers: pip install 'dask[distributed]'"
_SAME_VERSIONS = ("tarotsim", "numba", "numpy")
"""Packages whose versions must agree between client and workers for identical records."""


def _import_distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise ValueError(MISSING_DASK) from None
    return distributed


def _check_options(scheduler: str | None, workers: int | None, write_on: str) -> None:
    if scheduler is None and workers is None:
        raise ValueError("a distributed run needs a scheduler address or a number of local workers")
    if scheduler is not None and workers is not None:
        raise ValueError(
            "give either a scheduler address (--scheduler) or local workers (--workers), not both"
        )
    if scheduler is not None and (not isinstance(scheduler, str) or not scheduler.strip()):
        raise ValueError(f"the scheduler address must be like tcp://host:8786, got {scheduler!r}")
    if workers is not None:
        check_count(workers, "workers", minimum=1)
    if write_on not in WRITE_ON:
        raise ValueError(f"write_on must be 'workers' or 'client', got {write_on!r}")


def _run_token(spec: RunSpec, directory: Path, write_on: str) -> str:
    """Short digest of what makes a task's result: two runs never share a Dask key."""
    text = json.dumps([spec.identity(), str(directory), write_on], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def task_key(spec: RunSpec, index: int, token: str) -> str:
    """The Dask key of chunk ``index``: readable (kind, seed, chunk) plus the run's digest."""
    return f"tarotsim-{spec.kind}-seed{spec.seed}-chunk{index:05d}-{token}"


# ----------------------------------------------------------------------- on the workers


def _worker_address() -> str:
    from distributed import get_worker

    try:
        return str(get_worker().address)
    except ValueError:  # called outside a worker (tests call the task directly)
        return f"pid:{os.getpid()}"


def make_chunk(identity: dict[str, Any], index: int, directory: str | None) -> dict[str, Any]:
    """One chunk task: make chunk ``index`` of the run ``identity``.

    With ``directory``, write it there and return what the manifest needs (its row count,
    its ``thrown_in`` column, the file's size and checksum); without, return the whole
    frame for the client to write.
    """
    spec = RunSpec.from_identity(identity)
    started = time.perf_counter()
    with using_threads(NUMBA_THREADS_PER_TASK):
        frame = spec.compute_chunk(index)
    written = None
    if directory is not None:
        written = write_chunk(directory, index, frame, run=identity)
        frame = frame[["thrown_in"]]  # all that Run.record_chunk reads, besides the row count
    return {
        "index": index,
        "frame": frame,
        "written": written,
        "worker": _worker_address(),
        "seconds": time.perf_counter() - started,
    }


def _warm_up_sync(identity: dict[str, Any], directory: str | None) -> dict[str, Any]:
    spec = RunSpec.from_identity({**identity, "deals": 2, "chunk_deals": 2})
    started = time.perf_counter()
    with using_threads(NUMBA_THREADS_PER_TASK):
        spec.compute_chunk(0)  # compiles the run's kernels in this process (or loads them from disk)
    sees_run = directory is None or can_write_chunks(directory)
    return {"versions": versions(), "sees_run": sees_run, "seconds": time.perf_counter() - started}


async def warm_up(identity: dict[str, Any], directory: str | None) -> dict[str, Any]:
    """Run on every worker by ``client.run``: compile, report versions and whether the run
    directory is reachable. Compiling happens off the worker's event loop, which keeps
    answering the scheduler meanwhile."""
    return await asyncio.get_running_loop().run_in_executor(None, _warm_up_sync, identity, directory)


# ----------------------------------------------------------------------- on the client


def _check_workers(reports: dict[str, dict[str, Any]], directory: str | None) -> None:
    if not reports:
        raise ValueError("the Dask cluster has no workers; start some (dask worker ADDRESS) and try again")
    ours = versions()
    for address, report in sorted(reports.items()):
        theirs = report["versions"]
        differ = [
            f"{name} {theirs.get(name)} there, {ours[name]} here"
            for name in _SAME_VERSIONS
            if theirs.get(name) != ours[name]
        ]
        if differ:
            raise ValueError(
                f"worker {address} runs other versions ({'; '.join(differ)}); "
                "install the same tarotsim, numba and numpy everywhere"
            )
        if not report["sees_run"]:
            raise ValueError(
                f"worker {address} cannot write the run directory {directory}: give --out a path "
                "every worker shares (the same mount point), or use --write-on client"
            )


def execute_distributed(
    directory: str | os.PathLike[str],
    spec: RunSpec,
    *,
    scheduler: str | None = None,
    workers: int | None = None,
    write_on: str = "workers",
    progress: bool = False,
    threads_per_worker: int = 1,
    allow_version_change: bool = False,
) -> Run:
    """Make (or finish) the run ``spec`` in ``directory`` on a Dask distributed cluster.

    Parameters
    ----------
    directory : str or os.PathLike
        The run directory. With ``write_on="workers"`` every worker must reach it by the
        same path (a shared file system).
    spec : RunSpec
        The run; its records equal those of `tarotsim.runs.store.execute` with the same spec.
    scheduler : str, optional
        Address of a running scheduler, e.g. ``"tcp://10.0.0.5:8786"``.
    workers : int, optional
        Instead of ``scheduler``: start a local cluster of this many worker processes for
        the run, and close it after.
    write_on : {"workers", "client"}
        Who writes the chunk files: the workers (default), or this process, which receives
        each chunk's records over the network.
    progress : bool
        Show a progress bar of deals (tqdm).
    threads_per_worker : int
        Dask threads of each local worker process (with ``workers``); each runs one chunk
        at a time on one Numba thread.
    allow_version_change : bool
        Finish a run that another tarotsim version started (recorded in its manifest).

    Returns
    -------
    Run
        The run, finished (``manifest["complete"]``), its manifest naming the worker that
        made each chunk.

    Raises
    ------
    ValueError
        If Dask is not installed, the options are inconsistent, a worker runs other
        package versions or cannot reach the run directory, or the run directory is
        refused (see `tarotsim.runs.store.Run`).
    """
    _check_options(scheduler, workers, write_on)
    check_count(threads_per_worker, "threads per worker", minimum=1)
    distributed = _import_distributed()
    spec.check_memory()
    with Run(Path(directory).resolve(), spec, allow_version_change=allow_version_change) as run:
        todo = run.missing()
        if todo:
            if workers is not None:
                # compile here first: the workers, on this machine, then load the kernels from the
                # on-disk cache instead of each compiling them at once when the sources have changed
                _warm_up_sync(spec.identity(), None)
                with distributed.LocalCluster(
                    n_workers=workers,
                    threads_per_worker=threads_per_worker,
                    processes=True,
                    dashboard_address=":0",
                ) as cluster:  # any free port
                    with distributed.Client(cluster) as client:
                        _submit_all(client, distributed, run, todo, write_on, progress)
            else:
                try:
                    client = distributed.Client(scheduler, timeout="20s")
                except (OSError, ValueError, TimeoutError) as err:
                    raise ValueError(
                        f"cannot reach the Dask scheduler at {scheduler}: {err} (an address reads "
                        "tcp://host:8786)"
                    ) from None
                with client:
                    _submit_all(client, distributed, run, todo, write_on, progress)
        run.finish()
    return run


def _submit_all(
    client: Any, distributed: Any, run: Run, todo: list[int], write_on: str, progress: bool
) -> None:
    spec = run.spec
    identity = spec.identity()
    target = str(run.directory) if write_on == "workers" else None
    _check_workers(client.run(warm_up, identity, target), target)
    token = _run_token(spec, run.directory, write_on)
    futures = {
        client.submit(
            make_chunk, identity, index, target, key=task_key(spec, index, token), retries=RETRIES
        ): index
        for index in todo
    }
    bar = None
    if progress:
        from tqdm import tqdm

        done = spec.deals - sum(spec.chunk_range(i)[1] for i in todo)
        bar = tqdm(total=spec.deals, initial=done, unit="deal", unit_scale=True, desc=f"{spec.kind} (dask)")
    try:
        for future in distributed.as_completed(list(futures)):
            result = future.result()  # a chunk that failed after its retries stops the run here
            index = futures.pop(future)
            future.release()  # the worker may forget the chunk now
            if write_on == "client":
                run.save_chunk(index, result["frame"], worker=result["worker"], seconds=result["seconds"])
            else:
                run.record_chunk(
                    index,
                    result["frame"],
                    result["written"],
                    worker=result["worker"],
                    seconds=result["seconds"],
                )
            if bar is not None:
                bar.update(spec.chunk_range(index)[1])
    finally:
        if bar is not None:
            bar.close()
        if futures:  # stopped early (an error, Ctrl-C): what is recorded stays, the rest is dropped
            client.cancel(list(futures))
