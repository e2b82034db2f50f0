"""The one float encoder (``engine.kernels.encode``) never shows a seat the cards it cannot see.

At positions of deals played at random, the cards the observing seat cannot see are dealt
again (``tarotsim.interfaces.testing.redistribute``: the other hands, the unseen chien, the écart but
its shown trumps, keeping what the seat knows); its encoded observation must not change,
both as ``Observation.tensor`` makes it and as ``VecEnv``'s kernel writes it. The same
redistribution seen by a seat that holds moved cards changes that seat's tensor, so the
comparison can fail.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from tarotsim import VecEnv
from tarotsim.engine.kernels import state as S
from tarotsim.interfaces.game import TENSOR_FIELDS, TENSOR_LENGTH, Game
from tarotsim.interfaces.kernels import vector as V
from tarotsim.interfaces.testing import redistribute

AT = {name: int(sum(size for _, size in TENSOR_FIELDS[:k])) for k, (name, _) in enumerate(TENSOR_FIELDS)}


def _random_game(players: int, seed: int, steps: int, rng: random.Random) -> Game:
    game = Game(players, seed=seed, deal=0)
    for _ in range(steps):
        if game.over:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


@pytest.mark.parametrize("players", [3, 4, 5])
def test_observation_tensor_does_not_show_unseen_cards(players: int) -> None:
    rng = random.Random(players)
    moved_total = 0
    changed_for_others = 0
    for deal in range(12):
        game = _random_game(players, deal, rng.randrange(0, 90), rng)
        for seat in range(players):
            new, moved = redistribute(game._tb, seat, rng)
            other = game.clone()
            other._tb = new
            mine = game.observation(seat).tensor()
            np.testing.assert_array_equal(other.observation(seat).tensor(), mine)
            moved_total += moved
            for who in range(players):
                if who != seat:
                    changed_for_others += not np.array_equal(
                        other.observation(who).tensor(), game.observation(who).tensor()
                    )
    assert moved_total > 100
    assert changed_for_others > 10  # the moved cards show in the hands that now hold them


def test_vecenv_kernel_tensors_do_not_show_unseen_cards() -> None:
    """The same check on the tensors ``interfaces.kernels.vector.step`` writes: the unseen cards of every
    game are dealt again in the batch's arrays, and the observations written again (code -1)."""
    rng = random.Random(1)
    env = VecEnv(16, 4, agent_seats=range(4), observations="tensor", seed=3, threads=1)
    obs, mask = env.reset()
    pick = np.random.default_rng(0)
    moved_total = 0
    for _ in range(6):
        for _ in range(pick.integers(1, 12)):
            counts = mask.sum(axis=1)
            chosen = np.argmax(
                mask.cumsum(axis=1) > (pick.random(len(mask)) * counts).astype(int)[:, None], axis=1
            )
            obs, mask, _, _ = env.step(chosen)
        games = env._games
        for g in range(env.n_games):
            tb = S.DealState(*(getattr(games, name)[g] for name in S.DealState._fields))
            new, moved = redistribute(tb, int(games.pos[g, V.Q_SEAT]), rng)
            for name in S.DealState._fields:
                getattr(games, name)[g] = getattr(new, name)
            moved_total += moved
        again, mask_again = env._run(np.full(env.n_games, -1, dtype=np.int64))
        np.testing.assert_array_equal(again, obs)
        np.testing.assert_array_equal(mask_again, mask)
        assert again.shape == (16, TENSOR_LENGTH)
    assert moved_total > 200


def test_the_encoder_writes_the_hand_and_the_seats_relative_to_the_observer() -> None:
    hands = [
        "1S 2S 3S 4S 5S 6S 7S 8S 9S 10S JS CS QS KS 1H 2H 3H 4H",
        "5H 6H 7H 8H 9H 10H JH CH QH KH 1D 2D 3D 4D 5D 6D 7D 8D",
        "9D 10D JD CD QD KD 1C 2C 3C 4C 5C 6C 7C 8C 9C 10C JC CC",
        "QC KC T1 T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 T14 T15 T16",
    ]
    game = Game(4, hands=hands, chien="T17 T18 T19 T20 T21 EX", dealer=2)
    tensor = game.observation(1).tensor()
    held = np.flatnonzero(tensor[AT["hand"] : AT["hand"] + 78])
    assert held.tolist() == list(range(18, 36))  # 5H … 8D in card id order
    assert np.flatnonzero(tensor[AT["dealer"] : AT["dealer"] + 5]).tolist() == [1]  # seat 2: the next seat
    assert np.flatnonzero(tensor[AT["seat"] : AT["seat"] + 5]).tolist() == [1]
    assert tensor[AT["chien"] : AT["chien"] + 78].sum() == 0  # not shown
