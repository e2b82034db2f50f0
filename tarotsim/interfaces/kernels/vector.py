"""Many step-by-step deals at once, for ``tarotsim.VecEnv`` and the Python players: a batch of
games, each a ``DealState`` (the rows of ``Games``' arrays) on the deal machine (``players.kernels.machine``).

Four entry points:

- ``step``: for every game of a block of the batch, apply the caller's action (if any), then let the
  built-in policies of the game's ``cfg`` row decide (``players.kernels.seats.run_until``; the searching ones with
  the block's search scratch, seeded by the run key and the game's deal number) up to the next
  decision of a seat the caller plays, or to the end of the deal; a finished deal leaves its
  record and, when the game goes on, the game is dealt its next deal (deal numbers
  ``deal, deal + stride, …``; a deal thrown in before any of the caller's decisions is passed
  over). Then the observation row of the seat to act and its legal-action mask are written.
  Each game depends only on its own arrays, so blocks run on threads give the same results
  whatever the number of threads.
- ``action_codes``: the codes of a batch of actions, checked against the masks.
- ``observe``: the observation row of one seat of one deal (``tarotsim.interfaces.game.Game``).
- ``decide_user_seats``: the decisions of seats played by a user's Numba function
  (``players.kernels.user``), made by the one ``players.kernels.seats.decide``: a Python
  player's run hands such seats to the caller, which asks here.

An observation row (int64, slots ``O_*``) holds what the seat knows: it serializes the
seat's ``SeatView`` (``engine.kernels.view.seat_view``, where every fact of what a seat knows is
decided) and the decision's position, which the view does not hold (the phase, whether the
seat is to act, its legal choices, the auction's words, highest bid and bidder, the écart
laid so far by the taker). Its first ``N_OBS`` slots are what ``Observation.tensor``
encodes (``VecEnv``'s compact observation); the ``N_ROW - N_OBS`` after them are the view's
arrays (public scalars, tricks, the random stream…) from which ``tarotsim.interfaces.game.Observation``
rebuilds the view a built-in policy decides from. Card sets are two words (word 0, word 1) as ``engine.cards.to_mask`` makes
them; they fit in an int64 (56 and 22 bits). -1 means "none".
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from tarotsim._jit import njit
from tarotsim.engine.cards import N_CARDS, N_SUIT_CARDS
from tarotsim.engine.kernels.bits import ONE, ZERO, lowest_bit
from tarotsim.engine.kernels.encode import encode
from tarotsim.engine.kernels.rng import STREAM_WORDS
from tarotsim.engine.kernels.rules import card_bit
from tarotsim.engine.kernels.state import (
    C_PLAYERS,
    H_LEADER,
    I_CALLED,
    I_CHELEM_ANNOUNCED,
    I_CHIEN_SHOWN,
    I_DEALER,
    I_LEADER,
    I_PARTNER,
    I_TAKER,
    I_TRICK,
    I_TRICK_LEN,
    MAX_SEATS,
    MAX_TRICKS,
    N_HISTORY,
    N_INFO,
    N_LOG,
    N_POS,
    N_REC,
    PH_OVER,
    PH_PLAY,
    PH_POIGNEE,
    Q_CONTRACT,
    Q_PHASE,
    Q_SEAT,
    Q_SPOKEN,
    Q_TAKER,
    DealState,
)
from tarotsim.engine.kernels.view import SeatView, seat_view
from tarotsim.players.kernels.machine import apply, start, waits
from tarotsim.players.kernels.search.scratch import note_deal
from tarotsim.players.kernels.search.searching import Search
from tarotsim.players.kernels.seats import decide, run_until
from tarotsim.players.kernels.user import F_SEAT, Users

# observation row slots: what Observation.tensor encodes (the first N_OBS)
O_PHASE = 0  # state.PH_*
O_PLAYERS = 1
O_SEAT = 2  # the observing seat
O_TO_ACT = 3  # 1 when the seat is to act (the legal words are its choices)
O_DEALER = 4
O_CONTRACT = 5  # the highest bid so far (contract code, 0 none)
O_TAKER = 6  # its bidder during the auction, then the taker; -1 none
O_CALLED = 7  # five players: the card called, -1 none
O_PARTNER = 8  # the partner once public, -1 otherwise
O_CHELEM = 9  # 1 when a chelem was announced
O_ATTACK = 10  # 1 when the seat plays for the attack (as it knows it)
O_CHIEN_SHOWN = 11  # 1 when the chien was turned face up
O_SPOKEN = 12  # words said in the auction so far
O_LEADER = 13  # seat leading the trick in play, -1 before the play and once over
O_TRICK_LEN = 14  # cards on the trick in play
O_TRICKS_DONE = 15  # tricks completed
O_BIDS = 16  # MAX_SEATS: the words said, in speaking order (contract code, -1 not yet)
O_TRICK = O_BIDS + MAX_SEATS  # MAX_SEATS: the cards of the trick in play, in play order, -1 none
O_HAND = O_TRICK + MAX_SEATS  # 2 words: the hand (at the écart: less the cards laid)
O_CHIEN = O_HAND + 2  # 2 words: the chien once shown
O_ECART = O_CHIEN + 2  # 2 words: the écart as the seat knows it (laid so far, for the taker)
O_LEGAL = O_ECART + 2  # 2 words: the legal choices (``DealState.legal``) when to act, else 0
O_PLAYED = O_LEGAL + 2  # 2 words per seat: every card it has played, the trick in play included
O_POIGNEES = O_PLAYED + 2 * MAX_SEATS  # 2 words per seat: the poignée it showed
N_OBS = O_POIGNEES + 2 * MAX_SEATS
# the seat's SeatView arrays and its decision (Observation rebuilds the view from them)
O_VIEW_HAND = N_OBS  # 2 words: kernels.view.seat_view's hand0, hand1
O_VIEW_ECART = O_VIEW_HAND + 2  # 2 words: its ecart0, ecart1
O_VIEW_CHIEN = O_VIEW_ECART + 2  # 2 words: its chien0, chien1
O_LAID = O_VIEW_CHIEN + 2  # 2 words: the écart laid so far (the taker's, at the écart)
O_INFO = O_LAID + 2  # N_INFO
O_ALL_PLAYED = O_INFO + N_INFO  # 2 words
O_RAW_TRICK = O_ALL_PLAYED + 2  # MAX_SEATS
O_SHOWN = O_RAW_TRICK + MAX_SEATS  # 2 words per seat
O_RAW_BIDS = O_SHOWN + 2 * MAX_SEATS  # MAX_SEATS
O_HISTORY = O_RAW_BIDS + MAX_SEATS  # MAX_TRICKS * N_HISTORY
O_RNG = O_HISTORY + MAX_TRICKS * N_HISTORY  # STREAM_WORDS, the stream's words as int64 bits
N_ROW = O_RNG + STREAM_WORDS


class Games(NamedTuple):
    """A batch of step-by-step deals: each array's first axis is the game (``new_games``)."""

    rng: np.ndarray  # the fields of DealState, one row per game
    pack: np.ndarray
    hands: np.ndarray
    dealt: np.ndarray
    chien: np.ndarray
    ecart: np.ndarray
    attack: np.ndarray
    trick: np.ndarray
    played: np.ndarray
    shown: np.ndarray
    info: np.ndarray
    scores: np.ndarray
    count: np.ndarray
    pile: np.ndarray
    history: np.ndarray
    bids: np.ndarray
    pos: np.ndarray  # int64[G, N_POS]: the machine's position (``DealState.pos``)
    laid: np.ndarray  # uint64[G, 2]
    rec: np.ndarray  # int64[G, N_REC]: the deal's record once over
    log: np.ndarray  # int64[G, N_LOG]
    legal: np.ndarray  # uint64[G, 2]
    row: np.ndarray  # int64[G]: the game's row of ``cfgs`` (its table and built-in policies)
    play_seats: np.ndarray  # int64[G]: bit per seat whose cards the caller plays
    act_seats: np.ndarray  # int64[G]: bit per seat whose every decision the caller makes
    deal: np.ndarray  # int64[G]: the deal in play
    stride: np.ndarray  # int64[G]: the next deal is deal + stride; 0: the game stops after this one
    decided: np.ndarray  # int64[G]: 1 once the caller has decided in the deal in play
    seen: np.ndarray  # uint64[G, MAX_SEATS, 2]: per seat, the cards played to the tricks folded
    folded: np.ndarray  # int64[G]: tricks completed folded into ``seen``


def new_games(n: int) -> Games:
    """A batch of ``n`` games, all zero (``step`` with the code -2 deals them)."""
    u = np.uint64
    i = np.int64
    return Games(
        np.zeros((n, STREAM_WORDS), u),
        np.zeros((n, N_CARDS), i),
        np.zeros((n, MAX_SEATS, 2), u),
        np.zeros((n, MAX_SEATS, 2), u),
        np.zeros((n, 2), u),
        np.zeros((n, 2), u),
        np.zeros((n, MAX_SEATS), i),
        np.zeros((n, MAX_SEATS), i),
        np.zeros((n, 2), u),
        np.zeros((n, MAX_SEATS, 2), u),
        np.zeros((n, N_INFO), i),
        np.zeros((n, MAX_SEATS), i),
        np.zeros((n, 5), i),
        np.zeros((n, 2), u),
        np.zeros((n, MAX_TRICKS, N_HISTORY), i),
        np.zeros((n, MAX_SEATS), i),
        np.zeros((n, N_POS), i),
        np.zeros((n, 2), u),
        np.zeros((n, N_REC), i),
        np.zeros((n, N_LOG), i),
        np.zeros((n, 2), u),
        np.zeros(n, i),
        np.zeros(n, i),
        np.zeros(n, i),
        np.zeros(n, i),
        np.zeros(n, i),
        np.zeros(n, i),
        np.zeros((n, MAX_SEATS, 2), u),
        np.zeros(n, i),
    )


@njit(inline="always")
def _deal_state(gs: Games, g: int) -> DealState:
    """Game ``g``'s DealState: views of its rows."""
    return DealState(
        gs.rng[g],
        gs.pack[g],
        gs.hands[g],
        gs.dealt[g],
        gs.chien[g],
        gs.ecart[g],
        gs.attack[g],
        gs.trick[g],
        gs.played[g],
        gs.shown[g],
        gs.info[g],
        gs.scores[g],
        gs.count[g],
        gs.pile[g],
        gs.history[g],
        gs.bids[g],
        gs.pos[g],
        gs.laid[g],
        gs.legal[g],
    )


@njit(inline="always")
def _words(out: np.ndarray, at: int, word0: np.uint64, word1: np.uint64) -> None:
    out[at] = np.int64(word0)
    out[at + 1] = np.int64(word1)


@njit(inline="always")
def _add_card(seen: np.ndarray, card: int) -> None:
    bit0, bit1 = card_bit(card)
    seen[0] |= bit0
    seen[1] |= bit1


@njit(_nrt=False)
def _view_row(
    v: SeatView,
    phase: int,
    players: int,
    spoken: int,
    contract: int,
    taker: int,
    to_act: bool,
    legal0: np.uint64,
    legal1: np.uint64,
    laid0: np.uint64,
    laid1: np.uint64,
    seen: np.ndarray,
    folded: int,
    out: np.ndarray,
) -> int:
    """Serialize the view ``v`` and its decision into the observation row ``out`` (its first
    ``N_OBS`` slots, or all ``N_ROW``): every fact of what the seat knows is read from ``v``
    (``engine.kernels.view.seat_view`` decides it), the rest is the decision's position, which the
    view does not hold: ``phase`` (``state.PH_*``), ``spoken``, ``contract`` and ``taker``
    (the auction's words said so far, highest bid and bidder, -1 none; the deal's once it is
    over), ``to_act``, the legal choices ``(legal0, legal1)`` (empty when not to act) and the
    écart laid so far ``(laid0, laid1)`` (the taker's own, at the écart; empty for the others).

    The cards each seat played to the tricks completed since ``folded`` are folded into
    ``seen`` (uint64[MAX_SEATS, 2], per seat); returns how many tricks are folded now."""
    info = v.info
    out[O_PHASE] = phase
    out[O_PLAYERS] = players
    out[O_SEAT] = v.seat
    out[O_TO_ACT] = 1 if to_act else 0
    out[O_DEALER] = info[I_DEALER]
    out[O_CONTRACT] = contract
    out[O_TAKER] = taker
    out[O_CALLED] = info[I_CALLED]
    out[O_PARTNER] = info[I_PARTNER]
    out[O_CHELEM] = 1 if info[I_CHELEM_ANNOUNCED] == 1 else 0
    out[O_ATTACK] = 1 if v.attack else 0
    out[O_CHIEN_SHOWN] = 1 if info[I_CHIEN_SHOWN] == 1 else 0
    out[O_SPOKEN] = spoken
    for j in range(MAX_SEATS):
        out[O_BIDS + j] = v.bids[j] if j < spoken else -1
    in_play = (phase == PH_POIGNEE or phase == PH_PLAY or phase == PH_OVER) and info[I_TAKER] >= 0
    done = info[I_TRICK] if in_play else 0
    out[O_TRICKS_DONE] = done
    if folded > done:  # a new deal
        folded = 0
    if folded == 0:
        for s in range(MAX_SEATS):
            seen[s, 0] = ZERO
            seen[s, 1] = ZERO
    for t in range(folded, done):
        leader = v.history[t, H_LEADER]
        for j in range(players):
            s = leader + j
            s = s - players if s >= players else s
            _add_card(seen[s], v.history[t, j])
    for s in range(MAX_SEATS):
        out[O_PLAYED + 2 * s] = np.int64(seen[s, 0])
        out[O_PLAYED + 2 * s + 1] = np.int64(seen[s, 1])
        _words(out, O_POIGNEES + 2 * s, v.shown[s, 0], v.shown[s, 1])
        out[O_TRICK + s] = -1
    out[O_LEADER] = -1
    out[O_TRICK_LEN] = 0
    if in_play and phase != PH_OVER:
        leader = info[I_LEADER]
        length = info[I_TRICK_LEN]
        out[O_LEADER] = leader
        out[O_TRICK_LEN] = length
        for j in range(length):
            card = v.trick[j]
            out[O_TRICK + j] = card
            s = leader + j
            s = s - players if s >= players else s
            bit0, bit1 = card_bit(card)
            out[O_PLAYED + 2 * s] |= np.int64(bit0)
            out[O_PLAYED + 2 * s + 1] |= np.int64(bit1)
    _words(out, O_HAND, v.hand0 & ~laid0, v.hand1 & ~laid1)
    _words(out, O_CHIEN, v.chien0, v.chien1)
    _words(out, O_ECART, v.ecart0 | laid0, v.ecart1 | laid1)
    _words(out, O_LEGAL, legal0, legal1)
    if out.shape[0] < N_ROW:
        return done
    _words(out, O_VIEW_HAND, v.hand0, v.hand1)
    _words(out, O_VIEW_ECART, v.ecart0, v.ecart1)
    _words(out, O_VIEW_CHIEN, v.chien0, v.chien1)
    _words(out, O_LAID, laid0, laid1)
    for i in range(N_INFO):
        out[O_INFO + i] = info[i]
    _words(out, O_ALL_PLAYED, v.played[0], v.played[1])
    for s in range(MAX_SEATS):
        out[O_RAW_TRICK + s] = v.trick[s]
        out[O_RAW_BIDS + s] = v.bids[s]
        _words(out, O_SHOWN + 2 * s, v.shown[s, 0], v.shown[s, 1])
    for t in range(MAX_TRICKS):
        for c in range(N_HISTORY):
            out[O_HISTORY + t * N_HISTORY + c] = v.history[t, c]
    for i in range(STREAM_WORDS):
        out[O_RNG + i] = np.int64(v.rng[i])
    return done


@njit(inline="always")
def _write_row(
    tb: DealState,
    players: int,
    seat: int,
    seen: np.ndarray,
    folded: int,
    out: np.ndarray,
) -> int:
    """Write ``seat``'s observation row into ``out`` (its first ``N_OBS`` slots, or all
    ``N_ROW``); fold the tricks completed since ``folded`` into ``seen`` (per seat, the cards
    played to them) and return how many are folded now.

    The row serializes ``seat_view(tb, seat)`` (``_view_row``): what the seat knows is
    decided there alone. Of ``tb`` itself only the decision's position is read here: the
    machine's ``pos`` (the phase, the seat to act, the auction), the legal choices of the
    seat to act and the écart laid so far, which is the taker's alone. Inlined, and the row
    written by a call of ``_view_row``, which is handed the view (15 scalars and arrays)
    rather than the whole table (19 arrays)."""
    v = seat_view(tb, seat)
    pos = tb.pos
    phase = pos[Q_PHASE]
    contract = pos[Q_CONTRACT]
    taker = v.info[I_TAKER]
    to_act = phase != PH_OVER and seat == pos[Q_SEAT]
    mine = seat == taker
    return _view_row(
        v,
        phase,
        players,
        pos[Q_SPOKEN],
        contract,
        taker if taker >= 0 else (pos[Q_TAKER] if contract > 0 else -1),
        to_act,
        tb.legal[0] if to_act else ZERO,
        tb.legal[1] if to_act else ZERO,
        tb.laid[0] if mine else ZERO,
        tb.laid[1] if mine else ZERO,
        seen,
        folded,
        out,
    )


@njit(inline="always")
def _write_mask(
    phase: int, legal0: np.uint64, legal1: np.uint64, act_index: np.ndarray, mask: np.ndarray
) -> None:
    """Mark in ``mask`` (bool[n actions]) the actions of the legal choices ``(legal0, legal1)``."""
    for a in range(mask.shape[0]):
        mask[a] = False
    word = legal0
    while word:
        mask[act_index[phase, lowest_bit(word)]] = True
        word &= word - ONE
    word = legal1
    while word:
        mask[act_index[phase, N_SUIT_CARDS + lowest_bit(word)]] = True
        word &= word - ONE


@njit(inline="always")
def _encode_seat(tb: DealState, players: int, seat: int, out: np.ndarray) -> None:
    """``seat``'s observation, ``engine.kernels.encode``'s table, into ``out`` (the values the row
    holds, from the seat's view)."""
    info = tb.info
    pos = tb.pos
    laid = tb.laid
    phase = pos[Q_PHASE]
    taker = info[I_TAKER]
    contract = pos[Q_CONTRACT]
    mine = seat == taker
    encode(
        seat_view(tb, seat),
        phase,
        players,
        pos[Q_SPOKEN],
        contract,
        taker if taker >= 0 else (pos[Q_TAKER] if contract > 0 else -1),
        phase != PH_OVER and seat == pos[Q_SEAT],
        (phase == PH_POIGNEE or phase == PH_PLAY) and taker >= 0,
        laid[0] if mine else ZERO,
        laid[1] if mine else ZERO,
        out,
    )


@njit(inline="always")
def _step_game(
    gs: Games,
    g: int,
    cfgs: np.ndarray,
    key: np.ndarray,
    search: Search | None,
    code: int,
    act_index: np.ndarray,
    obs: np.ndarray,
    mask: np.ndarray,
    ended: np.ndarray,
    records: np.ndarray,
    final: np.ndarray,
    tensors: np.ndarray,
    final_tensors: np.ndarray,
) -> None:
    """Game ``g``'s part of ``step``."""
    tb = _deal_state(gs, g)
    cfg = cfgs[gs.row[g]]
    pos = gs.pos[g]
    rec = gs.rec[g]
    log = gs.log[g]
    legal = gs.legal[g]
    actor = pos[Q_SEAT] if code >= 0 else -1
    if code >= 0:
        apply(tb, cfg, rec, log, code)
        gs.decided[g] = 1
    elif code == -2:  # deal the game's deal afresh
        start(tb, cfg, rec, log, key, gs.deal[g], 0)
        gs.decided[g] = 0
        gs.folded[g] = 0
    elif pos[Q_PHASE] == PH_OVER:
        return  # a game that has stopped
    while True:
        if pos[Q_PHASE] != PH_OVER and waits(pos, gs.play_seats[g], gs.act_seats[g]):
            break
        if search is not None:
            note_deal(search.play, key, gs.deal[g])
        run_until(tb, cfg, rec, log, search, None, gs.play_seats[g], gs.act_seats[g])
        if pos[Q_PHASE] != PH_OVER:
            break
        if gs.decided[g]:
            ended[g] = gs.deal[g]
            for i in range(N_REC):
                records[g, i] = rec[i]
            if final.shape[0] > 0 and actor >= 0:
                gs.folded[g] = _write_row(tb, cfg[C_PLAYERS], actor, gs.seen[g], gs.folded[g], final[g])
            if final_tensors.shape[0] > 0 and actor >= 0:
                _encode_seat(tb, cfg[C_PLAYERS], actor, final_tensors[g])
        if gs.stride[g] == 0:
            return
        gs.deal[g] += gs.stride[g]
        start(tb, cfg, rec, log, key, gs.deal[g], 0)
        gs.decided[g] = 0
        gs.folded[g] = 0
    if obs.shape[0] > 0:
        gs.folded[g] = _write_row(tb, cfg[C_PLAYERS], pos[Q_SEAT], gs.seen[g], gs.folded[g], obs[g])
    if tensors.shape[0] > 0:
        _encode_seat(tb, cfg[C_PLAYERS], pos[Q_SEAT], tensors[g])
    if mask.shape[0] > 0:
        _write_mask(pos[Q_PHASE], legal[0], legal[1], act_index, mask[g])


@njit(_nrt=False)
def step(
    gs: Games,
    first: int,
    stop: int,
    cfgs: np.ndarray,
    key: np.ndarray,
    search: Search | None,
    codes: np.ndarray,
    act_index: np.ndarray,
    obs: np.ndarray,
    mask: np.ndarray,
    ended: np.ndarray,
    records: np.ndarray,
    final: np.ndarray,
    tensors: np.ndarray,
    final_tensors: np.ndarray,
) -> None:
    """One step of the games ``first … stop - 1`` of ``gs``.

    ``codes`` (int64[G]): per game, the code (``players.kernels.machine.apply``'s) of the action of the
    seat to act, -1 for no action (the game waits on the caller no more: a stopped game stays
    stopped), -2 to deal the game's deal ``gs.deal`` afresh. Each game then runs to its next
    decision of a seat the caller plays (``gs.play_seats``, ``gs.act_seats``), going on to
    the deal ``deal + stride`` after a deal ends (or stopping when ``stride`` is 0).
    ``cfgs`` is int64[k, N_CFG] (``gs.row`` picks a game's), ``key`` the run key of the
    deals, ``search`` the search players' scratch of this block of games
    (``searching.new_search``; ``None`` when no seat searches): a searching decision of a
    game is made as a run makes it (``players.kernels.seats.run_until``, its draws seeded by the key and the
    game's deal number, ``scratch.note_deal``), so a block needs a scratch of its own and no
    other, and the games' results do not depend on how they are split into blocks.

    Outputs, per game: ``obs`` (int64[G, N_OBS] or [G, N_ROW]) the row of the seat to act
    (left as it was for a stopped game); ``mask`` (bool[G, n actions], or no rows) its legal
    actions, ``act_index[phase, code]`` (``tarotsim.interfaces.game.action_table``) being the action
    of a code (a card id or a decision's code) at a phase; for a deal that ended with one of
    the caller's decisions in it, ``ended`` (int64[G]) its deal number and ``records``
    (int64[G, N_REC]) its record row and ``final`` (int64[G, N_OBS], or no rows) the
    observation row at the deal's end of the seat whose action the step applied (left as
    they were otherwise). ``tensors`` and ``final_tensors`` (float32 or uint8[G,
    ``engine.kernels.encode.N_FEATURES``], or no rows) get the same two observations encoded
    (``engine.kernels.encode``); ``obs`` may then have no rows (no row is written).

    Compiled without reference counting, so that the views of a game's rows cost nothing;
    it releases the GIL, so callers run blocks of games on threads of their own.
    """
    for g in range(first, stop):
        _step_game(
            gs,
            g,
            cfgs,
            key,
            search,
            codes[g],
            act_index,
            obs,
            mask,
            ended,
            records,
            final,
            tensors,
            final_tensors,
        )


@njit
def action_codes(
    actions: np.ndarray, mask: np.ndarray, act_codes: np.ndarray, codes: np.ndarray, illegal: np.ndarray
) -> int:
    """For each game ``g``, ``codes[g]`` the code (``players.kernels.machine.apply``'s) of the action
    ``actions[g]`` (int64[G], an index into ``act_codes``, ``tarotsim.interfaces.game.action_table``'s
    codes) when ``mask[g]`` (bool[G, n actions]) marks it legal, and ``illegal[g]`` (bool[G])
    whether it does not; an illegal action is replaced by the game's first legal one (its
    code written). Returns the first game whose action was illegal, or -1."""
    n_actions = mask.shape[1]
    first = -1
    for g in range(actions.shape[0]):
        a = actions[g]
        illegal[g] = a < 0 or a >= n_actions or not mask[g, a]
        if illegal[g]:
            if first < 0:
                first = g
            a = 0
            for legal in range(n_actions - 1, -1, -1):  # the first legal one (numpy's argmax)
                if mask[g, legal]:
                    a = legal
        codes[g] = act_codes[a]
    return first


@njit
def observe(tb: DealState, players: int, seat: int, seen: np.ndarray, out: np.ndarray) -> None:
    """``seat``'s observation row of the deal ``tb`` into ``out`` (int64[N_ROW]); ``seen``
    (uint64[MAX_SEATS, 2]) is scratch."""
    _write_row(tb, players, seat, seen, 0, out)


@njit
def decide_user_seats(gs: Games, which: np.ndarray, cfgs: np.ndarray, users: Users, codes: np.ndarray) -> int:
    """For each game ``g`` of ``which`` (int64[m], in order), ``codes[g]`` the code
    (``players.kernels.machine.apply``'s) the seat to act chooses by its policies in ``cfgs`` (``gs.row``
    picks the row), as ``players.kernels.seats.decide`` answers any seat: by its user
    function in ``users`` where its code is one (``players.kernels.user``: its card at the play, its
    wish at the bid). Returns -1, or the first game whose function returned an illegal card
    or wish (noted in ``users.fault``), where it stops."""
    for g in which:
        codes[g] = decide(_deal_state(gs, g), cfgs[gs.row[g]], None, users)
        if users.fault[F_SEAT] >= 0:
            return g
    return -1
