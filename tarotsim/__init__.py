"""tarotsim: a fast, exact Monte Carlo simulator of French Tarot under the FFT rules."""

from tarotsim._version import __version__
from tarotsim.cards import format_card, parse_card, parse_cards
from tarotsim.chavey import evaluate_hand
from tarotsim.config import RunConfig
from tarotsim.duel import DuelResult, duel
from tarotsim.labels import Contract, Side
from tarotsim.simulate import simulate, sweep
from tarotsim.strategy import Strategy

__all__ = [
    "Contract",
    "DuelResult",
    "RunConfig",
    "Side",
    "Strategy",
    "__version__",
    "duel",
    "evaluate_hand",
    "format_card",
    "parse_card",
    "parse_cards",
    "simulate",
    "sweep",
]
