"""What the bidders wish with one given hand, outside a game (``tarotsim.hand``).

``seat_wish`` is the wish of a ``chavey`` or ``learned`` seat (``policies.bidding``);
``montecarlo_totals`` runs the ``montecarlo`` bidder's decision (``policies.montecarlo``)
for a seat that speaks after ``spoken`` seats that all passed, and returns its playout sums
by contract, from which its wish follows (the best positive mean, else pass).
"""

from __future__ import annotations

import numpy as np

from tarotsim._jit import njit
from tarotsim.kernels.policies.bidding import wished_contract
from tarotsim.kernels.policies.montecarlo import N_CONTRACT_CODES, new_bid_scratch, playout_totals
from tarotsim.kernels.state import C_PLAYERS, I_DEALER, MAX_SEATS, new_state


@njit
def seat_wish(word0: np.uint64, word1: np.uint64, cfg: np.ndarray, seat: int) -> int:
    """The contract code ``seat`` wishes with this hand by its bid policy (chavey or learned)."""
    return wished_contract(word0, word1, cfg, seat)


@njit
def montecarlo_totals(
    word0: np.uint64,
    word1: np.uint64,
    cfgs: np.ndarray,
    seat: int,
    dealer: int,
    key: np.ndarray,
    deal: int,
    totals: np.ndarray,
) -> int:
    """The ``montecarlo`` decision of ``seat`` (bidding by ``cfgs[0]``, int64[1, N_CFG]) holding
    this hand, the seats from ``dealer + 1`` to it having passed: ``totals`` (int64[5]) gets its
    playout score sums by contract code; returns the worlds accepted (the means' divisor)."""
    tb = new_state()
    tb.dealt[seat, 0] = word0
    tb.dealt[seat, 1] = word1
    tb.info[I_DEALER] = dealer
    players = cfgs[0, C_PLAYERS]
    spoken = (seat - dealer - 1) % players
    bids = np.zeros(MAX_SEATS, dtype=np.int64)
    bs = new_bid_scratch(cfgs)
    accepted = playout_totals(tb, cfgs[0], seat, spoken, key, deal, bids, bs)
    for c in range(N_CONTRACT_CODES):
        totals[c] = bs.total[c]
    return accepted
