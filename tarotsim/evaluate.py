"""Hand evaluation in card notation, over the compiled count the bidding policy uses."""

from __future__ import annotations

from collections.abc import Iterable

from tarotsim.cards import parse_cards, to_mask
from tarotsim.kernels.chavey import distribution_points, hand_points


def evaluate_hand(hand: str | Iterable[str], *, with_distribution: bool = False) -> int:
    """Noël Chavey's point count of a hand (see ``kernels.policies.evaluate`` for the details).

    ``with_distribution=True`` adds the bonus for voids (6) and singletons (3) that is
    counted when weighing a Garde sans or a Garde contre.

    >>> evaluate_hand("T21 T20 T19 T18 T17 T16 EX KS QS KH 2C 3C 4C 5C 6C 7D 8D 9D")
    69
    """
    word0, word1 = to_mask(parse_cards(hand, what="hand"))
    points = int(hand_points(word0, word1))
    if with_distribution:
        points += int(distribution_points(word0))
    return points
