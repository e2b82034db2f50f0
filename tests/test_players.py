"""Python players in duels and runs: exact, deterministic, duplicate, and loud when they err."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from tarotsim import Strategy, duel, simulate
from tarotsim.interfaces import python_players as players
from tarotsim.interfaces.game import Observation
from tarotsim.interfaces.python_players import PlayerError
from tarotsim.interfaces.vecenv import MIN_BLOCK

DETERMINISTIC = ("play=heuristic,ecart=expert,poignee=smart", "play=greedy")


def lowest(observation: Observation) -> str:
    """The first legal action: the lowest card in the play."""
    return observation.legal_actions[0]


def _a_scores(records: pd.DataFrame, n: int) -> np.ndarray:
    scores = records[[f"score_{s}" for s in range(n)]].to_numpy()
    return scores[np.arange(len(records)), records["a_seat"].to_numpy()]


@pytest.mark.parametrize("spec", DETERMINISTIC)
@pytest.mark.parametrize("n", [3, 4, 5])
def test_builtin_as_python_player_has_edge_exactly_zero_on_every_deal(spec: str, n: int) -> None:
    result = duel(players.builtin(spec), spec, 4, seed=3, players=n)
    same = duel(spec, spec, 4, seed=3, players=n)
    # others_bid records what the other seats wished; a Python seat's wish is what it said
    labels = [c for c in same.records.columns if not c.startswith("strategy") and c != "others_bid"]
    pd.testing.assert_frame_equal(
        result.records[labels].reset_index(drop=True), same.records[labels].reset_index(drop=True)
    )
    per_deal = _a_scores(result.records, n).reshape(-1, n).sum(axis=1)
    assert (per_deal == 0).all() and result.edge == 0


def test_python_card_player_is_deterministic_and_thread_independent() -> None:
    seats = [Strategy(play=lowest, ecart="expert"), "play=heuristic", "play=heuristic", "play=heuristic"]
    one = simulate(3 * MIN_BLOCK, seed=5, strategies=seats, threads=1)  # blocks for two threads
    two = simulate(3 * MIN_BLOCK, seed=5, strategies=seats, threads=2)
    pd.testing.assert_frame_equal(one, two)
    assert one["strategy_0"].iloc[0] == "play=tests.test_players:lowest"


def test_card_player_gets_only_the_play_and_act_player_every_decision() -> None:
    seen: dict[str, set[str]] = {"play": set(), "act": set()}

    def watcher(kind: str):  # type: ignore[no-untyped-def]
        def player(observation: Observation) -> str:
            seen[kind].add(observation.phase)
            return observation.legal_actions[0]

        return player

    simulate(4, seed=1, strategies=[Strategy(play=watcher("play"))] + ["play=heuristic"] * 3)
    simulate(4, seed=1, strategies=[Strategy(act=watcher("act"))] + ["play=heuristic"] * 3)
    assert seen["play"] == {"play"}
    assert {"bid", "play"} <= seen["act"]


class Stubborn:
    """A player that always plays the King of Spades."""

    def act(self, observation: Observation) -> str:
        return "KS"


def test_illegal_or_raising_player_stops_the_run_naming_seat_deal_decision() -> None:
    with pytest.raises(
        PlayerError, match=r"seat 0 returned 'KS' at deal \d+, bid decision; legal actions: pass"
    ):
        simulate(1, seed=1, strategies=[Strategy(act=Stubborn())] + ["play=heuristic"] * 3)

    def broken(observation: Observation) -> str:
        raise RuntimeError("oops")

    with pytest.raises(
        PlayerError, match=r"seat \d raised RuntimeError\('oops'\) at deal \d+, play decision"
    ):
        duel(Strategy(play=broken), "play=heuristic", 1, seed=1, players=4)


def test_a_player_is_checked_when_made() -> None:
    with pytest.raises(TypeError, match="act= takes a player"):
        Strategy(act=3)
    with pytest.raises(ValueError, match="not one with a Python player"):
        players.builtin(Strategy(play=players.builtin("play=heuristic")))


def test_observations_a_player_keeps_stay_as_they_were_given() -> None:
    kept: list[tuple[Observation, str, str]] = []

    def keeper(observation: Observation) -> str:
        action = observation.legal_actions[-1]
        kept.append((observation, observation.info_string(), action))
        return action

    simulate(3, seed=2, strategies=[Strategy(act=keeper)] + ["play=heuristic"] * 3)
    assert len(kept) > 20
    for observation, text, action in kept:
        assert observation.info_string() == text and action in observation.legal_actions


@pytest.mark.parametrize("n", [3, 5])
def test_python_and_numba_players_at_one_table_give_the_numba_players_own_records(n: int) -> None:
    """Numba seats at a Python player's table decide as in a run without it: the same view and
    the same random stream (``any_card`` draws from it), whatever the threads."""
    from tests import players_for_tests as mine

    numba_seats = [Strategy(play=mine.any_card), Strategy(bid=mine.prise_from, params=[6])]
    seats = [*numba_seats, *["play=heuristic"] * (n - 2)]
    alone = simulate(3 * MIN_BLOCK, seed=7, strategies=seats, players=n)
    twin = [*numba_seats, players.builtin("play=heuristic"), *["play=heuristic"] * (n - 3)]
    one, two = (simulate(3 * MIN_BLOCK, seed=7, strategies=twin, players=n, threads=t) for t in (1, 2))
    pd.testing.assert_frame_equal(one, two)
    labels = [c for c in alone.columns if not c.startswith("strategy") and c != "others_bid"]
    pd.testing.assert_frame_equal(one[labels], alone[labels])
    mixed = duel(Strategy(play=mine.lowest), Strategy(play=mine.first), 30, seed=2, players=n)
    assert mixed.n == 30 and mixed.records["a_seat"].nunique() == n


def test_an_illegal_card_of_a_numba_player_at_a_python_players_table_names_it() -> None:
    from tests import players_for_tests as mine

    seats = [
        Strategy(play=mine.king_of_spades),
        Strategy(play=mine.first),
        "play=heuristic",
        "play=heuristic",
    ]
    messages = []
    for threads in (1, 2):
        with pytest.raises(PlayerError) as error:
            simulate(200, seed=6, strategies=seats, threads=threads)
        messages.append(str(error.value))
    assert messages[0] == messages[1]
    assert "Numba player king_of_spades in seat 0 returned 13 (KS), not a legal card, at deal " in messages[0]
    assert "trick 3" in messages[0] and "legal cards: " in messages[0]
