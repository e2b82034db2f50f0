"""Worked example: a small card-play policy, added to tarotsim and put through a duel.

The policy is ``greedy``: take the trick with the cheapest card that beats the card
winning it, else play the cheapest card (the Excuse goes before the last trick). It was
added the way the guide's page "Your own player" (docs/tasks/own-player.md) describes:

1. its kernel, ``tarotsim/players/kernels/policies/greedy.py`` (``greedy_card``: the seat's
   ``SeatView`` and its legal cards in, a card id out; it reads its own hand and the
   trick in play);
2. its code, ``PLAY_GREEDY = 2`` in ``tarotsim/players/kernels/policies/codes.py``, and one branch
   in ``playout_card`` (``tarotsim/players/kernels/policies/play.py``);
3. its name, ``"greedy"`` in ``PLAY_POLICIES`` (``tarotsim/players/policies.py``); from then on it is
   a strategy's ``play=greedy`` and the no-peeking test (``tests/test_no_peeking.py``,
   parametrized over ``PLAY_POLICIES``) replays its decisions with the unseen cards dealt
   again.

This script prints the policy's source, then duels it: against random play (does it beat
chance?) and against the heuristic (how far is it from a good player?). Run it from the
repository root: ``python examples/greedy_duel.py`` (a few seconds once the kernels are
compiled; about a minute the first time).
"""

from __future__ import annotations

import inspect

import tarotsim
from tarotsim.players.kernels.policies import greedy

DEALS = 20_000
SEED = 2024


def main() -> None:
    print(inspect.getsource(greedy.greedy_card))
    greedy_play = tarotsim.Strategy.parse("play=greedy,ecart=expert")
    for opponent in ("play=random,ecart=expert", "play=heuristic,ecart=expert"):
        result = tarotsim.duel(greedy_play, opponent, DEALS, seed=SEED, players=4)
        print(result.summary())
        roles = result.by_role.set_index("role")
        for role in ("taker", "defender"):
            row = roles.loc[role]
            print(
                f"  as {role}: A scores {row.a_mean:+.1f}, B {row.b_mean:+.1f} (A - B {row.a_minus_b:+.1f}, "
                f"95% interval [{row.a_minus_b_low:+.1f}, {row.a_minus_b_high:+.1f}])"
            )
        print()


if __name__ == "__main__":
    main()
