"""The step-by-step game: the kernels' rules one action at a time, the same deals and play as a run."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tarotsim.interfaces.game import TENSOR_LENGTH, Game, actions
from tarotsim.players.config import RunConfig
from tarotsim.runs.trace import trace_records

DETERMINISTIC = ("play=heuristic,ecart=expert,poignee=smart,chelem=overwhelming", "play=greedy")


def _random_to_end(game: Game, rng: random.Random) -> Game:
    while not game.over:
        legal = game.legal_actions()
        assert legal and set(legal) <= set(actions(game.players))
        obs = game.observation()
        assert obs.legal_actions == tuple(legal) and obs.phase == game.phase
        game.apply(rng.choice(legal))
    return game


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_actions_play_a_whole_deal(players: int) -> None:
    rng = random.Random(players)
    names = actions(players)
    phases = set()
    for deal in range(12):
        game = Game(players=players, seed=7, deal=deal)
        while not game.over:
            phases.add(game.phase)
            legal = game.legal_actions()
            assert game.legal_numbers() == sorted(names.index(name) for name in legal)
            action = rng.choice(legal[:2] if game.phase == "bid" else legal)  # pass or the lowest bid
            if rng.random() < 0.5:
                game.apply(action)
            else:
                assert game.apply_number(names.index(action), names) == action
        scores = game.returns()
        assert sum(scores) == 0
        trace = game.to_trace()
        assert trace["players"] == players and trace["scores"] == scores
        if trace["thrown_in"] is None:
            assert len(trace["tricks"]) == {3: 24, 4: 18, 5: 15}[players]
            assert len(trace["ecart"]) == (
                {3: 6, 4: 6, 5: 3}[players] if trace["contract"] in ("prise", "garde") else 0
            )
    assert {"bid", "ecart", "chelem", "play"} <= phases
    assert ("call" in phases) == (players == 5)


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("spec", DETERMINISTIC)
def test_asking_a_builtin_at_every_decision_replays_the_run(players: int, spec: str) -> None:
    deals = 6
    expected = trace_records(deals, 11, RunConfig(players=players, strategies=[spec] * players))
    for deal in range(deals):
        game = Game(players=players, seed=11, deal=deal)
        while not game.over:
            game.apply(game.ask(spec))
        want = dict(expected[deal])
        del want["strategies"]
        assert game.to_trace() == want


def test_same_cards_as_the_run() -> None:
    for players in (3, 4, 5):
        trace = trace_records(3, 5, RunConfig(players=players))
        for deal in range(3):
            game = Game(players=players, seed=5, deal=deal)
            hands = [game.observation(seat).hand for seat in range(players)]
            assert [list(h) for h in hands] == trace[deal]["hands"]
            assert game.dealer == deal % players


def test_illegal_action_names_seat_phase_and_legal_actions_and_changes_nothing() -> None:
    game = Game(players=4, seed=0, deal=1)
    before = game.observation().info_string()
    seat = game.to_act
    with pytest.raises(ValueError, match=rf"seat {seat} .*bid phase.*legal actions: pass, prise"):
        game.apply("KS")
    with pytest.raises(ValueError, match="legal actions"):
        game.apply("call:KH")
    assert game.observation().info_string() == before and game.to_act == seat


def test_deal_dealer_and_seed_must_be_whole_numbers() -> None:
    """A float, a bool or text is refused, never rounded; numpy integers are whole numbers."""
    hands = [["1S"]] * 4
    for bad in (1.5, "3", True):
        with pytest.raises(TypeError, match="deal must be a whole number"):
            Game(players=4, seed=0, deal=bad)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="dealer must be a seat 0 to 3"):
            Game(players=4, hands=hands, chien=[], dealer=bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="dealer must be a seat 0 to 3"):
        Game(players=4, hands=hands, chien=[], dealer=1.7)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="deal must be at most"):
        Game(players=4, seed=0, deal=2**63)
    with pytest.raises(ValueError, match="deal must be at least 0"):
        Game(players=4, seed=0, deal=-1)
    with pytest.raises(TypeError, match="seed must be an integer"):
        Game(players=4, seed=1.5, deal=0)  # type: ignore[arg-type]
    numpy_deal = Game(players=4, seed=np.int64(5), deal=np.int64(2))  # type: ignore[arg-type]
    assert numpy_deal.to_act == Game(players=4, seed=5, deal=2).to_act and numpy_deal.deal == 2


def test_an_action_number_out_of_range_or_not_whole_is_refused_and_changes_nothing() -> None:
    """``apply_number`` (OpenSpiel's and PettingZoo's ids): the legal ones apply, anything
    else is refused naming the legal actions with their numbers."""
    names = actions(4)
    game = Game(players=4, seed=0, deal=1)
    before = game.observation().info_string()
    for bad in (-160, -1, len(names), 10**30, 1.7, 0.0, None, True, "0", np.float64(1)):
        with pytest.raises(ValueError, match=r"legal actions: 0 \(pass\), 1 \(prise\)"):
            game.apply_number(bad, names)
    with pytest.raises(ValueError, match=r"cannot play action 100 \(5H\) in the bid phase"):
        game.apply_number(100, names)
    assert game.observation().info_string() == before
    assert game.apply_number(np.int64(1), names) == "prise"
    assert game.observation().bids == ("prise",)


def test_clone_is_independent() -> None:
    game = Game(players=5, seed=3, deal=2)
    rng = random.Random(0)
    for _ in range(8):
        if game.over:
            break
        game.apply(rng.choice(game.legal_actions()))
    copy = game.clone()
    text = game.observation(0).info_string()
    _random_to_end(copy, random.Random(1))
    assert game.observation(0).info_string() == text
    assert not game.over or copy.over
    _random_to_end(game, random.Random(1))
    assert game.to_trace() == copy.to_trace()


def test_info_string_is_equal_exactly_for_equal_information() -> None:
    hands = [
        "1S 2S 3S 4S 5S 6S 7S 8S 9S 10S JS CS QS KS 1H 2H 3H 4H".split(),
        "5H 6H 7H 8H 9H 10H JH CH QH KH 1D 2D 3D 4D 5D 6D 7D 8D".split(),
        "9D 10D JD CD QD KD 1C 2C 3C 4C 5C 6C 7C 8C 9C 10C JC CC".split(),
        "QC KC T1 T2 T3 T4 T5 T6 T7 T8 T9 T10 T11 T12 T13 T14 T15 T16".split(),
    ]
    chien = "T17 T18 T19 T20 T21 EX".split()
    swapped = [list(h) for h in hands]
    swapped[1][0], swapped[2][0] = swapped[2][0], swapped[1][0]  # seats 1 and 2 swap a card
    a = Game(players=4, hands=hands, chien=chien, dealer=3)
    b = Game(players=4, hands=swapped, chien=chien, dealer=3)
    assert a.observation(0).info_string() == b.observation(0).info_string()
    assert a.observation(0) == b.observation(0)
    assert a.observation(1).info_string() != b.observation(1).info_string()
    a.apply("prise")
    assert a.observation(0).info_string() != b.observation(0).info_string()
    b.apply("prise")
    assert a.observation(3).info_string() == b.observation(3).info_string()


def test_tensor_has_one_length_for_every_table() -> None:
    for players in (3, 4, 5):
        game = Game(players=players, seed=2, deal=0)
        rng = random.Random(players)
        while not game.over:
            vector = game.observation().tensor()
            assert vector.shape == (TENSOR_LENGTH,) and vector.dtype.name == "float32"
            assert vector.sum() >= len(game.legal_actions())
            game.apply(rng.choice(game.legal_actions()))


def test_given_cards_are_checked() -> None:
    with pytest.raises(ValueError, match="hands"):
        Game(players=3, hands=[["KS"]], chien=[])
    with pytest.raises(TypeError):
        Game(players=4, seed=1, hands=[[]] * 4, chien=[])
    with pytest.raises(ValueError, match="over"):
        game = Game(players=4, seed=0, deal=0)
        _random_to_end(game, random.Random(0)).apply("pass")
