"""How the heuristic judges a card: card-set helpers, and whether a card wins the trick and
keeps it against what the foes still to play may hold (``holds_against``), as far as the
seat knows (its ``knowledge.Reading``)."""

from __future__ import annotations

import numpy as np

from tarotsim._jit import njit
from tarotsim.engine.cards import (
    EXCUSE,
    FULL_WORD0,
    JACKS_MASK,
    KINGS_MASK,
    KNIGHTS_MASK,
    N_SUIT_CARDS,
    PETIT_BIT,
    PIPS_MASK,
    QUEENS_MASK,
    SUIT_LEN,
    TRUMPS_MASK,
)
from tarotsim.engine.kernels.bits import ZERO, highest_bit, lowest_bit, popcount
from tarotsim.engine.kernels.rules import (
    above_in_suit,
    cards_above,
    suit_bits,
    trumps_above,
    void_seats,
    winning_key,
)
from tarotsim.players.kernels.policies.knowledge import Reading, may_trump

NON_PETIT = TRUMPS_MASK & ~PETIT_BIT
"""Word 1 of every trump but the Petit."""


# ---------------------------------------------------------------------------------------------
# card-set helpers
# ---------------------------------------------------------------------------------------------


@njit(inline="always")
def trump_card(bit: int) -> int:
    """Card id of word-1 bit ``bit`` (bit 21: the Excuse)."""
    return N_SUIT_CARDS + bit


@njit(inline="always")
def cheapest_suit_card(word0: np.uint64) -> int:
    """The least valuable suit card of a set (pips, Jacks … Kings; lowest id first), -1 if none."""
    for cls in (PIPS_MASK, JACKS_MASK, KNIGHTS_MASK, QUEENS_MASK, KINGS_MASK):
        x = word0 & cls
        if x:
            return lowest_bit(x)
    return -1


@njit(inline="always")
def dearest_suit_card(word0: np.uint64) -> int:
    """The most valuable suit card of a set (Kings … pips; highest id first), -1 if none."""
    for cls in (KINGS_MASK, QUEENS_MASK, KNIGHTS_MASK, JACKS_MASK, PIPS_MASK):
        x = word0 & cls
        if x:
            return highest_bit(x)
    return -1


@njit(inline="always")
def lowest_card(word0: np.uint64, word1: np.uint64) -> int:
    """Lowest card id of a non-empty set (suit cards first)."""
    if word0:
        return lowest_bit(word0)
    return trump_card(lowest_bit(word1))


# ---------------------------------------------------------------------------------------------
# judging a card
# ---------------------------------------------------------------------------------------------


@njit(inline="always")
def beats(v: Reading, card: int) -> bool:
    """Whether ``card`` would beat the card winning the trick now (``engine.kernels.rules.winning_key``)."""
    if v.win_seat < 0:
        return card != EXCUSE
    return winning_key(card, v.led) > winning_key(v.win_card, v.led)


@njit(inline="always")
def beating_cards(v: Reading) -> tuple[np.uint64, np.uint64]:
    """The card set that would beat the card winning the trick now (every card but the Excuse when none)."""
    if v.win_seat < 0:
        return FULL_WORD0, TRUMPS_MASK
    return cards_above(v.win_card)


@njit(inline="always")
def suit_holds(v: Reading, seats: int, suit: int, higher_out: bool, out1: np.uint64) -> bool:
    """Whether a card of ``suit`` led or winning stays the winner against the foes ``seats``,
    who may hold the trumps of ``out1`` between them.

    A foe void in the suit beats it when it may trump; a foe that may hold the suit beats
    it when a higher card is out (``higher_out``), or may be void and trump it unless
    enough cards of the suit are out for it to follow (``v.follow_min``).
    """
    if seats == 0:
        return True
    trumpers = may_trump(v, seats, out1)
    void = seats & void_seats(v.voids, suit)
    if void & trumpers:
        return False
    others = seats & ~void
    if others:
        if higher_out:
            return False
        if others & trumpers and popcount(v.unseen0 & suit_bits(suit)) < v.follow_min:
            return False
    return True


@njit(inline="always")
def holds_against(v: Reading, card: int) -> bool:
    """Whether ``card``, winning the trick, stays the winner whatever the foes still to play hold.

    Certain for a trump above every unseen trump, or when every foe to play has shown it
    holds no trump; for a suit card, "likely" by ``suit_holds``.
    """
    if v.foes_after == 0:
        return True
    if card >= N_SUIT_CARDS:
        if not (v.threat1 & trumps_above(card - N_SUIT_CARDS + 1)):
            return True
        return may_trump(v, v.foes_after, v.threat1) == 0
    higher_out = (v.threat0 & above_in_suit(card)) != ZERO
    return suit_holds(v, v.foes_after, card // SUIT_LEN, higher_out, v.threat1)


@njit
def sure_winner(v: Reading, legal0: np.uint64, legal1: np.uint64) -> int:
    """The cheapest legal card (the Petit left out) that wins the trick and keeps it; -1 if none."""
    beat0, beat1 = beating_cards(v)
    if legal0:
        beaters = legal0 & beat0
        if beaters:
            card = lowest_bit(beaters)
            if holds_against(v, card):
                return card
            suit = card // SUIT_LEN
            top_out = highest_bit(v.threat0 & suit_bits(suit))
            masters = beaters & above_in_suit(top_out) if top_out >= 0 else beaters
            if masters:
                card = lowest_bit(masters)
                if holds_against(v, card):
                    return card
    trumps = legal1 & NON_PETIT & beat1
    if not trumps:
        return -1
    card = trump_card(lowest_bit(trumps))
    if holds_against(v, card):
        return card
    # otherwise only a trump above every unseen trump holds
    above = trumps & trumps_above(highest_bit(v.threat1 & TRUMPS_MASK) + 1)
    if above:
        return trump_card(lowest_bit(above))
    return -1
