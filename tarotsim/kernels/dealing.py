"""Constrained dealing: cards given to a seat or the chien, ranges on a seat's hand features.

Given cards (``place_fixed``): the pack is shuffled as for any deal (``deal.shuffle_pack``),
then rearranged so that each seat's share of the pack (``deal.deal_pack``: seat ``s`` gets
positions ``s * hand_size`` onwards, the chien the rest) starts with the cards given to it,
and the cards given to nobody fill the remaining positions in the order the shuffle left
them. That order is a uniform permutation of the free cards, so every deal that holds the
given cards is equally likely: the deal is exactly uniform given them.

The given cards are ``N_FIXED`` int64 words from position ``at`` of an array (the run
configuration's ``C_FIXED`` slots, or an array of their own): row ``r`` (a seat, or
``CHIEN_ROW`` for the chien) holds card words ``2 * r`` and ``2 * r + 1``.

Ranges (``deal_where``): each deal is dealt as above, again and again from its own stream,
until every seat's features lie in their ranges (rejection sampling, exact too). The
features, by column ``W_*``: trumps 1-21, bouts, Kings, Chavey's count without and with the
distribution bonus, and the length of each suit.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from tarotsim._jit import njit
from tarotsim.cards import KINGS_MASK, N_CARDS, N_SUITS, TRUMPS_MASK
from tarotsim.kernels.bits import popcount
from tarotsim.kernels.chavey import distribution_points, hand_points, suit_length
from tarotsim.kernels.deal import deal_pack, shuffle_pack
from tarotsim.kernels.rng import STREAM_WORDS, seed_stream
from tarotsim.kernels.rules import bouts, card_bit
from tarotsim.kernels.state import C_WHERE, MAX_SEATS
from tarotsim.kernels.state import N_WHERE as _N_WHERE

CHIEN_ROW = MAX_SEATS
"""Row of the chien's given cards, after one row per seat."""
N_FIXED = 2 * (MAX_SEATS + 1)
"""Words of the given cards: two per seat, two for the chien."""

W_TRUMPS = 0
W_BOUTS = 1
W_KINGS = 2
W_HAND_POINTS = 3
W_HAND_POINTS_DIST = 4
W_SUIT_LENGTH = 5  # W_SUIT_LENGTH + suit, suits 0-3
N_WHERE = W_SUIT_LENGTH + N_SUITS
assert N_WHERE == _N_WHERE, "kernels.state.N_WHERE counts the W_* features"
WHERE_LOW = 0
WHERE_HIGH = 1
WHERE_ASKED = 2
"""Parts of a seat's ranges in a run configuration (``where_slot``)."""

DEAL_BLOCK = 1024
"""Deals per parallel block of ``deal_where``."""


@njit(_nrt=False)
def place_fixed(pack: np.ndarray, words: np.ndarray, at: int, players: int, hand_size: int) -> None:
    """Rearrange a shuffled ``pack`` (int64[78]) so that ``deal_pack`` gives each seat and the
    chien the cards given to it in ``words[at : at + N_FIXED]`` and the free cards in their
    shuffled order."""
    given0 = np.uint64(0)
    given1 = np.uint64(0)
    for r in range(MAX_SEATS + 1):
        given0 |= np.uint64(words[at + 2 * r])
        given1 |= np.uint64(words[at + 2 * r + 1])
    # the free cards to the end of the pack, in their order
    w = N_CARDS - 1
    for i in range(N_CARDS - 1, -1, -1):
        b0, b1 = card_bit(pack[i])
        if not ((given0 & b0) or (given1 & b1)):
            pack[w] = pack[i]
            w -= 1
    free = w + 1  # the next free card; every position written below is at or before it
    top = 0
    for r in range(players + 1):
        row = r if r < players else CHIEN_ROW
        size = hand_size if r < players else N_CARDS - players * hand_size
        word0 = np.uint64(words[at + 2 * row])
        word1 = np.uint64(words[at + 2 * row + 1])
        placed = 0
        for card in range(N_CARDS):
            b0, b1 = card_bit(card)
            if (word0 & b0) or (word1 & b1):
                pack[top] = card
                top += 1
                placed += 1
        for _ in range(size - placed):
            pack[top] = pack[free]
            top += 1
            free += 1


@njit(inline="always")
def hand_where(word0: np.uint64, word1: np.uint64, column: int) -> int:
    """Feature ``column`` (``W_*``) of a hand."""
    if column == W_TRUMPS:
        return popcount(word1 & TRUMPS_MASK)
    if column == W_BOUTS:
        return bouts(word1)
    if column == W_KINGS:
        return popcount(word0 & KINGS_MASK)
    if column == W_HAND_POINTS:
        return hand_points(word0, word1)
    if column == W_HAND_POINTS_DIST:
        return hand_points(word0, word1) + distribution_points(word0)
    return suit_length(word0, column - W_SUIT_LENGTH)


@njit
def meets(hands: np.ndarray, players: int, low: np.ndarray, high: np.ndarray, asked: np.ndarray) -> bool:
    """Whether every seat's hand (``hands`` uint64[MAX_SEATS, 2]) has each asked feature
    (``asked`` bool[players, N_WHERE]) within ``low`` … ``high`` (int64[players, N_WHERE])."""
    for seat in range(players):
        for column in range(N_WHERE):
            if asked[seat, column]:
                value = hand_where(hands[seat, 0], hands[seat, 1], column)
                if value < low[seat, column] or value > high[seat, column]:
                    return False
    return True


@njit(inline="always")
def where_slot(seat: int, part: int, column: int) -> int:
    """Index in a run configuration of part ``part`` (``WHERE_LOW``, ``WHERE_HIGH``,
    ``WHERE_ASKED``) of feature ``column`` of ``seat``'s ranges (``state.C_WHERE``)."""
    return C_WHERE + (3 * seat + part) * N_WHERE + column


@njit(_nrt=False)
def meets_cfg(hands: np.ndarray, cfg: np.ndarray, players: int) -> bool:
    """Whether every seat's hand (``hands`` uint64[MAX_SEATS, 2]) meets the ranges of the run
    configuration ``cfg`` (``where_slot``), as ``meets`` reads them from arrays."""
    for seat in range(players):
        for column in range(N_WHERE):
            if cfg[where_slot(seat, WHERE_ASKED, column)]:
                value = hand_where(hands[seat, 0], hands[seat, 1], column)
                if (
                    value < cfg[where_slot(seat, WHERE_LOW, column)]
                    or value > cfg[where_slot(seat, WHERE_HIGH, column)]
                ):
                    return False
    return True


@njit
def _deal_block(
    start: int,
    stop: int,
    key: np.ndarray,
    words: np.ndarray,
    players: int,
    hand_size: int,
    low: np.ndarray,
    high: np.ndarray,
    asked: np.ndarray,
    max_tries: int,
    hands: np.ndarray,
    chien: np.ndarray,
    tries: np.ndarray,
) -> None:
    rng = np.zeros(STREAM_WORDS, dtype=np.uint64)
    pack = np.zeros(N_CARDS, dtype=np.int64)
    dealt = np.zeros((MAX_SEATS, 2), dtype=np.uint64)
    aside = np.zeros(2, dtype=np.uint64)
    for i in range(start, stop):
        seed_stream(rng, key, i)
        count = 0
        while True:
            count += 1
            shuffle_pack(rng, pack)
            place_fixed(pack, words, 0, players, hand_size)
            deal_pack(pack, dealt, aside, players, hand_size)
            if meets(dealt, players, low, high, asked):
                break
            if count >= max_tries:
                count = -1
                break
        tries[i] = count
        hands[i] = dealt
        chien[i] = aside


@njit(parallel=True)
def deal_where(
    n: int,
    key: np.ndarray,
    words: np.ndarray,
    players: int,
    hand_size: int,
    low: np.ndarray,
    high: np.ndarray,
    asked: np.ndarray,
    max_tries: int,
    hands: np.ndarray,
    chien: np.ndarray,
    tries: np.ndarray,
) -> None:
    """Deals 0 … n - 1 of the key ``key`` (uint64[4]), each holding the cards of ``words``
    (int64[N_FIXED]) and meeting the ranges (``meets``), into ``hands`` (uint64[n, MAX_SEATS, 2]),
    ``chien`` (uint64[n, 2]) and ``tries`` (int64[n]: the deals shuffled for it, -1 when
    ``max_tries`` did not meet the ranges).

    Deal ``i`` draws from stream ``i`` of the key alone; without ranges it is the deal a run
    with the same key and given cards plays as deal ``i`` (``game.play_deal``).
    """
    n_blocks = (n + DEAL_BLOCK - 1) // DEAL_BLOCK
    for b in prange(n_blocks):
        start = b * DEAL_BLOCK
        stop = min(n, start + DEAL_BLOCK)
        _deal_block(
            start, stop, key, words, players, hand_size, low, high, asked, max_tries, hands, chien, tries
        )


@njit
def card_ids(words: np.ndarray, out: np.ndarray) -> None:
    """The card ids of card sets, sorted: ``words`` uint64[m, 2] → ``out`` int16[m, size]
    (``size`` the cards in each set)."""
    for i in range(words.shape[0]):
        k = 0
        for card in range(N_CARDS):
            b0, b1 = card_bit(card)
            if (words[i, 0] & b0) or (words[i, 1] & b1):
                out[i, k] = card
                k += 1
