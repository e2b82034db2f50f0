"""tarotsim: a fast, exact Monte Carlo simulator of French Tarot under the FFT rules."""

from tarotsim.cards import format_card, parse_card, parse_cards
from tarotsim.config import RunConfig
from tarotsim.evaluate import evaluate_hand
from tarotsim.labels import Contract, Side
from tarotsim.simulate import simulate, sweep

__version__ = "0.1.0"

__all__ = [
    "Contract",
    "RunConfig",
    "Side",
    "__version__",
    "evaluate_hand",
    "format_card",
    "parse_card",
    "parse_cards",
    "simulate",
    "sweep",
]
