"""Stage kernels for the benchmark: a deal played on the deal machine (``players.kernels.machine``)
up to a stage and stopped there, so that the cost of each stage of a deal is the difference of
two runs (``bench.works.stage_work``, ``benchmarks/bench_engine.py``). A *stage* is this
benchmark's cut of a deal, along the machine's phases.

The stages, each run with every stage before it:

- ``STAGE_DEAL``: the deal's stream, the shuffle and the deal, the table made ready, the
  petit-sec check (``players.kernels.machine.deal_table``);
- ``STAGE_BID``: the auction: each seat's wished contract, the record of the taker's hand;
- ``STAGE_ECART``: the contract taken: the call (5 players), the chien and the écart, the
  count's start, the chelem announcement (the machine's decisions up to the first card);
- ``STAGE_PLAY``: every card of the deal, the poignées shown (``players.kernels.machine.play_tricks``, the
  trick loop: the policies' choices, the play step, each trick counted);
- ``STAGE_SCORE``: the result and the scores (``players.kernels.machine.finish`` without a record);
- ``STAGE_RECORDS``: the record row and the decision log written (``players.kernels.machine.finish``), then
  copied into the output row: ``players.kernels.seats.play_deal`` and ``runs.kernels.batch.run_deals`` exactly.

Run to ``STAGE_RECORDS`` a stage kernel gives the records of ``runs.kernels.batch.run_deals``
(``tests/test_stages.py``). Shuffled dealing and no search players only: the benchmark's runs.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from tarotsim._jit import njit
from tarotsim.engine.kernels.rng import seed_stream
from tarotsim.engine.kernels.state import (
    I_TAKER,
    I_TRICK,
    N_LOG,
    N_REC,
    PH_BID,
    PH_OVER,
    PH_TRICK,
    PH_WISH,
    Q_PHASE,
    S_ATTACK_TRICKS,
    DealState,
    new_state,
)
from tarotsim.players.kernels.machine import deal_table, dealer_of, finish, play_tricks, step
from tarotsim.runs.kernels.batch import BLOCK_DEALS

STAGE_DEAL = 0
STAGE_BID = 1
STAGE_ECART = 2
STAGE_PLAY = 3
STAGE_SCORE = 4
STAGE_RECORDS = 5
N_STAGES = 6
STAGES: tuple[tuple[str, str], ...] = (
    ("deal", "the deal's stream, the shuffle and the deal, the table made ready, the petit-sec check"),
    ("bid", "the auction: each seat's wished contract, the taker's hand recorded"),
    ("écart", "the contract taken: the call (5 players), the chien and the écart, the count started"),
    ("play", "every card and poignée: the policies' choices, the play step, each trick counted"),
    ("score", "the result and every seat's score (settle_deal)"),
    ("records", "the record row, the log, the copy out"),
)
"""The stages in play order (index = ``STAGE_*`` code): name, what each adds."""


@njit(_nrt=False)
def play_until(
    stage: int, deal: int, key: np.ndarray, cfg: np.ndarray, tb: DealState, rec: np.ndarray, log: np.ndarray
) -> None:
    """Play deal number ``deal`` of the run whose key is ``key`` (uint64[4]) up to ``stage``
    (``STAGE_*``) on ``tb``, on the deal machine; ``rec`` (int64[N_REC]) and ``log``
    (int64[N_LOG]) get what the deal has written so far, all of it at ``STAGE_RECORDS``,
    which is ``players.kernels.seats.play_deal`` (shuffled dealing, no search players)."""
    pos = tb.pos
    seed_stream(tb.rng, key, deal)
    deal_table(tb, cfg, rec, deal, dealer_of(deal, cfg))
    if stage < STAGE_BID:
        return
    while pos[Q_PHASE] == PH_BID or pos[Q_PHASE] == PH_WISH:
        step(tb, cfg, rec, log, None)
    if stage < STAGE_ECART:
        return
    while pos[Q_PHASE] != PH_TRICK and pos[Q_PHASE] != PH_OVER:
        step(tb, cfg, rec, log, None)
    if stage < STAGE_PLAY or pos[Q_PHASE] == PH_OVER:
        return
    play_tricks(tb, cfg, None, 0, 0)
    if stage < STAGE_SCORE:
        return
    if stage < STAGE_RECORDS:
        finish(tb, cfg, None, None)
    else:
        finish(tb, cfg, rec, log)


@njit
def _stage_block(
    stage: int, start: int, stop: int, key: np.ndarray, cfg: np.ndarray, out: np.ndarray
) -> None:
    """Deals start … stop - 1 up to ``stage`` on one table. At ``STAGE_RECORDS`` row ``deal``
    of ``out`` gets the deal's record; before it, column 0 gets a digest of the table."""
    tb = new_state()
    rec = np.zeros(N_REC, dtype=np.int64)
    log = np.zeros(N_LOG, dtype=np.int64)
    for deal in range(start, stop):
        play_until(stage, deal, key, cfg, tb, rec, log)
        if stage >= STAGE_RECORDS:
            for c in range(N_REC):
                out[deal, c] = rec[c]
        else:
            out[deal, 0] = tb.info[I_TAKER] + tb.info[I_TRICK] + tb.count[S_ATTACK_TRICKS] + tb.scores[0]


@njit(parallel=True)
def run_stage(stage: int, key: np.ndarray, cfg: np.ndarray, out: np.ndarray) -> None:
    """Play deals 0 … len(out) - 1 up to ``stage`` (``STAGE_*``) in blocks of
    ``runs.kernels.batch.BLOCK_DEALS``, in parallel; ``out`` is int32[deals, N_REC] as in ``runs.kernels.batch.run_deals``."""
    deals = out.shape[0]
    for block in prange((deals + BLOCK_DEALS - 1) // BLOCK_DEALS):
        _stage_block(stage, block * BLOCK_DEALS, min(deals, (block + 1) * BLOCK_DEALS), key, cfg, out)
