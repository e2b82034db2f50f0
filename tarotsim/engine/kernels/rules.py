"""The rules of play (docs/rules.md §3, §6-7) on card ids and two-word card sets.

Each rule is written once here and used by the simulator, by the Python API
(``tarotsim.engine.rules``) and by the tests alike:

- ``suit_code`` and ``trick_after``: the suit led is set by the first card that is not
  the Excuse; ``hi_trump`` is the highest trump played to the trick so far (0: none);
- ``legal_set``: the playable cards of a hand, by bit arithmetic; ``first_lead_set``: the
  5-player first-lead rule on top of it; ``legal_play``: both;
- ``reveal_voids`` and ``void_seats``: what a card tells every seat about the hand that
  played it;
- ``winning_key``: the order of the cards in a trick, and ``cards_above`` as card sets;
  ``trick_winner``: the ordinary winner of a trick (the Excuse never wins);
- ``half_points`` and ``bouts``: counting a card set.
"""

from __future__ import annotations

import numpy as np

from tarotsim._jit import njit
from tarotsim.engine.cards import (
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
from tarotsim.engine.kernels.bits import ONE, ZERO, popcount
from tarotsim.engine.kernels.state import VOID_SHIFT

NEVER_WINS = -1
"""``winning_key`` of a card that cannot win the trick (a discard, the Excuse)."""

_OTHER_TRUMPS_MASK = TRUMPS_MASK & ~BOUTS_MASK_1
_SEAT_BITS = (1 << VOID_SHIFT) - 1


@njit(inline="always")
def card_bit(card: int) -> tuple[np.uint64, np.uint64]:
    """The card set (word 0, word 1) holding only ``card``."""
    if card < N_SUIT_CARDS:
        return ONE << np.uint64(card), ZERO
    return ZERO, ONE << np.uint64(card - N_SUIT_CARDS)


@njit(inline="always")
def suit_code(card: int) -> int:
    """0-3 for a suit card, 4 (TRUMP_SUIT) for a trump, 5 (EXCUSE_SUIT) for the Excuse."""
    if card < N_SUIT_CARDS:
        return card // SUIT_LEN
    if card < EXCUSE:
        return TRUMP_SUIT
    return EXCUSE_SUIT


@njit(inline="always")
def suit_bits(suit: int) -> np.uint64:
    """Word-0 mask of the 14 cards of ``suit`` (0-3)."""
    return SUIT_MASK << np.uint64(SUIT_LEN * suit)


@njit(inline="always")
def above_in_suit(card: int) -> np.uint64:
    """Word-0 mask of the cards of suit card ``card``'s suit that rank above it."""
    return suit_bits(card // SUIT_LEN) & ~((ONE << np.uint64(card + 1)) - ONE)


@njit(inline="always")
def trumps_above(rank: int) -> np.uint64:
    """Word-1 mask of the trumps ranked above ``rank`` (0-21)."""
    return TRUMPS_MASK & ~((ONE << np.uint64(rank)) - ONE)


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
def legal_set(hand0: np.uint64, hand1: np.uint64, led: int, hi_trump: int) -> tuple[np.uint64, np.uint64]:
    """The cards of a hand that may be played to a trick (docs/rules.md §6).

    Follow the suit led; else trump, above ``hi_trump`` when able; on a trump lead
    overtrump when able; with neither, any card. The Excuse is always playable.
    """
    if led == NO_SUIT:
        return hand0, hand1
    if led < TRUMP_SUIT:
        in_suit = hand0 & suit_bits(led)
        if in_suit:
            return in_suit, hand1 & EXCUSE_BIT
    trumps = hand1 & TRUMPS_MASK
    if trumps:
        higher = trumps & trumps_above(hi_trump)
        if higher:
            return ZERO, higher | (hand1 & EXCUSE_BIT)
        return ZERO, hand1
    return hand0, hand1


@njit(inline="always")
def first_lead_set(legal0: np.uint64, legal1: np.uint64, called: int) -> tuple[np.uint64, np.uint64]:
    """The 5-player first lead of the deal (docs/rules.md §3): no card of the called suit but the
    called card itself. A leader holding nothing else keeps its whole choice (``legal``)."""
    suit = suit_bits(called // SUIT_LEN)
    allowed0 = legal0 & (~suit | (ONE << np.uint64(called)))
    if allowed0 or legal1:
        return allowed0, legal1
    return legal0, legal1


@njit(inline="always")
def legal_play(
    hand0: np.uint64, hand1: np.uint64, led: int, hi_trump: int, called: int, first_lead: bool
) -> tuple[np.uint64, np.uint64]:
    """The cards of a hand that may be played: ``legal_set``, and on the first lead of the
    deal, when a card was called (``called`` >= 0; -1 none), ``first_lead_set``."""
    legal0, legal1 = legal_set(hand0, hand1, led, hi_trump)
    if first_lead and called >= 0:
        return first_lead_set(legal0, legal1, called)
    return legal0, legal1


@njit(inline="always")
def reveal_voids(voids: int, seat: int, led: int, card: int) -> int:
    """The voids shown in play (``state.I_VOIDS``: bit ``VOID_SHIFT * suit + seat``) once
    ``seat`` has played ``card`` to a trick whose suit led is ``led``: not following shows
    a void in the suit led, not trumping shows the seat holds no trump (suit 4)."""
    suit = suit_code(card)
    if led == NO_SUIT or suit == EXCUSE_SUIT or suit == led:
        return voids
    if led < TRUMP_SUIT:
        voids |= 1 << (VOID_SHIFT * led + seat)
    if suit != TRUMP_SUIT:
        voids |= 1 << (VOID_SHIFT * TRUMP_SUIT + seat)
    return voids


@njit(inline="always")
def void_seats(voids: int, suit: int) -> int:
    """Seat mask of the seats that have shown they hold no card of ``suit`` (4: no trump)."""
    return (voids >> (VOID_SHIFT * suit)) & _SEAT_BITS


@njit(inline="always")
def winning_key(card: int, led: int) -> int:
    """Strength of a card in a trick whose suit led is ``led``: higher wins.

    A trump or a card of the suit led is ranked by its id (trump ids lie above every suit
    id); any other card, the Excuse included, gets ``NEVER_WINS``.
    """
    suit = suit_code(card)
    if suit == TRUMP_SUIT or suit == led:
        return card
    return NEVER_WINS


@njit(inline="always")
def cards_above(card: int) -> tuple[np.uint64, np.uint64]:
    """The card set that beats ``card``, the card winning a trick, by ``winning_key``: the
    higher cards of its suit and every trump for a suit card, the higher trumps for a trump."""
    if card < N_SUIT_CARDS:
        return above_in_suit(card), TRUMPS_MASK
    return ZERO, trumps_above(card - N_SUIT_CARDS + 1)


@njit
def trick_winner(cards: np.ndarray, n_cards: int) -> int:
    """Index in ``cards[:n_cards]`` of the card that wins the trick by the ordinary rule."""
    led = NO_SUIT
    hi = 0
    for j in range(n_cards):
        led, hi = trick_after(led, hi, cards[j])
    best = 0
    best_key = NEVER_WINS - 1
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
