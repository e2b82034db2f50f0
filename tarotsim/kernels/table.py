"""The table a block of deals plays on: the deal state (``state.DealState``) with the
search players' scratch (``search.scratch``) sized for the run.

A table whose seats never search gets a scratch of a few tens of KB; a run in which some
seat plays ``pimc`` needs the full one (about 17 MB), made once per block of deals.
"""

from __future__ import annotations

import numpy as np

from tarotsim._jit import njit
from tarotsim.kernels.policies.codes import PLAY_PIMC
from tarotsim.kernels.search.scratch import new_search_scratch, new_table
from tarotsim.kernels.state import C_PLAYERS, P_PLAY_ATTACK, P_PLAY_DEFENCE, DealState, seat_slot


@njit
def new_state(searching: bool = False) -> DealState:
    """A fresh table, large enough for any number of players; ``searching``: with the full
    scratch of the search players."""
    return new_table(new_search_scratch(searching))


@njit
def searches(cfg: np.ndarray) -> bool:
    """Whether some seat of the run configuration ``cfg`` plays a search policy."""
    for seat in range(cfg[C_PLAYERS]):
        for slot in (P_PLAY_ATTACK, P_PLAY_DEFENCE):
            if cfg[seat_slot(seat, slot)] == PLAY_PIMC:
                return True
    return False


@njit
def new_state_for(cfg: np.ndarray) -> DealState:
    """A fresh table for the run configuration ``cfg``: with the full search scratch when
    some seat searches."""
    return new_state(searches(cfg))
