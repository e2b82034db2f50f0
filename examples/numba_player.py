"""Worked example: a rule-based card player written as a Numba function, dueled against the heuristic.

The same rule as ``examples/python_player.py``, compiled into the game loop: the function
receives its seat's view (``tarotsim.players.view.SeatView``: its hand, the trick in play, the
cards played…), its legal cards as a card set (two ``uint64`` words) and its strategy's
``params``, and returns the id of a legal card. It plays the card play only; the bids, the
écart and the announcements are the strategy's named policies. Its rule:

- leading: its highest card of its longest plain suit (a King drives the suit home);
- following: its lowest legal card (card id order: the Excuse last), saving its high cards.

Run it from the repository root: ``python examples/numba_player.py``. The first run
compiles the function (a second) and the game for Numba players (about 15 CPU seconds once
the game itself is compiled; ``cache=True`` keeps both for later runs).
"""

from __future__ import annotations

import numba
import numpy as np

import tarotsim
from tarotsim.players.view import INFO_TRICK_LEN, card_count, highest_card, lowest_card, suit_cards

DEALS = 2000
SEED = 2024


@numba.njit(cache=True)
def leader_or_lowest(view, legal0, legal1, options):  # type: ignore[no-untyped-def]
    """Lead the longest plain suit from the top; follow with the lowest legal card."""
    if view.info[INFO_TRICK_LEN] == 0:
        best, longest = -1, 0
        for suit in range(4):
            held0, held1 = suit_cards(view.hand0, view.hand1, suit)
            held = card_count(held0, held1)
            playable = suit_cards(legal0, legal1, suit)[0]
            if playable != np.uint64(0) and held > longest:
                best, longest = suit, held
        if best >= 0:
            return highest_card(suit_cards(legal0, legal1, best)[0], np.uint64(0))
    return lowest_card(legal0, legal1)


def main(deals: int = DEALS) -> None:
    mine = tarotsim.Strategy(play=leader_or_lowest, ecart="expert", name="numba-rules")
    result = tarotsim.duel(mine, "play=heuristic,ecart=expert", deals, seed=SEED, players=4)
    print(result.summary())


if __name__ == "__main__":
    main()
