"""Announcements: which poignée a player shows, and whether the taker announces a chelem.

Poignée policies (the bonus goes to the side that wins the deal, whoever showed it):

- ``always``: show the largest poignée the hand allows;
- ``never``: never show;
- ``smart``: show the largest poignée only when one's side is likely to win the deal,
  judged on Chavey's count of one's own hand as it starts the play (the taker's after
  the écart) and the contract. The taker shows from a count of ``SMART_TAKER_MIN`` (50),
  where the contract is safe: takers holding 10+ trumps made it 80% of the time from 50,
  66% at 45-49 and 43% below 45. A defender (or, with 5 players, the partner) shows
  against a Prise, which defenders holding 10+ trumps beat 81% of the time (69% with a
  count under 30), and against a Garde or more only from a count of
  ``SMART_DEFENDER_MIN`` (40): such a defence won only 46% of those deals overall, 63%
  from a count of 40. (Rates measured on 200,000-600,000 deals of heuristic play with the
  expert écart; showing also tells the other side where the trumps are.) With 3 or 5
  players the counts are scaled by the hand size, as the bidding bands are.

Which cards a poignée shows is the rule step's (``engine.kernels.steps.poignee_cards``): the lowest trumps
but the Petit (its place would be told), the Petit only when the hand holds no other trump
to show; the Excuse only when the trumps alone fall one short, which means every trump of
the hand is shown with it.

Chelem policies: ``never``, and ``overwhelming``: announce when Chavey's count plus the
distribution bonus of the hand after the écart reaches the taker's ``P_CHELEM_THRESHOLD``
(default 110). Reviewed with heuristic play (expert écart): counts of 95 or more come
about once in 8,000 played deals (1,000,000 deals; the highest seen was 104), and when
every hand from 85 up announced and played for the chelem (300,000 deals), the chelem
was made 0.5% of the time at 85-89, 1.4% at 90-94 and 3% at 95-99. Announcing pays only
when a chelem is made more often than not (+400 instead of +200, -200 when missed), so
no reachable count justifies it and the default stays above them: ``overwhelming``
announces only freak hands, and lowering the threshold costs the taker points.
"""

from __future__ import annotations

import numpy as np

from tarotsim._jit import njit
from tarotsim.engine.cards import EXCUSE_BIT, TRUMPS_MASK
from tarotsim.engine.kernels.bits import popcount
from tarotsim.engine.kernels.chavey import distribution_points, hand_points
from tarotsim.engine.kernels.score import POIGNEE_NONE, PRISE, poignee_size
from tarotsim.engine.kernels.state import (
    C_HAND,
    C_PLAYERS,
    I_CONTRACT,
    I_TAKER,
    P_CHELEM_THRESHOLD,
    seat_slot,
)
from tarotsim.engine.kernels.view import SeatView
from tarotsim.players.kernels.policies.codes import (
    CHELEM_NEVER,
    CHELEM_OVERWHELMING,
    POIGNEE_ALWAYS,
    POIGNEE_NEVER,
    POIGNEE_SMART,
)

POIGNEE_CODES = (POIGNEE_ALWAYS, POIGNEE_NEVER, POIGNEE_SMART)
"""The codes ``poignee_choice`` handles."""
CHELEM_CODES = (CHELEM_NEVER, CHELEM_OVERWHELMING)
"""The codes ``announces_chelem`` handles."""
SMART_TAKER_MIN = 50
"""``smart`` poignée: the taker shows from this count (after the écart)."""
SMART_DEFENDER_MIN = 40
"""``smart`` poignée: against a Garde or more, a defender (or the 5-player partner) shows from this count."""


@njit(_nrt=False)
def poignee_choice(policy: int, v: SeatView, cfg: np.ndarray) -> int:
    """Size of the poignée the seat of ``v`` shows before its first card (POIGNEE_NONE: none);
    its legal choices are the sizes up to the largest its hand allows (``engine.kernels.score.poignee_size``).

    Reads only the seat's own hand, the taker and the contract (public).
    """
    if policy == POIGNEE_NEVER:
        return POIGNEE_NONE
    if policy != POIGNEE_ALWAYS and policy != POIGNEE_SMART:
        raise ValueError("unknown poignee policy code")
    word0 = v.hand0
    word1 = v.hand1
    size = poignee_size(popcount(word1 & TRUMPS_MASK), bool(word1 & EXCUSE_BIT), cfg[C_PLAYERS])
    if size == POIGNEE_NONE or policy != POIGNEE_SMART:
        return size
    if v.seat == v.info[I_TAKER]:
        needed = SMART_TAKER_MIN
    elif v.info[I_CONTRACT] <= PRISE:
        return size
    else:
        needed = SMART_DEFENDER_MIN
    needed = (needed * cfg[C_HAND] + 9) // 18  # the counts were made for 18-card hands
    return size if hand_points(word0, word1) >= needed else POIGNEE_NONE


@njit(_nrt=False)
def announces_chelem(policy: int, v: SeatView, cfg: np.ndarray) -> bool:
    """Whether the taker of ``v``, holding its hand after the écart, announces a chelem under
    ``policy`` and its threshold (``P_CHELEM_THRESHOLD``)."""
    if policy == CHELEM_NEVER:
        return False
    if policy != CHELEM_OVERWHELMING:
        raise ValueError("unknown chelem policy code")
    points = hand_points(v.hand0, v.hand1) + distribution_points(v.hand0)
    return points >= cfg[seat_slot(v.seat, P_CHELEM_THRESHOLD)]
