"""What the heuristic makes of its seat's ``SeatView`` at a card: the ``Reading`` and ``read_view``.

A decision first reads the seat's ``engine.kernels.view.SeatView`` into a ``Reading`` of scalars
(``read_view``): the cards unseen (neither in its hand, nor played, nor in the écart as it
saw it), its side and its foes, the trick in play (its winner, worth and Petit), the voids
shown, and its options from ``cfg``. The view is all it reads (``tests/test_no_peeking.py``
checks it).

The ``heuristic`` (``informed``) also places the cards it knows to be in another seat's
hand: the cards of a poignée, until played, are in that hand; at Prise
and Garde the chien's cards, until played, are in the taker's hand or écart (everyone saw
them go there), so never with another seat; a poignée that shows the Excuse shows every
trump of its hand, so once those are played that seat holds no trump. From this it keeps
two card sets besides the unseen cards: ``out`` (cards a foe may hold: those known with a
partner left out) and ``threat`` (cards a foe still to play to the trick may hold: those
known with a partner, or with a foe that has played to the trick, left out). ``basic``
(not ``informed``) leaves every unseen card as anyone's: ``out`` and ``threat`` are the
unseen cards and the voids are those shown in play, as the heuristic was before 0.2.0.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from tarotsim._jit import njit
from tarotsim.engine.cards import EXCUSE_BIT, FULL_WORD0, FULL_WORD1, TRUMP_SUIT, TRUMPS_MASK
from tarotsim.engine.kernels.bits import ZERO, popcount
from tarotsim.engine.kernels.rules import void_seats
from tarotsim.engine.kernels.state import (
    FIVE_PLAYERS,
    I_CHELEM_ANNOUNCED,
    I_CHIEN_SHOWN,
    I_HI_TRUMP,
    I_LEADER,
    I_LED,
    I_PARTNER,
    I_PARTNER_KNOWN,
    I_PETIT_SEAT,
    I_PLAYERS,
    I_TAKER,
    I_TRICK_HALF,
    I_TRICKS_WON_BY,
    I_VOIDS,
    I_WIN_CARD,
    I_WIN_SEAT,
    P_DRAW_TRUMPS_MIN,
    P_FOLLOW_MIN_ATTACK,
    P_FOLLOW_MIN_DEFENCE,
    P_HUNT_PETIT_MIN,
    P_KING_LEAD_MIN,
    P_KING_LEAD_MIN_BLIND,
    P_WORTH_TRUMP_ATTACK,
    P_WORTH_TRUMP_DEFENCE,
    VOID_SHIFT,
    WON_BY_DEFENCE,
    seat_slot,
)
from tarotsim.engine.kernels.view import SeatView


class Reading(NamedTuple):
    """What the seat to play makes of its view, as scalars (card sets are uint64 words; seat sets are
    bit masks of seats).

    ``legal1`` never holds the Excuse (``excuse_step`` decides on it first). ``voids`` is
    ``info[I_VOIDS]``: bit ``VOID_SHIFT * suit + seat`` once ``seat`` has shown it holds no
    card of ``suit`` (suit 4: no trump).
    """

    taker: int
    attack: bool  # the seat plays for the attack
    legal0: np.uint64
    legal1: np.uint64
    unseen0: np.uint64  # cards neither in the hand nor played (nor in the taker's own écart)
    unseen1: np.uint64
    out0: np.uint64  # unseen cards a foe may hold: not known with a partner (``basic``: unseen)
    out1: np.uint64
    threat0: np.uint64  # unseen cards a foe still to play to the trick may hold (``basic``: unseen)
    threat1: np.uint64
    led: int  # suit led (-1 none, 0-3, 4 trumps)
    hi: int  # highest trump rank in the trick (0 none)
    win_seat: int  # seat winning the trick so far, -1 when none (empty, or the Excuse alone)
    win_card: int
    ally_wins: bool
    trick_half: int  # half points in the trick, the Excuse left out
    foes: int  # bit per other seat not known to be a partner
    foes_after: int  # the foes still to play to this trick
    voids: int
    foe_trumps: bool  # some foe may still hold a trump
    petit_foe_in_trick: bool  # a foe played the Petit to this trick
    chelem: bool  # the seat's side plays an announced chelem and has won every trick so far
    cards_left: int
    # the seat's options for its side (kernels.state.P_*; defaults: heuristic.FOLLOW_MIN_* and so on)
    follow_min: int
    worth_trump: int
    draw_trumps_min: int
    hunt_petit_min: int
    king_lead_min: int  # at this deal's contract
    informed: bool  # the heuristic (True) or ``basic`` (False): see the module docstring


# ---------------------------------------------------------------------------------------------
# seats
# ---------------------------------------------------------------------------------------------


@njit(inline="always")
def is_void(v: Reading, seat: int, suit: int) -> bool:
    """Whether ``seat`` has shown by its play that it holds no card of ``suit`` (4: no trump)."""
    return (void_seats(v.voids, suit) >> seat) & 1 == 1


@njit(inline="always")
def may_trump(v: Reading, seats: int, out1: np.uint64) -> int:
    """The seats of the mask ``seats`` that may still hold a trump, as far as the seat knows;
    ``out1``: the trumps they may hold between them (``v.out1`` or ``v.threat1``)."""
    if not (out1 & TRUMPS_MASK):
        return 0
    return seats & ~void_seats(v.voids, TRUMP_SUIT)


@njit(inline="always")
def n_seats(seats: int) -> int:
    """Number of seats in a seat bitmask."""
    return popcount(np.uint64(seats))


@njit(inline="always")
def foes_of(v: SeatView) -> int:
    """The seats that the seat of ``v`` does not know to play on its side.

    With five players the partner is secret until the called card is played: only the
    partner knows its side (the taker's); every other seat takes all others for foes.
    Otherwise the sides are public: the taker, and the partner once it is known.
    """
    info = v.info
    seat = v.seat
    players = info[I_PLAYERS]
    taker = info[I_TAKER]
    others = ((1 << players) - 1) & ~(1 << seat)
    if players == FIVE_PLAYERS and not info[I_PARTNER_KNOWN]:
        if v.attack and seat != taker:
            return others & ~(1 << taker)
        return others
    attack_seats = 1 << taker
    if info[I_PARTNER] >= 0:
        attack_seats |= 1 << info[I_PARTNER]
    return others & ~attack_seats if v.attack else attack_seats


@njit(inline="always")
def seats_after(players: int, leader: int, seat: int) -> int:
    """The seats still to play to the trick led by ``leader`` after ``seat``."""
    later = ((1 << players) - 1) & ~((2 << seat) - 1)
    before_leader = (1 << leader) - 1
    return later | before_leader if seat >= leader else later & before_leader


# ---------------------------------------------------------------------------------------------
# what the seat knows
# ---------------------------------------------------------------------------------------------


@njit(inline="always")
def read_view(v: SeatView, legal0: np.uint64, legal1: np.uint64, cfg: np.ndarray, informed: bool) -> Reading:
    """What the seat of ``v`` makes of its view (see the module docstring), and its options.

    ``informed`` False (``basic``): the cards another seat is known to hold are left
    among the unseen cards, as anyone's (``out*`` and ``threat*`` are ``unseen*``).
    """
    info = v.info
    seat = v.seat
    taker = info[I_TAKER]
    attack = v.attack
    hand0 = v.hand0
    hand1 = v.hand1
    # the écart as the seat saw it: all of it for the taker, its trumps (shown) for the others
    unseen0 = FULL_WORD0 & ~(hand0 | v.played[0] | v.ecart0)
    unseen1 = FULL_WORD1 & ~(hand1 | v.played[1] | v.ecart1)
    voids = info[I_VOIDS]
    foes = foes_of(v)
    foes_after = foes & seats_after(info[I_PLAYERS], info[I_LEADER], seat)
    out0 = unseen0
    out1 = unseen1
    threat0 = unseen0
    threat1 = unseen1
    if informed:  # place the cards shown at the table (module docstring)
        chien0 = ZERO
        chien1 = ZERO
        if info[I_CHIEN_SHOWN] and seat != taker:  # in the taker's hand or écart until played
            chien0 = v.chien0 & unseen0
            chien1 = v.chien1 & unseen1
            if not (foes >> taker) & 1:
                out0 &= ~chien0
                out1 &= ~chien1
            if not (foes_after >> taker) & 1:
                threat0 &= ~chien0
                threat1 &= ~chien1
        shown = v.shown[0, 1] | v.shown[1, 1] | v.shown[2, 1] | v.shown[3, 1] | v.shown[4, 1]
        if shown & (unseen1 | EXCUSE_BIT):  # a poignée still to place (word 0 of a poignée is empty)
            for other in range(info[I_PLAYERS]):
                poignee = v.shown[other, 1]
                if other == seat or not poignee:
                    continue
                held = poignee & unseen1  # in its hand until played
                if not (foes >> other) & 1:
                    out1 &= ~held
                if not (foes_after >> other) & 1:
                    threat1 &= ~held
                if other == taker:
                    held |= chien1
                if poignee & EXCUSE_BIT and not held & TRUMPS_MASK:
                    voids |= 1 << (VOID_SHIFT * TRUMP_SUIT + other)  # it showed every trump it had
    foe_trumps = (out1 & TRUMPS_MASK) != ZERO and (foes & ~void_seats(voids, TRUMP_SUIT)) != 0
    win_seat = info[I_WIN_SEAT]
    petit_seat = info[I_PETIT_SEAT]
    chelem = False
    if info[I_CHELEM_ANNOUNCED] and attack:
        chelem = (info[I_TRICKS_WON_BY] & WON_BY_DEFENCE) == 0
    return Reading(
        taker,
        attack,
        legal0,
        legal1,
        unseen0,
        unseen1,
        out0,
        out1,
        threat0,
        threat1,
        info[I_LED],
        info[I_HI_TRUMP],
        win_seat,
        info[I_WIN_CARD],
        win_seat >= 0 and not (foes >> win_seat) & 1,
        info[I_TRICK_HALF],
        foes,
        foes_after,
        voids,
        foe_trumps,
        petit_seat >= 0 and (foes >> petit_seat) & 1 == 1,
        chelem,
        popcount(hand0) + popcount(hand1),
        cfg[seat_slot(seat, P_FOLLOW_MIN_ATTACK if attack else P_FOLLOW_MIN_DEFENCE)],
        cfg[seat_slot(seat, P_WORTH_TRUMP_ATTACK if attack else P_WORTH_TRUMP_DEFENCE)],
        cfg[seat_slot(seat, P_DRAW_TRUMPS_MIN)],
        cfg[seat_slot(seat, P_HUNT_PETIT_MIN)],
        cfg[seat_slot(seat, P_KING_LEAD_MIN if info[I_CHIEN_SHOWN] else P_KING_LEAD_MIN_BLIND)],
        informed,
    )
