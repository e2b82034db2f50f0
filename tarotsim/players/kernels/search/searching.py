"""The search players' scratch of a block of deals, and whether a run needs it.

The game loop takes it as one argument, ``search``: a ``Search`` when some seat searches
(``pimc`` play, the ``montecarlo`` bidder, a searched call, écart, poignée or chelem), else ``None``. Numba compiles a kernel once per
type of its arguments and drops the branches a ``search is None`` test rules out, so a run
whose seats never search neither compiles the search players nor carries their scratch
through the game's steps. The Python layer decides it once per run from the policy
registry's ``searches`` flags (``tarotsim.players.policies.searches``, ``RunSpec.searches``)
and makes a ``Search`` (``new_search``) for each block of deals or games that needs one.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from tarotsim._jit import njit
from tarotsim.engine.kernels.state import C_PLAYERS, P_PLAY_ATTACK, P_PLAY_DEFENCE, seat_slot
from tarotsim.players.kernels.policies.codes import PLAY_PIMC
from tarotsim.players.kernels.policies.dispatch import PLAIN
from tarotsim.players.kernels.search.montecarlo import BidScratch, new_bid_scratch
from tarotsim.players.kernels.search.scratch import SearchScratch, new_search_scratch


class Search(NamedTuple):
    """The scratch of both search players for one block of deals."""

    play: SearchScratch  # the ``pimc`` card player's and the searched decisions' (``players.kernels.search.scratch``)
    bid: BidScratch  # the ``montecarlo`` bidder's (``players.kernels.search.montecarlo``)


@njit
def uses_play_scratch(cfgs: np.ndarray) -> bool:
    """Whether some seat of a configuration in ``cfgs`` (int64[k, N_CFG]) plays ``pimc`` or
    searches its call, écart, poignée or chelem (``players.kernels.search.decisions``, ``players.kernels.policies.dispatch.PLAIN``):
    the ``pimc`` scratch is then made full size."""
    for r in range(cfgs.shape[0]):
        for seat in range(cfgs[r, C_PLAYERS]):
            for slot in (P_PLAY_ATTACK, P_PLAY_DEFENCE):
                if cfgs[r, seat_slot(seat, slot)] == PLAY_PIMC:
                    return True
            for slot, searching, _ in PLAIN:
                if cfgs[r, seat_slot(seat, slot)] == searching:
                    return True
    return False


def new_search(cfgs: np.ndarray) -> Search:
    """The search scratch of a block of deals under the configurations ``cfgs``
    (int64[k, N_CFG]), each part full size only when some seat uses that player. Made from
    Python, part by part: a compiled function returning the whole ``Search`` would cost a
    first search run some 20 CPU s more of compiling, for the code that hands its nested
    arrays back to Python."""
    return Search(new_search_scratch(bool(uses_play_scratch(cfgs))), new_bid_scratch(cfgs))
