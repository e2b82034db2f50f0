"""The rule steps of a deal after the auction, on the table state ``DealState``: the steps
that the deal machine (``players.kernels.machine``: every run, game and playout) and the tests drive, so
every one plays the same rules. A step never makes a decision and imports no policy: it
applies the choice a seat's policy made (the machine asks it), and says what the
rules allow (``legal_now``).

- ``reset_table``: the hands as dealt (``tb.dealt``), nothing played;
- ``name_taker``: the taker and its contract; ``call_partner``: five players, the card the
  taker called and the seat that holds it (its side, secret until the card is played);
- ``take_chien``: Prise, Garde: the chien turned face up and into the taker's hand;
  ``lay_ecart``: the écart the taker chose leaves its hand, and the count starts;
  ``set_chien_aside``: Garde sans, Garde contre: the count starts, the chien unseen;
- ``start_play``: the chelem announcement and the first trick;
- ``put_poignee``: before a seat's first card, the cards of the poignée it shows;
- ``legal_now`` then ``put_card``: the seat's legal cards (``rules.legal_play``), and the
  card played (the hand, the cards played, the voids it reveals, the trick so far, the
  partner once the called card is down);
- ``end_trick``: the count of the trick (``count.close_trick``), the side that won it;
  its winner leads the next;
- ``settle_deal``: after the last trick, the result and every seat's score
  (``poignee_points``: the bonuses of the poignées shown).

The trick in play, and what the play has shown so far, live in ``tb.trick`` and ``info``
(``engine.kernels.state``), kept by ``put_card`` and ``end_trick``; a policy sees them through
its ``engine.kernels.view.SeatView``.
"""

from __future__ import annotations

import numpy as np

from tarotsim._jit import njit
from tarotsim.engine.cards import EXCUSE, EXCUSE_BIT, HALF_POINTS, NO_SUIT, PETIT, PETIT_BIT, TRUMPS_MASK
from tarotsim.engine.kernels.bits import ZERO, popcount, take_lowest
from tarotsim.engine.kernels.count import close_trick, start_count
from tarotsim.engine.kernels.rules import (
    NEVER_WINS,
    bouts,
    card_bit,
    half_points,
    legal_play,
    reveal_voids,
    trick_after,
    winning_key,
)
from tarotsim.engine.kernels.score import (
    ATTACK,
    DEFENCE,
    GARDE_SANS,
    PASS,
    POIGNEE_BONUS,
    POIGNEE_THRESHOLDS,
    SIDE_NONE,
    per_defender,
    poignee_size,
    result,
    settle,
)
from tarotsim.engine.kernels.state import (
    C_FORCED_CONTRACT,
    C_FORCED_TAKER,
    C_HAND,
    C_PLAYERS,
    H_LEADER,
    H_WINNER,
    I_CALLED,
    I_CHELEM_ANNOUNCED,
    I_CHIEN_SHOWN,
    I_CONTRACT,
    I_DEALER,
    I_HI_TRUMP,
    I_LEADER,
    I_LED,
    I_PARTNER,
    I_PARTNER_KNOWN,
    I_PETIT_SEAT,
    I_PLAYERS,
    I_TAKER,
    I_TRICK,
    I_TRICK_HALF,
    I_TRICK_LEN,
    I_TRICKS_WON_BY,
    I_VOIDS,
    I_WIN_CARD,
    I_WIN_SEAT,
    MAX_SEATS,
    N_INFO,
    S_ATTACK_TRICKS,
    S_EXCHANGE,
    S_PETIT_SIDE,
    WON_BY_ATTACK,
    WON_BY_DEFENCE,
    DealState,
)


@njit(inline="always")
def forced_bids(tb: DealState, cfg: np.ndarray, players: int, dealer: int) -> None:
    """The words of a sweep's forced taker and contract (``C_FORCED_*``) into ``tb.bids``
    (speaking order, from the dealer's right): the forced seat says the contract, every other
    seat passes."""
    first = (dealer + 1) % players
    for j in range(players):
        tb.bids[j] = cfg[C_FORCED_CONTRACT] if (first + j) % players == cfg[C_FORCED_TAKER] else PASS


@njit(inline="always")
def reset_table(tb: DealState, players: int, dealer: int) -> None:
    """Make ``tb`` ready for a deal whose hands are in ``tb.dealt``: hands as dealt, nothing played."""
    for i in range(N_INFO):
        tb.info[i] = 0
    tb.info[I_DEALER] = dealer
    tb.info[I_TAKER] = -1
    tb.info[I_PARTNER] = -1
    tb.info[I_CALLED] = -1
    tb.info[I_PLAYERS] = players
    for seat in range(MAX_SEATS):
        tb.attack[seat] = 0
        tb.shown[seat, 0] = ZERO
        tb.shown[seat, 1] = ZERO
        tb.hands[seat, 0] = tb.dealt[seat, 0]
        tb.hands[seat, 1] = tb.dealt[seat, 1]
        tb.scores[seat] = 0
        tb.bids[seat] = 0
    tb.played[0] = ZERO
    tb.played[1] = ZERO
    tb.ecart[0] = ZERO
    tb.ecart[1] = ZERO


@njit(inline="always")
def name_taker(tb: DealState, taker: int, contract: int) -> None:
    """``taker`` takes ``contract``: it plays for the attack."""
    tb.info[I_TAKER] = taker
    tb.info[I_CONTRACT] = contract
    tb.attack[taker] = 1


@njit(inline="always")
def call_partner(tb: DealState, players: int, taker: int, called: int) -> None:
    """Five players: the taker calls the card ``called``; its holder (if another player) is
    the secret partner (its side, ``tb.attack``; public once the card is played)."""
    tb.info[I_CALLED] = called
    bit0, bit1 = card_bit(called)
    for seat in range(players):
        if seat != taker and (tb.dealt[seat, 0] & bit0 or tb.dealt[seat, 1] & bit1):
            tb.attack[seat] = 1


@njit(inline="always")
def start_trick(info: np.ndarray, leader: int, t: int) -> None:
    """Trick number ``t``, led by ``leader``, begins: nothing played to it yet."""
    info[I_LEADER] = leader
    info[I_TRICK] = t
    info[I_TRICK_LEN] = 0
    info[I_LED] = NO_SUIT
    info[I_HI_TRUMP] = 0
    info[I_WIN_SEAT] = -1
    info[I_WIN_CARD] = NEVER_WINS
    info[I_TRICK_HALF] = 0
    info[I_PETIT_SEAT] = -1


@njit(inline="always")
def take_chien(tb: DealState, taker: int) -> None:
    """Prise, Garde: the chien is turned face up and goes into the taker's hand."""
    tb.info[I_CHIEN_SHOWN] = 1
    tb.hands[taker, 0] |= tb.chien[0]
    tb.hands[taker, 1] |= tb.chien[1]


@njit(inline="always")
def lay_ecart(tb: DealState, taker: int, ecart0: np.uint64, ecart1: np.uint64) -> None:
    """The taker lays its écart ``(ecart0, ecart1)`` aside (a legal one: docs/rules.md §4); the
    count starts with it on the attack's side."""
    tb.ecart[0] = ecart0
    tb.ecart[1] = ecart1
    tb.hands[taker, 0] &= ~ecart0
    tb.hands[taker, 1] &= ~ecart1
    start_count(tb.count, tb.pile, ecart0, ecart1)


@njit(inline="always")
def set_chien_aside(tb: DealState, contract: int) -> None:
    """Garde sans, Garde contre: the chien stays unseen; the count starts with it on the
    attack's side at Garde sans, on nobody's at Garde contre."""
    if contract == GARDE_SANS:
        start_count(tb.count, tb.pile, tb.chien[0], tb.chien[1])
    else:
        start_count(tb.count, tb.pile, ZERO, ZERO)


@njit(inline="always")
def start_play(tb: DealState, players: int, taker: int, chelem_announced: bool) -> None:
    """The play begins: the first trick is led by the taker when it announced a chelem,
    else by the seat on the dealer's right."""
    info = tb.info
    info[I_CHELEM_ANNOUNCED] = 1 if chelem_announced else 0
    start_trick(info, taker if chelem_announced else (info[I_DEALER] + 1) % players, 0)


@njit(inline="always")
def poignee_cards(word1: np.uint64, size: int, players: int) -> np.uint64:
    """Word 1 of the cards shown for a poignée of ``size``: exactly the threshold number.

    The lowest trumps but the Petit; the Petit only when the other trumps fall short;
    the Excuse only when the trumps alone fall one short (all of them are then shown).
    """
    needed = POIGNEE_THRESHOLDS[players - 3, size - 1]
    trumps = word1 & TRUMPS_MASK
    if popcount(trumps & ~PETIT_BIT) >= needed:
        return take_lowest(trumps & ~PETIT_BIT, needed)
    if popcount(trumps) >= needed:
        return take_lowest(trumps, needed)
    return trumps | EXCUSE_BIT


@njit(inline="always")
def put_poignee(tb: DealState, seat: int, size: int, players: int) -> None:
    """Before its first card, ``seat`` shows a poignée of ``size`` (0: none)."""
    if size > 0:
        tb.shown[seat, 1] = poignee_cards(tb.hands[seat, 1], size, players)


@njit(inline="always")
def shown_size(tb: DealState, seat: int, players: int) -> int:
    """The size of the poignée ``seat`` showed (0: none), from its cards shown."""
    shown1 = tb.shown[seat, 1]
    if not shown1:
        return 0
    return poignee_size(popcount(shown1 & TRUMPS_MASK), (shown1 & EXCUSE_BIT) != 0, players)


@njit(inline="always")
def poignee_points(tb: DealState, players: int) -> int:
    """The bonuses (points) of the poignées shown so far (``tb.shown``, public)."""
    points = 0
    for seat in range(players):
        points += POIGNEE_BONUS[shown_size(tb, seat, players)]
    return points


@njit(inline="always")
def legal_now(tb: DealState, seat: int) -> tuple[np.uint64, np.uint64]:
    """The cards ``seat`` may play to the trick in play (the first-lead rule included)."""
    info = tb.info
    first_lead = info[I_TRICK] == 0 and info[I_TRICK_LEN] == 0
    return legal_play(
        tb.hands[seat, 0], tb.hands[seat, 1], info[I_LED], info[I_HI_TRUMP], info[I_CALLED], first_lead
    )


@njit(inline="always")
def put_card(tb: DealState, seat: int, card: int) -> None:
    """``seat`` plays ``card`` to the trick: out of its hand, into the cards played and the
    trick, and what it shows recorded (``state``: the voids, the trick's winner, worth and
    Petit, the partner once the called card is down)."""
    info = tb.info
    bit0, bit1 = card_bit(card)
    tb.hands[seat, 0] ^= bit0
    tb.hands[seat, 1] ^= bit1
    tb.played[0] |= bit0
    tb.played[1] |= bit1
    info[I_VOIDS] = reveal_voids(info[I_VOIDS], seat, info[I_LED], card)
    tb.trick[info[I_TRICK_LEN]] = card
    info[I_TRICK_LEN] += 1
    if card == info[I_CALLED]:
        info[I_PARTNER_KNOWN] = 1
        if seat != info[I_TAKER]:
            info[I_PARTNER] = seat
    led, info[I_HI_TRUMP] = trick_after(info[I_LED], info[I_HI_TRUMP], card)
    info[I_LED] = led
    if winning_key(card, led) > info[I_WIN_CARD]:  # a card's key is its id (rules.winning_key)
        info[I_WIN_CARD] = card
        info[I_WIN_SEAT] = seat
    if card != EXCUSE:
        info[I_TRICK_HALF] += HALF_POINTS[card]
    if card == PETIT:
        info[I_PETIT_SEAT] = seat


@njit(inline="always")
def end_trick(tb: DealState, cfg: np.ndarray) -> int:
    """Count the trick just completed (``count.close_trick``; ``put_card`` found its winner),
    add it to ``tb.history``, note the side that took it as the sides are known now
    (``I_TRICKS_WON_BY``), and start the next, led by the seat that takes it; returns that
    seat (after the last trick, ``info[I_LEADER]`` keeps it)."""
    info = tb.info
    t = info[I_TRICK]
    players = cfg[C_PLAYERS]
    for j in range(players):
        tb.history[t, j] = tb.trick[j]
    tb.history[t, H_LEADER] = info[I_LEADER]
    tb.history[t, H_WINNER] = info[I_WIN_SEAT]
    winner = close_trick(
        tb.trick,
        players,
        info[I_LEADER],
        info[I_WIN_SEAT],
        tb.attack,
        t,
        cfg[C_HAND],
        tb.count,
        tb.pile,
    )
    known_attack = winner == info[I_TAKER] or winner == info[I_PARTNER]
    info[I_TRICKS_WON_BY] |= WON_BY_ATTACK if known_attack else WON_BY_DEFENCE
    start_trick(info, winner, t + 1)
    return winner


@njit(inline="always")
def settle_deal(
    tb: DealState, cfg: np.ndarray, poignee_points: int
) -> tuple[int, int, int, int, bool, int, int, int]:
    """Score the deal whose last trick ``end_trick`` has counted: each seat's score into
    ``tb.scores`` (``score.settle``).

    ``poignee_points`` is the sum of the poignée bonuses shown. Returns the attack's half
    points (écart or chien included), its bouts and its tricks, the side of the Petit au
    bout (``SIDE_NONE`` when none), whether the contract is made, its margin (points), the
    side that made a chelem (``SIDE_NONE`` when none) and the score per defender.
    """
    info = tb.info
    count = tb.count
    pile = tb.pile
    hand_size = cfg[C_HAND]
    attack_half = half_points(pile[0], pile[1]) + count[S_EXCHANGE]
    attack_bouts = bouts(pile[1])
    attack_tricks = count[S_ATTACK_TRICKS]
    petit_side = count[S_PETIT_SIDE]
    chelem = SIDE_NONE
    if attack_tricks == hand_size:
        chelem = ATTACK
    elif attack_tricks == 0:
        chelem = DEFENCE
    made, margin = result(attack_half, attack_bouts)
    chelem_announced = info[I_CHELEM_ANNOUNCED] == 1
    d = per_defender(info[I_CONTRACT], made, margin, petit_side, poignee_points, chelem_announced, chelem)
    settle(tb.scores, cfg[C_PLAYERS], info[I_TAKER], info[I_PARTNER], d)
    return attack_half, attack_bouts, attack_tricks, petit_side, made, margin, chelem, d
