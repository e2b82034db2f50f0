"""Announcements: which poignée a player shows, and whether the taker announces a chelem."""

from __future__ import annotations

import numpy as np

from tarotsim._jit import njit
from tarotsim.cards import EXCUSE_BIT, TRUMPS_MASK
from tarotsim.kernels.bits import popcount
from tarotsim.kernels.config import C_CHELEM_POLICY, C_CHELEM_THRESHOLD, C_PLAYERS
from tarotsim.kernels.policies.codes import CHELEM_NEVER, POIGNEE_NEVER
from tarotsim.kernels.policies.evaluate import distribution_points, hand_points
from tarotsim.kernels.policies.ecart import take_lowest
from tarotsim.kernels.score import POIGNEE_NONE, POIGNEE_THRESHOLDS, poignee_size
from tarotsim.kernels.table import Table


@njit(inline="always")
def poignee_cards(word1: np.uint64, size: int, players: int) -> np.uint64:
    """Word 1 of the cards shown for a poignée of ``size``: exactly the threshold number.

    The lowest trumps are shown; the Excuse only when the trumps alone fall one short,
    which means every trump of the hand is shown with it.
    """
    needed = POIGNEE_THRESHOLDS[players - 3, size - 1]
    trumps = word1 & TRUMPS_MASK
    if popcount(trumps) >= needed:
        return take_lowest(trumps, needed)
    return trumps | EXCUSE_BIT


@njit
def poignee_choice(policy: int, seat: int, tb: Table, cfg: np.ndarray) -> int:
    """Size of the poignée ``seat`` shows before its first card (POIGNEE_NONE: none)."""
    if policy == POIGNEE_NEVER:
        return POIGNEE_NONE
    word1 = tb.hands[seat, 1]
    return poignee_size(popcount(word1 & TRUMPS_MASK), bool(word1 & EXCUSE_BIT), cfg[C_PLAYERS])


@njit
def announces_chelem(cfg: np.ndarray, word0: np.uint64, word1: np.uint64) -> bool:
    """Whether the taker, holding this hand after the écart, announces a chelem."""
    if cfg[C_CHELEM_POLICY] == CHELEM_NEVER:
        return False
    return hand_points(word0, word1) + distribution_points(word0) >= cfg[C_CHELEM_THRESHOLD]
