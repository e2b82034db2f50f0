"""An exact double-dummy solver for the last tricks of a Tarot deal.

Every hand is known (perfect information). From a position (the hands, the trick in
progress, its leader, the sides) the attack plays to maximise and the defence to
minimise the attack's **value from here**: the values of the cards it wins from the
trick in progress on (``values``, by default the cards' half points ``HALF_POINTS``),
the Excuse counted as ``engine.kernels.count`` counts it (it stays with its owner's side with an
exchange of one half point when the other side wins its trick; on the last trick it goes
to the side opposite its owner, unless that side has won every earlier trick, when it
wins the trick), plus ``petit_weight`` when the petit au bout goes to the attack and
minus it when it goes to the defence (0: card points alone; the score gives 10 points
times the multiplier). Every rule of play of docs/rules.md §6 applies through
``engine.kernels.rules.legal_set``; the 5-player restriction on the deal's very first lead
does not arise in an endgame and is not applied. The value does not depend on points
won earlier: ``solve`` adds ``won_half`` to it.

The search is alpha-beta (fail-soft) with:

- equivalent cards: cards of one hand that are adjacent in rank among the cards still
  live (in a hand or in the trick in progress), of equal value, the Petit apart, win and
  lose the same tricks; only the lowest of each run is searched;
- move ordering: the best card found before in the same position first, then, following
  a partner's winning card, the dearest card; against a foe's, the cheapest card that
  wins, else the cheapest card; leading, the strongest card;
- a transposition table at the start of each trick, keyed by the exact hands, the
  leader, which sides have won a trick and the petit of the previous trick, holding
  bounds on the value from there;
- bounds: from any position the value lies between ``-1 - petit_weight`` and the values
  of the cards not yet won plus ``1 + petit_weight`` (``values`` must not be negative).

The search runs on an explicit stack of plies rather than by recursion: Numba's on-disk
cache does not reload recursive functions safely.

Typical use: ``new_solver_scratch`` once, then ``solve`` (the value) or ``card_values``
(the value of each legal card of the seat to play, what a PIMC player averages).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from tarotsim._jit import njit
from tarotsim.engine.cards import EXCUSE, EXCUSE_BIT, N_CARDS, N_SUIT_CARDS, PETIT, SUIT_LEN
from tarotsim.engine.kernels.bits import lowest_bit, popcount
from tarotsim.engine.kernels.rules import card_bit, legal_set, suit_code, trick_after, winning_key
from tarotsim.engine.kernels.score import ATTACK, DEFENCE, SIDE_NONE
from tarotsim.engine.kernels.state import MAX_SEATS, MAX_TRICKS, WON_BY_ATTACK, WON_BY_DEFENCE

MAX_MOVES = MAX_TRICKS
MAX_PLIES = MAX_TRICKS * MAX_SEATS + 1
INFINITE = 1 << 40
"""Beyond any value: bounds of the full window."""
NO_VALUE = -(1 << 50)
"""``card_values`` writes it for the cards the seat may not play."""
TT_BITS = 16
"""Default transposition table: 2**16 entries (about 8 MB)."""

T_GENERATION = 0  # entries written under another generation are ignored
T_LOWER = 1
T_UPPER = 2
T_BEST = 3  # best card found, -1 none
N_TT_DATA = 4
N_TT_KEY = 2 * MAX_SEATS + 1  # the hands' words, then the leader and flags

# the fields of one node of the search's stack
F_LEADER = 0
F_POS = 1  # cards already in the trick
F_LED = 2
F_HI = 3
F_WON_BY = 4
F_PREV_PETIT = 5
F_LEFT = 6  # tricks left, the one in progress included
F_SEAT = 7
F_ALPHA = 8
F_BETA = 9
F_ALPHA0 = 10  # the window the node was opened with
F_BETA0 = 11
F_BEST = 12
F_BEST_CARD = 13
F_NEXT = 14  # index of the next card to try
F_N = 15
F_CARD = 16  # the card being tried
F_GAIN = 17  # the value of the trick that card completed, 0 if none
F_SLOT = 18  # table entry of the node, -1 inside a trick
F_FLAGS = 19  # the leader and flags of its table key
F_REST = 20  # the values of the cards in the hands and in the trick in progress
N_NODE_FIELDS = 21

X_NODES = 0  # cards tried since the scratch was made
X_GENERATION = 1
N_STATS = 2

_ZERO = np.uint64(0)
_ONE = np.uint64(1)
_MIX = np.uint64(0x9E3779B97F4A7C15)


class SolverScratch(NamedTuple):
    """Working arrays of the solver, made once by ``new_solver_scratch`` and reused."""

    hands: np.ndarray  # uint64[MAX_SEATS, 2]: the hands as the search plays them
    trick: np.ndarray  # int64[MAX_TRICKS + 1, MAX_SEATS]: per number of tricks left, that trick's cards
    moves: np.ndarray  # int64[MAX_PLIES, MAX_MOVES]: cards to try, per ply
    scores: np.ndarray  # int64[MAX_PLIES, MAX_MOVES]: their ordering scores
    tt_key: np.ndarray  # uint64[tt_size, N_TT_KEY]
    tt_data: np.ndarray  # int64[tt_size, N_TT_DATA], slots T_*
    stats: np.ndarray  # int64[N_STATS], slots X_*
    head: np.ndarray  # int64[N_CARDS]: the card searched for each card of its run (last node)
    node: np.ndarray  # int64[MAX_PLIES, N_NODE_FIELDS]: the search's stack, slots F_*


@njit
def new_solver_scratch(tt_bits: int = TT_BITS) -> SolverScratch:
    """Working arrays for ``solve`` and ``card_values``, with 2**tt_bits table entries."""
    size = 1 << tt_bits
    tt_data = np.zeros((size, N_TT_DATA), dtype=np.int64)
    tt_data[:, T_GENERATION] = -1
    return SolverScratch(
        np.zeros((MAX_SEATS, 2), dtype=np.uint64),
        np.zeros((MAX_TRICKS + 1, MAX_SEATS), dtype=np.int64),
        np.zeros((MAX_PLIES, MAX_MOVES), dtype=np.int64),
        np.zeros((MAX_PLIES, MAX_MOVES), dtype=np.int64),
        np.zeros((size, N_TT_KEY), dtype=np.uint64),
        tt_data,
        np.zeros(N_STATS, dtype=np.int64),
        np.zeros(N_CARDS, dtype=np.int64),
        np.zeros((MAX_PLIES, N_NODE_FIELDS), dtype=np.int64),
    )


@njit(inline="always")
def _score_trick(
    sc: SolverScratch,
    players: int,
    attack: np.ndarray,
    values: np.ndarray,
    petit_weight: int,
    leader: int,
    won_by: int,
    prev_petit: int,
    tricks_left: int,
) -> tuple[int, int, int, int]:
    """(value to the attack, winning seat, petit side for the next trick, values of its cards)
    of the full trick."""
    last = tricks_left == 1
    led = -1
    for j in range(players):
        card = sc.trick[tricks_left, j]
        if card != EXCUSE:
            led = suit_code(card)
            break
    best_key = -2
    winner = leader
    card_sum = 0
    excuse_owner = -1
    has_petit = False
    for j in range(players):
        card = sc.trick[tricks_left, j]
        key = winning_key(card, led)
        if key > best_key:
            best_key = key
            winner = leader + j if leader + j < players else leader + j - players
        if card == EXCUSE:
            excuse_owner = (leader + j) % players
        else:
            card_sum += values[card]
            if card == PETIT:
                has_petit = True
    value = 0
    exception = False
    if excuse_owner >= 0:
        owner_attacks = attack[excuse_owner] == 1
        foe_won = WON_BY_DEFENCE if owner_attacks else WON_BY_ATTACK
        if last and (won_by & foe_won) == 0:
            exception = True
            winner = excuse_owner
            if owner_attacks:
                value += values[EXCUSE]
        elif last:
            if not owner_attacks:
                value += values[EXCUSE]
        else:
            if owner_attacks:
                value += values[EXCUSE]
            if owner_attacks != (attack[winner] == 1):
                value += 1 if attack[winner] == 1 else -1
    winner_side = ATTACK if attack[winner] == 1 else DEFENCE
    if winner_side == ATTACK:
        value += card_sum
    if last:
        petit_side = prev_petit if exception else (winner_side if has_petit else SIDE_NONE)
        if petit_side == ATTACK:
            value += petit_weight
        elif petit_side == DEFENCE:
            value -= petit_weight
    spent = card_sum + values[EXCUSE] * (excuse_owner >= 0)
    return value, winner, winner_side if has_petit else SIDE_NONE, spent


@njit(inline="always")
def _add_run_heads(
    sc: SolverScratch,
    ply: int,
    n: int,
    legal: np.uint64,
    own: np.uint64,
    live: np.uint64,
    base: int,
    values: np.ndarray,
) -> int:
    """Append to ``sc.moves[ply]`` the lowest legal card of each run of equivalent cards of
    one word (``base``: card id of bit 0); returns the new number of moves."""
    previous_own = False
    previous_value = -1
    previous_card = -1
    head = -1
    rest = live
    while rest:
        bit = lowest_bit(rest)
        rest &= rest - _ONE
        mask = _ONE << np.uint64(bit)
        card = base + bit
        if own & mask and legal & mask:
            value = values[card]
            if not (previous_own and value == previous_value and card != PETIT and previous_card != PETIT):
                sc.moves[ply, n] = card
                n += 1
                head = card
            sc.head[card] = head
            previous_own = True
            previous_value = value
            previous_card = card
        else:
            previous_own = False
    return n


@njit(inline="always")
def _gen_moves(
    sc: SolverScratch,
    ply: int,
    players: int,
    seat: int,
    legal0: np.uint64,
    legal1: np.uint64,
    pos: int,
    tricks_left: int,
    values: np.ndarray,
) -> int:
    """The legal cards of ``seat`` to search, one per run of equivalent cards, unordered."""
    live0 = _ZERO
    live1 = _ZERO
    for other in range(players):
        live0 |= sc.hands[other, 0]
        live1 |= sc.hands[other, 1]
    for j in range(pos):
        bit0, bit1 = card_bit(sc.trick[tricks_left, j])
        live0 |= bit0
        live1 |= bit1
    own0 = sc.hands[seat, 0]
    own1 = sc.hands[seat, 1]
    n = 0
    for suit in range(4):
        suit_bits = np.uint64((1 << SUIT_LEN) - 1) << np.uint64(SUIT_LEN * suit)
        if legal0 & suit_bits:
            n = _add_run_heads(sc, ply, n, legal0 & suit_bits, own0, live0 & suit_bits, 0, values)
    trumps = legal1 & ~EXCUSE_BIT
    if trumps:
        n = _add_run_heads(sc, ply, n, trumps, own1 & ~EXCUSE_BIT, live1 & ~EXCUSE_BIT, N_SUIT_CARDS, values)
    if legal1 & EXCUSE_BIT:
        sc.moves[ply, n] = EXCUSE
        sc.head[EXCUSE] = EXCUSE
        n += 1
    return n


@njit(inline="always")
def _order_moves(
    sc: SolverScratch,
    ply: int,
    n: int,
    players: int,
    attack: np.ndarray,
    seat: int,
    leader: int,
    pos: int,
    tricks_left: int,
    led: int,
    values: np.ndarray,
    first: int,
) -> None:
    """Sort ``sc.moves[ply, :n]`` by the ordering of the module docstring, ``first`` first."""
    best_key = -1
    best_seat = -1
    for j in range(pos):
        key = winning_key(sc.trick[tricks_left, j], led)
        if key > best_key:
            best_key = key
            best_seat = (leader + j) % players
    ally_wins = best_seat >= 0 and attack[best_seat] == attack[seat]
    for i in range(n):
        card = sc.moves[ply, i]
        if card == first:
            score = 1 << 30
        elif card == EXCUSE:
            score = 0
        else:
            key = winning_key(card, led if led >= 0 else suit_code(card))
            if pos == 0 or best_seat < 0:
                score = key
            elif ally_wins:
                score = 1000 + 10 * values[card] - (key if key > best_key else 0)
            elif key > best_key:
                score = 5000 - 10 * values[card] - key
            else:
                score = -10 * values[card] - key
        sc.scores[ply, i] = score
    for i in range(1, n):
        card = sc.moves[ply, i]
        score = sc.scores[ply, i]
        j = i - 1
        while j >= 0 and sc.scores[ply, j] < score:
            sc.moves[ply, j + 1] = sc.moves[ply, j]
            sc.scores[ply, j + 1] = sc.scores[ply, j]
            j -= 1
        sc.moves[ply, j + 1] = card
        sc.scores[ply, j + 1] = score


@njit(inline="always")
def _tt_slot(sc: SolverScratch, players: int, flags: int) -> tuple[int, np.uint64]:
    """(table index, packed flags word) of the position at the start of a trick."""
    word = np.uint64(flags)
    h = word * _MIX
    for seat in range(players):
        for w in range(2):
            h = (h ^ sc.hands[seat, w]) * _MIX
            h ^= h >> np.uint64(29)
    return np.int64(h & np.uint64(sc.tt_key.shape[0] - 1)), word


@njit(inline="always")
def _tt_matches(sc: SolverScratch, slot: int, players: int, word: np.uint64, generation: int) -> bool:
    if sc.tt_data[slot, T_GENERATION] != generation or sc.tt_key[slot, 2 * MAX_SEATS] != word:
        return False
    for seat in range(players):
        if (
            sc.tt_key[slot, 2 * seat] != sc.hands[seat, 0]
            or sc.tt_key[slot, 2 * seat + 1] != sc.hands[seat, 1]
        ):
            return False
    return True


@njit(inline="always")
def _enter(
    sc: SolverScratch,
    ply: int,
    players: int,
    attack: np.ndarray,
    values: np.ndarray,
    petit_weight: int,
    alpha: int,
    beta: int,
) -> tuple[bool, int]:
    """Open the node of ``ply`` (its position fields set): (True, value) when the table
    answers at once, else (False, 0) with its cards to try listed and ordered."""
    leader = sc.node[ply, F_LEADER]
    pos = sc.node[ply, F_POS]
    seat = leader + pos
    if seat >= players:
        seat -= players
    sc.node[ply, F_SEAT] = seat
    sc.node[ply, F_SLOT] = -1
    sc.node[ply, F_ALPHA0] = alpha
    sc.node[ply, F_BETA0] = beta
    upper = sc.node[ply, F_REST] + 1 + petit_weight
    if upper <= alpha:
        return True, upper
    lower = -1 - petit_weight
    if lower >= beta:
        return True, lower
    first = -1
    if pos == 0:
        flags = leader | (sc.node[ply, F_WON_BY] << 3) | ((sc.node[ply, F_PREV_PETIT] + 1) << 5)
        slot, word = _tt_slot(sc, players, flags)
        sc.node[ply, F_SLOT] = slot
        sc.node[ply, F_FLAGS] = flags
        if _tt_matches(sc, slot, players, word, sc.stats[X_GENERATION]):
            lower = sc.tt_data[slot, T_LOWER]
            upper = sc.tt_data[slot, T_UPPER]
            if lower >= beta or lower == upper:
                return True, lower
            if upper <= alpha:
                return True, upper
            alpha = max(alpha, lower)
            beta = min(beta, upper)
            first = sc.tt_data[slot, T_BEST]
    sc.node[ply, F_ALPHA] = alpha
    sc.node[ply, F_BETA] = beta
    led = sc.node[ply, F_LED]
    left = sc.node[ply, F_LEFT]
    legal0, legal1 = legal_set(sc.hands[seat, 0], sc.hands[seat, 1], led, sc.node[ply, F_HI])
    n = _gen_moves(sc, ply, players, seat, legal0, legal1, pos, left, values)
    _order_moves(sc, ply, n, players, attack, seat, leader, pos, left, led, values, first)
    sc.node[ply, F_N] = n
    sc.node[ply, F_NEXT] = 0
    sc.node[ply, F_BEST] = -INFINITE if attack[seat] == 1 else INFINITE
    sc.node[ply, F_BEST_CARD] = -1
    return False, 0


@njit(inline="always")
def _leave(sc: SolverScratch, ply: int, players: int) -> int:
    """Close the node of ``ply``: store its bounds in the table; returns its value."""
    best = sc.node[ply, F_BEST]
    slot = sc.node[ply, F_SLOT]
    if slot >= 0:
        lower = -INFINITE
        upper = INFINITE
        if best <= sc.node[ply, F_ALPHA0]:
            upper = best
        elif best >= sc.node[ply, F_BETA0]:
            lower = best
        else:
            lower = best
            upper = best
        for s in range(players):
            sc.tt_key[slot, 2 * s] = sc.hands[s, 0]
            sc.tt_key[slot, 2 * s + 1] = sc.hands[s, 1]
        sc.tt_key[slot, 2 * MAX_SEATS] = np.uint64(sc.node[ply, F_FLAGS])
        sc.tt_data[slot, T_GENERATION] = sc.stats[X_GENERATION]
        sc.tt_data[slot, T_LOWER] = lower
        sc.tt_data[slot, T_UPPER] = upper
        sc.tt_data[slot, T_BEST] = sc.node[ply, F_BEST_CARD]
    return best


@njit(inline="always")
def _back(sc: SolverScratch, ply: int, attack: np.ndarray, value: int) -> None:
    """Take back the card tried at ``ply``, whose value to the attack is ``value``."""
    seat = sc.node[ply, F_SEAT]
    card = sc.node[ply, F_CARD]
    bit0, bit1 = card_bit(card)
    sc.hands[seat, 0] ^= bit0
    sc.hands[seat, 1] ^= bit1
    if attack[seat] == 1:
        if value > sc.node[ply, F_BEST]:
            sc.node[ply, F_BEST] = value
            sc.node[ply, F_BEST_CARD] = card
            if value > sc.node[ply, F_ALPHA]:
                sc.node[ply, F_ALPHA] = value
    elif value < sc.node[ply, F_BEST]:
        sc.node[ply, F_BEST] = value
        sc.node[ply, F_BEST_CARD] = card
        if value < sc.node[ply, F_BETA]:
            sc.node[ply, F_BETA] = value


@njit(inline="always")
def _set_node(
    sc: SolverScratch,
    ply: int,
    leader: int,
    pos: int,
    led: int,
    hi: int,
    won_by: int,
    prev_petit: int,
    left: int,
    rest: int,
) -> None:
    sc.node[ply, F_LEADER] = leader
    sc.node[ply, F_POS] = pos
    sc.node[ply, F_LED] = led
    sc.node[ply, F_HI] = hi
    sc.node[ply, F_WON_BY] = won_by
    sc.node[ply, F_PREV_PETIT] = prev_petit
    sc.node[ply, F_LEFT] = left
    sc.node[ply, F_REST] = rest


@njit
def _search(
    sc: SolverScratch,
    players: int,
    attack: np.ndarray,
    values: np.ndarray,
    petit_weight: int,
    base: int,
    alpha: int,
    beta: int,
) -> int:
    """Value to the attack of the position set at ply ``base`` (``_set_node``), by alpha-beta
    on an explicit stack of plies (no recursion)."""
    done, value = _enter(sc, base, players, attack, values, petit_weight, alpha, beta)
    if done:
        return value
    ply = base
    while True:
        if sc.node[ply, F_NEXT] < sc.node[ply, F_N] and sc.node[ply, F_ALPHA] < sc.node[ply, F_BETA]:
            card = sc.moves[ply, sc.node[ply, F_NEXT]]
            sc.node[ply, F_NEXT] += 1
            sc.node[ply, F_CARD] = card
            seat = sc.node[ply, F_SEAT]
            bit0, bit1 = card_bit(card)
            sc.hands[seat, 0] ^= bit0
            sc.hands[seat, 1] ^= bit1
            pos = sc.node[ply, F_POS]
            left = sc.node[ply, F_LEFT]
            sc.trick[left, pos] = card
            sc.stats[X_NODES] += 1
            led, hi = trick_after(sc.node[ply, F_LED], sc.node[ply, F_HI], card)
            gain = 0
            if pos + 1 < players:
                _set_node(
                    sc,
                    ply + 1,
                    sc.node[ply, F_LEADER],
                    pos + 1,
                    led,
                    hi,
                    sc.node[ply, F_WON_BY],
                    sc.node[ply, F_PREV_PETIT],
                    left,
                    sc.node[ply, F_REST],
                )
            else:
                gain, winner, petit_side, spent = _score_trick(
                    sc,
                    players,
                    attack,
                    values,
                    petit_weight,
                    sc.node[ply, F_LEADER],
                    sc.node[ply, F_WON_BY],
                    sc.node[ply, F_PREV_PETIT],
                    left,
                )
                if left == 1:
                    _back(sc, ply, attack, gain)
                    continue
                won = WON_BY_ATTACK if attack[winner] == 1 else WON_BY_DEFENCE
                _set_node(
                    sc,
                    ply + 1,
                    winner,
                    0,
                    -1,
                    0,
                    sc.node[ply, F_WON_BY] | won,
                    petit_side,
                    left - 1,
                    sc.node[ply, F_REST] - spent,
                )
            sc.node[ply, F_GAIN] = gain
            done, value = _enter(
                sc,
                ply + 1,
                players,
                attack,
                values,
                petit_weight,
                sc.node[ply, F_ALPHA] - gain,
                sc.node[ply, F_BETA] - gain,
            )
            if done:
                _back(sc, ply, attack, gain + value)
            else:
                ply += 1
        else:
            value = _leave(sc, ply, players)
            if ply == base:
                return value
            ply -= 1
            _back(sc, ply, attack, sc.node[ply, F_GAIN] + value)


@njit
def _start(
    sc: SolverScratch,
    hands: np.ndarray,
    players: int,
    leader: int,
    trick: np.ndarray,
    trick_len: int,
    values: np.ndarray,
) -> tuple[int, int, int, int, int]:
    """Copy the position into ``sc``; returns (seat to play, suit led, highest trump, tricks
    left, values of the cards in the hands and the trick)."""
    for seat in range(players):
        sc.hands[seat, 0] = hands[seat, 0]
        sc.hands[seat, 1] = hands[seat, 1]
    seat = (leader + trick_len) % players
    tricks_left = popcount(hands[seat, 0]) + popcount(hands[seat, 1])
    led = -1
    hi = 0
    for j in range(trick_len):
        sc.trick[tricks_left, j] = trick[j]
        led, hi = trick_after(led, hi, trick[j])
    rest = 0
    for card in range(N_CARDS):
        bit0, bit1 = card_bit(card)
        for other in range(players):
            if (hands[other, 0] & bit0) or (hands[other, 1] & bit1):
                rest += values[card]
    for j in range(trick_len):
        rest += values[trick[j]]
    sc.stats[X_GENERATION] += 1
    return seat, led, hi, tricks_left, rest


@njit
def solve(
    hands: np.ndarray,
    players: int,
    attack: np.ndarray,
    leader: int,
    trick: np.ndarray,
    trick_len: int,
    won_by: int,
    prev_petit: int,
    won_half: int,
    values: np.ndarray,
    petit_weight: int,
    sc: SolverScratch,
    alpha: int = -INFINITE,
    beta: int = INFINITE,
) -> int:
    """The attack's value with perfect play on both sides: ``won_half`` plus its value from here.

    Parameters
    ----------
    hands : uint64[players, 2]
        Every seat's cards; the seats yet to play to the trick hold one card more than the
        others, and every hand runs out together.
    players : int
        3, 4 or 5.
    attack : int64[players]
        1 for the attack's seats, 0 for the defence's.
    leader : int
        Seat that led (or leads) the trick in progress.
    trick : int64[players]
        Cards played to the trick so far, in play order from ``leader``.
    trick_len : int
        How many (0 … players - 1).
    won_by : int
        Sides that won a trick before (bit 0 ``WON_BY_ATTACK``, bit 1 ``WON_BY_DEFENCE``).
    prev_petit : int
        Side that won the previous trick if it held the Petit, else ``SIDE_NONE``
        (``count[S_PREV_PETIT]`` and ``count[S_PREV_WINNER]``): the petit au bout of the
        Excuse's chelem exception.
    won_half : int
        The attack's value won before (added to the result).
    values : int64[78]
        Each card's value, in half points (``HALF_POINTS`` for card points), none negative.
    petit_weight : int
        Added for a petit au bout of the attack, taken off for one of the defence.
    sc : SolverScratch
    alpha, beta : int
        Search window: a result at or below ``alpha`` is an upper bound of the value, one at
        or above ``beta`` a lower bound (a null window ``beta = alpha + 1`` asks "above
        ``alpha``?" fastest); the full window by default.

    Returns
    -------
    int
        The value (half points with the default ``values``).
    """
    seat, led, hi, tricks_left, rest = _start(sc, hands, players, leader, trick, trick_len, values)
    if tricks_left == 0:
        return won_half
    _set_node(sc, 0, leader, trick_len, led, hi, won_by, prev_petit, tricks_left, rest)
    return won_half + _search(sc, players, attack, values, petit_weight, 0, alpha - won_half, beta - won_half)


@njit
def card_values(
    hands: np.ndarray,
    players: int,
    attack: np.ndarray,
    leader: int,
    trick: np.ndarray,
    trick_len: int,
    won_by: int,
    prev_petit: int,
    values: np.ndarray,
    petit_weight: int,
    sc: SolverScratch,
    out: np.ndarray,
) -> int:
    """The attack's value from here after each card the seat to play may play.

    The arguments are those of ``solve``. ``out`` (int64[78]) receives, for each legal card,
    the exact value to the attack (from the trick in progress on) when the seat plays it
    and both sides play perfectly after; ``NO_VALUE`` for every other card. Equivalent
    cards share one search. Returns the number of legal cards.
    """
    seat, led, hi, tricks_left, rest = _start(sc, hands, players, leader, trick, trick_len, values)
    for card in range(N_CARDS):
        out[card] = NO_VALUE
    if tricks_left == 0:
        return 0
    legal0, legal1 = legal_set(sc.hands[seat, 0], sc.hands[seat, 1], led, hi)
    n = _gen_moves(sc, 0, players, seat, legal0, legal1, trick_len, tricks_left, values)
    n_legal = 0
    for card in range(N_CARDS):
        bit0, bit1 = card_bit(card)
        if (legal0 & bit0) or (legal1 & bit1):
            out[card] = sc.head[card]  # the searched card standing for it, until the values come
            n_legal += 1
    for i in range(n):
        card = sc.moves[0, i]
        bit0, bit1 = card_bit(card)
        sc.hands[seat, 0] ^= bit0
        sc.hands[seat, 1] ^= bit1
        sc.trick[tricks_left, trick_len] = card
        next_led, next_hi = trick_after(led, hi, card)
        if trick_len + 1 < players:
            _set_node(sc, 1, leader, trick_len + 1, next_led, next_hi, won_by, prev_petit, tricks_left, rest)
            value = _search(sc, players, attack, values, petit_weight, 1, -INFINITE, INFINITE)
        else:
            value, winner, petit_side, spent = _score_trick(
                sc, players, attack, values, petit_weight, leader, won_by, prev_petit, tricks_left
            )
            if tricks_left > 1:
                won = WON_BY_ATTACK if attack[winner] == 1 else WON_BY_DEFENCE
                _set_node(sc, 1, winner, 0, -1, 0, won_by | won, petit_side, tricks_left - 1, rest - spent)
                value += _search(sc, players, attack, values, petit_weight, 1, -INFINITE, INFINITE)
        sc.hands[seat, 0] ^= bit0
        sc.hands[seat, 1] ^= bit1
        sc.scores[0, i] = value
    for card in range(N_CARDS):
        if out[card] != NO_VALUE:
            for i in range(n):
                if sc.moves[0, i] == out[card]:
                    out[card] = sc.scores[0, i]
                    break
    return n_legal
