"""Card-play policies and the dispatcher the game loop calls.

- ``PLAY_RANDOM``: a card drawn uniformly from the legal cards (the deal's stream);
- ``PLAY_HEURISTIC``: the rule-based player of ``heuristic.py`` (deterministic);
- ``PLAY_BASIC``: the same player without the knowledge and play it gained in issue 13
  (``heuristic.py``: the ``informed`` flag), its play before, kept so duels show the gain;
- ``PLAY_GREEDY``: take the trick as cheaply as possible, else the cheapest card (``greedy.py``);
- ``PLAY_PIMC``: perfect-information Monte Carlo search (``kernels.search.pimc``), which
  works in the search scratch (``kernels.searching.Search``).

``choose_card`` dispatches every policy; ``playout_card`` every policy that searches
nothing, which is all the search players' playouts need.

``random_card`` lives in ``uniform.py`` (the search players' playouts use it too).

``choose_card``, ``playout_card`` and ``heuristic_choice`` are inlined (Numba IR) into the game loop, which is
compiled without reference counting (``_nrt=False``): a call passing the whole ``DealState``
copies about a hundred words, and in a function with reference counting every
``tb.field`` read costs an atomic increment and decrement. The heuristic's steps take
only scalars (a ``View``); the three it calls at every decision (``excuse_step``,
``lead_card``, ``follow_card``) are inlined too, since passing a ``View`` (19 scalars) to a
called function cost more than most steps' own work, and the steps those call stay
ordinary functions (inlining them all as well doubled the compile time for a few per
cent of speed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from tarotsim._jit import njit
from tarotsim.kernels.policies.codes import PLAY_BASIC, PLAY_GREEDY, PLAY_HEURISTIC, PLAY_PIMC
from tarotsim.kernels.policies.greedy import greedy_card
from tarotsim.kernels.policies.heuristic import heuristic_choice
from tarotsim.kernels.policies.uniform import random_card
from tarotsim.kernels.search.pimc import pimc_card
from tarotsim.kernels.state import DealState

if TYPE_CHECKING:
    from tarotsim.kernels.searching import Search


@njit(inline="always")
def choose_card(
    policy: int,
    seat: int,
    legal0: np.uint64,
    legal1: np.uint64,
    tb: DealState,
    cfg: np.ndarray,
    search: Search | None,
) -> int:
    """The card ``seat`` plays from its legal cards ``(legal0, legal1)`` under ``policy``;
    ``search`` is the search scratch, ``None`` when no seat plays ``pimc`` (which then
    compiles no search: Numba settles ``search is None`` from the argument's type)."""
    if search is not None:
        if policy == PLAY_PIMC:
            return pimc_card(seat, legal0, legal1, tb, cfg, search.play)
    return playout_card(policy, seat, legal0, legal1, tb, cfg)


@njit(inline="always")
def playout_card(
    policy: int, seat: int, legal0: np.uint64, legal1: np.uint64, tb: DealState, cfg: np.ndarray
) -> int:
    """The card ``seat`` plays from its legal cards ``(legal0, legal1)`` under ``policy``,
    any policy that searches nothing (``PLAY_PIMC`` and unknown codes play a random card)."""
    if policy == PLAY_HEURISTIC or policy == PLAY_BASIC:  # one inlined copy for both
        return heuristic_choice(seat, legal0, legal1, tb, cfg, policy == PLAY_HEURISTIC)
    if policy == PLAY_GREEDY:
        return greedy_card(seat, legal0, legal1, tb)
    return random_card(tb.rng, legal0, legal1)
