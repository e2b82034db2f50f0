"""French Tarot for PettingZoo (the optional extra ``tarotsim[pettingzoo]``): an AEC environment
and a parallel one.

>>> from tarotsim.interfaces.pettingzoo import env
>>> table = env(players=4, opponents="play=heuristic,ecart=expert")
>>> table.reset(seed=0)
>>> table.agents
['player_0']
>>> observation, reward, termination, truncation, info = table.last()
>>> observation["observation"].dtype, observation["action_mask"].dtype
(dtype('float32'), dtype('int8'))

The classic convention of PettingZoo's card and board games:

- **Agents** ``player_0`` … are the seats played from outside; the other seats, if any,
  are played by a built-in strategy (``opponents=``, a searching one too) inside the
  kernels, between the agents' turns. One episode is one deal.
- **Actions** are ``Discrete(len(tarotsim.actions(players)))``: action ``i`` is
  ``tarotsim.actions(players)[i]``.
- **Observations** are ``{"observation": float32[TENSOR_LENGTH], "action_mask":
  int8[len(actions)]}``: the seat's `tarotsim.Observation.tensor` (fields
  ``tarotsim.interfaces.game.TENSOR_FIELDS``) and its legal actions (all zero when it is not to act).
- **Rewards** are the seats' scores (points, zero-sum over the table) when the deal ends,
  0 before. A deal thrown in (all pass) scores 0.
- **Deals.** ``reset(seed=s)`` deals deal 0 of the run with seed ``s`` (the cards
  ``tarotsim.simulate(…, seed=s)`` deals first, dealt by seat 0); each later ``reset()``
  deals the next deal of that run (dealt by the next seat). A deal thrown in before any
  decision (a petit sec) is skipped.

[`env`][tarotsim.interfaces.pettingzoo.env] wraps [`raw_env`][tarotsim.interfaces.pettingzoo.raw_env] in PettingZoo's usual wrappers: an illegal action ends
the deal with ``-tarotsim.engine.scoring.max_score(players)`` for the seat that made it (worse than any score) and 0
for the others; actions out of range raise; the AEC call order is enforced.

[`parallel_env`][tarotsim.interfaces.pettingzoo.parallel_env] is the same game as a PettingZoo
``ParallelEnv`` (what SuperSuit's vector wrappers take): every live agent gets its
observation at each step (the action mask all zero but for the agent to act), and
``step(actions)`` applies the action of the agent to act alone (the others' entries, which
the API asks for, are ignored), then runs the opponents up to the next agent's turn. An
illegal action ends the deal as in ``env``. Tarot's turns follow the tricks, not a fixed
cycle, so PettingZoo's ``aec_to_parallel`` cannot convert the AEC environment (its
``is_parallelizable`` is False); ``pettingzoo.utils.parallel_to_aec(parallel_env())`` is an
AEC environment again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv, ParallelEnv
    from pettingzoo.utils import wrappers
except ImportError as err:  # pragma: no cover - depends on the environment
    raise ImportError(
        "tarotsim.interfaces.pettingzoo needs PettingZoo (tarotsim's extra 'pettingzoo'): pip install pettingzoo gymnasium"
    ) from err

from tarotsim.base.seeding import resolve_seed, run_key
from tarotsim.engine.labels import check_players
from tarotsim.engine.scoring import max_score
from tarotsim.interfaces.game import TENSOR_LENGTH, Game, actions
from tarotsim.players.config import RunConfig
from tarotsim.players.kernels.search.searching import new_search
from tarotsim.players.strategy import Strategy, to_strategy


def _seats_and_opponents(
    players: int,
    agent_seats: Sequence[int] | None,
    opponents: Strategy | str | Mapping[int, Strategy | str] | None,
) -> tuple[tuple[int, ...], dict[int, Strategy]]:
    """The agents' seats and each other seat's built-in strategy."""
    if isinstance(opponents, Mapping):
        seated = {int(seat): to_strategy(spec) for seat, spec in opponents.items()}
        default_agents = tuple(s for s in range(players) if s not in seated)
    else:
        seated = {}
        default_agents = tuple(range(players)) if opponents is None else (0,)
    seats = default_agents if agent_seats is None else tuple(sorted({int(s) for s in agent_seats}))
    for seat in (*seats, *seated):
        if not 0 <= seat < players:
            raise ValueError(f"seats must be 0 to {players - 1}, got {seat}")
    if not seats:
        raise ValueError("give at least one agent seat")
    if opponents is not None and not isinstance(opponents, Mapping):
        strategy = to_strategy(opponents)
        seated = {s: strategy for s in range(players) if s not in seats}
    missing = [s for s in range(players) if s not in seats and s not in seated]
    if missing:
        raise ValueError(f"seats {missing} have neither an agent nor an opponent: give opponents=")
    both = [s for s in seats if s in seated]
    if both:
        raise ValueError(f"seats {both} are given both to an agent and to an opponent")
    for seat, strategy in seated.items():
        if strategy.player is not None:
            raise ValueError(f"seat {seat}'s opponent {strategy} must be built-in, not a Python player")
    return seats, seated


class raw_env(AECEnv):  # noqa: N801 - PettingZoo's name for the unwrapped environment
    """One deal of French Tarot, seats played by agents or by built-in opponents.

    Parameters
    ----------
    players : int
        3, 4 or 5.
    agent_seats : sequence of int, optional
        The seats the agents play (default: every seat without an opponent; seat 0 alone
        when ``opponents`` is one strategy).
    opponents : Strategy, str or mapping of seat to either, optional
        The built-in strategy of the seats that are not agents (e.g.
        ``"play=heuristic,ecart=expert"``), or one per seat (the agents are then the others).
        One that searches (``pimc``, ``montecarlo``…) decides as in a run of the seed given to
        ``reset`` (its draws seeded by the run and the deal number).
    render_mode : {"human", "ansi"}, optional
        ``render()`` prints (human) or returns (ansi) the seat to act's observation.

    Raises
    ------
    ValueError
        For seats out of range, a seat with no player, or an opponent with a Python player.
    """

    metadata: dict[str, Any] = {
        "render_modes": ["human", "ansi"],
        "name": "french_tarot_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 4,
        *,
        agent_seats: Sequence[int] | None = None,
        opponents: Strategy | str | Mapping[int, Strategy | str] | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.players = check_players(players)
        if render_mode not in (None, "human", "ansi"):
            raise ValueError(f"render_mode must be 'human', 'ansi' or None, got {render_mode!r}")
        self.render_mode = render_mode
        self.agent_seats, self.opponents = _seats_and_opponents(self.players, agent_seats, opponents)
        self.action_list: tuple[str, ...] = tuple(actions(self.players))
        self._action_ids = {name: i for i, name in enumerate(self.action_list)}
        self.possible_agents = [f"player_{seat}" for seat in self.agent_seats]
        self._seat = {agent: seat for agent, seat in zip(self.possible_agents, self.agent_seats, strict=True)}
        n = len(self.action_list)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (TENSOR_LENGTH,), np.float32),
                    "action_mask": spaces.Box(0, 1, (n,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(n) for agent in self.possible_agents}
        strategies = tuple(self.opponents.get(seat, Strategy()) for seat in range(self.players))
        config = RunConfig(players=self.players, strategies=strategies)
        self._cfg = config.to_array()
        self._search = new_search(np.atleast_2d(self._cfg)) if config.searches else None
        self._agent_mask = sum(1 << seat for seat in self.agent_seats)
        self.run_seed: int | None = None
        self.deal = -1
        self._key: np.ndarray | None = None
        self.game: Game | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal the next deal (``seed``: deal 0 of the run with that seed)."""
        if seed is not None or self._key is None:
            self.run_seed = resolve_seed(seed)
            self._key = run_key(self.run_seed)
            self.deal = -1
        while True:
            self.deal += 1
            self.game = Game._for_run(
                self._cfg, self._key, self.deal, callers=self._agent_mask, search=self._search
            )
            if not self.game.over:
                break
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = f"player_{self.game.to_act}"

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's observation: its tensor and its action mask."""
        assert self.game is not None
        observation = self.game.observation(self._seat[agent])
        mask = np.zeros(len(self.action_list), dtype=np.int8)
        for name in observation.legal_actions:
            mask[self._action_ids[name]] = 1
        return {"observation": observation.tensor(), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Apply the selected agent's action (``None`` once its deal is over).

        Raises
        ------
        ValueError
            For anything but a legal action's number (out of range, negative, a float,
            a bool, ``None`` while the deal goes on): the message names the legal actions,
            and the deal is unchanged.
        """
        game = self.game
        if game is None:
            raise ValueError("no deal yet: call reset() first")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game.apply_number(action, self.action_list)  # the opponents play on, up to an agent's turn
        self._cumulative_rewards[agent] = 0.0
        if game.over:
            scores = game.returns()
            for other in self.agents:
                self.rewards[other] = float(scores[self._seat[other]])
                self.terminations[other] = True
        else:
            self.agent_selection = f"player_{game.to_act}"
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The seat to act's observation as text (human: printed)."""
        if self.render_mode is None or self.game is None:
            return None
        seat = self.game.to_act
        text = (
            f"over: scores {self.game.returns()}"
            if seat is None
            else self.game.observation(seat).info_string()
        )
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def env(
    players: int = 4,
    *,
    agent_seats: Sequence[int] | None = None,
    opponents: Strategy | str | Mapping[int, Strategy | str] | None = None,
    render_mode: str | None = None,
) -> AECEnv:
    """[`raw_env`][tarotsim.interfaces.pettingzoo.raw_env] with PettingZoo's usual wrappers (an illegal action ends the deal with
    ``-tarotsim.engine.scoring.max_score(players)`` for its seat; actions out of range raise; call order enforced)."""
    table = raw_env(players, agent_seats=agent_seats, opponents=opponents, render_mode=render_mode)
    wrapped: AECEnv = wrappers.TerminateIllegalWrapper(table, illegal_reward=-max_score(table.players))
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class parallel_env(ParallelEnv):  # noqa: N801 - PettingZoo's name for the parallel environment
    """One deal of French Tarot as a PettingZoo ``ParallelEnv``: the parameters, seats,
    actions, observations, rewards and deals of [`raw_env`][tarotsim.interfaces.pettingzoo.raw_env].

    Each step returns every live agent's observation, reward, termination, truncation and
    info; only the agent to act has legal actions in its mask, and only its entry of
    ``actions`` is applied. All agents end together when the deal ends.

    Raises
    ------
    ValueError
        For the arguments ``raw_env`` refuses; from `step`, for ``actions`` without the
        action of the agent to act, or a step before `reset`.
    """

    metadata: dict[str, Any] = {**raw_env.metadata, "is_parallelizable": True}

    def __init__(
        self,
        players: int = 4,
        *,
        agent_seats: Sequence[int] | None = None,
        opponents: Strategy | str | Mapping[int, Strategy | str] | None = None,
        render_mode: str | None = None,
    ) -> None:
        self._table = raw_env(players, agent_seats=agent_seats, opponents=opponents, render_mode=render_mode)
        self.players = self._table.players
        self.render_mode = render_mode
        self.possible_agents = list(self._table.possible_agents)
        self.observation_spaces = self._table.observation_spaces
        self.action_spaces = self._table.action_spaces
        self.agents: list[str] = []

    @property
    def action_list(self) -> tuple[str, ...]:
        """``tarotsim.actions(players)``: what each action number means."""
        return self._table.action_list

    @property
    def deal(self) -> int:
        """The deal number in play in the run of the last seed."""
        return self._table.deal

    @property
    def agent_to_act(self) -> str | None:
        """The agent whose action the next `step` applies (None once the deal is over)."""
        return self._table.agent_selection if self.agents else None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        """Deal the next deal (``seed``: deal 0 of the run with that seed); every agent's
        observation and info."""
        self._table.reset(seed=seed, options=options)
        self.agents = list(self._table.agents)
        return {agent: self._table.observe(agent) for agent in self.agents}, {
            agent: {} for agent in self.agents
        }

    def step(
        self, actions: Mapping[str, Any]
    ) -> tuple[
        dict[str, dict[str, np.ndarray]],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """Apply the action of the agent to act (``actions[agent_to_act]``, a number of
        ``action_list``) and run the opponents to the next agent's turn or the deal's end."""
        table = self._table
        if not self.agents:
            raise ValueError("no deal in play: call reset() first")
        agent = table.agent_selection
        if agent not in actions:
            raise ValueError(
                f"actions must hold the action of {agent}, the agent to act, got {sorted(actions)}"
            )
        action = actions[agent]
        mask = table.observe(agent)["action_mask"]
        legal = (
            isinstance(action, (int, np.integer))
            and not isinstance(action, bool)
            and 0 <= action < len(mask)
            and mask[int(action)] == 1
        )
        if legal:
            table.step(int(action))
            rewards = {other: float(table.rewards[other]) for other in self.agents}
            over = table.game is not None and table.game.over
        else:
            rewards = {other: 0.0 for other in self.agents}
            rewards[agent] = -float(max_score(self.players))
            over = True
        observations = {other: table.observe(other) for other in self.agents}
        terminations = {other: over for other in self.agents}
        truncations = {other: False for other in self.agents}
        infos: dict[str, dict[str, Any]] = {other: {} for other in self.agents}
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        """The seat to act's observation as text (human: printed)."""
        return self._table.render()

    def close(self) -> None:
        """Nothing to release."""


__all__ = ["env", "parallel_env", "raw_env"]
