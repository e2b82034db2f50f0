"""One whole deal: deal → petit sec → bid → chien/écart → announce → play → count → score.

``play_deal`` writes one record row (``rec``, int64[N_REC], columns R_*) and a log of
the decisions (``log``, int64[N_LOG], slots L_*) from which traces are written. The
record columns are described for users in ``tarotsim.run.records``.

The deal after the auction is driven by ``kernels.driver`` (``take_contract``,
``play_to_end``: the same driver the search players' playouts use, on the rule steps of
``kernels.steps``); this module adds the deal, the auction, the decisions of the search
players (the ``montecarlo`` bid, the ``pimc`` card, and the searched call, écart, chelem and
poignée of ``kernels.search.decisions``: ``take_contract`` and ``play_to_end`` hand those back),
and the records. Each policy receives its seat's ``SeatView`` (``kernels.view``).

``play_cards``, ``log_play`` and ``record_result`` are inlined into ``play_deal``: a called function is passed
the whole ``DealState`` by value (more than a hundred words), which a random deal would
feel; ``driver.play_to_end`` is called once per deal (and once more per ``pimc`` card).
``_bid`` is inlined into its one caller, ``play_deal``: every compiled function links and
compiles again all it calls, so a level less is a compile of the whole game less.
``play_deal`` stays a function of its own: its ``search is None`` tests are settled when it
is compiled for its argument's type, which inlined code, where ``search`` is no argument,
would not see.

``search`` is the search players' scratch (``kernels.search.searching.Search``) or ``None`` when
no seat searches; the ``search is None`` tests are settled when Numba compiles for the
argument's type, so the game without search players compiles and carries none of them,
and raises if a seat's policy searches.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from tarotsim._jit import njit
from tarotsim.cards import (
    EXCUSE_BIT,
    KINGS_MASK,
    N_CARDS,
    PETIT_BIT,
    TRUMP_21_BIT,
    TRUMPS_MASK,
)
from tarotsim.kernels.bits import popcount
from tarotsim.kernels.chavey import distribution_points, hand_points
from tarotsim.kernels.deal import cut_pack, deal_packets, is_petit_sec
from tarotsim.kernels.dealing import deal_condition
from tarotsim.kernels.driver import card_policy, play_plain_card, play_to_end, take_contract
from tarotsim.kernels.policies.bidding import choose_bid
from tarotsim.kernels.policies.codes import BID_MONTECARLO, PLAY_PIMC, POIGNEE_SEARCH
from tarotsim.kernels.rng import seed_stream
from tarotsim.kernels.rules import (
    bouts,
    card_bit,
)
from tarotsim.kernels.score import (
    GARDE,
    PASS,
    SIDE_NONE,
)
from tarotsim.kernels.search.decisions import decide_searched, show_searched
from tarotsim.kernels.search.montecarlo import montecarlo_wish
from tarotsim.kernels.search.pimc import pimc_card
from tarotsim.kernels.search.scratch import note_deal
from tarotsim.kernels.search.searching import Search
from tarotsim.kernels.state import (
    BOUT_HELD_21,
    BOUT_HELD_EXCUSE,
    BOUT_HELD_PETIT,
    C_CHIEN,
    C_DEALER,
    C_DEALING,
    C_FORCED_CONTRACT,
    C_FORCED_TAKER,
    C_HAND,
    C_PLAYERS,
    DEALING_UNSHUFFLED,
    H_LEADER,
    I_CALLED,
    I_CHELEM_ANNOUNCED,
    I_DEALER,
    I_LEADER,
    I_PARTNER,
    I_TRICK,
    L_BIDS,
    L_LEADERS,
    L_PLAYS,
    L_POIGNEE,
    L_WINNERS,
    MAX_SEATS,
    N_REC,
    P_BID_POLICY,
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
    SEQUENCE_DEALS,
    THROWN_ALL_PASS,
    THROWN_NONE,
    THROWN_PETIT_SEC,
    DealState,
    seat_slot,
)
from tarotsim.kernels.steps import (
    forced_bids,
    legal_now,
    poignee_points,
    put_card,
    reset_table,
    settle_deal,
    shown_size,
)
from tarotsim.kernels.user import BID_USER, PLAY_USER, Users, user_bid, user_card
from tarotsim.kernels.view import seat_view


class Auction(NamedTuple):
    """What the seats of the deal in play wished (``new_auction``, reused deal after deal);
    what they said is public, in ``DealState.bids``."""

    wishes: np.ndarray  # int64[MAX_SEATS]: each seat's wish, by seat (contract code, 0 = pass)


@njit
def new_auction() -> Auction:
    """A fresh ``Auction``."""
    return Auction(np.zeros(MAX_SEATS, dtype=np.int64))


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
def _record_hand(tb: DealState, cfg: np.ndarray, rec: np.ndarray, seat: int, wishes: np.ndarray) -> None:
    """Record the features of ``seat``'s hand as dealt (trumps, bouts, Kings, Chavey count)
    and of its auction: its turn to speak, the highest contract the other seats wish to bid
    (``wishes``, by seat: their wishes in the auction, ``_auction``)."""
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
            others = max(others, wishes[other])
    rec[R_OTHERS_BID] = others
    rec[R_SPEAKER_POSITION] = (seat - tb.info[I_DEALER] - 1) % players


@njit(_nrt=False)
def _auction(
    tb: DealState,
    cfg: np.ndarray,
    players: int,
    dealer: int,
    key: np.ndarray,
    deal: int,
    auction: Auction,
    search: Search | None,
    users: Users | None,
) -> tuple[int, int]:
    """Each seat speaks once from (dealer + 1) % n and bids its policy's wish if it beats the
        bid so far: ``auction.wishes`` gets each seat's wish, ``tb.bids`` what each speaker
        said (speaking order); returns (taker, contract), (-1, PASS) if all pass. A user bidder
    (``kernels.user``) is asked with ``users``."""
    first = (dealer + 1) % players
    taker = -1
    contract = PASS
    for j in range(players):
        seat = (first + j) % players
        policy = cfg[seat_slot(seat, P_BID_POLICY)]
        if policy >= BID_USER:
            if users is None:
                raise ValueError("a user bidder needs its function")
            else:
                wish = user_bid(users, policy, seat_view(tb, seat))
        elif policy != BID_MONTECARLO:
            wish = choose_bid(policy, seat_view(tb, seat), cfg)
        elif search is None:
            raise ValueError("the montecarlo bidder needs the search scratch")
        else:
            wish = montecarlo_wish(seat_view(tb, seat), cfg, key, deal, search.bid)
        auction.wishes[seat] = wish
        if wish > contract:
            contract = wish
            taker = seat
            tb.bids[j] = wish
        else:
            tb.bids[j] = PASS
    return taker, contract


@njit(inline="always")
def _bid(
    tb: DealState,
    cfg: np.ndarray,
    log: np.ndarray,
    players: int,
    dealer: int,
    key: np.ndarray,
    deal: int,
    auction: Auction,
    search: Search | None,
    users: Users | None,
) -> tuple[int, int]:
    """The auction (``_auction``), or the sweep's forced taker and contract; the words said go
    to ``tb.bids`` and the log. Returns (taker, contract), (-1, PASS) if all pass."""
    forced = cfg[C_FORCED_CONTRACT]
    if forced <= PASS:
        taker, contract = _auction(tb, cfg, players, dealer, key, deal, auction, search, users)
    else:
        forced_bids(tb, cfg, players, dealer)
        taker, contract = cfg[C_FORCED_TAKER], forced
    for j in range(players):
        log[L_BIDS + j] = tb.bids[j]
    return taker, contract


@njit(inline="always")
def play_cards(tb: DealState, cfg: np.ndarray, search: Search | None, users: Users | None) -> None:
    """The card play of the deal, from the first trick to the last counted: ``driver.play_to_end``
    (with ``users``, the run's user card players, when it has some), which hands back each
    card of a searching policy (``pimc``) and each poignée of one (``poignee=search``), asked
    here with ``search``: the poignée shown (``decisions.show_searched``), then the seat's card."""
    if users is None:
        seat = play_to_end(tb, cfg)
    else:
        seat = play_to_end(tb, cfg, users)
    while seat >= 0:
        code = card_policy(tb, cfg, seat)
        if search is None:
            raise ValueError("a searching card-play or poignee policy needs the search scratch")
        else:
            if tb.info[I_TRICK] == 0 and cfg[seat_slot(seat, P_POIGNEE_POLICY)] == POIGNEE_SEARCH:
                show_searched(tb, cfg, seat, search.play)
            if code == PLAY_PIMC:
                legal0, legal1 = legal_now(tb, seat)
                put_card(tb, seat, pimc_card(seat_view(tb, seat), legal0, legal1, cfg, search.play))
            elif code < PLAY_USER:
                play_plain_card(tb, cfg, seat)
            elif users is None:
                raise ValueError("a user card-play code without its function")
            else:
                legal0, legal1 = legal_now(tb, seat)
                put_card(tb, seat, user_card(users, code, seat_view(tb, seat), legal0, legal1))
        if users is None:
            seat = play_to_end(tb, cfg)
        else:
            seat = play_to_end(tb, cfg, users)


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
def dealer_of(deal: int, cfg: np.ndarray) -> int:
    """The seat that deals deal number ``deal``: ``deal % players``, or the run's fixed dealer."""
    return deal % cfg[C_PLAYERS] if cfg[C_DEALER] == 0 else cfg[C_DEALER] - 1


@njit(inline="always")
def deal_shuffled(tb: DealState, cfg: np.ndarray) -> None:
    """Shuffle the pack from the deal's stream and deal it into ``tb.dealt`` and ``tb.chien``,
    the cards given to seats or the chien (``C_FIXED``) first put in their places, the rest
    dealt uniformly around them: the deal of ``play_deal`` and of a deal played step by step.
    With ranges on the hands (``C_WHERE_ON``), one seat's hand drawn from the law of its counts
    and the deal dealt again until every other range holds (``kernels.dealing.deal_condition``):
    exactly uniform among the deals that meet them, deal ``i`` the deal ``i`` of
    ``tarotsim.deal`` with the same key and condition. The run checks first that the ranges
    left to rejection are met often enough (``tarotsim.dealing``)."""
    deal_condition(tb.rng, tb.pack, tb.dealt, tb.chien, cfg, 0)


@njit(inline="always")
def record_result(tb: DealState, cfg: np.ndarray, rec: np.ndarray, log: np.ndarray) -> None:
    """After the last trick: the play into ``log``, the deal scored (``steps.settle_deal``, the
    poignées' bonuses included) and its result into ``rec``, for ``play_deal`` and a deal
    played step by step (``kernels.stepwise``) alike."""
    players = cfg[C_PLAYERS]
    log_play(tb, cfg, log)
    bonuses = poignee_points(tb, players)
    for seat in range(players):
        if log[L_POIGNEE + seat] > 0:
            rec[R_N_POIGNEES] += 1

    put_result(tb, players, rec, bonuses, settle_deal(tb, cfg, bonuses))


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


@njit(_nrt=False)
def play_deal(
    deal: int,
    key: np.ndarray,
    cfg: np.ndarray,
    tb: DealState,
    rec: np.ndarray,
    log: np.ndarray,
    auction: Auction,
    search: Search | None,
    users: Users | None = None,
) -> None:
    """Play deal number ``deal`` of the run whose key is ``key`` (uint64[4]) into ``rec`` and
    ``log``; ``auction`` is the auction's scratch (``new_auction``), ``search`` the search
    players' (``searching.new_search``) or ``None`` when no seat searches, ``users`` the
    run's user card players (``kernels.user``) or ``None``."""
    players = cfg[C_PLAYERS]
    hand_size = cfg[C_HAND]
    dealer = dealer_of(deal, cfg)
    info = tb.info

    seed_stream(tb.rng, key, deal)
    if search is not None:
        note_deal(search.play, key, deal)
    if cfg[C_DEALING] == DEALING_UNSHUFFLED and deal % SEQUENCE_DEALS != 0:
        cut_pack(tb.rng, tb.pack)
        deal_packets(
            tb.rng, tb.pack, tb.dealt, tb.chien, players, hand_size, cfg[C_CHIEN], (dealer + 1) % players
        )
    else:
        deal_shuffled(tb, cfg)
    _reset_record(rec, dealer)
    reset_table(tb, players, dealer)
    if cfg[C_FORCED_CONTRACT] > PASS:  # a sweep knows its taking seat's hand even when the deal is thrown in
        _auction(
            tb, cfg, players, dealer, key, deal, auction, search, users
        )  # the wishes the other seats would bid
        _record_hand(tb, cfg, rec, cfg[C_FORCED_TAKER], auction.wishes)

    for seat in range(players):
        if is_petit_sec(tb.dealt[seat, 1]):
            rec[R_THROWN_IN] = THROWN_PETIT_SEC
            return

    taker, contract = _bid(tb, cfg, log, players, dealer, key, deal, auction, search, users)
    if taker < 0:
        rec[R_THROWN_IN] = THROWN_ALL_PASS
        return
    rec[R_TAKER] = taker
    rec[R_CONTRACT] = contract
    _record_hand(tb, cfg, rec, taker, auction.wishes)
    stage = take_contract(tb, cfg, taker, contract)
    if stage >= 0:
        if search is None:
            raise ValueError("a searching call, ecart or chelem policy needs the search scratch")
        else:
            decide_searched(tb, cfg, taker, contract, stage, search.play)
    rec[R_CHELEM_ANNOUNCED] = info[I_CHELEM_ANNOUNCED]

    play_cards(tb, cfg, search, users)
    record_result(tb, cfg, rec, log)


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
