"""Many deals: blocks of consecutive deals played in parallel, records indexed by deal.

Every deal seeds its own stream from the run key and its deal number, so a record
does not depend on the block, the thread or the worker that played it.

Each kernel takes ``searching``: ``True`` when some seat searches (``pimc`` play, the
``montecarlo`` bidder), else ``None`` (``searching.needs_search`` says which). Numba
compiles a kernel per type of its arguments, so a run without search players compiles
none of them; with ``True``, each block makes its own search scratch
(``searching.new_search``).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from tarotsim._jit import njit
from tarotsim.kernels.game import Auction, gather_pack, new_auction, play_deal
from tarotsim.kernels.searching import Search, block_search, searches, searches_any
from tarotsim.kernels.state import (
    C_DEALING,
    C_FORCED_CONTRACT,
    DEALING_UNSHUFFLED,
    M_CHIEN,
    M_DEALT,
    M_ECART,
    M_SHOWN,
    MAX_SEATS,
    N_LOG,
    N_REC,
    SEQUENCE_DEALS,
    DealState,
    new_state,
)

BLOCK_DEALS = 1024
"""Deals per block: one table and one scratch record per block."""
SEARCH_BLOCK_DEALS = 8
"""The same when some seat searches (``pimc``): its deals cost thousands of others, so
small blocks keep every thread busy."""


@njit
def _block_size(cfg: np.ndarray) -> int:
    if cfg[C_DEALING] == DEALING_UNSHUFFLED:
        return SEQUENCE_DEALS
    return SEARCH_BLOCK_DEALS if searches(cfg) else BLOCK_DEALS


@njit
def _catch_up(
    deal: int,
    key: np.ndarray,
    cfg: np.ndarray,
    tb: DealState,
    rec: np.ndarray,
    log: np.ndarray,
    auction: Auction,
    search: Search | None,
) -> None:
    """Unshuffled dealing: replay the deals of ``deal``'s sequence that come before it, so
    that ``tb.pack`` holds the cards gathered from the deal before ``deal``."""
    if cfg[C_DEALING] != DEALING_UNSHUFFLED:
        return
    for earlier in range(deal - deal % SEQUENCE_DEALS, deal):
        play_deal(earlier, key, cfg, tb, rec, log, auction, search)
        gather_pack(tb, cfg, rec, log)


@njit(inline="always")
def _play(
    deal: int,
    key: np.ndarray,
    cfg: np.ndarray,
    tb: DealState,
    rec: np.ndarray,
    log: np.ndarray,
    auction: Auction,
    search: Search | None,
) -> None:
    play_deal(deal, key, cfg, tb, rec, log, auction, search)
    if cfg[C_DEALING] == DEALING_UNSHUFFLED:
        gather_pack(tb, cfg, rec, log)


@njit
def _play_block(
    start: int,
    stop: int,
    first_deal: int,
    key: np.ndarray,
    cfg: np.ndarray,
    out: np.ndarray,
    searching: bool | None,
) -> None:
    """Play deals start … stop - 1 on one table into ``out`` (row = deal - first_deal)."""
    tb = new_state()
    auction = new_auction()
    search = block_search(cfg.reshape((1, cfg.shape[0])), searching)
    rec = np.zeros(N_REC, dtype=np.int64)
    log = np.zeros(N_LOG, dtype=np.int64)
    _catch_up(start, key, cfg, tb, rec, log, auction, search)
    for deal in range(start, stop):
        _play(deal, key, cfg, tb, rec, log, auction, search)
        for c in range(N_REC):
            out[deal - first_deal, c] = rec[c]


@njit(parallel=True)
def run_deals(
    first_deal: int, key: np.ndarray, cfg: np.ndarray, out: np.ndarray, searching: bool | None
) -> None:
    """Play deals ``first_deal … first_deal + len(out) - 1``; row i of ``out`` (int32[n, N_REC]) gets deal first_deal + i.

    Blocks are aligned on absolute deal numbers, so with unshuffled dealing every block
    but the first starts a sequence and the first replays at most one partial sequence.
    Each block runs in its own (serial) function, which keeps the per-deal work out of
    the parallel loop's body.
    """
    n_deals = out.shape[0]
    size = _block_size(cfg)
    first_block = first_deal // size
    n_blocks = (first_deal + n_deals + size - 1) // size - first_block
    for b in prange(n_blocks):
        start = max(first_deal, (first_block + b) * size)
        stop = min(first_deal + n_deals, (first_block + b + 1) * size)
        _play_block(start, stop, first_deal, key, cfg, out, searching)


@njit(parallel=True)
def run_sweep(
    first_deal: int,
    key: np.ndarray,
    cfg: np.ndarray,
    contracts: np.ndarray,
    out: np.ndarray,
    searching: bool | None,
) -> None:
    """Play every deal once per contract in ``contracts``, taken by seat ``cfg[C_FORCED_TAKER]``.

    Row ``i * len(contracts) + k`` of ``out`` (int32[n * len(contracts), N_REC]) gets deal
    ``first_deal + i`` under ``contracts[k]``. The deal's stream restarts for each contract,
    so every contract is played on the same cards by the same policies.
    """
    n_contracts = contracts.shape[0]
    n_deals = out.shape[0] // n_contracts
    size = SEARCH_BLOCK_DEALS if searches(cfg) else BLOCK_DEALS
    n_blocks = (n_deals + size - 1) // size
    for block in prange(n_blocks):
        _sweep_block(
            block * size, min(n_deals, (block + 1) * size), first_deal, key, cfg, contracts, out, searching
        )


@njit
def _sweep_block(
    start: int,
    stop: int,
    first_deal: int,
    key: np.ndarray,
    cfg: np.ndarray,
    contracts: np.ndarray,
    out: np.ndarray,
    searching: bool | None,
) -> None:
    """Sweep rows of deals first_deal + start … first_deal + stop - 1 on one table."""
    n_contracts = contracts.shape[0]
    tb = new_state()
    auction = new_auction()
    search = block_search(cfg.reshape((1, cfg.shape[0])), searching)
    rec = np.zeros(N_REC, dtype=np.int64)
    log = np.zeros(N_LOG, dtype=np.int64)
    block_cfg = cfg.copy()
    for i in range(start, stop):
        for k in range(n_contracts):
            block_cfg[C_FORCED_CONTRACT] = contracts[k]
            play_deal(first_deal + i, key, block_cfg, tb, rec, log, auction, search)
            for c in range(N_REC):
                out[i * n_contracts + k, c] = rec[c]


@njit
def trace_deals(
    first_deal: int,
    key: np.ndarray,
    cfg: np.ndarray,
    out: np.ndarray,
    logs: np.ndarray,
    masks: np.ndarray,
    searching: bool | None,
) -> None:
    """Like ``run_deals`` on one thread, also keeping each deal's log (int64[n, N_LOG]) and card sets (uint64[n, N_MASKS])."""
    tb = new_state()
    auction = new_auction()
    search = block_search(cfg.reshape((1, cfg.shape[0])), searching)
    rec = np.zeros(N_REC, dtype=np.int64)
    if out.shape[0] > 0:
        _catch_up(first_deal, key, cfg, tb, rec, logs[0], auction, search)
    for i in range(out.shape[0]):
        log = logs[i]
        _play(first_deal + i, key, cfg, tb, rec, log, auction, search)
        for c in range(N_REC):
            out[i, c] = rec[c]
        for seat in range(MAX_SEATS):
            for w in range(2):
                masks[i, M_DEALT + 2 * seat + w] = tb.dealt[seat, w]
                masks[i, M_SHOWN + 2 * seat + w] = tb.shown[seat, w]
        for w in range(2):
            masks[i, M_CHIEN + w] = tb.chien[w]
            masks[i, M_ECART + w] = tb.ecart[w]


@njit(parallel=True)
def run_duel(
    first_deal: int, key: np.ndarray, cfgs: np.ndarray, out: np.ndarray, searching: bool | None
) -> None:
    """Play every deal once under each configuration of ``cfgs`` (int64[k, N_CFG]): a duel's rotations.

    Row ``i * k + r`` of ``out`` (int32[n * k, N_REC]) gets deal ``first_deal + i`` under
    ``cfgs[r]``. The deal's stream restarts for each rotation, so every rotation is dealt
    the same cards and draws from the same random stream.
    """
    n_rotations = cfgs.shape[0]
    n_deals = out.shape[0] // n_rotations
    size = SEARCH_BLOCK_DEALS if searches_any(cfgs) else BLOCK_DEALS
    n_blocks = (n_deals + size - 1) // size
    for block in prange(n_blocks):
        _duel_block(block * size, min(n_deals, (block + 1) * size), first_deal, key, cfgs, out, searching)


@njit
def _duel_block(
    start: int,
    stop: int,
    first_deal: int,
    key: np.ndarray,
    cfgs: np.ndarray,
    out: np.ndarray,
    searching: bool | None,
) -> None:
    """Duel rows of deals first_deal + start … first_deal + stop - 1 on one table."""
    n_rotations = cfgs.shape[0]
    tb = new_state()
    auction = new_auction()
    search = block_search(cfgs, searching)
    rec = np.zeros(N_REC, dtype=np.int64)
    log = np.zeros(N_LOG, dtype=np.int64)
    for i in range(start, stop):
        for r in range(n_rotations):
            play_deal(first_deal + i, key, cfgs[r], tb, rec, log, auction, search)
            for c in range(N_REC):
                out[i * n_rotations + r, c] = rec[c]
