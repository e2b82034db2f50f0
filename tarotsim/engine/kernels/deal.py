"""Dealing and the petit sec (docs/rules.md §2).

A uniform random permutation of the pack (Fisher-Yates on the deal's own stream)
gives every seat and the chien a uniformly random subset, which is exact for the FFT
deal in packets from a well-shuffled pack.
"""

from __future__ import annotations

import numpy as np

from tarotsim._jit import njit
from tarotsim.engine.cards import EXCUSE_BIT, N_CARDS, PETIT_BIT, TRUMPS_MASK
from tarotsim.engine.kernels.rng import MASK32, below, bounded, next_u64
from tarotsim.engine.kernels.rules import card_bit


@njit
def shuffle_pack(rng: np.ndarray, pack: np.ndarray) -> None:
    """Put a uniformly random permutation of the 78 card ids into ``pack``."""
    for i in range(N_CARDS):
        pack[i] = i
    i = N_CARDS - 1
    while i >= 2:  # two Fisher-Yates steps from the two 32-bit halves of one output
        word = next_u64(rng)
        j = bounded(word >> np.uint64(32), i + 1, rng)
        pack[i], pack[j] = pack[j], pack[i]
        j = bounded(word & MASK32, i, rng)
        pack[i - 1], pack[j] = pack[j], pack[i - 1]
        i -= 2
    if i == 1:
        j = below(rng, 2)
        pack[1], pack[j] = pack[j], pack[1]


@njit(inline="always")
def _clear(hands: np.ndarray, chien: np.ndarray, players: int) -> None:
    for seat in range(players):
        hands[seat, 0] = 0
        hands[seat, 1] = 0
    chien[0] = 0
    chien[1] = 0


@njit
def deal_pack(pack: np.ndarray, hands: np.ndarray, chien: np.ndarray, players: int, hand_size: int) -> None:
    """Seat ``s`` gets ``pack[s*hand_size:(s+1)*hand_size]``; the chien gets the rest."""
    _clear(hands, chien, players)
    i = 0
    for seat in range(players):
        for _ in range(hand_size):
            w0, w1 = card_bit(pack[i])
            hands[seat, 0] |= w0
            hands[seat, 1] |= w1
            i += 1
    for j in range(i, N_CARDS):
        w0, w1 = card_bit(pack[j])
        chien[0] |= w0
        chien[1] |= w1


@njit(inline="always")
def is_petit_sec(word1: np.uint64) -> bool:
    """True when the Petit is the hand's only trump and the hand lacks the Excuse."""
    return (word1 & (TRUMPS_MASK | EXCUSE_BIT)) == PETIT_BIT


@njit(inline="always")
def _reverse(pack: np.ndarray, start: int, stop: int) -> None:
    stop -= 1
    while start < stop:
        pack[start], pack[stop] = pack[stop], pack[start]
        start += 1
        stop -= 1


PACKET = 3
"""Cards per packet in a physical deal, ``PACKET_THREE_PLAYERS`` with three players."""
PACKET_THREE_PLAYERS = 4
CUT_MIN = 3
"""Cutting the pack: each part keeps at least this many cards."""


@njit
def cut_pack(rng: np.ndarray, pack: np.ndarray) -> None:
    """Cut the pack: the top ``c`` cards go under, ``c`` uniform from 3 to 75 (each part keeps ``CUT_MIN`` or more)."""
    cut = CUT_MIN + below(rng, N_CARDS - 2 * CUT_MIN + 1)
    _reverse(pack, 0, cut)
    _reverse(pack, cut, N_CARDS)
    _reverse(pack, 0, N_CARDS)


@njit
def deal_packets(
    rng: np.ndarray,
    pack: np.ndarray,
    hands: np.ndarray,
    chien: np.ndarray,
    players: int,
    hand_size: int,
    chien_size: int,
    first_seat: int,
) -> None:
    """Deal ``pack`` from the top as at a table (docs/rules.md §2).

    Packets of 3 cards (4 with 3 players) go round counter-clockwise from ``first_seat``;
    the chien's cards are set aside one at a time between packets, in gaps drawn at
    random, never the first or the last card of the pack.
    """
    packet = PACKET_THREE_PLAYERS if players == 3 else PACKET
    packets = players * hand_size // packet
    gaps = np.uint64(0)
    chosen = 0
    while chosen < chien_size:
        gap = below(rng, packets - 1)
        bit = np.uint64(1) << np.uint64(gap)
        if not gaps & bit:
            gaps |= bit
            chosen += 1
    _clear(hands, chien, players)
    top = 0
    for k in range(packets):
        seat = (first_seat + k) % players
        for _ in range(packet):
            w0, w1 = card_bit(pack[top])
            hands[seat, 0] |= w0
            hands[seat, 1] |= w1
            top += 1
        if k < packets - 1 and (gaps >> np.uint64(k)) & np.uint64(1):
            w0, w1 = card_bit(pack[top])
            chien[0] |= w0
            chien[1] |= w1
            top += 1
