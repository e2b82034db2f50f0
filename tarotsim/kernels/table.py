"""The state of one deal in play: a NamedTuple of small arrays owned by one block.

A block of deals allocates one ``Table`` and reuses it for every deal, so playing a
deal allocates nothing. Card-play policies receive the table and the seat to play;
what a seat may know is spelt out field by field below ("public": every seat knows
it; "own": only that seat). A policy reads nothing else: ``tests/test_no_peeking.py``
checks that decisions do not change when the unseen cards are dealt differently.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from tarotsim._jit import njit

MAX_SEATS = 5
MAX_TRICKS = 24

# info[] slots (all public except where noted)
I_DEALER = 0
I_TAKER = 1  # -1 until bidding ends
I_CONTRACT = 2
I_PARTNER = 3  # 5 players: private until the called card is played; -1 none
I_CALLED = 4  # 5 players: the called card, -1 none
I_LEADER = 5  # seat leading the current trick
I_TRICK = 6  # index of the current trick (0-based)
I_TRICK_LEN = 7  # cards already played to the current trick
I_LED = 8  # suit led in the current trick (-1 none yet, 0-3 suit, 4 trumps)
I_HI_TRUMP = 9  # highest trump rank in the current trick (0 none)
I_CHIEN_SHOWN = 10  # 1 when the chien was turned face up (Prise, Garde)
I_CHELEM_ANNOUNCED = 11
I_PLAYERS = 12
I_PARTNER_KNOWN = 13  # 1 once the called card has been played
I_TRICKS_WON_BY = 14  # bit 0: the attack has won a trick, bit 1: the defence has (kept by the heuristic)
N_INFO = 16

WON_BY_ATTACK = 1
WON_BY_DEFENCE = 2


class Table(NamedTuple):
    """Arrays of one deal in play; card sets are (word 0, word 1) pairs of uint64."""

    rng: np.ndarray  # uint64[4], the deal's random stream
    pack: np.ndarray  # int64[78], scratch for dealing
    hands: np.ndarray  # uint64[5, 2], cards still in each hand (own)
    dealt: np.ndarray  # uint64[5, 2], hands as dealt (own)
    chien: np.ndarray  # uint64[2], the chien as dealt (public when info[I_CHIEN_SHOWN])
    ecart: np.ndarray  # uint64[2], the écart (taker's own; its trumps are public)
    attack: np.ndarray  # int64[5], 1 for the taker (and partner), 0 for defenders
    trick: np.ndarray  # int64[5], cards of the current trick in play order (public)
    played: np.ndarray  # uint64[2], every card played so far, current trick included (public)
    voids: np.ndarray  # int64[5], per seat: bit s set when the seat showed it holds no suit s (4: trumps)
    shown: np.ndarray  # uint64[5, 2], cards each seat showed in a poignée (public)
    info: np.ndarray  # int64[N_INFO], the scalars above
    scores: np.ndarray  # int64[5], each seat's score for the deal
    count: np.ndarray  # int64[N_COUNT], the running count (kernels.count)
    pile: np.ndarray  # uint64[2], cards the attack has won so far (count; not for policies)


@njit
def new_table() -> Table:
    """A fresh table, large enough for any number of players."""
    return Table(
        np.zeros(4, dtype=np.uint64),
        np.zeros(78, dtype=np.int64),
        np.zeros((MAX_SEATS, 2), dtype=np.uint64),
        np.zeros((MAX_SEATS, 2), dtype=np.uint64),
        np.zeros(2, dtype=np.uint64),
        np.zeros(2, dtype=np.uint64),
        np.zeros(MAX_SEATS, dtype=np.int64),
        np.zeros(MAX_SEATS, dtype=np.int64),
        np.zeros(2, dtype=np.uint64),
        np.zeros(MAX_SEATS, dtype=np.int64),
        np.zeros((MAX_SEATS, 2), dtype=np.uint64),
        np.zeros(N_INFO, dtype=np.int64),
        np.zeros(MAX_SEATS, dtype=np.int64),
        np.zeros(8, dtype=np.int64),
        np.zeros(2, dtype=np.uint64),
    )
