"""A batched environment: many deals stepped at once, for learning agents.

``VecEnv(n_games, players=4, agent_seats=(0,), opponents="play=heuristic,ecart=expert", seed=0)``
plays ``n_games`` games side by side. Each step takes one action per game, the decision of
the game's agent seat to act, and runs every game on (the seats that are not the agent's
are played inside the kernels by the opponents' strategy) to its next decision by an agent
seat. A game whose deal ends restarts on its next deal: game slot ``g`` plays deals ``g``,
``g + n_games``, ``g + 2 n_games``… of the run of ``seed`` (the cards ``simulate(…, seed)``
deals for those numbers), so the trajectories do not depend on the number of threads.
A deal thrown in before any agent decision (a petit sec) is passed over.

Actions are indices into ``tarotsim.actions(players)``. Observations are compact int64
rows (slots ``kernels.vector.O_*``, ``N_OBS`` of them); `decode` turns them into
``Observation.tensor``'s float32 encoding, field for field.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import cache

import numpy as np

from tarotsim.game import (
    PHASES,
    Observation,
    action_table,
    actions,
    decode,
    strategy_cfg,
)
from tarotsim.kernels import state as S
from tarotsim.kernels import vector as V
from tarotsim.strategy import Strategy, to_strategy

MIN_BLOCK = 64
"""Fewest games a thread of `step_games` takes."""


@cache
def _pool(threads: int) -> ThreadPoolExecutor:
    return ThreadPoolExecutor(threads, thread_name_prefix="tarotsim-step")


def step_games(
    games: V.Games,
    cfgs: np.ndarray,
    key: np.ndarray,
    codes: np.ndarray,
    index: np.ndarray,
    obs: np.ndarray,
    mask: np.ndarray,
    ended: np.ndarray,
    records: np.ndarray,
    threads: int,
) -> None:
    """``kernels.vector.step`` for every game of ``games``, in up to ``threads`` blocks run on
    threads at once (the kernel releases the GIL; each game depends on its own arrays only)."""
    n = len(codes)
    parts = max(1, min(threads, n // MIN_BLOCK))
    if parts == 1:
        V.step(games, 0, n, cfgs, key, codes, index, obs, mask, ended, records)
        return
    bounds = [n * i // parts for i in range(parts + 1)]
    runs = [
        _pool(parts).submit(V.step, games, lo, hi, cfgs, key, codes, index, obs, mask, ended, records)
        for lo, hi in zip(bounds[:-1], bounds[1:], strict=True)
    ]
    for run in runs:
        run.result()


class VecEnv:
    """Many games stepped at once, every seat not the agent's played by a built-in strategy.

    Parameters
    ----------
    n_games : int
        Games played side by side (the batch size).
    players : int
        3, 4 or 5.
    agent_seats : sequence of int
        The seats whose decisions `step` takes (every decision: bids, écart… and cards).
    opponents : Strategy or str
        The built-in strategy of the other seats (a strategy that searches is refused).
    seed : int
        The run's seed: game ``g`` plays the deals ``g, g + n_games, …`` of that run.
    threads : int, optional
        Threads that step the games (default: as many as Numba may start); the
        trajectories are the same for any number.

    Attributes
    ----------
    n_games, players : int
    agent_seats : tuple of int
    actions : list of str
        ``tarotsim.actions(players)``: what an action index means.
    n_actions : int
    obs_length : int
        Slots of a compact observation row (``kernels.vector.N_OBS``).

    Examples
    --------
    Random legal actions for every seat of 1024 games, 100 steps:

    >>> env = VecEnv(1024, 4, agent_seats=(0, 1, 2, 3), seed=0)
    >>> obs, mask = env.reset()
    >>> rng = np.random.default_rng(0)
    >>> for _ in range(100):
    ...     counts = mask.sum(axis=1)
    ...     pick = (rng.random(len(mask)) * counts).astype(np.int64)
    ...     actions = np.argmax(mask.cumsum(axis=1) > pick[:, None], axis=1)
    ...     obs, mask, rewards, done = env.step(actions)
    >>> env.decode(obs).shape
    (1024, 1724)
    """

    def __init__(
        self,
        n_games: int,
        players: int = 4,
        *,
        agent_seats: Sequence[int] = (0,),
        opponents: Strategy | str = "play=heuristic,ecart=expert",
        seed: int = 0,
        threads: int | None = None,
    ) -> None:
        from tarotsim.config import check_players
        from tarotsim.run.engine import check_threads
        from tarotsim.run.seeding import resolve_seed, run_key

        if isinstance(n_games, bool) or not isinstance(n_games, (int, np.integer)) or n_games < 1:
            raise ValueError(f"n_games must be a positive integer, got {n_games!r}")
        self.players = check_players(players)
        seats = tuple(int(s) for s in agent_seats)
        if not seats or any(not 0 <= s < self.players for s in seats) or len(set(seats)) != len(seats):
            raise ValueError(
                f"agent_seats must be distinct seats 0 to {self.players - 1}, got {agent_seats!r}"
            )
        strategy = to_strategy(opponents)
        if strategy.player is not None:
            raise ValueError("opponents must be a built-in strategy, not one with a Python player")
        if strategy.searches:
            raise ValueError(f"opponents {strategy}: a searching strategy cannot play inside the environment")
        self.n_games = int(n_games)
        self.agent_seats = seats
        self.opponents = strategy
        self.seed = resolve_seed(seed)
        self.threads = check_threads(threads)
        self.actions = actions(self.players)
        self.n_actions = len(self.actions)
        self.obs_length = V.N_OBS
        self._key = run_key(self.seed)
        self._cfgs = np.atleast_2d(strategy_cfg(strategy, self.players))
        self._index, self._codes = action_table(self.players)
        self._games = V.new_games(self.n_games)
        self._games.stride[:] = self.n_games
        self._games.act_seats[:] = sum(1 << s for s in seats)
        self._mask = np.zeros((self.n_games, self.n_actions), dtype=bool)
        self._ended = np.full(self.n_games, -1, dtype=np.int64)
        self._records = np.zeros((self.n_games, S.N_REC), dtype=np.int64)
        self._started = False

    def _run(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        obs = np.empty((self.n_games, V.N_OBS), dtype=np.int64)
        mask = np.empty((self.n_games, self.n_actions), dtype=bool)
        step_games(
            self._games,
            self._cfgs,
            self._key,
            codes,
            self._index,
            obs,
            mask,
            self._ended,
            self._records,
            self.threads,
        )
        self._mask = mask
        return obs, mask

    def reset(self) -> tuple[np.ndarray, np.ndarray]:
        """Deal every game its first deal (game ``g``: deal ``g``) and run it to its first
        agent decision.

        Returns
        -------
        obs : numpy.ndarray
            int64[n_games, obs_length]: the compact observation of the agent seat to act
            (`decode` makes it ``Observation.tensor()``).
        mask : numpy.ndarray
            bool[n_games, n_actions]: its legal actions.
        """
        self._games.deal[:] = np.arange(self.n_games)
        self._ended[:] = -1
        self._started = True
        return self._run(np.full(self.n_games, -2, dtype=np.int64))

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Apply one action per game and run every game to its next agent decision.

        Parameters
        ----------
        actions : numpy.ndarray
            int[n_games]: per game, the index in `actions` of the agent's action (legal
            by the last mask).

        Returns
        -------
        obs, mask : numpy.ndarray
            As `reset`; for a game whose deal ended, those of its next deal.
        rewards : numpy.ndarray
            float32[n_games, players]: each seat's score (points, zero-sum) for the games
            whose deal ended in this step, else 0.
        done : numpy.ndarray
            bool[n_games]: whether the game's deal ended in this step.

        Raises
        ------
        ValueError
            Before `reset`, for actions of the wrong shape, or for an illegal action
            (the message names the game, the seat and the phase).
        """
        if not self._started:
            raise ValueError("call reset() before step()")
        actions = np.asarray(actions)
        if actions.shape != (self.n_games,) or actions.dtype.kind not in "iu":
            raise ValueError(
                f"actions must be integers of shape ({self.n_games},), got {actions.dtype} {actions.shape}"
            )
        inside = (actions >= 0) & (actions < self.n_actions)
        legal = inside & self._mask[np.arange(self.n_games), np.where(inside, actions, 0)]
        if not legal.all():
            self._illegal(actions, int(np.argmin(legal)))
        self._ended[:] = -1
        obs, mask = self._run(self._codes[actions])
        done = self._ended >= 0
        rewards = np.zeros((self.n_games, self.players), dtype=np.float32)
        rewards[done] = self._records[done, S.R_SCORE : S.R_SCORE + self.players]
        return obs, mask, rewards, done

    def _illegal(self, actions: np.ndarray, g: int) -> None:
        pos = self._games.pos[g]
        action = int(actions[g])
        name = f" ({self.actions[action]!r})" if 0 <= action < self.n_actions else ""
        raise ValueError(
            f"game {g}: seat {pos[V.Q_SEAT]} cannot take action {action}{name} in the "
            f"{PHASES[pos[V.Q_PHASE]]} phase ({int(self._mask[g].sum())} legal actions)"
        )

    def observation(self, game: int) -> Observation:
        """The `Observation` of game ``game``'s seat to act (the one its
        compact row encodes), for a Python player such as ``players.builtin(…)``.

        Raises
        ------
        ValueError
            Before `reset`, or for a game not in the batch.
        """
        if not self._started:
            raise ValueError("call reset() before observation()")
        if not 0 <= int(game) < self.n_games:
            raise ValueError(f"game must be 0 to {self.n_games - 1}, got {game}")
        gs = self._games
        g = int(game)
        tb = S.DealState(*(getattr(gs, name)[g] for name in S.DealState._fields))
        row = np.empty(V.N_ROW, dtype=np.int64)
        pos = gs.pos[g]
        V.observe(
            tb, self.players, pos, gs.laid[g], gs.legal[g], int(pos[V.Q_SEAT]), np.zeros_like(gs.seen[g]), row
        )
        return Observation(row)

    @property
    def deals(self) -> np.ndarray:
        """int64[n_games]: the deal number each game is playing."""
        return self._games.deal.copy()

    @property
    def records(self) -> np.ndarray:
        """int64[n_games, N_REC]: each game's last finished deal's record row (columns
        ``kernels.state.R_*``, as ``simulate`` records them; an agent seat's wish at the
        auction, which ``others_bid`` reads, is the word it said), zero before its first ends."""
        return self._records.copy()

    @property
    def ended(self) -> np.ndarray:
        """int64[n_games]: the deal number of each game's deal that ended in the last step, -1 none."""
        return self._ended.copy()

    decode = staticmethod(decode)
