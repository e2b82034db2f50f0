"""Dealing and the petit sec (RULES.md §2).

A uniform random permutation of the pack (Fisher-Yates on the deal's own stream)
gives every seat and the chien a uniformly random subset, which is exact for the FFT
deal in packets from a well-shuffled pack.
"""

from __future__ import annotations

import numpy as np

from tarotsim._jit import njit
from tarotsim.cards import EXCUSE_BIT, N_CARDS, PETIT_BIT, TRUMPS_MASK
from tarotsim.kernels.rng import below
from tarotsim.kernels.rules import card_bit


@njit
def shuffle_pack(rng: np.ndarray, pack: np.ndarray) -> None:
    """Put a uniformly random permutation of the 78 card ids into ``pack``."""
    for i in range(N_CARDS):
        pack[i] = i
    for i in range(N_CARDS - 1, 0, -1):
        j = below(rng, i + 1)
        pack[i], pack[j] = pack[j], pack[i]


@njit
def deal_pack(
    pack: np.ndarray, hands: np.ndarray, chien: np.ndarray, players: int, hand_size: int
) -> None:
    """Seat ``s`` gets ``pack[s*hand_size:(s+1)*hand_size]``; the chien gets the rest."""
    for seat in range(players):
        hands[seat, 0] = 0
        hands[seat, 1] = 0
    chien[0] = 0
    chien[1] = 0
    for i in range(N_CARDS):
        w0, w1 = card_bit(pack[i])
        seat = i // hand_size
        if seat < players:
            hands[seat, 0] |= w0
            hands[seat, 1] |= w1
        else:
            chien[0] |= w0
            chien[1] |= w1


@njit(inline="always")
def is_petit_sec(word1: np.uint64) -> bool:
    """True when the Petit is the hand's only trump and the hand lacks the Excuse."""
    return (word1 & (TRUMPS_MASK | EXCUSE_BIT)) == PETIT_BIT
