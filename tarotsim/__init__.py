"""tarotsim: a fast, exact Monte Carlo simulator of French Tarot under the FFT rules.

The public API is imported on first use (``tarotsim.simulate`` loads the engine), so that
``import tarotsim`` and the command line's ``--help`` start without Numba or pandas.
"""

from __future__ import annotations

import sys
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, Any

from tarotsim._version import __version__

if TYPE_CHECKING:
    from tarotsim.cards import format_card, parse_card, parse_cards
    from tarotsim.chavey import evaluate_hand
    from tarotsim.config import RunConfig
    from tarotsim.dealing import Deals, deal
    from tarotsim.duel import DuelResult, duel
    from tarotsim.game import Game, Observation, actions
    from tarotsim.hand import HandAnalysis, analyse_hand
    from tarotsim.labels import Contract, Side
    from tarotsim.simulate import simulate, sweep
    from tarotsim.strategy import Strategy
    from tarotsim.tournament import tournament
    from tarotsim.vecenv import VecEnv

_HOMES = {
    "Contract": "tarotsim.labels",
    "Deals": "tarotsim.dealing",
    "DuelResult": "tarotsim.duel",
    "Game": "tarotsim.game",
    "HandAnalysis": "tarotsim.hand",
    "Observation": "tarotsim.game",
    "RunConfig": "tarotsim.config",
    "Side": "tarotsim.labels",
    "Strategy": "tarotsim.strategy",
    "VecEnv": "tarotsim.vecenv",
    "actions": "tarotsim.game",
    "analyse_hand": "tarotsim.hand",
    "deal": "tarotsim.dealing",
    "duel": "tarotsim.duel",
    "evaluate_hand": "tarotsim.chavey",
    "format_card": "tarotsim.cards",
    "parse_card": "tarotsim.cards",
    "parse_cards": "tarotsim.cards",
    "simulate": "tarotsim.simulate",
    "sweep": "tarotsim.simulate",
    "tournament": "tarotsim.tournament",
}
"""Each public name → the module that defines it."""
_MODULES = {
    "players": "tarotsim.players",
    "testing": "tarotsim.testing",
    "view": "tarotsim.view",
    "openspiel": "tarotsim.openspiel",
    "pettingzoo": "tarotsim.pettingzoo",
}
"""Public modules of the package, each name → its module, imported on first use (``tarotsim.players.builtin``,
``tarotsim.testing.check_no_peeking``, ``tarotsim.view`` for Numba players; the research
interfaces ``tarotsim.openspiel`` and ``tarotsim.pettingzoo``, which need their extras, are
left out of ``__all__``)."""

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
    "players",
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


class _Package(ModuleType):
    """The package, whose public names stay what they name when a module of the same name is
    imported: importing ``tarotsim/simulate.py`` sets ``tarotsim.simulate`` to that module,
    which would hide the function ``simulate`` it defines."""

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, ModuleType) and _HOMES.get(name) == value.__name__:
            value = getattr(value, name)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
