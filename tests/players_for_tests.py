"""Players importable by name (``tests.players_for_tests:first`` …), for the tests of players
named by import path: a Python player, a Python player object, a Numba card player and a
Numba bidder."""

from __future__ import annotations

import numba
import numpy as np

from tarotsim.game import Observation
from tarotsim.view import card_count, lowest_card


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


@numba.njit(cache=True)
def lowest(view, legal0, legal1, options):  # type: ignore[no-untyped-def]
    """The lowest legal card."""
    return lowest_card(legal0, legal1)


@numba.njit(cache=True)
def prise_from(view, options):  # type: ignore[no-untyped-def]
    """Wishes a Prise from ``options[0]`` trumps held (the Excuse counted), else passes."""
    return 1 if card_count(view.hand1, np.uint64(0)) >= options[0] else 0


NOT_A_PLAYER = 3
"""Neither a function nor a player: naming it is an error."""
