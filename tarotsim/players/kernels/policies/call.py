"""The taker's call with five players (docs/rules.md §3): a King by suit, before the chien is seen.

A taker holding all four Kings calls a Queen, holding all Kings and Queens a Knight, and
so on. This policy calls, of the lowest rank it may call, the card whose suit the taker
holds most of (ties: the lower suit), so the partner's card can be brought home by
leading that suit. It never calls a card of its own hand.
"""

from __future__ import annotations

import numpy as np

from tarotsim._jit import njit
from tarotsim.engine.cards import JACK, KING, N_SUITS, SUIT_LEN
from tarotsim.engine.kernels.bits import ONE
from tarotsim.engine.kernels.chavey import suit_length
from tarotsim.engine.kernels.view import SeatView
from tarotsim.players.kernels.policies.codes import CALL_LONGEST

CALL_CODES = (CALL_LONGEST,)
"""The call policies that search nothing, which ``choose_call`` plays (``call=search``:
``players.kernels.search.decisions``)."""


@njit
def called_card(word0: np.uint64) -> int:
    """Card id the taker calls, from the suit cards ``word0`` of their hand as dealt."""
    for rank in range(KING, JACK - 1, -1):
        best = -1
        best_length = -1
        for suit in range(N_SUITS):
            card = SUIT_LEN * suit + rank
            if (word0 >> np.uint64(card)) & ONE:
                continue
            length = suit_length(word0, suit)
            if length > best_length:
                best = card
                best_length = length
        if best >= 0:
            return best
    return KING  # unreachable with 15 cards: a hand cannot hold every King, Queen, Knight and Jack


@njit(_nrt=False)
def choose_call(v: SeatView) -> int:
    """The card the taker of ``v`` (its hand as dealt) calls: its legal choices are the Kings,
    or the Queens when it holds every King, and so on (the one call policy: ``called_card``)."""
    return called_card(v.hand0)
