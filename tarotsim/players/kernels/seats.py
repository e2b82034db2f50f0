"""A whole deal for a run, and the one ``decide`` of every kind of player.

``play_deal`` plays one deal of a run on the deal machine (``players.kernels.machine``): the deal
dealt (``machine.deal_table``), then the machine run to the end (``run_until``), writing one
record row (``rec``, int64[N_REC], columns R_*) and a log of the decisions (``log``,
int64[N_LOG], slots L_*) from which traces are written. The record columns are described for
users in ``tarotsim.engine.records``.

``decide`` answers the decision the machine waits on for every kind of player: a searching
built-in (the ``montecarlo`` bid, the ``pimc`` card, the ``search`` call, écart, chelem and
poignée of ``players.kernels.search.decisions``, with the search scratch: ``searched``, from the
seat's view alone, ``searched_view``, which ``tarotsim.interfaces.game.decide`` asks for one
observation), a built-in, or a user's Numba function (``machine.choose``). ``run_until`` lets the machine run, answering its
searching decisions here (``searched``), up to a decision of a seat the caller plays
(``VecEnv``, the Python players, PettingZoo, OpenSpiel) or the end of the deal. Another
searching decision is one more branch of ``searched`` and of ``machine.searches``.

A run links neither ``decide`` nor ``machine.choose``: the machine's policies decide inside
``machine.run`` (its trick loop inlines the card policies), and ``choose`` would compile them
all once more (each compiled function links, and optimizes again, all it calls).

``search`` is the search players' scratch (``players.kernels.search.searching.Search``) or ``None`` when
no seat searches; the ``search is None`` tests are settled when Numba compiles for the
argument's type, so the game without search players compiles and carries none of them,
and raises if a seat's policy searches.
"""

from __future__ import annotations

import numpy as np

from tarotsim._jit import njit
from tarotsim.engine.cards import N_CARDS
from tarotsim.engine.kernels.rng import seed_stream
from tarotsim.engine.kernels.rules import card_bit
from tarotsim.engine.kernels.score import GARDE, POIGNEE_NONE
from tarotsim.engine.kernels.state import (
    C_HAND,
    C_PLAYERS,
    L_PLAYS,
    MAX_SEATS,
    PH_BID,
    PH_CALL,
    PH_CHELEM,
    PH_ECART,
    PH_OVER,
    PH_PLAY,
    PH_WISH,
    Q_PHASE,
    Q_SEAT,
    R_CONTRACT,
    R_DEALER,
    R_THROWN_IN,
    THROWN_NONE,
    DealState,
)
from tarotsim.engine.kernels.view import SeatView, seat_view
from tarotsim.players.kernels.machine import (
    apply,
    choose,
    deal_table,
    dealer_of,
    ecart_card,
    lay_whole_ecart,
    run,
    searches,
    waits,
)
from tarotsim.players.kernels.search.decisions import (
    T_CALL,
    T_CHELEM,
    T_ECART,
    T_POIGNEE,
    decide_searched,
    largest_poignee,
)
from tarotsim.players.kernels.search.montecarlo import montecarlo_wish
from tarotsim.players.kernels.search.pimc import pimc_card
from tarotsim.players.kernels.search.scratch import Q_DEAL, note_deal
from tarotsim.players.kernels.search.searching import Search
from tarotsim.players.kernels.user import Users


@njit(inline="always")
def searched_view(
    v: SeatView,
    cfg: np.ndarray,
    phase: int,
    legal0: np.uint64,
    legal1: np.uint64,
    laid0: np.uint64,
    laid1: np.uint64,
    search: Search,
) -> int:
    """The code a searching policy (``machine.searches``: the ``montecarlo`` bid, the ``pimc``
    card, a ``search`` call, écart, chelem or poignée) of the seat of ``v`` chooses at a
    decision of ``phase`` with legal choices ``(legal0, legal1)``, from its view alone, with
    the search scratch ``search`` (its draws seeded by the run key and deal number that
    ``scratch.note_deal`` kept): at the écart, the lowest card not yet laid (``laid0``,
    ``laid1``) of the écart searched; the call, the écart, the chelem and the poignée by
    their one kernel (``decisions.decide_searched``). Inlined where a run answers a searching
    decision (``searched``); ``tarotsim.interfaces.game.decide`` calls it for one observation,
    which compiles it as a function of its own."""
    sc = search.play
    if phase == PH_PLAY:
        return pimc_card(v, legal0, legal1, cfg, sc)
    if phase == PH_BID or phase == PH_WISH:
        return montecarlo_wish(v, cfg, sc.key, sc.scalars[Q_DEAL], search.bid)
    if phase == PH_CALL:
        kind = T_CALL
    elif phase == PH_ECART:
        kind = T_ECART
    elif phase == PH_CHELEM:
        kind = T_CHELEM
    else:
        kind = T_POIGNEE
    best = decide_searched(v, cfg, sc, kind)  # one call for the four: each call of it is compiled in full
    if phase == PH_CALL:
        return sc.candidate[best]
    if phase == PH_ECART:
        return ecart_card(sc.choices[best, 0], sc.choices[best, 1], legal0, legal1, laid0, laid1)
    if phase == PH_CHELEM:
        return best
    return largest_poignee(v, cfg) if best == 1 else POIGNEE_NONE


@njit(inline="always")
def searched(tb: DealState, cfg: np.ndarray, search: Search) -> int:
    """The code a searching policy chooses for the seat to decide in ``tb`` (``searched_view``
    on its view and the decision waiting). Inlined, as ``searched_view`` is: every compiled
    function emits again the machine code of all it calls, so a layer of calls between a run
    and the search players would cost a run's first compile the search players' code once more."""
    pos = tb.pos
    return searched_view(
        seat_view(tb, pos[Q_SEAT]),
        cfg,
        pos[Q_PHASE],
        tb.legal[0],
        tb.legal[1],
        tb.laid[0],
        tb.laid[1],
        search,
    )


@njit(_nrt=False)
def decide(tb: DealState, cfg: np.ndarray, search: Search | None, users: Users | None) -> int:
    """The code the seat to decide in ``tb`` chooses (``pos`` and ``legal`` say the decision),
    by its policies in ``cfg``: a searching policy's (``machine.searches``) with ``search``
    (``searched``; raises without it), any other decision by ``machine.choose`` (a user's
    function in ``users``)."""
    if not searches(tb, cfg):
        pos = tb.pos
        v = seat_view(tb, pos[Q_SEAT])
        return choose(v, cfg, pos[Q_PHASE], tb.legal[0], tb.legal[1], tb.laid[0], tb.laid[1], users)
    if search is None:
        raise ValueError("a searching policy needs the search scratch")
    else:
        return searched(tb, cfg, search)


@njit(inline="always")
def run_until(
    tb: DealState,
    cfg: np.ndarray,
    rec: np.ndarray,
    log: np.ndarray,
    search: Search | None,
    users: Users | None,
    play_seats: int,
    act_seats: int,
) -> None:
    """Run the machine (``machine.run``), answering its searching decisions with ``search``
    (``searched``; a searched écart laid whole), until the deal is over or a
    decision belongs to the caller: any decision of a seat of ``act_seats``, a card of a seat
    of ``play_seats`` (bit ``seat`` of each). Without ``search`` it compiles none of the
    search players, and raises at a searching decision. Inlined into its callers: the
    machine's policies are compiled once, in ``machine.run``, whatever ``search`` is."""
    pos = tb.pos
    while True:
        run(tb, cfg, rec, log, users, play_seats, act_seats)
        if pos[Q_PHASE] == PH_OVER or waits(pos, play_seats, act_seats):
            return
        if search is None:
            raise ValueError("a searching policy needs the search scratch")
        else:
            if pos[Q_PHASE] == PH_ECART:
                sc = search.play
                best = decide_searched(seat_view(tb, pos[Q_SEAT]), cfg, sc, T_ECART)
                lay_whole_ecart(tb, sc.choices[best, 0], sc.choices[best, 1])
                continue
            apply(tb, cfg, rec, log, searched(tb, cfg, search))


@njit(inline="always")
def play_deal(
    deal: int,
    key: np.ndarray,
    cfg: np.ndarray,
    tb: DealState,
    rec: np.ndarray,
    log: np.ndarray,
    search: Search | None,
    users: Users | None = None,
) -> None:
    """Play deal number ``deal`` of the run whose key is ``key`` (uint64[4]) into ``rec`` and
    ``log``; ``search`` is the search players' scratch (``searching.new_search``) or ``None``
    when no seat searches, ``users`` the run's user card players (``players.kernels.user``) or ``None``.
    Inlined into ``runs.kernels.batch.play_block``, which then emits the game's code once."""
    seed_stream(tb.rng, key, deal)
    if search is not None:
        note_deal(search.play, key, deal)
    deal_table(tb, cfg, rec, deal, dealer_of(deal, cfg))
    run_until(tb, cfg, rec, log, search, users, 0, 0)


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
