"""FFT count, score and settlement (docs/rules.md §7-8), in integers.

Points are half points (the deck holds 182). Sides and outcomes are small ints:
``SIDE_NONE`` (-1), ``ATTACK`` (0), ``DEFENCE`` (1).
"""

from __future__ import annotations

import numpy as np

from tarotsim._jit import njit
from tarotsim.engine.kernels.constants import (  # noqa: F401 (the kernels import them from here too)
    ATTACK,
    DEFENCE,
    GARDE,
    GARDE_CONTRE,
    GARDE_SANS,
    MULTIPLIER,
    PASS,
    POIGNEE_BONUS,
    POIGNEE_DOUBLE,
    POIGNEE_NONE,
    POIGNEE_SIMPLE,
    POIGNEE_THRESHOLDS,
    POIGNEE_TRIPLE,
    PRISE,
    SIDE_NONE,
    TARGET_HALF,
)
from tarotsim.engine.kernels.state import FIVE_PLAYERS


@njit(inline="always")
def result(attack_half: int, attack_bouts: int) -> tuple[bool, int]:
    """(made, margin d): made iff points >= target; d = |points - target| rounded up."""
    diff = attack_half - TARGET_HALF[attack_bouts]
    made = diff >= 0
    margin = (abs(diff) + 1) // 2
    return made, margin


@njit(inline="always")
def per_defender(
    contract: int,
    made: bool,
    margin: int,
    petit_au_bout: int,
    poignee_points: int,
    chelem_announced: bool,
    chelem: int,
) -> int:
    """D, what each defender pays the attack (negative: receives), docs/rules.md §8.

    ``petit_au_bout`` and ``chelem`` are sides (SIDE_NONE, ATTACK, DEFENCE);
    ``poignee_points`` is the sum of every poignée bonus shown, by either side.
    An announced chelem that the defence turns into its own chelem costs 200 once.
    """
    m = MULTIPLIER[contract]
    sign = 1 if made else -1
    total = sign * (25 + margin) * m + sign * poignee_points
    if petit_au_bout == ATTACK:
        total += 10 * m
    elif petit_au_bout == DEFENCE:
        total -= 10 * m
    if chelem == ATTACK:
        total += 400 if chelem_announced else 200
    elif chelem_announced or chelem == DEFENCE:
        total -= 200
    return total


@njit(inline="always")
def settle(scores: np.ndarray, players: int, taker: int, partner: int, d: int) -> None:
    """Write each seat's score into ``scores[:players]`` (zero-sum).

    Each defender scores -D. 4 players: the taker +3D; 3 players: +2D; 5 players: the
    taker +2D and the partner +D, or +4D when ``partner`` is -1 or the taker (alone).
    """
    for seat in range(players):
        scores[seat] = -d
    if players == FIVE_PLAYERS and partner >= 0 and partner != taker:
        scores[taker] = 2 * d
        scores[partner] = d
    else:
        scores[taker] = (players - 1) * d


@njit(inline="always")
def poignee_size(trumps: int, has_excuse: bool, players: int) -> int:
    """Largest poignée a hand can show (POIGNEE_*); the Excuse counts only with all trumps shown."""
    count = trumps + (1 if has_excuse else 0)
    size = POIGNEE_NONE
    for level in range(3):
        if count >= POIGNEE_THRESHOLDS[players - 3, level]:
            size = level + 1
    return size
