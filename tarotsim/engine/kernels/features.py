"""The features of a dealt hand that Chavey's count scores, one number each.

``hand_features(word0, word1)`` returns a tuple of ``N_FEATURES`` whole numbers, indexed by
the ``F_*`` constants below; ``tarotsim.engine.labels.HAND_FEATURES`` names them and
``engine.labels.CHAVEY_WEIGHTS`` gives Chavey's published weight of each, so that his count (without
the distribution bonus) is ``sum(weight * feature)`` plus 2 for the 21 (which he also counts
as a major trump). The refitted count (``tarotsim.analysis.count_fit``) and the ``learned``
bidder (``players.kernels.policies.bidding``) read the same tuple, so the two cannot drift apart.

Features are split where Chavey's weight changes, so that each has one published weight:
the Petit by the trump length it comes with, trumps counted apart below and from 5, and the
King and Queen of a suit as three exclusive cases (both, King alone, Queen alone). Suit
features are pooled over the four suits (counts of suits or of honours).
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
    TRUMP_21_BIT,
    TRUMPS_MASK,
)
from tarotsim.engine.kernels.bits import ONE, popcount
from tarotsim.engine.kernels.chavey import suit_length
from tarotsim.engine.kernels.constants import (  # noqa: F401 (the kernels import them from here too)
    F_EXCUSE,
    F_JACK,
    F_KING,
    F_KING_QUEEN,
    F_KNIGHT,
    F_LONG_5,
    F_LONG_6,
    F_LONG_7,
    F_PETIT_5,
    F_PETIT_6,
    F_PETIT_7,
    F_PETIT_SHORT,
    F_QUEEN,
    F_SEQUENCE,
    F_SINGLETONS,
    F_TRUMP_16,
    F_TRUMP_21,
    F_TRUMPS_LONG,
    F_TRUMPS_SHORT,
    F_VOIDS,
    FIRST_MAJOR,
    N_FEATURES,
)

LONG_TRUMPS = 5
"""Trump length from which Chavey counts every trump (and the Petit)."""


@njit
def hand_features(word0: np.uint64, word1: np.uint64):  # -> UniTuple(int64, N_FEATURES)
    """The ``N_FEATURES`` features of a hand (two card words), as a tuple of ints (``F_*``)."""
    trumps = word1 & TRUMPS_MASK
    n_trumps = popcount(trumps)
    petit = 1 if word1 & PETIT_BIT else 0
    majors = trumps & MAJOR_TRUMPS_MASK
    sequence = popcount(majors & ((majors << ONE) | (majors >> ONE)))
    t16 = np.int64((trumps >> np.uint64(FIRST_MAJOR - 1)) & ONE)
    t17 = np.int64((trumps >> np.uint64(FIRST_MAJOR)) & ONE)
    t18 = np.int64((trumps >> np.uint64(FIRST_MAJOR + 1)) & ONE)
    t19 = np.int64((trumps >> np.uint64(FIRST_MAJOR + 2)) & ONE)
    t20 = np.int64((trumps >> np.uint64(FIRST_MAJOR + 3)) & ONE)
    king_queen = king = queen = knight = jack = 0
    long5 = long6 = long7 = voids = singletons = 0
    for suit in range(N_SUITS):
        base = SUIT_LEN * suit
        has_king = (word0 >> np.uint64(base + KING)) & ONE
        has_queen = (word0 >> np.uint64(base + QUEEN)) & ONE
        if has_king and has_queen:
            king_queen += 1
        elif has_king:
            king += 1
        elif has_queen:
            queen += 1
        knight += np.int64((word0 >> np.uint64(base + KNIGHT)) & ONE)
        jack += np.int64((word0 >> np.uint64(base + JACK)) & ONE)
        length = suit_length(word0, suit)
        if length == 0:
            voids += 1
        elif length == 1:
            singletons += 1
        elif length == 5:
            long5 += 1
        elif length == 6:
            long6 += 1
        elif length >= 7:
            long7 += 1
    long_trumps = n_trumps >= LONG_TRUMPS
    return (
        petit if n_trumps < LONG_TRUMPS else 0,
        petit if n_trumps == LONG_TRUMPS else 0,
        petit if n_trumps == LONG_TRUMPS + 1 else 0,
        petit if n_trumps >= LONG_TRUMPS + 2 else 0,
        1 if word1 & TRUMP_21_BIT else 0,
        1 if word1 & EXCUSE_BIT else 0,
        0 if long_trumps else n_trumps,
        n_trumps if long_trumps else 0,
        t16,
        t17,
        t18,
        t19,
        t20,
        sequence,
        king_queen,
        king,
        queen,
        knight,
        jack,
        long5,
        long6,
        long7,
        voids,
        singletons,
    )


@njit
def feature_rows(hands: np.ndarray, out: np.ndarray) -> None:
    """Features of many hands: ``hands`` uint64[n, 2] (card words) → ``out`` int64[n, N_FEATURES]."""
    for i in range(hands.shape[0]):
        features = hand_features(hands[i, 0], hands[i, 1])
        for k in range(N_FEATURES):
            out[i, k] = features[k]
