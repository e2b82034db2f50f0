"""Search for the decisions besides the card play: the king call, the écart, the chelem
announcement and the poignée (the ``search`` policy of each decision).

Each decision is taken the way the ``pimc`` player takes a card: the seat draws ``worlds``
deals of the cards it cannot see, consistent with what it knows (``constraints.seat_constraints``
on its ``SeatView``, with its ``knowledge``; ``worlds.draw_world``, exactly uniform), plays
each world out once per choice, every seat by the seat's rollout policy (option ``rollout``,
the heuristic by default; ``pimc.rollout_cfg``) and every other decision by the seat's
policies, a searching one by its decision's default (``policies.dispatch.plain_decisions``), and takes
the choice of best total score for itself (``steps.settle_deal``: contract, margin, bouts,
petit au bout, poignées, chelem, in points). The choices of one world share the world and
the playouts' random stream (common random numbers), so their differences are measured with
less noise than their levels. Ties go to the choice the decision's default policy makes.

- ``search_call`` (five players, before the chien): the cards of the lowest rank the taker
  may call that are not in its hand (the Kings, or the Queens when it holds every King …),
  the deal played from the start with each;
- ``search_ecart`` (Prise, Garde, the chien in the taker's hand): candidate écarts
  (``ecart_candidates``: the expert's, the simple one's, and those voiding one suit or two
  suits of their cards but the Kings, each completed by the expert's rule), the deal played
  from the start with each;
- ``search_chelem`` (the écart laid): the deal played from the start announced and not;
- ``search_poignee`` (before the seat's first card): the largest poignée its hand allows, or
  none, the deal played on from the position (``pimc.world_count``, ``pimc._set_table``).

The four decisions and their values are inlined into their one caller, ``game.decide`` (the
searched écart into ``game.searched_ecart``): each compiled function links, and optimizes
again, all it calls, so a run compiles each decision once.

The call, the écart and the chelem replay the deal from its start in each world (the taker's
hand as dealt is its hand and écart less the chien shown), so that the partner, the sides and
the count are those of the rules' own steps.

Randomness: each decision seeds its own sub-stream of the deal's stream
(``rng.seed_substream``: ``DECIDE_SUBSTREAM + MAX_SEATS * stage + seat``), so the deal's own
stream is untouched and the choice is a function of the run key, the deal number and the
seat's view, never of the cards it cannot see (``tests/test_search_decisions.py`` re-deals
them). When no world can be drawn, the default policy's choice is made.

Scratch: the ``pimc`` player's (``search.scratch.SearchScratch``, full size in a run where a
seat searches one of these decisions: ``searching.new_search``); each decision fills
``total`` (per choice, the sum of the seat's scores over the worlds) and ``world_values``
(per world and choice), which the tests read.

Wiring: the deal machine (``kernels.machine``) stops at a decision whose policy searches
(``machine.searches``) and ``game.decide`` answers it with its scratch, as it answers a
``pimc`` card; a searched écart is laid whole (``machine.lay_whole_ecart``).
"""

from __future__ import annotations

import numpy as np

from tarotsim._jit import njit
from tarotsim.cards import EXCUSE_BIT, KINGS_MASK, N_SUITS, SUIT_LEN, TRUMPS_MASK
from tarotsim.kernels.bits import ONE, popcount
from tarotsim.kernels.machine import play_tricks
from tarotsim.kernels.policies.announce import announces_chelem
from tarotsim.kernels.policies.call import called_card
from tarotsim.kernels.policies.codes import POIGNEE_ALWAYS, POIGNEE_NEVER
from tarotsim.kernels.policies.ecart import choose_ecart, expert_ecart, forced_trumps, simple_ecart
from tarotsim.kernels.rng import STREAM_WORDS, next_u64, seed_substream
from tarotsim.kernels.rules import suit_bits
from tarotsim.kernels.score import GARDE, POIGNEE_NONE, poignee_size
from tarotsim.kernels.search.constraints import seat_constraints, world_hands
from tarotsim.kernels.search.pimc import _set_table, rollout_cfg, world_count
from tarotsim.kernels.search.scratch import Q_DEAL, SearchScratch
from tarotsim.kernels.search.worlds import draw_world, holder_allowed, prepare_worlds
from tarotsim.kernels.state import (
    C_CHIEN,
    C_PLAYERS,
    FIVE_PLAYERS,
    I_CALLED,
    I_CONTRACT,
    I_DEALER,
    MAX_SEATS,
    P_CALL_WORLDS,
    P_CHELEM_POLICY,
    P_CHELEM_WORLDS,
    P_ECART_POLICY,
    P_ECART_WORLDS,
    P_POIGNEE_POLICY,
    P_POIGNEE_WORLDS,
    seat_slot,
)
from tarotsim.kernels.steps import (
    call_partner,
    lay_ecart,
    name_taker,
    poignee_points,
    reset_table,
    set_chien_aside,
    settle_deal,
    start_play,
    take_chien,
)
from tarotsim.kernels.view import SeatView, seat_view

DECIDE_SUBSTREAM = 0xDEC0
"""Sub-streams ``DECIDE_SUBSTREAM + MAX_SEATS * stage + seat`` of a deal's stream are its
seats' searched decisions (``stage``: ``T_CALL``, ``T_ECART``, ``T_CHELEM`` or ``T_POIGNEE``)."""
T_CALL = 0
"""The king call's stage in the sub-stream numbers (``DECIDE_SUBSTREAM``)."""
T_ECART = 1
"""The écart's stage in the sub-stream numbers."""
T_CHELEM = 2
"""The chelem announcement's stage in the sub-stream numbers."""
T_POIGNEE = 3
"""The poignée's stage in the sub-stream numbers."""
_ZERO = np.uint64(0)


@njit(_nrt=False)
def _prepare(v: SeatView, cfg: np.ndarray, sc: SearchScratch, stage: int) -> int:
    """Seed the decision's sub-stream, fill the holders of the unseen cards and prepare the
    sampler and the playouts' configuration; returns the number of holders, -1 when no world
    can be drawn."""
    seed_substream(sc.rng, sc.key, sc.scalars[Q_DEAL], DECIDE_SUBSTREAM + MAX_SEATS * stage + v.seat)
    n = seat_constraints(v, cfg, sc.unseen, sc.sizes, sc.voids, sc.known, sc.possible, sc.holder_seat)
    holder_allowed(sc.unseen, sc.voids, sc.known, sc.possible, n, sc.allowed)
    if prepare_worlds(sc.allowed, sc.sizes, n, sc.unseen, sc.worlds) <= 0.0:
        return -1
    rollout_cfg(cfg, v.seat, sc.rollout)
    return n


@njit(_nrt=False)
def _draw(sc: SearchScratch) -> None:
    """Draw a world (``sc.world``) and its playouts' random stream (``sc.playout_rng``)."""
    draw_world(sc.rng, sc.worlds, sc.world)
    for j in range(STREAM_WORDS):
        sc.playout_rng[j] = next_u64(sc.rng)


@njit(_nrt=False)
def _deal_world(v: SeatView, sc: SearchScratch, n: int) -> None:
    """The deal of the world just drawn in ``sc.table.dealt`` and ``sc.table.chien``: the
    taker's hand as dealt (its hand and écart less the chien shown), the other hands and the
    unseen chien from the world, the chien shown as it was."""
    pt = sc.table
    seat = v.seat
    pt.dealt[seat, 0] = (v.hand0 | v.ecart0) & ~v.chien0
    pt.dealt[seat, 1] = (v.hand1 | v.ecart1) & ~v.chien1
    pt.chien[0] = v.chien0
    pt.chien[1] = v.chien1
    for h in range(n):
        other = sc.holder_seat[h]
        if other >= 0:
            pt.dealt[other, 0] = sc.world[h, 0]
            pt.dealt[other, 1] = sc.world[h, 1]
        else:
            pt.chien[0] = sc.world[h, 0]
            pt.chien[1] = sc.world[h, 1]


@njit(_nrt=False)
def _replay(
    v: SeatView,
    cfg: np.ndarray,
    sc: SearchScratch,
    called: int,
    ecart0: np.uint64,
    ecart1: np.uint64,
    announce: int,
) -> int:
    """The taker's score in the deal of ``sc.table`` (``_deal_world``) played from its start
    with the taker's contract, the call ``called`` (five players),
    the écart ``(ecart0, ecart1)`` (Prise, Garde; an empty set: by its policy) and the chelem
    announced (``announce`` 1) or not (0; -1: by its policy), every card by the rollout policy
    (``sc.rollout``), from the world's playout stream."""
    pt = sc.table
    rollout = sc.rollout
    players = cfg[C_PLAYERS]
    taker = v.seat
    contract = v.info[I_CONTRACT]
    reset_table(pt, players, v.info[I_DEALER])
    for j in range(MAX_SEATS):
        pt.bids[j] = v.bids[j]
    for j in range(STREAM_WORDS):
        pt.rng[j] = sc.playout_rng[j]
    name_taker(pt, taker, contract)
    if players == FIVE_PLAYERS:
        call_partner(pt, players, taker, called)
    if contract <= GARDE:
        take_chien(pt, taker)
        if not (ecart0 | ecart1):
            ecart0, ecart1 = choose_ecart(
                rollout[seat_slot(taker, P_ECART_POLICY)], seat_view(pt, taker), cfg[C_CHIEN]
            )
        lay_ecart(pt, taker, ecart0, ecart1)
    else:
        set_chien_aside(pt, contract)
    if announce < 0:
        announced = announces_chelem(
            rollout[seat_slot(taker, P_CHELEM_POLICY)], seat_view(pt, taker), rollout
        )
    else:
        announced = announce == 1
    start_play(pt, players, taker, announced)
    if not play_tricks(pt, rollout, None, 0, 0):
        raise ValueError("a rollout policy must search nothing")
    settle_deal(pt, rollout, poignee_points(pt, players))
    return pt.scores[taker]


@njit(_nrt=False)
def _best(sc: SearchScratch, k: int) -> int:
    """The choice of highest total among the first ``k``, the first on a tie."""
    best = 0
    for i in range(1, k):
        if sc.total[i] > sc.total[best]:
            best = i
    return best


# --- the écart ----------------------------------------------------------------------------


@njit(_nrt=False)
def _add_choice(out: np.ndarray, k: int, word0: np.uint64, word1: np.uint64) -> int:
    """Add the écart ``(word0, word1)`` to the ``k`` in ``out`` unless it is there already
    or ``out`` is full; returns how many there are."""
    for i in range(k):
        if out[i, 0] == word0 and out[i, 1] == word1:
            return k
    if k >= out.shape[0]:
        return k
    out[k, 0] = word0
    out[k, 1] = word1
    return k + 1


@njit(_nrt=False)
def ecart_candidates(word0: np.uint64, word1: np.uint64, size: int, out: np.ndarray) -> int:
    """The écarts of ``size`` cards the taker holding ``(word0, word1)`` (its hand with the
    chien) weighs, into ``out`` (uint64[MAX_CHOICES, 2]); returns how many (at most
    ``MAX_CHOICES``), the expert's first.

    Every candidate is legal (no King, no bout, trumps only when forced): the expert's
    (``policies.ecart.expert_ecart``), the simple one's, then for each suit and each pair of
    suits whose cards but the King fit in the écart, those cards and the rest by the
    expert's rule. When trumps must go, every suit card but the Kings goes with the lowest
    trumps: the expert's is the one écart weighed.
    """
    ecart0, ecart1 = expert_ecart(word0, word1, size)
    k = _add_choice(out, 0, ecart0, ecart1)
    trumps, _ = forced_trumps(word0, word1, size)
    if trumps:
        return k
    ecart0, ecart1 = simple_ecart(word0, word1, size)
    k = _add_choice(out, k, ecart0, ecart1)
    for first in range(N_SUITS):
        for second in range(first, N_SUITS):
            voided = (word0 & (suit_bits(first) | suit_bits(second))) & ~KINGS_MASK
            n = popcount(voided)
            if n == 0 or n > size:
                continue
            rest0, rest1 = expert_ecart(word0 & ~voided, word1, size - n)
            k = _add_choice(out, k, voided | rest0, rest1)
    return k


@njit(inline="always")
def ecart_values(v: SeatView, cfg: np.ndarray, sc: SearchScratch) -> tuple[int, int]:
    """Weigh the candidate écarts of the taker of ``v`` (its view with the chien in its hand):
    ``sc.choices`` gets them (``ecart_candidates``), ``sc.world_values[w, i]`` the taker's
    score with écart ``i`` in world ``w``, ``sc.total[i]`` their sum over the worlds drawn.
    Returns (candidates, worlds drawn: 0 when there is one candidate or no world)."""
    k = ecart_candidates(v.hand0, v.hand1, cfg[C_CHIEN], sc.choices)
    for i in range(k):
        sc.total[i] = 0
    if k <= 1:
        return k, 0
    n = _prepare(v, cfg, sc, T_ECART)
    if n < 0:
        return k, 0
    worlds = cfg[seat_slot(v.seat, P_ECART_WORLDS)]
    called = v.info[I_CALLED]
    for w in range(worlds):
        _draw(sc)
        _deal_world(v, sc, n)
        for i in range(k):
            value = _replay(v, cfg, sc, called, sc.choices[i, 0], sc.choices[i, 1], -1)
            sc.world_values[w, i] = value
            sc.total[i] += value
    return k, worlds


@njit(inline="always")
def search_ecart(v: SeatView, cfg: np.ndarray, sc: SearchScratch) -> tuple[np.uint64, np.uint64]:
    """The écart the taker of ``v`` lays under ``ecart=search``: of ``ecart_candidates``, the
    one whose playouts score best for it (``ecart_values``; ties and no world: the expert's)."""
    k, _ = ecart_values(v, cfg, sc)
    best = _best(sc, k)
    return sc.choices[best, 0], sc.choices[best, 1]


# --- the chelem ---------------------------------------------------------------------------


@njit(inline="always")
def chelem_values(v: SeatView, cfg: np.ndarray, sc: SearchScratch) -> int:
    """Weigh the chelem announcement of the taker of ``v`` (its écart laid): ``sc.total[0]``
    gets the sum of its scores over the worlds not announcing, ``sc.total[1]`` announcing
    (``sc.world_values[w, 0 or 1]`` world by world); returns the worlds drawn (0: none could be)."""
    sc.total[0] = 0
    sc.total[1] = 0
    n = _prepare(v, cfg, sc, T_CHELEM)
    if n < 0:
        return 0
    worlds = cfg[seat_slot(v.seat, P_CHELEM_WORLDS)]
    called = v.info[I_CALLED]
    for w in range(worlds):
        _draw(sc)
        _deal_world(v, sc, n)
        for announce in range(2):
            value = _replay(v, cfg, sc, called, v.ecart0, v.ecart1, announce)
            sc.world_values[w, announce] = value
            sc.total[announce] += value
    return worlds


@njit(inline="always")
def search_chelem(v: SeatView, cfg: np.ndarray, sc: SearchScratch) -> bool:
    """Whether the taker of ``v`` announces a chelem under ``chelem=search``: when its
    playouts score more announced than not (``chelem_values``)."""
    return chelem_values(v, cfg, sc) > 0 and sc.total[1] > sc.total[0]


# --- the king call ------------------------------------------------------------------------


@njit(_nrt=False)
def call_candidates(word0: np.uint64, out: np.ndarray) -> int:
    """The cards a taker whose suit cards as dealt are ``word0`` weighs calling, into ``out``
    (int64[N_CARDS]): the cards of the lowest rank it may call (the Kings; the Queens when it
    holds every King, …) that are not in its hand, the default policy's (``call.called_card``)
    first; returns how many."""
    first = called_card(word0)
    out[0] = first
    k = 1
    rank = first % SUIT_LEN
    for suit in range(N_SUITS):
        card = SUIT_LEN * suit + rank
        if card != first and not (word0 >> np.uint64(card)) & ONE:
            out[k] = card
            k += 1
    return k


@njit(inline="always")
def call_values(v: SeatView, cfg: np.ndarray, sc: SearchScratch) -> tuple[int, int]:
    """Weigh the calls of the taker of ``v`` (five players, its hand as dealt): ``sc.candidate``
    gets the cards (``call_candidates``), ``sc.total[i]`` the sum of its scores calling card
    ``i`` over the worlds (``sc.world_values[w, i]`` world by world). Returns (candidates,
    worlds drawn: 0 when there is one candidate or no world)."""
    k = call_candidates(v.hand0, sc.candidate)
    for i in range(k):
        sc.total[i] = 0
    if k <= 1:
        return k, 0
    n = _prepare(v, cfg, sc, T_CALL)
    if n < 0:
        return k, 0
    worlds = cfg[seat_slot(v.seat, P_CALL_WORLDS)]
    for w in range(worlds):
        _draw(sc)
        _deal_world(v, sc, n)
        for i in range(k):
            value = _replay(v, cfg, sc, sc.candidate[i], _ZERO, _ZERO, -1)
            sc.world_values[w, i] = value
            sc.total[i] += value
    return k, worlds


@njit(inline="always")
def search_call(v: SeatView, cfg: np.ndarray, sc: SearchScratch) -> int:
    """The card the taker of ``v`` calls under ``call=search``: of ``call_candidates``, the one
    whose playouts score best for it (``call_values``; ties and no world: the default's)."""
    k, _ = call_values(v, cfg, sc)
    return sc.candidate[_best(sc, k)]


# --- the poignée --------------------------------------------------------------------------


@njit(inline="always")
def poignee_values(v: SeatView, cfg: np.ndarray, sc: SearchScratch) -> int:
    """Weigh showing the largest poignée the hand of ``v`` allows before the seat's first card:
    ``sc.total[0]`` gets the sum of its scores over the worlds showing none, ``sc.total[1]``
    showing it (``sc.world_values[w, 0 or 1]`` world by world), the deal played on from the
    position; returns the worlds drawn (0 when the hand allows none or no world can be drawn)."""
    sc.total[0] = 0
    sc.total[1] = 0
    seat = v.seat
    players = cfg[C_PLAYERS]
    if poignee_size(popcount(v.hand1 & TRUMPS_MASK), bool(v.hand1 & EXCUSE_BIT), players) == POIGNEE_NONE:
        return 0
    n = _prepare(v, cfg, sc, T_POIGNEE)
    if n < 0:
        return 0
    worlds = cfg[seat_slot(seat, P_POIGNEE_WORLDS)]
    slot = seat_slot(seat, P_POIGNEE_POLICY)
    for w in range(worlds):
        _draw(sc)
        world_hands(v, sc.world, sc.holder_seat, n, sc.hands, sc.attack)
        world_count(v, cfg, sc, n)
        for show in range(2):
            sc.rollout[slot] = POIGNEE_ALWAYS if show == 1 else POIGNEE_NEVER
            _set_table(v, cfg, sc)
            if not play_tricks(sc.table, sc.rollout, None, 0, 0):
                raise ValueError("a rollout policy must search nothing")
            settle_deal(sc.table, sc.rollout, poignee_points(sc.table, players))
            value = sc.table.scores[seat]
            sc.world_values[w, show] = value
            sc.total[show] += value
    return worlds


@njit(inline="always")
def search_poignee(v: SeatView, cfg: np.ndarray, sc: SearchScratch) -> int:
    """The size of the poignée the seat of ``v`` shows under ``poignee=search`` (0: none): the
    largest its hand allows unless its playouts score more showing none (``poignee_values``)."""
    size = poignee_size(popcount(v.hand1 & TRUMPS_MASK), bool(v.hand1 & EXCUSE_BIT), cfg[C_PLAYERS])
    if poignee_values(v, cfg, sc) > 0 and sc.total[0] > sc.total[1]:
        return POIGNEE_NONE
    return size
