"""Running the compiled kernels from Python: threads, chunks of deals, progress."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import numba
import numpy as np

from tarotsim.config import check_count
from tarotsim.kernels.batch import no_trace, run_deals
from tarotsim.kernels.searching import needs_search
from tarotsim.kernels.state import C_DEALING, C_FORCED_CONTRACT, DEALING_UNSHUFFLED, N_REC

PROGRESS_STEP_DEALS = 1 << 16
"""Deals per call into the kernels when a progress bar is shown (one bar update each)."""
SEARCH_STEP_DEALS = 64
"""The same when some seat searches (``pimc`` play, the ``montecarlo`` bidder), whose deals
cost hundreds or thousands of others."""


def progress_step(cfg: np.ndarray) -> int:
    """Deals per progress-bar update of a run with configuration ``cfg`` (int64[N_CFG], or
    one row per duel rotation)."""
    return PROGRESS_STEP_DEALS if needs_search(cfg) is None else SEARCH_STEP_DEALS


def check_threads(threads: int | None) -> int:
    """Number of threads to use: ``threads`` if valid, else every thread Numba may start."""
    most: int = numba.config.NUMBA_NUM_THREADS  # type: ignore[attr-defined]
    if threads is None:
        return most
    threads = check_count(threads, "threads", minimum=1)
    if threads > most:
        raise ValueError(f"threads must be between 1 and {most} on this machine, got {threads}")
    return threads


@contextmanager
def using_threads(threads: int | None) -> Iterator[int]:
    """Run the enclosed kernels on ``threads`` threads, restoring the previous count after."""
    count = check_threads(threads)
    before = numba.get_num_threads()
    numba.set_num_threads(count)
    try:
        yield count
    finally:
        numba.set_num_threads(before)


_CGROUP_MEMORY = (
    ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),  # cgroup v2
    ("/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/memory/memory.usage_in_bytes"),  # v1
)
"""(limit, usage) files of this process's memory cgroup: a container's limit, which the
machine's free memory does not show."""


def _read_int(path: str) -> int | None:
    try:
        with open(path, encoding="ascii") as stream:
            return int(stream.read().strip())
    except (OSError, ValueError):  # absent, or "max": no limit
        return None


def available_memory() -> int | None:
    """Bytes of memory this process can have now without swapping: the machine's (Linux's
    MemAvailable, else the free physical pages), less where a container's memory limit is
    lower; None where nothing is known."""
    machine = None
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    machine = int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    if machine is None:
        try:
            machine = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        except (AttributeError, OSError, ValueError):
            pass
    for limit_file, usage_file in _CGROUP_MEMORY:
        limit, usage = _read_int(limit_file), _read_int(usage_file)
        if limit is not None and usage is not None:
            left = max(0, limit - usage)
            machine = left if machine is None else min(machine, left)
            break
    return machine


def check_memory(rows: int, row_bytes: int) -> None:
    """Refuse to hold ``rows`` records of ``row_bytes`` bytes each when memory cannot hold them.

    Raises
    ------
    ValueError
        If they need more memory than is available, with the way to bound it: a run
        directory made chunk by chunk.
    """
    needed = rows * row_bytes
    available = available_memory()
    if available is not None and needed > available:
        raise ValueError(
            f"{rows:,} records need about {needed / 1e9:,.1f} GB of memory ({row_bytes} bytes each) and "
            f"{available / 1e9:,.1f} GB are available: write the run to a directory, which holds one chunk "
            "at a time (--out DIR, and a smaller --chunk-deals if need be; or tarotsim.run.store.execute)"
        )


def show_progress(progress: bool | None, deals: int, step: int = PROGRESS_STEP_DEALS) -> bool:
    """Default: a progress bar only on a terminal and for runs that take more than a moment
    (four updates or more of ``step`` deals, ``progress_step``)."""
    if progress is None:
        return sys.stderr.isatty() and deals >= 4 * step
    return bool(progress)


def config_rows(cfg: np.ndarray, contracts: np.ndarray | None = None) -> np.ndarray:
    """The configuration table of ``batch.run_deals`` (int64[k, N_CFG]): one row per contract
    of ``contracts`` (a sweep), the rows of ``cfg`` int64[k, N_CFG] (a duel's rotations), or
    ``cfg`` int64[N_CFG] as its one row.

    Raises
    ------
    ValueError
        If a table of several rows deals unshuffled: its deals replay each other's cards.
    """
    rows = np.array(np.atleast_2d(cfg), dtype=np.int64, order="C")
    if contracts is not None:
        rows = np.repeat(rows, len(contracts), axis=0)
        rows[:, C_FORCED_CONTRACT] = contracts
    if len(rows) > 1 and (rows[:, C_DEALING] == DEALING_UNSHUFFLED).any():
        raise ValueError("a sweep or a duel replays each deal once per row, so it needs shuffled dealing")
    return rows


def play_deals(
    first_deal: int,
    deals: int,
    key: np.ndarray,
    cfg: np.ndarray,
    *,
    contracts: np.ndarray | None = None,
    progress: bool = False,
) -> np.ndarray:
    """Records of deals first_deal … first_deal + deals - 1: int32[deals * k, N_REC].

    With ``contracts`` (int64 codes) every deal is played once per contract (a sweep,
    k = len(contracts)); with ``cfg`` int64[k, N_CFG], once per configuration (a duel's
    rotations); else once under the run's bidding (k = 1).
    """
    cfgs = config_rows(cfg, contracts)
    per_deal = len(cfgs)
    searching = needs_search(cfgs)
    logs, masks = no_trace()
    out = np.zeros((deals * per_deal, N_REC), dtype=np.int32)
    if not progress:
        run_deals(first_deal, key, cfgs, out, logs, masks, searching)
        return out
    from tqdm import tqdm

    with tqdm(total=deals, unit="deal", unit_scale=True, desc="deals", file=sys.stderr) as bar:
        step = progress_step(cfgs)
        for start in range(0, deals, step):
            stop = min(deals, start + step)
            run_deals(
                first_deal + start, key, cfgs, out[start * per_deal : stop * per_deal], logs, masks, searching
            )
            bar.update(stop - start)
    return out
