"""Many deals: blocks of consecutive deals played in parallel, records indexed by deal.

Every deal seeds its own stream from the run key and its deal number, so a record
does not depend on the block, the thread or the worker that played it.

One kernel, ``run_deals``, plays every run: each deal once per row of a configuration
table ``cfgs`` (int64[k, N_CFG]). A plain run is one row; a sweep is one row per forced
contract (rows differing only in ``C_FORCED_CONTRACT``); a duel is one row per rotation.
A trace asks for each deal's log and card sets as well. Each entry into a kernel costs
a whole compilation of the game, so these runs share one.

It takes ``searching``: ``True`` when some seat searches (``pimc`` play, the
``montecarlo`` bidder), else ``None``, decided once per run by the Python layer from the
policy registry (``RunSpec.searches``). Numba compiles a kernel per type of its arguments,
so a run without search players compiles none of them; with ``True``, each block makes its
own search scratch (``searching.new_search``) and blocks are small.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from tarotsim._jit import njit
from tarotsim.kernels.driver import check_policies
from tarotsim.kernels.game import gather_pack, new_auction, play_deal
from tarotsim.kernels.search.searching import block_search
from tarotsim.kernels.state import (
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
    new_state,
)

BLOCK_DEALS = 1024
"""Deals per block: one table and one scratch record per block."""
SEARCH_BLOCK_DEALS = 32
"""The same when some seat searches (``pimc`` play, the ``montecarlo`` bidder): its deals
cost hundreds or thousands of others, so small blocks keep every thread busy, also in the
calls of a run with a progress bar (``run.engine.progress_step``). Not smaller: each block
makes its search scratch, the Monte Carlo bidder's 9 MB of it, which at 8 deals a block cost
a ``bid=montecarlo`` run a sixth more time."""


def no_trace() -> tuple[np.ndarray, np.ndarray]:
    """The ``logs`` and ``masks`` arguments of ``run_deals`` for a run that keeps no trace:
    int64[0, N_LOG] and uint64[0, N_MASKS]."""
    return np.zeros((0, N_LOG), dtype=np.int64), np.zeros((0, N_MASKS), dtype=np.uint64)


@njit
def _block_size(cfgs: np.ndarray, searching: bool | None) -> int:
    if cfgs[0, C_DEALING] == DEALING_UNSHUFFLED:
        return SEQUENCE_DEALS
    if searching is None:
        return BLOCK_DEALS
    return SEARCH_BLOCK_DEALS


@njit
def _play_block(
    start: int,
    stop: int,
    first_deal: int,
    key: np.ndarray,
    cfgs: np.ndarray,
    out: np.ndarray,
    logs: np.ndarray,
    masks: np.ndarray,
    searching: bool | None,
) -> None:
    """Play deals start … stop - 1 once per row of ``cfgs`` on one table into ``out`` (row
    (deal - first_deal) * k + r for row r of ``cfgs``), and into ``logs`` and ``masks`` when
    they have rows (a trace).

    Unshuffled dealing (one row): the deals of ``start``'s sequence that come before it are
    replayed first, so that the pack holds the cards gathered from the deal before ``start``.
    """
    n_rows = cfgs.shape[0]
    tracing = logs.shape[0] > 0
    tb = new_state()
    auction = new_auction()
    search = block_search(cfgs, searching)
    rec = np.zeros(N_REC, dtype=np.int64)
    log = np.zeros(N_LOG, dtype=np.int64)
    unshuffled = cfgs[0, C_DEALING] == DEALING_UNSHUFFLED
    if unshuffled:
        for earlier in range(start - start % SEQUENCE_DEALS, start):
            play_deal(earlier, key, cfgs[0], tb, rec, log, auction, search)
            gather_pack(tb, cfgs[0], rec, log)
    for deal in range(start, stop):
        for r in range(n_rows):
            cfg = cfgs[r]
            if tracing:
                for i in range(N_LOG):
                    log[i] = 0
            play_deal(deal, key, cfg, tb, rec, log, auction, search)
            if unshuffled:
                gather_pack(tb, cfg, rec, log)
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


@njit(parallel=True)
def run_deals(
    first_deal: int,
    key: np.ndarray,
    cfgs: np.ndarray,
    out: np.ndarray,
    logs: np.ndarray,
    masks: np.ndarray,
    searching: bool | None,
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

    Blocks of ``BLOCK_DEALS`` deals (``SEARCH_BLOCK_DEALS`` when ``searching`` is set,
    ``SEQUENCE_DEALS`` with unshuffled dealing) are aligned on absolute deal numbers, so
    with unshuffled dealing every block but the first starts a sequence and the first
    replays at most one partial sequence. Each block runs in its own (serial) function,
    which keeps the per-deal work out of the parallel loop's body.
    """
    check_policies(cfgs, searching is not None)
    n_deals = out.shape[0] // cfgs.shape[0]
    size = _block_size(cfgs, searching)
    first_block = first_deal // size
    n_blocks = (first_deal + n_deals + size - 1) // size - first_block
    for b in prange(n_blocks):
        start = max(first_deal, (first_block + b) * size)
        stop = min(first_deal + n_deals, (first_block + b + 1) * size)
        _play_block(start, stop, first_deal, key, cfgs, out, logs, masks, searching)
