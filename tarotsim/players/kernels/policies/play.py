"""The card-play policies that search nothing, and their one dispatch, ``playout_card``.

- ``PLAY_RANDOM``: a card drawn uniformly from the legal cards (the deal's stream,
  ``SeatView.rng``; ``uniform.py``);
- ``PLAY_HEURISTIC``: the rule-based player of ``heuristic.py`` (deterministic);
- ``PLAY_BASIC``: the same player without the knowledge and play it gained in 0.2.0
  (``heuristic.py``: the ``informed`` flag), its play before, kept so duels show the gain;
- ``PLAY_GREEDY``: take the trick as cheaply as possible, else the cheapest card (``greedy.py``);
- ``PLAY_NET``: the small neural network learned from ``pimc``'s cards (``net.py``; deterministic),
  an ordinary call rather than inlined: its arithmetic outweighs the call.

``PLAY_PIMC`` searches: the deal machine's trick loop (``players.kernels.machine.play_tricks``) hands its
decisions back to ``players.kernels.seats.decide``, which asks ``players.kernels.search.pimc`` with its scratch. Any other code raises: no code falls
through to a default. Every policy here may be a search player's rollout (``players.kernels.machine.play_tricks``
plays the search players' playouts with it).

``playout_card`` and ``heuristic_choice`` are inlined (Numba IR) into ``players.kernels.machine.play_tricks``,
which is compiled without reference counting (``_nrt=False``): a call passing the whole
``SeatView`` copies tens of words, and in a function with reference counting every array
read costs an atomic increment and decrement. The heuristic's steps take only scalars (its
``knowledge.Reading``); the three it calls at every decision (``excuse_step``,
``lead_card``, ``follow_card``) are inlined too, since passing a ``Reading`` (tens of
scalars) to a called function cost more than most steps' own work, and the steps those call stay
ordinary functions (inlining them all as well doubled the compile time for a few per
cent of speed).

Adding a card policy: its kernel in this folder, reading a ``SeatView`` and the legal
cards and returning a card; its code (``codes.py``, from the registry); one branch here.
"""

from __future__ import annotations

import numpy as np

from tarotsim._jit import njit
from tarotsim.engine.kernels.view import SeatView
from tarotsim.players.kernels.policies.codes import (
    PLAY_BASIC,
    PLAY_GREEDY,
    PLAY_HEURISTIC,
    PLAY_NET,
    PLAY_RANDOM,
)
from tarotsim.players.kernels.policies.greedy import greedy_card
from tarotsim.players.kernels.policies.heuristic import heuristic_choice
from tarotsim.players.kernels.policies.net import net_card
from tarotsim.players.kernels.policies.uniform import random_card

PLAYOUT_CODES = (PLAY_RANDOM, PLAY_HEURISTIC, PLAY_BASIC, PLAY_GREEDY, PLAY_NET)
"""The codes ``playout_card`` handles: every card-play policy that searches nothing."""


@njit(inline="always")
def playout_card(policy: int, v: SeatView, legal0: np.uint64, legal1: np.uint64, cfg: np.ndarray) -> int:
    """The card the seat of ``v`` plays from its legal cards ``(legal0, legal1)`` under
    ``policy``, a policy that searches nothing, with the seat's options in ``cfg``; raises
    for any other code."""
    if policy == PLAY_HEURISTIC or policy == PLAY_BASIC:  # one inlined copy for both
        return heuristic_choice(v, legal0, legal1, cfg, policy == PLAY_HEURISTIC)
    if policy == PLAY_GREEDY:
        return greedy_card(v, legal0, legal1)
    if policy == PLAY_RANDOM:
        return random_card(v.rng, legal0, legal1)
    if policy == PLAY_NET:
        return net_card(v, legal0, legal1, cfg)
    raise ValueError("unknown or searching card-play policy code")
