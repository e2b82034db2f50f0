"""Stage kernels for the benchmark: a deal played up to a stage and stopped there, built from
the game's own steps (``kernels.game``, ``kernels.steps``, ``kernels.deal``), so that the
cost of each stage of a deal is the difference of two runs (``bench.works.stage_work``,
``benchmarks/bench_engine.py``). A *stage* is this benchmark's cut of a deal; the rule
*steps* are ``kernels.steps``.

The stages, each run with every stage before it:

- ``STAGE_DEAL``: the deal's stream, the shuffle and the deal, the table made ready, the
  petit-sec check;
- ``STAGE_BID``: the auction (each seat's wished contract);
- ``STAGE_ECART``: the contract taken (``driver.take_contract``: the call, the chien, the
  écart, the count's start, the chelem announcement);
- ``STAGE_MOVES``: every card of the deal, each seat playing its lowest legal card: the
  legal set (``steps.legal_now``), the card out of the hand and the suit led and highest
  trump updated, the next trick started (``steps.start_trick``); no knowledge, no count;
- ``STAGE_KNOWLEDGE``: the same cards through ``steps.put_card``: what the play step
  keeps for the policies (the cards played, the voids shown, the trick's winner, worth
  and Petit, the partner once the called card is down); the trick's winner leads next;
- ``STAGE_COUNT``: the count of each trick (``steps.end_trick``);
- ``STAGE_PLAY``: the policies' choices (``game.play_card``, the poignées shown) in place
  of the lowest legal card: the card loop of ``game.play_deal``;
- ``STAGE_SCORE``: the result and the scores (``steps.settle_deal``);
- ``STAGE_RECORDS``: the record row and the decision log written, then copied into the
  output row: ``game.play_deal`` and ``batch.run_deals`` exactly.

Run to ``STAGE_RECORDS`` a stage kernel gives the records of ``batch.run_deals``
(``tests/test_stages.py``). Shuffled dealing and no search players only: the benchmark's runs.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from tarotsim._jit import njit
from tarotsim.cards import N_SUIT_CARDS
from tarotsim.kernels.batch import BLOCK_DEALS
from tarotsim.kernels.bits import lowest_bit
from tarotsim.kernels.deal import deal_pack, is_petit_sec, shuffle_pack
from tarotsim.kernels.driver import play_card, show_poignee, take_contract
from tarotsim.kernels.game import (
    Auction,
    _auction,
    _bid,
    _record_hand,
    _reset_record,
    new_auction,
    put_result,
)
from tarotsim.kernels.rng import seed_stream
from tarotsim.kernels.rules import card_bit, trick_after
from tarotsim.kernels.score import PASS, POIGNEE_BONUS
from tarotsim.kernels.state import (
    C_FORCED_CONTRACT,
    C_FORCED_TAKER,
    C_HAND,
    C_PLAYERS,
    I_CHELEM_ANNOUNCED,
    I_HI_TRUMP,
    I_LEADER,
    I_LED,
    I_TAKER,
    I_TRICK,
    I_TRICK_LEN,
    I_WIN_SEAT,
    L_LEADERS,
    L_PLAYS,
    L_POIGNEE,
    L_WINNERS,
    MAX_SEATS,
    N_LOG,
    N_REC,
    R_CHELEM_ANNOUNCED,
    R_CONTRACT,
    R_N_POIGNEES,
    R_TAKER,
    R_THROWN_IN,
    S_ATTACK_TRICKS,
    THROWN_ALL_PASS,
    THROWN_PETIT_SEC,
    DealState,
    new_state,
)
from tarotsim.kernels.steps import (
    end_trick,
    legal_now,
    put_card,
    reset_table,
    settle_deal,
    start_trick,
)

STAGE_DEAL = 0
STAGE_BID = 1
STAGE_ECART = 2
STAGE_MOVES = 3
STAGE_KNOWLEDGE = 4
STAGE_COUNT = 5
STAGE_PLAY = 6
STAGE_SCORE = 7
STAGE_RECORDS = 8
N_STAGES = 9
STAGES: tuple[tuple[str, str], ...] = (
    ("deal", "the deal's stream, the shuffle and the deal, the table made ready, the petit-sec check"),
    ("bid", "the auction: each seat's wished contract"),
    ("écart", "the contract taken: the call (5 players), the chien and the écart, the count started"),
    (
        "moves",
        "every card: its legal set, out of the hand, the suit led and highest trump (lowest legal card)",
    ),
    (
        "knowledge",
        "what the play step keeps for the policies (put_card: cards played, voids, trick winner, worth, Petit)",
    ),
    ("count", "each trick counted; its winner leads the next (end_trick)"),
    ("play", "the policies' choices and poignées in place of the lowest legal card"),
    ("score", "the result and every seat's score (settle_deal)"),
    ("records", "the record row (the taker's hand, the others' wished contracts), the log, the copy out"),
)
"""The stages in play order (index = ``STAGE_*`` code): name, what each adds."""


@njit(inline="always")
def _lowest_legal(tb: DealState, seat: int) -> int:
    """The lowest card (by id) that ``seat`` may play now: a choice that costs next to nothing."""
    legal0, legal1 = legal_now(tb, seat)
    return lowest_bit(legal0) if legal0 else N_SUIT_CARDS + lowest_bit(legal1)


@njit(_nrt=False)
def _fixed_cards(stage: int, tb: DealState, cfg: np.ndarray) -> None:
    """Play every card of the deal, each seat its lowest legal card, up to ``stage``
    (``STAGE_MOVES``, ``STAGE_KNOWLEDGE`` or ``STAGE_COUNT``)."""
    players = cfg[C_PLAYERS]
    info = tb.info
    for t in range(cfg[C_HAND]):
        seat = info[I_LEADER]
        for _ in range(players):
            card = _lowest_legal(tb, seat)
            if stage == STAGE_MOVES:
                bit0, bit1 = card_bit(card)
                tb.hands[seat, 0] ^= bit0
                tb.hands[seat, 1] ^= bit1
                info[I_LED], info[I_HI_TRUMP] = trick_after(info[I_LED], info[I_HI_TRUMP], card)
                info[I_TRICK_LEN] += 1
            else:
                put_card(tb, seat, card)
            seat = seat + 1 if seat + 1 < players else 0
        if stage == STAGE_MOVES:
            start_trick(info, info[I_LEADER], t + 1)
        elif stage == STAGE_KNOWLEDGE:
            start_trick(info, info[I_WIN_SEAT], t + 1)
        else:
            end_trick(tb, cfg)


@njit(_nrt=False)
def play_until(
    stage: int,
    deal: int,
    key: np.ndarray,
    cfg: np.ndarray,
    tb: DealState,
    rec: np.ndarray,
    log: np.ndarray,
    auction: Auction,
) -> None:
    """Play deal number ``deal`` of the run whose key is ``key`` (uint64[4]) up to ``stage``
    (``STAGE_*``) on ``tb``; ``rec`` (int64[N_REC]) and ``log`` (int64[N_LOG]) are written
    at ``STAGE_RECORDS`` only, which is ``game.play_deal`` (shuffled dealing, no search
    players); ``auction`` is the auction's scratch (``game.new_auction``)."""
    players = cfg[C_PLAYERS]
    hand_size = cfg[C_HAND]
    dealer = deal % players
    info = tb.info
    records = stage >= STAGE_RECORDS

    seed_stream(tb.rng, key, deal)
    shuffle_pack(tb.rng, tb.pack)
    deal_pack(tb.pack, tb.dealt, tb.chien, players, hand_size)
    if records:
        _reset_record(rec, dealer)
    reset_table(tb, players, dealer)
    if records and cfg[C_FORCED_CONTRACT] > PASS:
        _auction(tb, cfg, players, dealer, key, deal, auction, None, None)
        _record_hand(tb, cfg, rec, cfg[C_FORCED_TAKER], auction.wishes)
    for seat in range(players):
        if is_petit_sec(tb.dealt[seat, 1]):
            if records:
                rec[R_THROWN_IN] = THROWN_PETIT_SEC
            return
    if stage < STAGE_BID:
        return

    taker, contract = _bid(tb, cfg, log, players, dealer, key, deal, auction, None, None)
    if taker < 0:
        if records:
            rec[R_THROWN_IN] = THROWN_ALL_PASS
        return
    if records:
        rec[R_TAKER] = taker
        rec[R_CONTRACT] = contract
        _record_hand(tb, cfg, rec, taker, auction.wishes)
    if stage < STAGE_ECART:
        return

    take_contract(tb, cfg, taker, contract)
    if records:
        rec[R_CHELEM_ANNOUNCED] = info[I_CHELEM_ANNOUNCED]
    if stage < STAGE_MOVES:
        return
    if stage < STAGE_PLAY:
        _fixed_cards(stage, tb, cfg)
        return

    poignee_points = 0
    n_poignees = 0
    for t in range(hand_size):
        seat = info[I_LEADER]
        if records:
            log[L_LEADERS + t] = seat
        for j in range(players):
            if t == 0:
                size = show_poignee(tb, cfg, seat)
                if records:
                    log[L_POIGNEE + seat] = size
                if size > 0:
                    poignee_points += POIGNEE_BONUS[size]
                    n_poignees += 1
            card = play_card(tb, cfg, seat)
            if records:
                log[L_PLAYS + t * MAX_SEATS + j] = card
            seat = seat + 1 if seat + 1 < players else 0
        winner = end_trick(tb, cfg)
        if records:
            log[L_WINNERS + t] = winner
    if stage < STAGE_SCORE:
        return

    settled = settle_deal(tb, cfg, poignee_points)
    if not records:
        return
    rec[R_N_POIGNEES] = n_poignees
    put_result(tb, players, rec, poignee_points, settled)


@njit
def _stage_block(
    stage: int, start: int, stop: int, key: np.ndarray, cfg: np.ndarray, out: np.ndarray
) -> None:
    """Deals start … stop - 1 up to ``stage`` on one table. At ``STAGE_RECORDS`` row ``deal``
    of ``out`` gets the deal's record; before it, column 0 gets a digest of the table."""
    tb = new_state()
    auction = new_auction()
    rec = np.zeros(N_REC, dtype=np.int64)
    log = np.zeros(N_LOG, dtype=np.int64)
    for deal in range(start, stop):
        play_until(stage, deal, key, cfg, tb, rec, log, auction)
        if stage >= STAGE_RECORDS:
            for c in range(N_REC):
                out[deal, c] = rec[c]
        else:
            out[deal, 0] = tb.info[I_TAKER] + tb.info[I_TRICK] + tb.count[S_ATTACK_TRICKS] + tb.scores[0]


@njit(parallel=True)
def run_stage(stage: int, key: np.ndarray, cfg: np.ndarray, out: np.ndarray) -> None:
    """Play deals 0 … len(out) - 1 up to ``stage`` (``STAGE_*``) in blocks of
    ``batch.BLOCK_DEALS``, in parallel; ``out`` is int32[deals, N_REC] as in ``batch.run_deals``."""
    deals = out.shape[0]
    for block in prange((deals + BLOCK_DEALS - 1) // BLOCK_DEALS):
        _stage_block(stage, block * BLOCK_DEALS, min(deals, (block + 1) * BLOCK_DEALS), key, cfg, out)
