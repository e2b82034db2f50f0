"""Players importable by name (``tests.players_for_tests:first`` …), for the tests of players
named by import path and of tables mixing kinds of players: Python players (a function, an
object), Numba card players and a Numba bidder."""

from __future__ import annotations

import numba
import numpy as np

from tarotsim.interfaces.game import Observation
from tarotsim.interfaces.python_players import builtin
from tarotsim.players.view import card_count, draw, holds, lowest_card


def first(observation: Observation) -> str:
    """The first legal action: the lowest card in the play, the first choice elsewhere."""
    return observation.legal_actions[0]


class Last:
    """A player object: the last legal action."""

    def act(self, observation: Observation) -> str:
        """The last legal action."""
        return observation.legal_actions[-1]


last = Last()
"""A player object, named by the module attribute that holds it."""

twin = builtin("play=heuristic")
"""A player object whose class is another module's: named by the path it is loaded by."""


@numba.njit(cache=True)
def lowest(view, legal0, legal1, options):  # type: ignore[no-untyped-def]
    """The lowest legal card."""
    return lowest_card(legal0, legal1)


@numba.njit(cache=True)
def any_card(view, legal0, legal1, options):  # type: ignore[no-untyped-def]
    """A legal card drawn from the deal's random stream (which it advances)."""
    pick = draw(view.rng, card_count(legal0, legal1))
    for card in range(78):
        if holds(legal0, legal1, card):
            if pick == 0:
                return card
            pick -= 1
    return -1


@numba.njit(cache=True)
def king_of_spades(view, legal0, legal1, options):  # type: ignore[no-untyped-def]
    """Plays the King of spades (id 13) at trick 3, legal or not; else the lowest legal card."""
    if view.info[6] == 2:
        return 13
    return lowest_card(legal0, legal1)


@numba.njit(cache=True)
def prise_from(view, options):  # type: ignore[no-untyped-def]
    """Wishes a Prise from ``options[0]`` trumps held (the Excuse counted), else passes."""
    return 1 if card_count(view.hand1, np.uint64(0)) >= options[0] else 0


NOT_A_PLAYER = 3
"""Neither a function nor a player: naming it is an error."""
