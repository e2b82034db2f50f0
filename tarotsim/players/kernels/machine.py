"""The deal machine: one deal, from the deal to the score, one decision at a time.

Every deal is played by this machine: the runs (``seats.play_deal``), the search players'
playouts (``play_tricks``, ``take_contract``), ``tarotsim.Game``, ``VecEnv``, the Python
players, PettingZoo and OpenSpiel. Its phases, each a rule step of ``engine.kernels.steps``:

deal → (a sweep's forced wishes | the auction) → the call (five players) → the chien and
the écart (Prise, Garde) or the chien aside → the chelem → (before each seat's first card,
its poignée) the tricks → the score.

The state is the ``DealState`` alone (``engine.kernels.state``): its ``pos`` (slots ``Q_*``) says
where the deal stands, the phase (``PH_*``) and the seat to decide; its ``legal`` holds the
legal choices of the decision waiting: a card set (call, écart, play) or, for the bid, the
poignée and the chelem, bit ``code`` of word 0 for each legal code (a contract code; a
poignée size; 0 no, 1 yes). A caller may lay the écart one card at a time (into
``laid``, handed to ``engine.kernels.steps.lay_ecart`` once complete); a built-in écart policy is asked
once and its whole écart laid. The record row ``rec`` and the decision log ``log`` are
written as the deal goes; a search player's playout passes ``None`` for both (settled when
compiled), and its deal is scored (``engine.kernels.steps.settle_deal``) but not recorded.

- ``deal_table``: deal (or take the hands given) and stand at the first decision;
- ``apply``: apply the action of the decision waiting;
- ``choose``: the code a seat's policies choose at any decision (built-in and user functions),
  for the callers that ask one decision (``seats.decide``, ``tarotsim.interfaces.game.decide``);
- ``run``: let the seats' policies decide (``step`` and the trick loop: built-in and user
  functions) until the deal is over or a decision waits for the caller: a decision of a seat
  the caller plays (``waits``), or one that searches (``searches``: the ``pimc`` card, the
  ``montecarlo`` bid), which the caller answers with the search scratch (``seats.run_until``);
- ``play_tricks``: the trick loop, the one place the tricks are played;
- ``start`` and ``advance``: deal, or apply an action, then stand at the next decision
  (the step-by-step game's entry points).

The record row and the log are written by ``engine.kernels.record``; which policy codes a run may
use, and what a playout plays a searching decision by, are in ``players.kernels.policies.dispatch``.
"""

from __future__ import annotations

import numpy as np

from tarotsim._jit import njit
from tarotsim.engine.cards import (
    BOUTS_MASK_1,
    EXCUSE_BIT,
    KING,
    KINGS_MASK,
    N_SUIT_CARDS,
    N_SUITS,
    SUIT_LEN,
    TRUMPS_MASK,
)
from tarotsim.engine.kernels.bits import ONE, ZERO, lowest_bit, popcount
from tarotsim.engine.kernels.deal import cut_pack, deal_packets, is_petit_sec
from tarotsim.engine.kernels.dealing import deal_condition
from tarotsim.engine.kernels.record import log_play, put_result, record_hand, reset_record
from tarotsim.engine.kernels.rng import seed_stream
from tarotsim.engine.kernels.rules import card_bit
from tarotsim.engine.kernels.score import GARDE, GARDE_CONTRE, PASS, poignee_size
from tarotsim.engine.kernels.state import (
    C_CHIEN,
    C_DEALER,
    C_DEALING,
    C_FORCED_CONTRACT,
    C_FORCED_TAKER,
    C_HAND,
    C_PLAYERS,
    DEALING_UNSHUFFLED,
    FIVE_PLAYERS,
    I_CHELEM_ANNOUNCED,
    I_DEALER,
    I_LEADER,
    I_TRICK,
    I_TRICK_LEN,
    L_BIDS,
    MAX_SEATS,
    P_BID_POLICY,
    P_CALL_POLICY,
    P_CHELEM_POLICY,
    P_ECART_POLICY,
    P_PLAY_ATTACK,
    P_PLAY_DEFENCE,
    P_POIGNEE_POLICY,
    PH_BID,
    PH_CALL,
    PH_CHELEM,
    PH_ECART,
    PH_OVER,
    PH_PLAY,
    PH_POIGNEE,
    PH_TRICK,
    PH_WISH,
    Q_CONTRACT,
    Q_ECART_LEFT,
    Q_PHASE,
    Q_POIGNEE_ASKED,
    Q_SEAT,
    Q_SPOKEN,
    Q_TAKER,
    Q_WISH_0,
    R_CHELEM_ANNOUNCED,
    R_CONTRACT,
    R_N_POIGNEES,
    R_TAKER,
    R_THROWN_IN,
    SEQUENCE_DEALS,
    THROWN_ALL_PASS,
    THROWN_PETIT_SEC,
    DealState,
    seat_slot,
)
from tarotsim.engine.kernels.steps import (
    call_partner,
    end_trick,
    forced_bids,
    lay_ecart,
    legal_now,
    name_taker,
    poignee_points,
    put_card,
    put_poignee,
    reset_table,
    set_chien_aside,
    settle_deal,
    shown_size,
    start_play,
    take_chien,
)
from tarotsim.engine.kernels.view import SeatView, seat_view
from tarotsim.players.kernels.policies.announce import announces_chelem, poignee_choice
from tarotsim.players.kernels.policies.bidding import choose_bid
from tarotsim.players.kernels.policies.call import choose_call
from tarotsim.players.kernels.policies.codes import (
    BID_MONTECARLO,
    CALL_SEARCH,
    CHELEM_SEARCH,
    ECART_SEARCH,
    PLAY_PIMC,
    POIGNEE_SEARCH,
)
from tarotsim.players.kernels.policies.ecart import choose_ecart
from tarotsim.players.kernels.policies.play import playout_card
from tarotsim.players.kernels.user import BID_USER, PLAY_USER, Users, user_bid, user_card

EVERY_SEAT = (1 << MAX_SEATS) - 1
"""A seat mask holding every seat: ``advance`` and ``start`` stop at every decision."""


# the rules of the decisions' legal choices ----------------------------------------------


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
    """Bits ``first`` … ``last`` of a word (``last`` below 63)."""
    return ((ONE << np.uint64(last + 1)) - ONE) & ~((ONE << np.uint64(first)) - ONE)


@njit(inline="always")
def dealer_of(deal: int, cfg: np.ndarray) -> int:
    """The seat that deals deal number ``deal``: ``deal % players``, or the run's fixed dealer."""
    return deal % cfg[C_PLAYERS] if cfg[C_DEALER] == 0 else cfg[C_DEALER] - 1


@njit(inline="always")
def _petit_sec(tb: DealState, players: int) -> bool:
    """Whether a seat was dealt the Petit sec: the deal is thrown in (docs/rules.md §2)."""
    for seat in range(players):
        if is_petit_sec(tb.dealt[seat, 1]):
            return True
    return False


@njit(inline="always")
def _over(tb: DealState) -> None:
    tb.pos[Q_PHASE] = PH_OVER
    tb.pos[Q_SEAT] = -1
    tb.legal[0] = ZERO
    tb.legal[1] = ZERO


@njit(inline="always")
def _throw_in(tb: DealState, rec: np.ndarray | None, why: int) -> None:
    """The deal is thrown in (``THROWN_*``): over, unscored."""
    if rec is not None:
        rec[R_THROWN_IN] = why
    _over(tb)


@njit(_nrt=False)
def finish(tb: DealState, cfg: np.ndarray, rec: np.ndarray | None, log: np.ndarray | None) -> None:
    """The last trick is counted: the deal scored (``engine.kernels.steps.settle_deal``, the poignées'
    bonuses included) and, unless ``rec`` is ``None`` (a playout), its play into ``log`` and
    its result into ``rec``."""
    players = cfg[C_PLAYERS]
    bonuses = poignee_points(tb, players)
    if rec is None:
        settle_deal(tb, cfg, bonuses)
    else:
        if log is not None:
            log_play(tb, cfg, log)
        for seat in range(players):
            if shown_size(tb, seat, players) > 0:
                rec[R_N_POIGNEES] += 1
        put_result(tb, players, rec, bonuses, settle_deal(tb, cfg, bonuses))
    _over(tb)


# the phases --------------------------------------------------------------------------------


@njit(inline="always")
def _to_bid(tb: DealState, cfg: np.ndarray, phase: int) -> None:
    """The next seat to speak (``PH_BID``; ``PH_WISH``, a sweep's), and the words it may say:
    pass, or a bid above the highest (any wish, at a sweep's)."""
    pos = tb.pos
    pos[Q_PHASE] = phase
    pos[Q_SEAT] = (tb.info[I_DEALER] + 1 + pos[Q_SPOKEN]) % cfg[C_PLAYERS]
    first = 1 if phase == PH_WISH else pos[Q_CONTRACT] + 1
    tb.legal[0] = ONE | _codes_upto(first, GARDE_CONTRE)
    tb.legal[1] = ZERO


@njit(inline="always")
def deal_table(tb: DealState, cfg: np.ndarray, rec: np.ndarray, deal: int, dealer: int) -> None:
    """Deal and stand at the first decision: with ``deal >= 0`` the deal ``deal`` of a run
    (its stream seeded by the caller into ``tb.rng``, ``engine.kernels.rng.seed_stream``: shuffled, or, with
    unshuffled dealing, cut and dealt in packets from ``tb.pack``; the cards given to seats or
    the chien, ``C_FIXED``, and the ranges on the hands, ``C_WHERE``, by
    ``engine.kernels.dealing.deal_condition``), else the hands and chien already in ``tb.dealt`` and
    ``tb.chien``, dealt by ``dealer``.

    With a forced taker and contract (``C_FORCED_*``, a sweep) each seat's wish is asked first
    (``PH_WISH``, for the record, even when the deal is thrown in); else a Petit sec throws the
    deal in at once, or the auction begins."""
    players = cfg[C_PLAYERS]
    if deal >= 0:
        dealer = dealer_of(deal, cfg)
        if cfg[C_DEALING] == DEALING_UNSHUFFLED and deal % SEQUENCE_DEALS != 0:
            cut_pack(tb.rng, tb.pack)
            deal_packets(
                tb.rng,
                tb.pack,
                tb.dealt,
                tb.chien,
                players,
                cfg[C_HAND],
                cfg[C_CHIEN],
                (dealer + 1) % players,
            )
        else:
            deal_condition(tb.rng, tb.pack, tb.dealt, tb.chien, cfg, 0)
    reset_record(rec, dealer)
    reset_table(tb, players, dealer)
    pos = tb.pos
    pos[Q_SPOKEN] = 0
    pos[Q_TAKER] = -1
    pos[Q_CONTRACT] = PASS
    pos[Q_ECART_LEFT] = 0
    tb.laid[0] = ZERO
    tb.laid[1] = ZERO
    if cfg[C_FORCED_CONTRACT] > PASS:
        _to_bid(tb, cfg, PH_WISH)
    elif _petit_sec(tb, players):
        _throw_in(tb, rec, THROWN_PETIT_SEC)
    else:
        _to_bid(tb, cfg, PH_BID)


@njit(inline="always")
def _after_call(tb: DealState, cfg: np.ndarray) -> None:
    """The taker has called (or needs not): the chien to its hand and the écart, or the chien aside."""
    pos = tb.pos
    taker = pos[Q_TAKER]
    pos[Q_SEAT] = taker
    if pos[Q_CONTRACT] <= GARDE:
        take_chien(tb, taker)
        pos[Q_ECART_LEFT] = cfg[C_CHIEN]
        pos[Q_PHASE] = PH_ECART
        tb.laid[0] = ZERO
        tb.laid[1] = ZERO
        tb.legal[0], tb.legal[1] = _ecart_legal(tb.hands[taker, 0], tb.hands[taker, 1], cfg[C_CHIEN])
    else:
        set_chien_aside(tb, pos[Q_CONTRACT])
        pos[Q_PHASE] = PH_CHELEM
        tb.legal[0] = _codes_upto(0, 1)
        tb.legal[1] = ZERO


@njit(inline="always")
def _take(tb: DealState, cfg: np.ndarray, taker: int, contract: int) -> None:
    """``taker`` takes ``contract``: its call (five players), else its chien and écart."""
    pos = tb.pos
    pos[Q_TAKER] = taker
    pos[Q_CONTRACT] = contract
    name_taker(tb, taker, contract)
    if cfg[C_PLAYERS] == FIVE_PLAYERS:
        pos[Q_PHASE] = PH_CALL
        pos[Q_SEAT] = taker
        tb.legal[0] = _callable(tb.dealt[taker, 0])
        tb.legal[1] = ZERO
    else:
        _after_call(tb, cfg)


@njit(_nrt=False)
def _auction_over(
    tb: DealState, cfg: np.ndarray, rec: np.ndarray | None, log: np.ndarray | None, forced: bool
) -> None:
    """Every seat has spoken (``tb.bids``, the taker and contract in ``pos``). A sweep's
    (``forced``): the forced taker's hand to the record, then a Petit sec throws the deal in, or
    the forced seat takes the forced contract, every other seat passing. Then the words go to
    the log, and the deal is thrown in (all passed) or the taker takes."""
    pos = tb.pos
    players = cfg[C_PLAYERS]
    if forced:
        if rec is not None:
            record_hand(tb, cfg, rec, cfg[C_FORCED_TAKER])
        if _petit_sec(tb, players):
            _throw_in(tb, rec, THROWN_PETIT_SEC)
            return
        forced_bids(tb, cfg, players, tb.info[I_DEALER])
        pos[Q_TAKER] = cfg[C_FORCED_TAKER]
        pos[Q_CONTRACT] = cfg[C_FORCED_CONTRACT]
    if log is not None:
        for k in range(players):
            log[L_BIDS + k] = tb.bids[k]
    taker = pos[Q_TAKER]
    if taker < 0:
        _throw_in(tb, rec, THROWN_ALL_PASS)
        return
    if rec is not None:
        rec[R_TAKER] = taker
        rec[R_CONTRACT] = pos[Q_CONTRACT]
        record_hand(tb, cfg, rec, taker)
    _take(tb, cfg, taker, pos[Q_CONTRACT])


@njit(inline="always")
def _to_chelem(tb: DealState) -> None:
    tb.pos[Q_PHASE] = PH_CHELEM
    tb.legal[0] = _codes_upto(0, 1)
    tb.legal[1] = ZERO


@njit(inline="always")
def _say(tb: DealState, cfg: np.ndarray, rec: np.ndarray | None, log: np.ndarray | None, action: int) -> None:
    """The seat to speak (``PH_BID``, ``PH_WISH``) says ``action`` (a wish: a contract code
    that does not beat the highest bid is a pass); the next seat speaks, or the auction ends."""
    pos = tb.pos
    seat = pos[Q_SEAT]
    j = pos[Q_SPOKEN]
    pos[Q_WISH_0 + seat] = action
    if action > pos[Q_CONTRACT]:
        pos[Q_CONTRACT] = action
        pos[Q_TAKER] = seat
        tb.bids[j] = action
    else:
        tb.bids[j] = PASS
    pos[Q_SPOKEN] = j + 1
    if j + 1 < cfg[C_PLAYERS]:
        _to_bid(tb, cfg, pos[Q_PHASE])
    else:
        _auction_over(tb, cfg, rec, log, pos[Q_PHASE] == PH_WISH)


@njit(inline="always")
def _announce(tb: DealState, cfg: np.ndarray, rec: np.ndarray | None, announced: bool) -> None:
    """The taker announces a chelem (``announced``) or not: the play begins."""
    start_play(tb, cfg[C_PLAYERS], tb.pos[Q_SEAT], announced)
    if rec is not None:
        rec[R_CHELEM_ANNOUNCED] = tb.info[I_CHELEM_ANNOUNCED]
    tb.pos[Q_POIGNEE_ASKED] = 0
    tb.pos[Q_PHASE] = PH_TRICK


@njit(inline="always")
def apply(
    tb: DealState, cfg: np.ndarray, rec: np.ndarray | None, log: np.ndarray | None, action: int
) -> None:
    """Apply ``action``, a legal code of the decision waiting (at the bid, any wish: a contract
    code that does not beat the highest bid is a pass; at the écart, one card), and stand at
    the next decision (``PH_TRICK`` once a card is played, a poignée shown or the play begins:
    ``run`` goes on, to the card of the seat that showed it first). Inlined into its callers
    (``advance``, ``VecEnv``'s step, ``seats.run_until``): a call passes the whole table, which
    costs as much as a step of the trick loop."""
    pos = tb.pos
    players = cfg[C_PLAYERS]
    phase = pos[Q_PHASE]
    seat = pos[Q_SEAT]
    if phase == PH_PLAY:
        put_card(tb, seat, action)
        pos[Q_PHASE] = PH_TRICK
    elif phase == PH_BID or phase == PH_WISH:
        _say(tb, cfg, rec, log, action)
    elif phase == PH_CALL:
        call_partner(tb, players, seat, action)
        _after_call(tb, cfg)
    elif phase == PH_ECART:
        bit0, bit1 = card_bit(action)
        tb.laid[0] |= bit0
        tb.laid[1] |= bit1
        pos[Q_ECART_LEFT] -= 1
        if pos[Q_ECART_LEFT] > 0:
            tb.legal[0], tb.legal[1] = _ecart_legal(
                tb.hands[seat, 0] & ~tb.laid[0], tb.hands[seat, 1] & ~tb.laid[1], pos[Q_ECART_LEFT]
            )
        else:
            lay_ecart(tb, seat, tb.laid[0], tb.laid[1])
            _to_chelem(tb)
    elif phase == PH_CHELEM:
        _announce(tb, cfg, rec, action == 1)
    elif phase == PH_POIGNEE:
        put_poignee(tb, seat, action, players)
        pos[Q_POIGNEE_ASKED] |= 1 << seat
        pos[Q_PHASE] = PH_TRICK
    else:
        raise ValueError("the deal is over")


@njit(inline="always")
def lay_whole_ecart(tb: DealState, ecart0: np.uint64, ecart1: np.uint64) -> None:
    """A whole écart laid at once (a built-in écart policy's, a searched one); the chelem
    decision next."""
    tb.laid[0] = ecart0
    tb.laid[1] = ecart1
    tb.pos[Q_ECART_LEFT] = 0
    lay_ecart(tb, tb.pos[Q_SEAT], ecart0, ecart1)
    _to_chelem(tb)


# the decisions -------------------------------------------------------------------------------


@njit(inline="always")
def ecart_card(
    ecart0: np.uint64,
    ecart1: np.uint64,
    legal0: np.uint64,
    legal1: np.uint64,
    laid0: np.uint64,
    laid1: np.uint64,
) -> int:
    """The card to lay next of the écart ``(ecart0, ecart1)`` a policy makes, one card at a
    time: its lowest card not yet laid (``laid0``, ``laid1``) and legal, else the lowest legal card."""
    pick0 = ecart0 & ~laid0 & legal0
    pick1 = ecart1 & ~laid1 & legal1
    if not (pick0 | pick1):
        pick0, pick1 = legal0, legal1
    return lowest_bit(pick0) if pick0 else N_SUIT_CARDS + lowest_bit(pick1)


@njit(inline="always")
def card_policy(tb: DealState, cfg: np.ndarray, seat: int) -> int:
    """The code of ``seat``'s card-play policy for the side it plays (``P_PLAY_*``)."""
    return cfg[seat_slot(seat, P_PLAY_ATTACK if tb.attack[seat] else P_PLAY_DEFENCE)]


@njit(inline="always")
def _card(
    code: int, v: SeatView, legal0: np.uint64, legal1: np.uint64, cfg: np.ndarray, users: Users | None
) -> int:
    """The card of a card-play policy that searches nothing: a built-in one
    (``policies.play.playout_card``) or a user's function (``players.kernels.user``)."""
    if code >= PLAY_USER:
        if users is None:
            raise ValueError("a user card player needs its function")
        else:
            return user_card(users, code, v, legal0, legal1)
    return playout_card(code, v, legal0, legal1, cfg)


@njit(inline="always")
def _bid(code: int, v: SeatView, cfg: np.ndarray, users: Users | None) -> int:
    """The wish of a bidding policy that searches nothing: a built-in one or a user's function."""
    if code >= BID_USER:
        if users is None:
            raise ValueError("a user bidder needs its function")
        else:
            return user_bid(users, code, v)
    return choose_bid(code, v, cfg)


@njit(_nrt=False)
def choose(
    v: SeatView,
    cfg: np.ndarray,
    phase: int,
    legal0: np.uint64,
    legal1: np.uint64,
    laid0: np.uint64,
    laid1: np.uint64,
    users: Users | None = None,
) -> int:
    """The code the seat of ``v`` chooses at a decision of ``phase`` with legal choices
    ``(legal0, legal1)``, by its policies in ``cfg`` (a user's function in ``users`` where its
    code is one): at the bid its wish (a contract code), at the écart the lowest card not yet
    laid (``laid0``, ``laid1``) of the écart its policy makes from its hand with the chien.
    Searching policies raise: they need the search scratch (``seats.decide``)."""
    seat = v.seat
    if phase == PH_BID or phase == PH_WISH:
        code = cfg[seat_slot(seat, P_BID_POLICY)]
        if code == BID_MONTECARLO:
            raise ValueError("the montecarlo bidder needs the search scratch")
        return _bid(code, v, cfg, users)
    if phase == PH_PLAY:
        code = cfg[seat_slot(seat, P_PLAY_ATTACK if v.attack else P_PLAY_DEFENCE)]
        if code == PLAY_PIMC:
            raise ValueError("pimc card play needs the search scratch")
        return _card(code, v, legal0, legal1, cfg, users)
    if phase == PH_CALL:
        return choose_call(v)
    if phase == PH_ECART:
        ecart0, ecart1 = choose_ecart(cfg[seat_slot(seat, P_ECART_POLICY)], v, cfg[C_CHIEN])
        return ecart_card(ecart0, ecart1, legal0, legal1, laid0, laid1)
    if phase == PH_POIGNEE:
        return poignee_choice(cfg[seat_slot(seat, P_POIGNEE_POLICY)], v, cfg)
    if phase == PH_CHELEM:
        return 1 if announces_chelem(cfg[seat_slot(seat, P_CHELEM_POLICY)], v, cfg) else 0
    raise ValueError("no decision: the deal is over")


@njit(inline="always")
def searches(tb: DealState, cfg: np.ndarray) -> bool:
    """Whether the decision waiting is a searching policy's (the ``pimc`` card, the
    ``montecarlo`` bid, a ``search`` call, écart, chelem or poignée), which the caller answers
    with the search scratch (``seats.decide``)."""
    seat = tb.pos[Q_SEAT]
    phase = tb.pos[Q_PHASE]
    if phase == PH_PLAY:
        return card_policy(tb, cfg, seat) == PLAY_PIMC
    if phase == PH_BID or phase == PH_WISH:
        return cfg[seat_slot(seat, P_BID_POLICY)] == BID_MONTECARLO
    if phase == PH_CALL:
        return cfg[seat_slot(seat, P_CALL_POLICY)] == CALL_SEARCH
    if phase == PH_ECART:
        return cfg[seat_slot(seat, P_ECART_POLICY)] == ECART_SEARCH
    if phase == PH_CHELEM:
        return cfg[seat_slot(seat, P_CHELEM_POLICY)] == CHELEM_SEARCH
    if phase == PH_POIGNEE:
        return cfg[seat_slot(seat, P_POIGNEE_POLICY)] == POIGNEE_SEARCH
    return False


@njit(inline="always")
def waits(pos: np.ndarray, play_seats: int, act_seats: int) -> bool:
    """Whether the decision in ``pos`` (not over) belongs to the caller: any decision of a seat
    of ``act_seats``, a card of a seat of ``play_seats`` (bit ``seat`` of each); a sweep's
    forced wishes never do (each seat's policy is asked, for the record), nor the trick loop
    going on (``PH_TRICK``: no decision waits)."""
    seat = pos[Q_SEAT]
    phase = pos[Q_PHASE]
    if phase == PH_WISH or phase == PH_TRICK:
        return False
    return (act_seats >> seat) & 1 == 1 or (phase == PH_PLAY and (play_seats >> seat) & 1 == 1)


# the tricks ----------------------------------------------------------------------------------


@njit(inline="always")
def show_poignee(tb: DealState, cfg: np.ndarray, seat: int) -> None:
    """Before its first card, ``seat`` shows the poignée its policy chooses (none: size 0)."""
    size = poignee_choice(cfg[seat_slot(seat, P_POIGNEE_POLICY)], seat_view(tb, seat), cfg)
    put_poignee(tb, seat, size, cfg[C_PLAYERS])


@njit(_nrt=False)
def play_tricks(tb: DealState, cfg: np.ndarray, users: Users | None, play_seats: int, act_seats: int) -> bool:
    """The trick loop: play on from where the deal stands (the next card to play), each seat by
    its policies in ``cfg`` (a user's function in ``users``), the seats yet to play to the first
    trick showing their poignées before their card, to the last trick counted (returns True) or
    to a decision that waits (returns False; ``pos`` and ``legal`` say which): a seat of
    ``act_seats``' poignée (when it holds one) or card, a seat of ``play_seats``' card, or a
    searching policy's card or poignée (``searches``; a poignée only when the hand holds one,
    and not once more when it was decided, ``pos[Q_POIGNEE_ASKED]``)."""
    info = tb.info
    pos = tb.pos
    players = cfg[C_PLAYERS]
    hand_size = cfg[C_HAND]
    callers = act_seats | play_seats  # the seats whose card waits for the caller
    while True:
        if info[I_TRICK_LEN] == players:
            end_trick(tb, cfg)
            if info[I_TRICK] == hand_size:
                return True
            continue
        seat = info[I_LEADER] + info[I_TRICK_LEN]
        seat = seat - players if seat >= players else seat
        if info[I_TRICK] == 0:
            if (act_seats >> seat) & 1 == 1 or cfg[seat_slot(seat, P_POIGNEE_POLICY)] == POIGNEE_SEARCH:
                if (pos[Q_POIGNEE_ASKED] >> seat) & 1 == 0:  # else decided already (``apply``)
                    word1 = tb.hands[seat, 1]
                    largest = poignee_size(popcount(word1 & TRUMPS_MASK), (word1 & EXCUSE_BIT) != 0, players)
                    if largest > 0:
                        pos[Q_SEAT] = seat
                        pos[Q_PHASE] = PH_POIGNEE
                        tb.legal[0] = _codes_upto(0, largest)
                        tb.legal[1] = ZERO
                        return False
            else:
                show_poignee(tb, cfg, seat)
        code = card_policy(tb, cfg, seat)
        legal0, legal1 = legal_now(tb, seat)
        if (callers >> seat) & 1 == 1 or code == PLAY_PIMC:
            pos[Q_SEAT] = seat
            pos[Q_PHASE] = PH_PLAY
            tb.legal[0] = legal0
            tb.legal[1] = legal1
            return False
        put_card(tb, seat, _card(code, seat_view(tb, seat), legal0, legal1, cfg, users))


# the machine ----------------------------------------------------------------------------------


@njit(inline="always")
def step(
    tb: DealState, cfg: np.ndarray, rec: np.ndarray | None, log: np.ndarray | None, users: Users | None
) -> None:
    """The decision waiting before the tricks (not a searching one: a word of the auction, the
    call, the écart, the chelem) made by the seat's policy in ``cfg`` (a user's bidder in
    ``users``) and applied; a built-in écart policy is asked once and its whole écart laid.
    Each is made and applied here, the code ``choose`` and ``apply`` run for it, rather than by
    calls to them: a call passes the whole table, and ``run``, which inlines this, then links
    neither (nor ``choose``'s card policies, which ``play_tricks`` inlines already). The
    poignée and the card are the trick loop's (``play_tricks``)."""
    seat = tb.pos[Q_SEAT]
    phase = tb.pos[Q_PHASE]
    v = seat_view(tb, seat)
    if phase == PH_BID or phase == PH_WISH:
        _say(tb, cfg, rec, log, _bid(cfg[seat_slot(seat, P_BID_POLICY)], v, cfg, users))
    elif phase == PH_CALL:
        call_partner(tb, cfg[C_PLAYERS], seat, choose_call(v))
        _after_call(tb, cfg)
    elif phase == PH_ECART:
        ecart0, ecart1 = choose_ecart(cfg[seat_slot(seat, P_ECART_POLICY)], v, cfg[C_CHIEN])
        lay_whole_ecart(tb, ecart0, ecart1)
    elif phase == PH_CHELEM:
        _announce(tb, cfg, rec, announces_chelem(cfg[seat_slot(seat, P_CHELEM_POLICY)], v, cfg))
    else:
        raise ValueError("a poignée or a card waits outside the trick loop")


@njit(_nrt=False)
def run(
    tb: DealState,
    cfg: np.ndarray,
    rec: np.ndarray | None,
    log: np.ndarray | None,
    users: Users | None,
    play_seats: int,
    act_seats: int,
) -> None:
    """Let the seats' policies in ``cfg`` decide (``step``, ``play_tricks``) until
    the deal is over or a decision waits: one of the caller's (``waits``: any decision of a seat
    of ``act_seats``, a card of a seat of ``play_seats``, bit ``seat`` of each) or a searching
    policy's (``searches``). One compiled function that every caller shares (the runs'
    ``seats.play_deal`` with or without search, ``start``, ``advance``, ``VecEnv``'s steps): the
    policies it inlines (``step``'s) are compiled once for all of them, not once more in each
    caller. It calls the trick loop (``play_tricks``, shared with the search players'
    playouts), ``_auction_over`` and ``finish``, once each a deal: in one function with the
    phase machine they made its optimization grow faster than its size. Each call passes the
    whole table (about 40 ns), so the steps made at every card or decision are inlined."""
    pos = tb.pos
    while True:
        phase = pos[Q_PHASE]
        if phase == PH_OVER:
            return
        if phase == PH_TRICK:
            if play_tricks(tb, cfg, users, play_seats, act_seats):
                finish(tb, cfg, rec, log)
            continue
        if ((play_seats | act_seats) != 0 and waits(pos, play_seats, act_seats)) or searches(tb, cfg):
            return
        step(tb, cfg, rec, log, users)


@njit(_nrt=False)
def take_contract(tb: DealState, cfg: np.ndarray, taker: int, contract: int) -> bool:
    """``taker`` takes ``contract`` on the table ``engine.kernels.steps.reset_table`` made ready, and its
    decisions up to the first card (the call, the écart, the chelem) are made by its policies
    (``run``'s): a search player's playout, and the tests, start a deal there. Returns True
    once the play begins, False at a decision whose policy searches (``searches``; ``pos`` and
    ``legal`` say which), which the caller answers (``seats.decide``)."""
    _take(tb, cfg, taker, contract)
    while tb.pos[Q_PHASE] != PH_TRICK:
        if searches(tb, cfg):
            return False
        step(tb, cfg, None, None, None)
    return True


@njit(_nrt=False)
def start(
    tb: DealState, cfg: np.ndarray, rec: np.ndarray, log: np.ndarray, key: np.ndarray, deal: int, dealer: int
) -> None:
    """A deal played step by step: the log cleared, the deal dealt (``deal_table``; deal
    ``deal`` of the run whose key is ``key``, its stream seeded here, or the hands given,
    dealt by ``dealer``), then stand at its first decision."""
    for i in range(log.shape[0]):
        log[i] = 0
    if deal >= 0:
        seed_stream(tb.rng, key, deal)
    deal_table(tb, cfg, rec, deal, dealer)
    run(tb, cfg, rec, log, None, EVERY_SEAT, EVERY_SEAT)


@njit(_nrt=False)
def advance(tb: DealState, cfg: np.ndarray, rec: np.ndarray, log: np.ndarray, action: int) -> None:
    """Apply ``action`` (``apply``) and stand at the next decision, or the end of the deal."""
    apply(tb, cfg, rec, log, action)
    run(tb, cfg, rec, log, None, EVERY_SEAT, EVERY_SEAT)
