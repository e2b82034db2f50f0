"""The state of one deal in play, and every slot layout of the kernels' flat arrays.

The flat int arrays and their slots, all defined here and nowhere else:

- ``cfg`` (int64[N_CFG], slots ``C_*``): a run's table, then each seat's policies and
  their options (slots ``P_*`` of the seat's block, ``seat_slot``), filled by
  ``tarotsim.players.config``;
- ``info`` (int64[N_INFO], slots ``I_*``): the scalars of the deal in play;
- ``count`` (int64[N_COUNT], slots ``S_*``): the running count of ``engine.kernels.count``;
- ``rec`` (int64[N_REC], columns ``R_*``): one record row per deal, named for users by
  ``tarotsim.engine.records``;
- ``log`` (int64[N_LOG], slots ``L_*``): the decisions of a deal, from which traces are written;
- ``masks`` (uint64[N_MASKS], columns ``M_*``): the card sets a trace shows.
- ``DealState.pos`` (int64[N_POS], slots ``Q_*``): where the deal stands in the deal machine
  (``players.kernels.machine``), its phase ``PH_*`` and the seat to decide.

A deal in play is one ``DealState`` and its ``cfg`` (and, for a run, its ``rec`` and ``log``):
the cards, the table, the machine's position and the legal choices of the decision waiting.

A block of deals allocates one ``DealState`` (``new_state``) and reuses it for every
deal, so playing a deal allocates nothing; the search players' scratch is apart
(``players.kernels.search.searching``), so that the deal state every step is passed stays small. Policies
never read this state: each decision receives the deciding seat's ``engine.kernels.view.SeatView``
(``seat_view``), which shares the public arrays below and copies the seat's own cards;
what each field is ("public": every seat knows it; "own": only that seat) is spelt out
there and below. ``tests/test_no_peeking.py`` checks that decisions do not change when
the unseen cards are dealt differently.

What the play has shown so far is kept up to date card by card by the game's one step
(``engine.kernels.steps.put_card``, ``end_trick``), so that a policy reads it instead of working
it out again at every decision; all of it is public, built from the cards on the table:

- ``played`` (every card played) and the trick in play: ``trick``, ``I_LEADER``,
  ``I_TRICK``, ``I_TRICK_LEN``, ``I_LED``, ``I_HI_TRUMP``;
- who wins the trick so far and with what: ``I_WIN_SEAT``, ``I_WIN_CARD`` (the card's
  ``rules.winning_key``, which is its id); what the trick is worth: ``I_TRICK_HALF``;
  who played the Petit to it: ``I_PETIT_SEAT``;
- the tricks completed, ``history`` (each trick's cards, leader and winner by the
  ordinary rule), from which a search player counts a deal again under the sides of a
  world it draws;
- the voids shown in play, ``I_VOIDS``: bit ``VOID_SHIFT * suit + seat`` is set once
  ``seat`` has shown it holds no card of ``suit`` (0-3; 4: no trump), so that a suit's
  void seats are one byte (``rules.void_seats``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from tarotsim._jit import njit
from tarotsim.engine.cards import N_CARDS, N_SUITS
from tarotsim.engine.kernels.constants import (  # noqa: F401 (the kernels import them from here too)
    DEALING_SHUFFLED,
    DEALING_UNSHUFFLED,
    THROWN_ALL_PASS,
    THROWN_NONE,
    THROWN_PETIT_SEC,
)
from tarotsim.engine.kernels.features import N_FEATURES
from tarotsim.engine.kernels.rng import STREAM_WORDS

MAX_SEATS = 5
MAX_TRICKS = 24
FIVE_PLAYERS = 5
"""The table size at which the taker calls a card for a secret partner (docs/rules.md §3)."""

# cfg[] slots: a run's table (int64[N_CFG]), then one block of N_SEAT_CFG slots per seat
# holding that seat's strategy (``seat_slot``); tarotsim.players.config and tarotsim.players.strategy fill it
C_PLAYERS = 0  # 3, 4 or 5
C_HAND = 1  # cards per hand (24, 18, 15)
C_CHIEN = 2  # cards in the chien (6, 6, 3)
C_FORCED_TAKER = 3  # sweeps: the seat that takes, -1 for normal bidding
C_FORCED_CONTRACT = 4  # sweeps: the contract it takes (1-4), 0 for normal bidding
C_DEALING = 5  # DEALING_SHUFFLED or DEALING_UNSHUFFLED
C_SEATS = 6  # seat s's block starts at C_SEATS + s * N_SEAT_CFG

# P_* slots of a seat's block: its policies and their options (tarotsim.players.strategy names them)
P_PLAY_ATTACK = 0  # card-play policy while the seat plays for the attack
P_PLAY_DEFENCE = 1  # card-play policy while it defends
P_BID_POLICY = 2
P_BID_PRISE = 3  # bidding thresholds on Chavey's count
P_BID_GARDE = 4
P_BID_GARDE_SANS = 5
P_BID_GARDE_CONTRE = 6
P_ECART_POLICY = 7
P_POIGNEE_POLICY = 8
P_CHELEM_POLICY = 9
P_CHELEM_THRESHOLD = 10  # Chavey count (with distribution) from which a chelem is announced
P_FOLLOW_MIN_ATTACK = 11  # heuristic: suit cards out from which the attack counts on foes following
P_FOLLOW_MIN_DEFENCE = 12  # heuristic: the same for the defence
P_WORTH_TRUMP_ATTACK = 13  # heuristic: half points of a trick worth a sure-winning trump, attack
P_WORTH_TRUMP_DEFENCE = 14  # heuristic: the same for the defence
P_DRAW_TRUMPS_MIN = 15  # heuristic: trumps besides the Petit from which the attack draws trumps
P_HUNT_PETIT_MIN = 16  # heuristic: trumps besides the Petit from which the defence hunts the Petit
P_KING_LEAD_MIN = 24  # heuristic: suit cards out from which the defence leads its King, Prise/Garde
P_KING_LEAD_MIN_BLIND = 25  # heuristic: the same at Garde sans/contre (the taker made no écart)
P_WORLDS = 17  # pimc: worlds sampled per decision
P_ENDGAME = 18  # pimc: tricks left from which the exact solver replaces the playouts (0 never)
P_ROLLOUT = 19  # pimc: card-play policy of the playouts (PLAY_HEURISTIC or PLAY_RANDOM)
P_BID_WORLDS = 20  # montecarlo bidder: worlds sampled per decision
P_BID_ROLLOUT = 21  # montecarlo bidder: card-play policy of its playouts (a PLAY_* code)
P_DROP = 22  # pimc: tenths of a standard error behind the best at which a card is dropped (0 never)
P_KNOWLEDGE = 26  # pimc: what it makes of its view (constants.KNOWLEDGE_*: search.constraints)
P_INFER = 23  # pimc: how it weighs its worlds (constants.INFER_*: search.likelihood)
P_CALL_POLICY = 27  # the king call's policy (five players)
P_CALL_WORLDS = 28  # searched call (call=search): worlds sampled per decision
P_ECART_WORLDS = 29  # searched écart (ecart=search): worlds sampled per decision
P_POIGNEE_WORLDS = 30  # searched poignée (poignee=search): worlds sampled per decision
P_CHELEM_WORLDS = 31  # searched chelem (chelem=search): worlds sampled per decision
P_BID_ROLLOUT_WORLDS = 32  # montecarlo bidder with pimc playouts: the worlds of each pimc decision in them
# the ``learned`` bidder's model (policies.bidding.learned_wish), from slot P_LEARNED_0: one row of
# LEARNED_ROW slots per contract (Prise … Garde contre): the intercept, then one coefficient per
# hand feature (kernels.features.F_*); predicted taker score in points times LEARNED_SCALE
P_LEARNED_0 = 33
LEARNED_ROW = N_FEATURES + 1
N_LEARNED_CONTRACTS = 4
LEARNED_SCALE = 1000  # fixed point: a coefficient of 1.5 points is stored as 1500
N_SEAT_CFG = P_LEARNED_0 + N_LEARNED_CONTRACTS * LEARNED_ROW
C_FIXED_ON = C_SEATS + MAX_SEATS * N_SEAT_CFG  # 1 when cards are given to seats or the chien
C_FIXED = C_FIXED_ON + 1  # the given cards (kernels.dealing): two card words per seat, then the chien's
C_DEALER = C_FIXED + 2 * (MAX_SEATS + 1)  # 1 + the seat dealing every deal; 0: deal i dealt by i % players
N_WHERE = 9  # hand features a deal's ranges read (kernels.dealing.W_*)
C_WHERE_ON = C_DEALER + 1  # 1 when every deal is dealt again until each seat's hand meets its ranges
C_WHERE = C_WHERE_ON + 1  # the ranges (kernels.dealing.where_slot): per seat, N_WHERE lows, highs, asked
# the drawing of one seat's hand from the law of its counts (kernels.dealing.draw_counted, filled by
# tarotsim.engine.dealing.put_where): the count vectors the seat's ranges allow, their cumulative
# probabilities, and the ways of the suit cards
C_DRAW_SEAT = C_WHERE + 3 * MAX_SEATS * N_WHERE  # 1 + the seat drawn from its counts; 0: none
C_DRAW_N = C_DRAW_SEAT + 1  # count vectors allowed
C_DRAW_SUIT = C_DRAW_N + 1  # per suit: the fewest, then the most cards drawn from it (2 slots a suit)
MAX_HAND = 24  # cards in the largest hand (3 players)
N_SUIT_KINGS = N_SUITS + 1  # 0-4 Kings
C_DRAW_WAYS = (
    C_DRAW_SUIT + 2 * N_SUITS
)  # ways[s, m, k]: ways to draw m cards, k of them Kings, from suits s..3
N_DRAW_WAYS = (N_SUITS + 1) * (MAX_HAND + 1) * N_SUIT_KINGS
V_BOUT_TRUMPS = 0  # a count vector's slots: the Petit and the 21 drawn,
V_TRUMPS = 1  # other trumps,
V_EXCUSE = 2  # the Excuse,
V_KINGS = 3  # Kings,
V_SUITS = 4  # suit cards (Kings included),
V_CUMULATIVE = 5  # its probability plus those of the vectors before it, times DRAW_ONE
N_V = 6
MAX_VECTORS = (
    3 * 20 * 2 * N_SUIT_KINGS
)  # 0-2 of the Petit and the 21, 0-19 other trumps, 0-1 Excuse, 0-4 Kings
DRAW_ONE = 1 << 62  # probability 1 in the vectors' fixed point
C_DRAW_VECTORS = C_DRAW_WAYS + N_DRAW_WAYS
N_CFG = C_DRAW_VECTORS + N_V * MAX_VECTORS


@njit(inline="always")
def seat_slot(seat: int, slot: int) -> int:
    """Index in ``cfg`` of slot ``P_*`` ``slot`` of ``seat``'s block."""
    return C_SEATS + seat * N_SEAT_CFG + slot


SEQUENCE_DEALS = 1024
"""Unshuffled dealing: the pack is shuffled afresh at every multiple of this many deals (a new table)."""

# info[] slots: all public (the SeatView shares the array)
I_DEALER = 0
I_TAKER = 1  # -1 until bidding ends
I_CONTRACT = 2
I_PARTNER = 3  # 5 players: the partner, -1 until the called card is played (steps.put_card) or none
I_CALLED = 4  # 5 players: the called card, -1 none
# the trick in play, kept by the game's steps (kernels.steps: put_card, end_trick)
I_LEADER = 5  # seat leading the current trick
I_TRICK = 6  # index of the current trick (0-based)
I_TRICK_LEN = 7  # cards already played to the current trick
I_LED = 8  # suit led in the current trick (-1 none yet, 0-3 suit, 4 trumps)
I_HI_TRUMP = 9  # highest trump rank in the current trick (0 none)
I_CHIEN_SHOWN = 10  # 1 when the chien was turned face up (Prise, Garde)
I_CHELEM_ANNOUNCED = 11
I_PLAYERS = 12
I_PARTNER_KNOWN = 13  # 1 once the called card has been played
I_TRICKS_WON_BY = 14  # bit 0: the attack has won a trick, bit 1: the defence has, by the sides known
# when the trick ended (steps.end_trick: before the called card is played the taker alone is the attack)
# what the play has shown (module docstring), kept by the game's steps
I_VOIDS = 15  # voids shown: bit VOID_SHIFT * suit + seat
I_WIN_SEAT = 16  # seat winning the trick so far, -1 none (no card yet, or the Excuse alone)
I_WIN_CARD = 17  # card winning the trick so far, -1 none
I_TRICK_HALF = 18  # half points of the cards in the trick, the Excuse left out
I_PETIT_SEAT = 19  # seat that played the Petit to the trick, -1 none
N_INFO = 20

VOID_SHIFT = 8
"""``info[I_VOIDS]``: one byte of seat bits per suit."""

WON_BY_ATTACK = 1
WON_BY_DEFENCE = 2


# count[] slots: the running count of kernels.count (int64[N_COUNT])
S_ATTACK_TRICKS = 0  # tricks won by the attack so far
S_EXCHANGE = 1  # half points the Excuse exchanges gave the attack (+) or took from it (-)
S_PETIT_SIDE = 2  # side scoring the petit au bout, SIDE_NONE until the last trick
S_PREV_PETIT = 3  # 1 when the previous trick held the Petit
S_PREV_WINNER = 4  # winner of the previous trick
N_COUNT = 5

# rec[] columns: one record row per deal (int64[N_REC]); tarotsim.engine.records names them for users
R_DEALER = 0
R_THROWN_IN = 1
R_TAKER = 2
R_CONTRACT = 3
R_TAKER_TRUMPS = 4
R_TAKER_BOUTS = 5
R_TAKER_KINGS = 6
R_HAND_POINTS = 7
R_ATTACK_HALF = 8
R_ATTACK_BOUTS = 9
R_MADE = 10
R_MARGIN = 11
R_PETIT_AU_BOUT = 12
R_CHELEM = 13
R_CHELEM_ANNOUNCED = 14
R_POIGNEE_POINTS = 15
R_N_POIGNEES = 16
R_ATTACK_TRICKS = 17
R_PARTNER = 18
R_CALLED_CARD = 19
R_PER_DEFENDER = 20
R_SCORE = 21  # R_SCORE + seat, for seats 0 … players-1
R_HAND_POINTS_DIST = R_SCORE + MAX_SEATS  # Chavey's count plus the distribution bonus
R_BOUTS_HELD = R_HAND_POINTS_DIST + 1  # bouts held as bits: BOUT_HELD_PETIT | BOUT_HELD_21 | BOUT_HELD_EXCUSE
R_TAKER_TRUMPS_EX = R_BOUTS_HELD + 1  # trumps 1-21 plus the Excuse
R_OTHERS_BID = R_TAKER_TRUMPS_EX + 1  # highest contract code (0 = pass) the other seats wish to bid
R_SPEAKER_POSITION = R_OTHERS_BID + 1  # the taking seat's turn in the auction, 0 = speaks first
N_REC = R_SPEAKER_POSITION + 1

BOUT_HELD_PETIT = 1
BOUT_HELD_21 = 2
BOUT_HELD_EXCUSE = 4
"""Bits of ``rec[R_BOUTS_HELD]``; the value 0-7 is the code of ``records.BOUTS_HELD``'s labels."""

# columns of ``DealState.history``: one row per trick completed (public)
H_LEADER = MAX_SEATS  # columns 0 … players-1: the trick's cards in play order; then its leader
H_WINNER = MAX_SEATS + 1  # the seat whose card won it by the ordinary rule (``close_trick``'s ``winner``)
N_HISTORY = MAX_SEATS + 2

# log slots (int64)
L_BIDS = 0  # one per seat, in speaking order from (dealer + 1) % n: contract code, 0 = pass
L_POIGNEE = L_BIDS + MAX_SEATS  # per seat: poignée size shown (0 none)
L_LEADERS = L_POIGNEE + MAX_SEATS  # per trick
L_WINNERS = L_LEADERS + MAX_TRICKS  # per trick
L_PLAYS = L_WINNERS + MAX_TRICKS  # per trick, MAX_SEATS cards in play order
N_LOG = L_PLAYS + MAX_TRICKS * MAX_SEATS

# the deal machine (kernels.machine): the phase of the deal in play, ``DealState.pos[Q_PHASE]``;
# a decision's phase while it waits (PH_BID … PH_PLAY), PH_OVER once the deal is over; PH_WISH and
# PH_TRICK are the machine's own (a sweep's forced wishes, the trick loop going on) and never wait
PH_BID = 0
PH_CALL = 1
PH_ECART = 2
PH_POIGNEE = 3
PH_CHELEM = 4
PH_PLAY = 5
PH_OVER = 6
PH_WISH = 7  # a sweep's forced contract: each seat's wish, for the record, asked of its policy
PH_TRICK = 8  # the tricks go on: no decision waits

# ``DealState.pos`` slots (int64[N_POS]): where the deal stands in the machine
Q_PHASE = 0
Q_SEAT = 1  # the seat to decide, -1 when over
Q_SPOKEN = 2  # seats that have spoken in the auction
Q_TAKER = 3  # the highest bidder so far, -1 none
Q_CONTRACT = 4  # the highest bid so far (PASS: none)
Q_ECART_LEFT = 5  # cards of the écart still to lay
Q_WISH_0 = 6  # what each seat bid or would have bid (its wish), by seat, for the record
Q_POIGNEE_ASKED = Q_WISH_0 + MAX_SEATS  # bit ``seat``: its poignée was decided by its caller or a search
N_POS = Q_POIGNEE_ASKED + 1

# columns of the card-set log of a trace (uint64 words; ``runs.kernels.batch.run_deals`` with ``masks``)
M_DEALT = 0  # 2 words per seat
M_CHIEN = 2 * MAX_SEATS
M_ECART = M_CHIEN + 2
M_SHOWN = M_ECART + 2  # 2 words per seat
N_MASKS = M_SHOWN + 2 * MAX_SEATS


class DealState(NamedTuple):
    """Arrays of one deal in play; card sets are (word 0, word 1) pairs of uint64."""

    rng: np.ndarray  # uint64[STREAM_WORDS], the deal's random stream
    pack: np.ndarray  # int64[N_CARDS], scratch for dealing
    hands: np.ndarray  # uint64[5, 2], cards still in each hand (own)
    dealt: np.ndarray  # uint64[5, 2], hands as dealt (own)
    chien: np.ndarray  # uint64[2], the chien as dealt (public when info[I_CHIEN_SHOWN])
    ecart: np.ndarray  # uint64[2], the écart (taker's own; its trumps are public)
    attack: np.ndarray  # int64[5], 1 for the taker (and partner), 0 for defenders (each seat knows its own)
    trick: np.ndarray  # int64[5], cards of the current trick in play order (public)
    played: np.ndarray  # uint64[2], every card played so far, current trick included (public)
    shown: np.ndarray  # uint64[5, 2], cards each seat showed in a poignée (public)
    info: np.ndarray  # int64[N_INFO], the scalars above
    scores: np.ndarray  # int64[5], each seat's score for the deal
    count: np.ndarray  # int64[N_COUNT], the running count (kernels.count)
    pile: np.ndarray  # uint64[2], cards the attack has won so far (count; not for policies)
    history: np.ndarray  # int64[MAX_TRICKS, N_HISTORY], the tricks completed, columns H_* (public)
    bids: np.ndarray  # int64[MAX_SEATS], the words said in the auction, in speaking order (public)
    pos: np.ndarray  # int64[N_POS], where the deal stands in the machine, slots Q_* (public)
    laid: np.ndarray  # uint64[2], the écart laid so far (the taker's own)
    legal: np.ndarray  # uint64[2], the legal choices of the decision waiting (kernels.machine)


@njit
def new_state() -> DealState:
    """A fresh deal state, large enough for any number of players."""
    return DealState(
        np.zeros(STREAM_WORDS, dtype=np.uint64),
        np.zeros(N_CARDS, dtype=np.int64),
        np.zeros((MAX_SEATS, 2), dtype=np.uint64),
        np.zeros((MAX_SEATS, 2), dtype=np.uint64),
        np.zeros(2, dtype=np.uint64),
        np.zeros(2, dtype=np.uint64),
        np.zeros(MAX_SEATS, dtype=np.int64),
        np.zeros(MAX_SEATS, dtype=np.int64),
        np.zeros(2, dtype=np.uint64),
        np.zeros((MAX_SEATS, 2), dtype=np.uint64),
        np.zeros(N_INFO, dtype=np.int64),
        np.zeros(MAX_SEATS, dtype=np.int64),
        np.zeros(N_COUNT, dtype=np.int64),
        np.zeros(2, dtype=np.uint64),
        np.zeros((MAX_TRICKS, N_HISTORY), dtype=np.int64),
        np.zeros(MAX_SEATS, dtype=np.int64),
        np.zeros(N_POS, dtype=np.int64),
        np.zeros(2, dtype=np.uint64),
        np.zeros(2, dtype=np.uint64),
    )
