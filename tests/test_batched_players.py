"""Batched players: asked once per step about every game waiting on them, with the kernels'
observation tensors and the legal-action masks, they decide as a one-at-a-time player does."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from tarotsim import Strategy, duel, simulate, sweep
from tarotsim.interfaces import python_players as players
from tarotsim.interfaces.game import TENSOR_LENGTH, Observation
from tarotsim.interfaces.python_players import PlayerError


def first_legal(observation: Observation) -> str:
    """The first legal action, in the table's order."""
    return observation.legal_actions[0]


class FirstLegal:
    """A batched player taking the first legal action of each observation."""

    name = "first-legal"

    def __init__(self) -> None:
        self.calls = 0
        self.shapes: set[tuple[int, ...]] = set()

    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        self.calls += 1
        assert observations.dtype == np.float32 and observations.shape[1] == TENSOR_LENGTH
        assert observations.shape[0] == masks.shape[0]
        self.shapes.add(observations.shape)
        return masks.argmax(axis=1)


@pytest.mark.parametrize("n", [3, 5])
def test_a_batched_player_plays_as_its_one_at_a_time_twin(n: int) -> None:
    batched = FirstLegal()
    one = duel(Strategy(play=batched, ecart="expert"), "play=heuristic", 6, seed=11, players=n)
    other = duel(Strategy(play=first_legal, ecart="expert"), "play=heuristic", 6, seed=11, players=n)
    labels = [c for c in one.records.columns if not c.startswith("strategy")]
    pd.testing.assert_frame_equal(one.records[labels], other.records[labels])
    assert one.edge == other.edge
    assert batched.calls < 6 * n * 24  # asked about many games at once, not one by one


def test_a_batched_player_may_make_every_decision() -> None:
    batched = FirstLegal()
    seats = [Strategy(act=batched)] + ["play=heuristic"] * 3
    records = simulate(8, seed=2, strategies=seats)
    twin = simulate(8, seed=2, strategies=[Strategy(act=first_legal)] + ["play=heuristic"] * 3)
    labels = [c for c in records.columns if not c.startswith("strategy")]
    pd.testing.assert_frame_equal(records[labels], twin[labels])


class Broken:
    def __init__(self, answer: object) -> None:
        self.answer = answer

    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> object:
        return self.answer(masks) if callable(self.answer) else self.answer


@pytest.mark.parametrize(
    ("answer", "words"),
    [
        (lambda masks: np.full(len(masks), -1), "returned action -1"),
        (lambda masks: (~masks).argmax(axis=1), "returned action"),
        (lambda masks: masks.argmax(axis=1).astype(float), "not"),
        (lambda masks: masks.argmax(axis=1)[:-1] if len(masks) > 1 else [], "not"),
    ],
)
def test_a_batched_player_that_errs_is_named_with_the_deal_and_its_legal_actions(answer, words: str) -> None:
    with pytest.raises(PlayerError, match=words) as caught:
        simulate(4, seed=1, strategies=[Strategy(play=Broken(answer))] + ["play=heuristic"] * 3)
    assert "seat 0" in str(caught.value) and "legal actions" in str(caught.value)


def test_a_sweep_seats_a_python_player_as_its_builtin_twin() -> None:
    spec = "play=heuristic,ecart=expert"
    builtin = sweep(12, seed=4, contracts=["garde"], strategies=[spec] * 4)
    python = sweep(
        12,
        seed=4,
        contracts=["garde"],
        strategies=[Strategy(play=players.builtin(spec), ecart="expert")] + [spec] * 3,
    )
    labels = [c for c in builtin.columns if not c.startswith("strategy") and c != "others_bid"]
    pd.testing.assert_frame_equal(builtin[labels], python[labels])


def test_the_hand_analysis_seats_a_batched_player_and_its_twin_alike() -> None:
    from tarotsim.analysis.hand import analyse_hand

    hand = "T21 T18 T15 T12 T9 T7 T4 T2 EX KH QH 5H KS 8S 3S 9D 2D 4C"
    batched = analyse_hand(hand, strategy=Strategy(play=FirstLegal(), ecart="expert"), deals=40, seed=3)
    twin = analyse_hand(hand, strategy=Strategy(play=first_legal, ecart="expert"), deals=40, seed=3)
    pd.testing.assert_frame_equal(batched.contracts, twin.contracts)
    assert (batched.best, batched.diff) == (twin.best, twin.diff)
