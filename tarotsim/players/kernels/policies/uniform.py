"""The random card-play policy: a legal card drawn uniformly (used by ``play.playout_card``,
the baseline and the search players' random playouts)."""

from __future__ import annotations

import numpy as np

from tarotsim._jit import njit
from tarotsim.engine.cards import N_SUIT_CARDS
from tarotsim.engine.kernels.bits import lowest_bit, popcount, select_bit
from tarotsim.engine.kernels.rng import below


@njit(inline="always")
def random_card(rng: np.ndarray, legal0: np.uint64, legal1: np.uint64) -> int:
    """A card drawn uniformly from a non-empty card set."""
    n0 = popcount(legal0)
    total = n0 + popcount(legal1)
    if total == 1:
        return lowest_bit(legal0) if n0 else N_SUIT_CARDS + lowest_bit(legal1)
    k = below(rng, total)
    if k < n0:
        return select_bit(legal0, k)
    return N_SUIT_CARDS + select_bit(legal1, k - n0)
