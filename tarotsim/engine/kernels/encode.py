"""The one float encoder of what a seat knows: ``encode`` writes a seat's observation, read
from its ``SeatView`` and the deal's position, into one row of a batch array.

``interfaces.kernels.vector.step`` calls it for every game that waits on an agent (``VecEnv``'s
``observations="tensor"`` and ``"compact"``), ``encode_view`` for one observation
(``tarotsim.Observation.tensor``, the OpenSpiel tensors). The row is ``N_FEATURES`` values,
all 0 or 1 (so the same table fits float32 and uint8), the fields of ``FIELDS`` in order:
card sets as one plane of 78 per set (card id order), seats relative to the observing seat
(0: itself, 1: the next seat in seat order, …), the rest one-hot. What the seat cannot see
(the other hands, the unseen chien, the écart but its shown trumps) is never read: every
card set comes from the view (``engine.kernels.view.seat_view``, the one reader of the deal for a
seat), the écart being laid corrected by the cards the taker has laid so far.
"""

from __future__ import annotations

import numpy as np

from tarotsim._jit import njit
from tarotsim.engine.cards import KING, N_SUIT_CARDS, SUIT_LEN
from tarotsim.engine.kernels.bits import ONE, ZERO, lowest_bit
from tarotsim.engine.kernels.state import (
    I_CALLED,
    I_CHELEM_ANNOUNCED,
    I_DEALER,
    I_LEADER,
    I_PARTNER,
    I_TRICK_LEN,
    I_VOIDS,
    I_WIN_SEAT,
    MAX_SEATS,
    VOID_SHIFT,
)
from tarotsim.engine.kernels.view import SeatView

N_PLANE = 78
"""A card set's plane: one value per card id."""
N_SUIT_CODES = 5
"""The voids' suits: the four suits (card id order), then trumps."""
N_BID_CODES = 6
"""A speaking turn's one-hot: not spoken yet, then the contract codes (0: pass … 4)."""
N_PHASES = 7
"""The phases (``engine.kernels.state.PH_*``)."""

FIELDS: tuple[tuple[str, int], ...] = (
    ("phase", N_PHASES),  # one-hot, tarotsim.interfaces.game.PHASES order
    ("players", 3),  # one-hot: 3, 4, 5
    ("seat", MAX_SEATS),  # one-hot: the observing seat (absolute)
    ("dealer", MAX_SEATS),  # one-hot, relative seat
    ("hand", N_PLANE),  # the seat's cards (at the écart: with the chien, less the cards laid)
    ("played", N_PLANE),  # every card played to a trick, the trick in play included
    ("trick", N_PLANE),  # the cards of the trick in play
    ("leader", MAX_SEATS),  # one-hot, relative seat: who led the trick in play
    ("winning", MAX_SEATS),  # one-hot, relative seat: whose card wins the trick in play so far
    ("chien", N_PLANE),  # the chien once shown (Prise, Garde)
    ("ecart", N_PLANE),  # the écart as the seat knows it: the taker all of it, the others its trumps
    ("poignees", N_PLANE),  # the cards of every poignée shown
    ("poignee_seats", MAX_SEATS),  # per relative seat: it showed a poignée
    ("voids", MAX_SEATS * N_SUIT_CODES),  # per relative seat, per suit (trumps last): void shown in play
    ("bids", MAX_SEATS * N_BID_CODES),  # per speaking turn (from the dealer's right): N_BID_CODES one-hot
    ("contract", 5),  # one-hot by contract code, 0: none (in the auction, the highest bid so far)
    ("taker", MAX_SEATS),  # one-hot, relative seat (in the auction, the highest bidder so far)
    ("partner", MAX_SEATS),  # one-hot, relative seat: the taker's partner once public
    ("called_suit", 4),  # five players: the suit of the card called
    ("called_rank", 4),  # five players: its rank, King, Queen, Knight, Jack
    ("attack", 1),  # the seat plays for the attack (a secret partner knows it)
    ("chelem", 1),  # a chelem was announced
    ("to_act", 1),  # the seat is to decide now
)
"""The fields of an encoded observation, in order, with their lengths."""

_AT = {}
_start = 0
for _name, _size in FIELDS:
    _AT[_name] = _start
    _start += _size
N_FEATURES = _start
"""Length of an encoded observation."""

A_PHASE = _AT["phase"]
A_PLAYERS = _AT["players"]
A_SEAT = _AT["seat"]
A_DEALER = _AT["dealer"]
A_HAND = _AT["hand"]
A_PLAYED = _AT["played"]
A_TRICK = _AT["trick"]
A_LEADER = _AT["leader"]
A_WINNING = _AT["winning"]
A_CHIEN = _AT["chien"]
A_ECART = _AT["ecart"]
A_POIGNEES = _AT["poignees"]
A_POIGNEE_SEATS = _AT["poignee_seats"]
A_VOIDS = _AT["voids"]
A_BIDS = _AT["bids"]
A_CONTRACT = _AT["contract"]
A_TAKER = _AT["taker"]
A_PARTNER = _AT["partner"]
A_CALLED_SUIT = _AT["called_suit"]
A_CALLED_RANK = _AT["called_rank"]
A_ATTACK = _AT["attack"]
A_CHELEM = _AT["chelem"]
A_TO_ACT = _AT["to_act"]
_VOID_BITS = (1 << VOID_SHIFT) - 1


@njit(inline="always")
def _plane(out: np.ndarray, at: int, word0: np.uint64, word1: np.uint64) -> None:
    """Set ``out[at + card]`` to 1 for each card of the set ``(word0, word1)``."""
    word = word0
    while word:
        out[at + lowest_bit(word)] = 1
        word &= word - ONE
    word = word1
    while word:
        out[at + N_SUIT_CARDS + lowest_bit(word)] = 1
        word &= word - ONE


@njit(inline="always")
def _seat(out: np.ndarray, at: int, seat: int, me: int, players: int) -> None:
    """One-hot at ``out[at …]`` of ``seat`` relative to ``me`` (nothing for a seat < 0)."""
    if seat >= 0:
        rel = seat - me
        out[at + (rel + players if rel < 0 else rel)] = 1


@njit(inline="always")
def encode(
    v: SeatView,
    phase: int,
    players: int,
    spoken: int,
    contract: int,
    taker: int,
    to_act: bool,
    in_play: bool,
    laid0: np.uint64,
    laid1: np.uint64,
    out: np.ndarray,
) -> None:
    """Write the observation of ``v``'s seat into ``out`` (``N_FEATURES`` values, any numeric
    dtype), fields ``FIELDS``.

    ``phase`` (``state.PH_*``), ``spoken`` (the words said so far), ``contract`` and
    ``taker`` (the highest bid and bidder so far, -1 none: the auction's position, or the
    deal's once it is over) are public; ``to_act`` says whether the seat is to decide,
    ``in_play`` whether the tricks have begun (a trick in play is shown, the deal not over);
    ``(laid0, laid1)`` the cards of the écart laid so far when the seat is the taker at the
    écart (empty otherwise): out of the hand, into the écart.
    """
    for i in range(N_FEATURES):
        out[i] = 0
    info = v.info
    me = v.seat
    out[A_PHASE + phase] = 1
    out[A_PLAYERS + players - 3] = 1
    out[A_SEAT + me] = 1
    _seat(out, A_DEALER, info[I_DEALER], me, players)
    _plane(out, A_HAND, v.hand0 & ~laid0, v.hand1 & ~laid1)
    _plane(out, A_PLAYED, v.played[0], v.played[1])
    if in_play:
        length = info[I_TRICK_LEN]
        for j in range(length):
            out[A_TRICK + v.trick[j]] = 1
        if length > 0:
            _seat(out, A_LEADER, info[I_LEADER], me, players)
            _seat(out, A_WINNING, info[I_WIN_SEAT], me, players)
    _plane(out, A_CHIEN, v.chien0, v.chien1)
    _plane(out, A_ECART, v.ecart0 | laid0, v.ecart1 | laid1)
    voids = info[I_VOIDS]
    for s in range(players):
        shown0 = v.shown[s, 0]
        shown1 = v.shown[s, 1]
        rel = s - me
        rel = rel + players if rel < 0 else rel
        if shown0 != ZERO or shown1 != ZERO:
            _plane(out, A_POIGNEES, shown0, shown1)
            out[A_POIGNEE_SEATS + rel] = 1
        for suit in range(N_SUIT_CODES):
            if (voids >> (VOID_SHIFT * suit + s)) & 1:
                out[A_VOIDS + rel * N_SUIT_CODES + suit] = 1
    for turn in range(players):
        out[A_BIDS + turn * N_BID_CODES + (v.bids[turn] + 1 if turn < spoken else 0)] = 1
    out[A_CONTRACT + contract] = 1
    _seat(out, A_TAKER, taker, me, players)
    _seat(out, A_PARTNER, info[I_PARTNER], me, players)
    called = info[I_CALLED]
    if called >= 0:
        out[A_CALLED_SUIT + called // SUIT_LEN] = 1
        out[A_CALLED_RANK + KING - called % SUIT_LEN] = 1
    if v.attack:
        out[A_ATTACK] = 1
    if info[I_CHELEM_ANNOUNCED] == 1:
        out[A_CHELEM] = 1
    if to_act:
        out[A_TO_ACT] = 1


@njit
def encode_view(
    v: SeatView,
    phase: int,
    players: int,
    spoken: int,
    contract: int,
    taker: int,
    to_act: bool,
    in_play: bool,
    laid0: np.uint64,
    laid1: np.uint64,
    out: np.ndarray,
) -> None:
    """``encode`` called from Python: one observation into ``out`` (float32[N_FEATURES])."""
    encode(v, phase, players, spoken, contract, taker, to_act, in_play, laid0, laid1, out)
