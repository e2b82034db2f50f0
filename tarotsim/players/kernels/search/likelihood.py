"""Inference for ``pimc`` (option ``infer=heuristic``): worlds resampled by how likely they make
what the other seats did, under a smoothed model of the built-in players.

**The model of a seat.** At each decision of another seat, the model gives each of its ``n``
legal choices the probability ``INFER_EPSILON / n``, and the choice of the built-in policy
``1 - INFER_EPSILON`` more (epsilon-smoothing of a deterministic player; the heuristic
exposes no preference score that a softmax could use):

- a word of the auction: Chavey's count of the hand as dealt against the seat's thresholds
  (``bidding.chavey_wish``, the public convention the ``montecarlo`` bidder assumes too),
  said when higher than the highest word so far, else a pass; the legal words are a pass
  and every contract above the highest so far (a sweep's forced auction says nothing);
- the poignée shown or not before the seat's first card: its poignée policy
  (``announce.poignee_choice``; ``smart`` where the seat's policy is none of the built-in
  ones) on the hand it held then; the legal choices are none and each size up to the
  largest that hand allows;
- each card: the heuristic (``heuristic.heuristic_card``, with the seat's own options in
  ``cfg``) on the seat's view at that moment; a card that was the only legal one says
  nothing.

A world's likelihood is the product of these over every decision of the other seats so far
(the deciding seat's own say nothing of the unseen cards), times 0 when a hand of the world
was dealt a petit sec (the deal would have been thrown in) or a card played was not legal
in it. Each seat's hand at each past decision is rebuilt from the world alone: its hand now
plus the cards it played since (``history``, the trick in play), the taker's dealt hand
from that, its écart (the world's hidden part and the trumps shown) less the chien shown.
The past is replayed on ``InferScratch.past``, a table of its own, with the rule steps of the
game (``engine.kernels.steps.put_card``, ``engine.kernels.steps.end_trick``) and each poignée shown before its seat's first
card, so that each modelled decision sees the view its seat had. Nothing but the seat's
view and the world drawn for it is read (``tests/test_inference.py`` checks it as
``tests/test_no_peeking.py`` does the other policies).

**Importance resampling** (``infer_worlds``): a decision that uses ``w`` worlds draws
``INFER_POOL * w`` candidate worlds (at most ``MAX_POOL``) from the exactly uniform sampler
(``worlds.draw_world``), weighs each by its likelihood and keeps ``w`` of them by systematic
resampling (one uniform draw, ``w`` evenly spaced points on the cumulated weights), in the
order they were drawn: their law tends to the uniform law over the consistent deals times the
likelihood, the posterior of the deal under the model. When every candidate has likelihood 0
the candidates are kept with equal weights.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from tarotsim._jit import njit
from tarotsim.engine.cards import EXCUSE_BIT, TRUMPS_MASK
from tarotsim.engine.kernels.bits import ZERO, popcount
from tarotsim.engine.kernels.constants import MAX_WORLDS
from tarotsim.engine.kernels.count import start_count
from tarotsim.engine.kernels.deal import is_petit_sec
from tarotsim.engine.kernels.rng import next_u64
from tarotsim.engine.kernels.rules import card_bit
from tarotsim.engine.kernels.score import GARDE_CONTRE, PASS, poignee_size
from tarotsim.engine.kernels.state import (
    C_FORCED_CONTRACT,
    H_LEADER,
    I_CHIEN_SHOWN,
    I_DEALER,
    I_LEADER,
    I_PARTNER,
    I_PARTNER_KNOWN,
    I_PLAYERS,
    I_TAKER,
    I_TRICK,
    I_TRICK_LEN,
    I_TRICKS_WON_BY,
    I_VOIDS,
    MAX_SEATS,
    N_INFO,
    P_POIGNEE_POLICY,
    DealState,
    new_state,
    seat_slot,
)
from tarotsim.engine.kernels.steps import end_trick, legal_now, put_card, shown_size, start_trick
from tarotsim.engine.kernels.view import SeatView, seat_view
from tarotsim.players.kernels.policies.announce import poignee_choice
from tarotsim.players.kernels.policies.bidding import chavey_wish
from tarotsim.players.kernels.policies.codes import POIGNEE_ALWAYS, POIGNEE_NEVER, POIGNEE_SMART
from tarotsim.players.kernels.policies.heuristic import heuristic_card
from tarotsim.players.kernels.search.constraints import world_hands
from tarotsim.players.kernels.search.worlds import MAX_HOLDERS, WorldScratch, draw_world

INFER_EPSILON = 0.8
"""Weight of the uniform part of the model: a choice other than the built-in policy's has
probability ``INFER_EPSILON / n`` among ``n`` legal choices. Chosen on the inference's own
measure (``benchmarks/bench_inference.py``, 300 positions of 4-player heuristic play, seed
2026): 0.1, 0.3, 0.45, 0.6, 0.8 and 0.9 gave the true holders -0.19, -0.08, -0.02, +0.03,
+0.07 and +0.07 nats a card over the uniform worlds. A sharper model would be right against
the heuristic, but ``INFER_POOL`` uniform candidates per world rarely hold a world near the
posterior's mass, and the few best candidates, kept many times over, are too sure of
themselves (``reports/inference.md``)."""
INFER_POOL = 4
"""Candidate worlds drawn per world kept (``infer_worlds``)."""
MAX_POOL = MAX_WORLDS
"""The most candidate worlds of one decision (rows of ``InferScratch.pool``)."""
_TWO_53 = 1.0 / 9007199254740992.0


class InferScratch(NamedTuple):
    """Working arrays of the inference, made by ``new_infer_scratch``."""

    past: DealState  # the table on which the past is replayed in a world
    start: np.ndarray  # uint64[MAX_SEATS, 2]: each seat's hand when the play began, in the world
    dealt: np.ndarray  # uint64[MAX_SEATS, 2]: each seat's hand as dealt, in the world
    pool: np.ndarray  # uint64[max_pool, MAX_HOLDERS, 2]: the candidate worlds
    weight: np.ndarray  # float64[max_pool]: each candidate's log-likelihood, then its weight (the best 1)
    pick: np.ndarray  # int64[MAX_WORLDS]: the candidates kept, in the order they are used


@njit
def new_infer_scratch(searching: bool) -> InferScratch:
    """The inference's scratch: full size (about 400 KB) when a seat plays ``pimc``, else tiny."""
    max_pool = MAX_POOL if searching else 1
    return InferScratch(
        new_state(),
        np.zeros((MAX_SEATS, 2), dtype=np.uint64),
        np.zeros((MAX_SEATS, 2), dtype=np.uint64),
        np.zeros((max_pool, MAX_HOLDERS, 2), dtype=np.uint64),
        np.zeros(max_pool, dtype=np.float64),
        np.zeros(MAX_WORLDS if searching else 1, dtype=np.int64),
    )


@njit(inline="always")
def _choice_log(model_choice: bool, n: int, epsilon: float) -> float:
    """Log-probability of a choice among ``n`` legal ones under the smoothed model."""
    p = epsilon / n
    if model_choice:
        p += 1.0 - epsilon
    return np.log(p)


@njit(inline="always")
def _add_card(hands: np.ndarray, seat: int, card: int) -> None:
    bit0, bit1 = card_bit(card)
    hands[seat, 0] |= bit0
    hands[seat, 1] |= bit1


@njit(inline="always")
def _is_legal(card: int, legal0: np.uint64, legal1: np.uint64) -> bool:
    bit0, bit1 = card_bit(card)
    return (legal0 & bit0) != 0 or (legal1 & bit1) != 0


@njit(_nrt=False)
def _rebuild_hands(
    v: SeatView,
    hands: np.ndarray,
    world: np.ndarray,
    holder_seat: np.ndarray,
    n_holders: int,
    sc: InferScratch,
) -> None:
    """The hands at the start of the play (``sc.start``) and as dealt (``sc.dealt``) in the
    world, and its écart and chien on ``sc.past``."""
    info = v.info
    players = info[I_PLAYERS]
    for s in range(players):
        sc.start[s, 0] = hands[s, 0]
        sc.start[s, 1] = hands[s, 1]
    for t in range(info[I_TRICK]):
        leader = v.history[t, H_LEADER]
        for j in range(players):
            _add_card(sc.start, (leader + j) % players, v.history[t, j])
    for j in range(info[I_TRICK_LEN]):
        _add_card(sc.start, (info[I_LEADER] + j) % players, v.trick[j])
    hidden0 = ZERO
    hidden1 = ZERO
    for h in range(n_holders):
        if holder_seat[h] < 0:
            hidden0 = world[h, 0]
            hidden1 = world[h, 1]
    past = sc.past
    taker = info[I_TAKER]
    if info[I_CHIEN_SHOWN] == 1:  # Prise, Garde: the taker took the chien and laid its écart
        past.chien[0] = v.chien0
        past.chien[1] = v.chien1
        if v.seat == taker:
            past.ecart[0] = v.ecart0
            past.ecart[1] = v.ecart1
        else:
            past.ecart[0] = hidden0
            past.ecart[1] = hidden1 | v.ecart1
    else:  # Garde sans, Garde contre: the chien stays unseen
        past.chien[0] = hidden0
        past.chien[1] = hidden1
        past.ecart[0] = ZERO
        past.ecart[1] = ZERO
    for s in range(players):
        sc.dealt[s, 0] = sc.start[s, 0]
        sc.dealt[s, 1] = sc.start[s, 1]
    if info[I_CHIEN_SHOWN] == 1 and taker >= 0:
        sc.dealt[taker, 0] = (sc.start[taker, 0] | past.ecart[0]) & ~past.chien[0]
        sc.dealt[taker, 1] = (sc.start[taker, 1] | past.ecart[1]) & ~past.chien[1]


@njit(_nrt=False)
def _auction_log(v: SeatView, cfg: np.ndarray, sc: InferScratch, epsilon: float) -> float:
    """Log-likelihood of the other seats' words of the auction (``v.bids``) in the world."""
    if cfg[C_FORCED_CONTRACT] > PASS:
        return 0.0
    info = v.info
    players = info[I_PLAYERS]
    first = (info[I_DEALER] + 1) % players
    highest = PASS
    total = 0.0
    for j in range(players):
        seat = (first + j) % players
        word = v.bids[j]
        if seat != v.seat:
            wish = chavey_wish(sc.dealt[seat, 0], sc.dealt[seat, 1], cfg, seat)
            model = wish if wish > highest else PASS
            total += _choice_log(word == model, 1 + GARDE_CONTRE - highest, epsilon)
        if word > highest:
            highest = word
    return total


@njit(_nrt=False)
def _poignee_log(v: SeatView, cfg: np.ndarray, seat: int, epsilon: float, past: DealState) -> float:
    """Log-likelihood of the poignée ``seat`` showed or not (already on ``past.shown``), on
    ``past`` before its first card; -inf when its hand there could not show it."""
    players = v.info[I_PLAYERS]
    word1 = past.hands[seat, 1]
    largest = poignee_size(popcount(word1 & TRUMPS_MASK), (word1 & EXCUSE_BIT) != ZERO, players)
    size = shown_size(past, seat, players)
    if size > largest:
        return -np.inf
    if largest == 0:
        return 0.0
    policy = cfg[seat_slot(seat, P_POIGNEE_POLICY)]
    if policy != POIGNEE_ALWAYS and policy != POIGNEE_NEVER:
        policy = POIGNEE_SMART
    model = poignee_choice(policy, seat_view(past, seat), cfg)
    return _choice_log(size == model, 1 + largest, epsilon)


@njit(_nrt=False)
def _play_log(v: SeatView, cfg: np.ndarray, attack: np.ndarray, epsilon: float, sc: InferScratch) -> float:
    """Log-likelihood of the other seats' poignées and cards so far, replayed on ``sc.past``
    from the hands at the start of the play (``sc.start``) under the world's sides; -inf
    when a card played was not legal in the world."""
    info = v.info
    players = info[I_PLAYERS]
    past = sc.past
    for s in range(MAX_SEATS):
        in_play = s < players
        past.hands[s, 0] = sc.start[s, 0] if in_play else ZERO
        past.hands[s, 1] = sc.start[s, 1] if in_play else ZERO
        past.attack[s] = attack[s] if in_play else 0
        past.shown[s, 0] = ZERO
        past.shown[s, 1] = ZERO
        past.trick[s] = -1
        past.bids[s] = v.bids[s]
    past.played[0] = ZERO
    past.played[1] = ZERO
    for i in range(N_INFO):
        past.info[i] = info[i]
    past.info[I_VOIDS] = 0
    past.info[I_TRICKS_WON_BY] = 0
    past.info[I_PARTNER] = -1
    past.info[I_PARTNER_KNOWN] = 0
    start_count(past.count, past.pile, ZERO, ZERO)
    done = info[I_TRICK]
    start_trick(past.info, v.history[0, H_LEADER] if done > 0 else info[I_LEADER], 0)
    total = 0.0
    for t in range(done + 1):
        length = players if t < done else info[I_TRICK_LEN]
        for j in range(length):
            card = v.history[t, j] if t < done else v.trick[j]
            seat = (past.info[I_LEADER] + j) % players
            if t == 0:  # a poignée is shown before the seat's first card
                past.shown[seat, 0] = v.shown[seat, 0]
                past.shown[seat, 1] = v.shown[seat, 1]
                if seat != v.seat:
                    total += _poignee_log(v, cfg, seat, epsilon, past)
            if seat != v.seat:
                legal0, legal1 = legal_now(past, seat)
                if not _is_legal(card, legal0, legal1):
                    return -np.inf
                n = popcount(legal0) + popcount(legal1)
                if n > 1:
                    model = heuristic_card(seat_view(past, seat), legal0, legal1, cfg)
                    total += _choice_log(model == card, n, epsilon)
            put_card(past, seat, card)
        if t < done:
            end_trick(past, cfg)
    return total


@njit(_nrt=False)
def world_log_likelihood(
    v: SeatView,
    cfg: np.ndarray,
    world: np.ndarray,
    holder_seat: np.ndarray,
    n_holders: int,
    hands: np.ndarray,
    attack: np.ndarray,
    epsilon: float,
    sc: InferScratch,
) -> float:
    """Log-likelihood of what the other seats did so far, in a world drawn for the seat of ``v``.

    Parameters
    ----------
    v : SeatView
        The deciding seat's view (its hand, the public past: ``bids``, ``shown``,
        ``history``, the trick in play).
    cfg : int64[N_CFG]
        The run's configuration: each seat's heuristic options, bidding thresholds and
        poignée policy, read by the model.
    world, holder_seat, n_holders
        The world drawn (``worlds.draw_world``) and its holders (``constraints.seat_constraints``).
    hands : uint64[MAX_SEATS, 2], attack : int64[MAX_SEATS]
        The world's hands now and sides (``constraints.world_hands`` of ``world``).
    epsilon : float
        The model's uniform weight, 0 < epsilon <= 1 (``INFER_EPSILON`` in ``pimc``).
    sc : InferScratch

    Returns
    -------
    float
        The natural log of the world's likelihood (module docstring); -inf when it is 0.
    """
    _rebuild_hands(v, hands, world, holder_seat, n_holders, sc)
    players = v.info[I_PLAYERS]
    for s in range(players):
        if s != v.seat and is_petit_sec(sc.dealt[s, 1]):
            return -np.inf
    total = _auction_log(v, cfg, sc, epsilon)
    return total + _play_log(v, cfg, attack, epsilon, sc)


@njit(inline="always")
def _uniform(rng: np.ndarray) -> float:
    """A uniform float64 in [0, 1) from the top 53 bits of the next output."""
    return np.float64(next_u64(rng) >> np.uint64(11)) * _TWO_53


@njit(_nrt=False)
def infer_worlds(
    v: SeatView,
    cfg: np.ndarray,
    rng: np.ndarray,
    ws: WorldScratch,
    holder_seat: np.ndarray,
    n_holders: int,
    world: np.ndarray,
    hands: np.ndarray,
    attack: np.ndarray,
    worlds: int,
    epsilon: float,
    sc: InferScratch,
) -> int:
    """Draw the candidate worlds of a decision and keep ``worlds`` of them by their likelihood.

    ``ws`` must be prepared (``worlds.prepare_worlds`` returned a positive count); ``world``,
    ``hands`` and ``attack`` are scratch (``SearchScratch``'s). The candidates are
    ``sc.pool[:pool]`` (``pool = min(INFER_POOL * worlds, MAX_POOL)``, at least ``worlds`` since
    ``MAX_POOL`` is ``MAX_WORLDS``), their weights ``sc.weight``; the worlds kept are
    ``sc.pool[sc.pick[k]]`` for k < ``worlds``. Returns how many candidates were drawn.
    """
    pool = min(INFER_POOL * worlds, sc.pool.shape[0])
    best = -np.inf
    for i in range(pool):
        draw_world(rng, ws, world)
        for h in range(n_holders):
            sc.pool[i, h, 0] = world[h, 0]
            sc.pool[i, h, 1] = world[h, 1]
        world_hands(v, world, holder_seat, n_holders, hands, attack)
        sc.weight[i] = world_log_likelihood(v, cfg, world, holder_seat, n_holders, hands, attack, epsilon, sc)
        if sc.weight[i] > best:
            best = sc.weight[i]
    total = 0.0
    for i in range(pool):
        sc.weight[i] = 1.0 if best == -np.inf else np.exp(sc.weight[i] - best)
        total += sc.weight[i]
    step = total / worlds
    point = _uniform(rng) * step
    cumulated = sc.weight[0]
    i = 0
    for k in range(worlds):
        while cumulated <= point and i < pool - 1:
            i += 1
            cumulated += sc.weight[i]
        sc.pick[k] = i
        point += step
    return pool
