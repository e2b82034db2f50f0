"""The steps of a deal after the auction, on the table state ``DealState``: the game's own
steps, which ``game.play_deal``, the search players' playouts and ``tests/test_no_peeking.py``
all drive, so every one plays the same rules.

- ``reset_table``: the hands as dealt (``tb.dealt``), nothing played;
- ``take_contract``: the taker's side, the call (5 players), the chien and the écart, the
  count's start, the chelem announcement and the first leader;
- ``show_poignee``: before a seat's first card, the poignée it shows;
- ``legal_now`` then ``put_card``: the seat's legal cards (``rules.legal_play``), and the
  card played (the hand, the cards played, the voids it reveals, the trick so far);
- ``end_trick``: the count of the trick (``count.close_trick``); its winner leads the next;
- ``settle_deal``: after the last trick, the result and every seat's score.

No step chooses a card: card play is ``game.play_card`` (the policies), so that a policy
may itself play deals out with these steps. The trick in play, and what the play has shown
so far, live in ``tb.trick`` and ``info`` (``kernels.state``), kept by ``put_card`` and
``end_trick``.
"""

from __future__ import annotations

import numpy as np

from tarotsim._jit import njit
from tarotsim.cards import EXCUSE, HALF_POINTS, NO_SUIT, PETIT
from tarotsim.kernels.bits import ZERO
from tarotsim.kernels.count import close_trick, start_count
from tarotsim.kernels.policies.announce import announces_chelem, poignee_cards, poignee_choice
from tarotsim.kernels.policies.call import called_card
from tarotsim.kernels.policies.ecart import choose_ecart
from tarotsim.kernels.rules import (
    NEVER_WINS,
    bouts,
    card_bit,
    half_points,
    legal_play,
    reveal_voids,
    trick_after,
    winning_key,
)
from tarotsim.kernels.score import ATTACK, DEFENCE, GARDE, GARDE_SANS, SIDE_NONE, per_defender, result, settle
from tarotsim.kernels.state import (
    C_CHIEN,
    C_HAND,
    C_PLAYERS,
    FIVE_PLAYERS,
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
    I_VOIDS,
    I_WIN_CARD,
    I_WIN_SEAT,
    MAX_SEATS,
    N_INFO,
    P_ECART_POLICY,
    P_POIGNEE_POLICY,
    S_ATTACK_TRICKS,
    S_EXCHANGE,
    S_PETIT_SIDE,
    DealState,
    seat_slot,
)


@njit(_nrt=False)
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
    tb.played[0] = ZERO
    tb.played[1] = ZERO
    tb.ecart[0] = ZERO
    tb.ecart[1] = ZERO


@njit(_nrt=False)
def _call_partner(tb: DealState, players: int, taker: int) -> None:
    """Five players: the taker calls a card; its holder (if another player) is the secret partner."""
    called = called_card(tb.dealt[taker, 0])
    tb.info[I_CALLED] = called
    bit0, bit1 = card_bit(called)
    for seat in range(players):
        if seat != taker and (tb.dealt[seat, 0] & bit0 or tb.dealt[seat, 1] & bit1):
            tb.info[I_PARTNER] = seat
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


@njit(_nrt=False)
def take_contract(tb: DealState, cfg: np.ndarray, taker: int, contract: int) -> None:
    """``taker`` takes ``contract`` on the table ``reset_table`` made ready: the attack's seats
    (the call with five players), the chien and the écart, the start of the count, the
    chelem announcement, and the first trick, led by the taker when it announced a chelem."""
    players = cfg[C_PLAYERS]
    info = tb.info
    hands = tb.hands
    info[I_TAKER] = taker
    info[I_CONTRACT] = contract
    tb.attack[taker] = 1
    if players == FIVE_PLAYERS:
        _call_partner(tb, players, taker)
    if contract <= GARDE:
        info[I_CHIEN_SHOWN] = 1
        with_chien0 = hands[taker, 0] | tb.chien[0]
        with_chien1 = hands[taker, 1] | tb.chien[1]
        ecart0, ecart1 = choose_ecart(
            cfg[seat_slot(taker, P_ECART_POLICY)], with_chien0, with_chien1, cfg[C_CHIEN]
        )
        tb.ecart[0] = ecart0
        tb.ecart[1] = ecart1
        hands[taker, 0] = with_chien0 & ~ecart0
        hands[taker, 1] = with_chien1 & ~ecart1
        start_count(tb.count, tb.pile, ecart0, ecart1)
    elif contract == GARDE_SANS:
        start_count(tb.count, tb.pile, tb.chien[0], tb.chien[1])
    else:
        start_count(tb.count, tb.pile, ZERO, ZERO)
    chelem_announced = announces_chelem(cfg, taker, hands[taker, 0], hands[taker, 1])
    info[I_CHELEM_ANNOUNCED] = 1 if chelem_announced else 0
    start_trick(info, taker if chelem_announced else (info[I_DEALER] + 1) % players, 0)


@njit(inline="always")
def show_poignee(tb: DealState, cfg: np.ndarray, seat: int) -> int:
    """Before its first card, ``seat`` shows the poignée its policy chooses; returns its size (0 none)."""
    size = poignee_choice(cfg[seat_slot(seat, P_POIGNEE_POLICY)], seat, tb, cfg)
    if size > 0:
        tb.shown[seat, 1] = poignee_cards(tb.hands[seat, 1], size, cfg[C_PLAYERS])
    return size


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
    add it to ``tb.history``, and start the next, led by the seat that takes it; returns
    that seat."""
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
