"""Many deals: blocks of consecutive deals played in parallel, records indexed by deal.

Every deal seeds its own stream from the run key and its deal number, so a record
does not depend on the block, the thread or the worker that played it.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from tarotsim._jit import njit
from tarotsim.kernels.config import C_FORCED_CONTRACT
from tarotsim.kernels.game import N_LOG, N_REC, play_deal
from tarotsim.kernels.table import MAX_SEATS, new_table

BLOCK_DEALS = 1024
"""Deals per block: one table and one scratch record per block."""

# columns of the card-set log written by trace_deals (uint64 words)
M_DEALT = 0  # 2 words per seat
M_CHIEN = 2 * MAX_SEATS
M_ECART = M_CHIEN + 2
M_SHOWN = M_ECART + 2  # 2 words per seat
N_MASKS = M_SHOWN + 2 * MAX_SEATS


@njit(parallel=True)
def run_deals(first_deal: int, key: np.ndarray, cfg: np.ndarray, out: np.ndarray) -> None:
    """Play deals ``first_deal … first_deal + len(out) - 1``; row i of ``out`` (int32[n, N_REC]) gets deal first_deal + i."""
    n_deals = out.shape[0]
    n_blocks = (n_deals + BLOCK_DEALS - 1) // BLOCK_DEALS
    for block in prange(n_blocks):
        tb = new_table()
        rec = np.zeros(N_REC, dtype=np.int64)
        log = np.zeros(N_LOG, dtype=np.int64)
        stop = min(n_deals, (block + 1) * BLOCK_DEALS)
        for i in range(block * BLOCK_DEALS, stop):
            play_deal(first_deal + i, key, cfg, tb, rec, log)
            for c in range(N_REC):
                out[i, c] = rec[c]


@njit(parallel=True)
def run_sweep(first_deal: int, key: np.ndarray, cfg: np.ndarray, contracts: np.ndarray, out: np.ndarray) -> None:
    """Play every deal once per contract in ``contracts``, taken by seat ``cfg[C_FORCED_TAKER]``.

    Row ``i * len(contracts) + k`` of ``out`` (int32[n * len(contracts), N_REC]) gets deal
    ``first_deal + i`` under ``contracts[k]``. The deal's stream restarts for each contract,
    so every contract is played on the same cards by the same policies.
    """
    n_contracts = contracts.shape[0]
    n_deals = out.shape[0] // n_contracts
    n_blocks = (n_deals + BLOCK_DEALS - 1) // BLOCK_DEALS
    for block in prange(n_blocks):
        tb = new_table()
        rec = np.zeros(N_REC, dtype=np.int64)
        log = np.zeros(N_LOG, dtype=np.int64)
        block_cfg = cfg.copy()
        stop = min(n_deals, (block + 1) * BLOCK_DEALS)
        for i in range(block * BLOCK_DEALS, stop):
            for k in range(n_contracts):
                block_cfg[C_FORCED_CONTRACT] = contracts[k]
                play_deal(first_deal + i, key, block_cfg, tb, rec, log)
                for c in range(N_REC):
                    out[i * n_contracts + k, c] = rec[c]


@njit
def trace_deals(
    first_deal: int, key: np.ndarray, cfg: np.ndarray, out: np.ndarray, logs: np.ndarray, masks: np.ndarray
) -> None:
    """Like ``run_deals`` on one thread, also keeping each deal's log (int64[n, N_LOG]) and card sets (uint64[n, N_MASKS])."""
    tb = new_table()
    rec = np.zeros(N_REC, dtype=np.int64)
    for i in range(out.shape[0]):
        log = logs[i]
        play_deal(first_deal + i, key, cfg, tb, rec, log)
        for c in range(N_REC):
            out[i, c] = rec[c]
        for seat in range(MAX_SEATS):
            for w in range(2):
                masks[i, M_DEALT + 2 * seat + w] = tb.dealt[seat, w]
                masks[i, M_SHOWN + 2 * seat + w] = tb.shown[seat, w]
        for w in range(2):
            masks[i, M_CHIEN + w] = tb.chien[w]
            masks[i, M_ECART + w] = tb.ecart[w]
