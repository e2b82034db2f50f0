"""The hands of a run's deals dealt again from its key, exactly as the run dealt them.

A deal's cards depend on the run key and the deal number alone (``engine.kernels.rng``): the game
(``players.kernels.seats.play_deal``) seeds the deal's stream, shuffles the pack and deals it before
anything else draws from the stream. ``dealt_hands`` repeats those three steps, so a
sweep's records, which keep hand features but not the cards, can be joined to the cards
of its taking seat. Shuffled dealing only: an unshuffled deal depends on the play of the
deals before it.
"""

from __future__ import annotations

import numpy as np

from tarotsim._jit import njit
from tarotsim.engine.cards import N_CARDS
from tarotsim.engine.kernels.deal import deal_pack, shuffle_pack
from tarotsim.engine.kernels.rng import STREAM_WORDS, seed_stream
from tarotsim.engine.kernels.state import MAX_SEATS


@njit
def dealt_hands(
    key: np.ndarray, deals: np.ndarray, players: int, hand_size: int, seat: int, out: np.ndarray
) -> None:
    """``seat``'s hand as dealt in each deal of ``deals`` (int64[n], deal numbers) of the run
    whose key is ``key`` (uint64[4]), into ``out`` (uint64[n, 2], card words)."""
    rng = np.zeros(STREAM_WORDS, dtype=np.uint64)
    pack = np.zeros(N_CARDS, dtype=np.int64)
    hands = np.zeros((MAX_SEATS, 2), dtype=np.uint64)
    chien = np.zeros(2, dtype=np.uint64)
    for i in range(deals.shape[0]):
        seed_stream(rng, key, deals[i])
        shuffle_pack(rng, pack)
        deal_pack(pack, hands, chien, players, hand_size)
        out[i, 0] = hands[seat, 0]
        out[i, 1] = hands[seat, 1]
