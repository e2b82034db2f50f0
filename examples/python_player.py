"""Worked example: a rule-based card player written in Python, dueled against the heuristic.

The player sees only its seat's observation (``tarotsim.Observation``: its hand, the
trick in play, the cards played, the bids…) and returns one of its legal actions. Here it
plays the card play only (``Strategy(play=…)``); the bids, the écart and the announcements
are the strategy's named policies. Its rule:

- leading: its highest card of its longest plain suit (a King drives the suit home);
- following: its lowest legal card (card id order: the Excuse last), saving its high cards.

Run it from the repository root: ``python examples/python_player.py`` (a Python player's
deals are played step by step: a few hundred deals take a few seconds once the kernels are
compiled).
"""

from __future__ import annotations

import tarotsim
from tarotsim.engine.cards import parse_card
from tarotsim.interfaces.game import Observation

DEALS = 200
SEED = 2024


def _suit(card: str) -> str:
    return "T" if card.startswith("T") or card == "EX" else card[-1]


def leader_or_lowest(observation: Observation) -> str:
    """Lead the longest plain suit from the top; follow with the lowest legal card."""
    legal = list(observation.legal_actions)
    if not observation.trick:
        plain = [c for c in legal if _suit(c) != "T"]
        if plain:
            longest = max(
                {_suit(c) for c in plain}, key=lambda s: sum(_suit(c) == s for c in observation.hand)
            )
            return max((c for c in plain if _suit(c) == longest), key=parse_card)
        return min(legal, key=parse_card)
    return min(legal, key=parse_card)


def main(deals: int = DEALS) -> None:
    mine = tarotsim.Strategy(play=leader_or_lowest, ecart="expert", name="python-rules")
    result = tarotsim.duel(mine, "play=heuristic,ecart=expert", deals, seed=SEED, players=4)
    print(result.summary())


if __name__ == "__main__":
    main()
