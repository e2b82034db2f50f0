"""What a seat knows of the cards it cannot see, as the holders and constraints of
``worlds.prepare_worlds``: the one set of hidden-card constraints, used by ``pimc``, the
``montecarlo`` bidder and OpenSpiel's resampling (``tarotsim.interfaces.openspiel.resampling``).

``seat_constraints`` reads the seat's ``SeatView`` (``engine.kernels.view``), what it may know: its
own hand, the cards played and the tricks (``history``, the trick in play), the voids
revealed by play, the poignées shown, the chien once shown, the écart for the taker (its
trumps for everyone), the called card and the public scalars. The holders are the other
seats from ``seat + 1`` round the table, then the unknown chien (before the auction ends,
Garde sans, Garde contre) or, for a defender at a Prise or a Garde, the hidden part of the
écart. What the seat makes of it depends on its ``knowledge`` (``cfg`` slot ``P_KNOWLEDGE``
of its block, codes ``KNOWLEDGE_*`` of ``engine.kernels.constants``).

``table`` (what the table shows directly):

- each holder's size: the cards of a hand less those the seat played (one less for a seat
  that has played to the trick in play); the chien's size; the écart's size less its
  shown trumps;
- voids revealed by play: not following the suit led shows a void in it, playing neither
  the suit led nor a trump shows no trump (says nothing of the Excuse);
- poignée cards still in hand are known; a poignée showing the Excuse shows every trump
  of that hand, so that hand holds no other trump;
- the écart holds no King, no bout and no hidden trump; the chien's cards shown at a Prise
  or a Garde are with the taker or in the écart;
- five players: the called card, while unseen and not from the chien, is not the taker's
  (the kernels' call policy, ``players.kernels.policies.call``, never calls a card of the taker's hand) nor
  in the écart.

``rules`` (the default) adds every inference the rules (docs/rules.md) allow and drops the
one that only the kernels' call policy allows (the taker may call a card of its own hand):

- overtrumping: a seat that played a trump lower than the highest trump already in the
  trick, which it must beat when it can, holds no trump above that one (``trump_cap``);
- poignées: the game shows the lowest trumps but the Petit (``engine.kernels.steps.poignee_cards``), the
  Petit only when the others fall short and the Excuse only when the trumps fall one short:
  a hand whose poignée shows the Petit or the Excuse has no other trump, any other has none
  below the highest trump shown but those shown and the Petit;
- the écart: trumps may be laid only when no other card can (no King, no bout), so an
  écart with shown trumps leaves the taker no suit card but Kings;
- five players, a card of a lower rank than King called: the taker may call one only when
  it holds all four cards of every rank above, so they were dealt to the taker, never to
  another seat nor to the unseen chien (the écart may hold them but the Kings).

Left out: that no hand was dealt a petit sec (the deal would have been thrown in), which is
not a constraint on each holder apart (the OpenSpiel resampling draws again when a deal has
one; ``pimc`` does not), and the first lead of a five-player deal (a seat leading the
called suit first holds nothing else), which the sampler's sets cannot say per holder
either.

``world_hands`` turns a drawn deal back into every seat's hand and the sides it implies
(with five players the partner is whoever holds the called card in that deal), the input
of ``solver.solve`` and ``solver.card_values``.

Sampling over these is uniform over the consistent deals: it does not weigh deals by how
likely the bids and the cards played were under any policy, nor by the deal having had no
petit sec (``pimc``'s ``infer=heuristic`` resamples its worlds by both: ``players.kernels.search.likelihood``).
"""

from __future__ import annotations

import numpy as np

from tarotsim._jit import njit
from tarotsim.engine.cards import (
    EXCUSE_BIT,
    FIRST_TRUMP,
    FULL_WORD0,
    FULL_WORD1,
    KING,
    KINGS_MASK,
    N_SUITS,
    N_TRUMPS,
    PETIT_BIT,
    SUIT_LEN,
    TRUMP_SUIT,
    TRUMPS_MASK,
)
from tarotsim.engine.kernels.bits import ONE, highest_bit, popcount
from tarotsim.engine.kernels.constants import KNOWLEDGE_RULES
from tarotsim.engine.kernels.rules import card_bit, suit_code
from tarotsim.engine.kernels.state import (
    C_CHIEN,
    C_HAND,
    H_LEADER,
    I_CALLED,
    I_CHIEN_SHOWN,
    I_LEADER,
    I_PARTNER_KNOWN,
    I_PLAYERS,
    I_TAKER,
    I_TRICK,
    I_TRICK_LEN,
    I_VOIDS,
    P_KNOWLEDGE,
    VOID_SHIFT,
    seat_slot,
)
from tarotsim.engine.kernels.view import SeatView, known_partner

_ZERO = np.uint64(0)


@njit(inline="always")
def trump_cap(v: SeatView, seat: int) -> int:
    """The highest trump rank ``seat`` may hold as far as the tricks of ``v`` show it:
    ``N_TRUMPS`` when nothing is known, else the lowest of the highest trumps that were in a
    trick when ``seat`` played a lower trump to it (it had to beat them if it could)."""
    info = v.info
    players = info[I_PLAYERS]
    cap = N_TRUMPS
    for t in range(info[I_TRICK] + 1):
        current = t == info[I_TRICK]
        leader = info[I_LEADER] if current else v.history[t, H_LEADER]
        cards = info[I_TRICK_LEN] if current else players
        place = (seat - leader) % players
        if place >= cards:
            continue
        high = 0
        for j in range(place + 1):
            card = v.trick[j] if current else v.history[t, j]
            if suit_code(card) == TRUMP_SUIT:
                rank = card - FIRST_TRUMP + 1
                if j == place and rank < high:
                    cap = min(cap, high)
                high = max(high, rank)
    return cap


@njit(inline="always")
def _dealt_to_taker(called: int) -> np.uint64:
    """Word 0 of the cards a taker that called ``called`` (-1: none) was dealt by the rules:
    every card of the ranks above the called card's when it is not a King (docs/rules.md §3)."""
    word0 = _ZERO
    if called < 0:
        return word0
    for rank in range(called % SUIT_LEN + 1, KING + 1):
        for suit in range(N_SUITS):
            word0 |= ONE << np.uint64(SUIT_LEN * suit + rank)
    return word0


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
        The view of the seat: at the auction, the call, the écart (the taker's view; a
        defender's is the caller's to adjust, the chien being in the taker's hand), the
        poignées and the chelem, or at a card.
    cfg : int64[N_CFG]
        The run configuration: the hand's and the chien's sizes, and the seat's
        ``knowledge`` (slot ``P_KNOWLEDGE`` of its block; the module docstring).
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
    rules = cfg[seat_slot(seat, P_KNOWLEDGE)] == KNOWLEDGE_RULES
    chien_shown = info[I_CHIEN_SHOWN] == 1
    # the écart as the seat saw it: all of it for the taker, its trumps for the others
    unseen[0] = FULL_WORD0 & ~(v.hand0 | v.played[0] | v.ecart0)
    unseen[1] = FULL_WORD1 & ~(v.hand1 | v.played[1] | v.ecart1)
    shown_ecart1 = v.ecart1 & TRUMPS_MASK
    leader = info[I_LEADER]
    trick_len = info[I_TRICK_LEN]
    chien0 = v.chien0
    chien1 = v.chien1
    called = info[I_CALLED]
    called0 = _ZERO  # table: the called card, not the taker's nor in the écart
    called1 = _ZERO
    dealt0 = _ZERO  # rules: the cards the call shows the taker was dealt
    if rules:
        dealt0 = _dealt_to_taker(called)
    elif called >= 0:
        called0, called1 = card_bit(called)
        if (called0 & chien0) or (called1 & chien1):
            called0 = _ZERO
            called1 = _ZERO
    n = 0
    for step in range(1, players):
        other = (seat + step) % players
        played_now = (other - leader) % players < trick_len
        sizes[n] = cfg[C_HAND] - info[I_TRICK] - (1 if played_now else 0)
        voids[n] = 0
        for suit in range(TRUMP_SUIT + 1):  # the suits, then no trump
            if (info[I_VOIDS] >> (VOID_SHIFT * suit + other)) & 1:
                voids[n] |= 1 << suit
        shown1 = v.shown[other, 1]
        known[n, 0] = v.shown[other, 0] & unseen[0]
        known[n, 1] = shown1 & unseen[1]
        possible[n, 0] = FULL_WORD0
        possible[n, 1] = FULL_WORD1
        every_trump = EXCUSE_BIT | PETIT_BIT if rules else EXCUSE_BIT
        if shown1 & every_trump:  # the poignée showed every trump of the hand
            possible[n, 1] = shown1 | ~TRUMPS_MASK
        elif rules and shown1:  # the lowest trumps but the Petit were shown
            below = (ONE << np.uint64(highest_bit(shown1))) - ONE
            possible[n, 1] &= ~(below & ~shown1 & ~PETIT_BIT)
        if rules:
            cap = trump_cap(v, other)
            if cap < N_TRUMPS:
                possible[n, 1] &= ~(TRUMPS_MASK & ~((ONE << np.uint64(cap)) - ONE))
        if other != taker:
            possible[n, 0] &= ~(chien0 | dealt0)
            possible[n, 1] &= ~chien1
        else:
            possible[n, 0] &= ~called0
            possible[n, 1] &= ~called1
            if rules and chien_shown and shown_ecart1:  # trumps went to the écart: no other card could
                possible[n, 0] &= KINGS_MASK
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
            possible[n, 0] = FULL_WORD0 & ~dealt0
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
