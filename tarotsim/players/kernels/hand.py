"""What the bidders wish with one given hand, outside a game (``tarotsim.analysis.hand``).

``seat_wish`` is the wish of a ``chavey`` or ``learned`` seat (``policies.bidding``);
``montecarlo_totals`` runs the ``montecarlo`` bidder's decision (``search.montecarlo``)
for a seat that speaks after ``spoken`` seats that all passed, and returns its playout sums
by contract, from which its wish follows (the best positive mean, else pass).
"""

from __future__ import annotations

import numpy as np

from tarotsim._jit import njit
from tarotsim.engine.kernels.state import C_PLAYERS, P_BID_POLICY, new_state, seat_slot
from tarotsim.engine.kernels.steps import reset_table
from tarotsim.engine.kernels.view import seat_view
from tarotsim.players.kernels.policies.bidding import choose_bid
from tarotsim.players.kernels.search.montecarlo import N_CONTRACT_CODES, new_bid_scratch, playout_totals


@njit
def seat_wish(word0: np.uint64, word1: np.uint64, cfg: np.ndarray, seat: int) -> int:
    """The contract code ``seat`` wishes with this hand by its bid policy (chavey or learned)."""
    tb = new_state()
    tb.hands[seat, 0] = word0
    tb.hands[seat, 1] = word1
    return choose_bid(cfg[seat_slot(seat, P_BID_POLICY)], seat_view(tb, seat), cfg)


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
    tb = new_state()  # the seat's hand, the dealer, and passes heard (tb.bids)
    tb.dealt[seat, 0] = word0
    tb.dealt[seat, 1] = word1
    reset_table(tb, cfgs[0, C_PLAYERS], dealer)  # as the game sets a table up for its auction
    bs = new_bid_scratch(cfgs)
    accepted = playout_totals(seat_view(tb, seat), cfgs[0], key, deal, bs)
    for c in range(N_CONTRACT_CODES):
        totals[c] = bs.total[c]
    return accepted
