"""Card sets as Python ints over the 78 card ids (bit ``id``), and card names to ids and back:
what the game, the observer and the resampler of ``tarotsim.openspiel`` share."""

from __future__ import annotations

from collections.abc import Sequence

from tarotsim.cards import (
    EXCUSE,
    EXCUSE_SUIT,
    KING,
    N_CARDS,
    N_SUIT_CARDS,
    N_TRUMPS,
    PETIT,
    SUIT_LEN,
    TRUMP_SUIT,
    format_card,
)

_ALL = (1 << N_CARDS) - 1
_SUITS = (1 << N_SUIT_CARDS) - 1
_TRUMPS = ((1 << N_TRUMPS) - 1) << N_SUIT_CARDS
_KINGS = sum(1 << (SUIT_LEN * suit + KING) for suit in range(4))
_PETIT = 1 << PETIT
_EXCUSE = 1 << EXCUSE
_NAMES = tuple(format_card(c) for c in range(N_CARDS))
_IDS = {name: card for card, name in enumerate(_NAMES)}


def _mask(names: Sequence[str]) -> int:
    bits = 0
    for name in names:
        bits |= 1 << _IDS[name]
    return bits


def _ids(bits: int) -> list[int]:
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


def _names(bits: int) -> list[str]:
    return [_NAMES[c] for c in _ids(bits)]


def _suit(card: int) -> int:
    """0-3 a suit, ``TRUMP_SUIT`` a trump, ``EXCUSE_SUIT`` the Excuse."""
    if card < N_SUIT_CARDS:
        return card // SUIT_LEN
    return EXCUSE_SUIT if card == EXCUSE else TRUMP_SUIT


def _rank_and_above(rank: int) -> int:
    """The suit cards of rank ``rank`` and above, every suit."""
    bits = 0
    for suit in range(4):
        for r in range(rank, KING + 1):
            bits |= 1 << (SUIT_LEN * suit + r)
    return bits
