"""Counting a deal trick by trick (docs/rules.md §6-7): who wins each trick, which cards go
to the attack, the Excuse (kept with its half-point exchange, its change of side on the
last trick, the chelem exception), and the petit au bout.

The running count lives in ``state`` (int64[N_COUNT], slots S_*) and ``pile`` (uint64[2],
the cards the attack has won, the écart or the chien included where they count for it).
"""

from __future__ import annotations

import numpy as np

from tarotsim._jit import njit
from tarotsim.engine.cards import EXCUSE, EXCUSE_BIT, PETIT
from tarotsim.engine.kernels.rules import card_bit
from tarotsim.engine.kernels.score import ATTACK, DEFENCE, SIDE_NONE
from tarotsim.engine.kernels.state import (
    S_ATTACK_TRICKS,
    S_EXCHANGE,
    S_PETIT_SIDE,
    S_PREV_PETIT,
    S_PREV_WINNER,
)


@njit(inline="always")
def start_count(state: np.ndarray, pile: np.ndarray, start0: np.uint64, start1: np.uint64) -> None:
    """Begin a count; the attack starts with the cards ``(start0, start1)`` (écart or chien, or none)."""
    state[S_ATTACK_TRICKS] = 0
    state[S_EXCHANGE] = 0
    state[S_PETIT_SIDE] = SIDE_NONE
    state[S_PREV_PETIT] = 0
    state[S_PREV_WINNER] = -1
    pile[0] = start0
    pile[1] = start1


@njit(inline="always")
def close_trick(
    cards: np.ndarray,
    players: int,
    leader: int,
    winner: int,
    attack: np.ndarray,
    t: int,
    n_tricks: int,
    state: np.ndarray,
    pile: np.ndarray,
) -> int:
    """Count trick number ``t`` (cards in play order from ``leader``), which ``winner`` wins by
    the ordinary rule (``rules.trick_winner``); returns the seat that takes the trick.

    ``attack[seat]`` is 1 for the taker (and partner). On the last trick the Excuse wins
    when its side has won every earlier trick (the chelem exception); otherwise it goes
    to the side opposite its owner, whole, with no exchange card.
    """
    last = t == n_tricks - 1
    won0 = np.uint64(0)
    won1 = np.uint64(0)
    has_petit = False
    excuse_owner = -1
    for j in range(players):
        card = cards[j]
        bit0, bit1 = card_bit(card)
        if card == EXCUSE:
            excuse_owner = (leader + j) % players
        else:
            won0 |= bit0
            won1 |= bit1
        if card == PETIT:
            has_petit = True
    exception = False
    if excuse_owner >= 0:
        owner_attacks = attack[excuse_owner] == 1
        owner_won_all = state[S_ATTACK_TRICKS] == t if owner_attacks else state[S_ATTACK_TRICKS] == 0
        if last and owner_won_all:
            exception = True
            winner = excuse_owner
            if owner_attacks:
                pile[1] |= EXCUSE_BIT
        elif last:
            if not owner_attacks:
                pile[1] |= EXCUSE_BIT
        else:
            if owner_attacks:
                pile[1] |= EXCUSE_BIT
            if owner_attacks != (attack[winner] == 1):
                state[S_EXCHANGE] += 1 if attack[winner] == 1 else -1
    if attack[winner] == 1:
        pile[0] |= won0
        pile[1] |= won1
        state[S_ATTACK_TRICKS] += 1
    if last:
        if exception:
            if state[S_PREV_PETIT]:
                state[S_PETIT_SIDE] = ATTACK if attack[state[S_PREV_WINNER]] == 1 else DEFENCE
        elif has_petit:
            state[S_PETIT_SIDE] = ATTACK if attack[winner] == 1 else DEFENCE
    state[S_PREV_PETIT] = 1 if has_petit else 0
    state[S_PREV_WINNER] = winner
    return winner
