"""The ``pimc`` card-play policy: perfect-information Monte Carlo search.

At each decision with more than one legal card (a forced card is played at once, at no
cost), the seat draws ``worlds`` deals of the cards it cannot see consistent with what it
knows (its ``SeatView``, read by ``constraints.seat_constraints``: its hand, the cards
played, the voids shown, the poignées shown, the chien shown at a Prise or a Garde, the
écart's trumps, its own écart, the called card at five players, the hand sizes; with option
``knowledge=rules``, the default, every inference the rules allow besides: the trumps an
under-trump shows a seat lacks, what the poignée shown and the écart's trumps say of the
hand, what a lower rank called says of the taker's), and for
each world and each legal card plays the deal out to the end with the rollout policy for
every seat (``rollout``: any card-play policy that searches nothing, by default the
heuristic; ``players.kernels.machine.play_tricks``), scored by the seat's own final score under docs/rules.md
(``engine.kernels.steps.settle_deal``: contract, margin, bouts, petit au bout, poignées, chelem, in
points). Every candidate card of a world is played out on the same world from the same
playout stream (common random numbers). With ``endgame`` tricks left or fewer (0: never),
the exact double-dummy solver (``solver.card_values``) replaces the playouts: a card's
value in a world is then the card points its side wins from the trick in progress on,
with the petit au bout counted as ``PETIT_WEIGHT`` half points, under perfect play by both
sides. Equivalent legal cards (adjacent in rank once the seat's own and the played cards
are set aside, of equal points, no bout: ``mark_candidates``) are evaluated once, by their
lowest card, and share its total.

**Dropping** (option ``drop``, in tenths of a standard error; 0: never): after world
``DROP_FIRST`` and every ``DROP_EVERY`` worlds after it, a card still evaluated is dropped
when its values fall behind those of the best card still evaluated (highest total) by more
than ``drop / 10`` standard errors of their paired difference (world by world, over the
worlds drawn so far; a constant difference is dropped as soon as it is negative). A dropped
card is no longer played out and is not chosen; once one card is left, no more worlds are
drawn. This is racing (successive rejection) on the same worlds: it spends the playouts on
the cards still in doubt, and the worlds and their order are the same as without it.

The seat plays the card of best total among the cards not dropped; ties go to the rollout
policy's own card when it is among the best (the heuristic's, for either rollout), else
to the lowest card id.

**Sampling is exactly uniform** over the deals consistent with what the seat knows
(``worlds.py``: an exact count by dynamic programming, then a draw that telescopes to one
over that count). With option ``infer=none`` (the default) that is all: no deal is weighed
by how likely it makes the bids, the poignée choices and the cards played so far, nor by
its having had no petit sec. With ``infer=heuristic`` the worlds are resampled from
``likelihood.INFER_POOL`` times as many uniform candidates by the likelihood of what the
other seats did so far under a smoothed model of the built-in players (the auction's
words, the poignées shown or not, every card; a hand dealt a petit sec excluded:
``players.kernels.search.likelihood``), the posterior of the deal under that model; the seat's own
decisions, the écart and the king call are not weighed. In each world the players are
treated as seeing every card (the usual PIMC "strategy fusion" bias).

Randomness: each decision seeds its own sub-stream (``engine.kernels.rng.seed_substream``) from the run
key, the deal number and the decision's index in the deal (cards played so far), so
records are the same whatever the threads or workers, and the deal's own stream (random
play, …) is not disturbed. When no world can be drawn (a position the sampler's scratch
cannot count), the seat plays the heuristic's card.

Options (``tarotsim.players.policies.OPTIONS``, which holds their defaults and ranges) are
read from the seat's block of ``cfg``.

Scratch: ``sc`` (``players.kernels.search.scratch``), made once per block of deals; a decision
allocates nothing. The score of a world is rebuilt from the public ``history`` under
that world's sides (five players: the partner may differ between worlds), never from the
deal's own count, which holds the real écart.
"""

from __future__ import annotations

import numpy as np

from tarotsim._jit import njit
from tarotsim.engine.cards import EXCUSE, HALF_POINTS, N_CARDS, N_SUIT_CARDS, PETIT, TRUMP_21
from tarotsim.engine.kernels.bits import lowest_bit, popcount
from tarotsim.engine.kernels.constants import INFER_HEURISTIC
from tarotsim.engine.kernels.count import close_trick, start_count
from tarotsim.engine.kernels.rng import STREAM_WORDS, next_u64, seed_substream
from tarotsim.engine.kernels.rules import card_bit, suit_code
from tarotsim.engine.kernels.score import ATTACK, DEFENCE, GARDE_SANS, SIDE_NONE
from tarotsim.engine.kernels.state import (
    C_HAND,
    C_PLAYERS,
    H_LEADER,
    H_WINNER,
    I_CHIEN_SHOWN,
    I_CONTRACT,
    I_LEADER,
    I_TRICK,
    I_TRICK_LEN,
    I_TRICKS_WON_BY,
    MAX_SEATS,
    N_CFG,
    N_COUNT,
    N_INFO,
    P_DROP,
    P_ENDGAME,
    P_INFER,
    P_PLAY_ATTACK,
    P_PLAY_DEFENCE,
    P_ROLLOUT,
    P_WORLDS,
    S_ATTACK_TRICKS,
    S_PREV_PETIT,
    S_PREV_WINNER,
    WON_BY_ATTACK,
    WON_BY_DEFENCE,
    seat_slot,
)
from tarotsim.engine.kernels.steps import poignee_points, put_card, settle_deal
from tarotsim.engine.kernels.view import SeatView
from tarotsim.players.kernels.machine import play_tricks
from tarotsim.players.kernels.policies.dispatch import plain_decisions
from tarotsim.players.kernels.policies.heuristic import heuristic_card
from tarotsim.players.kernels.search.constraints import seat_constraints, world_hands
from tarotsim.players.kernels.search.likelihood import INFER_EPSILON, infer_worlds
from tarotsim.players.kernels.search.scratch import Q_DEAL, SearchScratch
from tarotsim.players.kernels.search.solver import card_values
from tarotsim.players.kernels.search.worlds import draw_world, holder_allowed, prepare_worlds

PETIT_WEIGHT = 20
"""Endgame solver: the petit au bout in half points (10 points, as the score counts it
at the multiplier of a Prise)."""
DROP_FIRST = 8
"""Worlds drawn before the first test that drops cards (option ``drop``)."""
DROP_EVERY = 4
"""Worlds between two tests that drop cards."""


@njit(inline="always")
def _only_card(legal0: np.uint64, legal1: np.uint64) -> int:
    return lowest_bit(legal0) if legal0 else N_SUIT_CARDS + lowest_bit(legal1)


@njit(inline="always")
def _is_in(card: int, word0: np.uint64, word1: np.uint64) -> bool:
    bit0, bit1 = card_bit(card)
    return (word0 & bit0) != 0 or (word1 & bit1) != 0


@njit(_nrt=False)
def mark_candidates(v: SeatView, legal0: np.uint64, legal1: np.uint64, candidate: np.ndarray) -> int:
    """Mark in ``candidate`` (int64[N_CARDS]) the legal cards worth evaluating: one card of
    each run of equivalent legal cards, the lowest; returns how many.

    Two legal cards are equivalent when they are of one suit (the trumps one suit), of equal
    points, neither the Petit, the 21 nor the Excuse, and every card ranking between them is
    in the seat's hand or already played: whoever holds the other cards, they win and lose
    the same tricks (the solver's rule, ``solver.py``). Each other card of a run gets its
    run's lowest card's index in ``candidate`` (-1 - lowest), each candidate 1, other cards 0.
    """
    own0 = v.hand0 | v.played[0]
    own1 = v.hand1 | v.played[1]
    previous = -1
    n = 0
    for card in range(N_CARDS):
        candidate[card] = 0
        if not _is_in(card, legal0, legal1):
            continue
        if previous >= 0 and _equivalent(previous, card, own0, own1):
            candidate[card] = candidate[previous] if candidate[previous] < 0 else -1 - previous
        else:
            candidate[card] = 1
            n += 1
        previous = card
    return n


@njit(inline="always")
def _equivalent(low: int, high: int, own0: np.uint64, own1: np.uint64) -> bool:
    """Whether legal cards ``low`` < ``high`` are equivalent (``mark_candidates``)."""
    if suit_code(low) != suit_code(high) or HALF_POINTS[low] != HALF_POINTS[high]:
        return False
    if low == PETIT or high == TRUMP_21 or high == EXCUSE:
        return False
    for between in range(low + 1, high):
        if not _is_in(between, own0, own1):
            return False
    return True


@njit(_nrt=False)
def world_count(v: SeatView, cfg: np.ndarray, sc: SearchScratch, n_holders: int) -> None:
    """The table's scalars and the count so far in the world just drawn: the écart or chien
    where it counts for the attack, every trick completed counted again under the world's
    sides (``sc.attack``, from the public ``history``), and the sides that won a trick under
    them. The partner stays as public (``I_PARTNER``): a world's partner becomes public when
    it plays the called card in a playout."""
    info = v.info
    players = cfg[C_PLAYERS]
    for i in range(N_INFO):
        sc.info[i] = info[i]
    hidden0 = np.uint64(0)
    hidden1 = np.uint64(0)
    for h in range(n_holders):
        if sc.holder_seat[h] < 0:
            hidden0 = sc.world[h, 0]
            hidden1 = sc.world[h, 1]
    table = sc.table
    contract = info[I_CONTRACT]
    if info[I_CHIEN_SHOWN] == 1:  # Prise, Garde: the écart counts for the attack
        if n_holders > 0 and sc.holder_seat[n_holders - 1] < 0:  # a defender: the hidden part drawn
            table.ecart[0] = hidden0
            table.ecart[1] = hidden1 | v.ecart1  # its trumps were shown
        else:  # the taker knows its écart
            table.ecart[0] = v.ecart0
            table.ecart[1] = v.ecart1
        table.chien[0] = v.chien0
        table.chien[1] = v.chien1
        start_count(sc.count, sc.pile, table.ecart[0], table.ecart[1])
    else:
        table.ecart[0] = np.uint64(0)
        table.ecart[1] = np.uint64(0)
        table.chien[0] = hidden0
        table.chien[1] = hidden1
        if contract == GARDE_SANS:
            start_count(sc.count, sc.pile, hidden0, hidden1)
        else:
            start_count(sc.count, sc.pile, np.uint64(0), np.uint64(0))
    done = info[I_TRICK]
    for t in range(done):
        row = v.history[t]
        close_trick(row, players, row[H_LEADER], row[H_WINNER], sc.attack, t, cfg[C_HAND], sc.count, sc.pile)
    won_by = 0
    if sc.count[S_ATTACK_TRICKS] > 0:
        won_by |= WON_BY_ATTACK
    if done - sc.count[S_ATTACK_TRICKS] > 0:
        won_by |= WON_BY_DEFENCE
    sc.info[I_TRICKS_WON_BY] = won_by


@njit(_nrt=False)
def _set_table(v: SeatView, cfg: np.ndarray, sc: SearchScratch) -> None:
    """The playout table in the world at the decision: hands, sides, cards played, trick,
    poignées, scalars and count; ``table.rng`` at the world's playout stream."""
    table = sc.table
    players = cfg[C_PLAYERS]
    for seat in range(MAX_SEATS):
        in_play = seat < players
        table.hands[seat, 0] = sc.hands[seat, 0] if in_play else np.uint64(0)
        table.hands[seat, 1] = sc.hands[seat, 1] if in_play else np.uint64(0)
        table.attack[seat] = sc.attack[seat] if in_play else 0
        table.shown[seat, 0] = v.shown[seat, 0]
        table.shown[seat, 1] = v.shown[seat, 1]
        table.trick[seat] = v.trick[seat]
        table.scores[seat] = 0
    table.played[0] = v.played[0]
    table.played[1] = v.played[1]
    for i in range(N_INFO):
        table.info[i] = sc.info[i]
    for i in range(N_COUNT):
        table.count[i] = sc.count[i]
    table.pile[0] = sc.pile[0]
    table.pile[1] = sc.pile[1]
    for t in range(v.info[I_TRICK]):
        for j in range(v.history.shape[1]):
            table.history[t, j] = v.history[t, j]
    for j in range(STREAM_WORDS):
        table.rng[j] = sc.playout_rng[j]


@njit(_nrt=False)
def rollout_cfg(cfg: np.ndarray, seat: int, out: np.ndarray) -> None:
    """The playouts' configuration: ``cfg`` with every seat's card play, on both sides,
    ``seat``'s rollout policy (``P_ROLLOUT``); each seat keeps its other policies and options,
    a searching one played by its decision's default (``players.kernels.policies.dispatch.plain_decisions``)."""
    for i in range(N_CFG):
        out[i] = cfg[i]
    rollout = cfg[seat_slot(seat, P_ROLLOUT)]
    for other in range(MAX_SEATS):
        out[seat_slot(other, P_PLAY_ATTACK)] = rollout
        out[seat_slot(other, P_PLAY_DEFENCE)] = rollout
    plain_decisions(out)


@njit(inline="always")
def _playout_values(v: SeatView, cfg: np.ndarray, sc: SearchScratch, drawn: int) -> None:
    """Row ``drawn`` of ``sc.world_values``: each live card's score for the seat of ``v`` in
    the world drawn, each card played out (``players.kernels.machine.play_tricks`` under ``sc.rollout``) from
    the same table and the same playout stream."""
    seat = v.seat
    rollout = sc.rollout
    players = rollout[C_PLAYERS]
    for card in range(N_CARDS):
        if sc.live[card] == 1:
            _set_table(v, cfg, sc)
            put_card(sc.table, seat, card)
            if not play_tricks(sc.table, rollout, None, 0, 0):
                raise ValueError("a rollout policy must search nothing")
            settle_deal(sc.table, rollout, poignee_points(sc.table, players))
            sc.world_values[drawn, card] = sc.table.scores[seat]


@njit(_nrt=False)
def _solver_values(v: SeatView, cfg: np.ndarray, sc: SearchScratch, drawn: int) -> None:
    """Row ``drawn`` of ``sc.world_values``: each live card's exact double-dummy value for
    ``seat``'s side in the world drawn (the attack's card points from here, negated for the
    defence)."""
    players = cfg[C_PLAYERS]
    info = v.info
    prev_petit = SIDE_NONE
    if sc.count[S_PREV_PETIT] == 1:
        prev_petit = ATTACK if sc.attack[sc.count[S_PREV_WINNER]] == 1 else DEFENCE
    card_values(
        sc.hands,
        players,
        sc.attack,
        info[I_LEADER],
        v.trick,
        info[I_TRICK_LEN],
        sc.info[I_TRICKS_WON_BY],
        prev_petit,
        sc.half,
        PETIT_WEIGHT,
        sc.solver,
        sc.values,
    )
    sign = 1 if sc.attack[v.seat] == 1 else -1
    for card in range(N_CARDS):
        if sc.live[card] == 1:
            sc.world_values[drawn, card] = sign * sc.values[card]


@njit(_nrt=False)
def _drop_behind(sc: SearchScratch, drawn: int, drop: int) -> int:
    """Drop (``sc.live``) every live card more than ``drop / 10`` standard errors behind the
    live card of highest total over the ``drawn`` worlds (paired, ``sc.world_values``);
    returns how many cards are left."""
    best = -1
    for card in range(N_CARDS):
        if sc.live[card] == 1 and (best < 0 or sc.total[card] > sc.total[best]):
            best = card
    left = 0
    for card in range(N_CARDS):
        if sc.live[card] == 0:
            continue
        if card != best:
            gap = 0.0
            squares = 0.0
            for w in range(drawn):
                d = float(sc.world_values[w, best] - sc.world_values[w, card])
                gap += d
                squares += d * d
            mean = gap / drawn
            variance = (squares - drawn * mean * mean) / (drawn - 1)
            if mean > 0.0 and (variance <= 0.0 or 10.0 * mean > drop * np.sqrt(variance / drawn)):
                sc.live[card] = 0
                continue
        left += 1
    return left


@njit(inline="always")
def _kept_world(sc: SearchScratch, n_holders: int, k: int) -> None:
    """The ``k``-th world kept by ``likelihood.infer_worlds`` into ``sc.world``."""
    row = sc.infer.pick[k]
    for h in range(n_holders):
        sc.world[h, 0] = sc.infer.pool[row, h, 0]
        sc.world[h, 1] = sc.infer.pool[row, h, 1]


@njit(_nrt=False)
def pimc_card(v: SeatView, legal0: np.uint64, legal1: np.uint64, cfg: np.ndarray, sc: SearchScratch) -> int:
    """The card the seat of ``v`` plays from its legal cards by PIMC search with its options
    (``P_WORLDS``, ``P_ENDGAME``, ``P_ROLLOUT``, ``P_DROP``, ``P_KNOWLEDGE``, ``P_INFER`` of its
    block of ``cfg``), working
    in ``sc``."""
    if popcount(legal0) + popcount(legal1) == 1:
        return _only_card(legal0, legal1)
    seat = v.seat
    info = v.info
    players = cfg[C_PLAYERS]
    decision = info[I_TRICK] * players + info[I_TRICK_LEN]
    seed_substream(sc.rng, sc.key, sc.scalars[Q_DEAL], decision)
    n = seat_constraints(v, cfg, sc.unseen, sc.sizes, sc.voids, sc.known, sc.possible, sc.holder_seat)
    holder_allowed(sc.unseen, sc.voids, sc.known, sc.possible, n, sc.allowed)
    fallback = heuristic_card(v, legal0, legal1, cfg)
    if mark_candidates(v, legal0, legal1, sc.candidate) == 1:
        return fallback  # every legal card is equivalent
    if prepare_worlds(sc.allowed, sc.sizes, n, sc.unseen, sc.worlds) <= 0.0:
        return fallback
    worlds = cfg[seat_slot(seat, P_WORLDS)]
    endgame = cfg[seat_slot(seat, P_ENDGAME)]
    exact = cfg[C_HAND] - info[I_TRICK] <= endgame
    drop = cfg[seat_slot(seat, P_DROP)]
    infer = cfg[seat_slot(seat, P_INFER)] == INFER_HEURISTIC
    if infer:
        infer_worlds(
            v,
            cfg,
            sc.rng,
            sc.worlds,
            sc.holder_seat,
            n,
            sc.world,
            sc.hands,
            sc.attack,
            worlds,
            INFER_EPSILON,
            sc.infer,
        )
    if not exact:
        rollout_cfg(cfg, seat, sc.rollout)
    left = 0
    for card in range(N_CARDS):
        sc.total[card] = 0
        sc.live[card] = 1 if sc.candidate[card] == 1 else 0
        left += sc.live[card]
    drawn = 0
    while drawn < worlds and left > 1:
        if infer:
            _kept_world(sc, n, drawn)
        else:
            draw_world(sc.rng, sc.worlds, sc.world)
        world_hands(v, sc.world, sc.holder_seat, n, sc.hands, sc.attack)
        world_count(v, cfg, sc, n)
        if exact:
            _solver_values(v, cfg, sc, drawn)
        else:
            for j in range(STREAM_WORDS):
                sc.playout_rng[j] = next_u64(sc.rng)
            _playout_values(v, cfg, sc, drawn)
        for card in range(N_CARDS):
            if sc.live[card] == 1:
                sc.total[card] += sc.world_values[drawn, card]
        drawn += 1
        if drop > 0 and DROP_FIRST <= drawn < worlds and (drawn - DROP_FIRST) % DROP_EVERY == 0:
            left = _drop_behind(sc, drawn, drop)
    for card in range(N_CARDS):  # a run's cards share its lowest card's total and fate
        if sc.candidate[card] < 0:
            sc.total[card] = sc.total[-1 - sc.candidate[card]]
            sc.live[card] = sc.live[-1 - sc.candidate[card]]
    best = fallback if sc.live[fallback] == 1 else -1
    for card in range(N_CARDS):
        if sc.live[card] == 1 and (best < 0 or sc.total[card] > sc.total[best]):
            best = card
    return best
