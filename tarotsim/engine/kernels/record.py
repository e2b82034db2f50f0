"""The record row and the decision log of a deal, written by the deal machine as it goes
(``players.kernels.machine``): the row's columns (``R_*``, described for users in
``tarotsim.engine.records``) and the log's slots (``L_*``) are those of ``engine.kernels.state``."""

from __future__ import annotations

import numpy as np

from tarotsim._jit import njit
from tarotsim.engine.cards import EXCUSE_BIT, KINGS_MASK, PETIT_BIT, TRUMP_21_BIT, TRUMPS_MASK
from tarotsim.engine.kernels.bits import popcount
from tarotsim.engine.kernels.chavey import distribution_points, hand_points
from tarotsim.engine.kernels.rules import bouts
from tarotsim.engine.kernels.score import PASS, SIDE_NONE
from tarotsim.engine.kernels.state import (
    BOUT_HELD_21,
    BOUT_HELD_EXCUSE,
    BOUT_HELD_PETIT,
    C_HAND,
    C_PLAYERS,
    H_LEADER,
    I_CALLED,
    I_DEALER,
    I_LEADER,
    I_PARTNER,
    L_LEADERS,
    L_PLAYS,
    L_POIGNEE,
    L_WINNERS,
    MAX_SEATS,
    N_REC,
    Q_WISH_0,
    R_ATTACK_BOUTS,
    R_ATTACK_HALF,
    R_ATTACK_TRICKS,
    R_BOUTS_HELD,
    R_CALLED_CARD,
    R_CHELEM,
    R_DEALER,
    R_HAND_POINTS,
    R_HAND_POINTS_DIST,
    R_MADE,
    R_MARGIN,
    R_OTHERS_BID,
    R_PARTNER,
    R_PER_DEFENDER,
    R_PETIT_AU_BOUT,
    R_POIGNEE_POINTS,
    R_SCORE,
    R_SPEAKER_POSITION,
    R_TAKER,
    R_TAKER_BOUTS,
    R_TAKER_KINGS,
    R_TAKER_TRUMPS,
    R_TAKER_TRUMPS_EX,
    DealState,
)
from tarotsim.engine.kernels.steps import shown_size


@njit(inline="always")
def reset_record(rec: np.ndarray, dealer: int) -> None:
    """Clear the record row ``rec`` for a deal dealt by ``dealer``: no taker, partner, called
    card, petit au bout or chelem yet."""
    for i in range(N_REC):
        rec[i] = 0
    rec[R_DEALER] = dealer
    rec[R_TAKER] = -1
    rec[R_PETIT_AU_BOUT] = SIDE_NONE
    rec[R_CHELEM] = SIDE_NONE
    rec[R_PARTNER] = -1
    rec[R_CALLED_CARD] = -1


@njit(inline="always")
def record_hand(tb: DealState, cfg: np.ndarray, rec: np.ndarray, seat: int) -> None:
    """Record the features of ``seat``'s hand as dealt (trumps, bouts, Kings, Chavey count)
    and of its auction: its turn to speak, the highest contract the other seats wish to bid
    (their wishes, ``pos[Q_WISH_0 + seat]``)."""
    word0 = tb.dealt[seat, 0]
    word1 = tb.dealt[seat, 1]
    rec[R_TAKER_TRUMPS] = popcount(word1 & TRUMPS_MASK)
    rec[R_TAKER_BOUTS] = bouts(word1)
    rec[R_TAKER_KINGS] = popcount(word0 & KINGS_MASK)
    rec[R_HAND_POINTS] = hand_points(word0, word1)
    rec[R_HAND_POINTS_DIST] = rec[R_HAND_POINTS] + distribution_points(word0)
    has_excuse = 1 if word1 & EXCUSE_BIT else 0
    held = BOUT_HELD_EXCUSE * has_excuse
    if word1 & PETIT_BIT:
        held |= BOUT_HELD_PETIT
    if word1 & TRUMP_21_BIT:
        held |= BOUT_HELD_21
    rec[R_BOUTS_HELD] = held
    rec[R_TAKER_TRUMPS_EX] = rec[R_TAKER_TRUMPS] + has_excuse
    players = cfg[C_PLAYERS]
    others = PASS
    for other in range(players):
        if other != seat:
            others = max(others, tb.pos[Q_WISH_0 + other])
    rec[R_OTHERS_BID] = others
    rec[R_SPEAKER_POSITION] = (seat - tb.info[I_DEALER] - 1) % players


@njit(inline="always")
def log_play(tb: DealState, cfg: np.ndarray, log: np.ndarray) -> None:
    """The play of the deal just played into the log, from the public table: each trick's
    leader, cards in play order and the seat that took it (``tb.history``), each seat's poignée."""
    players = cfg[C_PLAYERS]
    hand_size = cfg[C_HAND]
    for t in range(hand_size):
        log[L_LEADERS + t] = tb.history[t, H_LEADER]
        for j in range(players):
            log[L_PLAYS + t * MAX_SEATS + j] = tb.history[t, j]
        log[L_WINNERS + t] = tb.history[t + 1, H_LEADER] if t + 1 < hand_size else tb.info[I_LEADER]
    for seat in range(players):
        log[L_POIGNEE + seat] = shown_size(tb, seat, players)


@njit(inline="always")
def put_result(
    tb: DealState,
    players: int,
    rec: np.ndarray,
    bonuses: int,
    settled: tuple[int, int, int, int, bool, int, int, int],
) -> None:
    """The result columns of ``rec`` of a deal scored by ``steps.settle_deal`` (``settled``,
    its result; ``bonuses``, the poignées' points it counted), and each seat's score."""
    attack_half, attack_bouts, attack_tricks, petit_side, made, margin, chelem, d = settled
    rec[R_ATTACK_HALF] = attack_half
    rec[R_ATTACK_BOUTS] = attack_bouts
    rec[R_MADE] = 1 if made else 0
    rec[R_MARGIN] = margin
    rec[R_PETIT_AU_BOUT] = petit_side
    rec[R_CHELEM] = chelem
    rec[R_POIGNEE_POINTS] = bonuses
    rec[R_ATTACK_TRICKS] = attack_tricks
    rec[R_PARTNER] = tb.info[I_PARTNER]
    rec[R_CALLED_CARD] = tb.info[I_CALLED]
    rec[R_PER_DEFENDER] = d
    for seat in range(players):
        rec[R_SCORE + seat] = tb.scores[seat]
