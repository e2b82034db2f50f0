"""The ``greedy`` card-play policy: take the trick whenever a legal card can, as cheaply as possible.

A small policy, and the worked example of adding one (README, "Adding a policy";
``examples/greedy_duel.py`` duels it). It reads the seat's legal cards, the cards left in
its hand (own) and the trick in play (public), nothing else, so the no-peeking harness
(``tests/test_no_peeking.py``) passes on it; it never draws from the deal's random stream.

- Holding the Excuse with two cards left or fewer: the Excuse (on the last trick it would
  change sides).
- Otherwise, the Excuse kept: the cheapest card that beats the card winning the trick now
  (any card when leading), else the cheapest card. "Cheapest": fewest card points, then
  the lowest card id (the lower rank; suit cards before trumps).
"""

from __future__ import annotations

import numpy as np

from tarotsim._jit import njit
from tarotsim.engine.cards import EXCUSE, EXCUSE_BIT, HALF_POINTS, N_CARDS, N_SUIT_CARDS
from tarotsim.engine.kernels.bits import ONE, ZERO, lowest_bit, popcount
from tarotsim.engine.kernels.rules import NEVER_WINS, cards_above, winning_key
from tarotsim.engine.kernels.state import I_LED, I_TRICK_LEN
from tarotsim.engine.kernels.view import SeatView

_NO_KEY = 1 << 30  # above every key of cheapest_card: nothing found yet


@njit(inline="always")
def cheapest_card(word0: np.uint64, word1: np.uint64) -> int:
    """The card of a set worth the fewest points, the lowest id among equals; -1 for an empty set."""
    best = -1
    best_key = _NO_KEY
    for word, offset in ((word0, 0), (word1, N_SUIT_CARDS)):
        while word:
            card = offset + lowest_bit(word)
            key = HALF_POINTS[card] * N_CARDS + card
            if key < best_key:
                best_key = key
                best = card
            word &= word - ONE
    return best


@njit(inline="always")
def greedy_card(v: SeatView, legal0: np.uint64, legal1: np.uint64) -> int:
    """The card the ``greedy`` policy plays for the seat of ``v`` from its legal cards."""
    if legal1 & EXCUSE_BIT:
        if popcount(v.hand0) + popcount(v.hand1) <= 2 or (legal0 == ZERO and legal1 == EXCUSE_BIT):
            return EXCUSE
        legal1 &= ~EXCUSE_BIT
    led = v.info[I_LED]
    win_key = NEVER_WINS
    win_card = -1
    for j in range(v.info[I_TRICK_LEN]):
        key = winning_key(v.trick[j], led)
        if key > win_key:
            win_key = key
            win_card = v.trick[j]
    if win_card < 0:
        return cheapest_card(legal0, legal1)
    above0, above1 = cards_above(win_card)
    card = cheapest_card(legal0 & above0, legal1 & above1)
    return card if card >= 0 else cheapest_card(legal0, legal1)
