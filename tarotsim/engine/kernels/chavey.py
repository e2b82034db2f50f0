"""Noël Chavey's hand count (Le Jeu de tarot, 1986) on a two-word card set.

Details settled here (documented in README, tested on hand-made hands):
- trump length counts trumps 1-21; the Excuse is not a trump;
- "2 per trump when holding more than 4": every trump counts 2 once the hand holds 5 or more;
- trump 21 counts both as a bout (10) and as a major trump (+2, and +1 in a sequence);
- a major trump (16-21) is "in a sequence" when the trump just above or just below it,
  also a major, is held too; each such trump adds 1;
- the Petit counts 0 with fewer than 5 trumps, then 5, 7, 9 for 5, 6, 7+ trumps;
- honours per suit: King with Queen 10, King without Queen 6, Queen without King 3,
  Knight 2, Jack 1;
- long suits: 5 cards 5, 6 cards 7, 7 or more 9;
- the distribution bonus (each void 6, each singleton 3) is a separate function, added
  only when weighing Garde sans and Garde contre.
"""

from __future__ import annotations

import numpy as np

from tarotsim._jit import njit
from tarotsim.engine.cards import (
    EXCUSE_BIT,
    JACK,
    KING,
    KNIGHT,
    MAJOR_TRUMPS_MASK,
    N_SUITS,
    PETIT_BIT,
    QUEEN,
    SUIT_LEN,
    SUIT_MASK,
    TRUMP_21_BIT,
    TRUMPS_MASK,
)
from tarotsim.engine.kernels.bits import ONE, popcount


@njit(inline="always")
def suit_length(word0: np.uint64, suit: int) -> int:
    """Number of cards of ``suit`` (0-3) in a card set's word 0."""
    return popcount(word0 & (SUIT_MASK << np.uint64(SUIT_LEN * suit)))


@njit
def hand_points(word0: np.uint64, word1: np.uint64) -> int:
    """Chavey's count of a hand, without the distribution bonus."""
    trumps = word1 & TRUMPS_MASK
    n_trumps = popcount(trumps)
    total = 0
    if word1 & TRUMP_21_BIT:
        total += 10
    if word1 & EXCUSE_BIT:
        total += 8
    if word1 & PETIT_BIT:
        if n_trumps >= 7:
            total += 9
        elif n_trumps == 6:
            total += 7
        elif n_trumps == 5:
            total += 5
    if n_trumps > 4:
        total += 2 * n_trumps
    majors = trumps & MAJOR_TRUMPS_MASK
    total += 2 * popcount(majors)
    in_sequence = majors & ((majors << ONE) | (majors >> ONE))
    total += popcount(in_sequence)
    for suit in range(N_SUITS):
        base = SUIT_LEN * suit
        king = (word0 >> np.uint64(base + KING)) & ONE
        queen = (word0 >> np.uint64(base + QUEEN)) & ONE
        if king and queen:
            total += 10
        elif king:
            total += 6
        elif queen:
            total += 3
        if (word0 >> np.uint64(base + KNIGHT)) & ONE:
            total += 2
        if (word0 >> np.uint64(base + JACK)) & ONE:
            total += 1
        length = suit_length(word0, suit)
        if length >= 7:
            total += 9
        elif length == 6:
            total += 7
        elif length == 5:
            total += 5
    return total


@njit
def distribution_points(word0: np.uint64) -> int:
    """Chavey's bonus for Garde sans and Garde contre: each void 6, each singleton 3."""
    total = 0
    for suit in range(N_SUITS):
        length = suit_length(word0, suit)
        if length == 0:
            total += 6
        elif length == 1:
            total += 3
    return total
