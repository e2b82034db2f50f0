"""One whole deal: deal → petit sec → bid → chien/écart → announce → play → count → score.

``play_deal`` writes one record row (``rec``, int64[N_REC], columns R_*) and a log of
the decisions (``log``, int64[N_LOG], slots L_*) from which traces are written. The
record columns are described for users in ``tarotsim.run.records``.

The play is built on steps that ``tests/test_no_peeking.py`` drives too, so the tests play
the same loop as the simulator:

- ``take_contract``: the taker's side, the call (5 players), the chien and the écart, the
  count's start, the chelem announcement and the first leader;
- ``show_poignee``: before a seat's first card, the poignée it shows;
- ``play_card``: the seat's legal cards (``rules.legal_play``) → its policy's choice →
  ``put_card``, which plays it (the hand, the cards played, the voids it reveals, the
  trick so far);
- ``end_trick``: the count of the trick (``count.close_trick``); its winner leads the next.

The trick in play, and what the play has shown so far, live in ``tb.trick`` and ``info``
(``kernels.state``), kept by ``put_card`` and ``end_trick``.
"""

from __future__ import annotations

import numpy as np

from tarotsim._jit import njit
from tarotsim.cards import (
    EXCUSE,
    EXCUSE_BIT,
    HALF_POINTS,
    KINGS_MASK,
    N_CARDS,
    NO_SUIT,
    PETIT,
    PETIT_BIT,
    TRUMP_21_BIT,
    TRUMPS_MASK,
)
from tarotsim.kernels.bits import ZERO, popcount
from tarotsim.kernels.chavey import distribution_points, hand_points
from tarotsim.kernels.count import close_trick, start_count
from tarotsim.kernels.deal import cut_pack, deal_pack, deal_packets, is_petit_sec, shuffle_pack
from tarotsim.kernels.policies.announce import announces_chelem, poignee_cards, poignee_choice
from tarotsim.kernels.policies.bidding import wished_contract
from tarotsim.kernels.policies.call import called_card
from tarotsim.kernels.policies.ecart import choose_ecart
from tarotsim.kernels.policies.play import choose_card
from tarotsim.kernels.rng import seed_stream
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
from tarotsim.kernels.score import (
    ATTACK,
    DEFENCE,
    GARDE,
    GARDE_SANS,
    PASS,
    POIGNEE_BONUS,
    SIDE_NONE,
    per_defender,
    result,
    settle,
)
from tarotsim.kernels.state import (
    BOUT_HELD_21,
    BOUT_HELD_EXCUSE,
    BOUT_HELD_PETIT,
    C_CHIEN,
    C_DEALING,
    C_FORCED_CONTRACT,
    C_FORCED_TAKER,
    C_HAND,
    C_PLAYERS,
    DEALING_UNSHUFFLED,
    FIVE_PLAYERS,
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
    L_BIDS,
    L_LEADERS,
    L_PLAYS,
    L_POIGNEE,
    L_WINNERS,
    MAX_SEATS,
    N_INFO,
    N_REC,
    P_ECART_POLICY,
    P_PLAY_ATTACK,
    P_PLAY_DEFENCE,
    P_POIGNEE_POLICY,
    R_ATTACK_BOUTS,
    R_ATTACK_HALF,
    R_ATTACK_TRICKS,
    R_BOUTS_HELD,
    R_CALLED_CARD,
    R_CHELEM,
    R_CHELEM_ANNOUNCED,
    R_CONTRACT,
    R_DEALER,
    R_HAND_POINTS,
    R_HAND_POINTS_DIST,
    R_MADE,
    R_MARGIN,
    R_N_POIGNEES,
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
    R_THROWN_IN,
    S_ATTACK_TRICKS,
    S_EXCHANGE,
    S_PETIT_SIDE,
    SEQUENCE_DEALS,
    THROWN_ALL_PASS,
    THROWN_NONE,
    THROWN_PETIT_SEC,
    DealState,
    seat_slot,
)


@njit(inline="always")
def _reset_record(rec: np.ndarray, dealer: int) -> None:
    for i in range(N_REC):
        rec[i] = 0
    rec[R_DEALER] = dealer
    rec[R_TAKER] = -1
    rec[R_PETIT_AU_BOUT] = SIDE_NONE
    rec[R_CHELEM] = SIDE_NONE
    rec[R_PARTNER] = -1
    rec[R_CALLED_CARD] = -1


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
def _record_hand(tb: DealState, cfg: np.ndarray, rec: np.ndarray, seat: int) -> None:
    """Record the features of ``seat``'s hand as dealt (trumps, bouts, Kings, Chavey count)
    and of its auction: its turn to speak, the highest contract the other seats wish to bid."""
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
            others = max(others, wished_contract(tb.dealt[other, 0], tb.dealt[other, 1], cfg, other))
    rec[R_OTHERS_BID] = others
    rec[R_SPEAKER_POSITION] = (seat - tb.info[I_DEALER] - 1) % players


@njit(_nrt=False)
def _bid(tb: DealState, cfg: np.ndarray, log: np.ndarray, players: int, dealer: int) -> tuple[int, int]:
    """Each seat speaks once from (dealer + 1) % n; returns (taker, contract), (-1, PASS) if all pass."""
    first = (dealer + 1) % players
    taker = -1
    contract = PASS
    forced = cfg[C_FORCED_CONTRACT]
    for j in range(players):
        seat = (first + j) % players
        if forced > PASS:
            wish = forced if seat == cfg[C_FORCED_TAKER] else PASS
        else:
            wish = wished_contract(tb.dealt[seat, 0], tb.dealt[seat, 1], cfg, seat)
        if wish > contract:
            contract = wish
            taker = seat
            log[L_BIDS + j] = wish
        else:
            log[L_BIDS + j] = PASS
    return taker, contract


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
def play_card(tb: DealState, cfg: np.ndarray, seat: int) -> int:
    """One card of the game: ``seat``'s legal cards, the choice of its policy for its side, played;
    returns the card."""
    legal0, legal1 = legal_now(tb, seat)
    policy = cfg[seat_slot(seat, P_PLAY_ATTACK if tb.attack[seat] else P_PLAY_DEFENCE)]
    card = choose_card(policy, seat, legal0, legal1, tb, cfg)
    put_card(tb, seat, card)
    return card


@njit(inline="always")
def end_trick(tb: DealState, cfg: np.ndarray) -> int:
    """Count the trick just completed (``count.close_trick``; ``put_card`` found its winner)
    and start the next, led by the seat that takes it; returns that seat."""
    info = tb.info
    t = info[I_TRICK]
    winner = close_trick(
        tb.trick,
        cfg[C_PLAYERS],
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


@njit(_nrt=False)
def play_deal(
    deal: int, key: np.ndarray, cfg: np.ndarray, tb: DealState, rec: np.ndarray, log: np.ndarray
) -> None:
    """Play deal number ``deal`` of the run whose key is ``key`` (uint64[4]) into ``rec`` and ``log``."""
    players = cfg[C_PLAYERS]
    hand_size = cfg[C_HAND]
    dealer = deal % players
    info = tb.info

    seed_stream(tb.rng, key, deal)
    if cfg[C_DEALING] == DEALING_UNSHUFFLED and deal % SEQUENCE_DEALS != 0:
        cut_pack(tb.rng, tb.pack)
        deal_packets(
            tb.rng, tb.pack, tb.dealt, tb.chien, players, hand_size, cfg[C_CHIEN], (dealer + 1) % players
        )
    else:
        shuffle_pack(tb.rng, tb.pack)
        deal_pack(tb.pack, tb.dealt, tb.chien, players, hand_size)
    _reset_record(rec, dealer)
    reset_table(tb, players, dealer)
    if cfg[C_FORCED_CONTRACT] > PASS:  # a sweep knows its taking seat's hand even when the deal is thrown in
        _record_hand(tb, cfg, rec, cfg[C_FORCED_TAKER])

    for seat in range(players):
        if is_petit_sec(tb.dealt[seat, 1]):
            rec[R_THROWN_IN] = THROWN_PETIT_SEC
            return

    taker, contract = _bid(tb, cfg, log, players, dealer)
    if taker < 0:
        rec[R_THROWN_IN] = THROWN_ALL_PASS
        return
    rec[R_TAKER] = taker
    rec[R_CONTRACT] = contract
    _record_hand(tb, cfg, rec, taker)
    take_contract(tb, cfg, taker, contract)
    rec[R_CHELEM_ANNOUNCED] = info[I_CHELEM_ANNOUNCED]

    poignee_points = 0
    for t in range(hand_size):
        seat = info[I_LEADER]
        log[L_LEADERS + t] = seat
        for j in range(players):
            if t == 0:
                size = show_poignee(tb, cfg, seat)
                log[L_POIGNEE + seat] = size
                if size > 0:
                    poignee_points += POIGNEE_BONUS[size]
                    rec[R_N_POIGNEES] += 1
            log[L_PLAYS + t * MAX_SEATS + j] = play_card(tb, cfg, seat)
            seat = seat + 1 if seat + 1 < players else 0
        log[L_WINNERS + t] = end_trick(tb, cfg)

    count = tb.count
    pile = tb.pile
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
    d = per_defender(contract, made, margin, petit_side, poignee_points, chelem_announced, chelem)
    settle(tb.scores, players, taker, info[I_PARTNER], d)

    rec[R_ATTACK_HALF] = attack_half
    rec[R_ATTACK_BOUTS] = attack_bouts
    rec[R_MADE] = 1 if made else 0
    rec[R_MARGIN] = margin
    rec[R_PETIT_AU_BOUT] = petit_side
    rec[R_CHELEM] = chelem
    rec[R_POIGNEE_POINTS] = poignee_points
    rec[R_ATTACK_TRICKS] = attack_tricks
    rec[R_PARTNER] = info[I_PARTNER]
    rec[R_CALLED_CARD] = info[I_CALLED]
    rec[R_PER_DEFENDER] = d
    for seat in range(players):
        rec[R_SCORE + seat] = tb.scores[seat]


@njit(_nrt=False)
def _put_set(pack: np.ndarray, top: int, word0: np.uint64, word1: np.uint64) -> int:
    """Put the cards of a set on the pack from position ``top``, in id order; returns the next position."""
    for card in range(N_CARDS):
        bit0, bit1 = card_bit(card)
        if (word0 & bit0) or (word1 & bit1):
            pack[top] = card
            top += 1
    return top


@njit(_nrt=False)
def gather_pack(tb: DealState, cfg: np.ndarray, rec: np.ndarray, log: np.ndarray) -> None:
    """Gather the cards of the deal just played into ``tb.pack`` for the next, unshuffled deal.

    A played deal: the tricks in the order they were played, each trick's cards in play
    order, then the écart (Prise, Garde) or the chien (Garde sans, Garde contre) in id
    order. A thrown-in deal: each hand as dealt, in id order (players sort their hands),
    from the seat right of the dealer round the table, then the chien.
    """
    players = cfg[C_PLAYERS]
    hand_size = cfg[C_HAND]
    top = 0
    if rec[R_THROWN_IN] == THROWN_NONE:
        for t in range(hand_size):
            for j in range(players):
                tb.pack[top] = log[L_PLAYS + t * MAX_SEATS + j]
                top += 1
        if rec[R_CONTRACT] <= GARDE:
            _put_set(tb.pack, top, tb.ecart[0], tb.ecart[1])
        else:
            _put_set(tb.pack, top, tb.chien[0], tb.chien[1])
    else:
        first = (rec[R_DEALER] + 1) % players
        for j in range(players):
            seat = (first + j) % players
            top = _put_set(tb.pack, top, tb.dealt[seat, 0], tb.dealt[seat, 1])
        _put_set(tb.pack, top, tb.chien[0], tb.chien[1])
