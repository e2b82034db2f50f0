"""tarotsim: a fast, exact Monte Carlo simulator of French Tarot under the FFT rules.

The public API is imported on first use (``tarotsim.simulate`` loads the engine), so that
``import tarotsim`` and the command line's ``--help`` start without Numba or pandas.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from tarotsim._version import __version__

if TYPE_CHECKING:
    from tarotsim.analysis.hand import HandAnalysis, analyse_hand
    from tarotsim.contests.duel import DuelResult, duel
    from tarotsim.contests.tournament import tournament
    from tarotsim.engine.cards import format_card, parse_card, parse_cards
    from tarotsim.engine.chavey import evaluate_hand
    from tarotsim.engine.dealing import Deals, deal
    from tarotsim.engine.labels import Contract, Side
    from tarotsim.interfaces.game import Game, Observation, actions
    from tarotsim.interfaces.vecenv import VecEnv
    from tarotsim.players.config import RunConfig
    from tarotsim.players.strategy import Strategy
    from tarotsim.runs.simulate import simulate, sweep

_HOMES = {
    "Contract": "tarotsim.engine.labels",
    "Deals": "tarotsim.engine.dealing",
    "DuelResult": "tarotsim.contests.duel",
    "Game": "tarotsim.interfaces.game",
    "HandAnalysis": "tarotsim.analysis.hand",
    "Observation": "tarotsim.interfaces.game",
    "RunConfig": "tarotsim.players.config",
    "Side": "tarotsim.engine.labels",
    "Strategy": "tarotsim.players.strategy",
    "VecEnv": "tarotsim.interfaces.vecenv",
    "actions": "tarotsim.interfaces.game",
    "analyse_hand": "tarotsim.analysis.hand",
    "deal": "tarotsim.engine.dealing",
    "duel": "tarotsim.contests.duel",
    "evaluate_hand": "tarotsim.engine.chavey",
    "format_card": "tarotsim.engine.cards",
    "parse_card": "tarotsim.engine.cards",
    "parse_cards": "tarotsim.engine.cards",
    "simulate": "tarotsim.runs.simulate",
    "sweep": "tarotsim.runs.simulate",
    "tournament": "tarotsim.contests.tournament",
}
"""Each public name → the module that defines it."""
_MODULES = {
    "testing": "tarotsim.interfaces.testing",
    "view": "tarotsim.players.view",
    "openspiel": "tarotsim.interfaces.openspiel",
    "pettingzoo": "tarotsim.interfaces.pettingzoo",
}
"""Public modules of the package, each name → its module, imported on first use
(``testing``: the no-peeking check; ``view``: for Numba players; the research interfaces
``openspiel`` and ``pettingzoo``, which need their extras, are left out of ``__all__``). The
Python players are ``tarotsim.interfaces.python_players``: ``tarotsim.players`` is the
players' layer."""

__all__ = [
    "Contract",
    "Deals",
    "DuelResult",
    "Game",
    "HandAnalysis",
    "Observation",
    "RunConfig",
    "Side",
    "Strategy",
    "VecEnv",
    "__version__",
    "actions",
    "analyse_hand",
    "deal",
    "duel",
    "evaluate_hand",
    "format_card",
    "parse_card",
    "parse_cards",
    "simulate",
    "sweep",
    "testing",
    "tournament",
    "view",
]


def __getattr__(name: str) -> Any:
    """A public name, imported from its module on first use and kept."""
    if name in _MODULES:
        return import_module(_MODULES[name])
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'tarotsim' has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
