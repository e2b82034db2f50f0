"""The PettingZoo environment: PettingZoo's own API and seed tests, opponents, rewards."""

from __future__ import annotations

import importlib
import sys
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the PettingZoo environment needs the pettingzoo extra")

from pettingzoo.test import api_test, parallel_api_test, seed_test  # noqa: E402
from pettingzoo.utils import aec_to_parallel, parallel_to_aec  # noqa: E402

import tarotsim.interfaces.pettingzoo as tarot_zoo  # noqa: E402
from tarotsim import Game, Strategy, actions  # noqa: E402
from tarotsim.engine.scoring import max_score  # noqa: E402
from tarotsim.interfaces.python_players import builtin  # noqa: E402


def _api_test(table: object, cycles: int) -> None:
    # the two warnings api_test gives every environment of the classic convention, whose
    # observations are dicts (observation and action mask)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably should be")
        api_test(table, num_cycles=cycles, verbose_progress=False)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_pettingzoo_api_test_every_seat_an_agent(players: int) -> None:
    _api_test(tarot_zoo.env(players=players), cycles=200)


def test_pettingzoo_api_test_against_built_in_opponents() -> None:
    _api_test(
        tarot_zoo.env(players=4, agent_seats=(1, 3), opponents="play=heuristic,ecart=expert"), cycles=200
    )


def test_pettingzoo_seed_test() -> None:
    seed_test(lambda: tarot_zoo.env(players=4, opponents="play=heuristic,ecart=expert"), num_cycles=300)
    seed_test(lambda: tarot_zoo.env(players=5), num_cycles=300)


def _play(table: tarot_zoo.raw_env, rng: np.random.Generator) -> dict[str, float]:
    rewards = {agent: 0.0 for agent in table.possible_agents}
    for agent in table.agent_iter():
        observation, reward, termination, truncation, _ = table.last()
        rewards[agent] += reward
        if termination or truncation:
            table.step(None)
            continue
        table.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return rewards


def test_the_deals_are_the_run_s_deals_and_the_rewards_their_scores() -> None:
    """Every seat an agent playing as the heuristic does: the deal of the run with that
    seed, and its scores as rewards."""
    table = tarot_zoo.raw_env(players=4)
    table.reset(seed=5)
    assert table.deal == 0 or Game(4, seed=5, deal=0).over
    same = Game(4, seed=5, deal=table.deal)
    names = table.action_list
    for agent in table.agent_iter():
        observation, reward, termination, _, _ = table.last()
        if termination:
            assert reward == same.returns()[int(agent.split("_")[1])]
            table.step(None)
            continue
        assert observation["observation"].tolist() == same.observation().tensor().tolist()
        assert [names[i] for i in np.flatnonzero(observation["action_mask"])] == same.legal_actions()
        action = same.ask("play=heuristic,ecart=expert")
        same.apply(action)
        table.step(names.index(action))
    assert same.over
    first = table.deal
    table.reset()
    assert table.deal == first + 1


def test_opponents_play_inside_and_the_agent_scores_what_its_seat_scores() -> None:
    table = tarot_zoo.raw_env(players=5, opponents={0: "play=heuristic", 2: "play=greedy", 4: "play=random"})
    assert table.possible_agents == ["player_1", "player_3"]
    rng = np.random.default_rng(0)
    total = 0.0
    for seed in range(3):
        table.reset(seed=seed)
        rewards = _play(table, rng)
        scores = table.game.returns()
        assert rewards == {"player_1": scores[1], "player_3": scores[3]}
        total += abs(sum(scores))
    assert total == 0
    assert len(actions(5)) == table.action_space("player_1").n


def test_bad_seats_and_opponents_are_refused() -> None:
    with pytest.raises(ValueError, match="must be built-in, not a Python player"):
        tarot_zoo.env(players=4, opponents=Strategy(play=builtin("play=heuristic")))
    with pytest.raises(ValueError, match="neither an agent nor an opponent"):
        tarot_zoo.env(players=4, agent_seats=(0,))
    with pytest.raises(ValueError, match="seats must be 0 to 3"):
        tarot_zoo.env(players=4, agent_seats=(4,), opponents="play=heuristic")


def test_an_illegal_action_ends_the_deal_at_the_worst_score() -> None:
    table = tarot_zoo.env(players=4)
    table.reset(seed=0)
    observation, *_ = table.last()
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    agent = table.agent_selection
    table.step(illegal)
    assert all(table.terminations.values())
    assert table.rewards[agent] == -3318


def test_raw_env_refuses_an_action_that_is_not_a_legal_number() -> None:
    """``step(-176)`` played ``pass`` and ``step(1.7)`` ``prise``; ``None`` and 176 raised bare
    errors: each is refused with the legal actions named, the deal unchanged."""
    table = tarot_zoo.raw_env(players=4)
    table.reset(seed=0)
    agent = table.agent_selection
    before = table.observe(agent)["observation"].copy()
    for bad in (-176, -1, 176, 1.7, None, True, np.float32(0)):
        with pytest.raises(ValueError, match=r"legal actions: 0 \(pass\), 1 \(prise\)"):
            table.step(bad)  # type: ignore[arg-type]
    assert table.agent_selection == agent
    np.testing.assert_array_equal(table.observe(agent)["observation"], before)
    table.step(np.int64(1))
    assert table.game is not None and table.game.observation(0).bids[0] == "prise"


def test_without_pettingzoo_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pettingzoo", None)
    monkeypatch.delitem(sys.modules, "tarotsim.interfaces.pettingzoo")
    with pytest.raises(ImportError, match=r"extra 'pettingzoo'\): pip install pettingzoo gymnasium"):
        importlib.import_module("tarotsim.interfaces.pettingzoo")


def test_import_tarotsim_needs_neither_framework() -> None:
    import subprocess

    code = (
        "import sys, tarotsim; "
        "assert not {'pyspiel', 'pettingzoo', 'gymnasium'} & set(sys.modules); "
        "assert getattr(tarotsim, 'pettingzoo').env and 'pettingzoo' in sys.modules"  # the public name
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_parallel_api_test_every_seat_an_agent(players: int) -> None:
    parallel_api_test(tarot_zoo.parallel_env(players=players), num_cycles=400)


def test_parallel_api_test_against_built_in_opponents_and_back_to_aec() -> None:
    def table() -> tarot_zoo.parallel_env:
        return tarot_zoo.parallel_env(players=4, agent_seats=(1, 3), opponents="play=heuristic,ecart=expert")

    parallel_api_test(table(), num_cycles=400)
    _api_test(parallel_to_aec(table()), cycles=100)


def test_is_parallelizable_says_which_conversion_works() -> None:
    """The AEC environment's turns follow the tricks, so PettingZoo's cycle conversion
    refuses it; the parallel environment says it is one."""
    assert tarot_zoo.raw_env.metadata["is_parallelizable"] is False
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(tarot_zoo.raw_env(players=4))
    assert tarot_zoo.parallel_env.metadata["is_parallelizable"] is True


def test_the_parallel_environment_plays_the_aec_deal() -> None:
    """Every seat an agent playing as the heuristic: the deal of the run, every live agent
    observed at each step (a mask only for the agent to act), the scores at the end."""
    table = tarot_zoo.parallel_env(players=4)
    observations, infos = table.reset(seed=5)
    same = Game(4, seed=5, deal=table.deal)
    names = table.action_list
    while table.agents:
        assert set(observations) == set(table.agents) == set(infos)
        assert table.agent_to_act == f"player_{same.to_act}"
        for agent, observation in observations.items():
            seat = int(agent.split("_")[1])
            assert observation["observation"].tolist() == same.observation(seat).tensor().tolist()
            legal = [names[i] for i in np.flatnonzero(observation["action_mask"])]
            assert legal == (same.legal_actions() if seat == same.to_act else [])
        action = same.ask("play=heuristic,ecart=expert")
        same.apply(action)
        actions = {agent: 0 for agent in table.agents}
        actions[table.agent_to_act] = names.index(action)
        observations, rewards, terminations, truncations, infos = table.step(actions)
        assert all(terminations[a] == same.over and not truncations[a] for a in terminations)
    assert rewards == {f"player_{s}": float(score) for s, score in enumerate(same.returns())}
    assert table.agent_to_act is None


def test_the_parallel_environment_refuses_a_missing_action_and_ends_on_an_illegal_one() -> None:
    table = tarot_zoo.parallel_env(players=4)
    with pytest.raises(ValueError, match="call reset"):
        table.step({})
    observations, _ = table.reset(seed=1)
    agent = table.agent_to_act
    assert agent is not None
    with pytest.raises(ValueError, match=f"the action of {agent}, the agent to act"):
        table.step({other: 0 for other in table.agents if other != agent})
    illegal = int(np.flatnonzero(observations[agent]["action_mask"] == 0)[0])
    _, rewards, terminations, _, _ = table.step({agent: illegal})
    assert rewards[agent] == -max_score(4) and all(terminations.values()) and not table.agents
    assert sum(rewards.values()) == rewards[agent]
