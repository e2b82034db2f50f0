"""Play games of French Tarot through each research interface, training nothing.

Every decision is a uniformly random legal action; the point is the loop each interface
asks for, and its speed here. Needs the extras: pip install '.[openspiel,pettingzoo]'
from tarotsim's source.

    python examples/research.py [--games 10000] [--players 4]
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np


def openspiel_games(games: int, players: int, rng: random.Random) -> tuple[int, float]:
    """``games`` deals of the OpenSpiel game, chance included; (decisions, mean score of seat 0)."""
    import pyspiel

    import tarotsim.interfaces.openspiel  # noqa: F401 - registers python_french_tarot

    game = pyspiel.load_game("python_french_tarot", {"players": players})
    decisions, total = 0, 0.0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probabilities)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
        total += state.returns()[0]
    return decisions, total / games


def pettingzoo_games(games: int, players: int, rng: random.Random) -> tuple[int, float]:
    """``games`` deals of the PettingZoo environment, every seat an agent; (decisions, mean
    reward of player_0)."""
    from tarotsim.interfaces.pettingzoo import env

    table = env(players=players)
    decisions, total = 0, 0.0
    for game in range(games):
        table.reset(seed=0 if game == 0 else None)  # deal 0, 1, 2 … of the run with seed 0
        for agent in table.agent_iter():
            observation, reward, termination, truncation, _ = table.last()
            if agent == "player_0":
                total += reward
            if termination or truncation:
                table.step(None)
                continue
            table.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
            decisions += 1
    return decisions, total / games


def vecenv_games(games: int, players: int, rng: random.Random) -> tuple[int, float]:
    """Games of ``tarotsim.VecEnv``, 1,024 at a time, every seat an agent, stepped until
    ``games`` deals have ended; (decisions, mean score of seat 0 over those deals)."""
    import tarotsim

    batch = min(games, 1024)
    env = tarotsim.VecEnv(batch, players, agent_seats=tuple(range(players)), seed=0)
    draws = np.random.default_rng(rng.randrange(2**32))
    obs, mask = env.reset()
    decisions, ended, total = 0, 0, 0.0
    while ended < games:
        pick = (draws.random(batch) * mask.sum(axis=1)).astype(np.int64)
        actions = np.argmax(mask.cumsum(axis=1) > pick[:, None], axis=1)  # a random legal action each
        obs, mask, rewards, done = env.step(actions)
        decisions += batch
        ended += int(done.sum())
        total += float(rewards[done, 0].sum())
    return decisions, total / ended


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    rng = random.Random(0)
    interfaces = (("OpenSpiel", openspiel_games), ("PettingZoo", pettingzoo_games), ("VecEnv", vecenv_games))
    for name, play in interfaces:
        start = time.perf_counter()
        decisions, mean = play(args.games, args.players, rng)
        seconds = time.perf_counter() - start
        print(
            f"{name}: {args.games} games, {decisions} decisions in {seconds:.1f} s "
            f"({decisions / seconds:,.0f} per second); seat 0's mean score {mean:+.1f}"
        )


if __name__ == "__main__":
    main()
