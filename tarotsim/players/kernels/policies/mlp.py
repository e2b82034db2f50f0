"""The network of the ``net`` card-play policy (``players.kernels.policies.net``) without its weights: its input,
its forward pass and its choice of card.

The input (``features``) is what the seat of a ``SeatView`` knows at a card decision, as the
list of the non-zero entries of a fixed-size vector (``N_INPUT``):

0/1 planes of the 78 cards (``F_*`` below: own hand, legal cards, the cards each seat played by
its place after this one, the trick, the card winning it, the cards still unseen, those laid
aside in this seat's sight, the poignée cards each seat showed and still holds, the card the
heuristic would play), then
scalars (side, table size, contract, taker's and known partner's places, place in the trick,
suit led, who wins the trick so far and for which side, the voids shown, the trick number, the
trick's and the sides' card points). Every entry is read from the view and the legal cards:
the no-peeking check (``tarotsim.interfaces.testing.check_no_peeking``) holds by construction.

``forward`` scores the legal cards with the layers it is given (a multilayer perceptron with
two hidden ReLU layers, its first a sum of the rows of the active inputs) and picks the card. Apart from the shipped weights (``players.kernels.policies.net``), so that the training script
(``examples/train_net.py``) records positions and plays its network as it learns, with the
same input and the same arithmetic as ``play=net``.
"""

from __future__ import annotations

import numpy as np

from tarotsim._jit import njit
from tarotsim.engine.cards import HALF_POINTS, N_CARDS, N_SUIT_CARDS
from tarotsim.engine.kernels.bits import ONE, lowest_bit, popcount
from tarotsim.engine.kernels.rules import void_seats
from tarotsim.engine.kernels.state import (
    H_LEADER,
    H_WINNER,
    I_CHELEM_ANNOUNCED,
    I_CONTRACT,
    I_HI_TRUMP,
    I_LEADER,
    I_LED,
    I_PETIT_SEAT,
    I_PLAYERS,
    I_TAKER,
    I_TRICK,
    I_TRICK_HALF,
    I_TRICK_LEN,
    I_VOIDS,
    I_WIN_CARD,
    I_WIN_SEAT,
    MAX_SEATS,
)
from tarotsim.engine.kernels.view import SeatView, known_partner
from tarotsim.players.kernels.policies.heuristic import heuristic_card

# The input: planes of 78 cards, then scalars.
F_HAND = 0
"""Plane: the seat's hand."""
F_LEGAL = F_HAND + N_CARDS
"""Plane: its legal cards."""
F_PLAYED = F_LEGAL + N_CARDS
"""``MAX_SEATS`` planes: the cards played by each seat, by its place after this one (0: itself)."""
F_TRICK = F_PLAYED + MAX_SEATS * N_CARDS
"""Plane: the cards of the trick in play."""
F_WINNING = F_TRICK + N_CARDS
"""Plane: the card winning the trick so far."""
F_UNSEEN = F_WINNING + N_CARDS
"""Plane: the cards this seat has not seen (neither its own, played, nor laid aside in its sight)."""
F_ASIDE = F_UNSEEN + N_CARDS
"""Plane: the cards it saw laid aside: its écart (the taker), the chien shown, the écart's trumps."""
F_SHOWN = F_ASIDE + N_CARDS
"""``MAX_SEATS`` planes: each seat's poignée cards not yet played, by its place after this one."""
F_HINT = F_SHOWN + MAX_SEATS * N_CARDS
"""Plane: the card the heuristic would play here (``heuristic.heuristic_card``, with the seat's
options), which the network learns when to follow and when to leave."""
F_ATTACK = F_HINT + N_CARDS
"""Scalar: 1 for the attack."""
F_PLAYERS = F_ATTACK + 1
"""3 one-hot scalars: 3, 4 or 5 players."""
F_CONTRACT = F_PLAYERS + 3
"""4 one-hot scalars: prise, garde, garde sans, garde contre."""
F_TAKER = F_CONTRACT + 4
"""``MAX_SEATS`` one-hot scalars: the taker's place after this seat."""
F_PARTNER = F_TAKER + MAX_SEATS
"""``MAX_SEATS`` one-hot scalars: the partner's place, as the seat knows it (none: all 0)."""
F_POSITION = F_PARTNER + MAX_SEATS
"""``MAX_SEATS`` one-hot scalars: the seat's place in the trick."""
F_LED = F_POSITION + MAX_SEATS
"""5 one-hot scalars: the suit led (0-3, 4 trumps; none led yet: all 0)."""
F_WINNER = F_LED + 5
"""``MAX_SEATS`` one-hot scalars: the place of the seat winning the trick so far."""
F_WINNER_SIDE = F_WINNER + MAX_SEATS
"""2 scalars: the trick is won so far by this seat's side, by the other side (by the sides it knows)."""
F_VOIDS = F_WINNER_SIDE + 2
"""``MAX_SEATS`` × 5 scalars: the voids each seat showed (suits 0-3, 4 trumps)."""
F_SCALARS = F_VOIDS + MAX_SEATS * 5
"""Scalars: the trick number / 24; the cards left in the hand / 24; the trick's card points
(half points / 20); the card points taken so far by the seat's side and by the other, by the
sides it knows (half points / 182); the Petit on the trick; the chelem announced; the highest
trump on the trick / 21."""
N_SCALARS = 8
N_INPUT = F_SCALARS + N_SCALARS
"""The size of the input."""
MAX_ACTIVE = 256
"""The most non-zero inputs at a decision (about 200 at most at any table)."""
LAYERS = ("w1", "b1", "w2", "b2", "w3", "b3")
"""The network's arrays, in the order ``forward`` takes them: ``w1`` (N_INPUT, H1), ``b1`` (H1,),
``w2`` (H1, H2), ``b2`` (H2,), ``w3`` (78, H2), the output layer by card, ``b3`` (78,)."""


@njit(inline="always")
def _put(idx: np.ndarray, val: np.ndarray, n: int, index: int, value: float) -> int:
    idx[n] = index
    val[n] = value
    return n + 1


@njit(inline="always")
def _put_set(idx: np.ndarray, val: np.ndarray, n: int, base: int, word0: np.uint64, word1: np.uint64) -> int:
    while word0:
        idx[n] = base + lowest_bit(word0)
        val[n] = 1.0
        n += 1
        word0 &= word0 - ONE
    while word1:
        idx[n] = base + N_SUIT_CARDS + lowest_bit(word1)
        val[n] = 1.0
        n += 1
        word1 &= word1 - ONE
    return n


@njit(inline="always")
def _place(seat: int, other: int, players: int) -> int:
    """The place of ``other`` after ``seat`` round the table (0: ``seat`` itself)."""
    r = other - seat
    return r + players if r < 0 else r


@njit(inline="always")
def _mine(w: int, seat: int, attack: bool, taker: int, partner: int) -> bool:
    """Whether seat ``w`` is on the side of ``seat``, by the sides ``seat`` knows (``partner``: -1 unknown)."""
    if w == seat:
        return True
    on_attack = w == taker or w == partner
    return on_attack if attack else not on_attack


@njit
def features(
    v: SeatView, legal0: np.uint64, legal1: np.uint64, cfg: np.ndarray, idx: np.ndarray, val: np.ndarray
) -> int:
    """The input at the seat of ``v`` with legal cards ``(legal0, legal1)`` and options ``cfg``
    (the heuristic's, for its card, ``F_HINT``): writes the index
    of each non-zero entry into ``idx`` (int32[MAX_ACTIVE]) and its value into ``val``
    (float32[MAX_ACTIVE]); returns how many there are."""
    info = v.info
    seat = v.seat
    players = info[I_PLAYERS]
    taker = info[I_TAKER]
    partner = known_partner(v)
    tricks = info[I_TRICK]
    n = _put_set(idx, val, 0, F_HAND, v.hand0, v.hand1)
    n = _put_set(idx, val, n, F_LEGAL, legal0, legal1)
    mine_half = 0
    theirs_half = 0
    for t in range(tricks):
        leader = v.history[t, H_LEADER]
        half = 0
        for j in range(players):
            card = v.history[t, j]
            half += HALF_POINTS[card]
            other = leader + j
            other = other - players if other >= players else other
            n = _put(idx, val, n, F_PLAYED + _place(seat, other, players) * N_CARDS + card, 1.0)
        if _mine(v.history[t, H_WINNER], seat, v.attack, taker, partner):
            mine_half += half
        else:
            theirs_half += half
    for j in range(info[I_TRICK_LEN]):
        card = v.trick[j]
        other = info[I_LEADER] + j
        other = other - players if other >= players else other
        n = _put(idx, val, n, F_PLAYED + _place(seat, other, players) * N_CARDS + card, 1.0)
        n = _put(idx, val, n, F_TRICK + card, 1.0)
    if info[I_WIN_CARD] >= 0:
        n = _put(idx, val, n, F_WINNING + info[I_WIN_CARD], 1.0)
    aside0 = v.ecart0 | v.chien0
    aside1 = v.ecart1 | v.chien1
    unseen0 = ~(v.hand0 | v.played[0] | aside0) & ((ONE << np.uint64(N_SUIT_CARDS)) - ONE)
    unseen1 = ~(v.hand1 | v.played[1] | aside1) & ((ONE << np.uint64(N_CARDS - N_SUIT_CARDS)) - ONE)
    n = _put_set(idx, val, n, F_UNSEEN, unseen0, unseen1)
    n = _put_set(idx, val, n, F_ASIDE, aside0 & ~v.hand0, aside1 & ~v.hand1)
    for other in range(players):
        base = F_SHOWN + _place(seat, other, players) * N_CARDS
        n = _put_set(idx, val, n, base, v.shown[other, 0] & ~v.played[0], v.shown[other, 1] & ~v.played[1])

    n = _put(idx, val, n, F_HINT + heuristic_card(v, legal0, legal1, cfg), 1.0)
    if v.attack:
        n = _put(idx, val, n, F_ATTACK, 1.0)
    n = _put(idx, val, n, F_PLAYERS + players - 3, 1.0)
    if info[I_CONTRACT] >= 1:
        n = _put(idx, val, n, F_CONTRACT + info[I_CONTRACT] - 1, 1.0)
    if taker >= 0:
        n = _put(idx, val, n, F_TAKER + _place(seat, taker, players), 1.0)
    if partner >= 0:
        n = _put(idx, val, n, F_PARTNER + _place(seat, partner, players), 1.0)
    n = _put(idx, val, n, F_POSITION + info[I_TRICK_LEN], 1.0)
    if info[I_LED] >= 0:
        n = _put(idx, val, n, F_LED + info[I_LED], 1.0)
    winner = info[I_WIN_SEAT]
    if winner >= 0:
        n = _put(idx, val, n, F_WINNER + _place(seat, winner, players), 1.0)
        side = 0 if _mine(winner, seat, v.attack, taker, partner) else 1
        n = _put(idx, val, n, F_WINNER_SIDE + side, 1.0)
    for suit in range(5):
        seats = void_seats(info[I_VOIDS], suit)
        for other in range(players):
            if (seats >> other) & 1:
                n = _put(idx, val, n, F_VOIDS + _place(seat, other, players) * 5 + suit, 1.0)
    n = _put(idx, val, n, F_SCALARS, tricks / 24.0)
    n = _put(idx, val, n, F_SCALARS + 1, (popcount(v.hand0) + popcount(v.hand1)) / 24.0)
    if info[I_TRICK_HALF] > 0:
        n = _put(idx, val, n, F_SCALARS + 2, info[I_TRICK_HALF] / 20.0)
    if mine_half > 0:
        n = _put(idx, val, n, F_SCALARS + 3, mine_half / 182.0)
    if theirs_half > 0:
        n = _put(idx, val, n, F_SCALARS + 4, theirs_half / 182.0)
    if info[I_PETIT_SEAT] >= 0:
        n = _put(idx, val, n, F_SCALARS + 5, 1.0)
    if info[I_CHELEM_ANNOUNCED] != 0:
        n = _put(idx, val, n, F_SCALARS + 6, 1.0)
    if info[I_HI_TRUMP] > 0:
        n = _put(idx, val, n, F_SCALARS + 7, info[I_HI_TRUMP] / 21.0)
    return n


@njit(inline="always")
def forward(
    idx: np.ndarray,
    val: np.ndarray,
    n: int,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    w3: np.ndarray,
    b3: np.ndarray,
    h1: np.ndarray,
    h2: np.ndarray,
    scores: np.ndarray,
    legal0: np.uint64,
    legal1: np.uint64,
) -> int:
    """The legal card (of ``(legal0, legal1)``) of highest score, the lowest id among equals,
    for the input whose ``n`` non-zero entries are ``idx[:n]``, ``val[:n]``, with the layers
    ``w1`` … ``b3`` (`LAYERS`), working in ``h1``, ``h2`` (float32, the hidden layers' sizes).
    Each legal card's score goes into ``scores`` (float32[78]); the others are not scored."""
    for j in range(h1.shape[0]):
        h1[j] = b1[j]
    for a in range(n):
        row = idx[a]
        x = val[a]
        for j in range(h1.shape[0]):
            h1[j] += x * w1[row, j]
    for k in range(h2.shape[0]):
        h2[k] = b2[k]
    for j in range(h1.shape[0]):
        x = h1[j]
        if x > 0:
            for k in range(h2.shape[0]):
                h2[k] += x * w2[j, k]
    for k in range(h2.shape[0]):
        if h2[k] < 0:
            h2[k] = 0
    best = -1
    best_score = np.float32(0)
    for word, offset in ((legal0, 0), (legal1, N_SUIT_CARDS)):
        while word:
            card = offset + lowest_bit(word)
            word &= word - ONE
            score = b3[card]
            for k in range(h2.shape[0]):
                score += w3[card, k] * h2[k]
            scores[card] = score
            if best < 0 or score > best_score:
                best = card
                best_score = score
    return best
