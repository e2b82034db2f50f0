"""The working arrays of the ``pimc`` player (``SearchScratch``), passed beside the deal state.

The game loop is compiled without allocation (``_nrt=False``), so everything a search
decision needs is made once per block of deals (``players.kernels.search.searching.new_search``) and
reused: the world sampler's and the solver's scratch, the arrays of a seat's constraints
and of a drawn world, the playout table (a ``DealState`` of its own), and the run key and
deal number from which each decision seeds its own random sub-stream (``note_deal``,
called by ``players.kernels.seats.play_deal``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from tarotsim._jit import njit
from tarotsim.engine.cards import HALF_POINTS, N_CARDS
from tarotsim.engine.kernels.constants import MAX_WORLDS
from tarotsim.engine.kernels.rng import STREAM_WORDS
from tarotsim.engine.kernels.state import MAX_SEATS, N_CFG, N_COUNT, N_INFO, DealState, new_state
from tarotsim.players.kernels.search.likelihood import InferScratch, new_infer_scratch
from tarotsim.players.kernels.search.solver import SolverScratch, new_solver_scratch
from tarotsim.players.kernels.search.worlds import MAX_HOLDERS, MAX_STATES, WorldScratch, new_world_scratch

Q_DEAL = 0  # number of the deal in play (its stream in the run key)
N_SEARCH_SCALARS = 1

MAX_CHOICES = 12
"""The most choices a searched decision weighs (``decisions.ecart_candidates``: the expert's
and the simple écarts, and those voiding one suit or two of the four)."""

SMALL_STATES = 1
"""World-sampler room of a block no seat of which plays ``pimc`` (``new_search_scratch(False)``)."""
SMALL_TT_BITS = 0
"""Solver table of a block no seat of which plays ``pimc``."""


class SearchScratch(NamedTuple):
    """Working arrays of one search decision, made by ``new_search_scratch``."""

    table: DealState  # the playout table
    rollout: np.ndarray  # int64[N_CFG]: the playouts' configuration (every seat plays the rollout policy)
    worlds: WorldScratch
    solver: SolverScratch
    key: np.ndarray  # uint64[STREAM_WORDS]: the run key of the deal in play
    scalars: np.ndarray  # int64[N_SEARCH_SCALARS], slots Q_*
    rng: np.ndarray  # uint64[STREAM_WORDS]: the decision's own stream
    playout_rng: np.ndarray  # uint64[STREAM_WORDS]: start of a world's playout stream (common to every card)
    unseen: np.ndarray  # uint64[2]: the cards the seat cannot see
    sizes: np.ndarray  # int64[MAX_HOLDERS]: the holders' sizes (``constraints.seat_constraints``)
    voids: np.ndarray  # int64[MAX_HOLDERS]
    known: np.ndarray  # uint64[MAX_HOLDERS, 2]
    possible: np.ndarray  # uint64[MAX_HOLDERS, 2]
    holder_seat: np.ndarray  # int64[MAX_HOLDERS]
    allowed: np.ndarray  # uint64[MAX_HOLDERS, 2]
    world: np.ndarray  # uint64[MAX_HOLDERS, 2]: a drawn world (``worlds.draw_world``)
    hands: np.ndarray  # uint64[MAX_SEATS, 2]: every seat's hand in the world
    attack: np.ndarray  # int64[MAX_SEATS]: the sides in the world
    info: np.ndarray  # int64[N_INFO]: the table's scalars in the world
    count: np.ndarray  # int64[N_COUNT]: the count so far under the world's sides
    pile: np.ndarray  # uint64[2]: the cards the attack has won so far in the world
    total: np.ndarray  # int64[N_CARDS]: per candidate card, its values summed over the worlds
    values: np.ndarray  # int64[N_CARDS]: the solver's value of each card in one world
    half: np.ndarray  # int64[N_CARDS]: the values the solver counts (the cards' half points)
    candidate: np.ndarray  # int64[N_CARDS]: the legal cards evaluated (``pimc.mark_candidates``)
    live: np.ndarray  # int64[N_CARDS]: 1 for a candidate still evaluated (not dropped), else 0
    world_values: np.ndarray  # int64[MAX_WORLDS, N_CARDS]: each live candidate's value in each world drawn
    infer: InferScratch  # the candidate worlds of ``infer=heuristic`` (``players.kernels.search.likelihood``)
    choices: np.ndarray  # uint64[MAX_CHOICES, 2]: the écarts a searched écart weighs (``decisions``)


@njit
def new_search_scratch(searching: bool) -> SearchScratch:
    """The scratch of a block of deals: full size when a seat plays ``pimc`` or searches another
    decision (``players.kernels.search.decisions``; about 20 MB: the world sampler's programme, the solver's
    transposition table, the values of every world and the inference's candidate worlds), else
    a few tens of KB."""
    max_states = MAX_STATES if searching else SMALL_STATES
    tt_bits = 16 if searching else SMALL_TT_BITS
    max_worlds = MAX_WORLDS if searching else 1
    scratch = SearchScratch(
        new_state(),
        np.zeros(N_CFG, dtype=np.int64),
        new_world_scratch(max_states),
        new_solver_scratch(tt_bits),
        np.zeros(STREAM_WORDS, dtype=np.uint64),
        np.zeros(N_SEARCH_SCALARS, dtype=np.int64),
        np.zeros(STREAM_WORDS, dtype=np.uint64),
        np.zeros(STREAM_WORDS, dtype=np.uint64),
        np.zeros(2, dtype=np.uint64),
        np.zeros(MAX_HOLDERS, dtype=np.int64),
        np.zeros(MAX_HOLDERS, dtype=np.int64),
        np.zeros((MAX_HOLDERS, 2), dtype=np.uint64),
        np.zeros((MAX_HOLDERS, 2), dtype=np.uint64),
        np.zeros(MAX_HOLDERS, dtype=np.int64),
        np.zeros((MAX_HOLDERS, 2), dtype=np.uint64),
        np.zeros((MAX_HOLDERS, 2), dtype=np.uint64),
        np.zeros((MAX_SEATS, 2), dtype=np.uint64),
        np.zeros(MAX_SEATS, dtype=np.int64),
        np.zeros(N_INFO, dtype=np.int64),
        np.zeros(N_COUNT, dtype=np.int64),
        np.zeros(2, dtype=np.uint64),
        np.zeros(N_CARDS, dtype=np.int64),
        np.zeros(N_CARDS, dtype=np.int64),
        np.zeros(N_CARDS, dtype=np.int64),
        np.zeros(N_CARDS, dtype=np.int64),
        np.zeros(N_CARDS, dtype=np.int64),
        np.zeros((max_worlds, N_CARDS), dtype=np.int64),
        new_infer_scratch(searching),
        np.zeros((MAX_CHOICES, 2), dtype=np.uint64),
    )
    for card in range(N_CARDS):
        scratch.half[card] = HALF_POINTS[card]
    return scratch


@njit(inline="always")
def note_deal(sc: SearchScratch, key: np.ndarray, deal: int) -> None:
    """Keep the run key and the deal number, from which each decision of the deal seeds its
    own sub-stream (``engine.kernels.rng.seed_substream``)."""
    for j in range(STREAM_WORDS):
        sc.key[j] = key[j]
    sc.scalars[Q_DEAL] = deal
