"""FFT scoring of one deal, over the same compiled functions the simulator runs.

>>> r = score_deal(contract=Contract.GARDE, attack_points=47, attack_bouts=2)
>>> r.made, r.margin, r.per_defender, r.taker
(True, 6, 62, 186)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from tarotsim.engine.cards import HALF_POINTS
from tarotsim.engine.kernels import score as K
from tarotsim.engine.labels import (
    POIGNEE_BONUS,
    POIGNEE_NAMES,
    SIDE_NAMES,
    TABLE_SIZES,
    Contract,
    Side,
    check_players,
    parse_contract,
)

FULL_HALF_POINTS = int(HALF_POINTS.sum())
"""Half points of the whole pack (91 points)."""
MAX_CARD_HALF_POINTS = int(HALF_POINTS.max())
"""Half points of the most valuable card (4.5 points: a bout or a King)."""
BOUT_HALF_POINTS = MAX_CARD_HALF_POINTS


@dataclass(frozen=True)
class DealScore:
    """Result of one deal: ``made``, ``margin`` (points), ``per_defender`` (D: what each
    defender pays the attack, negative when the attack pays) and ``taker`` (the taker's score)."""

    made: bool
    margin: int
    per_defender: int
    taker: int


def _side(value: str | None, name: str) -> Side:
    if value is None:
        return Side.NONE
    if value not in SIDE_NAMES:
        raise ValueError(f"{name} must be None or one of {', '.join(SIDE_NAMES)}, got {value!r}")
    return Side.parse(value)


def _check_possible(half: int, bouts: int, contract: Contract, chelem: Side, players: int) -> None:
    """Refuse points that no deal can end with: each bout is worth 4.5 points, and a side
    that won no trick holds at most the Excuse and, by the contract, the chien or the écart."""
    low, high = BOUT_HALF_POINTS * bouts, FULL_HALF_POINTS - BOUT_HALF_POINTS * (3 - bouts)
    if not low <= half <= high:
        raise ValueError(
            f"with {bouts} bouts (4.5 points each) the attack ends with {low / 2:g} to "
            f"{high / 2:g} points, got {half / 2:g}"
        )
    chien = TABLE_SIZES[players][1]
    if chelem == Side.ATTACK:
        cards = 1 + (chien if contract == Contract.GARDE_CONTRE else 0)
        least = FULL_HALF_POINTS - MAX_CARD_HALF_POINTS * cards
        if half < least:
            raise ValueError(
                f"after a chelem by the attack the defence holds at most {cards} card(s) (the Excuse"
                f"{', the chien' if cards > 1 else ''}), so the attack ends with at least "
                f"{least / 2:g} points, got {half / 2:g}"
            )
    elif chelem == Side.DEFENCE:
        cards = 1 + (0 if contract == Contract.GARDE_CONTRE else chien)
        most = MAX_CARD_HALF_POINTS * cards
        if half > most:
            raise ValueError(
                f"after a chelem by the defence the attack holds at most {cards} card(s) (the Excuse"
                f"{', the chien or the écart' if cards > 1 else ''}), so it ends with at most "
                f"{most / 2:g} points, got {half / 2:g}"
            )


def score_deal(
    *,
    players: int = 4,
    contract: str | Contract,
    attack_points: float,
    attack_bouts: int,
    petit_au_bout: str | None = None,
    poignees: Sequence[str] = (),
    chelem_announced: bool = False,
    chelem: str | None = None,
    taker_alone: bool = False,
) -> DealScore:
    """Score one deal by docs/rules.md §7-8.

    Parameters
    ----------
    players
        3, 4 or 5 (settlement: the taker scores 2D, 3D, or with 5 players 2D with a
        partner and 4D when ``taker_alone``).
    contract
        The contract played: a ``Contract`` other than ``PASS``, or its label
        (``labels.CONTRACTS``).
    attack_points
        Card points the attack ends with, 0-91 in steps of 0.5.
    attack_bouts
        Bouts the attack ends with, 0-3.
    petit_au_bout
        Side that scored the petit au bout: None or a side label (``labels.SIDE_NAMES``).
    poignees
        Every poignée shown, by either side, by size label (``labels.POIGNEE_NAMES``).
    chelem_announced
        Whether the taker announced a chelem.
    chelem
        Side that won every trick: None or a side label.

    Returns
    -------
    DealScore
        The result, the margin and the settlement, in points.

    Raises
    ------
    ValueError, TypeError
        For an unknown contract, side or poignée, points or bouts out of range, or a
        result no deal can have (3 bouts and no points; a chelem by the attack with 10
        points).
    """
    players = check_players(players)
    played = parse_contract(contract)
    if isinstance(attack_points, bool) or not isinstance(
        attack_points, (int, float, np.integer, np.floating)
    ):
        raise TypeError(f"attack_points must be a number of points, got {attack_points!r}")
    half = float(attack_points) * 2
    if not (0 <= half <= 182 and half == int(half)):
        raise ValueError(f"attack_points must be between 0 and 91 in steps of 0.5, got {attack_points}")
    if isinstance(attack_bouts, bool) or attack_bouts not in (0, 1, 2, 3):
        raise ValueError(f"attack_bouts must be 0, 1, 2 or 3, got {attack_bouts!r}")
    if isinstance(poignees, str):
        raise TypeError(
            f"poignees must be a sequence of sizes such as [{POIGNEE_NAMES[0]!r}], not a single string"
        )
    bonus = 0
    for size in poignees:
        if size not in POIGNEE_BONUS:
            raise ValueError(f"unknown poignée {size!r}; valid: {', '.join(POIGNEE_NAMES)}")
        bonus += POIGNEE_BONUS[size]
    if taker_alone and players != 5:
        raise ValueError("taker_alone only applies to 5 players (the taker without a partner)")
    chelem_side = _side(chelem, "chelem")
    _check_possible(int(half), int(attack_bouts), played, chelem_side, players)
    made, margin = K.result(int(half), int(attack_bouts))
    d = K.per_defender(
        int(played),
        made,
        margin,
        int(_side(petit_au_bout, "petit_au_bout")),
        bonus,
        bool(chelem_announced),
        int(chelem_side),
    )
    scores = np.zeros(players, dtype=np.int64)
    partner = -1 if (taker_alone or players != 5) else 1
    K.settle(scores, players, 0, partner, int(d))
    return DealScore(made=bool(made), margin=int(margin), per_defender=int(d), taker=int(scores[0]))


def max_score(players: int) -> int:
    """A bound on the absolute score of any seat in one deal at a table of ``players``
    (points): per defender at most 25 plus the largest margin (56) plus the petit au bout
    (10), times the largest multiplier (Garde contre, 6), plus every seat's triple poignée
    and an announced chelem made; the taker (alone, with five players) settles it with each
    of the other seats. The bound for the reward ranges of the research interfaces.

    >>> max_score(4)
    3318
    """
    players = check_players(players)
    margin = max(int(K.TARGET_HALF[0]), FULL_HALF_POINTS - int(K.TARGET_HALF[-1])) // 2
    per_defender = (25 + margin + 10) * int(K.MULTIPLIER.max()) + int(K.POIGNEE_BONUS.max()) * players + 400
    return (players - 1) * per_defender
