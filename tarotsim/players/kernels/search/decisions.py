"""Search for the decisions besides the card play: the king call, the écart, the chelem
announcement and the poignée (the ``search`` policy of each decision).

Each decision is taken the way the ``pimc`` player takes a card: the seat draws ``worlds``
deals of the cards it cannot see, consistent with what it knows (``constraints.seat_constraints``
on its ``SeatView``, with its ``knowledge``; ``worlds.draw_world``, exactly uniform), plays
each world out once per choice, every seat by the seat's rollout policy (option ``rollout``,
the heuristic by default; ``pimc.rollout_cfg``) and every other decision by the seat's
policies, a searching one by its decision's default (``players.kernels.policies.dispatch.plain_decisions``),
and takes the choice of best total score for itself (``engine.kernels.steps.settle_deal``: contract, margin,
bouts, petit au bout, poignées, chelem, in points). The choices of one world share the world and
the playouts' random stream (common random numbers), so their differences are measured with
less noise than their levels. Ties go to the choice the decision's default policy makes.

- the call (``call=search``; five players, before the chien): the cards of the lowest rank
  the taker may call that are not in its hand (the Kings, or the Queens when it holds every
  King …), the deal played from the start with each;
- the écart (``ecart=search``; Prise, Garde, the chien in the taker's hand): candidate écarts
  (``ecart_candidates``: the expert's, the simple one's, and those voiding one suit or two
  suits of their cards but the Kings, each completed by the expert's rule), the deal played
  from the start with each;
- the chelem (``chelem=search``; the écart laid): the deal played from the start announced
  and not;
- the poignée (``poignee=search``; before the seat's first card): the largest poignée its
  hand allows, or none, the deal played on from the position (``pimc.world_count``,
  ``pimc._set_table``).

The four decisions share one weighing (``decision_values``: draw the worlds, play each
choice out in each, sum the seat's scores) and one compiled kernel (``decide_searched``),
which the game calls (``players.kernels.seats.searched``, ``players.kernels.seats.run_until``): each compiled function links,
and optimizes again, all it calls (the playouts' whole game), so one kernel costs one such
compile where the decisions' own functions cost one each. Its helpers, each called at one place, are inlined into it: a compiled function of its
own costs seconds of compiling however small it is.

The call, the écart and the chelem replay the deal from its start in each world (the taker's
hand as dealt is its hand and écart less the chien shown), so that the partner, the sides and
the count are those of the rules' own steps.

Randomness: each decision seeds its own sub-stream of the deal's stream
(``engine.kernels.rng.seed_substream``: ``DECIDE_SUBSTREAM + MAX_SEATS * stage + seat``), so the deal's own
stream is untouched and the choice is a function of the run key, the deal number and the
seat's view, never of the cards it cannot see (``tests/test_search_decisions.py`` re-deals
them). When no world can be drawn, the default policy's choice is made.

Scratch: the ``pimc`` player's (``players.kernels.search.scratch.SearchScratch``, full size in a run where a
seat searches one of these decisions: ``searching.new_search``); each decision fills
``total`` (per choice, the sum of the seat's scores over the worlds) and ``world_values``
(per world and choice), which the tests read.

Wiring: the deal machine (``players.kernels.machine``) stops at a decision whose policy searches
(``players.kernels.machine.searches``); the game (``players.kernels.seats.searched``) answers it with ``decide_searched`` and
its scratch, as it answers a ``pimc`` card, and a searched écart is laid whole
(``players.kernels.machine.lay_whole_ecart``); the tests ask ``decide_searched``, the kernel the game compiles.
"""

from __future__ import annotations

import numpy as np

from tarotsim._jit import njit
from tarotsim.engine.cards import EXCUSE_BIT, KINGS_MASK, N_SUITS, SUIT_LEN, TRUMPS_MASK
from tarotsim.engine.kernels.bits import ONE, popcount
from tarotsim.engine.kernels.rng import STREAM_WORDS, next_u64, seed_substream
from tarotsim.engine.kernels.rules import suit_bits
from tarotsim.engine.kernels.score import GARDE, POIGNEE_NONE, poignee_size
from tarotsim.engine.kernels.state import (
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
from tarotsim.engine.kernels.steps import (
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
from tarotsim.engine.kernels.view import SeatView, seat_view
from tarotsim.players.kernels.machine import play_tricks
from tarotsim.players.kernels.policies.announce import announces_chelem
from tarotsim.players.kernels.policies.call import called_card
from tarotsim.players.kernels.policies.codes import POIGNEE_ALWAYS, POIGNEE_NEVER
from tarotsim.players.kernels.policies.ecart import choose_ecart, expert_ecart, forced_trumps, simple_ecart
from tarotsim.players.kernels.search.constraints import seat_constraints, world_hands
from tarotsim.players.kernels.search.pimc import _set_table, rollout_cfg, world_count
from tarotsim.players.kernels.search.scratch import Q_DEAL, SearchScratch
from tarotsim.players.kernels.search.worlds import draw_world, holder_allowed, prepare_worlds

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


@njit(inline="always")
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


@njit(inline="always")
def _draw(sc: SearchScratch) -> None:
    """Draw a world (``sc.world``) and its playouts' random stream (``sc.playout_rng``)."""
    draw_world(sc.rng, sc.worlds, sc.world)
    for j in range(STREAM_WORDS):
        sc.playout_rng[j] = next_u64(sc.rng)


@njit(inline="always")
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


@njit(inline="always")
def _replay(
    v: SeatView,
    cfg: np.ndarray,
    sc: SearchScratch,
    called: int,
    ecart0: np.uint64,
    ecart1: np.uint64,
    announce: int,
) -> None:
    """The deal of ``sc.table`` (``_deal_world``) taken again from its start up to its first
    card: the taker's contract, the call ``called`` (five players), the écart ``(ecart0,
    ecart1)`` (Prise, Garde; an empty set: by its policy) and the chelem announced
    (``announce`` 1) or not (0; -1: by its policy), the random stream the world's playout
    stream."""
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


@njit(inline="always")
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
    (``players.kernels.policies.ecart.expert_ecart``), the simple one's, then for each suit and each pair of
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


# --- the weighing -------------------------------------------------------------------------


@njit(inline="always")
def _choices(v: SeatView, cfg: np.ndarray, sc: SearchScratch, stage: int) -> int:
    """The choices of the decision ``stage`` of the seat of ``v``: the calls into
    ``sc.candidate`` (``call_candidates``), the écarts into ``sc.choices``
    (``ecart_candidates``), the chelem not announced (0) and announced (1), no poignée (0) and
    the largest the hand allows (1; none but the first when it allows none); returns how many."""
    if stage == T_CALL:
        return call_candidates(v.hand0, sc.candidate)
    if stage == T_ECART:
        return ecart_candidates(v.hand0, v.hand1, cfg[C_CHIEN], sc.choices)
    if stage == T_POIGNEE and largest_poignee(v, cfg) == POIGNEE_NONE:
        return 1
    return 2


@njit(inline="always")
def largest_poignee(v: SeatView, cfg: np.ndarray) -> int:
    """The size of the largest poignée the hand of ``v`` allows (``POIGNEE_NONE``: none)."""
    return poignee_size(popcount(v.hand1 & TRUMPS_MASK), bool(v.hand1 & EXCUSE_BIT), cfg[C_PLAYERS])


@njit(inline="always")
def _worlds(v: SeatView, cfg: np.ndarray, stage: int) -> int:
    """The worlds the seat of ``v`` draws for the decision ``stage`` (its ``*_worlds`` option)."""
    if stage == T_CALL:
        return cfg[seat_slot(v.seat, P_CALL_WORLDS)]
    if stage == T_ECART:
        return cfg[seat_slot(v.seat, P_ECART_WORLDS)]
    if stage == T_CHELEM:
        return cfg[seat_slot(v.seat, P_CHELEM_WORLDS)]
    return cfg[seat_slot(v.seat, P_POIGNEE_WORLDS)]


@njit(inline="always")
def _outcome(v: SeatView, cfg: np.ndarray, sc: SearchScratch, stage: int, choice: int) -> int:
    """The score of the seat of ``v`` in the world just drawn with choice ``choice`` of the
    decision ``stage``, every card by the rollout policy (``sc.rollout``) from the world's
    playout stream: the call, the écart and the chelem replay the deal from its start
    (``_replay``), the poignée plays it on from the position (``pimc._set_table``)."""
    seat = v.seat
    players = cfg[C_PLAYERS]
    if stage == T_POIGNEE:
        sc.rollout[seat_slot(seat, P_POIGNEE_POLICY)] = POIGNEE_ALWAYS if choice == 1 else POIGNEE_NEVER
        _set_table(v, cfg, sc)
    else:
        called = sc.candidate[choice] if stage == T_CALL else v.info[I_CALLED]
        ecart0, ecart1, announce = _ZERO, _ZERO, -1  # by its policy
        if stage == T_ECART:
            ecart0, ecart1 = sc.choices[choice, 0], sc.choices[choice, 1]
        elif stage == T_CHELEM:
            ecart0, ecart1, announce = v.ecart0, v.ecart1, choice
        _replay(v, cfg, sc, called, ecart0, ecart1, announce)
    if not play_tricks(sc.table, sc.rollout, None, 0, 0):
        raise ValueError("a rollout policy must search nothing")
    settle_deal(sc.table, sc.rollout, poignee_points(sc.table, players))
    return sc.table.scores[seat]


@njit(inline="always")
def decision_values(v: SeatView, cfg: np.ndarray, sc: SearchScratch, stage: int) -> tuple[int, int]:
    """Weigh the choices of the searched decision ``stage`` (``T_CALL``, ``T_ECART``,
    ``T_CHELEM``, ``T_POIGNEE``) of the seat of ``v``: the choices (``_choices``) are played
    out in each of the worlds its option draws, ``sc.world_values[w, i]`` gets its score with
    choice ``i`` in world ``w`` and ``sc.total[i]`` their sum over the worlds.

    The call, the écart and the chelem are the taker's (its view with, at the call, its hand
    as dealt; at the écart, the chien in its hand; at the chelem, its écart laid); the
    poignée is weighed before the seat's first card. Returns (choices, worlds drawn: 0 when
    there is one choice or no world can be drawn).
    """
    k = _choices(v, cfg, sc, stage)
    for i in range(k):
        sc.total[i] = 0
    if k <= 1:
        return k, 0
    n = _prepare(v, cfg, sc, stage)
    if n < 0:
        return k, 0
    worlds = _worlds(v, cfg, stage)
    for w in range(worlds):
        _draw(sc)
        if stage == T_POIGNEE:
            world_hands(v, sc.world, sc.holder_seat, n, sc.hands, sc.attack)
            world_count(v, cfg, sc, n)
        else:
            _deal_world(v, sc, n)
        for i in range(k):
            value = _outcome(v, cfg, sc, stage, i)
            sc.world_values[w, i] = value
            sc.total[i] += value
    return k, worlds


# --- the decision -----------------------------------------------------------------------


@njit(_nrt=False)
def decide_searched(v: SeatView, cfg: np.ndarray, sc: SearchScratch, stage: int) -> int:
    """The choice the seat of ``v`` makes at the searching decision ``stage`` with ``sc``
    (``decision_values``): the index of the choice among those weighed.

    - the call (``T_CALL``, ``call=search``): of ``call_candidates`` (``sc.candidate``), the
      card whose playouts score best for the taker (ties and no world: the default's, the first);
    - the écart (``T_ECART``, ``ecart=search``): of ``ecart_candidates`` (``sc.choices``), the
      one whose playouts score best (ties and no world: the expert's, the first);
    - the chelem (``T_CHELEM``, ``chelem=search``): 1, announced, when its playouts score more
      announced than not, else 0;
    - the poignée (``T_POIGNEE``, ``poignee=search``): 1, the largest the hand allows
      (``largest_poignee``), unless its playouts score more showing none (0).

    The one compiled kernel of these decisions, which the game calls (``players.kernels.seats.searched``,
    ``players.kernels.seats.run_until``), so that the weighing and the playouts it links are compiled once per run.
    """
    k, worlds = decision_values(v, cfg, sc, stage)
    if stage == T_CHELEM:
        return 1 if worlds > 0 and sc.total[1] > sc.total[0] else 0
    if stage == T_POIGNEE:
        return 0 if worlds > 0 and sc.total[0] > sc.total[1] else 1
    return _best(sc, k)
