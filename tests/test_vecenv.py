"""The batched environment: the same positions, legal actions, scores and records as the
step-by-step game and the runs, whatever the number of threads."""

from __future__ import annotations

import numpy as np
import pytest

from tarotsim import Strategy, VecEnv
from tarotsim.base.seeding import run_key
from tarotsim.engine.cards import parse_cards
from tarotsim.engine.kernels import state as S
from tarotsim.engine.labels import CONTRACT_NAMES
from tarotsim.interfaces import python_players as players_module
from tarotsim.interfaces.game import PHASES, TENSOR_FIELDS, TENSOR_LENGTH, Game, Observation, actions
from tarotsim.interfaces.vecenv import MIN_BLOCK
from tarotsim.players.config import RunConfig
from tarotsim.runs.runner import play_deals
from tests import reference

HEURISTIC = "play=heuristic,ecart=expert"
AT = {name: int(sum(size for _, size in TENSOR_FIELDS[:k])) for k, (name, _) in enumerate(TENSOR_FIELDS)}


def tensor_from_text(obs: Observation) -> np.ndarray:
    """``Observation.tensor`` stated again from the observation's strings and the rules of
    ``tests/reference.py``, field by field (``TENSOR_FIELDS``): what the one encoder
    (``engine.kernels.encode``) must give."""
    out = np.zeros(TENSOR_LENGTH, dtype=np.float32)
    n = obs.players

    def ids(names) -> np.ndarray:
        return np.array(parse_cards(list(names)), dtype=np.int64)

    def seat(field: str, who: int | None) -> None:
        if who is not None:
            out[AT[field] + (who - obs.seat) % n] = 1

    out[AT["phase"] + PHASES.index(obs.phase)] = 1
    out[AT["players"] + n - 3] = 1
    out[AT["seat"] + obs.seat] = 1
    seat("dealer", obs.dealer)
    out[AT["hand"] + ids(obs.hand)] = 1
    tricks = [(leader, list(cards)) for leader, cards, _ in obs.tricks]
    if obs.leader is not None:
        tricks.append((obs.leader, list(obs.trick)))
    if obs.trick:
        out[AT["trick"] + ids(obs.trick)] = 1
        seat("leader", obs.leader)
        if reference.led_suit(obs.trick) is not None:
            seat("winning", (obs.leader + reference.trick_winner(obs.trick)) % n)
    for leader, cards in tricks:
        out[AT["played"] + ids(cards)] = 1
        for j, card in enumerate(cards):
            for suit in reference.revealed_voids(cards[:j], card):
                suit_code = 4 if suit == "T" else reference.SUITS.index(suit)
                out[AT["voids"] + (leader + j - obs.seat) % n * 5 + suit_code] = 1
    if obs.chien is not None:
        out[AT["chien"] + ids(obs.chien)] = 1
    out[AT["ecart"] + ids(obs.ecart)] = 1
    for who, cards in enumerate(obs.poignees):
        if cards:
            out[AT["poignees"] + ids(cards)] = 1
            seat("poignee_seats", who)
    for turn in range(n):
        word = CONTRACT_NAMES.index(obs.bids[turn]) + 1 if turn < len(obs.bids) else 0
        out[AT["bids"] + turn * 6 + word] = 1
    out[AT["contract"] + (0 if obs.contract is None else CONTRACT_NAMES.index(obs.contract))] = 1
    seat("taker", obs.taker)
    seat("partner", obs.partner)
    if obs.called_card is not None:
        called = obs.called_card
        out[AT["called_suit"] + reference.SUITS.index(reference.suit_of(called))] = 1
        out[AT["called_rank"] + ("K", "Q", "C", "J").index(called[:-1])] = 1
    out[AT["attack"]] = float(obs.attack)
    out[AT["chelem"]] = float(obs.chelem_announced)
    out[AT["to_act"]] = float(bool(obs.legal_actions))
    return out


def _random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One legal action per row of ``mask``, uniformly."""
    counts = mask.sum(axis=1)
    pick = (rng.random(len(mask)) * counts).astype(np.int64)
    return np.argmax(mask.cumsum(axis=1) > pick[:, None], axis=1)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_positions_masks_and_rewards_are_the_games(players: int) -> None:
    names = actions(players)
    env = VecEnv(5, players, agent_seats=range(players), observations="tensor", seed=4, threads=1)
    obs, mask = env.reset()
    games = [Game(players, seed=4, deal=int(d)) for d in env.deals]
    rng = np.random.default_rng(players)
    finished = 0
    for _ in range(150):
        for g, game in enumerate(games):
            assert [names[a] for a in np.flatnonzero(mask[g])] == game.legal_actions()
            np.testing.assert_array_equal(obs[g], tensor_from_text(game.observation()))
            np.testing.assert_array_equal(game.observation().tensor(), obs[g])
        chosen = _random_actions(mask, rng)
        for g, game in enumerate(games):
            game.apply(names[chosen[g]])
        obs, mask, rewards, done = env.step(chosen)
        for g in np.flatnonzero(done):
            assert games[g].over and env.ended[g] == games[g].deal
            assert rewards[g].tolist() == games[g].returns() and rewards[g].sum() == 0
            games[g] = Game(players, seed=4, deal=int(env.deals[g]))
            finished += 1
        assert all(not games[g].over for g in range(5))
        assert not rewards[~done].any()
    assert finished >= 5


def _trajectory(threads: int) -> list[np.ndarray]:
    env = VecEnv(3 * MIN_BLOCK, 4, agent_seats=(0, 2), opponents=HEURISTIC, seed=9, threads=threads)
    rng = np.random.default_rng(1)
    obs, mask = env.reset()
    seen = [obs, mask]
    for _ in range(40):
        obs, mask, rewards, done = env.step(_random_actions(mask, rng))
        seen += [obs, mask, rewards, done, env.deals]
    return seen


def test_same_trajectories_with_one_and_two_threads() -> None:
    for one, two in zip(_trajectory(1), _trajectory(2), strict=True):
        np.testing.assert_array_equal(one, two)


@pytest.mark.parametrize("players", [3, 5])
def test_agents_playing_as_a_builtin_reproduce_its_records(players: int) -> None:
    spec = "play=heuristic,ecart=expert,poignee=smart"
    n = 4
    env = VecEnv(
        n, players, agent_seats=(0, players - 1), opponents=spec, observations="compact", seed=2, threads=1
    )
    cfg = RunConfig(players=players, strategies=[spec] * players).to_array()
    expected = play_deals(0, 3 * n, run_key(2), cfg)
    player = players_module.builtin(spec)
    index = {name: i for i, name in enumerate(env.actions)}
    columns = [c for c in range(S.N_REC) if c != S.R_OTHERS_BID]  # an agent's wish is what it said
    obs, _ = env.reset()
    compared = set()
    while len(compared) < 2 * n:
        observations = [env.observation(g) for g in range(n)]
        assert all(o.seat in env.agent_seats and o.legal_actions for o in observations)
        assert obs.dtype == np.uint8
        np.testing.assert_array_equal(obs, np.stack([tensor_from_text(o) for o in observations]))
        obs, _, _, done = env.step(np.array([index[player(o)] for o in observations]))
        for g in np.flatnonzero(done):
            deal = int(env.ended[g])
            if deal < 3 * n:
                np.testing.assert_array_equal(env.records[g][columns], expected[deal][columns])
                compared.add(deal)


def test_illegal_actions_and_bad_arguments_are_one_line_errors() -> None:
    env = VecEnv(3, 4, agent_seats=(1,), seed=0, threads=1)
    with pytest.raises(ValueError, match="reset"):
        env.step(np.zeros(3, dtype=np.int64))
    obs, mask = env.reset()
    bad = np.argmax(mask, axis=1)
    bad[2] = int(np.argmin(mask[2]))
    with pytest.raises(ValueError, match=r"^game 2: seat 1 cannot take action \d+ \('.*'\) in the bid phase"):
        env.step(bad)
    with pytest.raises(ValueError, match="shape"):
        env.step(np.zeros(2, dtype=np.int64))
    for index in (-1, env.n_actions, 2**64 - 1):  # outside the table, an unsigned past int64's
        outside = np.argmax(mask, axis=1).astype(np.uint64 if index > 0 else np.int64)
        outside[1] = index
        with pytest.raises(ValueError, match=rf"^game 1: seat 1 cannot take action {index} in the bid phase"):
            env.step(outside)
    with pytest.raises(ValueError, match="agent_seats"):
        VecEnv(2, 4, agent_seats=(4,))
    with pytest.raises(ValueError, match="not one with a Python player"):
        VecEnv(2, 4, opponents=Strategy(play=players_module.builtin("play=heuristic")))
    with pytest.raises(ValueError, match="n_games"):
        VecEnv(0)


def test_a_deal_thrown_in_before_any_decision_is_passed_over() -> None:
    cfg = RunConfig(players=4).to_array()
    thrown = play_deals(0, 200, run_key(4), cfg)[:, S.R_THROWN_IN] == S.THROWN_PETIT_SEC
    first = int(np.argmax(thrown))  # a petit sec: nobody decides
    assert thrown[first] and not thrown[2 * first + 1]
    env = VecEnv(first + 1, 4, agent_seats=(2,), seed=4, threads=1)
    env.reset()
    assert env.deals[first] == 2 * first + 1 and env.deals[first - 1] == first - 1
    assert env.observation(first).seat == 2


@pytest.mark.parametrize(("players", "decisions"), [(4, None), (5, ("play",))])
def test_a_forced_contract_played_as_a_builtin_reproduces_the_sweep(
    players: int, decisions: tuple | None
) -> None:
    spec = "play=heuristic,ecart=expert,poignee=smart"
    n = 4
    env = VecEnv(
        n,
        players,
        agent_seats=(1,),
        agent_decisions=decisions,
        opponents=spec,
        taker=1,
        contract="garde",
        seed=3,
        threads=1,
    )
    cfg = RunConfig(
        players=players, strategies=[spec] * players, forced_taker=1, forced_contract="garde"
    ).to_array()
    expected = play_deals(0, 3 * n, run_key(3), cfg)
    player = players_module.builtin(spec)
    index = {name: i for i, name in enumerate(env.actions)}
    obs, _ = env.reset()
    compared = set()
    while len(compared) < 2 * n:
        observations = [env.observation(g) for g in range(n)]
        assert all(o.seat == 1 and o.taker == 1 and o.contract == "garde" for o in observations)
        if decisions == ("play",):
            assert all(o.phase == "play" for o in observations)
        obs, _, _, done = env.step(np.array([index[player(o)] for o in observations]))
        for g in np.flatnonzero(done):
            deal = int(env.ended[g])
            if deal < 3 * n:
                np.testing.assert_array_equal(env.records[g], expected[deal])
                compared.add(deal)


def test_tensor_observations_and_the_final_observation_are_the_games() -> None:
    names = actions(4)
    env = VecEnv(6, 4, agent_seats=range(4), observations="tensor", seed=5, threads=1)
    obs, mask = env.reset()
    games = [Game(4, seed=5, deal=int(d)) for d in env.deals]
    rng = np.random.default_rng(2)
    finished = 0
    while finished < 8:
        assert obs.dtype == np.float32 and obs.shape == (6, env.obs_length)
        np.testing.assert_array_equal(obs, np.stack([g.observation().tensor() for g in games]))
        chosen = _random_actions(mask, rng)
        seats = [g.observation().seat for g in games]
        for g, game in enumerate(games):
            game.apply(names[chosen[g]])
        obs, mask, _, done = env.step(chosen)
        info = env.info
        np.testing.assert_array_equal(info["final_games"], np.flatnonzero(done))
        for g, final in zip(info["final_games"], info["final_obs"], strict=True):
            assert games[g].over
            np.testing.assert_array_equal(final, games[g].observation(seats[g]).tensor())
            games[g] = Game(4, seed=5, deal=int(env.deals[g]))
            finished += 1


def test_an_illegal_action_at_a_penalty_plays_the_first_legal_one() -> None:
    env = VecEnv(3, 4, agent_seats=(0,), illegal="penalty", penalty=7.5, seed=0, threads=1)
    twin = VecEnv(3, 4, agent_seats=(0,), seed=0, threads=1)
    _, first = env.reset()
    twin.reset()
    chosen = np.argmax(first, axis=1)
    chosen[1] = int(np.argmin(first[1]))  # illegal
    obs, mask, rewards, _ = env.step(chosen)
    chosen[1] = int(np.argmax(first[1]))
    twin_obs, twin_mask, twin_rewards, _ = twin.step(chosen)
    np.testing.assert_array_equal(obs, twin_obs)
    np.testing.assert_array_equal(mask, twin_mask)
    assert env.info["illegal"].tolist() == [False, True, False]
    assert (rewards - twin_rewards).tolist() == [[0, 0, 0, 0], [-7.5, 0, 0, 0], [0, 0, 0, 0]]
    with pytest.raises(ValueError, match="penalty= points"):
        VecEnv(2, 4, illegal="penalty")
    with pytest.raises(ValueError, match="only with illegal='penalty'"):
        VecEnv(2, 4, penalty=1.0)
    with pytest.raises(ValueError, match="illegal must be"):
        VecEnv(2, 4, illegal="ignore")


def test_reset_of_some_games_moves_only_them_on() -> None:
    env = VecEnv(4, 4, agent_seats=(0,), seed=1, threads=1)
    obs, _ = env.reset()
    after, _ = env.reset(games=np.array([False, True, False, True]))
    assert env.deals.tolist() == [0, 5, 2, 7]
    np.testing.assert_array_equal(after[[0, 2]], obs[[0, 2]])
    assert env.observation(1).seat == 0
    with pytest.raises(ValueError, match="game indices"):
        env.reset(games=[4])
    with pytest.raises(ValueError, match="give no seed"):
        env.reset(seed=2, games=[0])


def test_agent_decisions_and_forced_contract_options_are_checked() -> None:
    with pytest.raises(ValueError, match="agent_decisions must be"):
        VecEnv(2, 4, agent_decisions=("bid",))
    with pytest.raises(ValueError, match="both taker="):
        VecEnv(2, 4, taker=0)
    with pytest.raises(ValueError, match="contract"):
        VecEnv(2, 4, taker=0, contract="grande")
    with pytest.raises(ValueError, match="taking seat"):
        VecEnv(2, 4, taker=4, contract="garde")
    with pytest.raises(ValueError, match="observations must be"):
        VecEnv(2, 4, observations="dict")


@pytest.mark.parametrize("observations", ["rows", "tensor", "compact"])
def test_without_copies_the_same_arrays_hold_the_copying_values(observations: str) -> None:
    options = {"agent_seats": (0, 2), "illegal": "penalty", "penalty": 3.0, "observations": observations}
    copying = VecEnv(5, 4, seed=7, threads=1, **options)
    reusing = VecEnv(5, 4, seed=7, threads=1, copy=False, **options)
    assert copying.copy and not reusing.copy
    obs, mask = copying.reset()
    own = reusing.reset()
    rng = np.random.default_rng(3)
    first_step = None
    finished = illegal = 0
    while finished < 6 or illegal < 2:
        np.testing.assert_array_equal(own[0], obs)
        np.testing.assert_array_equal(own[1], mask)
        kept = obs.copy()
        chosen = _random_actions(mask, rng)
        if rng.random() < 0.1:
            chosen[1] = int(np.argmin(mask[1]))  # illegal: the first legal action at a penalty
        step = copying.step(chosen)
        again = reusing.step(chosen)
        np.testing.assert_array_equal(obs, kept)  # what a copying step returned stays as it was
        assert again[0] is own[0] and again[1] is own[1]
        first_step = again if first_step is None else first_step
        assert again[2] is first_step[2] and again[3] is first_step[3]
        for mine, theirs in zip(again, step, strict=True):
            np.testing.assert_array_equal(mine, theirs)
        for name, value in copying.info.items():
            np.testing.assert_array_equal(reusing.info[name], value)
        obs, mask = step[0], step[1]
        finished += int(step[3].sum())
        illegal += int(copying.info["illegal"].sum())
    with pytest.raises(TypeError, match="copy must be True or False"):
        VecEnv(2, 4, copy="no")  # type: ignore[arg-type]
