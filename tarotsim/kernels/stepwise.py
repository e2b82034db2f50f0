"""A deal one decision at a time, for ``tarotsim.Game``: the same rule steps as the game
(``kernels.steps``), driven by the actions a caller applies instead of by policies.

Four entry points, so the step-by-step game costs four compiles (``kernels.vector``, which
steps many deals at once, calls them too):

- ``start``: deal (the deal ``deal`` of the run whose key is ``key``, as ``game.play_deal``
  deals it shuffled; or the hands already in ``tb.dealt`` and ``tb.chien``), then run to
  the first decision;
- ``advance``: apply one action of the seat to act, then run to the next decision;
- ``decide``: the action a seat's built-in policies (its block of ``cfg``) choose from its
  ``SeatView``, the same dispatch as ``kernels.driver`` and ``kernels.game``;
- ``run_until``: let the built-in policies decide up to a decision that belongs to the
  caller (a seat played from Python), so that only those cross into Python.

``pos`` (int64[N_POS], slots ``Q_*``) holds where the deal stands: the phase (``PH_*``),
the seat to act, the auction so far, the écart still to lay. ``legal`` (uint64[2]) gets
the legal choices of the decision: a card set (call, écart, play) or, for the bid, the
poignée and the chelem, bit ``code`` of word 0 for each legal code (a contract code; a
poignée size; 0 no, 1 yes). The écart is laid one card at a time into ``laid`` (uint64[2])
and handed to ``steps.lay_ecart`` once complete. When the deal is over, ``rec`` and
``log`` hold its record row and decision log, as ``game.play_deal`` writes them.
"""

from __future__ import annotations

import numpy as np

from tarotsim._jit import njit
from tarotsim.cards import (
    BOUTS_MASK_1,
    EXCUSE_BIT,
    KING,
    KINGS_MASK,
    N_SUIT_CARDS,
    N_SUITS,
    SUIT_LEN,
    TRUMPS_MASK,
)
from tarotsim.kernels.bits import ONE, ZERO, lowest_bit, popcount
from tarotsim.kernels.deal import is_petit_sec
from tarotsim.kernels.game import _record_hand, _reset_record, deal_shuffled, dealer_of, record_result
from tarotsim.kernels.policies.announce import announces_chelem, poignee_choice
from tarotsim.kernels.policies.bidding import choose_bid
from tarotsim.kernels.policies.call import choose_call
from tarotsim.kernels.policies.codes import BID_MONTECARLO, PLAY_PIMC
from tarotsim.kernels.policies.ecart import choose_ecart
from tarotsim.kernels.policies.play import playout_card
from tarotsim.kernels.rng import seed_stream
from tarotsim.kernels.rules import card_bit
from tarotsim.kernels.score import GARDE, GARDE_CONTRE, PASS, poignee_size
from tarotsim.kernels.state import (
    C_CHIEN,
    C_FORCED_CONTRACT,
    C_FORCED_TAKER,
    C_HAND,
    C_PLAYERS,
    FIVE_PLAYERS,
    I_CHELEM_ANNOUNCED,
    I_DEALER,
    I_LEADER,
    I_TRICK,
    I_TRICK_LEN,
    L_BIDS,
    MAX_SEATS,
    P_BID_POLICY,
    P_CHELEM_POLICY,
    P_ECART_POLICY,
    P_PLAY_ATTACK,
    P_PLAY_DEFENCE,
    P_POIGNEE_POLICY,
    R_CHELEM_ANNOUNCED,
    R_CONTRACT,
    R_TAKER,
    R_THROWN_IN,
    THROWN_ALL_PASS,
    THROWN_PETIT_SEC,
    DealState,
    seat_slot,
)
from tarotsim.kernels.steps import (
    call_partner,
    end_trick,
    forced_bids,
    lay_ecart,
    legal_now,
    name_taker,
    put_card,
    put_poignee,
    reset_table,
    set_chien_aside,
    start_play,
    take_chien,
)
from tarotsim.kernels.view import SeatView, seat_view

PH_BID = 0
PH_CALL = 1
PH_ECART = 2
PH_POIGNEE = 3
PH_CHELEM = 4
PH_PLAY = 5
PH_OVER = 6

Q_PHASE = 0
Q_SEAT = 1  # the seat to act, -1 when over
Q_SPOKEN = 2  # seats that have spoken in the auction
Q_TAKER = 3  # the highest bidder so far, -1 none
Q_CONTRACT = 4  # the highest bid so far (PASS: none)
Q_ECART_LEFT = 5  # cards of the écart still to lay
Q_POIGNEE_ASKED = 6  # bit per seat: asked its poignée (or had none to show)
Q_WISH_0 = 7  # what each seat bid or would have bid (its wish), for the record
N_POS = Q_WISH_0 + MAX_SEATS


@njit(inline="always")
def _ecart_legal(hand0: np.uint64, hand1: np.uint64, left: int) -> tuple[np.uint64, np.uint64]:
    """The cards that may go to an écart with ``left`` cards still to lay (docs/rules.md §4): no
    King, no bout; a trump only when the suit cards left cannot make up the écart."""
    suit = hand0 & ~KINGS_MASK
    if popcount(suit) >= left:
        return suit, ZERO
    return suit, hand1 & TRUMPS_MASK & ~BOUTS_MASK_1


@njit(inline="always")
def _callable(dealt0: np.uint64) -> np.uint64:
    """The cards a taker holding ``dealt0`` (its suit cards as dealt) may call (docs/rules.md §3):
    any King; the cards of a lower rank only when it holds all four of every rank above."""
    allowed = ZERO
    for rank in range(KING, -1, -1):
        held = 0
        for suit in range(N_SUITS):
            bit = ONE << np.uint64(SUIT_LEN * suit + rank)
            allowed |= bit
            if dealt0 & bit:
                held += 1
        if held < N_SUITS:
            break
    return allowed


@njit(inline="always")
def _codes_upto(first: int, last: int) -> np.uint64:
    """Bits ``first`` … ``last`` of a word."""
    word = ZERO
    for code in range(first, last + 1):
        word |= ONE << np.uint64(code)
    return word


@njit(_nrt=False)
def _finish(tb: DealState, cfg: np.ndarray, pos: np.ndarray, rec: np.ndarray, log: np.ndarray) -> None:
    """The last trick is counted: score the deal and write its record (as ``game.play_deal``)."""
    record_result(tb, cfg, rec, log)
    pos[Q_PHASE] = PH_OVER
    pos[Q_SEAT] = -1


@njit(_nrt=False)
def _to_play(
    tb: DealState, cfg: np.ndarray, pos: np.ndarray, rec: np.ndarray, log: np.ndarray, legal: np.ndarray
) -> None:
    """Run the play on to the next decision (a poignée, a card), or to the end of the deal."""
    info = tb.info
    players = cfg[C_PLAYERS]
    while True:
        if info[I_TRICK_LEN] == players:
            end_trick(tb, cfg)
            if info[I_TRICK] == cfg[C_HAND]:
                _finish(tb, cfg, pos, rec, log)
                return
            continue
        seat = info[I_LEADER] + info[I_TRICK_LEN]
        seat = seat - players if seat >= players else seat
        pos[Q_SEAT] = seat
        if info[I_TRICK] == 0 and not (pos[Q_POIGNEE_ASKED] >> seat) & 1:
            pos[Q_POIGNEE_ASKED] |= 1 << seat
            word1 = tb.hands[seat, 1]
            largest = poignee_size(popcount(word1 & TRUMPS_MASK), (word1 & EXCUSE_BIT) != 0, players)
            if largest > 0:
                pos[Q_PHASE] = PH_POIGNEE
                legal[0] = _codes_upto(0, largest)
                legal[1] = ZERO
                return
        pos[Q_PHASE] = PH_PLAY
        legal[0], legal[1] = legal_now(tb, seat)
        return


@njit(_nrt=False)
def _after_call(tb: DealState, cfg: np.ndarray, pos: np.ndarray, legal: np.ndarray) -> None:
    """The taker has called (or needs not): the chien to its hand and the écart, or the chien aside."""
    taker = pos[Q_TAKER]
    pos[Q_SEAT] = taker
    if pos[Q_CONTRACT] <= GARDE:
        take_chien(tb, taker)
        pos[Q_ECART_LEFT] = cfg[C_CHIEN]
        pos[Q_PHASE] = PH_ECART
        legal[0], legal[1] = _ecart_legal(tb.hands[taker, 0], tb.hands[taker, 1], cfg[C_CHIEN])
    else:
        set_chien_aside(tb, pos[Q_CONTRACT])
        pos[Q_PHASE] = PH_CHELEM
        legal[0] = _codes_upto(0, 1)
        legal[1] = ZERO


@njit(inline="always")
def _auction_over(
    tb: DealState, cfg: np.ndarray, pos: np.ndarray, rec: np.ndarray, log: np.ndarray, legal: np.ndarray
) -> None:
    """Every seat has spoken (``tb.bids``, the taker and contract in ``pos``): log the words,
    then the deal is thrown in (all passed) or the taker calls (five players) or takes."""
    players = cfg[C_PLAYERS]
    for k in range(players):
        log[L_BIDS + k] = tb.bids[k]
    taker = pos[Q_TAKER]
    if taker < 0:
        rec[R_THROWN_IN] = THROWN_ALL_PASS
        pos[Q_PHASE] = PH_OVER
        pos[Q_SEAT] = -1
        return
    rec[R_TAKER] = taker
    rec[R_CONTRACT] = pos[Q_CONTRACT]
    _record_hand(tb, cfg, rec, taker, pos[Q_WISH_0 : Q_WISH_0 + MAX_SEATS])
    name_taker(tb, taker, pos[Q_CONTRACT])
    if players == FIVE_PLAYERS:
        pos[Q_PHASE] = PH_CALL
        pos[Q_SEAT] = taker
        legal[0] = _callable(tb.dealt[taker, 0])
        return
    _after_call(tb, cfg, pos, legal)


@njit(_nrt=False)
def _forced_auction(
    tb: DealState, cfg: np.ndarray, pos: np.ndarray, rec: np.ndarray, log: np.ndarray, legal: np.ndarray
) -> None:
    """The forced taker and contract of ``cfg`` (``C_FORCED_*``), as ``game.play_deal`` makes
    them for a sweep: the wishes the seats' bidding policies would say go to the record
    (``pos``' wishes), the forced seat takes, every other seat passes."""
    players = cfg[C_PLAYERS]
    first = tb.info[I_DEALER] + 1
    highest = PASS
    for j in range(players):
        seat = (first + j) % players
        wish = decide(seat_view(tb, seat), cfg, PH_BID, ZERO, ZERO, ZERO, ZERO)
        pos[Q_WISH_0 + seat] = wish
        tb.bids[j] = wish if wish > highest else PASS
        highest = max(highest, wish)
    taker = cfg[C_FORCED_TAKER]
    forced_bids(tb, cfg, players, tb.info[I_DEALER])
    pos[Q_SPOKEN] = players
    pos[Q_TAKER] = taker
    pos[Q_CONTRACT] = cfg[C_FORCED_CONTRACT]
    _auction_over(tb, cfg, pos, rec, log, legal)


@njit(_nrt=False)
def _to_bid(tb: DealState, cfg: np.ndarray, pos: np.ndarray, legal: np.ndarray) -> None:
    """The next seat to speak, and the words it may say: pass, or a bid above the highest."""
    players = cfg[C_PLAYERS]
    pos[Q_PHASE] = PH_BID
    pos[Q_SEAT] = (tb.info[I_DEALER] + 1 + pos[Q_SPOKEN]) % players
    legal[0] = ONE | _codes_upto(pos[Q_CONTRACT] + 1, GARDE_CONTRE)
    legal[1] = ZERO


@njit(_nrt=False)
def start(
    tb: DealState,
    cfg: np.ndarray,
    pos: np.ndarray,
    laid: np.ndarray,
    rec: np.ndarray,
    log: np.ndarray,
    legal: np.ndarray,
    key: np.ndarray,
    deal: int,
    dealer: int,
) -> None:
    """Deal and run to the first decision: with ``deal >= 0`` the deal ``deal`` of the run
    whose key is ``key`` (dealt shuffled, as ``game.play_deal`` deals it), else the hands and
    chien already in ``tb.dealt`` and ``tb.chien``, dealt by ``dealer``. With a forced taker
    and contract in ``cfg`` (``C_FORCED_*``) the auction is skipped (``_forced_auction``)."""
    players = cfg[C_PLAYERS]
    if deal >= 0:
        dealer = dealer_of(deal, cfg)
        seed_stream(tb.rng, key, deal)
        deal_shuffled(tb, cfg)
    _reset_record(rec, dealer)
    for i in range(log.shape[0]):
        log[i] = 0
    reset_table(tb, players, dealer)
    for i in range(pos.shape[0]):
        pos[i] = 0
    pos[Q_TAKER] = -1
    pos[Q_CONTRACT] = PASS
    laid[0] = ZERO
    laid[1] = ZERO
    for seat in range(players):
        if is_petit_sec(tb.dealt[seat, 1]):
            rec[R_THROWN_IN] = THROWN_PETIT_SEC
            pos[Q_PHASE] = PH_OVER
            pos[Q_SEAT] = -1
            legal[0] = ZERO
            legal[1] = ZERO
            return
    if cfg[C_FORCED_CONTRACT] > PASS:
        _forced_auction(tb, cfg, pos, rec, log, legal)
        return
    _to_bid(tb, cfg, pos, legal)


@njit(_nrt=False)
def advance(
    tb: DealState,
    cfg: np.ndarray,
    pos: np.ndarray,
    laid: np.ndarray,
    rec: np.ndarray,
    log: np.ndarray,
    legal: np.ndarray,
    action: int,
) -> None:
    """Apply ``action`` (a legal code of the decision in ``pos``; at the bid, any wish: a
    contract code that does not beat the highest bid is a pass) and run to the next decision."""
    info = tb.info
    players = cfg[C_PLAYERS]
    phase = pos[Q_PHASE]
    seat = pos[Q_SEAT]
    legal[0] = ZERO
    legal[1] = ZERO
    if phase == PH_BID:
        j = pos[Q_SPOKEN]
        pos[Q_WISH_0 + seat] = action
        if action > pos[Q_CONTRACT]:
            pos[Q_CONTRACT] = action
            pos[Q_TAKER] = seat
            tb.bids[j] = action
        else:
            tb.bids[j] = PASS
        pos[Q_SPOKEN] = j + 1
        if j + 1 < players:
            _to_bid(tb, cfg, pos, legal)
            return
        _auction_over(tb, cfg, pos, rec, log, legal)
    elif phase == PH_CALL:
        call_partner(tb, players, seat, action)
        _after_call(tb, cfg, pos, legal)
    elif phase == PH_ECART:
        bit0, bit1 = card_bit(action)
        laid[0] |= bit0
        laid[1] |= bit1
        pos[Q_ECART_LEFT] -= 1
        if pos[Q_ECART_LEFT] > 0:
            legal[0], legal[1] = _ecart_legal(
                tb.hands[seat, 0] & ~laid[0], tb.hands[seat, 1] & ~laid[1], pos[Q_ECART_LEFT]
            )
            return
        lay_ecart(tb, seat, laid[0], laid[1])
        pos[Q_PHASE] = PH_CHELEM
        legal[0] = _codes_upto(0, 1)
    elif phase == PH_CHELEM:
        start_play(tb, players, seat, action == 1)
        rec[R_CHELEM_ANNOUNCED] = info[I_CHELEM_ANNOUNCED]
        _to_play(tb, cfg, pos, rec, log, legal)
    elif phase == PH_POIGNEE:
        put_poignee(tb, seat, action, players)
        pos[Q_PHASE] = PH_PLAY
        legal[0], legal[1] = legal_now(tb, seat)
    elif phase == PH_PLAY:
        put_card(tb, seat, action)
        _to_play(tb, cfg, pos, rec, log, legal)
    else:
        raise ValueError("the deal is over")


@njit(_nrt=False)
def decide(
    v: SeatView,
    cfg: np.ndarray,
    phase: int,
    legal0: np.uint64,
    legal1: np.uint64,
    laid0: np.uint64,
    laid1: np.uint64,
) -> int:
    """The code the seat of ``v`` chooses at a decision of ``phase`` with legal choices
    ``(legal0, legal1)``, by its policies in ``cfg``: at the bid its wish (a contract code),
    at the écart the lowest card not yet laid (``laid0``, ``laid1``) of the écart its policy
    makes from its hand with the chien. Searching policies (``pimc``, the ``montecarlo``
    bidder) raise: they need the search scratch."""
    seat = v.seat
    if phase == PH_BID:
        policy = cfg[seat_slot(seat, P_BID_POLICY)]
        if policy == BID_MONTECARLO:
            raise ValueError("the montecarlo bidder needs the search scratch")
        return choose_bid(policy, v, cfg)
    if phase == PH_CALL:
        return choose_call(v)
    if phase == PH_ECART:
        ecart0, ecart1 = choose_ecart(cfg[seat_slot(seat, P_ECART_POLICY)], v, cfg[C_CHIEN])
        pick0 = ecart0 & ~laid0 & legal0
        pick1 = ecart1 & ~laid1 & legal1
        if not (pick0 | pick1):
            pick0, pick1 = legal0, legal1
        return lowest_bit(pick0) if pick0 else N_SUIT_CARDS + lowest_bit(pick1)
    if phase == PH_POIGNEE:
        return poignee_choice(cfg[seat_slot(seat, P_POIGNEE_POLICY)], v, cfg)
    if phase == PH_CHELEM:
        return 1 if announces_chelem(cfg[seat_slot(seat, P_CHELEM_POLICY)], v, cfg) else 0
    if phase == PH_PLAY:
        policy = cfg[seat_slot(seat, P_PLAY_ATTACK if v.attack else P_PLAY_DEFENCE)]
        if policy == PLAY_PIMC:
            raise ValueError("pimc card play needs the search scratch")
        return playout_card(policy, v, legal0, legal1, cfg)
    raise ValueError("no decision: the deal is over")


@njit(inline="always")
def waits(pos: np.ndarray, play_seats: int, act_seats: int) -> bool:
    """Whether the decision in ``pos`` (not over) belongs to the caller: any decision of a seat
    of ``act_seats``, a card of a seat of ``play_seats`` (bit ``seat`` of each)."""
    seat = pos[Q_SEAT]
    return (act_seats >> seat) & 1 == 1 or (pos[Q_PHASE] == PH_PLAY and (play_seats >> seat) & 1 == 1)


@njit(_nrt=False)
def run_until(
    tb: DealState,
    cfg: np.ndarray,
    pos: np.ndarray,
    laid: np.ndarray,
    rec: np.ndarray,
    log: np.ndarray,
    legal: np.ndarray,
    play_seats: int,
    act_seats: int,
) -> None:
    """Let the seats' built-in policies in ``cfg`` decide (``decide`` on their ``SeatView``)
    until the deal is over or a decision belongs to the caller: any decision of a seat of
    ``act_seats``, a card of a seat of ``play_seats`` (bit ``seat`` of each)."""
    while pos[Q_PHASE] != PH_OVER:
        if waits(pos, play_seats, act_seats):
            return
        code = decide(seat_view(tb, pos[Q_SEAT]), cfg, pos[Q_PHASE], legal[0], legal[1], laid[0], laid[1])
        advance(tb, cfg, pos, laid, rec, log, legal, code)
