"""The Gymnasium environments: Gymnasium's own checker, the vector environment's same-step
autoreset, illegal actions, the play-only agent and the forced contract."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="the Gymnasium environments need the gym extra")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402

from tarotsim import actions  # noqa: E402
from tarotsim.engine.kernels import state as S  # noqa: E402
from tarotsim.interfaces.game import PHASES, TENSOR_FIELDS  # noqa: E402
from tarotsim.interfaces.gym import TarotEnv, TarotVectorEnv  # noqa: E402


def _phase(observation: np.ndarray) -> str:
    """The phase of a tensor observation (its first field, a one-hot)."""
    assert TENSOR_FIELDS[0] == ("phase", len(PHASES))
    return PHASES[int(np.argmax(observation[: len(PHASES)]))]


@pytest.mark.parametrize(
    "options",
    [{}, {"players": 5, "seat": 2, "agent_decisions": ("play",), "taker": 2, "contract": "garde_sans"}],
)
def test_gymnasium_check_env(options: dict) -> None:
    env = TarotEnv(**options)
    check_env(env, skip_render_check=True)


def test_an_episode_is_one_deal_played_to_its_final_observation() -> None:
    env = TarotEnv(4, seat=1, agent_decisions=("play",), taker=3, contract="prise", illegal="raise")
    observation, info = env.reset(seed=4)
    assert info["deal"] == 0
    steps = 0
    terminated = False
    while not terminated:
        assert _phase(observation) == "play" and env.action_masks().any()
        np.testing.assert_array_equal(env.action_masks(), info["action_mask"])
        action = int(np.flatnonzero(env.action_masks())[-1])
        assert actions(4)[action] in env.unwrapped._env.observation(0).legal_actions
        observation, reward, terminated, truncated, info = env.step(action)
        assert not truncated and not info["illegal"]
        steps += 1
    assert steps == 18 and _phase(observation) == "over" and not env.action_masks().any()
    record = env.unwrapped._env.records[0]
    assert record[S.R_TAKER] == 3 and record[S.R_CONTRACT] == 1
    assert reward == record[S.R_SCORE + 1] != 0
    with pytest.raises(ValueError, match="reset"):
        env.step(0)
    observation, info = env.reset()
    assert info["deal"] == 1 and _phase(observation) == "play"


def test_an_illegal_action_costs_the_penalty_and_plays_the_first_legal_one() -> None:
    env = TarotEnv(4, penalty=3.0)
    twin = TarotEnv(4)
    observation, info = env.reset(seed=1)
    twin.reset(seed=1)
    illegal = int(np.argmin(info["action_mask"]))
    first = int(np.argmax(info["action_mask"]))
    observation, reward, _, _, info = env.step(illegal)
    expected, twin_reward, _, _, _ = twin.step(first)
    assert info["illegal"] and reward == twin_reward - 3.0
    np.testing.assert_array_equal(observation, expected)
    with pytest.raises(ValueError, match="cannot take action"):
        strict = TarotEnv(4, illegal="raise")
        strict.reset(seed=1)
        strict.step(illegal)


def test_the_vector_env_autoresets_in_the_same_step() -> None:
    envs = TarotVectorEnv(
        8, 4, seat=0, agent_decisions=("play",), taker=0, contract="garde", seed=2, threads=1
    )
    assert envs.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    observations, info = envs.reset(seed=2)
    assert observations in envs.observation_space and observations.dtype == np.float32
    for step in range(18):
        mask = envs.action_masks()
        np.testing.assert_array_equal(mask, info["action_mask"])
        actions_ = np.argmax(mask, axis=1)
        assert actions_ in envs.action_space
        observations, rewards, terminations, truncations, info = envs.step(actions_)
        assert observations in envs.observation_space and not truncations.any()
        assert terminations.all() == (step == 17)  # a forced garde: 18 cards, no deal thrown in
        assert not info["illegal"].any()
    np.testing.assert_array_equal(info["_final_obs"], terminations)
    assert all(_phase(final) == "over" for final in info["final_obs"])
    assert all(_phase(o) == "play" for o in observations)  # the next deals' first cards
    np.testing.assert_array_equal(rewards, envs._env.records[:, S.R_SCORE])
    observations, info = envs.reset(options={"reset_mask": np.arange(8) < 2})
    assert envs._env.deals.tolist() == [16, 17, *range(10, 16)]
