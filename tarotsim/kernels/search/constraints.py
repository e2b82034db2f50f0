"""What a seat knows of the cards it cannot see, as the holders and constraints of
``worlds.prepare_worlds``.

``seat_constraints`` reads the seat's ``SeatView`` (``kernels.view``), what it may know: its
own hand, the cards played, the trick in progress, the voids revealed by play, the poignées
shown, the chien once shown, the écart for the taker (its trumps for everyone), and the
public scalars. The holders are the other seats from ``seat + 1`` round the table, then the
unknown chien (Garde sans, Garde contre) or, for a defender at a Prise or a Garde, the
hidden part of the écart. The constraints:

- each holder's size: the seat's own count, one less for a seat that has played to the
  trick in progress; the chien's size; the écart's size less its shown trumps;
- voids revealed by play (not trumping shows no trump, but says nothing of the Excuse);
- poignée cards still in hand are known; a poignée showing the Excuse shows every trump
  of that hand, so that hand holds no other trump;
- the écart holds no King, no bout and no hidden trump; the chien's cards shown at a Prise
  or a Garde are with the taker or in the écart;
- five players: the called card, while unseen and not from the chien, is not the taker's
  (``policies.call.called_card`` never calls a card of the taker's hand) nor in the écart.

``world_hands`` turns a drawn deal back into every seat's hand and the sides it implies
(with five players the partner is whoever holds the called card in that deal), the input
of ``solver.solve`` and ``solver.card_values``.

Sampling over these is uniform over the consistent deals: it does not weigh deals by how
likely the bids and the cards played were under any policy, nor by the deal having had no
petit sec.
"""

from __future__ import annotations

import numpy as np

from tarotsim._jit import njit
from tarotsim.cards import EXCUSE_BIT, FULL_WORD0, FULL_WORD1, KINGS_MASK, TRUMP_SUIT, TRUMPS_MASK
from tarotsim.kernels.bits import popcount
from tarotsim.kernels.rules import card_bit
from tarotsim.kernels.state import (
    C_CHIEN,
    I_CALLED,
    I_CHIEN_SHOWN,
    I_LEADER,
    I_PARTNER_KNOWN,
    I_PLAYERS,
    I_TAKER,
    I_TRICK_LEN,
    I_VOIDS,
    VOID_SHIFT,
)
from tarotsim.kernels.view import SeatView, known_partner

_ZERO = np.uint64(0)


@njit
def seat_constraints(
    v: SeatView,
    cfg: np.ndarray,
    unseen: np.ndarray,
    sizes: np.ndarray,
    voids: np.ndarray,
    known: np.ndarray,
    possible: np.ndarray,
    holder_seat: np.ndarray,
) -> int:
    """Fill the holders of the cards the seat of ``v`` cannot see and what it knows of them.

    Parameters
    ----------
    v : SeatView
        The view of the seat to play.
    cfg : int64[N_CFG]
        The run configuration (the chien's size).
    unseen : uint64[2]
        Receives the cards ``seat`` cannot see.
    sizes, voids : int64[MAX_HOLDERS]
        Receive each holder's number of cards and void mask.
    known, possible : uint64[MAX_HOLDERS, 2]
        Receive the cards known in each holder and the cards each holder may hold.
    holder_seat : int64[MAX_HOLDERS]
        Receives each holder's seat, -1 for the chien or the écart.

    Returns
    -------
    int
        The number of holders, for ``worlds.holder_allowed`` and ``worlds.prepare_worlds``.
    """
    info = v.info
    seat = v.seat
    players = info[I_PLAYERS]
    taker = info[I_TAKER]
    chien_shown = info[I_CHIEN_SHOWN] == 1
    own0 = v.hand0
    own1 = v.hand1
    # the écart as the seat saw it: all of it for the taker, its trumps for the others
    unseen[0] = FULL_WORD0 & ~(own0 | v.played[0] | v.ecart0)
    unseen[1] = FULL_WORD1 & ~(own1 | v.played[1] | v.ecart1)
    shown_ecart1 = v.ecart1 & TRUMPS_MASK

    own_count = popcount(own0) + popcount(own1)
    leader = info[I_LEADER]
    trick_len = info[I_TRICK_LEN]
    chien0 = v.chien0
    chien1 = v.chien1
    called = info[I_CALLED]
    called0 = _ZERO
    called1 = _ZERO
    if called >= 0:
        called0, called1 = card_bit(called)
        if (called0 & chien0) or (called1 & chien1):
            called0 = _ZERO
            called1 = _ZERO
    n = 0
    for step in range(1, players):
        other = (seat + step) % players
        played_now = (other - leader) % players < trick_len
        sizes[n] = own_count - 1 if played_now else own_count
        voids[n] = 0
        for suit in range(TRUMP_SUIT + 1):  # the suits, then no trump
            if (info[I_VOIDS] >> (VOID_SHIFT * suit + other)) & 1:
                voids[n] |= 1 << suit
        known[n, 0] = v.shown[other, 0] & unseen[0]
        known[n, 1] = v.shown[other, 1] & unseen[1]
        possible[n, 0] = FULL_WORD0
        possible[n, 1] = FULL_WORD1
        if v.shown[other, 1] & EXCUSE_BIT:
            possible[n, 1] = v.shown[other, 1] | ~TRUMPS_MASK
        if other != taker:
            possible[n, 0] &= ~chien0
            possible[n, 1] &= ~chien1
        else:
            possible[n, 0] &= ~called0
            possible[n, 1] &= ~called1
        holder_seat[n] = other
        n += 1
    if not chien_shown or seat != taker:
        voids[n] = 0
        known[n, 0] = _ZERO
        known[n, 1] = _ZERO
        holder_seat[n] = -1
        if chien_shown:
            sizes[n] = cfg[C_CHIEN] - popcount(shown_ecart1)
            possible[n, 0] = FULL_WORD0 & ~KINGS_MASK & ~called0
            possible[n, 1] = _ZERO
        else:
            sizes[n] = cfg[C_CHIEN]
            possible[n, 0] = FULL_WORD0
            possible[n, 1] = FULL_WORD1
        n += 1
    return n


@njit
def world_hands(
    v: SeatView,
    world: np.ndarray,
    holder_seat: np.ndarray,
    n_holders: int,
    hands: np.ndarray,
    attack: np.ndarray,
) -> None:
    """Every seat's hand and side in a deal drawn for the seat of ``v``.

    Parameters
    ----------
    v : SeatView
        The view of the seat the deal was drawn for: its own hand is kept.
    world : uint64[n_holders, 2]
        The drawn deal (``worlds.draw_world``) of the holders of ``seat_constraints``.
    holder_seat : int64[n_holders]
        Each holder's seat, -1 for the chien or the écart (``seat_constraints``).
    hands : uint64[players, 2]
        Receives the hands.
    attack : int64[players]
        Receives the sides: those the seat knows (the taker, and the partner once the
        called card is played or when it is the partner itself); with five players and
        the partner still secret to the seat (the taker and the defenders until the called
        card is played), the taker and whoever holds the called card in this deal (or the
        taker alone).
    """
    info = v.info
    seat = v.seat
    players = info[I_PLAYERS]
    hands[seat, 0] = v.hand0
    hands[seat, 1] = v.hand1
    for h in range(n_holders):
        if holder_seat[h] >= 0:
            hands[holder_seat[h], 0] = world[h, 0]
            hands[holder_seat[h], 1] = world[h, 1]
    called = info[I_CALLED]
    taker = info[I_TAKER]
    partner = known_partner(v)
    secret = called >= 0 and info[I_PARTNER_KNOWN] == 0 and partner != seat
    for other in range(players):
        if other == seat:
            attack[other] = 1 if v.attack else 0
        elif secret:
            attack[other] = 0
        else:
            attack[other] = 1 if other == taker or other == partner else 0
    if secret:
        attack[taker] = 1
        bit0, bit1 = card_bit(called)
        for other in range(players):
            if (hands[other, 0] & bit0) or (hands[other, 1] & bit1):
                attack[other] = 1
