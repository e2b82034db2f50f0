"""What a Numba card player reads, and small ``@njit`` helpers on cards, card sets and the
trick in play for it.

A Numba card player is a ``@numba.njit`` function ``card(view, legal0, legal1, options) ->
int`` (`CARD_SIGNATURE_TEXT`; ``docs/player.md``, "Numba players"):

- ``view``: the seat's `SeatView` (fields `FIELDS`, described in
  ``docs/player.md``); its arrays are read-only, but for ``rng``, the deal's random
  stream (draw from it with `draw`);
- ``legal0``, ``legal1``: the legal cards, a card set of two ``uint64`` words
  (``tarotsim.engine.cards.to_mask``: suit cards in word 0, 14 bits a suit; trumps 1–21 in bits
  0–20 of word 1, the Excuse in bit 21);
- ``options``: the strategy's ``params`` (``Strategy(play=card, params=(…))``), float64;
- it returns the id of one of the legal cards (``tarotsim.engine.cards``: 0–55 suit cards, 56–76
  trumps 1–21, 77 the Excuse).

The ``info`` slots and the ``history`` columns are named here (``INFO_*``, ``HISTORY_*``).
"""

from __future__ import annotations

import numpy as np

from tarotsim._jit import njit
from tarotsim.engine.cards import (
    EXCUSE,
    EXCUSE_BIT,
    FIRST_TRUMP,
    HALF_POINTS,
    N_SUIT_CARDS,
    SUIT_LEN,
    TRUMPS_MASK,
)
from tarotsim.engine.kernels import state as _S
from tarotsim.engine.kernels.bits import ZERO, highest_bit, lowest_bit, popcount
from tarotsim.engine.kernels.rng import below
from tarotsim.engine.kernels.rules import (
    card_bit,
    cards_above,
    suit_bits,
    suit_code,
    trick_after,
    winning_key,
)
from tarotsim.engine.kernels.view import SeatView, known_partner
from tarotsim.players.kernels.user import SIGNATURE_TEXT

__all__ = [
    "CARD_SIGNATURE_TEXT",
    "FIELDS",
    "HISTORY_LEADER",
    "HISTORY_WINNER",
    "INFO_CALLED",
    "INFO_CHELEM_ANNOUNCED",
    "INFO_CHIEN_SHOWN",
    "INFO_CONTRACT",
    "INFO_DEALER",
    "INFO_HI_TRUMP",
    "INFO_LED",
    "INFO_LEADER",
    "INFO_PARTNER",
    "INFO_PETIT_SEAT",
    "INFO_PLAYERS",
    "INFO_TAKER",
    "INFO_TRICK",
    "INFO_TRICK_HALF",
    "INFO_TRICK_LEN",
    "INFO_VOIDS",
    "INFO_WIN_CARD",
    "INFO_WIN_SEAT",
    "SeatView",
    "beats_trick",
    "card_bit",
    "card_count",
    "draw",
    "half_points",
    "highest_card",
    "holds",
    "known_partner",
    "lowest_card",
    "rank_of",
    "suit_cards",
    "suit_of",
    "winning_cards",
]

CARD_SIGNATURE_TEXT = SIGNATURE_TEXT
"""The signature a Numba card player must have."""
FIELDS: tuple[str, ...] = SeatView._fields
"""The fields of a ``SeatView``, in order."""

INFO_DEALER = _S.I_DEALER
INFO_TAKER = _S.I_TAKER
INFO_CONTRACT = _S.I_CONTRACT
INFO_PARTNER = _S.I_PARTNER
INFO_CALLED = _S.I_CALLED
INFO_LEADER = _S.I_LEADER
INFO_TRICK = _S.I_TRICK
INFO_TRICK_LEN = _S.I_TRICK_LEN
INFO_LED = _S.I_LED
INFO_HI_TRUMP = _S.I_HI_TRUMP
INFO_CHIEN_SHOWN = _S.I_CHIEN_SHOWN
INFO_CHELEM_ANNOUNCED = _S.I_CHELEM_ANNOUNCED
INFO_PLAYERS = _S.I_PLAYERS
INFO_VOIDS = _S.I_VOIDS
INFO_WIN_SEAT = _S.I_WIN_SEAT
INFO_WIN_CARD = _S.I_WIN_CARD
INFO_TRICK_HALF = _S.I_TRICK_HALF
INFO_PETIT_SEAT = _S.I_PETIT_SEAT
HISTORY_LEADER = _S.H_LEADER
HISTORY_WINNER = _S.H_WINNER


@njit(inline="always")
def holds(word0: np.uint64, word1: np.uint64, card: int) -> bool:
    """Whether the card set ``(word0, word1)`` holds ``card``."""
    bit0, bit1 = card_bit(card)
    return (word0 & bit0) != ZERO or (word1 & bit1) != ZERO


@njit(inline="always")
def card_count(word0: np.uint64, word1: np.uint64) -> int:
    """The number of cards in a card set."""
    return popcount(word0) + popcount(word1)


@njit(inline="always")
def lowest_card(word0: np.uint64, word1: np.uint64) -> int:
    """The card of lowest id in a non-empty card set (suit cards before trumps, the Excuse last)."""
    return lowest_bit(word0) if word0 != ZERO else N_SUIT_CARDS + lowest_bit(word1)


@njit(inline="always")
def highest_card(word0: np.uint64, word1: np.uint64) -> int:
    """The card of highest id in a non-empty card set."""
    return N_SUIT_CARDS + highest_bit(word1) if word1 != ZERO else highest_bit(word0)


@njit(inline="always")
def suit_of(card: int) -> int:
    """0–3 the suits (spades, hearts, diamonds, clubs), 4 trumps, 5 the Excuse."""
    return suit_code(card)


@njit(inline="always")
def rank_of(card: int) -> int:
    """The card's rank within its own suit, higher beating lower: 1–10 the number cards, 11
    the Jack, 12 the Knight, 13 the Queen, 14 the King; a trump its number, 1–21; the
    Excuse 0 (as [`tarotsim.engine.cards.rank_of`][tarotsim.engine.cards.rank_of])."""
    if card < N_SUIT_CARDS:
        return card % SUIT_LEN + 1
    if card < EXCUSE:
        return card - FIRST_TRUMP + 1
    return 0


@njit(inline="always")
def beats_trick(view: SeatView, card: int) -> bool:
    """Whether ``card``, played now, would win the trick in play so far: the test the game
    itself makes on the card played (a higher card of the suit led, a trump on a trick
    without one, a higher trump; never the Excuse; any other card on an empty trick), as
    [`tarotsim.engine.rules.beats_trick`][tarotsim.engine.rules.beats_trick] answers it in card names."""
    led = trick_after(view.info[INFO_LED], view.info[INFO_HI_TRUMP], card)[0]
    return winning_key(card, led) > view.info[INFO_WIN_CARD]


@njit(inline="always")
def winning_cards(view: SeatView, word0: np.uint64, word1: np.uint64) -> tuple[np.uint64, np.uint64]:
    """The cards of a card set that would win the trick in play so far (`beats_trick` for
    each of them): on an empty trick, or one holding only the Excuse, all but the Excuse."""
    winning = view.info[INFO_WIN_CARD]
    if winning < 0:
        return word0, word1 & ~EXCUSE_BIT
    above0, above1 = cards_above(winning)
    return word0 & above0, word1 & above1


@njit(inline="always")
def suit_cards(word0: np.uint64, word1: np.uint64, suit: int) -> tuple[np.uint64, np.uint64]:
    """The cards of ``suit`` (0–3 a suit, 4 trumps) in a card set."""
    if suit == 4:
        return ZERO, word1 & TRUMPS_MASK
    return word0 & suit_bits(suit), ZERO


@njit(inline="always")
def half_points(card: int) -> int:
    """The card's worth in half points (a King 9, the Excuse 9, a low card 1)."""
    return HALF_POINTS[card]


@njit(inline="always")
def draw(rng: np.ndarray, n: int) -> int:
    """A whole number drawn uniformly in ``[0, n)`` from the deal's stream ``view.rng``."""
    return below(rng, n)
