"""Écart (discard) policies. Every policy returns a legal écart (RULES.md §4): no King,
no bout, and trumps only when the hand lacks other cards to make up the écart.
"""

from __future__ import annotations

import numpy as np

from tarotsim._jit import njit
from tarotsim.cards import BOUTS_MASK_1, JACKS_MASK, KINGS_MASK, KNIGHTS_MASK, PIPS_MASK, QUEENS_MASK, TRUMPS_MASK
from tarotsim.kernels.bits import popcount
from tarotsim.kernels.table import Table

_ONE = np.uint64(1)
_ZERO = np.uint64(0)


@njit(inline="always")
def take_lowest(word: np.uint64, count: int) -> np.uint64:
    """The ``count`` lowest set bits of ``word`` (all of them when it holds fewer)."""
    taken = _ZERO
    for _ in range(count):
        if not word:
            break
        low = word & (~word + _ONE)
        taken |= low
        word ^= low
    return taken


@njit(inline="always")
def forced_trumps(word0: np.uint64, word1: np.uint64, size: int) -> tuple[np.uint64, int]:
    """Trumps that must go to an écart of ``size`` cards, and how many suit cards may go.

    The lowest trumps that are not bouts are taken, and only as many as the hand lacks
    in non-King suit cards.
    """
    suit_cards = popcount(word0 & ~KINGS_MASK)
    if suit_cards >= size:
        return _ZERO, size
    return take_lowest(word1 & TRUMPS_MASK & ~BOUTS_MASK_1, size - suit_cards), suit_cards


@njit
def simple_ecart(word0: np.uint64, word1: np.uint64, size: int) -> tuple[np.uint64, np.uint64]:
    """Discard the cheapest cards: small cards, then Jacks, Knights, Queens (lowest id first)."""
    trumps, remaining = forced_trumps(word0, word1, size)
    discard = _ZERO
    for cls in (PIPS_MASK, JACKS_MASK, KNIGHTS_MASK, QUEENS_MASK):
        chosen = take_lowest(word0 & cls, remaining)
        discard |= chosen
        remaining -= popcount(chosen)
    return discard, trumps


@njit
def choose_ecart(
    policy: int, word0: np.uint64, word1: np.uint64, size: int, tb: Table, cfg: np.ndarray
) -> tuple[np.uint64, np.uint64]:
    """The écart of ``size`` cards the taker makes from ``(word0, word1)`` (hand plus chien)."""
    return simple_ecart(word0, word1, size)
