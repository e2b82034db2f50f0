"""The rules of play (RULES.md §6-7) on card ids and two-word card sets.

Each rule is written once here and used by the simulator and by the Python API
(``tarotsim.rules``) alike:

- ``suit_code`` and ``trick_after``: the suit led is set by the first card that is not
  the Excuse; ``hi_trump`` is the highest trump played to the trick so far (0: none);
- ``legal_set``: the playable cards of a hand, by bit arithmetic;
- ``trick_winner``: the ordinary winner of a trick (the Excuse never wins);
- ``half_points`` and ``bouts``: counting a card set.
"""

from __future__ import annotations

import numpy as np

from tarotsim._jit import njit
from tarotsim.cards import (
    BOUTS_MASK_1,
    EXCUSE,
    EXCUSE_BIT,
    EXCUSE_SUIT,
    FIRST_TRUMP,
    JACKS_MASK,
    KINGS_MASK,
    KNIGHTS_MASK,
    N_SUIT_CARDS,
    NO_SUIT,
    PIPS_MASK,
    QUEENS_MASK,
    SUIT_LEN,
    SUIT_MASK,
    TRUMP_SUIT,
    TRUMPS_MASK,
)
from tarotsim.kernels.bits import popcount

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_OTHER_TRUMPS_MASK = TRUMPS_MASK & ~BOUTS_MASK_1


@njit(inline="always")
def card_bit(card: int) -> tuple[np.uint64, np.uint64]:
    """The card set (word 0, word 1) holding only ``card``."""
    if card < N_SUIT_CARDS:
        return _ONE << np.uint64(card), _ZERO
    return _ZERO, _ONE << np.uint64(card - N_SUIT_CARDS)


@njit(inline="always")
def suit_code(card: int) -> int:
    """0-3 for a suit card, 4 (TRUMP_SUIT) for a trump, 5 (EXCUSE_SUIT) for the Excuse."""
    if card < N_SUIT_CARDS:
        return card // SUIT_LEN
    if card < EXCUSE:
        return TRUMP_SUIT
    return EXCUSE_SUIT


@njit(inline="always")
def trick_after(led: int, hi_trump: int, card: int) -> tuple[int, int]:
    """The trick's (suit led, highest trump) after ``card`` is played to it.

    ``led`` is -1 until the first card that is not the Excuse; ``hi_trump`` is the rank
    (1-21) of the highest trump in the trick, 0 when there is none.
    """
    suit = suit_code(card)
    if led == NO_SUIT and suit != EXCUSE_SUIT:
        led = suit
    if suit == TRUMP_SUIT:
        rank = card - FIRST_TRUMP + 1
        if rank > hi_trump:
            hi_trump = rank
    return led, hi_trump


@njit(inline="always")
def legal_set(
    hand0: np.uint64, hand1: np.uint64, led: int, hi_trump: int
) -> tuple[np.uint64, np.uint64]:
    """The cards of a hand that may be played to a trick (RULES.md §6).

    Follow the suit led; else trump, above ``hi_trump`` when able; on a trump lead
    overtrump when able; with neither, any card. The Excuse is always playable.
    """
    if led == NO_SUIT:
        return hand0, hand1
    if led < TRUMP_SUIT:
        in_suit = hand0 & (SUIT_MASK << np.uint64(SUIT_LEN * led))
        if in_suit:
            return in_suit, hand1 & EXCUSE_BIT
    trumps = hand1 & TRUMPS_MASK
    if trumps:
        higher = trumps & ~((_ONE << np.uint64(hi_trump)) - _ONE)
        if higher:
            return _ZERO, higher | (hand1 & EXCUSE_BIT)
        return _ZERO, hand1
    return hand0, hand1


@njit(inline="always")
def winning_key(card: int, led: int) -> int:
    """Strength of a card in a trick whose suit led is ``led``: higher wins, -1 never wins."""
    suit = suit_code(card)
    if suit == TRUMP_SUIT:
        return 100 + card
    if suit == led:
        return card
    return -1


@njit
def trick_winner(cards: np.ndarray, n_cards: int) -> int:
    """Index in ``cards[:n_cards]`` of the card that wins the trick by the ordinary rule."""
    led = NO_SUIT
    hi = 0
    for j in range(n_cards):
        led, hi = trick_after(led, hi, cards[j])
    best = 0
    best_key = -2
    for j in range(n_cards):
        key = winning_key(cards[j], led)
        if key > best_key:
            best_key = key
            best = j
    return best


@njit(inline="always")
def half_points(word0: np.uint64, word1: np.uint64) -> int:
    """Value of a card set in half points (the deck holds 182)."""
    return (
        9 * popcount(word0 & KINGS_MASK)
        + 7 * popcount(word0 & QUEENS_MASK)
        + 5 * popcount(word0 & KNIGHTS_MASK)
        + 3 * popcount(word0 & JACKS_MASK)
        + popcount(word0 & PIPS_MASK)
        + 9 * popcount(word1 & BOUTS_MASK_1)
        + popcount(word1 & _OTHER_TRUMPS_MASK)
    )


@njit(inline="always")
def bouts(word1: np.uint64) -> int:
    """Number of bouts in a card set (they all live in word 1)."""
    return popcount(word1 & BOUTS_MASK_1)
