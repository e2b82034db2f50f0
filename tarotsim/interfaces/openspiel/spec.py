"""What every game of ``tarotsim.interfaces.openspiel`` shares: its registered name, the widths of its
observation fields, the table's spec, and [`load`][tarotsim.interfaces.openspiel.spec.load].

The modules the game is built from (this one, the observer, the resampling, the bots) annotate
its games and states with pyspiel's base types, ``pyspiel.Game`` and ``pyspiel.State``: the
game's module imports them, so they do not import it back."""

from __future__ import annotations

from typing import Any

import pyspiel

from tarotsim.engine.labels import TABLE_SIZES
from tarotsim.interfaces.game import actions

SHORT_NAME = "python_french_tarot"
"""The name the game is registered under: ``pyspiel.load_game(SHORT_NAME)``."""

MAX_TRICKS = max(hand for hand, _ in TABLE_SIZES.values())
"""Tricks of the longest deal (three players), the width of the trick-of-each-card field."""
MAX_ECART = max(chien for _, chien in TABLE_SIZES.values())
"""Cards of the largest écart, the rows of the écart-order field."""


class _Spec:
    """What every state of a game shares (never copied with a state)."""

    def __init__(self, players: int, dealer: int) -> None:
        self.players = players
        self.dealer = dealer
        self.hand_size, self.chien_size = TABLE_SIZES[players]
        self.actions = tuple(actions(players))
        self.action_ids = {name: i for i, name in enumerate(self.actions)}

    def room_of(self, holder: int) -> int:
        """Cards dealt to ``holder``: a seat (0 … players - 1) or the chien (``players``)."""
        return self.chien_size if holder == self.players else self.hand_size

    def __deepcopy__(self, memo: dict[int, Any]) -> _Spec:
        return self


_GAMES: dict[tuple[int, int], pyspiel.Game] = {}


def load(players: int = 4, dealer: int = 0) -> pyspiel.Game:
    """``pyspiel.load_game("python_french_tarot", {"players": players, "dealer": dealer})``,
    made once per table size and dealer."""
    key = (players, dealer)
    if key not in _GAMES:
        _GAMES[key] = pyspiel.load_game(SHORT_NAME, {"players": players, "dealer": dealer})
    return _GAMES[key]
