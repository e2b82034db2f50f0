"""Constrained dealing: cards given to a seat or the chien, ranges on a seat's hand features.

Given cards (``place_fixed``): the pack is shuffled as for any deal (``deal.shuffle_pack``),
then rearranged so that each seat's share of the pack (``deal.deal_pack``: seat ``s`` gets
positions ``s * hand_size`` onwards, the chien the rest) starts with the cards given to it,
and the cards given to nobody fill the remaining positions in the order the shuffle left
them. That order is a uniform permutation of the free cards, so every deal that holds the
given cards is equally likely: the deal is exactly uniform given them.

The given cards are ``N_FIXED`` int64 words from position ``at`` of an array (the run
configuration's ``C_FIXED`` slots): row ``r`` (a seat, or ``CHIEN_ROW`` for the chien) holds
card words ``2 * r`` and ``2 * r + 1``.

Ranges (``deal_condition``, which reads them from a run configuration, ``where_slot``): the
features, by column ``W_*``, are trumps 1-21, bouts, Kings, Chavey's count without and with
the distribution bonus, and the length of each suit. The ranges of one seat on trumps,
bouts, Kings and suit lengths are met without rejection (``draw_counted``): the seat's free
cards fall in categories (the Petit and the 21, the other trumps, the Excuse, each suit's
King and its other cards) and the ranges bound sums of the counts drawn from them, so the
counts of a uniform hand that meets them follow the multivariate hypergeometric law cut to
the vectors the ranges allow. ``tarotsim.engine.dealing.put_where`` lists those vectors with their
exact probabilities (``state.C_DRAW_*``); the kernel draws one (the Petit and the 21, other
trumps, Excuse, Kings and suit cards), then each suit's King and other cards from the ways
left to the suits after it, then the cards of each category uniformly, then deals the other
cards uniformly around the given ones. Any other range (Chavey's count, or another seat's)
is met by dealing again from the deal's stream until it holds (rejection, exact too).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from tarotsim._jit import njit
from tarotsim.engine.cards import (
    EXCUSE_BIT,
    FULL_WORD0,
    FULL_WORD1,
    KINGS_MASK,
    N_CARDS,
    N_SUITS,
    PETIT_BIT,
    SUIT_LEN,
    SUIT_MASK,
    TRUMP_21_BIT,
    TRUMPS_MASK,
)
from tarotsim.engine.kernels.bits import ONE, ZERO, popcount, select_bit
from tarotsim.engine.kernels.chavey import distribution_points, hand_points, suit_length
from tarotsim.engine.kernels.deal import deal_pack, shuffle_pack
from tarotsim.engine.kernels.rng import STREAM_WORDS, below, next_u64, seed_stream
from tarotsim.engine.kernels.rules import bouts, card_bit
from tarotsim.engine.kernels.state import (
    C_DRAW_N,
    C_DRAW_SEAT,
    C_DRAW_SUIT,
    C_DRAW_VECTORS,
    C_DRAW_WAYS,
    C_FIXED,
    C_FIXED_ON,
    C_HAND,
    C_PLAYERS,
    C_WHERE,
    C_WHERE_ON,
    MAX_HAND,
    MAX_SEATS,
    N_SUIT_KINGS,
    N_V,
    V_BOUT_TRUMPS,
    V_CUMULATIVE,
    V_EXCUSE,
    V_KINGS,
    V_SUITS,
    V_TRUMPS,
)
from tarotsim.engine.kernels.state import N_WHERE as _N_WHERE

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
BOUT_TRUMPS = PETIT_BIT | TRUMP_21_BIT
"""Word 1: the two bouts that are trumps."""
_UNIT = 1.0 / 9007199254740992.0  # 2**-53


@njit(_nrt=False)
def place_fixed(
    pack: np.ndarray,
    words: np.ndarray,
    at: int,
    players: int,
    hand_size: int,
    seat: int,
    hand0: np.uint64,
    hand1: np.uint64,
) -> None:
    """Rearrange a shuffled ``pack`` (int64[78]) so that ``deal_pack`` gives each seat and the
    chien the cards given to it in ``words[at : at + N_FIXED]`` and the free cards in their
    shuffled order; ``seat`` (-1: none) is given the cards ``hand0``, ``hand1`` besides."""
    given0 = hand0 if seat >= 0 else ZERO
    given1 = hand1 if seat >= 0 else ZERO
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
        if r == seat:
            word0 |= hand0
            word1 |= hand1
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


@njit(inline="always")
def ways_slot(suit: int, cards: int, kings: int) -> int:
    """Index in a run configuration of the ways to draw ``cards`` cards, ``kings`` of them
    Kings, from suits ``suit`` … 3 within the drawn seat's suit ranges (``state.C_DRAW_WAYS``;
    suit 4: none left, one way to draw nothing)."""
    return C_DRAW_WAYS + (suit * (MAX_HAND + 1) + cards) * N_SUIT_KINGS + kings


@njit(inline="always")
def pick(rng: np.ndarray, cards: np.uint64, count: int) -> np.uint64:
    """``count`` cards drawn uniformly without replacement from the set ``cards`` (one word)."""
    out = ZERO
    for _ in range(count):
        bit = ONE << np.uint64(select_bit(cards, below(rng, popcount(cards))))
        out |= bit
        cards ^= bit
    return out


@njit(_nrt=False)
def _suit_counts(
    rng: np.ndarray, cfg: np.ndarray, suit: int, kings_free: int, others_free: int, cards: int, kings: int
) -> tuple[int, int]:
    """The King (0 or 1) and other cards of ``suit`` drawn, when ``cards`` suit cards, ``kings`` of
    them Kings, are drawn from suits ``suit`` … 3: chosen in proportion to their ways times the
    ways left to the suits after it (``ways_slot``), within the suit's range."""
    fewest = cfg[C_DRAW_SUIT + 2 * suit]
    most = cfg[C_DRAW_SUIT + 2 * suit + 1]
    target = 0.0
    king, others = 0, 0
    for step in range(2):  # the total, then the choice
        total = 0.0
        done = False
        for kg in range(min(kings_free, kings) + 1):
            ways = 1.0  # comb(others_free, ot), exact in a float
            for ot in range(others_free + 1):
                if ot > 0:
                    ways = ways * (others_free - ot + 1) / ot
                take = kg + ot
                if take > cards:
                    break
                if take < fewest or take > most:
                    continue
                weight = ways * cfg[ways_slot(suit + 1, cards - take, kings - kg)]
                if weight > 0.0:
                    total += weight
                    if step == 1:
                        king, others = kg, ot  # the last one that can be drawn, if rounding leaves none
                        if target < total:
                            done = True
                            break
            if done:
                break
        if step == 0:
            target = total * (np.float64(next_u64(rng) >> np.uint64(11)) * _UNIT)
    return king, others


@njit(_nrt=False)
def draw_counted(rng: np.ndarray, cfg: np.ndarray) -> tuple[np.uint64, np.uint64]:
    """The hand (two card words, its given cards included) of the seat ``cfg[C_DRAW_SEAT] - 1``,
    drawn uniformly among the hands of its free cards that meet its ranges on trumps, bouts,
    Kings and suit lengths: a count vector from its cumulative probabilities (``state.V_*``),
    each suit's counts (``_suit_counts``), then the cards of each category uniformly."""
    seat = cfg[C_DRAW_SEAT] - 1
    given0 = ZERO
    given1 = ZERO
    for r in range(MAX_SEATS + 1):
        given0 |= np.uint64(cfg[C_FIXED + 2 * r])
        given1 |= np.uint64(cfg[C_FIXED + 2 * r + 1])
    free0 = FULL_WORD0 & ~given0
    free1 = FULL_WORD1 & ~given1
    hand0 = np.uint64(cfg[C_FIXED + 2 * seat])
    hand1 = np.uint64(cfg[C_FIXED + 2 * seat + 1])
    u = np.int64(next_u64(rng) >> np.uint64(2))  # uniform on [0, DRAW_ONE)
    lo, hi = 0, cfg[C_DRAW_N] - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if u < cfg[C_DRAW_VECTORS + mid * N_V + V_CUMULATIVE]:
            hi = mid
        else:
            lo = mid + 1
    v = C_DRAW_VECTORS + lo * N_V
    hand1 |= pick(rng, free1 & BOUT_TRUMPS, cfg[v + V_BOUT_TRUMPS])
    hand1 |= pick(rng, free1 & TRUMPS_MASK & ~BOUT_TRUMPS, cfg[v + V_TRUMPS])
    hand1 |= pick(rng, free1 & EXCUSE_BIT, cfg[v + V_EXCUSE])
    cards = cfg[v + V_SUITS]
    kings = cfg[v + V_KINGS]
    for suit in range(N_SUITS):
        held = free0 & (SUIT_MASK << np.uint64(SUIT_LEN * suit))
        king = held & KINGS_MASK
        others = held & ~KINGS_MASK
        kg, ot = _suit_counts(rng, cfg, suit, popcount(king), popcount(others), cards, kings)
        hand0 |= pick(rng, king, kg) | pick(rng, others, ot)
        cards -= kg + ot
        kings -= kg
    return hand0, hand1


@njit(_nrt=False)
def deal_condition(
    rng: np.ndarray, pack: np.ndarray, dealt: np.ndarray, chien: np.ndarray, cfg: np.ndarray, max_tries: int
) -> int:
    """Deal from the stream ``rng`` into ``dealt`` (uint64[MAX_SEATS, 2]) and ``chien`` (uint64[2])
    under the run configuration ``cfg``: its given cards (``C_FIXED``) in their places, the
    drawn seat's hand from its counts (``draw_counted``, when ``C_DRAW_SEAT``), the other cards
    shuffled uniformly around them, dealt again until every range holds (``meets_cfg``).
    Returns the deals made (-1 when ``max_tries`` did not meet the ranges; 0: no limit)."""
    players = cfg[C_PLAYERS]
    hand_size = cfg[C_HAND]
    tries = 0
    while True:
        tries += 1
        if cfg[C_DRAW_SEAT]:
            hand0, hand1 = draw_counted(rng, cfg)
            shuffle_pack(rng, pack)
            place_fixed(pack, cfg, C_FIXED, players, hand_size, cfg[C_DRAW_SEAT] - 1, hand0, hand1)
        else:
            shuffle_pack(rng, pack)
            if cfg[C_FIXED_ON]:
                place_fixed(pack, cfg, C_FIXED, players, hand_size, -1, ZERO, ZERO)
        deal_pack(pack, dealt, chien, players, hand_size)
        if not cfg[C_WHERE_ON] or meets_cfg(dealt, cfg, players):
            return tries
        if tries == max_tries:
            return -1


@njit
def _deal_block(
    start: int,
    stop: int,
    key: np.ndarray,
    cfg: np.ndarray,
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
        tries[i] = deal_condition(rng, pack, dealt, aside, cfg, max_tries)
        hands[i] = dealt
        chien[i] = aside


@njit(parallel=True)
def deal_where(
    n: int,
    key: np.ndarray,
    cfg: np.ndarray,
    max_tries: int,
    hands: np.ndarray,
    chien: np.ndarray,
    tries: np.ndarray,
) -> None:
    """Deals 0 … n - 1 of the key ``key`` (uint64[4]) under the condition of the run configuration
    ``cfg`` (its table, given cards and ranges: ``deal_condition``), into ``hands``
    (uint64[n, MAX_SEATS, 2]), ``chien`` (uint64[n, 2]) and ``tries`` (int64[n]: the deals made
    for it, -1 when ``max_tries`` did not meet the ranges).

    Deal ``i`` draws from stream ``i`` of the key alone: it is the deal a run with the same key
    and condition plays as deal ``i`` (``players.kernels.seats.play_deal``).
    """
    n_blocks = (n + DEAL_BLOCK - 1) // DEAL_BLOCK
    for b in prange(n_blocks):
        start = b * DEAL_BLOCK
        stop = min(n, start + DEAL_BLOCK)
        _deal_block(start, stop, key, cfg, max_tries, hands, chien, tries)


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
