"""French Tarot as an OpenSpiel game: ``import tarotsim.interfaces.openspiel`` registers
``python_french_tarot`` with ``pyspiel`` (the optional extra ``tarotsim[openspiel]``).

>>> import pyspiel, tarotsim.interfaces.openspiel
>>> game = pyspiel.load_game("python_french_tarot", {"players": 4})
>>> game.num_players(), game.num_distinct_actions()
(4, 160)

The game is one deal of `tarotsim.Game` (the same kernels, the same rules):

- **Chance.** The deal is explicit chance, card by card: the cards in id order
  (``tarotsim.engine.cards``), each to a seat or the chien, with probability the room that holder
  has left over the cards left to deal (chance outcome ``h``: seat ``h``, or the chien for
  ``h == players``). Every deal has probability ``1 / (78! / (hand! ** players * chien!))``:
  the deal is uniform, and each chance node has at most six outcomes. [`deal_state`][tarotsim.interfaces.openspiel.deal_state]
  gives the state that a given deal (e.g. deal ``i`` of a run of ``tarotsim.simulate``)
  reaches once dealt.
- **Actions.** Action ``i`` is ``tarotsim.actions(players)[i]`` (the auction, the call with
  five players, the écart one card at a time, the poignée, the chelem, the 78 cards).
- **Parameters.** ``players`` (3, 4 or 5; default 4) and ``dealer`` (the seat that deals,
  default 0; the auction starts on its right).
- **Returns.** Each seat's score (points, zero-sum) when the deal is over; a deal thrown
  in (a petit sec, or every seat passing) scores 0 for all. The game is declared
  zero-sum: the scores sum to 0 in every deal, as OpenSpiel's bridge, a game of teams, is.
- **Observations.** The observation string and tensor are the seat's
  `tarotsim.Observation.info_string` and `tarotsim.Observation.tensor`; the
  information state adds what perfect recall needs: the order in which the taker laid its
  écart, and (tensor) the trick in which each card was played. Other observation types
  (public only, private only, every hand) are the corresponding parts of the same
  fields ([`TarotObserver`][tarotsim.interfaces.openspiel.TarotObserver]).
- **Resampling.** ``state.resample_from_infostate(player, sampler)`` draws a state uniformly
  among the deals consistent with everything ``player`` knows ([`resample`][tarotsim.interfaces.openspiel.resample]), so that
  OpenSpiel's Python IS-MCTS (``open_spiel.python.algorithms.ismcts``) plays the game.

The package, one job a module: ``pyspiel_game`` (the game and its states), ``observer`` (what a seat
observes), ``resampling`` (a given deal's state, and the exact resampling from a seat's
information), ``players`` (OpenSpiel bots as tarotsim players, tarotsim's built-in players as OpenSpiel bots), ``spec`` (what every game
shares: the name, the table, [`load`][tarotsim.interfaces.openspiel.load]), ``cardsets`` (card sets as Python ints).
"""

from __future__ import annotations

try:
    import pyspiel
except ImportError as err:  # pragma: no cover - depends on the environment
    raise ImportError(
        "tarotsim.interfaces.openspiel needs OpenSpiel (tarotsim's extra 'openspiel'): pip install open-spiel"
    ) from err

# names outside ``__all__`` kept where they were: the card names by id, the fields' widths
from tarotsim.interfaces.openspiel.cardsets import _NAMES as _NAMES
from tarotsim.interfaces.openspiel.observer import TarotObserver
from tarotsim.interfaces.openspiel.players import BuiltinBot, OpenSpielPlayer, ismcts_player, pimc_bot
from tarotsim.interfaces.openspiel.pyspiel_game import _TYPE, FrenchTarotGame, FrenchTarotState
from tarotsim.interfaces.openspiel.resampling import (
    deal_state,
    observed_moves,
    resample,
    state_from_observation,
)
from tarotsim.interfaces.openspiel.spec import MAX_ECART as MAX_ECART
from tarotsim.interfaces.openspiel.spec import MAX_TRICKS as MAX_TRICKS
from tarotsim.interfaces.openspiel.spec import SHORT_NAME, load

pyspiel.register_game(_TYPE, FrenchTarotGame)

__all__ = [
    "SHORT_NAME",
    "BuiltinBot",
    "FrenchTarotGame",
    "FrenchTarotState",
    "OpenSpielPlayer",
    "TarotObserver",
    "deal_state",
    "ismcts_player",
    "load",
    "observed_moves",
    "pimc_bot",
    "resample",
    "state_from_observation",
]
