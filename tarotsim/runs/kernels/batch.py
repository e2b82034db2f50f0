"""Many deals: blocks of consecutive deals played in parallel, records indexed by deal.

Every deal seeds its own stream from the run key and its deal number, so a record
does not depend on the block, the thread or the worker that played it.

One kernel, ``play_block``, plays every run, one block of deals per call: each deal once
per row of a configuration table ``cfgs`` (int64[k, N_CFG]). A plain run is one row; a
sweep is one row per forced contract (rows differing only in ``C_FORCED_CONTRACT``); a
duel is one row per rotation. A trace asks for each deal's log and card sets as well. Each
entry into a kernel costs a whole compilation of the game, so these runs share one.
``run_deals`` hands the blocks of a run to threads, each calling ``play_block``, which
releases the GIL (``nogil``): a Numba ``prange`` loop did the same, but compiled the whole
game once more for its loop body and again for the parallel kernel around it (a seventh of
the first compile of a run, a fifth with the search players).

``run_deals`` takes ``searching``: ``True`` when some seat searches (``pimc`` play, the
``montecarlo`` bidder), else ``None``, decided once per run by the Python layer from the
policy registry (``RunSpec.searches``), and hands each block its own search scratch
(``searching.new_search``), or ``None``. Numba compiles a kernel per type of its arguments,
so a run without search players compiles none of them; with search players blocks are small.
``play_block`` inlines the deal (``seats.play_deal``), the search players' decisions
included: each compiled function emits again the machine code of every function it calls,
so one more compiled layer between a run and the game would cost its first compile the
whole game's code once more. The same way ``users``
is ``None``, or the run's user card players and bidders (``players.kernels.user.Users``): a run
without them compiles none of their code, and every run with them shares one compilation,
whatever the functions. A block stops at the deal after one of them returned an illegal
card or wish (``Users.fault``), with the deal and the row noted.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from queue import SimpleQueue
from typing import NamedTuple

import numba
import numpy as np

from tarotsim._jit import njit
from tarotsim.engine.kernels.state import (
    C_DEALING,
    DEALING_UNSHUFFLED,
    M_CHIEN,
    M_DEALT,
    M_ECART,
    M_SHOWN,
    MAX_SEATS,
    N_LOG,
    N_MASKS,
    N_REC,
    SEQUENCE_DEALS,
    DealState,
    new_state,
)
from tarotsim.players.kernels.policies.dispatch import check_policies
from tarotsim.players.kernels.search.searching import Search, new_search
from tarotsim.players.kernels.seats import gather_pack, play_deal
from tarotsim.players.kernels.user import F_DEAL, F_ROW, F_SEAT, USER_SLOTS, Users

BLOCK_DEALS = 1024
"""Deals per block: one table and one scratch record per block."""
SEARCH_BLOCK_DEALS = 32
"""The same when some seat searches (``pimc`` play, the ``montecarlo`` bidder): its deals
cost hundreds or thousands of others, so small blocks keep every thread busy, also in the
calls of a run with a progress bar (``runs.runner.progress_step``). Not smaller: each block
makes its search scratch, the Monte Carlo bidder's 9 MB of it, which at 8 deals a block cost
a ``bid=montecarlo`` run a sixth more time."""


def no_trace() -> tuple[np.ndarray, np.ndarray]:
    """The ``logs`` and ``masks`` arguments of ``run_deals`` for a run that keeps no trace:
    int64[0, N_LOG] and uint64[0, N_MASKS]."""
    return np.zeros((0, N_LOG), dtype=np.int64), np.zeros((0, N_MASKS), dtype=np.uint64)


class BlockScratch(NamedTuple):
    """What one block of deals plays on (``play_block``'s last arguments), made by the caller so
    that ``play_block`` allocates nothing and is compiled without reference counting (the
    deal it inlines reads the table's arrays at every card). A thread reuses its scratch for
    block after block: every deal starts from its own stream and a table made ready afresh,
    so no record depends on what the scratch held before."""

    search: Search | None  # the search players' scratch (``searching.new_search``) or None
    tb: DealState  # the table (``engine.kernels.state.new_state``)
    rec: np.ndarray  # int64[N_REC], the record row of the deal in play
    log: np.ndarray  # int64[N_LOG], its decisions


def block_scratch(cfgs: np.ndarray, searching: bool | None) -> BlockScratch:
    """A fresh ``BlockScratch`` for one block of a run under ``cfgs`` (int64[k, N_CFG]), with a
    search scratch of its own when ``searching``."""
    search = None if searching is None else new_search(cfgs)
    return BlockScratch(search, new_state(), np.zeros(N_REC, dtype=np.int64), np.zeros(N_LOG, dtype=np.int64))


def block_size(cfgs: np.ndarray, searching: bool | None) -> int:
    """Deals per block of a run under ``cfgs`` (int64[k, N_CFG]): ``SEQUENCE_DEALS`` with
    unshuffled dealing, else ``SEARCH_BLOCK_DEALS`` when ``searching``, else ``BLOCK_DEALS``."""
    if cfgs[0, C_DEALING] == DEALING_UNSHUFFLED:
        return SEQUENCE_DEALS
    return BLOCK_DEALS if searching is None else SEARCH_BLOCK_DEALS


@njit(_nrt=False)
def play_block(
    block: int,
    size: int,
    first_deal: int,
    key: np.ndarray,
    cfgs: np.ndarray,
    out: np.ndarray,
    logs: np.ndarray,
    masks: np.ndarray,
    users: Users | None,
    search: Search | None,
    tb: DealState,
    rec: np.ndarray,
    log: np.ndarray,
) -> None:
    """Play the deals of block ``block`` (deals ``block * size`` … ``(block + 1) * size - 1``)
    that the run ``first_deal`` … ``first_deal + n - 1`` holds, once per row of ``cfgs`` on
    one table, into ``out`` (row (deal - first_deal) * k + r for row r of ``cfgs``), and into
    ``logs`` and ``masks`` when they have rows (a trace); ``search``, ``tb``, ``rec`` and
    ``log`` the block's ``BlockScratch`` (``block_scratch``); the arguments otherwise as
    ``run_deals``'s.

    Unshuffled dealing (one row): the deals of the first deal's sequence that come before it
    are replayed first, so that the pack holds the cards gathered from the deal before it.
    """
    n_rows = cfgs.shape[0]
    n_deals = out.shape[0] // n_rows
    start = max(first_deal, block * size)
    stop = min(first_deal + n_deals, (block + 1) * size)
    tracing = logs.shape[0] > 0
    unshuffled = cfgs[0, C_DEALING] == DEALING_UNSHUFFLED
    first = start - start % SEQUENCE_DEALS if unshuffled else start
    for deal in range(first, stop):
        for r in range(n_rows):
            cfg = cfgs[r]
            if tracing:
                for i in range(N_LOG):
                    log[i] = 0
            if users is not None:
                if users.fault[F_SEAT] >= 0:  # a user function failed: the run stops
                    return
            play_deal(deal, key, cfg, tb, rec, log, search, users)
            if users is not None:
                if users.fault[F_SEAT] >= 0 and users.fault[F_DEAL] < 0:
                    users.fault[F_DEAL] = deal
                    users.fault[F_ROW] = r
            if unshuffled:
                gather_pack(tb, cfg, rec, log)
            if deal < start:
                continue  # replayed for its cards only
            row = (deal - first_deal) * n_rows + r
            for c in range(N_REC):
                out[row, c] = rec[c]
            if tracing:
                for i in range(N_LOG):
                    logs[row, i] = log[i]
                for seat in range(MAX_SEATS):
                    for w in range(2):
                        masks[row, M_DEALT + 2 * seat + w] = tb.dealt[seat, w]
                        masks[row, M_SHOWN + 2 * seat + w] = tb.shown[seat, w]
                for w in range(2):
                    masks[row, M_CHIEN + w] = tb.chien[w]
                    masks[row, M_ECART + w] = tb.ecart[w]


def run_deals(
    first_deal: int,
    key: np.ndarray,
    cfgs: np.ndarray,
    out: np.ndarray,
    logs: np.ndarray,
    masks: np.ndarray,
    searching: bool | None,
    users: Users | None,
) -> None:
    """Play every deal ``first_deal … first_deal + n - 1`` once under each configuration of ``cfgs``.

    ``cfgs`` is int64[k, N_CFG]: one row for a plain run, one per contract for a sweep
    (rows differing only in ``C_FORCED_CONTRACT``), one per rotation for a duel. Row
    ``i * k + r`` of ``out`` (int32[n * k, N_REC]) gets deal ``first_deal + i`` under
    ``cfgs[r]``. The deal's stream restarts for each row, so every row is dealt the same
    cards and draws from the same random stream. Several rows need shuffled dealing.

    ``logs`` (int64[n * k, N_LOG]) and ``masks`` (uint64[n * k, N_MASKS]) get each row's
    decision log and card sets (hands as dealt, chien, écart, poignées shown) for a trace,
    or have no rows (``no_trace``) when none is kept.

    Blocks of ``block_size`` deals are aligned on absolute deal numbers, so with unshuffled
    dealing every block but the first starts a sequence and the first replays at most one
    partial sequence. The blocks go to as many threads as Numba uses now
    (``numba.get_num_threads``, which ``runs.runner.using_threads`` sets), each taking the
    next block when it is done; raises ``ValueError`` for a policy code no dispatch handles.

    ``users``: the run's user card players and bidders, or ``None`` when it has none.
    """
    check_policies(cfgs, searching is not None, 0 if users is None else USER_SLOTS)
    n_deals = out.shape[0] // cfgs.shape[0]
    size = block_size(cfgs, searching)
    first_block = first_deal // size
    blocks = range(first_block, (first_deal + n_deals + size - 1) // size)
    threads = min(numba.get_num_threads(), len(blocks))
    scratches: SimpleQueue[BlockScratch] = SimpleQueue()  # one per thread, reused block after block
    for _ in range(max(threads, 1)):
        scratches.put(block_scratch(cfgs, searching))

    def play(block: int) -> None:
        scratch = scratches.get()
        try:
            play_block(block, size, first_deal, key, cfgs, out, logs, masks, users, *scratch)
        finally:
            scratches.put(scratch)

    if threads <= 1:
        for block in blocks:
            play(block)
        return
    pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="tarotsim-deals")
    try:
        done = pool.map(play, blocks)
        for _ in done:  # raises what a block raised
            pass
    finally:  # after an error or an interrupt, the blocks not started are dropped
        pool.shutdown(wait=True, cancel_futures=True)
