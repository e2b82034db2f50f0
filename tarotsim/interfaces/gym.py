"""French Tarot for Gymnasium (the optional extra ``tarotsim[gym]``): one agent seat against
built-in seats, over `tarotsim.VecEnv`.

>>> from tarotsim.interfaces.gym import TarotEnv
>>> env = TarotEnv(players=4, seat=0, agent_decisions=("play",), taker=0, contract="garde")
>>> observation, info = env.reset(seed=0)
>>> observation.shape, env.action_masks().shape
((584,), (160,))

- [`TarotEnv`][tarotsim.interfaces.gym.TarotEnv] is a ``gymnasium.Env``; one episode is one deal, from
  the agent seat's first decision to the deal's end.
  [`TarotVectorEnv`][tarotsim.interfaces.gym.TarotVectorEnv] is a ``gymnasium.vector.VectorEnv`` of
  ``num_envs`` such games stepped at once inside the kernels.
- **Actions** are ``Discrete(len(tarotsim.actions(players)))``: action ``i`` is
  ``tarotsim.actions(players)[i]``. ``action_masks()`` gives the legal ones (bool), as
  sb3-contrib's ``MaskablePPO`` asks; ``info["action_mask"]`` holds them too.
- **Observations** are ``Box(0, 1, (TENSOR_LENGTH,), float32)``: the agent seat's
  `tarotsim.Observation.tensor` (fields ``tarotsim.interfaces.game.TENSOR_FIELDS``).
- **Rewards** are the agent seat's score (points) when the deal ends, 0 before; less the
  penalty of an illegal action (by default ``illegal="penalty"``, ``penalty=10`` points: the
  first legal action is played instead, and ``info["illegal"]`` is true).
- **Deals.** ``reset(seed=s)`` deals deal 0 of the run with seed ``s`` (the cards
  ``tarotsim.simulate(…, seed=s)`` deals first); each later ``reset()`` deals the next deal
  of the run. A deal thrown in before any agent decision is skipped.
- **Autoreset** (the vector environment): Gymnasium's same-step mode
  (``metadata["autoreset_mode"]``): the step in which a game's deal ends returns its next
  deal's first observation, and ``info["final_obs"]`` (where ``info["_final_obs"]``) the
  final observation of the deal that ended.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError as err:  # pragma: no cover - depends on the environment
    raise ImportError(
        "tarotsim.interfaces.gym needs Gymnasium (tarotsim's extra 'gym'): pip install 'gymnasium>=1.0'"
    ) from err

from tarotsim.interfaces.game import TENSOR_LENGTH
from tarotsim.interfaces.vecenv import VecEnv
from tarotsim.players.strategy import Strategy

HEURISTIC = "play=heuristic,ecart=expert"
PENALTY = 10.0
"""Points an illegal action costs by default (``illegal="penalty"``)."""


def _vecenv(
    n: int,
    players: int,
    seat: int,
    agent_decisions: Sequence[str] | None,
    opponents: Strategy | str,
    taker: int | None,
    contract: str | None,
    illegal: str,
    penalty: float,
    seed: int,
    threads: int | None,
) -> VecEnv:
    return VecEnv(
        n,
        players,
        agent_seats=(seat,),
        agent_decisions=agent_decisions,
        opponents=opponents,
        taker=taker,
        contract=contract,
        illegal=illegal,
        penalty=penalty if illegal == "penalty" else None,
        observations="tensor",
        seed=seed,
        threads=threads,
    )


def _observation_space() -> spaces.Box:
    return spaces.Box(0.0, 1.0, (TENSOR_LENGTH,), np.float32)


class TarotEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One deal per episode, the agent seat ``seat`` against built-in seats.

    Parameters
    ----------
    players : int
        3, 4 or 5.
    seat : int
        The agent's seat.
    agent_decisions : sequence of str, optional
        Every decision (None, the default), or ``("play",)``: the card play only, the
        auction, call, écart, poignée and chelem made by the seat's built-in ``opponents``
        strategy (`tarotsim.VecEnv`).
    opponents : Strategy or str
        The built-in strategy of the other seats (a searching one too: ``pimc``, ``montecarlo``…).
    taker, contract : int and str, optional
        A forced taker seat and contract (both or neither): the auction is skipped.
    illegal : {"penalty", "raise"}
        An illegal action: the first legal action played instead, ``penalty`` points taken
        from the reward (the default), or a ``ValueError``.
    penalty : float
        Points of the ``"penalty"`` mode (10 by default).
    seed : int
        The run's seed used until ``reset(seed=…)``.
    """

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(
        self,
        players: int = 4,
        *,
        seat: int = 0,
        agent_decisions: Sequence[str] | None = None,
        opponents: Strategy | str = HEURISTIC,
        taker: int | None = None,
        contract: str | None = None,
        illegal: str = "penalty",
        penalty: float = PENALTY,
        seed: int = 0,
    ) -> None:
        self._env = _vecenv(
            1, players, seat, agent_decisions, opponents, taker, contract, illegal, penalty, seed, 1
        )
        self.seat = int(seat)
        self.observation_space = _observation_space()
        self.action_space = spaces.Discrete(self._env.n_actions)
        self._mask = np.zeros(self._env.n_actions, dtype=bool)
        self._next: tuple[np.ndarray, np.ndarray] | None = None
        self._started = False

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal the next deal of the run (with ``seed``: deal 0 of the run with that seed)
        and play it to the agent's first decision; ``info`` holds its ``action_mask`` and
        the ``deal`` number."""
        super().reset(seed=seed)
        if seed is not None or not self._started:
            obs, mask = self._env.reset(seed=seed)
        elif self._next is not None:
            obs, mask = self._next  # the deal that ended moved on already
        else:
            obs, mask = self._env.reset(games=[0])
        self._started = True
        self._next = None
        self._mask = mask[0].copy()
        return obs[0].copy(), {"action_mask": mask[0].copy(), "deal": int(self._env.deals[0])}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Apply the agent's action and play on to its next decision or the deal's end.

        Returns the observation (at the end: the final one, with an empty ``action_mask``),
        the reward, ``terminated`` (the deal is over), ``truncated`` (always false) and
        ``info`` (``action_mask``, ``illegal``).

        Raises
        ------
        ValueError
            Before `reset`, after the deal's end, for an action not an integer index, or
            (``illegal="raise"``) an illegal one.
        """
        if not self._started or self._next is not None:
            raise ValueError("the deal is over or not dealt: call reset()")
        chosen = np.asarray(action)
        if chosen.size != 1:
            raise ValueError(f"action must be one action index, got {action!r}")
        obs, mask, rewards, done = self._env.step(chosen.reshape(1))
        info = self._env.info
        reward = float(rewards[0, self.seat])
        if done[0]:
            self._next = (obs, mask)
            obs = info["final_obs"]
            mask = np.zeros_like(mask)
        self._mask = mask[0].copy()
        return (
            obs[0].copy(),
            reward,
            bool(done[0]),
            False,
            {
                "action_mask": mask[0].copy(),
                "illegal": bool(info["illegal"][0]),
            },
        )

    def action_masks(self) -> np.ndarray:
        """bool[n actions]: the legal actions at the last observation (none at a deal's end)."""
        return self._mask.copy()


class TarotVectorEnv(VectorEnv[np.ndarray, np.ndarray, np.ndarray]):
    """``num_envs`` games of `TarotEnv` stepped at once (`tarotsim.VecEnv`), with
    Gymnasium's same-step autoreset.

    Parameters
    ----------
    num_envs : int
        Games played side by side.
    players, seat, agent_decisions, opponents, taker, contract, illegal, penalty, seed
        As `TarotEnv`; game ``g`` plays the deals ``g, g + num_envs, …`` of the run.
    threads : int, optional
        Threads that step the games (the trajectories do not depend on it).
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self,
        num_envs: int,
        players: int = 4,
        *,
        seat: int = 0,
        agent_decisions: Sequence[str] | None = None,
        opponents: Strategy | str = HEURISTIC,
        taker: int | None = None,
        contract: str | None = None,
        illegal: str = "penalty",
        penalty: float = PENALTY,
        seed: int = 0,
        threads: int | None = None,
    ) -> None:
        self._env = _vecenv(
            num_envs,
            players,
            seat,
            agent_decisions,
            opponents,
            taker,
            contract,
            illegal,
            penalty,
            seed,
            threads,
        )
        self.num_envs = self._env.n_games
        self.seat = int(seat)
        self.single_observation_space = _observation_space()
        self.single_action_space = spaces.Discrete(self._env.n_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._mask = np.zeros((self.num_envs, self._env.n_actions), dtype=bool)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal every game its first deal of the run (with ``seed``: of the run with that
        seed), or with ``options={"reset_mask": bool[num_envs]}`` only those games their
        next deal; ``info["action_mask"]`` holds the legal actions."""
        super().reset(seed=seed)
        if options and "reset_mask" in options:
            obs, mask = self._env.reset(games=np.asarray(options["reset_mask"], dtype=bool))
        else:
            obs, mask = self._env.reset(seed=seed)
        self._mask = mask
        return obs, {"action_mask": mask.copy()}

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Apply one action per game; returns the observations, the agent seat's rewards
        (float32[num_envs]), ``terminations`` (the deals that ended), ``truncations`` (all
        false) and ``info``: ``action_mask``, ``illegal``, and ``final_obs`` (an object
        array, the final observation where ``_final_obs``)."""
        obs, mask, rewards, done = self._env.step(np.asarray(actions))
        info = self._env.info
        final = np.full(self.num_envs, None, dtype=object)
        for game, row in zip(info["final_games"].tolist(), info["final_obs"], strict=True):
            final[game] = row
        self._mask = mask
        return (
            obs,
            rewards[:, self.seat].copy(),
            done,
            np.zeros(self.num_envs, dtype=bool),
            {
                "action_mask": mask.copy(),
                "illegal": info["illegal"],
                "final_obs": final,
                "_final_obs": done.copy(),
            },
        )

    def action_masks(self) -> np.ndarray:
        """bool[num_envs, n actions]: the legal actions at the last observations."""
        return self._mask.copy()
