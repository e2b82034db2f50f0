"""The search players' scratch of a block of deals, and whether a run needs it.

The game loop takes it as one argument, ``search``: a ``Search`` when some seat plays
``pimc`` or bids ``montecarlo``, else ``None``. Numba compiles a kernel once per type of
its arguments and drops the branches a ``search is None`` test rules out, so a run whose
seats never search neither compiles the search players nor carries their scratch
through the game's steps. The batch kernels take ``searching`` (``None`` or ``True``,
``needs_search``) from the Python layer and make a ``Search`` per block when it is set.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from tarotsim._jit import njit
from tarotsim.kernels.policies.codes import PLAY_PIMC
from tarotsim.kernels.search.montecarlo import BidScratch, new_bid_scratch, uses_montecarlo
from tarotsim.kernels.search.scratch import SearchScratch, new_search_scratch
from tarotsim.kernels.state import C_PLAYERS, P_PLAY_ATTACK, P_PLAY_DEFENCE, seat_slot


class Search(NamedTuple):
    """The scratch of both search players for one block of deals."""

    play: SearchScratch  # the ``pimc`` card player's (``search.scratch``)
    bid: BidScratch  # the ``montecarlo`` bidder's (``search.montecarlo``)


@njit
def searches(cfg: np.ndarray) -> bool:
    """Whether some seat of the run configuration ``cfg`` (int64[N_CFG]) plays ``pimc``."""
    for seat in range(cfg[C_PLAYERS]):
        for slot in (P_PLAY_ATTACK, P_PLAY_DEFENCE):
            if cfg[seat_slot(seat, slot)] == PLAY_PIMC:
                return True
    return False


@njit
def searches_any(cfgs: np.ndarray) -> bool:
    """Whether some seat of any configuration in ``cfgs`` (int64[k, N_CFG]) plays ``pimc``."""
    for r in range(cfgs.shape[0]):
        if searches(cfgs[r]):
            return True
    return False


def needs_search(cfgs: np.ndarray) -> bool | None:
    """The ``searching`` argument of the batch kernels for the configuration ``cfgs``
    (int64[N_CFG], or one row per duel rotation): ``True`` when some seat plays ``pimc`` or
    bids ``montecarlo``, else ``None``."""
    rows = np.atleast_2d(cfgs)
    return True if uses_montecarlo(rows) or searches_any(rows) else None


@njit
def new_search(cfgs: np.ndarray) -> Search:
    """The search scratch of a block of deals under the configurations ``cfgs``
    (int64[k, N_CFG]), each part full size only when some seat uses that player."""
    return Search(new_search_scratch(searches_any(cfgs)), new_bid_scratch(cfgs))


@njit
def block_search(cfgs: np.ndarray, searching: bool | None) -> Search | None:
    """The search scratch of a block of deals: ``new_search(cfgs)`` when ``searching`` is
    ``True``, ``None`` when it is ``None`` (a compile-time choice: the result's type)."""
    if searching is None:
        return None
    return new_search(cfgs)
