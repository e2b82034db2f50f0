"""Numba card players: compiled into the game, exact, thread-independent, and loud when they err.

Every run here with a Numba player shares one compilation of the game for Numba players
(``players.kernels.user``), whatever the functions; each function below compiles alone (tiny).
"""

from __future__ import annotations

import importlib
from pathlib import Path

import numba
import numpy as np
import pandas as pd
import pytest

from tarotsim import Strategy, duel, simulate
from tarotsim.base.seeding import run_key
from tarotsim.interfaces.python_players import PlayerError
from tarotsim.players.config import RunConfig
from tarotsim.players.kernels.policies.greedy import greedy_card
from tarotsim.players.view import card_count, holds, lowest_card
from tarotsim.runs.trace import iter_traces


@numba.njit
def lowest(view, legal0, legal1, options):  # type: ignore[no-untyped-def]
    return lowest_card(legal0, legal1)


@numba.njit
def as_greedy(view, legal0, legal1, options):  # type: ignore[no-untyped-def]
    """The built-in greedy player, as a user's function: it reads the same view."""
    return greedy_card(view, legal0, legal1)


@numba.njit
def lowest_or_offset(view, legal0, legal1, options):  # type: ignore[no-untyped-def]
    """The lowest legal card, or the card ``options[0]`` above it when that one is legal."""
    card = lowest_card(legal0, legal1) + np.int64(options[0])
    return card if card < 78 and holds(legal0, legal1, card) else lowest_card(legal0, legal1)


@numba.njit
def a_king_of_spades(view, legal0, legal1, options):  # type: ignore[no-untyped-def]
    """Plays the King of spades (id 13) when it is its turn at trick 3, legal or not."""
    if view.info[6] == 2:
        return 13
    return lowest_card(legal0, legal1)


def test_numba_player_plays_as_the_builtin_it_copies() -> None:
    """A function calling the built-in greedy kernel gives greedy's records exactly."""
    mine = simulate(40, seed=4, strategies=[Strategy(play=as_greedy)] * 4)
    builtin = simulate(40, seed=4, strategies=[Strategy(play="greedy")] * 4)
    labels = [c for c in mine.columns if not c.startswith("strategy")]
    pd.testing.assert_frame_equal(mine[labels], builtin[labels])
    assert mine["strategy_0"].iloc[0] == "play=tests.test_numba_player:as_greedy"
    result = duel(Strategy(play=as_greedy), "play=greedy", 30, seed=2)
    assert result.edge == 0


def test_numba_duel_is_duplicate_and_thread_independent() -> None:
    mine = Strategy(play=lowest, name="low")
    one = duel(mine, "play=heuristic", 50, seed=9, players=5, threads=1)
    two = duel(mine, "play=heuristic", 50, seed=9, players=5, threads=2)
    pd.testing.assert_frame_equal(one.records, two.records)
    assert one.edge < 0  # the lowest card loses to the heuristic
    same = duel(mine, mine, 20, seed=9, players=3)
    assert same.edge == 0


def test_params_reach_the_function_and_name_the_strategy() -> None:
    plain = simulate(30, seed=1, strategies=[Strategy(play=lowest_or_offset, params=[0])] * 4)
    shifted = Strategy(play=lowest_or_offset, params=[1])
    other = simulate(30, seed=1, strategies=[shifted] * 4)
    assert str(shifted) == "play=tests.test_numba_player:lowest_or_offset,params=1"
    low = simulate(30, seed=1, strategies=[Strategy(play=lowest)] * 4)
    labels = [c for c in low.columns if not c.startswith("strategy")]
    pd.testing.assert_frame_equal(plain[labels], low[labels])
    assert not other[labels].equals(low[labels])


def test_a_side_can_keep_a_named_policy() -> None:
    split = Strategy(play=as_greedy, defence_play="heuristic")
    builtin = Strategy(play="greedy", defence_play="heuristic")
    a = simulate(30, seed=3, strategies=[split] * 4)
    b = simulate(30, seed=3, strategies=[builtin] * 4)
    labels = [c for c in a.columns if not c.startswith("strategy")]
    pd.testing.assert_frame_equal(a[labels], b[labels])


def test_a_trace_names_the_numba_player() -> None:
    config = RunConfig(strategies=(Strategy(play=lowest),) * 4)
    traces = list(iter_traces(3, run_key(1), config))
    assert traces[0]["strategies"] == ["play=tests.test_numba_player:lowest"] * 4
    assert all(len(t["tricks"]) in (0, 18) for t in traces)


def test_an_illegal_card_stops_the_run_naming_seat_deal_decision_and_legal_cards() -> None:
    seats = [Strategy(play=a_king_of_spades)] + [Strategy(play="heuristic")] * 3
    messages = []
    for threads in (1, 2):
        with pytest.raises(PlayerError) as error:
            simulate(200, seed=6, strategies=seats, threads=threads)
        messages.append(str(error.value))
    assert messages[0] == messages[1]
    assert "Numba player a_king_of_spades in seat 0 returned 13 (KS), not a legal card" in messages[0]
    assert "at deal " in messages[0] and "trick 3" in messages[0] and "legal cards: " in messages[0]


def test_a_function_of_another_signature_is_a_one_line_type_error() -> None:
    @numba.njit
    def two_arguments(view, legal0):  # type: ignore[no-untyped-def]
        return 0

    @numba.njit
    def writes_its_view(view, legal0, legal1, options):  # type: ignore[no-untyped-def]
        view.info[0] = 1
        return 0

    for bad in (two_arguments, writes_its_view):
        with pytest.raises(TypeError, match=r"must be card\(view: SeatView, legal0: uint64") as error:
            Strategy(play=bad)
        assert "\n" not in str(error.value)
    with pytest.raises(TypeError, match="give it as play="):
        Strategy(act=lowest)
    with pytest.raises(ValueError, match="params= goes with a Numba player"):
        Strategy(play="heuristic", params=[1.0])
    with pytest.raises(TypeError, match="params must be a sequence of numbers"):
        Strategy(play=lowest, params="fast")


@pytest.mark.parametrize("name", ["python_player", "numba_player"])
def test_the_examples_duel_the_heuristic(
    name: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parent.parent / "examples"))
    module = importlib.import_module(name)
    module.main(deals=6)
    out = capsys.readouterr().out
    assert "A's edge" in out and "rules" in out


@numba.njit
def prise_from(view, options):  # type: ignore[no-untyped-def]
    """Wishes a Prise from ``options[0]`` trumps held (the Excuse counted), else passes."""
    return 1 if card_count(view.hand1, np.uint64(0)) >= options[0] else 0


@numba.njit
def too_high(view, options):  # type: ignore[no-untyped-def]
    return 9


@numba.njit
def a_card_and_a_half(view, legal0, legal1, options):  # type: ignore[no-untyped-def]
    return 1.5


@numba.njit
def any_legal(view, options):  # type: ignore[no-untyped-def]
    return options.size == 0


def test_a_numba_player_must_return_a_whole_number() -> None:
    """Compiled for int64 it returned 1.5 as 1, silently: its own return type is checked."""
    with pytest.raises(
        TypeError, match=r"Numba card player a_card_and_a_half returns float64; it must return"
    ):
        Strategy(play=a_card_and_a_half)
    with pytest.raises(TypeError, match=r"Numba bidder any_legal returns bool; it must return"):
        Strategy(bid=any_legal)


def test_a_numba_bidder_bids_its_wish() -> None:
    mine = Strategy(bid=prise_from, params=[0], name="always")
    records = simulate(40, seed=8, strategies=[mine] * 4)
    played = records[records["taker"].notna()]
    assert len(played) > 30 and (played["contract"].astype(str) == "prise").all()
    assert (played["taker"] == (played["dealer"] + 1) % 4).all()
    assert (
        str(Strategy(bid=prise_from, params=[7]))
        == "play=heuristic,bid=tests.test_numba_player:prise_from,params=7"
    )
    with pytest.raises(
        PlayerError, match=r"Numba bidder too_high in seat \d returned 9, not a wish, at deal 0"
    ):
        simulate(5, seed=8, strategies=[Strategy(bid=too_high)] * 4)
    with pytest.raises(TypeError, match=r"must be bid\(view: SeatView, options: float64"):
        Strategy(bid=lowest)
