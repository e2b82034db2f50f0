"""A batched environment: many deals stepped at once, for learning agents.

``VecEnv(n_games, players=4, agent_seats=(0,), opponents="play=heuristic,ecart=expert", seed=0)``
plays ``n_games`` games side by side. Each step takes one action per game, the decision of
the game's agent seat to act, and runs every game on (the seats that are not the agent's
are played inside the kernels by the opponents' strategy) to its next decision by an agent
seat. A game whose deal ends restarts on its next deal: game slot ``g`` plays deals ``g``,
``g + n_games``, ``g + 2 n_games``… of the run of ``seed`` (the cards ``simulate(…, seed)``
deals for those numbers), so the trajectories do not depend on the number of threads.
A deal thrown in before any agent decision (a petit sec) is passed over.

The agent seats make every decision, or only their card play (``agent_decisions``); a
taker and contract may be forced (the auction skipped, as in a sweep); an illegal action
raises or is replaced by the first legal one at a stated penalty. Actions are indices into
``tarotsim.actions(players)``. Observations are int64 rows (slots ``kernels.vector.O_*``,
``N_OBS`` of them), or the kernel's encoding of what the seat knows (``engine.kernels.encode``,
``Observation.tensor``'s table) written straight into the batch array: float32
(``observations="tensor"``) or uint8 (``"compact"``). A game whose deal ends
moves on to its next deal in the same step; `VecEnv.info` keeps the deal's final
observation (Gymnasium's same-step autoreset). With ``copy=False`` the arrays returned are
the same ones at every step, written in place by the kernel (Gymnasium's ``copy=False``):
nothing is allocated per step. ``tarotsim.interfaces.gym`` wraps it for Gymnasium.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import cache

import numpy as np

from tarotsim.engine.kernels import state as S
from tarotsim.interfaces.game import PHASES, TENSOR_LENGTH, Observation, action_table, actions, strategy_cfg
from tarotsim.interfaces.kernels import vector as V
from tarotsim.players.kernels.search.searching import Search
from tarotsim.players.strategy import Strategy, to_strategy

MIN_BLOCK = 64
"""Fewest games a thread of `step_games` takes."""


@cache
def _pool(threads: int) -> ThreadPoolExecutor:
    return ThreadPoolExecutor(threads, thread_name_prefix="tarotsim-step")


_NO_FINAL = np.zeros((0, V.N_OBS), dtype=np.int64)
_NO_TENSORS = np.zeros((0, TENSOR_LENGTH), dtype=np.float32)


def step_blocks(n: int, threads: int) -> int:
    """How many blocks `step_games` splits ``n`` games into with ``threads`` threads (each block
    at least ``MIN_BLOCK`` games, one block at least)."""
    return max(1, min(threads, n // MIN_BLOCK))


def block_searches(cfgs: np.ndarray, n: int, threads: int) -> tuple[Search, ...]:
    """The search scratches `step_games` needs for ``n`` games under the configurations
    ``cfgs`` (int64[k, N_CFG]) on ``threads`` threads: one per block (`step_blocks`) when a
    seat searches (``players.policies.searches``), each made once (``searching.new_search``, some
    tens of MB with ``pimc``) and kept by the caller; none otherwise."""
    from tarotsim.players.kernels.search.searching import new_search
    from tarotsim.players.policies import searches

    if not searches(cfgs):
        return ()
    return tuple(new_search(cfgs) for _ in range(step_blocks(n, threads)))


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
    final: np.ndarray = _NO_FINAL,
    tensors: np.ndarray = _NO_TENSORS,
    final_tensors: np.ndarray = _NO_TENSORS,
    searches: Sequence[Search] = (),
) -> None:
    """``kernels.vector.step`` for every game of ``games``, in up to ``threads`` blocks run on
    threads at once (the kernel releases the GIL; each game depends on its own arrays only).
    ``final`` (int64[n, N_OBS], or no rows) gets the final observation of the deals that end;
    ``tensors`` and ``final_tensors`` (float32 or uint8[n, TENSOR_LENGTH], or no rows) the
    same two encoded (``obs`` may then have no rows). ``searches``: when a seat searches,
    `block_searches`' scratches, one per block; the first step with them compiles the
    searching kernel, saying so (``base.notices``)."""
    n = len(codes)
    parts = step_blocks(n, threads)
    arrays = (obs, mask, ended, records, final, tensors, final_tensors)
    if searches:
        from tarotsim.base.notices import SEARCH_STEP_COMPILE, compile_first

        if len(searches) < parts:
            raise ValueError(f"{parts} blocks of games need {parts} search scratches, got {len(searches)}")
        compile_first(
            V.step, (games, 0, n, cfgs, key, searches[0], codes, index, *arrays), *SEARCH_STEP_COMPILE
        )
    if parts == 1:
        V.step(games, 0, n, cfgs, key, searches[0] if searches else None, codes, index, *arrays)
        return
    bounds = [n * i // parts for i in range(parts + 1)]
    runs = [
        _pool(parts).submit(
            V.step, games, lo, hi, cfgs, key, searches[b] if searches else None, codes, index, *arrays
        )
        for b, (lo, hi) in enumerate(zip(bounds[:-1], bounds[1:], strict=True))
    ]
    for run in runs:
        run.result()


AGENT_DECISIONS: tuple[str, ...] = PHASES[: S.PH_OVER]
"""Every decision of a seat (`PHASES` less ``over``): the default of ``agent_decisions``."""
ILLEGAL = ("raise", "penalty")
"""What `VecEnv.step` does with an illegal action (its ``illegal`` option)."""
OBSERVATIONS = ("rows", "tensor", "compact")
"""What `VecEnv.reset` and `VecEnv.step` return as observations (their ``observations`` option)."""
_TENSOR_DTYPES = {"tensor": np.float32, "compact": np.uint8}


def _agent_decisions(value: str | Sequence[str] | None) -> tuple[str, ...]:
    """``AGENT_DECISIONS`` or ``("play",)``, from ``VecEnv``'s ``agent_decisions`` option."""
    if value is None:
        return AGENT_DECISIONS
    names = {value} if isinstance(value, str) else set(value)
    if names == {"play"}:
        return ("play",)
    if names == set(AGENT_DECISIONS):
        return AGENT_DECISIONS
    raise ValueError(
        f"agent_decisions must be ('play',) (the card play only) or every decision "
        f"{AGENT_DECISIONS} (None), got {value!r}"
    )


class VecEnv:
    """Many games stepped at once, every seat not the agent's played by a built-in strategy.

    Parameters
    ----------
    n_games : int
        Games played side by side (the batch size).
    players : int
        3, 4 or 5.
    agent_seats : sequence of int
        The seats whose decisions `step` takes.
    agent_decisions : sequence of str, optional
        The decisions of those seats that `step` takes: every decision (None, the default:
        ``AGENT_DECISIONS``, bids, call, écart, poignée, chelem and cards), or ``("play",)``,
        the card play only, the rest made by the seat's built-in ``opponents`` strategy.
    opponents : Strategy or str
        The built-in strategy of the other seats, and of the agent seats' decisions that
        ``agent_decisions`` leaves out. One that searches (``pimc``, ``montecarlo``…) decides
        as in a run of ``seed`` (its draws seeded by the run and the deal number): its card on
        a deal is the one ``simulate`` plays at the same point of that deal.
    taker, contract : int and str, optional
        A forced taker seat and contract (a name of ``tarotsim.engine.labels.CONTRACTS``), both
        or neither: the auction is skipped as in a sweep, the other seats passing.
    illegal : {"raise", "penalty"}
        For an action not legal by the last mask: raise ``ValueError`` (the default), or play
        the game's first legal action (its lowest legal index) instead and take ``penalty``
        points from the acting seat's reward of the step (flagged in ``info["illegal"]``).
    penalty : float, optional
        Points (zero or more) of the ``"penalty"`` mode; required by it, refused otherwise.
    observations : {"rows", "tensor", "compact"}
        What `reset` and `step` return: the int64 rows (``obs_length`` slots, the default;
        `observation` reads one), or the encoded observation written by the kernel
        (``tarotsim.interfaces.game.TENSOR_LENGTH`` values, fields ``tarotsim.interfaces.game.TENSOR_FIELDS``, all
        0 or 1): float32 (``"tensor"``, ``Observation.tensor``'s values) or the same values
        as uint8 (``"compact"``, a quarter of the memory).
    copy : bool
        True (the default): `reset` and `step` return arrays of their own, new at every
        call. False: they return the same preallocated arrays every time (observations,
        mask, rewards, done), which the kernel writes in place and the next `reset` or
        `step` overwrites (Gymnasium's vector environments' ``copy=False``): no allocation
        per step, for a loop that reads each step's arrays before the next (copy what must
        be kept). The values are the same either way.
    seed : int
        The run's seed: game ``g`` plays the deals ``g, g + n_games, …`` of that run.
    threads : int, optional
        Threads that step the games (default: as many as Numba may start); the
        trajectories are the same for any number.

    Attributes
    ----------
    n_games, players : int
    agent_seats : tuple of int
    agent_decisions : tuple of str
    copy : bool
    actions : list of str
        ``tarotsim.actions(players)``: what an action index means (the mask's columns).
    n_actions : int
    obs_length : int
        Length of an observation: ``kernels.vector.N_OBS`` slots (rows), or
        ``TENSOR_LENGTH`` (tensor, compact).

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
    >>> obs.shape, env.observation(0).tensor().shape
    ((1024, 54), (584,))

    Seat 0 plays the cards of a garde it is forced to take, float32 observations:

    >>> env = VecEnv(8, 4, agent_seats=(0,), agent_decisions=("play",), taker=0,
    ...              contract="garde", observations="tensor", seed=0)
    >>> obs, mask = env.reset()
    >>> obs.dtype, obs.shape, mask.shape
    (dtype('float32'), (8, 584), (8, 160))

    The same arrays at every step, overwritten in place (``copy=False``):

    >>> env = VecEnv(8, 4, agent_seats=(0, 1, 2, 3), observations="tensor", copy=False, seed=0)
    >>> obs, mask = env.reset()
    >>> after, *_ = env.step(np.argmax(mask, axis=1))
    >>> after is obs
    True
    """

    def __init__(
        self,
        n_games: int,
        players: int = 4,
        *,
        agent_seats: Sequence[int] = (0,),
        agent_decisions: Sequence[str] | None = None,
        opponents: Strategy | str = "play=heuristic,ecart=expert",
        taker: int | None = None,
        contract: str | None = None,
        illegal: str = "raise",
        penalty: float | None = None,
        observations: str = "rows",
        copy: bool = True,
        seed: int = 0,
        threads: int | None = None,
    ) -> None:
        from tarotsim.base.seeding import resolve_seed, run_key
        from tarotsim.engine.labels import check_players
        from tarotsim.players.config import RunConfig, check_threads

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
        if (taker is None) != (contract is None):
            raise ValueError("a forced contract needs both taker= (a seat) and contract= (its contract)")
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal must be one of {ILLEGAL}, got {illegal!r}")
        if illegal == "penalty":
            if (
                isinstance(penalty, bool)
                or not isinstance(penalty, (int, float))
                or not 0 <= penalty < np.inf
            ):
                raise ValueError(f"illegal='penalty' needs penalty= points, zero or more, got {penalty!r}")
        elif penalty is not None:
            raise ValueError("penalty= applies only with illegal='penalty'")
        if observations not in OBSERVATIONS:
            raise ValueError(f"observations must be one of {OBSERVATIONS}, got {observations!r}")
        if not isinstance(copy, (bool, np.bool_)):
            raise TypeError(f"copy must be True or False, got {copy!r}")
        self.n_games = int(n_games)
        self.agent_seats = seats
        self.agent_decisions = _agent_decisions(agent_decisions)
        self.opponents = strategy
        self.taker = None if taker is None else int(taker)
        self.contract = contract
        self.illegal = illegal
        self.penalty = None if penalty is None else float(penalty)
        self.observations = observations
        self.copy = bool(copy)
        self.seed = resolve_seed(seed)
        self.threads = check_threads(threads)
        self.actions = actions(self.players)
        self.n_actions = len(self.actions)
        self.obs_length = V.N_OBS if observations == "rows" else TENSOR_LENGTH
        self._dtype = np.dtype(np.int64 if observations == "rows" else _TENSOR_DTYPES[observations])
        self._key = run_key(self.seed)
        if taker is None:
            cfg = strategy_cfg(strategy, self.players)
        else:
            cfg = RunConfig(
                players=self.players,
                strategies=(strategy,) * self.players,
                forced_taker=taker,
                forced_contract=contract,
            ).to_array()
        self._cfgs = np.atleast_2d(cfg)
        self._searches = block_searches(self._cfgs, self.n_games, self.threads)
        self._index, self._codes = action_table(self.players)
        self._games = V.new_games(self.n_games)
        self._games.stride[:] = self.n_games
        bits = sum(1 << s for s in seats)
        if self.agent_decisions == ("play",):
            self._games.play_seats[:] = bits
        else:
            self._games.act_seats[:] = bits
        self._mask = np.zeros((self.n_games, self.n_actions), dtype=bool)  # the last mask returned
        self._action_codes = np.zeros(self.n_games, dtype=np.int64)
        self._illegal_now = np.zeros(self.n_games, dtype=bool)  # the last step's illegal actions
        # copy=False: the arrays returned at every step
        self._out_obs = np.zeros((0 if self.copy else self.n_games, self.obs_length), dtype=self._dtype)
        self._out_mask = np.zeros((0 if self.copy else self.n_games, self.n_actions), dtype=bool)
        self._rewards = np.zeros((0 if self.copy else self.n_games, self.players), dtype=np.float32)
        self._done = np.zeros(0 if self.copy else self.n_games, dtype=bool)
        self._ended = np.full(self.n_games, -1, dtype=np.int64)
        self._records = np.zeros((self.n_games, S.N_REC), dtype=np.int64)
        self._final = np.zeros((self.n_games, self.obs_length), dtype=self._dtype)  # read where a deal ends
        # the last step's games whose deal ended and whose action was illegal (`info` reads them)
        self._finished = self._bad = np.zeros(0, dtype=np.int64)
        self._started = False

    def _run(self, codes: np.ndarray, final: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """Step the games by ``codes``; ``final``: write the final observations of the deals
        that end into ``self._final``."""
        if self.copy:
            obs = np.empty((self.n_games, self.obs_length), dtype=self._dtype)
            mask = np.empty((self.n_games, self.n_actions), dtype=bool)
        else:
            obs, mask = self._out_obs, self._out_mask
        rows = self.observations == "rows"
        tensors = _NO_TENSORS if rows else obs
        step_games(
            self._games,
            self._cfgs,
            self._key,
            codes,
            self._index,
            obs if rows else _NO_FINAL,
            mask,
            self._ended,
            self._records,
            self.threads,
            self._final if final and rows else _NO_FINAL,
            tensors,
            self._final if final and not rows else tensors[:0],
            self._searches,
        )
        self._mask = mask
        return obs, mask

    def reset(
        self, *, seed: int | None = None, games: np.ndarray | Sequence[int] | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Deal every game its first deal (game ``g``: deal ``g``), or the games ``games``
        their next deal, and run them to their first agent decision.

        Parameters
        ----------
        seed : int, optional
            A new seed for the run (every game restarts on that run's deals).
        games : numpy.ndarray or sequence of int, optional
            Only these games (indices, or bool[n_games]) give up the deal in play and move
            on to their next deal (``deal + n_games``); the others stay where they are.

        Returns
        -------
        obs : numpy.ndarray
            int64[n_games, obs_length] (rows), float32 (tensor) or uint8 (compact): the
            observation of the agent seat to act.
        mask : numpy.ndarray
            bool[n_games, n_actions]: its legal actions.

        With ``copy=False`` both are the environment's own arrays, the same at every call,
        which the next `reset` or `step` overwrites.

        Raises
        ------
        ValueError
            For ``games`` before a first reset, with a seed, or not games of the batch.
        """
        from tarotsim.base.seeding import resolve_seed, run_key

        self._ended[:] = -1
        self._finished = self._bad = np.zeros(0, dtype=np.int64)
        if games is None:
            if seed is not None:
                self.seed = resolve_seed(seed)
                self._key = run_key(self.seed)
            self._games.deal[:] = np.arange(self.n_games)
            self._started = True
            return self._run(np.full(self.n_games, -2, dtype=np.int64))
        if seed is not None or not self._started:
            raise ValueError("reset(games=…) moves games on in the run of a first reset(): give no seed")
        which = np.asarray(games)
        if which.dtype == bool and which.shape == (self.n_games,):
            which = np.flatnonzero(which)
        if which.ndim != 1 or which.dtype.kind not in "iu" or ((which < 0) | (which >= self.n_games)).any():
            raise ValueError(
                f"games must be game indices 0 to {self.n_games - 1} or a bool mask of {self.n_games}, got {games!r}"
            )
        codes = np.full(self.n_games, -1, dtype=np.int64)
        codes[which] = -2
        self._games.deal[which] += self.n_games
        return self._run(codes)

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Apply one action per game and run every game to its next agent decision.

        A game whose deal ends goes on to its next deal in the same step (Gymnasium's
        same-step autoreset): it returns that deal's first observation, and `info` keeps the
        final observation of the deal that ended.

        Parameters
        ----------
        actions : numpy.ndarray
            int[n_games]: per game, the index in `actions` of the agent's action (legal
            by the last mask; see the ``illegal`` option).

        Returns
        -------
        obs, mask : numpy.ndarray
            As `reset`; for a game whose deal ended, those of its next deal.
        rewards : numpy.ndarray
            float32[n_games, players]: each seat's score (points, zero-sum) for the games
            whose deal ended in this step, else 0; less the penalty of an illegal action
            for the seat that took it (``illegal="penalty"``).
        done : numpy.ndarray
            bool[n_games]: whether the game's deal ended in this step.

        With ``copy=False`` all four are the environment's own arrays, the same at every
        call, which the next `reset` or `step` overwrites.

        Raises
        ------
        ValueError
            Before `reset`, for actions of the wrong shape, or (``illegal="raise"``) for
            an illegal action (the message names the game, the seat and the phase).
        """
        if not self._started:
            raise ValueError("call reset() before step()")
        actions = np.asarray(actions)
        if actions.shape != (self.n_games,) or actions.dtype.kind not in "iu":
            raise ValueError(
                f"actions must be integers of shape ({self.n_games},), got {actions.dtype} {actions.shape}"
            )
        chosen = actions.astype(np.int64, copy=False)  # an unsigned index past int64's: negative, illegal
        codes = self._action_codes
        bad = None
        if V.action_codes(chosen, self._mask, self._codes, codes, self._illegal_now) >= 0:
            bad = np.flatnonzero(self._illegal_now)
            if self.illegal == "raise":
                self._illegal(actions, int(bad[0]))
            bad_seats = self._games.pos[bad, S.Q_SEAT]
        self._ended[:] = -1
        obs, mask = self._run(codes, final=True)
        if self.copy:
            done = self._ended >= 0
            rewards = np.zeros((self.n_games, self.players), dtype=np.float32)
        else:
            done = np.greater_equal(self._ended, 0, out=self._done)
            rewards = self._rewards
            rewards.fill(0)
        finished = np.flatnonzero(done)
        rewards[finished] = self._records[finished, S.R_SCORE : S.R_SCORE + self.players]
        self._bad = np.zeros(0, dtype=np.int64)
        if bad is not None:
            assert self.penalty is not None
            rewards[bad, bad_seats] -= self.penalty
            self._bad = bad
        self._finished = finished
        return obs, mask, rewards, done

    @property
    def info(self) -> dict[str, np.ndarray]:
        """What the last `step` adds to its return: ``final_obs`` (int64, float32 or uint8[k,
        obs_length], as the observations) the final observation, once the deal is over, of
        the seat that acted in each of the k games whose deal ended (a deal thrown in: its
        auction's end), ``final_games`` (int64[k]) those games, in order (where ``done``
        is true), and ``illegal`` (bool[n_games]) the games whose action was illegal and
        replaced (``illegal="penalty"``). Empty and all false after `reset`. Made when read
        (the final observations are kept until the next `step`), of arrays of its own."""
        illegal = np.zeros(self.n_games, dtype=bool)
        illegal[self._bad] = True
        return {
            "final_obs": self._final[self._finished],
            "final_games": self._finished.copy(),
            "illegal": illegal,
        }

    def _illegal(self, actions: np.ndarray, g: int) -> None:
        pos = self._games.pos[g]
        action = int(actions[g])
        name = f" ({self.actions[action]!r})" if 0 <= action < self.n_actions else ""
        raise ValueError(
            f"game {g}: seat {pos[S.Q_SEAT]} cannot take action {action}{name} in the "
            f"{PHASES[pos[S.Q_PHASE]]} phase ({int(self._mask[g].sum())} legal actions)"
        )

    def observation(self, game: int) -> Observation:
        """The `Observation` of game ``game``'s seat to act (the one its
        compact row encodes), for a Python player such as ``python_players.builtin(…)``.

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
        V.observe(tb, self.players, int(tb.pos[S.Q_SEAT]), np.zeros_like(gs.seen[g]), row)
        return Observation(row)

    @property
    def deals(self) -> np.ndarray:
        """int64[n_games]: the deal number each game is playing."""
        return self._games.deal.copy()

    @property
    def records(self) -> np.ndarray:
        """int64[n_games, N_REC]: each game's last finished deal's record row (columns
        ``engine.kernels.state.R_*``, as ``simulate`` records them; an agent seat's wish at the
        auction, which ``others_bid`` reads, is the word it said), zero before its first ends."""
        return self._records.copy()

    @property
    def ended(self) -> np.ndarray:
        """int64[n_games]: the deal number of each game's deal that ended in the last step, -1 none."""
        return self._ended.copy()
