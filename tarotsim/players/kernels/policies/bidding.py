"""Bidding: the contract a seat would like to play, by the seat's bid policy (``P_BID_POLICY``),
from its ``SeatView`` (its hand as dealt; the bids heard are there too).

``chavey``: the thresholds are the bidding seat's ``P_BID_PRISE … P_BID_GARDE_CONTRE``
(defaults 40, 56, 71, 81 at 4 players: the published bands). Prise and Garde compare the
plain count; Garde sans and Garde contre compare the count plus the distribution bonus.

``learned``: a model fitted on a sweep (``tarotsim.players.bidder``) predicts the taker's score of
each contract from the hand's features (``engine.kernels.features``) as a linear function whose
coefficients are fixed-point integers in the seat's block (``engine.kernels.state.P_LEARNED_0`` …); the
seat wishes the contract with the highest prediction, or passes when none is above 0.

The game loop turns the wish into a bid only when it is higher than the highest bid so far.
"""

from __future__ import annotations

import numpy as np

from tarotsim._jit import njit
from tarotsim.engine.kernels.chavey import distribution_points, hand_points
from tarotsim.engine.kernels.features import N_FEATURES, hand_features
from tarotsim.engine.kernels.score import GARDE, GARDE_CONTRE, GARDE_SANS, PASS, PRISE
from tarotsim.engine.kernels.state import (
    LEARNED_ROW,
    N_LEARNED_CONTRACTS,
    P_BID_GARDE,
    P_BID_GARDE_CONTRE,
    P_BID_GARDE_SANS,
    P_BID_PRISE,
    P_LEARNED_0,
    seat_slot,
)
from tarotsim.engine.kernels.view import SeatView
from tarotsim.players.kernels.policies.codes import BID_CHAVEY, BID_LEARNED

BID_CODES = (BID_CHAVEY, BID_LEARNED)
"""The codes ``choose_bid`` handles: every bid policy that searches nothing."""


@njit
def chavey_wish(word0: np.uint64, word1: np.uint64, cfg: np.ndarray, seat: int) -> int:
    """Chavey's count against ``seat``'s thresholds: the highest contract the hand reaches.

    Also the public convention by which the ``montecarlo`` bidder assumes the seats that
    spoke before it bid (``players.kernels.search.montecarlo``).
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


@njit
def learned_wish(word0: np.uint64, word1: np.uint64, cfg: np.ndarray, seat: int) -> int:
    """The contract with the highest predicted taker score, PASS when none is above 0.

    A tie keeps the lower contract."""
    features = hand_features(word0, word1)
    best = PASS
    best_value = 0
    for c in range(N_LEARNED_CONTRACTS):
        row = seat_slot(seat, P_LEARNED_0 + c * LEARNED_ROW)
        value = cfg[row]
        for k in range(N_FEATURES):
            value += cfg[row + 1 + k] * features[k]
        if value > best_value:
            best = PRISE + c
            best_value = value
    return best


@njit
def choose_bid(policy: int, v: SeatView, cfg: np.ndarray) -> int:
    """The contract (PASS … GARDE_CONTRE) the seat of ``v`` wishes to play with its hand as
    dealt, by ``policy``, a bid policy that searches nothing (the ``montecarlo`` bidder is
    asked by the game with its scratch: ``players.kernels.search.montecarlo``)."""
    if policy == BID_CHAVEY:
        return chavey_wish(v.hand0, v.hand1, cfg, v.seat)
    if policy == BID_LEARNED:
        return learned_wish(v.hand0, v.hand1, cfg, v.seat)
    raise ValueError("unknown bid policy code")
