"""tarotsim: a fast, exact Monte Carlo simulator of French Tarot under the FFT rules."""

from tarotsim import players  # noqa: E402  (a module of the public API: players.builtin)
from tarotsim.cards import format_card, parse_card, parse_cards
from tarotsim.config import RunConfig
from tarotsim.duel import DuelResult, duel
from tarotsim.evaluate import evaluate_hand
from tarotsim.game import Game, Observation, actions
from tarotsim.labels import Contract, Side
from tarotsim.simulate import simulate, sweep
from tarotsim.strategy import Strategy

__version__ = "0.3.0"

__all__ = [
    "Contract",
    "DuelResult",
    "Game",
    "Observation",
    "RunConfig",
    "Side",
    "Strategy",
    "__version__",
    "actions",
    "duel",
    "evaluate_hand",
    "format_card",
    "parse_card",
    "parse_cards",
    "players",
    "simulate",
    "sweep",
]
