"""Saying so when a run must compile its kernels first.

Before a run whose kernel is not in the cache, ``prepare_run`` compiles it with the compile
notice (``base.notices``: what is compiled, about how long it takes, that it happens once).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tarotsim.base.notices import compile_first

if TYPE_CHECKING:
    import numpy as np

    from tarotsim.players.users import UserRun

RUN_COMPILES: dict[bool, tuple[str, str]] = {
    False: ("the game (every policy that does not search)", "half a minute"),
    True: ("the game with the search players (pimc, the montecarlo bidder)", "a minute"),
}
"""For a run without and with search players: what is compiled, and about how long it
takes on one core of a 2-core machine (``reports/compile.md``)."""
USERS_COMPILE = (
    "the game for Numba players (once for every Numba player; each new player compiles alone, "
    "and is kept across sessions when written with @numba.njit(cache=True))",
    "15 seconds",
)
"""The same for a run with Numba card players (``reports/players-api.md``)."""


def prepare_run(
    first_deal: int,
    key: np.ndarray,
    cfgs: np.ndarray,
    out: np.ndarray,
    logs: np.ndarray,
    masks: np.ndarray,
    searching: bool | None,
    users: UserRun | None = None,
) -> bool:  # the arguments of batch.run_deals
    """Compile the kernel of ``runs.kernels.batch.run_deals`` (``runs.kernels.batch.play_block``) for these arguments
    (with ``users``, the run's Numba players, when it has some) if it must be, with the
    notice. Returns whether it compiled."""
    from tarotsim.runs.kernels.batch import block_scratch, block_size, play_block

    size = block_size(cfgs, searching)
    if users is None:
        (what, how_long), table, functions = RUN_COMPILES[searching is True], cfgs, None
    else:
        (what, how_long), table, functions = USERS_COMPILE, users.cfgs, users.users
    scratch = block_scratch(table, searching)
    args = (first_deal // size, size, first_deal, key, table, out, logs, masks, functions, *scratch)
    return compile_first(play_block, args, what, how_long)
