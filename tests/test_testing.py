"""tarotsim.interfaces.testing.check_no_peeking: it passes honest players of every kind and catches a
player that reads what its seat cannot know."""

from __future__ import annotations

import sys

import numba
import numpy as np
import pytest

from tarotsim import Strategy
from tarotsim.interfaces.game import Game, Observation
from tarotsim.interfaces.testing import NoPeekingReport, PeekingError, check_no_peeking
from tarotsim.players.view import card_count, lowest_card


@numba.njit
def lowest(view, legal0, legal1, options):  # type: ignore[no-untyped-def]
    return lowest_card(legal0, legal1)


@numba.njit
def by_trumps(view, options):  # type: ignore[no-untyped-def]
    """Garde from 8 trumps, Prise from 6, else pass."""
    trumps = card_count(view.hand1, np.uint64(0))
    return 2 if trumps >= 8 else (1 if trumps >= 6 else 0)


def first_legal(observation: Observation) -> str:
    """The first legal action, but a Prise at the auction when it may."""
    legal = observation.legal_actions
    return legal[1] if observation.phase == "bid" and len(legal) > 1 else legal[0]


def peeking(observation: Observation) -> str:
    """Finds the game it is asked from on the interpreter's stack and plays high when the
    next seat holds the 21: what Python lets a player do, and the harness must catch."""
    frame = sys._getframe(1)
    while frame is not None:
        game = next((v for v in frame.f_locals.values() if isinstance(v, Game)), None)
        if game is not None:
            following = (observation.seat + 1) % observation.players
            holds_21 = int(game._tb.hands[following, 1]) >> 20 & 1
            return observation.legal_actions[-1 if holds_21 else 0]
        frame = frame.f_back
    return observation.legal_actions[0]


@pytest.mark.parametrize(
    "strategy",
    [
        "play=greedy,poignee=smart",
        Strategy(play=first_legal),
        Strategy(play=lowest, bid=by_trumps),
        first_legal,
    ],
    ids=["builtin", "python-card", "numba-card-and-bid", "python-act"],
)
def test_honest_players_of_every_kind_pass(strategy: object) -> None:
    report = check_no_peeking(strategy, deals=4, seed=1, redeals=2)
    assert isinstance(report, NoPeekingReport)
    assert report.decisions > 10 and report.redeals_made >= report.decisions
    assert "no peeking found" in str(report)


def test_five_players_move_the_secret_partner_too() -> None:
    report = check_no_peeking("play=heuristic", players=5, deals=3, seed=2, redeals=1)
    assert report.by_phase.get("play", 0) > 5


def test_a_player_reading_the_game_is_caught() -> None:
    with pytest.raises(
        PeekingError, match=r"play=tests.test_testing:peeking peeks: at deal \d+, seat \d's play decision"
    ) as error:
        check_no_peeking(Strategy(play=peeking), deals=10, seed=3)
    assert "dealt differently" in str(error.value)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="share"):
        check_no_peeking("play=greedy", share=0)
