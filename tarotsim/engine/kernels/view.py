"""``SeatView``: what one seat may know at a decision, the only thing a policy reads.

Every decision of a policy (the bid, the king call, the écart, the poignée, the chelem
announcement, each card) receives the deciding seat's ``SeatView``, its legal choices and
the run's configuration ``cfg`` (its options), never the deal state: ``seat_view`` is the
one place that reads ``DealState`` for a policy, so a policy is honest by construction
(``tests/test_no_peeking.py`` checks it still, on every policy). What an agent or a Python
player is shown is written from the same view: the observation rows (``interfaces.kernels.vector``)
and the float encoding (``engine.kernels.encode``) serialize it, adding only the decision's
position (the phase, the seat to act, its legal choices, the auction, the écart laid so
far), so every fact of what a seat knows is decided here. The game's steps
(``engine.kernels.steps``) keep the arrays the view shares up to date card by card; making a view
copies a few scalars and no array, so handing it to an inlined policy costs nothing.

The fields, all a seat may know ("public": every seat knows it; "own": this seat only):

- ``seat``: the deciding seat;
- ``attack``: its own side (own: every seat knows its side, the secret partner included);
- ``hand0``, ``hand1``: its hand now (own; at the auction and the call, as dealt; at the
  écart, with the chien);
- ``ecart0``, ``ecart1``: the écart as this seat saw it: all of it for the taker, its
  trumps (shown) for the others; empty at Garde sans and Garde contre (own);
- ``chien0``, ``chien1``: the chien once turned face up (Prise, Garde), else empty (public);
- ``info`` (int64[N_INFO], slots ``state.I_*``): the public scalars: dealer, players,
  taker and contract, the called card and the partner once the called card is played
  (``I_PARTNER``: -1 until then; ``known_partner`` adds what the partner knows of itself),
  the chelem announced, the trick in play (leader, number, cards, suit led, highest
  trump, the card and seat winning it, its worth, who played the Petit to it), the voids
  shown (``I_VOIDS``) and the sides that won a trick so far (``I_TRICKS_WON_BY``);
- ``played`` (uint64[2]): every card played, the trick in play included (public);
- ``trick`` (int64[MAX_SEATS]): the cards of the trick in play, in play order (public);
- ``shown`` (uint64[MAX_SEATS, 2]): each seat's poignée shown (public);
- ``history`` (int64[MAX_TRICKS, N_HISTORY], columns ``state.H_*``): the tricks completed,
  their cards, leader and winner (public);
- ``bids`` (int64[MAX_SEATS]): the words said in the auction so far, in speaking order
  from the dealer's right (contract code, 0 = pass; public);
- ``rng`` (uint64[STREAM_WORDS]): the deal's random stream, which a random policy draws
  from (no knowledge of the cards).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from tarotsim._jit import njit
from tarotsim.engine.cards import TRUMPS_MASK
from tarotsim.engine.kernels.bits import ZERO
from tarotsim.engine.kernels.state import I_CHIEN_SHOWN, I_PARTNER, I_TAKER, DealState


class SeatView(NamedTuple):
    """What one seat may know at a decision (the module docstring describes each field)."""

    seat: int
    attack: bool
    hand0: np.uint64
    hand1: np.uint64
    ecart0: np.uint64
    ecart1: np.uint64
    chien0: np.uint64
    chien1: np.uint64
    info: np.ndarray
    played: np.ndarray
    trick: np.ndarray
    shown: np.ndarray
    history: np.ndarray
    bids: np.ndarray
    rng: np.ndarray


@njit(inline="always")
def seat_view(tb: DealState, seat: int) -> SeatView:
    """The view of ``seat`` on the deal ``tb``: the one reader of the deal state for a policy."""
    info = tb.info
    chien_shown = info[I_CHIEN_SHOWN] == 1
    ecart0 = ZERO
    ecart1 = tb.ecart[1] & TRUMPS_MASK
    if seat == info[I_TAKER]:
        ecart0 = tb.ecart[0]
        ecart1 = tb.ecart[1]
    return SeatView(
        seat,
        tb.attack[seat] == 1,
        tb.hands[seat, 0],
        tb.hands[seat, 1],
        ecart0,
        ecart1,
        tb.chien[0] if chien_shown else ZERO,
        tb.chien[1] if chien_shown else ZERO,
        info,
        tb.played,
        tb.trick,
        tb.shown,
        tb.history,
        tb.bids,
        tb.rng,
    )


@njit(inline="always")
def known_partner(v: SeatView) -> int:
    """The partner as the seat knows it: the public partner once the called card is played,
    the seat itself when it holds the called card (five players), else -1."""
    partner = v.info[I_PARTNER]
    if partner < 0 and v.attack and v.seat != v.info[I_TAKER]:
        return v.seat
    return partner
