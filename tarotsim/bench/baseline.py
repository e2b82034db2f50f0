"""The bare playout loop for benchmarks: the machine's practical limit for a complete deal,
measured against the full engine (``bench.works.playout_work``).

It deals, then plays random legal cards by bit operations with no bidding, no chien, no
Excuse rules and no count. The stages of a real deal are ``bench.stages``.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from tarotsim._jit import njit
from tarotsim.engine.cards import N_CARDS, NO_SUIT
from tarotsim.engine.kernels.deal import deal_pack, shuffle_pack
from tarotsim.engine.kernels.rng import STREAM_WORDS, seed_stream
from tarotsim.engine.kernels.rules import card_bit, legal_set, trick_after
from tarotsim.engine.kernels.state import C_HAND, C_PLAYERS, MAX_SEATS
from tarotsim.players.kernels.policies.uniform import random_card
from tarotsim.runs.kernels.batch import BLOCK_DEALS


@njit(parallel=True)
def run_playout(deals: int, key: np.ndarray, cfg: np.ndarray, out: np.ndarray) -> None:
    """Deal and play out ``deals`` deals; ``out[i]`` gets a checksum so no work is optimised away."""
    players = cfg[C_PLAYERS]
    hand_size = cfg[C_HAND]
    blocks = (deals + BLOCK_DEALS - 1) // BLOCK_DEALS
    for block in prange(blocks):
        rng = np.zeros(STREAM_WORDS, dtype=np.uint64)
        pack = np.zeros(N_CARDS, dtype=np.int64)
        hands = np.zeros((MAX_SEATS, 2), dtype=np.uint64)
        chien = np.zeros(2, dtype=np.uint64)
        for deal in range(block * BLOCK_DEALS, min(deals, (block + 1) * BLOCK_DEALS)):
            seed_stream(rng, key, deal)
            shuffle_pack(rng, pack)
            deal_pack(pack, hands, chien, players, hand_size)
            check = 0
            leader = 0
            for _ in range(hand_size):
                led = NO_SUIT
                hi = 0
                for j in range(players):
                    seat = (leader + j) % players
                    legal0, legal1 = legal_set(hands[seat, 0], hands[seat, 1], led, hi)
                    card = random_card(rng, legal0, legal1)
                    bit0, bit1 = card_bit(card)
                    hands[seat, 0] ^= bit0
                    hands[seat, 1] ^= bit1
                    led, hi = trick_after(led, hi, card)
                    check += card
                leader = check % players
            out[deal] = check + np.int64(chien[0] & np.uint64(0xFF))
