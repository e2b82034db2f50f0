"""Noël Chavey's hand count in card notation, over the compiled count the bidding policy uses
(``kernels.chavey``)."""

from __future__ import annotations

from collections.abc import Iterable

from tarotsim.engine.cards import parse_cards, to_mask
from tarotsim.engine.kernels.chavey import distribution_points, hand_points
from tarotsim.engine.labels import TABLE_SIZES

HAND_SIZES = {hand: players for players, (hand, _) in TABLE_SIZES.items()}
"""Cards in a hand as dealt → players at the table."""


def evaluate_hand(hand: str | Iterable[str], *, with_distribution: bool = False) -> int:
    """Noël Chavey's point count of a hand (see ``kernels.chavey`` for the details).

    ``with_distribution=True`` adds the bonus for voids (6) and singletons (3) that is
    counted when weighing a Garde sans or a Garde contre.

    >>> evaluate_hand("T21 T20 T19 T18 T17 T16 EX KS QS KH 2C 3C 4C 5C 6C 7D 8D 9D")
    69

    Raises
    ------
    ValueError
        For an unknown card, a card twice, or a hand that is not a dealt hand's size
        (24, 18 or 15 cards for 3, 4 or 5 players).
    """
    cards = parse_cards(hand, what="hand")
    if len(cards) not in HAND_SIZES:
        sizes = ", ".join(f"{size} ({players} players)" for size, players in HAND_SIZES.items())
        raise ValueError(f"a hand as dealt holds {sizes} cards, got {len(cards)}")
    word0, word1 = to_mask(cards)
    points = int(hand_points(word0, word1))
    if with_distribution:
        points += int(distribution_points(word0))
    return points
