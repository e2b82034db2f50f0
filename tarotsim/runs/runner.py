"""Running the compiled kernels from Python: threads, chunks of deals, progress."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import numba
import numpy as np

from tarotsim.engine.kernels.state import C_DEALING, C_FORCED_CONTRACT, DEALING_UNSHUFFLED, N_REC
from tarotsim.players.config import check_threads
from tarotsim.players.hooks import PlayerError
from tarotsim.players.policies import searches as policy_searches
from tarotsim.players.users import UserRun, has_user_codes
from tarotsim.runs.compiling import prepare_run
from tarotsim.runs.kernels.batch import SEARCH_BLOCK_DEALS, no_trace, run_deals

PROGRESS_STEP_DEALS = 1 << 16
"""Deals per call into the kernels when a progress bar is shown (one bar update each)."""
SEARCH_STEP_BLOCKS = 4
"""When some seat searches (``pimc`` play, the ``montecarlo`` bidder), whose deals cost
hundreds or thousands of others: blocks of deals per thread and per progress-bar update,
enough that every thread stays busy until a call's last blocks."""


def progress_step(searches: bool, threads: int | None = None) -> int:
    """Deals per progress-bar update of a run whose seats search (``searches``) or not, on
    ``threads`` threads (default: those Numba uses now)."""
    if not searches:
        return PROGRESS_STEP_DEALS
    threads = numba.get_num_threads() if threads is None else threads
    return SEARCH_STEP_BLOCKS * threads * SEARCH_BLOCK_DEALS


def searching_argument(searches: bool) -> bool | None:
    """The ``searching`` argument of ``runs.kernels.batch.run_deals``: ``True`` when a seat searches, else
    ``None`` (the kernels then compile no search player and play large blocks)."""
    return True if searches else None


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
            "at a time (--out DIR, and a smaller --chunk-deals if need be; or tarotsim.runs.store.execute)"
        )


def show_progress(progress: bool | None, deals: int, step: int = PROGRESS_STEP_DEALS) -> bool:
    """Default: a progress bar only on a terminal and for runs that take more than a moment
    (four updates or more of ``step`` deals, ``progress_step``)."""
    if progress is None:
        return sys.stderr.isatty() and deals >= 4 * step
    return bool(progress)


def config_rows(cfg: np.ndarray, contracts: np.ndarray | None = None) -> np.ndarray:
    """The configuration table of ``runs.kernels.batch.run_deals`` (int64[k, N_CFG]): one row per contract
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


def run_kernel(
    first_deal: int,
    key: np.ndarray,
    cfgs: np.ndarray,
    out: np.ndarray,
    logs: np.ndarray,
    masks: np.ndarray,
    searching: bool | None,
    users: UserRun | None,
) -> None:
    """``runs.kernels.batch.run_deals`` on these arguments, with the run's Numba players (``users``, see
    ``user_run``) when it has some.

    Raises
    ------
    tarotsim.interfaces.python_players.PlayerError
        When a Numba player returns an illegal card: the deals are played again on one
        thread up to the first such card, so that the error names the same one (seat, deal,
        decision, legal cards) whatever the number of threads.
    """
    if users is None:
        run_deals(first_deal, key, cfgs, out, logs, masks, searching, None)
        return
    users.reset()
    run_deals(first_deal, key, users.cfgs, out, logs, masks, searching, users.users)
    if users.failed:
        users.reset()
        with using_threads(1):
            run_deals(first_deal, key, users.cfgs, out, logs, masks, searching, users.users)
        raise PlayerError(users.error())


def user_run(cfgs: np.ndarray) -> UserRun | None:
    """The Numba players of the configuration table ``cfgs`` (``players.users.UserRun``), None
    when no seat has one."""
    return UserRun(cfgs) if has_user_codes(cfgs) else None


def play_deals(
    first_deal: int,
    deals: int,
    key: np.ndarray,
    cfg: np.ndarray,
    *,
    contracts: np.ndarray | None = None,
    progress: bool = False,
    searches: bool | None = None,
) -> np.ndarray:
    """Records of deals first_deal … first_deal + deals - 1: int32[deals * k, N_REC].

    With ``contracts`` (int64 codes) every deal is played once per contract (a sweep,
    k = len(contracts)); with ``cfg`` int64[k, N_CFG], once per configuration (a duel's
    rotations); else once under the run's bidding (k = 1). ``searches``: whether a seat
    searches (``RunSpec.searches``; None: ``players.policies.searches`` of the configuration), which
    sets both the kernels' block size and the progress step, so that every call keeps every
    thread busy.
    """
    cfgs = config_rows(cfg, contracts)
    per_deal = len(cfgs)
    if searches is None:
        searches = policy_searches(cfgs)
    searching = searching_argument(searches)
    logs, masks = no_trace()
    out = np.zeros((deals * per_deal, N_REC), dtype=np.int32)
    users = user_run(cfgs)
    prepare_run(first_deal, key, cfgs, out, logs, masks, searching, users)
    if not progress:
        run_kernel(first_deal, key, cfgs, out, logs, masks, searching, users)
        return out
    from tqdm import tqdm

    with tqdm(total=deals, unit="deal", unit_scale=True, desc="deals", file=sys.stderr) as bar:
        step = progress_step(searches)
        for start in range(0, deals, step):
            stop = min(deals, start + step)
            run_kernel(
                first_deal + start,
                key,
                cfgs,
                out[start * per_deal : stop * per_deal],
                logs,
                masks,
                searching,
                users,
            )
            bar.update(stop - start)
    return out
