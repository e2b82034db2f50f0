"""Card sets as Python ints over the 78 card ids (bit ``id``), and card names to ids and back:
what the game, the observer and the resampler of ``tarotsim.interfaces.openspiel`` share."""

from __future__ import annotations

from collections.abc import Sequence

from tarotsim.engine.cards import EXCUSE, N_CARDS, N_SUIT_CARDS, N_TRUMPS, PETIT, format_card

_SUITS = (1 << N_SUIT_CARDS) - 1
_TRUMPS = ((1 << N_TRUMPS) - 1) << N_SUIT_CARDS
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
