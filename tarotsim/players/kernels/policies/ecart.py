"""Écart (discard) policies. Every policy returns a legal écart (docs/rules.md §4): no King,
no bout, and trumps only when the hand lacks other cards to make up the écart.

- ``simple``: the cheapest cards (small cards, then Jacks, Knights, Queens).
- ``expert``: voids first, then points from the suits the taker cannot keep, then short
  suits; see ``expert_ecart``.
"""

from __future__ import annotations

import numpy as np

from tarotsim._jit import njit
from tarotsim.engine.cards import (
    BOUTS_MASK_1,
    JACKS_MASK,
    KINGS_MASK,
    KNIGHTS_MASK,
    N_SUITS,
    PIPS_MASK,
    QUEENS_MASK,
    TRUMPS_MASK,
)
from tarotsim.engine.kernels.bits import ZERO, popcount, take_highest, take_lowest
from tarotsim.engine.kernels.rules import half_points, suit_bits
from tarotsim.engine.kernels.view import SeatView
from tarotsim.players.kernels.policies.codes import ECART_EXPERT, ECART_SIMPLE

ECART_CODES = (ECART_SIMPLE, ECART_EXPERT)
"""The codes ``choose_ecart`` handles."""
_HONOURS = QUEENS_MASK | KNIGHTS_MASK | JACKS_MASK
_VOID_KEY_PER_CARD = 256
"""Voiding a suit: fewer cards first, then more points (a whole suit is worth 34 half points,
less than one card's weight here)."""
_NO_SUIT_YET = 1 << 30
"""Larger than any key or length a suit can have: the search has found no suit yet."""


@njit(inline="always")
def forced_trumps(word0: np.uint64, word1: np.uint64, size: int) -> tuple[np.uint64, int]:
    """Trumps that must go to an écart of ``size`` cards, and how many suit cards may go.

    The lowest trumps that are not bouts are taken, and only as many as the hand lacks
    in non-King suit cards.
    """
    suit_cards = popcount(word0 & ~KINGS_MASK)
    if suit_cards >= size:
        return ZERO, size
    return take_lowest(word1 & TRUMPS_MASK & ~BOUTS_MASK_1, size - suit_cards), suit_cards


@njit
def simple_ecart(word0: np.uint64, word1: np.uint64, size: int) -> tuple[np.uint64, np.uint64]:
    """Discard the cheapest cards: small cards, then Jacks, Knights, Queens (lowest id first)."""
    trumps, remaining = forced_trumps(word0, word1, size)
    discard = ZERO
    for cls in (PIPS_MASK, JACKS_MASK, KNIGHTS_MASK, QUEENS_MASK):
        chosen = take_lowest(word0 & cls, remaining)
        discard |= chosen
        remaining -= popcount(chosen)
    return discard, trumps


@njit
def expert_ecart(word0: np.uint64, word1: np.uint64, size: int) -> tuple[np.uint64, np.uint64]:
    """An écart that makes voids and banks points, as strong players discard.

    1. never a King or a bout; trumps only when forced (``forced_trumps``), and then every
       suit card but the Kings goes;
    2. void the suits without a King, shortest first (ties: the suit with more points),
       while a whole suit fits: voids and short suits let the taker trump later;
    3. then bank points from the suits without a King, which the taker cannot keep:
       Queens, Knights, Jacks, from the shortest such suit first;
    4. then shorten those suits further, lowest cards of the shortest suit first;
    5. only then touch the suits with a King: their honours (which score in the écart)
       before their small cards, which guard the King's suit.
    """
    trumps, remaining = forced_trumps(word0, word1, size)
    free = word0 & ~KINGS_MASK
    if popcount(free) <= remaining:
        return free, trumps
    discard = ZERO
    kingless = ZERO
    for suit in range(N_SUITS):
        bits = suit_bits(suit)
        if not (word0 & bits & KINGS_MASK):
            kingless |= bits
    # 2: voids, shortest kingless suit first
    while remaining > 0:
        best = -1
        best_key = _NO_SUIT_YET
        for suit in range(N_SUITS):
            cards = word0 & suit_bits(suit) & kingless & ~discard
            n = popcount(cards)
            if n == 0 or n > remaining:
                continue
            key = n * _VOID_KEY_PER_CARD - half_points(cards, ZERO)
            if key < best_key:
                best_key = key
                best = suit
        if best < 0:
            break
        cards = word0 & suit_bits(best) & ~discard
        discard |= cards
        remaining -= popcount(cards)
    # 3 and 4: honours, then small cards, of the kingless suits, shortest suit first
    for cls in (_HONOURS, PIPS_MASK):
        while remaining > 0:
            best = -1
            best_len = _NO_SUIT_YET
            for suit in range(N_SUITS):
                cards = word0 & suit_bits(suit) & kingless & ~discard
                n = popcount(cards)
                if n and cards & cls and n < best_len:
                    best_len = n
                    best = suit
            if best < 0:
                break
            cards = word0 & suit_bits(best) & kingless & ~discard & cls
            chosen = take_highest(cards, remaining) if cls == _HONOURS else take_lowest(cards, remaining)
            discard |= chosen
            remaining -= popcount(chosen)
    # 5: the suits with a King: honours first, then small cards
    for cls in (_HONOURS, PIPS_MASK):
        chosen = (
            take_highest(free & ~discard & cls, remaining)
            if cls == _HONOURS
            else take_lowest(free & ~discard & cls, remaining)
        )
        discard |= chosen
        remaining -= popcount(chosen)
    return discard, trumps


@njit(_nrt=False)
def choose_ecart(policy: int, v: SeatView, size: int) -> tuple[np.uint64, np.uint64]:
    """The écart of ``size`` cards the taker makes under ``policy``; ``v`` is its view with
    the chien in its hand (``engine.kernels.steps.take_chien``): its legal choices are the cards of that
    hand but Kings and bouts, trumps only when forced."""
    if policy == ECART_EXPERT:
        return expert_ecart(v.hand0, v.hand1, size)
    if policy == ECART_SIMPLE:
        return simple_ecart(v.hand0, v.hand1, size)
    raise ValueError("unknown ecart policy code")
