"""tarotsim: a fast, exact Monte Carlo simulator of French Tarot under the FFT rules."""

from tarotsim.cards import format_card, parse_card, parse_cards
from tarotsim.config import RunConfig
from tarotsim.dealing import Deals, deal
from tarotsim.duel import DuelResult, duel
from tarotsim.evaluate import evaluate_hand
from tarotsim.hand import HandAnalysis, analyse_hand
from tarotsim.labels import Contract, Side
from tarotsim.simulate import simulate, sweep
from tarotsim.strategy import Strategy

__version__ = "0.3.0"

__all__ = [
    "Contract",
    "Deals",
    "DuelResult",
    "HandAnalysis",
    "RunConfig",
    "Side",
    "Strategy",
    "__version__",
    "analyse_hand",
    "deal",
    "duel",
    "evaluate_hand",
    "format_card",
    "parse_card",
    "parse_cards",
    "simulate",
    "sweep",
]
