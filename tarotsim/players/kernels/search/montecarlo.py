"""The ``montecarlo`` bid policy: wish the contract whose playouts score best.

When its turn to speak comes, the seat deals the cards it cannot see (the other hands
and the chien) again, ``worlds`` times, consistently with what it knows; in each world it
takes every contract above the bid it heard, plays the deal out to the end and scores
it; it wishes the contract with the best mean score over the worlds if that mean is
positive, else it passes. The game turns the wish into a bid (it is above the current
bid by construction).

What the seat knows, and how the worlds respect it:

- its own hand, and that no hand holds the Petit sec (the deal would have been thrown in
  before the auction);
- the bids heard so far. The seats that spoke before it are modelled as bidding by
  Chavey's count (``bidding.chavey_wish``) at the thresholds of the deciding seat's own
  block (``bid_thresholds``, by default the published bands scaled by the cards in a
  hand: the public convention): a seat that bid contract c has that wish, a seat that
  passed wishes no more than the bid it heard. Worlds are drawn uniformly over the deals
  of the unseen cards (``players.kernels.search.constraints``, the one set of hidden-card constraints, and
  ``players.kernels.search.worlds``, exactly uniform) and those inconsistent with
  the bids or holding a Petit sec are rejected: the accepted worlds are uniform over the
  consistent deals, the exact posterior under that model. At most
  ``TRIES_PER_WORLD * worlds`` worlds are drawn: when the cap is hit the mean is over the
  worlds accepted so far (a noisier estimate, unbiased under the model), and when no world
  was accepted the seat passes. That is a bias towards passing after very unlikely bids
  (the earlier seats' hands then hardly ever fit them); it is rare, for only the bids
  above Garde are that unlikely, and above them only Garde contre is left to wish.

Each world is played once per contract, every seat played by the playout policy
(``bid_rollout``, a ``PLAY_*`` code: the heuristic by default) with the deciding seat's
own écart, poignée and chelem policies and options (the seat models the table as playing
like itself), the seat as the taker (with five players the partner is whoever holds the
called card in that world). The contracts of one world share the world and the playouts'
random stream (common random numbers), so their differences are measured with less noise
than their levels. Prise and Garde are played apart even though the cards are often the
same: a defender's ``smart`` poignée, and any card play that reads the contract, may play
them differently. The score is the seat's own score for the deal (``engine.kernels.steps.settle_deal``),
in game points, poignées, Petit au bout and chelem included.

With ``bid_rollout=pimc`` the playouts are played by the search player itself, in every
seat: each card of a playout with a choice is a ``pimc`` decision (``pimc.pimc_card``) of
that playout's seat, which draws ``bid_rollout_worlds`` worlds of its own, consistent with
what that seat sees of the playout table (its hand in the bidder's world, the cards played,
the chien shown …), and plays them out by the seat's ``rollout`` policy; its other options
(``drop``, ``endgame``, ``knowledge``) are the deciding seat's own. A nested decision sees
only the playout's table, which holds the bidder's drawn world, never the real unseen cards;
it works in a scratch of its own (``BidScratch.play``) and seeds its sub-streams from the
world's playout stream (``scratch.note_deal`` with that stream as key), so the contracts of
one world share them too. ``infer=heuristic`` is refused with it (a playout holds no
auction to weigh worlds by).

Randomness comes from a sub-stream of the deal's stream for each seat
(``engine.kernels.rng.seed_substream``: run key, deal number, seat), so the deal's own stream is
untouched and the wish is a function of the run key, the deal number, the seat's hand
and the bids heard, never of the cards it cannot see: ``tests/test_montecarlo_bidder.py``
re-deals them and checks the wish stays the same.

Cost: up to four playouts per world, each one deal's card play by ``bid_rollout`` (about
one heuristic deal; ``pimc`` playouts cost a ``pimc`` deal at ``bid_rollout_worlds`` worlds
each: ``docs/tasks/search.md`` gives the figures); the decision also draws the worlds
(``worlds.draw_world``, a few microseconds each) and rejects those that do not fit the
bids. A block of deals allocates its scratch once (``new_bid_scratch``): a second table for
the playouts, the sampler's arrays, and the playouts' ``pimc`` scratch (full size only with
``bid_rollout=pimc``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from tarotsim._jit import njit
from tarotsim.engine.kernels.deal import is_petit_sec
from tarotsim.engine.kernels.rng import STREAM_WORDS, next_u64, seed_substream
from tarotsim.engine.kernels.score import GARDE_CONTRE, PASS
from tarotsim.engine.kernels.state import (
    C_PLAYERS,
    C_SEATS,
    I_DEALER,
    MAX_SEATS,
    N_CFG,
    N_SEAT_CFG,
    P_BID_POLICY,
    P_BID_ROLLOUT,
    P_BID_ROLLOUT_WORLDS,
    P_BID_WORLDS,
    P_PLAY_ATTACK,
    P_PLAY_DEFENCE,
    P_WORLDS,
    Q_SEAT,
    DealState,
    new_state,
    seat_slot,
)
from tarotsim.engine.kernels.steps import poignee_points, put_card, reset_table, settle_deal
from tarotsim.engine.kernels.view import SeatView, seat_view
from tarotsim.players.kernels.machine import play_tricks, take_contract
from tarotsim.players.kernels.policies.bidding import chavey_wish
from tarotsim.players.kernels.policies.codes import BID_MONTECARLO, PLAY_PIMC
from tarotsim.players.kernels.policies.dispatch import plain_decisions
from tarotsim.players.kernels.search.constraints import seat_constraints
from tarotsim.players.kernels.search.pimc import pimc_card
from tarotsim.players.kernels.search.scratch import SearchScratch, new_search_scratch, note_deal
from tarotsim.players.kernels.search.worlds import (
    MAX_HOLDERS,
    MAX_STATES,
    WorldScratch,
    draw_world,
    holder_allowed,
    new_world_scratch,
    prepare_worlds,
)

TRIES_PER_WORLD = 64
"""Worlds drawn at most per world asked for, before the seat settles for those accepted."""
BID_SUBSTREAM = 0xB1D0
"""Sub-streams ``BID_SUBSTREAM + seat`` of a deal's stream are its seats' bidding decisions."""
N_CONTRACT_CODES = GARDE_CONTRE + 1
"""Contract codes PASS … GARDE_CONTRE, the index of ``BidScratch.total``."""

B_ACCEPTED = 0  # worlds accepted by the last decision
B_TRIES = 1  # worlds drawn by the last decision
N_BID_SCALARS = 2


class BidScratch(NamedTuple):
    """Working arrays of the ``montecarlo`` bidder, made once per block of deals by
    ``new_bid_scratch`` and reused for every deal."""

    rng: np.ndarray  # uint64[STREAM_WORDS]: the decision's sub-stream
    seed: np.ndarray  # uint64[STREAM_WORDS]: the playouts' stream of the world in hand
    cfg: np.ndarray  # int64[N_CFG]: the playouts' configuration
    table: DealState  # the playouts' table
    unseen: np.ndarray  # uint64[2]: the cards the seat cannot see
    allowed: np.ndarray  # uint64[MAX_HOLDERS, 2]: the cards each holder may hold
    sizes: np.ndarray  # int64[MAX_HOLDERS]: the cards each holder takes
    voids: np.ndarray  # int64[MAX_HOLDERS]: what ``constraints.seat_constraints`` knows of each holder
    known: np.ndarray  # uint64[MAX_HOLDERS, 2]
    possible: np.ndarray  # uint64[MAX_HOLDERS, 2]
    holder_seat: np.ndarray  # int64[MAX_HOLDERS]
    world: np.ndarray  # uint64[MAX_HOLDERS, 2]: a drawn world, the other hands then the chien
    total: np.ndarray  # int64[N_CONTRACT_CODES]: sum of the seat's playout scores, by contract
    scalars: np.ndarray  # int64[N_BID_SCALARS], slots B_*
    worlds: WorldScratch
    play: SearchScratch  # the ``pimc`` decisions of the playouts (``bid_rollout=pimc``): their own scratch


@njit
def uses_montecarlo(cfgs: np.ndarray) -> bool:
    """Whether a seat of any configuration in ``cfgs`` (int64[k, N_CFG]) bids ``montecarlo``."""
    for r in range(cfgs.shape[0]):
        for seat in range(cfgs[r, C_PLAYERS]):
            if cfgs[r, seat_slot(seat, P_BID_POLICY)] == BID_MONTECARLO:
                return True
    return False


@njit
def uses_pimc_playouts(cfgs: np.ndarray) -> bool:
    """Whether a seat of any configuration in ``cfgs`` (int64[k, N_CFG]) bids ``montecarlo``
    with ``pimc`` playouts (``bid_rollout=pimc``)."""
    for r in range(cfgs.shape[0]):
        for seat in range(cfgs[r, C_PLAYERS]):
            if (
                cfgs[r, seat_slot(seat, P_BID_POLICY)] == BID_MONTECARLO
                and cfgs[r, seat_slot(seat, P_BID_ROLLOUT)] == PLAY_PIMC
            ):
                return True
    return False


@njit
def new_bid_scratch(cfgs: np.ndarray) -> BidScratch:
    """The scratch of the configurations ``cfgs`` (int64[k, N_CFG]); the world sampler's
    arrays are full size (about 9 MB) only when some seat bids ``montecarlo``, the playouts'
    ``pimc`` scratch (about 20 MB) only when some seat bids it with ``bid_rollout=pimc``."""
    max_states = MAX_STATES if uses_montecarlo(cfgs) else 1
    return BidScratch(
        np.zeros(STREAM_WORDS, dtype=np.uint64),
        np.zeros(STREAM_WORDS, dtype=np.uint64),
        np.zeros(N_CFG, dtype=np.int64),
        new_state(),
        np.zeros(2, dtype=np.uint64),
        np.zeros((MAX_HOLDERS, 2), dtype=np.uint64),
        np.zeros(MAX_HOLDERS, dtype=np.int64),
        np.zeros(MAX_HOLDERS, dtype=np.int64),
        np.zeros((MAX_HOLDERS, 2), dtype=np.uint64),
        np.zeros((MAX_HOLDERS, 2), dtype=np.uint64),
        np.zeros(MAX_HOLDERS, dtype=np.int64),
        np.zeros((MAX_HOLDERS, 2), dtype=np.uint64),
        np.zeros(N_CONTRACT_CODES, dtype=np.int64),
        np.zeros(N_BID_SCALARS, dtype=np.int64),
        new_world_scratch(max_states),
        new_search_scratch(uses_pimc_playouts(cfgs)),
    )


@njit(_nrt=False)
def _playout_cfg(cfg: np.ndarray, seat: int, out: np.ndarray) -> None:
    """The playouts' configuration: the table of ``cfg``, every seat with ``seat``'s block
    and the playout policy for its card play on both sides, a searching call, écart, poignée
    or chelem played by its decision's default (``players.kernels.policies.dispatch.plain_decisions``); with
    ``pimc`` playouts, every seat's ``pimc`` draws ``bid_rollout_worlds`` worlds a decision."""
    for i in range(C_SEATS):
        out[i] = cfg[i]
    rollout = cfg[seat_slot(seat, P_BID_ROLLOUT)]
    for other in range(MAX_SEATS):
        for slot in range(N_SEAT_CFG):
            out[seat_slot(other, slot)] = cfg[seat_slot(seat, slot)]
        out[seat_slot(other, P_PLAY_ATTACK)] = rollout
        out[seat_slot(other, P_PLAY_DEFENCE)] = rollout
        out[seat_slot(other, P_WORLDS)] = cfg[seat_slot(seat, P_BID_ROLLOUT_WORLDS)]
    plain_decisions(out)


@njit(inline="always")
def play_out(pt: DealState, cfg: np.ndarray, taker: int, contract: int, sc: SearchScratch) -> int:
    """Play the deal dealt in ``pt.dealt`` and ``pt.chien`` (dealer ``pt.info[I_DEALER]``) to
    the end with ``taker`` taking ``contract``, each seat by its policies in ``cfg``
    (``players.kernels.machine.take_contract``, ``players.kernels.machine.play_tricks``), from the random stream in ``pt.rng``;
    returns the taker's score (game points). A ``pimc`` card is searched with ``sc`` (whose
    key ``note_deal`` set) from the seat's view of ``pt``: the playout's world is all it sees."""
    players = cfg[C_PLAYERS]
    reset_table(pt, players, pt.info[I_DEALER])
    if not take_contract(pt, cfg, taker, contract):
        raise ValueError("a playout's call, ecart and chelem must search nothing")
    while not play_tricks(pt, cfg, None, 0, 0):  # a pimc card: the only decision handed back here
        seat = pt.pos[Q_SEAT]
        put_card(pt, seat, pimc_card(seat_view(pt, seat), pt.legal[0], pt.legal[1], cfg, sc))
    settle_deal(pt, cfg, poignee_points(pt, players))
    return pt.scores[taker]


@njit(_nrt=False)
def _fits(pt: DealState, cfg: np.ndarray, seat: int, first: int, spoken: int, bids: np.ndarray) -> bool:
    """Whether the world in ``pt.dealt`` fits what ``seat`` knows: no Petit sec, and each of
    the ``spoken`` seats before it (from ``first``) said what Chavey's count at ``seat``'s
    thresholds makes it say."""
    players = cfg[C_PLAYERS]
    for other in range(players):
        if is_petit_sec(pt.dealt[other, 1]):
            return False
    current = PASS
    for j in range(spoken):
        other = (first + j) % players
        wish = chavey_wish(pt.dealt[other, 0], pt.dealt[other, 1], cfg, seat)
        said = bids[j]
        if said > PASS:
            if wish != said:
                return False
            current = said
        elif wish > current:
            return False
    return True


@njit(_nrt=False)
def playout_totals(v: SeatView, cfg: np.ndarray, key: np.ndarray, deal: int, bs: BidScratch) -> int:
    """Sample the worlds of the decision of the seat of ``v`` and play them out: ``bs.total[c]``
    gets the sum of the seat's scores over the accepted worlds for every contract ``c`` above
    the bid heard; returns the number of worlds accepted (also in ``bs.scalars[B_ACCEPTED]``).

    The seat speaks after the seats from the dealer's right before it, whose words are
    ``v.bids`` (speaking order); the deal is deal number ``deal`` of the run whose key is
    ``key`` (the decision's random stream). The view is read for the seat's hand (as dealt),
    the dealer and the bids heard; the holders of the unseen cards are those of
    ``constraints.seat_constraints`` (at the auction, the other hands and the chien).
    """
    seat = v.seat
    bids = v.bids
    players = cfg[C_PLAYERS]
    dealer = v.info[I_DEALER]
    spoken = (seat - dealer - 1) % players
    first = (dealer + 1) % players
    current = PASS
    for j in range(spoken):
        current = max(current, bids[j])
    for c in range(N_CONTRACT_CODES):
        bs.total[c] = 0
    bs.scalars[B_ACCEPTED] = 0
    bs.scalars[B_TRIES] = 0
    if current >= GARDE_CONTRE:
        return 0

    seed_substream(bs.rng, key, deal, BID_SUBSTREAM + seat)
    _playout_cfg(cfg, seat, bs.cfg)
    # the other seats from seat + 1 round the table, then the chien: at the auction a seat
    # knows only its hand
    n_holders = seat_constraints(v, cfg, bs.unseen, bs.sizes, bs.voids, bs.known, bs.possible, bs.holder_seat)
    holder_allowed(bs.unseen, bs.voids, bs.known, bs.possible, n_holders, bs.allowed)
    if prepare_worlds(bs.allowed, bs.sizes, n_holders, bs.unseen, bs.worlds) <= 0.0:
        return 0

    pt = bs.table
    pt.info[I_DEALER] = dealer
    pt.dealt[seat, 0] = v.hand0
    pt.dealt[seat, 1] = v.hand1
    worlds = cfg[seat_slot(seat, P_BID_WORLDS)]
    accepted = 0
    tries = 0
    while accepted < worlds and tries < TRIES_PER_WORLD * worlds:
        tries += 1
        draw_world(bs.rng, bs.worlds, bs.world)
        for h in range(players - 1):
            other = (seat + 1 + h) % players
            pt.dealt[other, 0] = bs.world[h, 0]
            pt.dealt[other, 1] = bs.world[h, 1]
        pt.chien[0] = bs.world[players - 1, 0]
        pt.chien[1] = bs.world[players - 1, 1]
        if not _fits(pt, cfg, seat, first, spoken, bids):
            continue
        accepted += 1
        for j in range(STREAM_WORDS):
            bs.seed[j] = next_u64(bs.rng)
        note_deal(bs.play, bs.seed, 0)  # the playouts' pimc decisions: sub-streams of the world's stream
        for contract in range(current + 1, N_CONTRACT_CODES):
            for j in range(STREAM_WORDS):
                pt.rng[j] = bs.seed[j]
            pt.info[I_DEALER] = dealer
            bs.total[contract] += play_out(pt, bs.cfg, seat, contract, bs.play)
    bs.scalars[B_ACCEPTED] = accepted
    bs.scalars[B_TRIES] = tries
    return accepted


@njit(_nrt=False)
def montecarlo_wish(v: SeatView, cfg: np.ndarray, key: np.ndarray, deal: int, bs: BidScratch) -> int:
    """The contract the seat of ``v`` wishes (PASS … GARDE_CONTRE): the best mean playout
    score above the bid heard if positive, the lower contract on a tie; PASS otherwise, or
    when no world fitted the bids (``playout_totals`` says the rest)."""
    accepted = playout_totals(v, cfg, key, deal, bs)
    wish = PASS
    best = 0
    for contract in range(N_CONTRACT_CODES):
        if accepted > 0 and bs.total[contract] > best:  # same worlds for every contract: compare sums
            best = bs.total[contract]
            wish = contract
    return wish
