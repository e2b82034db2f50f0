"""Bidding: the contract a seat would like to play, from Chavey's count.

The thresholds are the bidding seat's ``P_BID_PRISE … P_BID_GARDE_CONTRE`` (defaults 40,
56, 71, 81 at 4 players: the published bands). Prise and Garde compare the plain count; Garde sans and Garde
contre compare the count plus the distribution bonus. The game loop turns the wish
into a bid only when it is higher than the highest bid so far.
"""

from __future__ import annotations

import numpy as np

from tarotsim._jit import njit
from tarotsim.kernels.chavey import distribution_points, hand_points
from tarotsim.kernels.score import GARDE, GARDE_CONTRE, GARDE_SANS, PASS, PRISE
from tarotsim.kernels.state import P_BID_GARDE, P_BID_GARDE_CONTRE, P_BID_GARDE_SANS, P_BID_PRISE, seat_slot


@njit
def wished_contract(word0: np.uint64, word1: np.uint64, cfg: np.ndarray, seat: int) -> int:
    """Highest contract (PASS … GARDE_CONTRE) whose threshold, ``seat``'s, the hand reaches."""
    return chavey_wish(word0, word1, cfg, seat)


@njit
def chavey_wish(word0: np.uint64, word1: np.uint64, cfg: np.ndarray, seat: int) -> int:
    """Chavey's count against ``seat``'s thresholds: the highest contract the hand reaches.

    Also the public convention by which the ``montecarlo`` bidder assumes the seats that
    spoke before it bid (``policies.montecarlo``).
    """
    count = hand_points(word0, word1)
    with_distribution = count + distribution_points(word0)
    if with_distribution >= cfg[seat_slot(seat, P_BID_GARDE_CONTRE)]:
        return GARDE_CONTRE
    if with_distribution >= cfg[seat_slot(seat, P_BID_GARDE_SANS)]:
        return GARDE_SANS
    if count >= cfg[seat_slot(seat, P_BID_GARDE)]:
        return GARDE
    if count >= cfg[seat_slot(seat, P_BID_PRISE)]:
        return PRISE
    return PASS
