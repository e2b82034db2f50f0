"""Searching players (``pimc``, the ``montecarlo`` bidder) at every table: ``Game.ask``,
``tarotsim.interfaces.game.decide``, ``VecEnv`` and PettingZoo opponents, beside Python players, and as an
OpenSpiel bot; each decides as a run of the same seed does on the same deal."""

from __future__ import annotations

import numpy as np
import pytest

import tarotsim
from tarotsim import Game, Strategy, VecEnv
from tarotsim.base.seeding import run_key
from tarotsim.engine.kernels import state as S
from tarotsim.interfaces import python_players as players
from tarotsim.interfaces.game import decide
from tarotsim.interfaces.testing import check_no_peeking
from tarotsim.players.config import RunConfig
from tarotsim.runs.runner import play_deals

pytestmark = pytest.mark.xdist_group("search_game")

PIMC = "play=pimc,worlds=2,ecart=expert"
"""``pimc`` at its cheapest useful size: the searching kernels compile the same at any."""
MONTECARLO = "play=heuristic,ecart=expert,bid=montecarlo,bid_worlds=2"
HEURISTIC = "play=heuristic,ecart=expert"


def _run_record(spec: str, seed: int, deal: int, players: int = 4) -> np.ndarray:
    """Deal ``deal`` of the run of ``seed`` with every seat on ``spec``: its record row."""
    cfg = RunConfig(players=players, strategies=(spec,) * players).to_array()
    return play_deals(deal, 1, run_key(seed), cfg)[0].astype(np.int64)


def _but_others_bid(record: np.ndarray) -> np.ndarray:
    """A record without ``R_OTHERS_BID``: where the caller makes the bids, the words said."""
    return np.delete(record, S.R_OTHERS_BID)


@pytest.mark.parametrize("spec", [PIMC, MONTECARLO])
def test_game_ask_decides_as_the_run_does(spec: str) -> None:
    game = Game(4, seed=3, deal=1)
    asked = 0
    while not game.over:
        action = game.ask(spec)
        assert action in game.legal_actions()
        if game.phase == "play" and asked == 0:
            assert game.ask(spec) == action  # the same scratch, reseeded: the same card
            asked += 1
        game.apply(action)
    assert asked == 1
    np.testing.assert_array_equal(_but_others_bid(game.record), _but_others_bid(_run_record(spec, 3, 1)))


def test_the_montecarlo_bid_is_legal_and_repeatable() -> None:
    game = Game(4, seed=5, deal=2)
    wish = game.ask(MONTECARLO)
    assert game.phase == "bid" and wish in game.legal_actions()
    assert game.ask(MONTECARLO) == wish
    observation = game.observation()
    alone = decide(observation, MONTECARLO)  # seeded by the observation's own stream
    assert alone in game.legal_actions() and decide(observation, MONTECARLO) == alone


def test_a_bad_spec_or_deal_is_one_line() -> None:
    game = Game(4, seed=0)
    for bad in ("play=pimcc", "play=pimc,worlds=0"):
        with pytest.raises(ValueError) as err:
            game.ask(bad)
        assert "\n" not in str(err.value)
    with pytest.raises(ValueError, match="deal"):
        decide(game.observation(), PIMC, seed=0, deal=-1)


def test_builtin_pimc_player_decides_from_the_observation() -> None:
    game = Game(4, seed=1)
    while game.phase != "play":
        game.apply(game.ask(HEURISTIC))
    player = players.builtin(PIMC)
    card = player(game.observation())
    assert card in game.legal_actions() and player(game.observation()) == card


@pytest.mark.parametrize(("spec", "phase", "share"), [(PIMC, "play", 0.2), (MONTECARLO, "bid", 1.0)])
def test_the_searching_players_pass_the_no_peeking_check(spec: str, phase: str, share: float) -> None:
    """Asked again with the unseen cards dealt otherwise (the random stream kept), a search
    draws the same worlds from the same view and answers the same."""
    report = check_no_peeking(spec, deals=2, seed=0, redeals=2, share=share)
    assert report.by_phase.get(phase, 0) > 0


def _step_all(env: VecEnv, steps: int) -> list[tuple[np.ndarray, ...]]:
    """Every array ``steps`` steps return, each agent playing its first legal action."""
    obs, mask = env.reset()
    seen = [(obs, mask)]
    for _ in range(steps):
        obs, mask, rewards, done = env.step(np.argmax(mask, axis=1))
        seen.append((obs, mask, rewards, done, env.records))
    return seen


def test_vecenv_pimc_opponents_do_not_depend_on_the_threads() -> None:
    def env(threads: int) -> VecEnv:
        return VecEnv(128, 4, agent_decisions=("play",), opponents=PIMC, seed=5, threads=threads)

    one, two = _step_all(env(1), 18), _step_all(env(2), 18)
    for a, b in zip(one, two, strict=True):
        for x, y in zip(a, b, strict=True):
            np.testing.assert_array_equal(x, y)
    assert one[18][3].all()  # every deal ended at the agent's 18th card


def test_vecenv_pimc_opponents_play_the_run_s_cards() -> None:
    """The agent plays the card ``decide`` gives with the run's seed and the deal number:
    the deals are then the run's, card for card."""
    env = VecEnv(3, 4, agent_decisions=("play",), opponents=PIMC, seed=7, threads=1)
    env.reset()
    checked: set[int] = set()
    while len(checked) < 3:
        chosen = [
            env.actions.index(decide(env.observation(g), PIMC, seed=7, deal=int(env.deals[g])))
            for g in range(3)
        ]
        _, _, _, done = env.step(np.array(chosen))
        for g in np.flatnonzero(done):
            deal = int(env.ended[g])
            np.testing.assert_array_equal(env.records[g], _run_record(PIMC, 7, deal))
            checked.add(int(g))


def test_gymnasium_pimc_opponents_play_a_deal_out_the_same_twice() -> None:
    gym = pytest.importorskip("tarotsim.interfaces.gym", reason="needs the gym extra")

    def episode() -> tuple[list[int], np.ndarray]:
        env = gym.TarotEnv(4, seat=1, agent_decisions=("play",), opponents=PIMC, taker=3, contract="prise")
        env.reset(seed=4)
        chosen, terminated = [], False
        while not terminated:
            chosen.append(int(np.flatnonzero(env.action_masks())[0]))
            _, reward, terminated, _, info = env.step(chosen[-1])
            assert not info["illegal"]
        record = env.unwrapped._env.records[0]
        assert reward == record[S.R_SCORE + 1]
        return chosen, record

    first, record = episode()
    assert len(first) == 18 and record[S.R_TAKER] == 3
    again, same = episode()
    assert again == first
    np.testing.assert_array_equal(same, record)


def test_a_python_player_sits_beside_pimc() -> None:
    """A Python player deciding as the heuristic does, beside three ``pimc`` seats: the
    records of a run where the kernels play all four."""
    python = Strategy(play=players.builtin(HEURISTIC), ecart="expert")
    mixed = tarotsim.simulate(4, seed=2, strategies=[python, PIMC, PIMC, PIMC], progress=False)
    kernels = tarotsim.simulate(4, seed=2, strategies=[HEURISTIC, PIMC, PIMC, PIMC], progress=False)
    labels = [c for c in mixed.columns if c.startswith("strategy_")]
    assert len(mixed) == 4
    pd_testing = pytest.importorskip("pandas").testing
    pd_testing.assert_frame_equal(mixed.drop(columns=labels), kernels.drop(columns=labels))


def test_pettingzoo_pimc_opponents_play_the_run_s_cards() -> None:
    zoo = pytest.importorskip("tarotsim.interfaces.pettingzoo", reason="needs the pettingzoo extra")
    table = zoo.raw_env(4, opponents=PIMC)
    table.reset(seed=11)
    while not table.game.over:
        action = decide(table.game.observation(), PIMC, seed=11, deal=table.deal)
        table.step(table.action_list.index(action))
    np.testing.assert_array_equal(
        _but_others_bid(table.game.record), _but_others_bid(_run_record(PIMC, 11, table.deal))
    )


def test_the_pimc_bot_plays_openspiel_games_legally() -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="needs the openspiel extra")
    import tarotsim.interfaces.openspiel as tarot_spiel

    game = pyspiel.load_game("python_french_tarot", {"players": 4})
    bots = [tarot_spiel.pimc_bot(2, seed=s) for s in range(4)]
    rng = np.random.default_rng(0)
    played = 0
    for _ in range(10):  # deals until one is played out (every seat may pass)
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
                action = int(rng.choice(outcomes, p=probabilities))
            else:
                action = bots[state.current_player()].step(state)
                assert action in state.legal_actions()
                decisions += 1
            state.apply_action(action)
        assert sum(state.returns()) == 0
        played += decisions >= 18 * 4
        if played:
            break
    assert played == 1


def test_the_pimc_bot_meets_ismcts_in_evaluate_bots() -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="needs the openspiel extra")
    from open_spiel.python.algorithms import ismcts, mcts

    import tarotsim.interfaces.openspiel as tarot_spiel

    def play() -> tuple[list[float], int]:
        game = pyspiel.load_game("python_french_tarot", {"players": 4})
        random_state = np.random.RandomState(0)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state)
        search = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=4, random_state=random_state)
        draws = np.random.default_rng(
            1
        )  # its worlds drawn reproducibly (OpenSpiel's own draws are not seeded)
        search.set_resampler(lambda state, player: tarot_spiel.resample(state, player, draws))
        bots = [tarot_spiel.pimc_bot(2, seed=0), search, tarot_spiel.pimc_bot(2, seed=1), search]
        returns = list(pyspiel.evaluate_bots(game.new_initial_state(), bots, 3))
        return returns, bots[0].decisions + bots[2].decisions

    returns, pimc_decisions = play()
    assert len(returns) == 4 and sum(returns) == 0 and any(returns)  # a deal played out
    assert pimc_decisions >= 2 * 18
    assert play() == (returns, pimc_decisions)
